//! What a Blind Bids battle is created with (seats and rounds) and what each player brings to
//! a seat (a hand of bid cards), with the checks that refuse anything else.

use serde::Deserialize;

use crate::error::{OptionsError, SetupError};

/// Highest card value.
pub const TOP_CARD: u8 = 13;
/// Most rounds a battle may have.
pub const MAX_ROUNDS: u8 = 9;

/// The `create` options: `{"seats": 1 | 2, "rounds": 1..=9}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// 2: two people bid against each other; 1: one person against the House.
    pub seats: usize,
    /// How many prizes are bid for.
    pub rounds: u8,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seats: 2,
            rounds: 5,
        }
    }
}

impl Options {
    /// Refuse seats or rounds out of range.
    pub fn check(&self) -> Result<(), OptionsError> {
        if !(1..=2).contains(&self.seats) {
            return Err(OptionsError(format!(
                "seats is {}; a Blind Bids battle has 1 or 2 seats",
                self.seats
            )));
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds) {
            return Err(OptionsError(format!(
                "rounds is {}; a battle has 1 to {MAX_ROUNDS} rounds",
                self.rounds
            )));
        }
        Ok(())
    }

    /// Fewest and most cards a hand holds: one card per round at least, two at most (and
    /// never more than the 13 cards there are).
    pub fn hand_size(&self) -> (usize, usize) {
        let rounds = usize::from(self.rounds);
        (rounds, (2 * rounds).min(usize::from(TOP_CARD)))
    }
}

/// What a player brings to a seat with `join`: `{"hand": [cards]}`, distinct whole numbers
/// from 1 to 13. Without a hand the seat plays 1, 2, ... up to two more cards than rounds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The cards, in any order.
    #[serde(default)]
    pub hand: Option<Vec<u8>>,
}

impl Setup {
    /// The hand this setup plays (sorted), or why it is refused.
    pub fn hand(&self, options: &Options) -> Result<Vec<u8>, SetupError> {
        let Some(cards) = &self.hand else {
            let (min, max) = options.hand_size();
            let size = (min + 2).min(max);
            return Ok((1..=TOP_CARD).take(size).collect());
        };
        let (min, max) = options.hand_size();
        if !(min..=max).contains(&cards.len()) {
            return Err(SetupError(format!(
                "a hand for {} rounds holds {min} to {max} cards; this one has {}",
                options.rounds,
                cards.len()
            )));
        }
        if let Some(card) = cards.iter().find(|&&c| !(1..=TOP_CARD).contains(&c)) {
            return Err(SetupError(format!(
                "cards are 1 to {TOP_CARD}; {card} is not one"
            )));
        }
        let mut hand = cards.clone();
        hand.sort_unstable();
        if let Some(pair) = hand.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(SetupError(format!(
                "card {} is in the hand twice; a hand holds each card once",
                pair[0]
            )));
        }
        Ok(hand)
    }
}
