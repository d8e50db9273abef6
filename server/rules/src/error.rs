//! Why a ruleset refuses something: an action ([`RuleError`]), the options of a new battle
//! ([`OptionsError`]) or the setup a player brings to a seat ([`SetupError`]). Each maps to a
//! stable wire code.

use battle_protocol::{ErrorCode, Seat};
use thiserror::Error;

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
    /// The battle has not started: some seat is not set up yet.
    #[error("the battle has not started")]
    NotStarted,
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
            RuleError::NotStarted => ErrorCode::NotStarted,
            RuleError::GameOver => ErrorCode::BattleOver,
        }
    }
}

/// Why a ruleset refused the options given at `create` (wire code `bad_options`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct OptionsError(pub String);

/// Why a ruleset refused the setup a player brought to a seat with `join` (wire code
/// `bad_setup`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct SetupError(pub String);

impl SetupError {
    /// The wire code sent to the client.
    pub fn code(&self) -> ErrorCode {
        ErrorCode::BadSetup
    }
}
