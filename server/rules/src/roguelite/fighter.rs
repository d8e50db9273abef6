//! A fighter: the player or the enemy of the current battle, with the three layers of the
//! hybrid defense (spec section 5: Guard, AP, HP), its equipment's DEF%, its speed and its
//! statuses.

use super::status::{Kind, Statuses};

/// One side of a battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fighter {
    /// Shown in sentences.
    pub name: String,
    /// Health; death at 0.
    pub hp: u32,
    /// Most HP.
    pub max_hp: u32,
    /// Armor Points: equipment durability, carried over between battles.
    pub ap: u32,
    /// Most AP (the armor's durability; 0 for a fighter without armor).
    pub max_ap: u32,
    /// Guard Points: temporary, reset to 0 at the start of the fighter's own phase.
    pub guard: u32,
    /// The equipment's DEF%: incoming attack damage is reduced by this percentage.
    pub def_pct: u32,
    /// Base speed (spec 3.1: 50 for the player, per type for enemies).
    pub base_speed: u32,
    /// The last variance roll, in percent of base speed (-5 to 5).
    pub speed_offset: i32,
    /// The speed rolled for the current round (variance and statuses included).
    pub speed: u32,
    /// Statuses.
    pub statuses: Statuses,
}

impl Fighter {
    /// A fighter at full HP and AP.
    pub fn new(
        name: impl Into<String>,
        hp: u32,
        ap: u32,
        def_pct: u32,
        base_speed: u32,
    ) -> Fighter {
        Fighter {
            name: name.into(),
            hp,
            max_hp: hp,
            ap,
            max_ap: ap,
            guard: 0,
            def_pct,
            base_speed,
            speed_offset: 0,
            speed: base_speed,
            statuses: Statuses::default(),
        }
    }

    /// Spec 5.3: the fighter wears armor (max AP above 0) and its AP is at 0.
    pub fn armor_broken(&self) -> bool {
        self.max_ap > 0 && self.ap == 0
    }

    /// Whether HP is at 0.
    pub fn down(&self) -> bool {
        self.hp == 0
    }

    /// Restore up to `amount` HP (not above max); the HP restored.
    pub fn heal(&mut self, amount: u32) -> u32 {
        let healed = amount.min(self.max_hp.saturating_sub(self.hp));
        self.hp += healed;
        healed
    }

    /// Restore up to `amount` AP (not above max); the AP restored.
    pub fn repair(&mut self, amount: u32) -> u32 {
        let repaired = amount.min(self.max_ap.saturating_sub(self.ap));
        self.ap += repaired;
        repaired
    }

    /// Lose up to `amount` HP directly, past Guard and AP (Bleed, Poison, Curse); the HP
    /// lost.
    pub fn lose_hp(&mut self, amount: u32) -> u32 {
        let lost = amount.min(self.hp);
        self.hp -= lost;
        lost
    }

    /// Spec 7 Bleed: 5% of max HP (rounded down, at least 1).
    pub fn bleed_amount(&self) -> u32 {
        (self.max_hp * 5 / 100).max(1)
    }

    /// Spec 7 Poison/Curse: stacks x 2 for each.
    pub fn rot_amount(&self) -> u32 {
        2 * (self.statuses.stacks(Kind::Poison) + self.statuses.stacks(Kind::Curse))
    }

    /// Spec 7 Regeneration: stacks x 3, halved (rounded down) while Cursed.
    pub fn regeneration_amount(&self) -> u32 {
        let heal = 3 * self.statuses.stacks(Kind::Regeneration);
        if self.statuses.has(Kind::Curse) {
            heal / 2
        } else {
            heal
        }
    }

    /// The start of the fighter's own phase (spec 4.2 step 1, 4.3 step 1): Guard to 0,
    /// durations tick down, then Regeneration heals and Shield gives Guard. Returns the
    /// statuses that ended, the HP healed and the Guard gained.
    pub fn phase_start(&mut self) -> (Vec<Kind>, u32, u32) {
        self.guard = 0;
        let ended = self.statuses.tick();
        let healed = self.heal(self.regeneration_amount());
        let shield = self.statuses.stacks(Kind::Shield);
        self.guard += shield;
        (ended, healed, shield)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armor_break_needs_armor() {
        let mut f = Fighter::new("x", 10, 5, 0, 50);
        assert!(!f.armor_broken());
        f.ap = 0;
        assert!(f.armor_broken());
        let bare = Fighter::new("y", 10, 0, 0, 50);
        assert!(!bare.armor_broken(), "no armor, nothing to break");
    }

    #[test]
    fn heal_and_repair_stop_at_max() {
        let mut f = Fighter::new("x", 10, 5, 0, 50);
        f.hp = 8;
        f.ap = 1;
        assert_eq!(f.heal(5), 2);
        assert_eq!(f.repair(10), 4);
        assert_eq!((f.hp, f.ap), (10, 5));
    }

    #[test]
    fn bleed_is_five_percent_rounded_down_at_least_one() {
        assert_eq!(Fighter::new("x", 70, 0, 0, 50).bleed_amount(), 3);
        assert_eq!(Fighter::new("x", 10, 0, 0, 50).bleed_amount(), 1);
        assert_eq!(Fighter::new("x", 160, 0, 0, 50).bleed_amount(), 8);
    }
}
