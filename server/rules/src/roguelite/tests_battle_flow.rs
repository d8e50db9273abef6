//! Sections 2 and 4 of the spec: the asymmetrical energy (3 for the player, floor(actEnergy
//! x addEnergy) actions for the enemy), the fallback to a Basic Attack or Wait, and the order
//! of the player's and the enemy's phases, the enemy's one engine step per action.

use super::enemies::find;
use super::enemy_phase::{enemy_energy, next_action, plan};
use super::error::RogueliteError;
use super::play::Action;
use super::speed::Side;
use super::state::{Stage, ENERGY};
use super::status::Kind;
use super::testkit::{act, against, hand, play, through_enemy};

fn kind(id: &str) -> &'static super::enemies::EnemyKind {
    find(id).expect("a real enemy")
}

#[test]
fn s2_1_the_player_has_3_energy_and_plays_any_number_it_can_pay_for() {
    let mut g = against("fungal_creeper", 1);
    through_enemy(&mut g);
    assert_eq!(g.energy, ENERGY);
    g.enemy.max_hp = 500;
    g.enemy.hp = 500;
    hand(&mut g, &["slash", "parry", "cleave", "rivet"]);
    play(&mut g, 0);
    play(&mut g, 1);
    assert_eq!(g.energy, 1);
    let legal = g.legal_for(0);
    assert!(!legal.contains(&crate::legal::Legal::Act(Action::Play { card: 2 })));
    assert_eq!(
        g.act(0, Action::Play { card: 2 }),
        Err(RogueliteError::CannotPay {
            name: "Cleave",
            cost: 2,
            energy: 1
        })
    );
    play(&mut g, 3);
    assert_eq!(g.energy, 0);
    assert_eq!(
        g.legal_for(0),
        [crate::legal::Legal::Act(Action::EndTurn {})]
    );
}

#[test]
fn s2_2_enemy_energy_is_floor_act_energy_times_add_energy() {
    assert_eq!(enemy_energy(2, 100), 2);
    assert_eq!(enemy_energy(3, 150), 4);
    assert_eq!(enemy_energy(2, 150), 3);
    assert_eq!(enemy_energy(1, 150), 1);
    // The Cinder Hound's Kindle: its next phase has 3 actions, then back to 2.
    let mut g = against("cinder_hound", 1);
    through_enemy(&mut g);
    g.player.hp = 80;
    g.stage = Stage::EnemyStart;
    g.queue = vec![Side::Enemy, Side::Player];
    g.cycle = 0;
    g.add_energy = 100;
    g.enemy_step();
    assert_eq!(g.enemy_energy, 2);
    g.enemy_step();
    assert_eq!(g.add_energy, 150);
    assert_eq!(g.intent().len(), 1, "the rest of this phase");
    g.enemy_step();
    g.enemy_step();
    g.stage = Stage::EnemyStart;
    g.queue = vec![Side::Enemy, Side::Player];
    g.enemy_step();
    assert_eq!(g.enemy_energy, 3);
    assert_eq!(g.add_energy, 100);
}

#[test]
fn s4_3_an_enemy_that_cannot_pay_falls_back_to_a_basic_attack() {
    let juggernaut = kind("brass_juggernaut");
    let (skill, from_cycle) = next_action(juggernaut, 1, 1);
    assert_eq!((skill.id, from_cycle), ("basic_attack", false));
    // Spiked Plating (1) then Crush (2) cannot be paid with 1 left: a Basic Attack; Crush
    // waits for the next phase.
    let ids: Vec<&str> = plan(juggernaut, 0, 2).iter().map(|s| s.id).collect();
    assert_eq!(ids, ["spiked_plating", "basic_attack"]);
    let ids: Vec<&str> = plan(juggernaut, 1, 2).iter().map(|s| s.id).collect();
    assert_eq!(ids, ["crush"]);
}

