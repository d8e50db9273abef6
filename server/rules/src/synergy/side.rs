//! One side of the battle: HP, block, energy, score, the per-turn sigil counters and
//! multiplier, pending focus, and its cards.

use super::cards::Sigil;
use super::deck::{Card, Zones};
use super::ENERGY_PER_TURN;

/// A combatant and everything it owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// The seat's name (see [`crate::words::Names`]), used in the log and views.
    pub name: String,
    /// Hit points; never below 0 (0 means knocked out at the next resolution check).
    pub hp: u32,
    /// Starting hit points.
    pub max_hp: u32,
    /// Block absorbing damage before HP; removed at this side's turn start.
    pub block: u32,
    /// Energy left this turn.
    pub energy: u32,
    /// Running score (the final score is settled at game over).
    pub score: u32,
    /// Turn score multiplier: 1, or 2 after a full spectrum this turn.
    pub multiplier: u32,
    /// Whether this turn's full-spectrum bonus was already given.
    pub spectrum_taken: bool,
    /// Extra damage for the next attack this turn (Ashen Focus).
    pub focus: u32,
    /// Cards of each sigil played this turn, in [`Sigil::ALL`] order.
    pub sigils: [u32; 4],
    /// Draw pile, hand and discard pile.
    pub zones: Zones,
    /// How many cards the side owns in all (constant through the battle).
    pub deck_size: usize,
    /// Turns this side has started; the first one uses the opening hand instead of drawing.
    pub turns_started: u32,
}

/// How one hit was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// Damage absorbed by block.
    pub blocked: u32,
    /// HP lost.
    pub hp_lost: u32,
}

impl Side {
    /// A side at full HP whose cards all start in the draw pile in the given order.
    pub fn new(name: impl Into<String>, hp: u32, cards: Vec<Card>) -> Side {
        Side {
            name: name.into(),
            hp,
            max_hp: hp,
            block: 0,
            energy: 0,
            score: 0,
            multiplier: 1,
            spectrum_taken: false,
            focus: 0,
            sigils: [0; 4],
            deck_size: cards.len(),
            zones: Zones {
                draw: cards,
                hand: Vec::new(),
                discard: Vec::new(),
            },
            turns_started: 0,
        }
    }

    /// Clears everything that lasts only for one turn.
    fn reset_turn_counters(&mut self) {
        self.multiplier = 1;
        self.spectrum_taken = false;
        self.focus = 0;
        self.sigils = [0; 4];
    }

    /// Turn start: block is removed, energy refilled, per-turn counters cleared. Returns the
    /// block that was removed.
    pub fn start_turn(&mut self) -> u32 {
        let faded = self.block;
        self.block = 0;
        self.energy = ENERGY_PER_TURN;
        self.reset_turn_counters();
        faded
    }

    /// Turn end: unspent energy and unused focus are lost, the multiplier resets, and the
    /// unplayed hand goes to the discard pile. Returns how many cards were discarded.
    pub fn end_turn(&mut self) -> usize {
        self.energy = 0;
        self.reset_turn_counters();
        self.zones.discard_hand()
    }

    /// Why no card in hand can be played now, when none can: the hand is empty, or every
    /// card costs more than the energy left (`None` when some card can be played).
    pub fn why_no_play(&self) -> Option<String> {
        let cheapest = self.zones.hand.iter().map(|card| card.def.cost).min();
        match cheapest {
            None => Some("has no card in hand".to_owned()),
            Some(cost) if cost > self.energy => Some(format!(
                "cannot pay for any card in hand ({} energy left, the cheapest costs {cost})",
                self.energy
            )),
            Some(_) => None,
        }
    }

    /// Whether some card in hand costs no more than the energy left.
    pub fn has_playable(&self) -> bool {
        self.zones
            .hand
            .iter()
            .any(|card| card.def.cost <= self.energy)
    }

    /// This turn's count for `sigil`.
    pub fn sigil_count(&self, sigil: Sigil) -> u32 {
        self.sigils[sigil.index()]
    }

    /// Whether playing a card of `sigil` now would trigger its synergy (count including it
    /// would be 2 or more).
    pub fn would_synergize(&self, sigil: Sigil) -> bool {
        self.sigil_count(sigil) + 1 >= 2
    }

    /// Whether all four sigils have been played this turn.
    pub fn full_spectrum(&self) -> bool {
        self.sigils.iter().all(|&n| n >= 1)
    }

    /// Takes `damage`: block absorbs first, the rest reduces HP (not below 0).
    pub fn take_damage(&mut self, damage: u32) -> Hit {
        let blocked = damage.min(self.block);
        self.block -= blocked;
        let hp_lost = (damage - blocked).min(self.hp);
        self.hp -= hp_lost;
        Hit { blocked, hp_lost }
    }

    /// Removes up to `amount` block (never below 0); returns how much was removed.
    pub fn lose_block(&mut self, amount: u32) -> u32 {
        let removed = amount.min(self.block);
        self.block -= removed;
        removed
    }
}
