//! The two classes the spec describes, Barbarian and Mage (spec "Hero Board System",
//! "Level-Up System", "Class-Specific Mechanics"): their base abilities, their level-up
//! condition and bonus, and a ready 40-card deck each. The spec's examples are used as
//! written (the Barbarian's hero power "Cost 2 mana. Gain 2 Armor", the base Defensive
//! Ability, both level-ups); the rest is ours.

use super::cards::find;

/// A class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Class {
    /// Stable id, as a player names it in the setup.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// The class resource's name.
    pub resource: &'static str,
    /// The base hero power: its mana cost and text.
    pub hero_power: (u32, &'static str),
    /// The base Defensive Ability's text (it needs 3 mana available; spec).
    pub defense: &'static str,
    /// Base weapon damage of the Attack ability, before a weapon.
    pub weapon_damage: u32,
    /// The level-up condition, for people.
    pub level_up: &'static str,
    /// The level-up bonus, for people.
    pub bonus: &'static str,
    /// The ready deck: card ids with their copies, 40 cards in all.
    pub deck: &'static [(&'static str, u32)],
}

/// Mana the Attack ability costs (spec).
pub const ATTACK_COST: u32 = 2;
/// Mana that must be available to use the Defensive Ability (spec).
pub const DEFENSE_MANA: u32 = 3;
/// Armor the base Defensive Ability gives (spec).
pub const DEFENSE_ARMOR: i32 = 2;
/// The Barbarian levels up at this much armor (spec).
pub const BARBARIAN_LEVEL_ARMOR: i32 = 8;
/// The Mage levels up at this much max mana (spec).
pub const MAGE_LEVEL_MANA: u32 = 10;
/// Most Spell Damage a Mage holds (spec).
pub const MAX_SPELL_DAMAGE: u32 = 5;

/// The Barbarian: Rage, armor, weapon attacks.
pub const BARBARIAN: Class = Class {
    id: "barbarian",
    name: "Barbarian",
    resource: "Rage",
    hero_power: (2, "Cost 2 mana. Gain 2 Armor"),
    defense: "Gain 2 Armor and take half damage from that source (rounded up)",
    weapon_damage: 2,
    level_up: "Have 8+ Armor",
    bonus: "Your Weapon Attacks deal bonus damage equal to Armor",
    deck: &[
        ("pit_brawler", 3),
        ("shield_bearer", 3),
        ("war_hound", 3),
        ("axe_raider", 3),
        ("berserker", 3),
        ("clan_champion", 2),
        ("siege_ogre", 1),
        ("battle_cry", 3),
        ("iron_skin", 3),
        ("cleave", 2),
        ("hurl_axe", 3),
        ("blood_frenzy", 2),
        ("brutal_strike", 2),
        ("iron_will", 2),
        ("unbroken", 1),
        ("earthshatter", 2),
        ("warlords_call", 2),
    ],
};

/// The Mage: Spell Damage, Channeled spells.
pub const MAGE: Class = Class {
    id: "mage",
    name: "Mage",
    resource: "Spell Damage",
    hero_power: (2, "Cost 2 mana. Gain 1 Spell Damage and draw a card"),
    defense: "Gain 2 Armor and take half damage from that source (rounded up)",
    weapon_damage: 1,
    level_up: "Reach 10 Max Mana",
    bonus: "Your spells cost 1 less",
    deck: &[
        ("apprentice", 3),
        ("spark_familiar", 3),
        ("storm_adept", 3),
        ("runic_golem", 3),
        ("elder_warden", 2),
        ("fireball", 4),
        ("arc_lash", 4),
        ("focus", 4),
        ("insight", 3),
        ("frost_shard", 4),
        ("mana_weave", 2),
        ("blink", 2),
        ("meteor", 3),
    ],
};

/// Both classes.
pub const CLASSES: [Class; 2] = [BARBARIAN, MAGE];

/// The class with this id.
pub fn class(id: &str) -> Option<&'static Class> {
    CLASSES.iter().find(|c| c.id == id)
}

/// A class's deck as card ids, 40 of them (content names real cards: checked by a test).
pub fn deck_of(class: &Class) -> Vec<&'static str> {
    class
        .deck
        .iter()
        .flat_map(|&(id, copies)| std::iter::repeat_n(id, copies as usize))
        .filter(|id| find(id).is_some())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heroes::cards::{Effect, Kind, CARDS};

    #[test]
    fn each_class_has_a_ready_40_card_deck_of_every_card_type() {
        for class in CLASSES {
            let deck = deck_of(&class);
            let listed: u32 = class.deck.iter().map(|&(_, n)| n).sum();
            assert_eq!(listed, 40, "{}", class.id);
            assert_eq!(deck.len(), 40, "{}: every card exists", class.id);
            let kinds = |f: fn(&Kind) -> bool| {
                deck.iter()
                    .filter(|id| find(id).is_some_and(|c| f(&c.kind)))
                    .count()
            };
            assert!(
                kinds(|k| matches!(k, Kind::Minion { .. })) >= 12,
                "{}",
                class.id
            );
            assert!(kinds(|k| matches!(k, Kind::Spell(_))) >= 8, "{}", class.id);
            assert!(
                kinds(|k| matches!(k, Kind::Upgrade(_))) >= 2,
                "{}",
                class.id
            );
            assert!(
                kinds(|k| matches!(k, Kind::Ultimate(_))) >= 2,
                "{}",
                class.id
            );
        }
        let mut ids: Vec<&str> = CARDS.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), CARDS.len(), "card ids are unique");
    }

    #[test]
    fn the_spec_examples_are_used_as_written() {
        assert_eq!(BARBARIAN.hero_power, (2, "Cost 2 mana. Gain 2 Armor"));
        assert_eq!(
            BARBARIAN.defense,
            "Gain 2 Armor and take half damage from that source (rounded up)"
        );
        assert_eq!(
            (BARBARIAN.level_up, BARBARIAN.bonus),
            (
                "Have 8+ Armor",
                "Your Weapon Attacks deal bonus damage equal to Armor"
            )
        );
        assert_eq!(
            (MAGE.level_up, MAGE.bonus),
            ("Reach 10 Max Mana", "Your spells cost 1 less")
        );
        let arc = find("arc_lash").expect("the Channeled example");
        assert_eq!(arc.text, "Deal 2 damage. Channeled: Deal 4 damage instead");
        assert!(matches!(
            arc.kind,
            Kind::Spell([Effect::Channeled {
                amount: 2,
                channeled: 4,
                ..
            }])
        ));
        let fireball = find("fireball").expect("the Spell Damage example's Fireball");
        assert!(matches!(
            fireball.kind,
            Kind::Spell([Effect::Damage { amount: 3, .. }])
        ));
        let strike = find("brutal_strike").expect("the Attack upgrade example");
        assert!(strike
            .text
            .contains("deal weapon damage +2. If you kill it, don't take damage back"));
    }
}
