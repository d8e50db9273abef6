//! Why the heroes rules refuse an action, and how that maps onto the server's [`RuleError`].

use battle_protocol::Seat;
use thiserror::Error;

use crate::error::RuleError;

/// A refusal. A refused action leaves the game unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HeroesError {
    /// The game does not await this seat's decision now.
    #[error("seat {0} has no decision to make now")]
    NotYourTurn(Seat),
    /// The action breaks a rule; the message says which.
    #[error("{0}")]
    Invalid(String),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl HeroesError {
    /// A refusal with this sentence.
    pub fn invalid(why: impl Into<String>) -> HeroesError {
        HeroesError::Invalid(why.into())
    }
}

impl From<HeroesError> for RuleError {
    fn from(err: HeroesError) -> Self {
        match err {
            HeroesError::NotYourTurn(seat) => RuleError::NotYourTurn(seat),
            HeroesError::GameOver => RuleError::GameOver,
            HeroesError::Invalid(why) => RuleError::Illegal(why),
        }
    }
}
