//! [`Game`]: the typed trait a ruleset is written against.
//!
//! A ruleset author writes typed Rust: options, a per-seat setup and an action enum that
//! derive `Deserialize` (and `Serialize` for actions), `legal`/`apply` on those types, and a
//! view built from plain structs deriving `Serialize`, with [`Only`](crate::view::Only)
//! around what only some viewers see. [`Typed`](crate::typed::Typed) turns a `Game` into the
//! object-safe [`Ruleset`](crate::ruleset::Ruleset) the server holds: it parses the JSON the
//! wire carries (refusing unknown fields with a clear message), holds the battle until every
//! seat is set up, and builds the marked view tree the diff works on. See
//! `docs/writing-a-ruleset.md` for a walk through.

use std::ops::RangeInclusive;

use battle_protocol::Seat;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::entry::Sample;
use crate::error::{OptionsError, RuleError, SetupError};
use crate::legal::Legal;
use crate::prompt::Prompt;
use crate::ruleset::Outcome;
use crate::view::Viewer;
use crate::words::Names;

/// A legal entry of `legal` drawn at random from `rng`, an open one filled within its bounds
/// (`None` when `legal` is empty or the drawn open entry admits nothing).
pub fn random_among<A: DeserializeOwned>(
    mut legal: Vec<Legal<A>>,
    rng: &mut ChaCha8Rng,
) -> Option<A> {
    if legal.is_empty() {
        return None;
    }
    match legal.swap_remove(rng.random_range(0..legal.len())) {
        Legal::Act(action) => Some(action),
        Legal::Open(open) => serde_json::from_value(open.random(rng)?).ok(),
    }
}

