//! [`Typed`]: a [`Game`] as the object-safe [`Ruleset`] the server holds.
//!
//! It is the only place where a game's typed options, setups and actions meet JSON: it parses
//! them (serde's messages name the unknown field or the missing one), holds the battle until
//! every seat is set up, and turns the game's views, legal actions and prompts into
//! [`ViewValue`]s with the view serializer.

use battle_protocol::Seat;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{OptionsError, RuleError, SetupError};
use crate::game::Game;
use crate::ruleset::{Outcome, OutcomeReason, Ruleset};
use crate::view::{to_view, ViewValue, Viewer};
use crate::words::{and_list, clean_name, Names};

/// A battle of game `G`: waiting for its seats' setups, then playing.
#[derive(Clone)]
pub struct Typed<G: Game> {
    seats: usize,
    engine: Vec<Seat>,
    /// The name of each engine seat, as the ruleset gives it.
    bot_names: Vec<Option<&'static str>>,
    state: State<G>,
    /// How every text names the seats, from the start.
    names: Option<Names>,
    /// The seat that gave up, if one did, and how: the battle is over, the others won.
    gave_up: Option<(Seat, GaveUp)>,
}

/// How a seat gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GaveUp {
    /// Its player resigned.
    Resigned,
    /// Its clock ran out once too often.
    OnTime,
}

#[derive(Clone)]
enum State<G: Game> {
    /// Some seat is not set up yet.
    Waiting {
        options: G::Options,
        seed: u64,
        setups: Vec<Option<G::Setup>>,
        /// The name each seat's holder gave.
        names: Vec<Option<String>>,
    },
    /// Every seat is set up.
    Playing(G),
}

/// Build a battle of `G` from `create` options (JSON `null`: the defaults) and a seed; the
/// [`BuildFn`](crate::ruleset::BuildFn) of every typed ruleset.
pub fn build<G: Game>(options: &Value, seed: u64) -> Result<Box<dyn Ruleset>, OptionsError> {
    Typed::<G>::new(options, seed).map(|typed| Box::new(typed) as Box<dyn Ruleset>)
}

/// `value` as a `T`, where JSON `null` or nothing at all means `T::default()`.
fn parse<T: DeserializeOwned + Default>(value: Option<&Value>) -> Result<T, serde_json::Error> {
    match value {
        None | Some(Value::Null) => Ok(T::default()),
        Some(value) => T::deserialize(value),
    }
}

/// The view of a value the ruleset built; a view that cannot be built is a ruleset bug,
/// shown as its error text rather than taking the battle down.
fn view_of<T: Serialize + ?Sized>(value: &T) -> ViewValue {
    to_view(value).unwrap_or_else(|err| {
        debug_assert!(false, "{err}");
        ViewValue::text(&err.to_string())
    })
}

/// Apply `action`, as JSON, to a started `game`: refused with `GameOver` once the battle is
/// over, with `BadAction` (serde's message: the unknown kind or field, the missing one) when
/// it is not an action of `G`, else as [`Game::apply`] decides.
pub fn apply_json<G: Game>(game: &mut G, seat: Seat, action: &Value) -> Result<(), RuleError> {
    if game.outcome().is_some() {
        return Err(RuleError::GameOver);
    }
    let action =
        G::Action::deserialize(action).map_err(|err| RuleError::BadAction(err.to_string()))?;
    game.apply(seat, action).map_err(Into::into)
}

impl<G: Game> Typed<G> {
    /// A battle of `G` waiting for its seats.
    pub fn new(options: &Value, seed: u64) -> Result<Typed<G>, OptionsError> {
        let options: G::Options =
            parse(Some(options)).map_err(|err| OptionsError(err.to_string()))?;
        G::check_options(&options)?;
        let seats = G::seat_count(&options);
        if !G::SEATS.contains(&seats) {
            return Err(OptionsError(format!(
                "these options make a battle of {seats} seats; {} battles have {} to {}",
                G::ID,
                G::SEATS.start(),
                G::SEATS.end()
            )));
        }
        let engine = G::engine_seats(&options);
        let bot_names = (0..seats)
            .map(|seat| {
                engine
                    .contains(&seat)
                    .then(|| G::bot_name(&options, seat))
                    .flatten()
            })
            .collect();
        Ok(Typed {
            seats,
            engine,
            bot_names,
            state: State::Waiting {
                options,
                seed,
                setups: vec![None; seats],
                names: vec![None; seats],
            },
            names: None,
            gave_up: None,
        })
    }

    /// The game, once it has started.
    pub fn game(&self) -> Option<&G> {
        match &self.state {
            State::Playing(game) => Some(game),
            State::Waiting { .. } => None,
        }
    }

    /// The game while it is being played: none before the start or after a resignation.
    fn live(&self) -> Option<&G> {
        self.game().filter(|_| self.gave_up.is_none())
    }

    /// The game to change: refused before the start and after a resignation.
    fn live_mut(&mut self) -> Result<&mut G, RuleError> {
        if self.gave_up.is_some() {
            return Err(RuleError::GameOver);
        }
        match &mut self.state {
            State::Playing(game) => Ok(game),
            State::Waiting { .. } => Err(RuleError::NotStarted),
        }
    }

    /// `seat` gives up (`how`): refused before the start, after the end and for a seat the
    /// battle does not have.
    fn give_up(&mut self, seat: Seat, how: GaveUp) -> Result<(), RuleError> {
        if seat >= self.seats {
            return Err(RuleError::Illegal(format!(
                "this battle has no seat {seat}"
            )));
        }
        let game = self.live_mut()?;
        if game.outcome().is_some() {
            return Err(RuleError::GameOver);
        }
        self.gave_up = Some((seat, how));
        Ok(())
    }

