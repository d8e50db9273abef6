//! Section 2 of the spec: the time system, the rule system, targeting, the combat
//! resolution order and tie-breaking, each rule a test.

use super::fight::{Ending, MAX_TICKS};
use super::rules::Condition::{self, Always};
use super::skills::Mode;
use super::testkit::{always, fight, get, hp, program, run, unit};

const NONE: &[Condition] = &[];

#[test]
fn s2_time_actions_count_down_and_resolve_at_0() {
    let mut f = fight(vec![
        always(unit("A", 0, 100), "strike"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 1);
    assert_eq!(get(&f, "e1").hp, 100, "Strike takes 2 ticks: nothing yet");
    assert_eq!(get(&f, "A").doing.as_ref().map(|d| d.ticks_left), Some(1));
    run(&mut f, 1);
    assert_eq!(get(&f, "e1").hp, 88, "resolved at tick 2");
    // A 1-tick skill resolves in the tick it is queued.
    let mut f = fight(vec![always(unit("A", 0, 100), "brace"), unit("e1", 1, 100)]);
    run(&mut f, 1);
    assert!(get(&f, "A").has(super::skills::Status::Defending));
    assert!(get(&f, "A").doing.is_none());
}

#[test]
fn s2_resolution_substeps_damage_healing_shields_then_health_at_once() {
    // Two attacks and a heal land on A in the same tick; its shield absorbs first.
    let mut a = hp(unit("A", 0, 100), 50);
    a.shield = 20;
    let b = always(unit("B", 0, 100), "mend");
    let e1 = always(unit("e1", 1, 100), "strike");
    let e2 = always(unit("e2", 1, 100), "strike");
    let mut f = fight(vec![a, b, e1, e2]);
    run(&mut f, 2);
    // 12 + 12 damage, 20 absorbed, 4 to health; 25 healed: 50 - 4 + 25.
    assert_eq!(get(&f, "A").hp, 71);
    assert_eq!(get(&f, "A").shield, 0);
}

#[test]
fn s2_simultaneous_resolution_lets_both_sides_fall_together() {
    let a = hp(always(unit("A", 0, 100), "strike"), 10);
    let e1 = hp(always(unit("e1", 1, 100), "strike"), 10);
    let mut f = fight(vec![a, e1]);
    run(&mut f, 2);
    assert!(get(&f, "A").down && get(&f, "e1").down);
    assert_eq!(f.ending, Some(Ending::BothDown));
}

#[test]
fn s2_targets_are_locked_when_the_action_queues() {
    let mut f = fight(vec![
        always(unit("A", 0, 100), "arc_bolt"),
        hp(unit("e1", 1, 100), 50),
        hp(unit("e2", 1, 100), 60),
    ]);
    run(&mut f, 1);
    // e2 drops below e1 mid-action: the bolt still goes to e1.
    f.units[2].hp = 10;
    run(&mut f, 2);
    assert_eq!(get(&f, "e1").hp, 30);
    assert_eq!(get(&f, "e2").hp, 10);
}

#[test]
fn s2_lowest_hp_means_absolute_hp_not_percentage() {
    let mut f = fight(vec![
        always(unit("A", 0, 100), "strike"),
        hp(unit("e1", 1, 50), 40),
        hp(unit("e2", 1, 100), 25),
    ]);
    run(&mut f, 2);
    assert_eq!(get(&f, "e2").hp, 13, "25/100 is lower than 40/50");
    assert_eq!(get(&f, "e1").hp, 40);
}

#[test]
fn s2_self_is_excluded_from_ally_targeting_while_teammates_stand() {
    // B is hurt more than A, but B's Mend goes to A.
    let b = hp(always(unit("B", 0, 100), "mend"), 40);
    let mut f = fight(vec![hp(unit("A", 0, 100), 90), b, unit("e1", 1, 100)]);
    run(&mut f, 2);
    assert_eq!(get(&f, "A").hp, 100);
    assert_eq!(get(&f, "B").hp, 40);
    // Alone, B heals itself.
    let b = hp(always(unit("B", 0, 100), "mend"), 40);
    let mut f = fight(vec![b, unit("e1", 1, 100)]);
    run(&mut f, 2);
    assert_eq!(get(&f, "B").hp, 65);
    // With the explicit `myself` targeting, B heals itself although A stands.
    let b = program(
        hp(unit("B", 0, 100), 40),
        &[("mend", &[Always], Some(Mode::Myself))],
    );
    let mut f = fight(vec![hp(unit("A", 0, 100), 90), b, unit("e1", 1, 100)]);
    run(&mut f, 2);
    assert_eq!((get(&f, "A").hp, get(&f, "B").hp), (90, 65));
}

#[test]
fn s2_no_fallbacks_empty_slots_and_rules_without_targets_are_skipped() {
    // Rule 1 has no target (nobody is hurt), slot 2 is empty, rule 3 fires.
    let mut a = program(
        unit("A", 0, 100),
        &[
            ("mend", &[Always], None),
            ("strike", &[Always], None),
            ("strike", &[Always], None),
        ],
    );
    a.rules[1] = None;
    let mut f = fight(vec![a, unit("B", 0, 100), unit("e1", 1, 100)]);
    run(&mut f, 1);
    let why = &get(&f, "A").why;
    assert_eq!(why[0], "1: Mend skipped: no valid target");
    assert_eq!(why[1], "2: empty");
    assert_eq!(why[2], "3: Strike fires on e1");
    // With nothing that fires the unit stands idle.
    let mut f = fight(vec![always(unit("A", 0, 100), "mend"), unit("e1", 1, 100)]);
    run(&mut f, 3);
    assert!(get(&f, "A").doing.is_none());
}

#[test]
fn s2_rules_are_checked_top_to_bottom_and_the_first_match_fires() {
    let a = program(
        unit("A", 0, 100),
        &[
            ("arc_bolt", &[Condition::SelfHpBelow50], None),
            ("strike", &[Always], None),
            ("arc_bolt", &[Always], None),
        ],
    );
    let mut f = fight(vec![a, unit("e1", 1, 100)]);
    run(&mut f, 1);
    let why = &get(&f, "A").why;
    assert_eq!(why[0], "1: Arc Bolt skipped: its HP is 50% or more");
    assert_eq!(why[1], "2: Strike fires on e1");
    assert_eq!(why[2], "3: not reached");
    // A rule without conditions fires like `always`.
    let a = program(unit("A", 0, 100), &[("strike", NONE, None)]);
    let mut f = fight(vec![a, unit("e1", 1, 100)]);
    run(&mut f, 2);
    assert_eq!(get(&f, "e1").hp, 88);
}

#[test]
fn s2_ties_go_to_a_b_c_and_to_enemies_by_id() {
    let mut f = fight(vec![
        unit("A", 0, 100),
        unit("B", 0, 100),
        unit("C", 0, 100),
        always(unit("e1", 1, 100), "strike"),
        unit("e2", 1, 100),
    ]);
    let c = f.units.iter().position(|u| u.id == "C").expect("C");
    f.units[c] = always(unit("C", 0, 100), "strike");
    run(&mut f, 2);
    assert_eq!(get(&f, "A").hp, 88, "equal HP: A before B and C");
    assert_eq!(get(&f, "e1").hp, 88, "equal HP: e1 before e2");
    assert_eq!(get(&f, "e2").hp, 100);
}

#[test]
fn s2_units_choose_only_when_idle() {
    let mut f = fight(vec![
        always(unit("A", 0, 100), "arc_bolt"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 2);
    assert_eq!(get(&f, "A").why, vec!["busy: Arc Bolt".to_owned()]);
    run(&mut f, 1);
    assert_eq!(get(&f, "e1").hp, 80);
    run(&mut f, 1);
    assert!(
        get(&f, "A").why[0].starts_with("1: Arc Bolt fires"),
        "idle again at tick 4"
    );
}

#[test]
fn s2_cleanup_knocks_out_and_decides_the_fight() {
    let mut f = fight(vec![
        always(unit("A", 0, 100), "strike"),
        hp(unit("e1", 1, 100), 12),
    ]);
    let log = run(&mut f, 2);
    assert!(get(&f, "e1").down);
    assert_eq!(f.ending, Some(Ending::Won(0)));
    assert!(
        log.iter().any(|l| l == "Tick 2: e1 is knocked out."),
        "{log:?}"
    );
    run(&mut f, 3);
    assert_eq!(f.tick, 2, "a decided fight does not tick on");
}

#[test]
fn s2_a_fight_is_called_after_its_tick_limit() {
    let mut f = fight(vec![unit("A", 0, 100), unit("e1", 1, 100)]);
    run(&mut f, MAX_TICKS);
    assert_eq!(f.ending, Some(Ending::TimeUp));
}

#[test]
fn s1_combat_has_no_randomness_same_inputs_same_fight() {
    let build = || {
        fight(vec![
            always(unit("A", 0, 100), "venom_dart"),
            always(unit("B", 0, 80), "arc_bolt"),
            always(unit("e1", 1, 150), "heavy_slash"),
            always(unit("e2", 1, 90), "strike"),
        ])
    };
    let (mut one, mut two) = (build(), build());
    let (log_one, log_two) = (run(&mut one, 80), run(&mut two, 80));
    assert_eq!(one, two);
    assert_eq!(log_one, log_two);
}