/// One game's rules, typed. Implement it, export `RulesetEntry::of::<YourGame>()` as the
/// module's `ENTRY`, and add one line to the [catalog](crate::catalog).
///
/// The battle is pure: no I/O, no clock, and all randomness from a generator seeded by the
/// `seed` given to [`Game::start`]. Every change goes through [`Game::apply`],
/// [`Game::advance`] or [`Game::timeout`]; each leaves the state unchanged when it refuses.
pub trait Game: Clone + Send + Sized + 'static {
    /// The options `create` carries. JSON `null` means `Default`. Derive `Deserialize` with
    /// `#[serde(deny_unknown_fields)]` so that typos are refused.
    type Options: DeserializeOwned + Default + Clone + Send;
    /// What a player brings to a seat with `join` (a deck, a class, a party). An absent
    /// setup means `Default`, which is also what bots bring.
    type Setup: DeserializeOwned + Default + Clone + Send;
    /// One decision. Derive `Serialize` and `Deserialize` with
    /// `#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]`, and write
    /// variants without members as `EndTurn {}`: serde lets a unit variant through with
    /// unknown members (the playout harness refuses a ruleset that does).
    type Action: Serialize + DeserializeOwned + Clone;
    /// Why an action is refused: a typed enum with a stable wire code through
    /// [`RuleError`].
    type Error: Into<RuleError>;

    /// The ruleset id used in `create`, e.g. `"synergy"`.
    const ID: &'static str;
    /// Raised whenever the same inputs could replay differently: an input log replays only
    /// on the version that wrote it.
    const VERSION: u32;
    /// One line describing the game and its options, listed in `welcome`.
    const SUMMARY: &'static str;
    /// The seat counts this ruleset's battles may have.
    const SEATS: RangeInclusive<usize>;
    /// Named option sets for tests, load tests and clients' defaults; the first is the
    /// default. At least one.
    const SAMPLES: &'static [Sample];
    /// Most steps (actions, engine steps and timeouts) any battle takes: the playout harness
    /// counts a battle that runs longer as endless.
    const MAX_STEPS: usize;
    /// How a person's decisions are timed unless `create` says otherwise (`None`: untimed).
    /// Written in the ruleset's rules document.
    const TIMER: Option<crate::TimerSpec> = Some(crate::TimerSpec::STANDARD);

    /// Refuse options that deserialize but do not go together (default: accept).
    fn check_options(options: &Self::Options) -> Result<(), OptionsError> {
        let _ = options;
        Ok(())
    }

    /// How many seats a battle with `options` has (within [`Game::SEATS`]).
    fn seat_count(options: &Self::Options) -> usize;

    /// The seats the engine always plays with `options` (default: none).
    fn engine_seats(options: &Self::Options) -> Vec<Seat> {
        let _ = options;
        Vec::new()
    }

    /// Refuse a setup that deserializes but breaks the rules (a deck too small, say), with
    /// a sentence saying what is wrong (default: accept).
    fn check_setup(
        options: &Self::Options,
        seat: Seat,
        setup: &Self::Setup,
    ) -> Result<(), SetupError> {
        let _ = (options, seat, setup);
        Ok(())
    }

    /// The name the ruleset gives engine seat `seat` (see [`Game::engine_seats`]), e.g.
    /// "Training Automaton" (default: none, the seat is "Player N").
    fn bot_name(options: &Self::Options, seat: Seat) -> Option<&'static str> {
        let _ = (options, seat);
        None
    }

    /// The battle, once every seat is set up (`setups[seat]`, all checked), its seats
    /// named by `names` in every line it writes (see [`crate::words`]).
    fn start(options: Self::Options, seed: u64, setups: Vec<Self::Setup>, names: Names) -> Self;

    /// The seats whose decision the battle awaits now.
    fn to_act(&self) -> Vec<Seat>;

    /// Everything `seat` may do now: not empty for an awaited seat, and may hold actions for
    /// seats not awaited. Empty once the battle is over.
    fn legal(&self, seat: Seat) -> Vec<Legal<Self::Action>>;

    /// What an awaited `seat` is asked to decide (default: [`Prompt::turn`] for an awaited
    /// seat, nothing otherwise).
    fn prompt(&self, seat: Seat) -> Option<Prompt> {
        self.to_act().contains(&seat).then(Prompt::turn)
    }

    /// Apply one action by `seat`, checking everything before the first change.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<(), Self::Error>;

    /// A random action `seat` may take now, drawn from `rng`, that [`Game::apply`] accepts.
    /// The default picks a legal entry at random and fills an open entry within its bounds;
    /// override it when an open entry's bounds admit actions the rules refuse.
    fn random_action(&self, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Self::Action> {
        random_among(self.legal(seat), rng)
    }

    /// The ruleset's own AI for `seat`, if it has one (default: none; bots then play
    /// [`Game::random_action`]).
    fn ai_action(&self, seat: Seat) -> Option<Self::Action> {
        let _ = seat;
        None
    }

    /// Milliseconds of game time until the engine's next step, when the battle moves by
    /// itself (default: never).
    fn next_tick(&self) -> Option<u64> {
        None
    }

    /// The engine's next step (called only after `next_tick` said one is due).
    fn advance(&mut self) -> Result<(), RuleError> {
        Err(RuleError::Illegal(
            "this ruleset has no engine steps".into(),
        ))
    }

    /// An awaited `seat` ran out of time (default: refused; rulesets with clocks decide).
    fn timeout(&mut self, seat: Seat) -> Result<(), RuleError> {
        let _ = seat;
        Err(RuleError::Illegal("this ruleset has no clock".into()))
    }

    /// Every viewer's view: a value deriving `Serialize`, with
    /// [`Only`](crate::view::Only) around each part only some viewers see. Without the log.
    fn view(&self) -> impl Serialize + '_;

    /// The battle log as `viewer` sees it; it only grows (default: none). Written in the
    /// third person with the helpers of [`crate::words`]: who did what to whom and by how
    /// much, seats by their [`Names`], things by their names in the content, never ids.
    fn log(&self, viewer: Viewer) -> &[String] {
        let _ = viewer;
        &[]
    }

    /// The outcome, once the battle is over: who won, how ([`Outcome::reason`]) and one
    /// third-person sentence naming seats by their [`Names`].
    fn outcome(&self) -> Option<Outcome>;
}
