//! The player's cards in a battle: the draw pile (its order seen by nobody), the hand and
//! the discard pile, each holding card numbers (positions in the run's deck).

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Cards drawn at the start of each of the player's phases.
pub const DRAW: usize = 5;

/// The three piles of a battle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Piles {
    /// The draw pile, its top last.
    pub draw: Vec<u32>,
    /// The hand, in the order drawn.
    pub hand: Vec<u32>,
    /// The discard pile.
    pub discard: Vec<u32>,
}

impl Piles {
    /// A battle's piles: every card of a deck of `size` in the draw pile, shuffled.
    pub fn new(size: usize, rng: &mut ChaCha8Rng) -> Piles {
        let mut draw: Vec<u32> = (0..size as u32).collect();
        draw.shuffle(rng);
        Piles {
            draw,
            hand: Vec::new(),
            discard: Vec::new(),
        }
    }

    /// Draw up to `n` cards; an empty draw pile first takes the discard pile, shuffled.
    /// Returns how many were drawn and whether the discard was shuffled in.
    pub fn draw(&mut self, n: usize, rng: &mut ChaCha8Rng) -> (usize, bool) {
        let mut shuffled = false;
        let mut drawn = 0;
        for _ in 0..n {
            if self.draw.is_empty() && !self.discard.is_empty() {
                self.draw.append(&mut self.discard);
                self.draw.shuffle(rng);
                shuffled = true;
            }
            let Some(card) = self.draw.pop() else {
                break;
            };
            self.hand.push(card);
            drawn += 1;
        }
        (drawn, shuffled)
    }

    /// Move card `card` from the hand to the discard pile (false if not in hand).
    pub fn play(&mut self, card: u32) -> bool {
        let Some(at) = self.hand.iter().position(|&c| c == card) else {
            return false;
        };
        self.hand.remove(at);
        self.discard.push(card);
        true
    }

    /// The hand goes to the discard pile (the end of the player's phase).
    pub fn discard_hand(&mut self) {
        self.discard.append(&mut self.hand);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn drawing_reshuffles_the_discard_and_keeps_every_card() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut p = Piles::new(7, &mut rng);
        assert_eq!(p.draw(5, &mut rng), (5, false));
        p.discard_hand();
        assert_eq!(p.draw(5, &mut rng), (5, true));
        let mut all: Vec<u32> = p
            .draw
            .iter()
            .chain(&p.hand)
            .chain(&p.discard)
            .copied()
            .collect();
        all.sort();
        assert_eq!(all, (0..7).collect::<Vec<_>>());
    }
}
