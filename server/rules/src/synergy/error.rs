//! Why the synergy rules refuse an action or a state change, and how that maps onto the
//! server's generic [`RuleError`].

use thiserror::Error;

use crate::ruleset::RuleError;
use battle_protocol::Seat;

/// A refusal by the synergy rules. A refused action leaves the battle unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SynergyError {
    /// The seat has no decision to make now (not its turn, or no such seat).
    #[error("it is not seat {0}'s turn")]
    NotYourTurn(Seat),
    /// The card instance is not in the acting side's hand.
    #[error("card {0} is not in your hand")]
    NoSuchCard(u32),
    /// The card costs more energy than the side has left.
    #[error("that card costs {cost} energy but only {energy} is left")]
    NotEnoughEnergy {
        /// The card's energy cost.
        cost: u32,
        /// The side's remaining energy.
        energy: u32,
    },
    /// The battle is over.
    #[error("the battle is over")]
    GameOver,
    /// The state machine does not allow this jump (spec 8.3).
    #[error("invalid state transition from {from} to {to}")]
    InvalidTransition {
        /// The state the battle is in.
        from: &'static str,
        /// The state that was asked for.
        to: &'static str,
    },
}

impl From<SynergyError> for RuleError {
    fn from(err: SynergyError) -> Self {
        match err {
            SynergyError::NotYourTurn(seat) => RuleError::NotYourTurn(seat),
            SynergyError::GameOver => RuleError::GameOver,
            other @ (SynergyError::NoSuchCard(_)
            | SynergyError::NotEnoughEnergy { .. }
            | SynergyError::InvalidTransition { .. }) => RuleError::Illegal(other.to_string()),
        }
    }
}
