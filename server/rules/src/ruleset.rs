//! [`Ruleset`]: the object-safe face of a battle that the server's actor holds, speaking
//! JSON actions and [`ViewValue`] views, and the types it speaks in.
//!
//! Rulesets are not written against this trait: they implement the typed
//! [`Game`](crate::game::Game), and [`Typed`](crate::typed::Typed) turns each into a
//! `Ruleset`. A ruleset is pure: no tokio, no I/O, no clock, no global RNG. It is built from
//! its options and a seed, changes only through [`Ruleset::setup`], [`Ruleset::apply`],
//! [`Ruleset::advance`] and [`Ruleset::timeout`] (the inputs of the
//! [input log](crate::input_log)), and so the seed plus the input log replays any battle
//! exactly. What a viewer may not see is marked in the view as seen only by others, and is
//! never serialized for that viewer.

use battle_protocol::Seat;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

pub use crate::error::{OptionsError, RuleError, SetupError};
pub use crate::view::{ViewValue, Viewer, Viewers};
pub use crate::words::Names;
pub use battle_protocol::OutcomeReason;

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The seats that won; empty for a draw (or when no seat won).
    pub winners: Vec<Seat>,
    /// One sentence in the third person, true for every reader, naming seats as
    /// [`Names`] does, e.g. "Ana wins with 182 points."
    pub summary: String,
    /// How it ended.
    pub reason: OutcomeReason,
}

impl Outcome {
    /// `winners` won (none: a draw, or a run lost) for `reason`, as `summary` says.
    pub fn new(winners: Vec<Seat>, reason: OutcomeReason, summary: impl Into<String>) -> Outcome {
        Outcome {
            winners,
            summary: summary.into(),
            reason,
        }
    }
}

