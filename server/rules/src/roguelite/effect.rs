//! The primitive effects cards and enemy skills are made of, as data.

use super::status::Kind;

/// One effect of a card or an enemy skill, applied in the order listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Hit the opponent `hits` times through the damage formula (spec section 6). `power` is
    /// the base power of each hit: points on a card, a percentage of the enemy's ATK on an
    /// enemy skill. `crit` adds to the critical rate (percentage points); `lifesteal` heals
    /// the attacker this percentage of the HP damage each hit deals.
    Attack {
        /// Base power per hit.
        power: u32,
        /// Number of hits.
        hits: u32,
        /// Extra critical rate, in percentage points.
        crit: u32,
        /// Lifesteal, in percent of the HP damage dealt.
        lifesteal: u32,
    },
    /// Gain Guard.
    Guard(u32),
    /// Restore AP (never above the armor's durability).
    Repair(u32),
    /// Restore HP.
    Heal(u32),
    /// Put a status on the opponent.
    Inflict {
        /// Which status.
        status: Kind,
        /// Stacks added.
        stacks: u32,
        /// Duration in the target's turns.
        turns: u32,
    },
    /// Put a status on oneself.
    Gain {
        /// Which status.
        status: Kind,
        /// Stacks added.
        stacks: u32,
        /// Duration in one's own turns.
        turns: u32,
    },
    /// Enemy skills only (spec 2.2): the enemy's addEnergy for its next phase, in percent
    /// (its energy then is floor(actEnergy x addEnergy)).
    AddEnergy(u32),
}

/// A single hit of `power` (no extra critical rate, no lifesteal).
pub const fn hit(power: u32) -> Effect {
    Effect::Attack {
        power,
        hits: 1,
        crit: 0,
        lifesteal: 0,
    }
}

/// `hits` hits of `power`.
pub const fn hits(power: u32, hits: u32) -> Effect {
    Effect::Attack {
        power,
        hits,
        crit: 0,
        lifesteal: 0,
    }
}

/// Put `stacks` of `status` on the opponent for `turns`.
pub const fn inflict(status: Kind, stacks: u32, turns: u32) -> Effect {
    Effect::Inflict {
        status,
        stacks,
        turns,
    }
}

/// Put `stacks` of `status` on oneself for `turns`.
pub const fn gain(status: Kind, stacks: u32, turns: u32) -> Effect {
    Effect::Gain {
        status,
        stacks,
        turns,
    }
}

impl Effect {
    /// Whether this effect attacks.
    pub fn attacks(&self) -> bool {
        matches!(self, Effect::Attack { .. })
    }
}
