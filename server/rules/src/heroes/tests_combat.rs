//! The spec's "Combat System" and "Armor", each rule a test, the multi-block example with its
//! numbers.

use std::collections::BTreeMap;

use super::*;

fn minion(id: u32, owner: Seat, attack: u32, health: u32) -> Minion {
    Minion {
        id,
        owner,
        attack,
        health,
        damage: 0,
        bounty: 1,
        tapped: false,
        sick: false,
    }
}

fn get(minions: &[Minion], id: u32) -> Option<&Minion> {
    minions.iter().find(|m| m.id == id)
}

/// The spec's example: a 6/6 attacker blocked by a 2/2 and a 3/3, ordered 2/2 first, assigns
/// 2 (lethal) then 4; the blockers deal 5; the 2/2 dies and the attacker survives at 6/1.
/// The example also says the 3/3 "survives at 3/1", which 4 damage on 3 health cannot give
/// under the spec's own rule (damage ≥ health dies): the rule wins, and the 3/3 dies
/// (`docs/rules/heroes.md`, decision on the multi-block example).
#[test]
fn combat_multi_block_example() {
    let mut minions = vec![minion(1, 0, 6, 6), minion(2, 1, 2, 2), minion(3, 1, 3, 3)];
    let blocks = [(2, 1), (3, 1)];
    check_attackers(&minions, 0, &[1]).expect("an untapped, settled attacker");
    check_blocks(&minions, 1, &[1], &blocks).expect("two blockers on one attacker");
    let gang = &gangs(&blocks)[&1];
    check_assignment(&minions, 1, gang, &[2, 3], &[2, 4]).expect("lethal to the first");
    let plans = BTreeMap::from([(1, (vec![2, 3], vec![2, 4]))]);
    let outcome = resolve(&mut minions, &[1], &blocks, &plans);
    let attacker = get(&minions, 1).expect("the attacker survives");
    assert_eq!(
        (attacker.attack, attacker.health - attacker.damage),
        (6, 1),
        "at 6/1"
    );
    assert!(outcome.deaths.contains(&2), "the 2/2 dies");
    assert!(outcome.deaths.contains(&3), "4 damage kills a 3/3");
    assert!(outcome.hits.is_empty(), "a blocked attacker hits no hero");
    assert_eq!(
        outcome.bounties.get(&0),
        Some(&2),
        "two bounties to the attacker's owner"
    );
}

#[test]
fn combat_damage_is_assigned_lethal_first_and_in_full() {
    let minions = vec![minion(1, 0, 6, 6), minion(2, 1, 2, 2), minion(3, 1, 3, 3)];
    let gang = [2, 3];
    let err = check_assignment(&minions, 1, &gang, &[2, 3], &[1, 5]).expect_err("not lethal");
    assert!(err.to_string().contains("needs 2 (lethal)"), "{err}");
    let err = check_assignment(&minions, 1, &gang, &[2, 3], &[2, 3]).expect_err("not all");
    assert!(err.to_string().contains("assign all 6"), "{err}");
    assert!(
        check_assignment(&minions, 1, &gang, &[2], &[6]).is_err(),
        "every blocker"
    );
    // All on the first is allowed (nothing goes past it).
    check_assignment(&minions, 1, &gang, &[3, 2], &[6, 0]).expect("all on the first");
}

#[test]
fn combat_blocked_attackers_deal_no_hero_damage_even_if_the_blockers_die() {
    let mut minions = vec![minion(1, 0, 5, 5), minion(2, 0, 3, 3), minion(9, 1, 1, 1)];
    let outcome = resolve(&mut minions, &[1, 2], &[(9, 1)], &BTreeMap::new());
    assert_eq!(outcome.deaths, vec![9]);
    assert_eq!(
        outcome.hits,
        vec![Hit {
            source: 2,
            damage: 3
        }],
        "only the unblocked one"
    );
    assert!(get(&minions, 1).is_some_and(|m| m.tapped), "attackers tap");
}

#[test]
fn combat_all_damage_is_simultaneous() {
    let mut minions = vec![minion(1, 0, 3, 3), minion(2, 1, 3, 3)];
    let outcome = resolve(&mut minions, &[1], &[(2, 1)], &BTreeMap::new());
    assert_eq!(outcome.deaths, vec![1, 2], "both die");
    assert_eq!(outcome.bounties, BTreeMap::from([(0, 1), (1, 1)]));
}

#[test]
fn combat_summoning_sickness_stops_attacking_not_blocking() {
    let mut sick = minion(1, 0, 2, 2);
    sick.sick = true;
    let mut sick_blocker = minion(2, 1, 2, 2);
    sick_blocker.sick = true;
    let minions = vec![sick, sick_blocker, minion(3, 0, 2, 2)];
    assert_eq!(
        check_attackers(&minions, 0, &[1]),
        Err(CombatError::Sick(1))
    );
    check_blocks(&minions, 1, &[3], &[(2, 3)]).expect("a new minion can block");
}

#[test]
fn combat_tapped_minions_neither_attack_nor_block_and_blockers_stay_untapped() {
    let mut tapped = minion(2, 1, 1, 1);
    tapped.tapped = true;
    let mut minions = vec![minion(1, 0, 1, 5), tapped, minion(3, 1, 1, 5)];
    assert_eq!(
        check_blocks(&minions, 1, &[1], &[(2, 1)]),
        Err(CombatError::Tapped(2))
    );
    assert_eq!(
        check_blocks(&minions, 1, &[1], &[(3, 1), (3, 1)]),
        Err(CombatError::Twice(3))
    );
    assert_eq!(
        check_blocks(&minions, 0, &[1], &[(3, 1)]),
        Err(CombatError::NotYours(3))
    );
    resolve(&mut minions, &[1], &[(3, 1)], &BTreeMap::new());
    assert!(
        !get(&minions, 3).expect("alive").tapped,
        "blockers do not tap"
    );
}

#[test]
fn armor_absorbs_and_is_used_up_and_negative_armor_adds_damage() {
    // Spec: "3 Armor, take 5 damage → 0 Armor, 2 damage to health".
    assert_eq!(hit_hero(3, 20, 5), (0, 18, 2));
    assert_eq!(hit_hero(8, 20, 5), (3, 20, 0));
    assert_eq!(
        hit_hero(-2, 20, 3),
        (-2, 15, 5),
        "negative armor stays and hurts"
    );
}