    fn setup_of(&self, seat: Seat, setup: Option<&Value>) -> Result<G::Setup, SetupError> {
        let State::Waiting { options, .. } = &self.state else {
            return Err(SetupError("the battle has already started".into()));
        };
        if seat >= self.seats {
            return Err(SetupError(format!(
                "this battle has seats 0 to {}",
                self.seats - 1
            )));
        }
        let setup: G::Setup = parse(setup).map_err(|err| SetupError(err.to_string()))?;
        G::check_setup(options, seat, &setup)?;
        Ok(setup)
    }
}

/// The outcome when `seat` of a battle of `seats` seats gave up (`how`): every other seat
/// wins. "Ana resigns: Ben wins.", "Ben forfeits on time: Ana wins.", and for a battle of
/// one seat "Ana resigns: the battle is lost."
fn gave_up_outcome(names: &Names, seats: usize, seat: Seat, how: GaveUp) -> Outcome {
    let winners: Vec<Seat> = (0..seats).filter(|&s| s != seat).collect();
    let (reason, verb) = match how {
        GaveUp::Resigned => (OutcomeReason::Resignation, "resigns"),
        GaveUp::OnTime => (OutcomeReason::Time, "forfeits on time"),
    };
    let rest = match winners.len() {
        0 => "the battle is lost".to_owned(),
        1 => format!("{} wins", names.of(winners[0])),
        _ => {
            let all: Vec<String> = winners.iter().map(|&s| names.of(s)).collect();
            format!("{} win", and_list(&all))
        }
    };
    Outcome::new(
        winners,
        reason,
        format!("{} {verb}: {rest}.", names.of(seat)),
    )
}

impl<G: Game> Ruleset for Typed<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn version(&self) -> u32 {
        G::VERSION
    }

    fn seat_count(&self) -> usize {
        self.seats
    }

    fn engine_seats(&self) -> Vec<Seat> {
        self.engine.clone()
    }

    fn check_setup(&self, seat: Seat, setup: Option<&Value>) -> Result<(), SetupError> {
        self.setup_of(seat, setup).map(drop)
    }

    fn setup_as(
        &mut self,
        seat: Seat,
        setup: Option<&Value>,
        name: Option<&str>,
    ) -> Result<(), SetupError> {
        let setup = self.setup_of(seat, setup)?;
        if let State::Waiting {
            options,
            seed,
            setups,
            names,
        } = &mut self.state
        {
            setups[seat] = Some(setup);
            names[seat] = name.and_then(clean_name);
            if setups.iter().all(Option::is_some) {
                let setups = std::mem::take(setups).into_iter().flatten().collect();
                let given = std::mem::take(names)
                    .into_iter()
                    .zip(&self.bot_names)
                    .map(|(name, bot)| name.or(bot.map(str::to_owned)))
                    .collect();
                let names = Names::new(given);
                self.names = Some(names.clone());
                self.state = State::Playing(G::start(options.clone(), *seed, setups, names));
            }
        }
        Ok(())
    }

    fn bot_name(&self, seat: Seat) -> Option<&'static str> {
        self.bot_names.get(seat).copied().flatten()
    }

    fn names(&self) -> Option<&Names> {
        self.names.as_ref()
    }

    fn started(&self) -> bool {
        matches!(self.state, State::Playing(_))
    }

    fn to_act(&self) -> Vec<Seat> {
        self.live().map(G::to_act).unwrap_or_default()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        let Some(game) = self.live() else {
            return Vec::new();
        };
        game.legal(seat)
            .iter()
            .filter_map(|entry| serde_json::to_value(entry).ok())
            .collect()
    }

    fn legal_view(&self, seat: Seat) -> ViewValue {
        match self.live() {
            Some(game) => view_of(&game.legal(seat)),
            None => ViewValue::List(Vec::new()),
        }
    }

    fn prompt_view(&self, seat: Seat) -> ViewValue {
        match self.live().and_then(|game| game.prompt(seat)) {
            Some(prompt) => prompt.to_view_value(),
            None => ViewValue::Null,
        }
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), RuleError> {
        apply_json(self.live_mut()?, seat, action)
    }

    fn random_action(&self, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Value> {
        let action = self.live()?.random_action(seat, rng)?;
        serde_json::to_value(action).ok()
    }

    fn ai_action(&self, seat: Seat) -> Option<Value> {
        let action = self.live()?.ai_action(seat)?;
        serde_json::to_value(action).ok()
    }

    fn next_tick(&self) -> Option<u64> {
        self.live().and_then(G::next_tick)
    }

    fn advance(&mut self) -> Result<(), RuleError> {
        self.live_mut()?.advance()
    }

    fn timeout(&mut self, seat: Seat) -> Result<(), RuleError> {
        self.live_mut()?.timeout(seat)
    }

    fn resign(&mut self, seat: Seat) -> Result<(), RuleError> {
        self.give_up(seat, GaveUp::Resigned)
    }

    fn forfeit(&mut self, seat: Seat) -> Result<(), RuleError> {
        self.give_up(seat, GaveUp::OnTime)
    }

    fn view_all(&self) -> ViewValue {
        match self.game() {
            Some(game) => view_of(&game.view()),
            None => ViewValue::Null,
        }
    }

    fn log(&self, viewer: Viewer) -> &[String] {
        match self.game() {
            Some(game) => game.log(viewer),
            None => &[],
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match (self.gave_up, &self.names) {
            (Some((seat, how)), Some(names)) => Some(gave_up_outcome(names, self.seats, seat, how)),
            _ => self.game().and_then(G::outcome),
        }
    }

    fn boxed_clone(&self) -> Box<dyn Ruleset> {
        Box::new(self.clone())
    }
}
