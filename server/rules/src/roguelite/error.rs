//! Why the roguelite rules refuse an action, each with a stable snake_case code, and how that
//! maps onto the server's [`RuleError`].

use battle_protocol::Seat;
use thiserror::Error;

use crate::error::RuleError;

/// A refusal. A refused action leaves the run unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RogueliteError {
    /// Only seat 0 plays, and only in its phase or between battles.
    #[error("seat {0} has no decision to make now")]
    NotYourTurn(Seat),
    /// The action does not fit the moment (a card between battles, a reward in a battle).
    #[error("{0}")]
    WrongStage(String),
    /// The card named is not in the hand.
    #[error("card {0} is not in your hand")]
    NotInHand(u32),
    /// The card costs more energy than is left.
    #[error("{name} costs {cost} energy; you have {energy}")]
    CannotPay {
        /// The card's name.
        name: &'static str,
        /// Its cost.
        cost: u32,
        /// Energy left.
        energy: u32,
    },
    /// The reward named is not on offer.
    #[error("\"{0}\" is not on offer")]
    NotOffered(String),
    /// The run is over.
    #[error("the run is over")]
    GameOver,
}

impl RogueliteError {
    /// The stable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            RogueliteError::NotYourTurn(_) => "not_your_turn",
            RogueliteError::WrongStage(_) => "wrong_stage",
            RogueliteError::NotInHand(_) => "not_in_hand",
            RogueliteError::CannotPay { .. } => "cannot_pay",
            RogueliteError::NotOffered(_) => "not_offered",
            RogueliteError::GameOver => "game_over",
        }
    }
}

impl From<RogueliteError> for RuleError {
    fn from(err: RogueliteError) -> Self {
        match err {
            RogueliteError::NotYourTurn(seat) => RuleError::NotYourTurn(seat),
            RogueliteError::GameOver => RuleError::GameOver,
            other => RuleError::Illegal(other.to_string()),
        }
    }
}