/// One battle of one game, as the server drives it. Object safe: the actor holds
/// `Box<dyn Ruleset>`.
///
/// Its life: built from options and a seed (see [`RulesetEntry`](crate::entry::RulesetEntry)),
/// it waits until every seat is set up ([`Ruleset::setup`], in seat order, once every seat is
/// held), then plays. The shape covers every kind of decision the games need:
/// - turn-based play: [`Ruleset::to_act`] names the one seat whose decision is awaited;
/// - decisions by a non-active seat mid-turn (choosing blockers) or simultaneous decisions
///   (both mulligans): `to_act` names every seat whose decision is awaited, in any order;
/// - actions a seat may take without being awaited (pausing an auto-battle, resigning, a
///   reaction): [`Ruleset::legal_actions`] of a seat not in `to_act` need not be empty;
/// - decisions that cannot be listed one by one: an open entry in the legal actions (see
///   [`Legal`](crate::legal::Legal)), described by [`Ruleset::prompt_view`];
/// - engine-controlled sides: [`Ruleset::engine_seats`] are never offered to people, and
///   [`Ruleset::ai_action`] is the ruleset's own AI;
/// - time-driven progress: [`Ruleset::next_tick`] asks the actor to call
///   [`Ruleset::advance`] after a delay of game time;
/// - clocks: [`Ruleset::timeout`] is what happens when an awaited seat runs out of time;
/// - hidden information: [`Ruleset::view_all`] marks each hidden part with the viewers who
///   see it ([`ViewValue::Only`]), and [`Ruleset::view`] is what one viewer sees of it.
pub trait Ruleset: Send + 'static {
    /// The ruleset id, e.g. `"synergy"`.
    fn id(&self) -> &'static str;

    /// The ruleset's version: an input log replays only on the version that wrote it.
    fn version(&self) -> u32;

    /// How many seats this battle has (read from the battle: one ruleset may build battles
    /// of several sizes).
    fn seat_count(&self) -> usize;

    /// Seats the engine always plays (never offered to people), e.g. the Training Automaton.
    fn engine_seats(&self) -> Vec<Seat>;

    /// Whether `setup` (`None`: the ruleset's default) is one `seat` may bring; changes
    /// nothing. The server asks this when a person takes the seat.
    fn check_setup(&self, seat: Seat, setup: Option<&Value>) -> Result<(), SetupError>;

    /// Record `seat`'s setup, and the name its holder gave (`None`: none, or a bot: the
    /// battle names it as [`Names`] says). Once every seat has one, the battle starts. The
    /// server calls it for every seat in seat order once all seats are held, and logs each
    /// call with the name, so that a replay writes the same words.
    fn setup_as(
        &mut self,
        seat: Seat,
        setup: Option<&Value>,
        name: Option<&str>,
    ) -> Result<(), SetupError>;

    /// [`Ruleset::setup_as`] for a seat whose holder gave no name.
    fn setup(&mut self, seat: Seat, setup: Option<&Value>) -> Result<(), SetupError> {
        self.setup_as(seat, setup, None)
    }

    /// The name the ruleset gives `seat` when the server plays it and nobody named it
    /// (synergy's "Training Automaton"), if it has one.
    fn bot_name(&self, seat: Seat) -> Option<&'static str>;

    /// How every text of this battle names its seats, once it has started.
    fn names(&self) -> Option<&Names>;

    /// Whether every seat is set up and the battle has started.
    fn started(&self) -> bool;

    /// The seats whose decision the battle waits on now (empty when it waits on nobody, for
    /// example while the engine advances by itself or once the battle is over).
    fn to_act(&self) -> Vec<Seat>;

    /// Every action `seat` may take now, each as shown at `/legal` of its view: a whole
    /// action, sendable as `act.action` as is, or an open entry to fill in. Empty when the
    /// seat may do nothing; not empty for every seat in [`Ruleset::to_act`].
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;

    /// [`Ruleset::legal_actions`] as the list shown at `/legal` of `seat`'s view, built
    /// directly: it is rebuilt after every change.
    fn legal_view(&self, seat: Seat) -> ViewValue;

    /// What `seat` is asked to decide (`null` when its decision is not awaited), shown at
    /// `/prompt` of its view.
    fn prompt_view(&self, seat: Seat) -> ViewValue;

    /// Apply one action by `seat`. On error the state is exactly as before.
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), RuleError>;

    /// A random action `seat` may take now, drawn from `rng` (the battle's generator for
    /// bots and tests, never the game's own): always one `apply` accepts. `None` when the
    /// seat may do nothing.
    fn random_action(&self, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Value>;

    /// The move the ruleset's own AI makes for `seat` now, if it has an AI and `seat` must
    /// act. `None` lets the server fall back to [`Ruleset::random_action`].
    fn ai_action(&self, seat: Seat) -> Option<Value>;

    /// Milliseconds of game time until the engine wants [`Ruleset::advance`] called, or
    /// `None` when the battle only waits on seats.
    fn next_tick(&self) -> Option<u64>;

    /// Let the engine make its own progress (a tick of an auto-battler). Called only after
    /// `next_tick` returned `Some`.
    fn advance(&mut self) -> Result<(), RuleError>;

    /// `seat`, whose decision was awaited, ran out of time: the ruleset decides for it (or
    /// refuses when it has no rule for that).
    fn timeout(&mut self, seat: Seat) -> Result<(), RuleError>;

    /// `seat` gives up: the battle ends at once and every other seat wins. The same for every
    /// ruleset (the platform does it, not the game); refused before the start, after the end
    /// and for a seat the battle does not have.
    fn resign(&mut self, seat: Seat) -> Result<(), RuleError>;

    /// `seat` forfeits on time (the turn timer's last word): as [`Ruleset::resign`], but the
    /// outcome says it was the clock (`reason` `time`), not the player.
    fn forfeit(&mut self, seat: Seat) -> Result<(), RuleError>;

    /// Every viewer's view in one tree: each part that only some viewers may see is an
    /// object member whose value is wrapped in [`ViewValue::Only`] with the set of viewers
    /// who see it. `Null` until the battle starts. A ruleset that keeps a battle log through
    /// [`Ruleset::log`] leaves it out of this view.
    ///
    /// The server builds it once per change for all audiences, diffs it once, and sends each
    /// audience only the operations its viewers may see; a snapshot is written for one
    /// viewer, leaving out every member marked for others. So what a viewer may not see is
    /// never serialized for them.
    fn view_all(&self) -> ViewValue;

    /// The whole view for `viewer`, holding nothing that viewer may not see:
    /// [`Ruleset::view_all`] projected for `viewer`.
    fn view(&self, viewer: Viewer) -> ViewValue {
        self.view_all().project(viewer)
    }

    /// The battle log as `viewer` sees it: short sentences a player understands, oldest
    /// first. It only ever grows: a line once shown is never changed or removed. The server
    /// places it at `/game/log` of every view and sends each new line once.
    fn log(&self, viewer: Viewer) -> &[String];

    /// The outcome, once the battle is over.
    fn outcome(&self) -> Option<Outcome>;

    /// An independent copy of this battle (for tests and look-ahead).
    fn boxed_clone(&self) -> Box<dyn Ruleset>;
}

/// Builds a battle of one ruleset from its `create` options and its seed.
pub type BuildFn = fn(options: &Value, seed: u64) -> Result<Box<dyn Ruleset>, OptionsError>;
