//! A hero in play (spec "Setup", "Resource Systems", "Hero Board System", "Level-Up System"):
//! health, armor, mana, gold and the class resource, the equipment slots, the once-per-turn
//! abilities, and the way a hit reaches the hero: Immune, then Rage, then the Defensive
//! Ability, then a chest's big-hit reduction, then armor.

use super::classes::{
    Class, BARBARIAN_LEVEL_ARMOR, DEFENSE_ARMOR, DEFENSE_MANA, MAGE_LEVEL_MANA, MAX_SPELL_DAMAGE,
};
use super::combat::hit_hero;
use super::items::{Effect as ItemEffect, Item, Kind as ItemKind, Slot};

/// Starting health (spec).
pub const START_HEALTH: i32 = 20;
/// Max mana from upkeeps (spec; potions go past it).
pub const MANA_CAP: u32 = 10;

/// One hero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hero {
    /// Its class.
    pub class: &'static Class,
    /// Health (0 or less: out).
    pub health: i32,
    /// Most health (equipment raises it).
    pub max_health: i32,
    /// Armor (may go negative).
    pub armor: i32,
    /// Mana left this turn.
    pub mana: u32,
    /// Max mana.
    pub max_mana: u32,
    /// Gold.
    pub gold: u32,
    /// Rage (Barbarian) or Spell Damage (Mage).
    pub resource: u32,
    /// Levelled up (once per game, for good).
    pub levelled: bool,
    /// Weapon, chest, jewelry, relic.
    pub equipment: [Option<&'static Item>; 4],
    /// Used this turn: hero power, Attack, Defensive Ability, a purchase.
    pub used: Used,
    /// Immune to damage until the end of this turn.
    pub immune: bool,
    /// The chest's big-hit reduction was used this turn.
    pub big_hit_reduced: bool,
}

/// Which Defensive Ability a hero has: the base one or an upgrade's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defense {
    /// Gain 2 Armor and take half damage from that source, rounded up (spec).
    Base,
    /// Unbroken (Barbarian upgrade): gain 3 Armor and take half, rounded down.
    Unbroken,
    /// Blink (Mage upgrade): take no damage from that source.
    Blink,
}

/// What the hero used this turn (each once per turn).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Used {
    /// The hero power.
    pub hero_power: bool,
    /// The Attack ability.
    pub attack: bool,
    /// The Defensive Ability.
    pub defense: bool,
    /// A purchase from the shop.
    pub buy: bool,
}

fn slot_index(slot: Slot) -> usize {
    match slot {
        Slot::Weapon => 0,
        Slot::Chest => 1,
        Slot::Jewelry => 2,
        Slot::Relic => 3,
    }
}

impl Hero {
    /// A hero of `class` at the start: 20 health, no armor, gold or resource, `mana` mana
    /// (1, or 2 for the player going second: spec).
    pub fn new(class: &'static Class, mana: u32) -> Hero {
        Hero {
            class,
            health: START_HEALTH,
            max_health: START_HEALTH,
            armor: 0,
            mana,
            max_mana: mana,
            gold: 0,
            resource: 0,
            levelled: false,
            equipment: [None; 4],
            used: Used::default(),
            immune: false,
            big_hit_reduced: false,
        }
    }

    /// Whether the class is the Barbarian (Rage) rather than the Mage (Spell Damage).
    fn rages(&self) -> bool {
        self.class.id == "barbarian"
    }

    /// Upkeep (spec): +1 max mana up to 10 (more only from potions), mana refilled, the
    /// turn's uses cleared.
    pub fn upkeep(&mut self) {
        if self.max_mana < MANA_CAP {
            self.max_mana += 1;
        }
        self.mana = self.max_mana;
        self.used = Used::default();
        self.big_hit_reduced = false;
        self.check_level_up();
    }

    /// End of the hero's own turn: "until end of turn" effects end.
    pub fn end_turn(&mut self) {
        self.immune = false;
    }

    /// Whether the Defensive Ability may be used now: unused this turn and 3 mana available.
    pub fn can_defend(&self) -> bool {
        !self.used.defense && self.mana >= DEFENSE_MANA
    }

