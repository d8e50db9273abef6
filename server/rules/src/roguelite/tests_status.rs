//! Section 7 of the spec and the condition management of section 1: each status, its
//! stacks and its duration.

use super::play::Action;
use super::state::Stage;
use super::status::Kind;
use super::testkit::{act, against, hand, play, through_enemy};

/// A run at the player's phase against `enemy`, the enemy made sturdy.
fn ready(enemy: &str, seed: u64) -> super::state::Roguelite {
    let mut g = against(enemy, seed);
    through_enemy(&mut g);
    g.enemy.max_hp = 500;
    g.enemy.hp = 500;
    g.player.statuses.clear();
    g.player.hp = g.player.max_hp;
    g
}

#[test]
fn s7_bleed_costs_the_player_5_percent_of_max_hp_per_card_played() {
    let mut g = ready("cellar_rat", 1);
    g.player.statuses.gain(Kind::Bleed, 1, 3);
    let hp = g.player.hp;
    hand(&mut g, &["parry", "parry", "rivet"]);
    play(&mut g, 0);
    assert_eq!(g.player.hp, hp - 4, "5% of 80");
    play(&mut g, 1);
    play(&mut g, 2);
    assert_eq!(g.player.hp, hp - 12);
    // Ending the turn is no card.
    g.queue = vec![super::speed::Side::Player, super::speed::Side::Player];
    act(&mut g, Action::EndTurn {});
    assert_eq!(g.player.hp, hp - 12);
}

#[test]
fn s7_bleed_costs_the_enemy_5_percent_per_action_and_wait_is_none() {
    // The Ash Priest (max HP made 100) with energy 1 left and Ash Prayer next: it waits.
    let mut g = ready("ash_priest", 1);
    g.enemy.max_hp = 100;
    g.enemy.hp = 100;
    g.enemy.statuses.gain(Kind::Bleed, 1, 5);
    g.stage = Stage::EnemyAct;
    g.queue = vec![super::speed::Side::Enemy, super::speed::Side::Player];
    g.cycle = 2;
    g.enemy_energy = 3;
    g.enemy_step();
    assert_eq!(g.enemy.hp, 95, "Cinder Smite, then 5 of 100");
    g.enemy_step();
    assert_eq!(g.enemy.hp, 95, "Wait is no action");
    assert_eq!(g.stage, Stage::EnemyEnd);
}

#[test]
fn s7_poison_and_curse_deal_stacks_x2_at_the_end_of_the_phase() {
    let mut g = ready("cellar_rat", 2);
    g.player.statuses.gain(Kind::Poison, 3, 3);
    g.player.statuses.gain(Kind::Curse, 2, 3);
    hand(&mut g, &["parry"]);
    let hp = g.player.hp;
    play(&mut g, 0);
    assert_eq!(g.player.hp, hp, "nothing until the phase ends");
    act(&mut g, Action::EndTurn {});
    assert_eq!(g.player.hp, hp - 10);
    // The enemy's at the end of its own phase.
    g.enemy.statuses.gain(Kind::Poison, 4, 3);
    g.stage = Stage::EnemyEnd;
    g.queue = vec![super::speed::Side::Enemy, super::speed::Side::Player];
    g.enemy_step();
    assert_eq!(g.enemy.hp, 492);
}

#[test]
fn s7_regeneration_heals_at_phase_start_and_is_halved_while_cursed() {
    let mut f = super::testkit::fighter(50, 0, 0);
    f.hp = 20;
    f.statuses.gain(Kind::Regeneration, 3, 3);
    let (_, healed, _) = f.phase_start();
    assert_eq!(healed, 9);
    f.statuses.gain(Kind::Curse, 1, 3);
    let (_, healed, _) = f.phase_start();
    assert_eq!(healed, 4, "9 halved, rounded down");
}

#[test]
fn s7_durations_run_out_at_the_owners_phase_start() {
    let mut f = super::testkit::fighter(50, 0, 0);
    f.statuses.gain(Kind::Weak, 1, 2);
    f.statuses.gain(Kind::Regeneration, 1, 1);
    f.hp = 40;
    let (ended, healed, _) = f.phase_start();
    assert_eq!(ended, [Kind::Regeneration]);
    assert_eq!(healed, 0, "ticked away before it heals");
    assert!(f.statuses.has(Kind::Weak));
    let (ended, _, _) = f.phase_start();
    assert_eq!(ended, [Kind::Weak]);
}

#[test]
fn s7_shield_gives_guard_after_the_reset() {
    let mut f = super::testkit::fighter(50, 0, 0);
    f.guard = 9;
    f.statuses.gain(Kind::Shield, 4, 3);
    let (_, _, shield) = f.phase_start();
    assert_eq!((shield, f.guard), (4, 4));
}

#[test]
fn s7_momentum_grows_with_attacking_phases_and_ends_without_one() {
    let mut g = ready("fungal_creeper", 3);
    for expected in 1..=4u32 {
        hand(&mut g, &["slash"]);
        g.queue = vec![super::speed::Side::Player, super::speed::Side::Player];
        play(&mut g, 0);
        act(&mut g, Action::EndTurn {});
        assert_eq!(g.player.statuses.stacks(Kind::Momentum), expected.min(3));
    }
    hand(&mut g, &["parry"]);
    g.queue = vec![super::speed::Side::Player, super::speed::Side::Player];
    play(&mut g, 0);
    act(&mut g, Action::EndTurn {});
    assert!(!g.player.statuses.has(Kind::Momentum));
}

#[test]
fn s7_atk_up_weak_and_thorns_through_cards() {
    let mut g = ready("fungal_creeper", 4);
    g.initiative = false;
    hand(&mut g, &["war_chant", "slash"]);
    play(&mut g, 0);
    assert_eq!(g.player.statuses.stacks(Kind::AtkUp), 1);
    g.player.statuses.gain(Kind::Weak, 1, 2);
    let hp = g.enemy.hp;
    play(&mut g, 1);
    let dealt = hp - g.enemy.hp;
    // 7 -> 8 (8.4) -> 5 (5.6), or 7 on a critical.
    assert!(dealt == 5 || dealt == 7, "{dealt}");
    // Thorns: the enemy's Basic Attack takes 3 back.
    g.player.statuses.gain(Kind::Thorns, 3, 2);
    let enemy_hp = g.enemy.hp;
    g.stage = Stage::EnemyAct;
    g.queue = vec![super::speed::Side::Enemy, super::speed::Side::Player];
    g.cycle = 1;
    g.enemy_energy = 1;
    g.enemy_step();
    assert_eq!(g.enemy.hp, enemy_hp - 3);
}

#[test]
fn s7_speed_statuses_change_the_next_rounds_queue() {
    let mut g = ready("cellar_rat", 5);
    g.player.statuses.gain(Kind::SuperFast, 2, 5);
    g.queue.truncate(1);
    hand(&mut g, &["parry"]);
    g.queue.truncate(1);
    act(&mut g, Action::EndTurn {});
    // 47..52 + 60 against the rat's 55..60: at least 47 apart, 5 phases or more.
    let run = g
        .queue
        .iter()
        .take_while(|&&s| s == super::speed::Side::Player)
        .count();
    assert!(run >= 4, "{:?}", g.queue);
}
