//! Actions: a sealed bid (an open decision: which 1 or 2 cards) and a signal (allowed while
//! not awaited), what a seat may do now, and their checks before any change.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::error::BlindError;
use super::state::{Blind, Phase};
use crate::legal::{Legal, Open};
use crate::param::Param;

/// A public signal, one per round per seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mood {
    Confident,
    Wary,
}

/// One decision: `{"kind": "bid", "cards": [5, 9]}` or `{"kind": "signal", "mood": "wary"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Seal 1 or 2 cards of the hand as this round's bid.
    Bid {
        /// The cards, each in the hand once.
        cards: Vec<u8>,
    },
    /// Show a mood to everyone.
    Signal {
        /// The mood shown.
        mood: Mood,
    },
}

impl Blind {
    /// What `seat` may do now: its bid (when awaited) as an open entry, then a signal of each
    /// mood (until it has signalled this round). Nothing once the battle is over.
    pub fn legal_for(&self, seat: Seat) -> Vec<Legal<Action>> {
        if self.phase == Phase::Over || seat >= self.bidders.len() {
            return Vec::new();
        }
        let bidder = &self.bidders[seat];
        let mut legal = Vec::with_capacity(3);
        if self.phase == Phase::Bidding && bidder.bid.is_none() {
            let cards = Param::subset(bidder.hand.iter().copied(), 1, self.max_bid(seat));
            legal.push(Legal::Open(Open::new("bid").choose("cards", cards)));
        }
        if bidder.signal.is_none() {
            for mood in [Mood::Confident, Mood::Wary] {
                legal.push(Legal::Act(Action::Signal { mood }));
            }
        }
        legal
    }

    /// Check and apply `action` by `seat`; nothing changes when it is refused.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), BlindError> {
        if self.phase == Phase::Over {
            return Err(BlindError::GameOver);
        }
        if seat >= self.bidders.len() {
            return Err(BlindError::NotYourTurn(seat));
        }
        match action {
            Action::Bid { cards } => {
                self.check_bid(seat, &cards)?;
                self.seal(seat, cards);
            }
            Action::Signal { mood } => {
                let bidder = &mut self.bidders[seat];
                if bidder.signal.is_some() {
                    return Err(BlindError::SignalledAlready);
                }
                bidder.signal = Some(mood);
                let word = match mood {
                    Mood::Confident => "confident",
                    Mood::Wary => "wary",
                };
                let line = format!("{} signals: {word}.", bidder.name);
                self.log.push(line);
            }
        }
        Ok(())
    }

    /// Whether `cards` is a bid `seat` may make now.
    fn check_bid(&self, seat: Seat, cards: &[u8]) -> Result<(), BlindError> {
        let bidder = &self.bidders[seat];
        if self.phase != Phase::Bidding || bidder.bid.is_some() {
            return Err(BlindError::NotYourTurn(seat));
        }
        let max = self.max_bid(seat);
        if cards.is_empty() || cards.len() > max {
            return Err(BlindError::BidSize {
                count: cards.len(),
                max,
            });
        }
        for (i, card) in cards.iter().enumerate() {
            if !bidder.hand.contains(card) || cards[..i].contains(card) {
                return Err(BlindError::NotInHand(*card));
            }
        }
        Ok(())
    }

    /// `seat` ran out of time: it bids its lowest card.
    pub fn time_out(&mut self, seat: Seat) -> Result<(), BlindError> {
        if !self.awaited().contains(&seat) {
            return Err(BlindError::NotYourTurn(seat));
        }
        // An awaited seat holds a card for this round and each later one.
        let Some(&lowest) = self.bidders[seat].hand.first() else {
            return Err(BlindError::NotYourTurn(seat));
        };
        self.log
            .push(format!("{} ran out of time.", self.bidders[seat].name));
        self.seal(seat, vec![lowest]);
        Ok(())
    }
}
