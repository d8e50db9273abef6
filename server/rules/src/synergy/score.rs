//! Scoring (spec section 9): the per-card multiplier stack of section 5.5 and the end-of-battle
//! bonuses and penalty.

use battle_protocol::Seat;

use super::cards::CardType;
use super::side::Side;
use crate::words;

/// Void synergy score multiplier, as a fraction (x1.5).
const VOID_NUM: u32 = 3;
const VOID_DEN: u32 = 2;
/// Turn multiplier after a full spectrum (spec 5.4).
pub const SPECTRUM_MULTIPLIER: u32 = 2;
/// Flat bonus for a full-spectrum turn, once per turn (spec 9.2).
pub const SPECTRUM_BONUS: u32 = 20;
/// Flat bonus for defeating the opponent (spec 9.2).
pub const WIN_BONUS: u32 = 100;
/// Flat bonus for ending the battle with at least [`HEALTHY_HP`] HP (spec 9.2).
pub const HEALTHY_BONUS: u32 = 30;
/// HP needed for [`HEALTHY_BONUS`].
pub const HEALTHY_HP: u32 = 40;

/// One card's score gain, with each step of the stack kept for the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardScore {
    /// Base score from the card type.
    pub base: u32,
    /// After the Void synergy step (equal to `base` without Void synergy).
    pub after_void: u32,
    /// After the turn multiplier: what the side gains.
    pub total: u32,
    /// Whether the Void step applied.
    pub void_synergy: bool,
    /// The turn multiplier that applied.
    pub multiplier: u32,
}

/// Score for resolving one card (spec 5.5): base by type, then x1.5 rounded down when Void
/// synergy is active, then the turn multiplier, rounded down.
pub fn card_score(kind: CardType, void_synergy: bool, multiplier: u32) -> CardScore {
    let base = kind.base_score();
    let after_void = if void_synergy {
        base * VOID_NUM / VOID_DEN
    } else {
        base
    };
    CardScore {
        base,
        after_void,
        total: after_void * multiplier,
        void_synergy,
        multiplier,
    }
}

impl CardScore {
    /// How the gain was reached, e.g. ": 10 x1.5 Void synergy = 15, x2 full spectrum = 30";
    /// empty when no multiplier applied.
    pub fn explain(&self) -> String {
        let mut steps = Vec::new();
        if self.void_synergy {
            steps.push(format!("x1.5 Void synergy = {}", self.after_void));
        }
        if self.multiplier > 1 {
            steps.push(format!(
                "x{} full spectrum = {}",
                self.multiplier, self.total
            ));
        }
        if steps.is_empty() {
            String::new()
        } else {
            format!(": {} {}", self.base, steps.join(", "))
        }
    }
}

/// How a battle was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one side was at 0 HP at the resolution check; the other seat wins.
    Knockout {
        /// The winning seat.
        winner: Seat,
    },
    /// Both sides were at 0 HP at the same resolution check.
    DoubleKnockout,
    /// The last round ended with no knockout.
    RoundLimit,
}

/// How one side's final score was reached (spec 9.2): its running score, the bonuses added
/// to it, or why it was set to 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Settlement {
    /// The healthy-HP bonus added (0 or [`HEALTHY_BONUS`]).
    pub hp_bonus: u32,
    /// The running score the battle ended with.
    pub score: u32,
    /// The final score.
    pub total: u32,
    /// The win bonus added (0 or [`WIN_BONUS`]).
    pub win_bonus: u32,
    /// Why the final score is 0 whatever the running score: `"knocked out"` or `"defeated"`.
    pub zeroed_by: Option<&'static str>,
}

/// One side's settled final score and the log lines explaining it.
pub fn settle(side: &Side, won: bool, lost: bool) -> (Settlement, Vec<String>) {
    let mut lines = Vec::new();
    let mut settled = Settlement {
        score: side.score,
        ..Settlement::default()
    };
    let score = i64::from(side.score);
    if lost || side.hp == 0 {
        let (why, zeroed_by) = if side.hp == 0 {
            ("was knocked out", "knocked out")
        } else {
            ("is defeated", "defeated")
        };
        let change = words::gain(score, 0, "score");
        lines.push(format!(
            "{} {why}: {change}, a final score of 0.",
            side.name
        ));
        settled.zeroed_by = Some(zeroed_by);
        return (settled, lines);
    }
    let mut running = score;
    if won {
        settled.win_bonus = WIN_BONUS;
        let change = words::gain(running, running + i64::from(WIN_BONUS), "score");
        running += i64::from(WIN_BONUS);
        lines.push(format!("{} wins the battle: {change}.", side.name));
    }
    if side.hp >= HEALTHY_HP {
        settled.hp_bonus = HEALTHY_BONUS;
        let change = words::gain(running, running + i64::from(HEALTHY_BONUS), "score");
        lines.push(format!(
            "{} ends the battle with {} HP (at least {HEALTHY_HP}): {change}.",
            side.name, side.hp
        ));
    }
    settled.total = settled.score + settled.win_bonus + settled.hp_bonus;
    lines.push(format!("{}'s final score: {}.", side.name, settled.total));
    (settled, lines)
}
