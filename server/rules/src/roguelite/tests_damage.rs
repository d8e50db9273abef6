//! Section 6 of the spec: the damage formula in its order (base power, atkUp and weak, the
//! critical check, DEF%, the allocation with Armor Break, lifesteal and thorns), with the
//! critical rolls from fixed seeds.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::damage::{crit_rate, critical, mitigate, modified, strike, Blow};
use super::status::Kind;
use super::testkit::{fighter, seed_where};

fn blow(power: u32) -> Blow {
    Blow {
        power,
        ..Blow::default()
    }
}

#[test]
fn s6_2_atk_up_adds_20_percent_a_stack_and_weak_takes_30() {
    assert_eq!(modified(10, 0, false), 10);
    assert_eq!(modified(10, 20, false), 12);
    assert_eq!(modified(10, 40, true), 9, "14 then x0.7 rounded down");
    assert_eq!(modified(10, 0, true), 7);
}

#[test]
fn s6_3_critical_rate_is_10_percent_at_most_80_and_x1_5() {
    assert_eq!(crit_rate(0), 10);
    assert_eq!(crit_rate(40), 50);
    assert_eq!(crit_rate(100), 80);
    assert_eq!(critical(9), 13);
}

#[test]
fn s6_3_critical_rolls_from_a_fixed_seed() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut a = fighter(100, 0, 0);
    let mut d = fighter(1_000, 0, 0);
    let crits: Vec<bool> = (0..40)
        .map(|_| strike(&mut a, &mut d, blow(10), &mut rng).critical)
        .collect();
    let at: Vec<usize> = (0..40).filter(|&i| crits[i]).collect();
    let mut check = ChaCha8Rng::seed_from_u64(42);
    let expected: Vec<usize> = (0..40)
        .filter(|_| check.random_range(0..100) < 10)
        .collect();
    assert_eq!(at, expected, "one draw per hit, critical below 10");
    assert_eq!(at, [39]);
    // The rate's cap holds over many draws.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let big = Blow {
        crit: 200,
        ..blow(10)
    };
    let n = (0..10_000)
        .filter(|_| strike(&mut a, &mut d, big, &mut rng).critical)
        .count();
    assert!((7_700..8_300).contains(&n), "about 80%: {n}");
}

#[test]
fn s6_4_defenders_def_percent_reduces_damage() {
    assert_eq!(mitigate(20, 25), 15);
    assert_eq!(mitigate(7, 10), 6);
    assert_eq!(mitigate(7, 0), 7);
}

#[test]
fn s6_1_the_whole_order_with_armor_break() {
    // atkUp 1 (+20%), Weak, critical, DEF 20%, Armor Break, lifesteal 50%, thorns 2.
    let seed = seed_where(|n| n < 10);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut a = fighter(40, 0, 0);
    a.hp = 30;
    a.statuses.gain(Kind::AtkUp, 1, 3);
    a.statuses.gain(Kind::Weak, 1, 3);
    let mut d = fighter(60, 10, 20);
    d.ap = 0;
    d.guard = 5;
    d.statuses.gain(Kind::Thorns, 2, 3);
    let s = strike(
        &mut a,
        &mut d,
        Blow {
            power: 20,
            lifesteal: 50,
            ..Blow::default()
        },
        &mut rng,
    );
    // 20 -> 24 (atkUp) -> 16 (weak, 16.8) -> 24 (critical) -> 19 (DEF 20%, 19.2).
    assert!(s.critical);
    assert_eq!(s.damage, 19);
    // Armor Break: 10 bypass Guard; 9 meet Guard 5, then 4 to HP.
    assert_eq!(s.allocation.bypassed, 10);
    assert_eq!((s.allocation.guard, s.allocation.hp), (5, 14));
    assert_eq!(d.hp, 46);
    // Lifesteal: half of the 14 HP dealt; thorns: 2 back to the attacker (no armor).
    assert_eq!(s.stolen, 7);
    assert_eq!(s.thorns.hp, 2);
    assert_eq!(a.hp, 30 + 7 - 2);
}

#[test]
fn s6_1_without_a_critical_and_with_armor_the_order_holds() {
    let seed = seed_where(|n| n >= 10);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut a = fighter(40, 0, 0);
    a.statuses.gain(Kind::Momentum, 2, 0);
    let mut d = fighter(60, 10, 10);
    d.guard = 3;
    let s = strike(
        &mut a,
        &mut d,
        Blow {
            power: 10,
            bonus_pct: 10,
            ..Blow::default()
        },
        &mut rng,
    );
    // 10 -> 13 (Momentum 2 x 10%, initiative 10%) -> 11 (DEF 10%, 11.7).
    assert!(!s.critical);
    assert_eq!(s.damage, 11);
    assert_eq!(
        (s.allocation.guard, s.allocation.ap, s.allocation.hp),
        (3, 8, 0)
    );
    assert_eq!(s.stolen, 0);
}