#[test]
fn s4_3_an_enemy_that_waits_ends_its_phase() {
    let priest = kind("ash_priest");
    let ids: Vec<&str> = plan(priest, 0, 3).iter().map(|s| s.id).collect();
    assert_eq!(ids, ["ash_prayer", "enfeeble"]);
    let ids: Vec<&str> = plan(priest, 2, 3).iter().map(|s| s.id).collect();
    assert_eq!(ids, ["cinder_smite", "wait"]);
}

#[test]
fn s4_3_a_multi_action_enemy_takes_one_action_per_engine_step() {
    let mut g = against("rust_sentry", 2);
    through_enemy(&mut g);
    g.player.hp = 80;
    g.enemy.guard = 5;
    g.stage = Stage::EnemyStart;
    g.queue = vec![Side::Enemy, Side::Player];
    g.cycle = 0;
    let lines = g.log.len();
    g.enemy_step();
    assert_eq!(g.enemy.guard, 0, "Guard to 0 at its phase start");
    assert_eq!((g.stage, g.enemy_energy), (Stage::EnemyAct, 2));
    g.enemy_step();
    assert_eq!(g.enemy.guard, 6, "Plate Up");
    assert_eq!(g.enemy_energy, 1);
    g.enemy_step();
    assert_eq!(g.stage, Stage::EnemyEnd);
    g.enemy_step();
    assert_eq!(g.stage, Stage::PlayerPhase);
    assert_eq!(
        g.log.len(),
        lines + 5,
        "start, two actions, end, your phase"
    );
}

#[test]
fn s4_2_the_player_phase_starts_with_guard_durations_regeneration_shield_energy_draw() {
    let mut g = against("fungal_creeper", 3);
    through_enemy(&mut g);
    g.enemy.max_hp = 500;
    g.enemy.hp = 500;
    g.player.hp = 50;
    g.player.statuses.clear();
    g.player.statuses.gain(Kind::Regeneration, 2, 3);
    g.player.statuses.gain(Kind::Shield, 4, 2);
    g.player.statuses.gain(Kind::Weak, 1, 1);
    hand(
        &mut g,
        &[
            "parry", "slash", "slash", "slash", "slash", "slash", "slash",
        ],
    );
    play(&mut g, 0);
    g.queue = vec![Side::Player, Side::Player];
    act(&mut g, Action::EndTurn {});
    assert_eq!(g.stage, Stage::PlayerPhase);
    assert_eq!(g.player.guard, 4, "reset, then Shield");
    assert_eq!(g.player.hp, 56, "Regeneration 2 x 3");
    assert!(!g.player.statuses.has(Kind::Weak), "ticked away");
    assert_eq!(g.energy, 3);
    assert_eq!(g.piles.hand.len(), 5);
}

#[test]
fn s4_2_the_speed_bonus_adds_10_percent_while_the_player_is_faster() {
    let mut g = against("brass_juggernaut", 5);
    through_enemy(&mut g);
    assert!(g.initiative, "50 against 24");
    assert!(g.log.iter().any(|l| l.contains("with initiative")));
    let mut g = against("glass_mantis", 5);
    through_enemy(&mut g);
    assert!(!g.initiative, "50 against 68");
}

#[test]
fn s4_2_phase_end_applies_rot_and_momentum_then_the_enemy_phase_runs_by_itself() {
    let mut g = against("fungal_creeper", 6);
    through_enemy(&mut g);
    g.enemy.max_hp = 500;
    g.enemy.hp = 500;
    g.player.statuses.clear();
    g.player.statuses.gain(Kind::Poison, 1, 3);
    let hp = g.player.hp;
    hand(&mut g, &["slash"]);
    play(&mut g, 0);
    act(&mut g, Action::EndTurn {});
    assert_eq!(g.player.hp, hp - 2);
    assert_eq!(g.player.statuses.stacks(Kind::Momentum), 1);
    assert_eq!(g.stage, Stage::EnemyStart);
    assert!(g.awaited().is_empty());
    assert!(g.legal_for(0).is_empty());
    assert_eq!(
        g.act(0, Action::EndTurn {}),
        Err(RogueliteError::NotYourTurn(0))
    );
}
