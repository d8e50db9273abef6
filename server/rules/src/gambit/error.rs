//! Why the gambit rules refuse an action, and how that maps onto the server's [`RuleError`].

use battle_protocol::Seat;
use thiserror::Error;

use crate::error::RuleError;

/// A refusal. A refused action leaves the battle unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GambitError {
    /// The seat has nothing to decide now (the fight runs, or it is the other seat's turn).
    #[error("seat {0} cannot do that now")]
    NotYourTurn(Seat),
    /// The action does not fit the phase (editing during a running fight, pausing in
    /// planning, taking a skill when none is offered).
    #[error("{0}")]
    WrongPhase(String),
    /// The action names something that is not there or breaks a rule of the program.
    #[error("{0}")]
    Invalid(String),
    /// The battle is over.
    #[error("the battle is over")]
    GameOver,
}

impl From<GambitError> for RuleError {
    fn from(err: GambitError) -> Self {
        match err {
            GambitError::NotYourTurn(seat) => RuleError::NotYourTurn(seat),
            GambitError::GameOver => RuleError::GameOver,
            other => RuleError::Illegal(other.to_string()),
        }
    }
}
