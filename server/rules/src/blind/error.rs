//! Why the Blind Bids rules refuse an action, and how that maps onto the server's
//! [`RuleError`].

use battle_protocol::Seat;
use thiserror::Error;

use crate::error::RuleError;

/// A refusal by the Blind Bids rules. A refused action leaves the battle unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BlindError {
    /// The seat has no bid to make now (it has bid this round, or the reveal is pending).
    #[error("seat {0} has no bid to make now")]
    NotYourTurn(Seat),
    /// A bid names no card, or more than the seat may bid.
    #[error("bid 1 to {max} cards; this bid has {count}")]
    BidSize {
        /// Cards in the bid.
        count: usize,
        /// Most cards this bid may hold.
        max: usize,
    },
    /// A bid names a card the seat does not hold (or names one twice).
    #[error("card {0} is not in your hand")]
    NotInHand(u8),
    /// A second signal in one round.
    #[error("you have already signalled this round")]
    SignalledAlready,
    /// The battle is over.
    #[error("the battle is over")]
    GameOver,
}

impl From<BlindError> for RuleError {
    fn from(err: BlindError) -> Self {
        match err {
            BlindError::NotYourTurn(seat) => RuleError::NotYourTurn(seat),
            BlindError::GameOver => RuleError::GameOver,
            other => RuleError::Illegal(other.to_string()),
        }
    }
}
