//! The one trait every game implements, and the types it speaks in.
//!
//! A ruleset is pure: no tokio, no I/O, no clock, no global RNG. It is built from its options
//! and a seed, changes only through [`Ruleset::apply`] and [`Ruleset::advance`], and so the
//! seed plus the input log replays any battle exactly. What a viewer may not see is marked
//! in the view as seen only by others, and is never serialized for that viewer.

use battle_protocol::{ErrorCode, Seat};
use serde_json::Value;
use thiserror::Error;

pub use crate::view::value::ViewValue;
pub use crate::view::viewers::Viewers;

/// Who a view is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// The holder of a seat: sees its own hidden zones.
    Seat(Seat),
    /// A spectator: sees only what every player sees.
    Spectator,
}

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The seats that won; empty for a draw (or when no seat won).
    pub winners: Vec<Seat>,
    /// One sentence a player understands, e.g. "Player wins with 182 points".
    pub summary: String,
}

/// Why a ruleset refused an action. Refusal leaves the state unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// The seat has no decision to make right now.
    #[error("it is not seat {0}'s turn to act")]
    NotYourTurn(Seat),
    /// The action is not a shape this ruleset understands.
    #[error("malformed action: {0}")]
    BadAction(String),
    /// The action is understood but the rules forbid it now.
    #[error("{0}")]
    Illegal(String),
    /// The battle already has an outcome.
    #[error("the battle is over")]
    GameOver,
}

impl RuleError {
    /// The wire code sent to the client.
    pub fn code(&self) -> ErrorCode {
        match self {
            RuleError::NotYourTurn(_) => ErrorCode::NotYourTurn,
            RuleError::BadAction(_) => ErrorCode::BadAction,
            RuleError::Illegal(_) => ErrorCode::IllegalAction,
            RuleError::GameOver => ErrorCode::BattleOver,
        }
    }
}

/// Why a ruleset refused the options given at `create`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct OptionsError(pub String);

/// One game's rules, state and views. Object safe: the server holds `Box<dyn Ruleset>`.
///
/// The shape covers every kind of decision the games need:
/// - turn-based play: [`Ruleset::to_act`] names the one seat that must act;
/// - decisions by a non-active seat mid-turn (choosing blockers) or simultaneous decisions
///   (both mulligans): `to_act` names every seat whose decision is awaited, in any order;
/// - engine-controlled sides: [`Ruleset::engine_seats`] are never offered to people, and
///   [`Ruleset::ai_action`] is the ruleset's own AI for any seat it can play;
/// - time-driven progress: [`Ruleset::next_tick`] asks the actor to call
///   [`Ruleset::advance`] after a delay of game time;
/// - hidden information: [`Ruleset::view_all`] marks each hidden part with the viewers who
///   see it ([`ViewValue::Only`]), and [`Ruleset::view`] is what one viewer sees of it.
pub trait Ruleset: Send + 'static {
    /// The ruleset id, e.g. `"synergy"`.
    fn id(&self) -> &'static str;

    /// How many seats this battle has.
    fn seat_count(&self) -> usize;

    /// Seats the engine always plays (never offered to people), e.g. the Training Automaton.
    fn engine_seats(&self) -> Vec<Seat> {
        Vec::new()
    }

    /// The seats whose decision the battle waits on now (empty when it waits on nobody, for
    /// example while the engine advances by itself or once the battle is over).
    fn to_act(&self) -> Vec<Seat>;

    /// Every action `seat` may take now, each directly sendable as `act.action`. Empty when
    /// the seat has nothing to decide.
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;

    /// [`Ruleset::legal_actions`] as the list shown at `/legal` of `seat`'s view. It is
    /// rebuilt after every change, so a ruleset may build it directly instead of converting
    /// the JSON actions; it must hold exactly those actions, in the same order.
    fn legal_view(&self, seat: Seat) -> ViewValue {
        ViewValue::List(
            self.legal_actions(seat)
                .iter()
                .map(ViewValue::from)
                .collect(),
        )
    }

    /// Apply one action by `seat`. On error the state is exactly as before.
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), RuleError>;

    /// The move the ruleset's own AI makes for `seat` now, if it has an AI and `seat` must act.
    /// `None` lets the server fall back to its generic policy over the legal actions.
    fn ai_action(&self, seat: Seat) -> Option<Value> {
        let _ = seat;
        None
    }

    /// Milliseconds of game time until the engine wants [`Ruleset::advance`] called, or
    /// `None` when the battle only waits on seats.
    fn next_tick(&self) -> Option<u64> {
        None
    }

    /// Let the engine make its own progress (a tick of an auto-battler). Called only after
    /// `next_tick` returned `Some`.
    fn advance(&mut self) -> Result<(), RuleError> {
        Err(RuleError::Illegal(
            "this ruleset has no engine steps".into(),
        ))
    }

    /// Every viewer's view in one tree: each part that only some viewers may see (a hand,
    /// a seat's private counters) is an object member whose value is wrapped in
    /// [`ViewValue::Only`] with the set of viewers who see it. A ruleset that keeps a battle
    /// log through [`Ruleset::log`] leaves it out of this view.
    ///
    /// The server builds it once per change for all audiences, diffs it once, and sends each
    /// audience only the operations its viewers may see; a snapshot is written for one
    /// viewer, leaving out every member marked for others. So what a viewer may not see is
    /// never serialized for them. Build the marks the same way in every view of a battle
    /// (same keys, same sets, same order), never directly as a list item.
    fn view_all(&self) -> ViewValue;

    /// The whole view for `viewer`, holding nothing that viewer may not see:
    /// [`Ruleset::view_all`] projected for `viewer`.
    fn view(&self, viewer: Viewer) -> ViewValue {
        self.view_all().project(viewer)
    }

    /// The battle log as `viewer` sees it: short sentences a player understands, oldest
    /// first. It only ever grows: a line once shown is never changed or removed. The server
    /// places it at `/game/log` of every view (so [`Ruleset::view`] must return an object
    /// without a `log` key) and sends each new line once, instead of rebuilding and diffing
    /// the whole log on every change.
    fn log(&self, viewer: Viewer) -> &[String] {
        let _ = viewer;
        &[]
    }

    /// The outcome, once the battle is over.
    fn outcome(&self) -> Option<Outcome>;
}

/// Builds a battle of one ruleset from its `create` options and its seed.
pub type BuildFn = fn(options: &Value, seed: u64) -> Result<Box<dyn Ruleset>, OptionsError>;

/// A ruleset the server can build, as listed in `welcome`.
pub struct RulesetEntry {
    /// The id used in `create`.
    pub id: &'static str,
    /// Seats of a battle of this ruleset.
    pub seats: usize,
    /// One line describing the game and its options.
    pub summary: &'static str,
    /// Builds a battle from its `create` options and its seed.
    pub build: BuildFn,
}
