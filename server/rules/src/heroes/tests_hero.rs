//! The spec's "Setup", "Mana", "Armor", "Rage", "Defensive Ability", "Level-Up System" and
//! "Purchasing Rules" on one hero.

use super::*;
use crate::heroes::classes::{BARBARIAN, MAGE};
use crate::heroes::items::find;

#[test]
fn setup_20_health_no_armor_gold_or_resource_and_1_or_2_mana() {
    let first = Hero::new(&BARBARIAN, 1);
    assert_eq!(
        (
            first.health,
            first.armor,
            first.gold,
            first.resource,
            first.max_mana
        ),
        (20, 0, 0, 0, 1)
    );
    assert_eq!(
        Hero::new(&MAGE, 2).max_mana,
        2,
        "the second player starts with 2"
    );
}

#[test]
fn mana_grows_by_1_to_10_and_potions_go_past_it() {
    let mut hero = Hero::new(&MAGE, 1);
    for _ in 0..12 {
        hero.upkeep();
    }
    assert_eq!((hero.max_mana, hero.mana), (10, 10));
    hero.gold = 20;
    hero.buy(find("grand_mana_potion").expect("a potion"));
    assert_eq!(hero.max_mana, 14, "past 10");
    hero.upkeep();
    assert_eq!(hero.max_mana, 14, "upkeep does not lower it");
}

#[test]
fn rage_adds_to_each_hit_taken() {
    let mut hero = Hero::new(&BARBARIAN, 1);
    hero.gain_resource(3);
    assert_eq!(
        hero.take_hit(2, None),
        5,
        "3 Rage: +3 from each incoming hit"
    );
}

#[test]
fn defensive_ability_needs_3_mana_gives_2_armor_and_halves_rounded_up() {
    let mut hero = Hero::new(&MAGE, 3);
    assert!(hero.can_defend());
    // 7 halved rounded up is 4; the 2 new armor absorbs 2 of it.
    assert_eq!(hero.take_hit(7, Some(Defense::Base)), 2);
    assert_eq!(hero.armor, 0);
    assert!(!hero.can_defend(), "once per turn");
    assert_eq!(
        hero.take_hit(7, Some(Defense::Base)),
        7,
        "a second use is not allowed"
    );
    let mut unbroken = Hero::new(&BARBARIAN, 3);
    assert_eq!(
        unbroken.take_hit(7, Some(Defense::Unbroken)),
        0,
        "3 Armor and 7/2 = 3"
    );
    let mut blink = Hero::new(&MAGE, 3);
    assert_eq!(
        blink.take_hit(9, Some(Defense::Blink)),
        0,
        "Blink takes none of it"
    );
    let mut poor = Hero::new(&MAGE, 2);
    assert_eq!(
        poor.take_hit(4, Some(Defense::Base)),
        4,
        "needs 3 mana available"
    );
}

#[test]
fn equipment_replaces_and_the_big_hit_reduction_works_once_per_turn() {
    let mut hero = Hero::new(&BARBARIAN, 1);
    hero.gold = 20;
    hero.buy(find("vanguard").expect("the spec's Vanguard"));
    assert_eq!((hero.health, hero.max_health, hero.armor), (25, 25, 2));
    assert_eq!(hero.gold, 12);
    // 6 → reduced by 3 to 3 → armor 2 absorbs 2 → 1 to health.
    assert_eq!(hero.take_hit(6, None), 1);
    assert_eq!(
        hero.take_hit(6, None),
        6,
        "only the first big hit each turn"
    );
    hero.upkeep();
    assert_eq!(hero.take_hit(4, None), 1, "again next turn");
    hero.buy(find("padded_vest").expect("another chest"));
    assert_eq!(
        hero.equipment[1].map(|i| i.id),
        Some("padded_vest"),
        "replaced"
    );
}

#[test]
fn level_up_once_for_good_barbarian_8_armor_mage_10_max_mana() {
    let mut barbarian = Hero::new(&BARBARIAN, 1);
    barbarian.armor = 5;
    assert_eq!(
        barbarian.level_progress(),
        (5, 8),
        "progress: armor out of 8"
    );
    barbarian.armor = 8;
    barbarian.check_level_up();
    assert!(barbarian.levelled);
    barbarian.take_hit(8, None);
    assert_eq!(barbarian.armor, 0);
    assert!(
        barbarian.levelled,
        "the bonus stays when the condition no longer holds"
    );
    let mut mage = Hero::new(&MAGE, 1);
    for _ in 0..8 {
        mage.upkeep();
    }
    assert!(!mage.levelled, "9 max mana");
    assert_eq!(
        mage.level_progress(),
        (9, 10),
        "progress: max mana out of 10"
    );
    mage.upkeep();
    assert!(mage.levelled, "10 max mana");
}

#[test]
fn spell_damage_holds_at_most_5_and_immune_stops_damage() {
    let mut mage = Hero::new(&MAGE, 1);
    mage.gain_resource(4);
    mage.gain_resource(4);
    assert_eq!(mage.resource, 5);
    mage.immune = true;
    assert_eq!(mage.take_hit(9, None), 0);
    mage.end_turn();
    assert_eq!(mage.take_hit(1, None), 1);
}
