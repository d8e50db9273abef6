//! Why the lore rules refuse an action, each refusal with a stable snake_case code, and how
//! that maps onto the server's [`RuleError`].

use battle_protocol::Seat;
use thiserror::Error;

use crate::error::RuleError;

/// A refusal. A refused action leaves the game unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoreError {
    /// The game does not await this seat's decision now.
    #[error("seat {0} has no decision to make now")]
    NotYourTurn(Seat),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The action belongs to another part of the turn (a move outside the Main phase, a
    /// mulligan after the setup).
    #[error("{0}")]
    WrongPhase(&'static str),
    /// Triggered abilities wait in the bag: they resolve before any move or passing.
    #[error("resolve the triggered abilities in the bag first")]
    PendingTriggers,
    /// The alter-hand choice names cards not in the hand, or one twice.
    #[error("put back distinct cards of your hand")]
    BadMulligan,
    /// The card is not in the player's hand.
    #[error("card {0} is not in your hand")]
    NotInHand(u32),
    /// A card already went into the inkwell this turn.
    #[error("you already put a card into your inkwell this turn")]
    AlreadyInked,
    /// The card has no inkwell symbol.
    #[error("{0} has no inkwell symbol")]
    NotInkable(&'static str),
    /// Not enough ready ink to pay the cost.
    #[error("it costs {cost} ink and you have {ready} ready")]
    NotEnoughInk {
        /// The cost.
        cost: u32,
        /// Ready ink.
        ready: u32,
    },
    /// The card is not one of the player's characters in play.
    #[error("card {0} is not one of your characters in play")]
    NotYourCharacter(u32),
    /// The character is exerted.
    #[error("{0} is exerted")]
    Exerted(&'static str),
    /// The character is drying: played since its owner's last Set step.
    #[error("{0} is drying: it was played this turn")]
    Drying(&'static str),
    /// The challenged card is not an exerted opposing character or an opposing location.
    #[error("card {0} cannot be challenged: challenge an exerted opposing character or an opposing location")]
    NotChallengeable(u32),
    /// The chosen character is not one the effect may choose (or none was chosen while
    /// there is one to choose).
    #[error("choose one of the characters the effect may choose ({0})")]
    BadTarget(String),
    /// The trigger is not one of the seat's in the bag.
    #[error("trigger {0} is not one of your abilities in the bag")]
    NotInBag(u32),
}

impl LoreError {
    /// The stable code of this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            LoreError::NotYourTurn(_) => "not_your_turn",
            LoreError::GameOver => "game_over",
            LoreError::WrongPhase(_) => "wrong_phase",
            LoreError::PendingTriggers => "pending_triggers",
            LoreError::BadMulligan => "bad_mulligan",
            LoreError::NotInHand(_) => "not_in_hand",
            LoreError::AlreadyInked => "already_inked",
            LoreError::NotInkable(_) => "not_inkable",
            LoreError::NotEnoughInk { .. } => "not_enough_ink",
            LoreError::NotYourCharacter(_) => "not_your_character",
            LoreError::Exerted(_) => "exerted",
            LoreError::Drying(_) => "drying",
            LoreError::NotChallengeable(_) => "not_challengeable",
            LoreError::BadTarget(_) => "bad_target",
            LoreError::NotInBag(_) => "not_in_bag",
        }
    }
}

impl From<LoreError> for RuleError {
    fn from(err: LoreError) -> Self {
        match err {
            LoreError::NotYourTurn(seat) => RuleError::NotYourTurn(seat),
            LoreError::GameOver => RuleError::GameOver,
            other => RuleError::Illegal(format!("{}: {other}", other.code())),
        }
    }
}
