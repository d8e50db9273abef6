//! Section 5 of the spec: the hybrid defense. Damage goes to Guard, then AP, then HP; Armor
//! Break at 0 AP sends half of each hit past Guard; Guard resets at the start of the unit's
//! own phase; AP carries over between battles and comes back only by repairs.

use super::damage::allocate;
use super::play::Action;
use super::speed::Side;
use super::state::Stage;
use super::testkit::{act, against, fighter, hand, play, through_enemy};

#[test]
fn s5_2_damage_goes_to_guard_then_ap_then_hp() {
    let mut f = fighter(50, 10, 0);
    f.guard = 4;
    let a = allocate(&mut f, 3);
    assert_eq!((a.guard, a.ap, a.hp), (3, 0, 0));
    let a = allocate(&mut f, 6);
    assert_eq!((a.guard, a.ap, a.hp), (1, 5, 0));
    let a = allocate(&mut f, 9);
    assert_eq!((a.guard, a.ap, a.hp), (0, 5, 4));
    assert_eq!((f.guard, f.ap, f.hp), (0, 0, 46));
}

#[test]
fn s5_3_armor_break_sends_half_past_guard() {
    let mut f = fighter(50, 10, 0);
    f.ap = 0;
    f.guard = 20;
    assert!(f.armor_broken());
    let a = allocate(&mut f, 9);
    assert_eq!(a.bypassed, 5, "half, rounded up, bypasses Guard");
    assert_eq!((a.guard, a.ap, a.hp), (4, 0, 5));
    assert_eq!((f.guard, f.hp), (16, 45));
    // The other half still meets Guard, then (empty) AP, then HP.
    f.guard = 1;
    let a = allocate(&mut f, 10);
    assert_eq!((a.guard, a.hp, a.bypassed), (1, 9, 5));
}

#[test]
fn s5_3_armor_break_starts_with_the_hit_after_ap_reaches_0() {
    let mut f = fighter(50, 4, 0);
    f.guard = 10;
    let a = allocate(&mut f, 16);
    assert_eq!((a.guard, a.ap, a.hp, a.bypassed), (10, 4, 2, 0));
    assert!(f.armor_broken());
    f.guard = 10;
    let a = allocate(&mut f, 16);
    assert_eq!((a.guard, a.hp, a.bypassed), (8, 8, 8));
}

#[test]
fn s5_3_a_fighter_without_armor_is_not_broken() {
    let mut f = fighter(50, 0, 0);
    f.guard = 10;
    let a = allocate(&mut f, 6);
    assert_eq!((a.guard, a.hp, a.bypassed), (6, 0, 0));
}

#[test]
fn s5_1_guard_resets_at_the_start_of_the_units_own_phase_only() {
    let mut g = against("cellar_rat", 2);
    through_enemy(&mut g);
    hand(&mut g, &["parry", "parry"]);
    play(&mut g, 0);
    play(&mut g, 1);
    assert_eq!(g.player.guard, 10);
    g.enemy.max_hp = 999;
    g.enemy.hp = 999;
    g.enemy.guard = 7;
    act(&mut g, Action::EndTurn {});
    // The enemy's phase start resets its own Guard, not the player's.
    assert_eq!(g.stage, Stage::EnemyStart);
    g.enemy_step();
    assert_eq!(g.enemy.guard, 0);
    assert!(g.player.guard <= 10);
    through_enemy(&mut g);
    if g.queue[0] == Side::Player && g.finish.is_none() {
        assert_eq!(g.player.guard, 0, "reset at the player's phase start");
    }
}

#[test]
fn s5_1_ap_carries_over_between_battles_and_only_repairs_restore_it() {
    let mut g = against("cellar_rat", 4);
    through_enemy(&mut g);
    g.player.ap = 3;
    hand(&mut g, &["slash"]);
    g.enemy.hp = 1;
    play(&mut g, 0);
    assert_eq!(g.stage, Stage::Reward);
    act(&mut g, Action::Skip {});
    assert_eq!(g.battle, 1);
    assert_eq!(g.player.ap, 3, "AP carries over to the next battle");
    through_enemy(&mut g);
    let ap = g.player.ap;
    hand(&mut g, &["rivet"]);
    play(&mut g, 0);
    assert_eq!(g.player.ap, (ap + 5).min(g.player.max_ap));
}