    /// One hit of `damage` from a source; `defend`: the Defensive Ability (as upgraded) is
    /// used on it (checked with [`Hero::can_defend`]). Returns the health lost.
    ///
    /// Order (decision): Immune stops it; Rage adds 1 per point (Barbarian: "+1 damage taken
    /// per hit"); the Defensive Ability (base: 2 Armor and half the hit, rounded up; Unbroken:
    /// 3 Armor and half, rounded down; Blink: none of the hit); the chest's first-big-hit
    /// reduction; armor absorbs what it can.
    pub fn take_hit(&mut self, damage: u32, defend: Option<Defense>) -> u32 {
        if self.immune {
            return 0;
        }
        let mut damage = damage;
        if self.rages() {
            damage += self.resource;
        }
        if let Some(defense) = defend.filter(|_| self.can_defend()) {
            self.used.defense = true;
            match defense {
                Defense::Base => {
                    self.armor += DEFENSE_ARMOR;
                    damage = damage.div_ceil(2);
                }
                Defense::Unbroken => {
                    self.armor += DEFENSE_ARMOR + 1;
                    damage /= 2;
                }
                Defense::Blink => damage = 0,
            }
        }
        if !self.big_hit_reduced {
            for effect in self.effects() {
                if let ItemEffect::FirstBigHitReduced { at, by } = effect {
                    if damage >= at {
                        damage -= by.min(damage);
                        self.big_hit_reduced = true;
                    }
                }
            }
        }
        let (armor, health, taken) = hit_hero(self.armor, self.health, damage);
        self.armor = armor;
        self.health = health;
        self.check_level_up();
        taken
    }

    /// The total of one kind of passive number over everything equipped, e.g.
    /// `hero.total(|e| match e { ItemEffect::KillGold(n) => Some(*n), _ => None })`.
    pub fn total(&self, pick: impl Fn(&ItemEffect) -> Option<u32>) -> u32 {
        self.effects().iter().filter_map(pick).sum()
    }

    /// The passive effects of everything equipped.
    pub fn effects(&self) -> Vec<ItemEffect> {
        self.equipment
            .iter()
            .flatten()
            .flat_map(|item| item.effects.iter().copied())
            .collect()
    }

    /// Buy `item` (the caller checked the gold, the market and once per turn): equipment
    /// replaces the slot's old item (its health and armor stay as they are: decision),
    /// consumables act at once; returns cards to draw.
    pub fn buy(&mut self, item: &'static Item) -> u32 {
        self.gold -= item.cost.min(self.gold);
        self.used.buy = true;
        let mut draw = 0;
        match item.kind {
            ItemKind::Equipment(slot) => {
                self.equipment[slot_index(slot)] = Some(item);
                for effect in item.effects {
                    match *effect {
                        ItemEffect::MaxHealth(n) => {
                            self.max_health += n as i32;
                            self.health += n as i32;
                        }
                        ItemEffect::Armor(n) => self.armor += n as i32,
                        _ => {}
                    }
                }
            }
            ItemKind::Consumable => {
                for effect in item.effects {
                    match *effect {
                        ItemEffect::MaxMana(n) => {
                            self.max_mana += n;
                            self.mana += n;
                        }
                        ItemEffect::Heal(n) => {
                            self.health = (self.health + n as i32).min(self.max_health);
                        }
                        ItemEffect::Draw(n) => draw += n,
                        _ => {}
                    }
                }
            }
        }
        self.check_level_up();
        draw
    }

    /// Gain class resource (Spell Damage stops at 5: spec).
    pub fn gain_resource(&mut self, n: u32) {
        self.resource += n;
        if !self.rages() {
            self.resource = self.resource.min(MAX_SPELL_DAMAGE);
        }
    }

    /// How far the level-up condition is met: (now, needed), armor for the Barbarian, max
    /// mana for the Mage. Shown to everyone as level-up progress.
    pub fn level_progress(&self) -> (i32, i32) {
        if self.rages() {
            (self.armor, BARBARIAN_LEVEL_ARMOR)
        } else {
            let now = i32::try_from(self.max_mana).unwrap_or(i32::MAX);
            (now, MAGE_LEVEL_MANA as i32)
        }
    }

    /// Level up once the class's condition holds (spec: once, for good).
    pub fn check_level_up(&mut self) {
        if self.levelled {
            return;
        }
        self.levelled = if self.rages() {
            self.armor >= BARBARIAN_LEVEL_ARMOR
        } else {
            self.max_mana >= MAGE_LEVEL_MANA
        };
    }
}

#[cfg(test)]
#[path = "tests_hero.rs"]
mod tests;
