//! Card instances and a side's three zones (spec 3.3): draw pile, hand and discard pile, with
//! drawing, the hand limit and the seeded reshuffle of the discard pile.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::cards::CardDef;
use super::HAND_LIMIT;

/// One physical card in the battle: a pool definition plus an instance id that stays the same
/// wherever the card moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Instance id, unique within the battle (seat 0 from 1, seat 1 from 101).
    pub id: u32,
    /// What the card is.
    pub def: &'static CardDef,
}

/// Gives each definition an instance id, counting up from `first_id`.
pub fn instances(defs: &[&'static CardDef], first_id: u32) -> Vec<Card> {
    defs.iter()
        .zip(first_id..)
        .map(|(&def, id)| Card { id, def })
        .collect()
}

/// A side's cards. The draw pile's first element is its top card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Zones {
    /// Face-down cards; index 0 is drawn next.
    pub draw: Vec<Card>,
    /// Cards in hand, in the order they were drawn.
    pub hand: Vec<Card>,
    /// Played and discarded cards, oldest first.
    pub discard: Vec<Card>,
}

/// What happened during one draw request, for the log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DrawReport {
    /// Cards moved into the hand.
    pub drawn: u32,
    /// Sizes of each reshuffle of the discard pile into the draw pile, in order.
    pub reshuffles: Vec<usize>,
    /// Cards not drawn because the hand held [`HAND_LIMIT`] cards.
    pub held_back: u32,
    /// Cards not drawn because the draw and discard piles were both empty.
    pub missing: u32,
}

impl Zones {
    /// Every card the side owns, wherever it is.
    pub fn total(&self) -> usize {
        self.draw.len() + self.hand.len() + self.discard.len()
    }

    /// Draws up to `count` cards, one at a time. A draw that would take the hand past the hand
    /// limit is not made; an empty draw pile is refilled by shuffling the discard pile with
    /// `rng`; when both piles are empty the drawing stops.
    pub fn draw_cards(&mut self, count: u32, rng: &mut ChaCha8Rng) -> DrawReport {
        let mut report = DrawReport::default();
        for done in 0..count {
            if self.hand.len() >= HAND_LIMIT {
                report.held_back = count - done;
                break;
            }
            if self.draw.is_empty() {
                if self.discard.is_empty() {
                    report.missing = count - done;
                    break;
                }
                report.reshuffles.push(self.discard.len());
                self.draw.append(&mut self.discard);
                self.draw.shuffle(rng);
            }
            // The pile is non-empty here: it was refilled above or was never empty.
            let card = self.draw.remove(0);
            self.hand.push(card);
            report.drawn += 1;
        }
        report
    }

    /// Moves the whole hand to the discard pile, returning how many cards moved.
    pub fn discard_hand(&mut self) -> usize {
        let moved = self.hand.len();
        self.discard.append(&mut self.hand);
        moved
    }

    /// Position in hand of the card with instance id `id`.
    pub fn hand_position(&self, id: u32) -> Option<usize> {
        self.hand.iter().position(|card| card.id == id)
    }
}
