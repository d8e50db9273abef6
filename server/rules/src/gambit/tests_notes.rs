//! Section 3 of the spec, the working notes: each note a test.

use super::fight::Fight;
use super::roster::{Kind, BRUTE, HEALER, SHAMAN, WARLORD};
use super::rules::Condition::Always;
use super::skills::Status;
use super::testkit::{always, fight, get, hp, program, run, unit, with};
use super::unit::Unit;

/// An enemy of `kind` with its own program, as `id`.
fn enemy(kind: &Kind, id: &'static str) -> Unit {
    Unit::new(kind, id, 1)
}

/// The skill `id`'s queued target, if `who` is doing it.
fn aims(f: &Fight, who: &str) -> Option<(&'static str, Vec<&'static str>)> {
    let d = get(f, who).doing.as_ref()?;
    Some((
        d.skill.id,
        d.targets.iter().map(|&t| f.units[t].id).collect(),
    ))
}

#[test]
fn note_brute_uses_heavy_slash_on_taunting_targets() {
    let party = || vec![unit("A", 0, 120), hp(unit("B", 0, 90), 40)];
    let mut taunting = party();
    taunting[0] = with(unit("A", 0, 120), Status::Taunting, 3);
    taunting.push(enemy(&BRUTE, "brute"));
    let mut f = fight(taunting);
    run(&mut f, 1);
    assert_eq!(aims(&f, "brute"), Some(("heavy_slash", vec!["A"])));
    let mut plain = party();
    plain.push(enemy(&BRUTE, "brute"));
    let mut f = fight(plain);
    run(&mut f, 1);
    assert_eq!(
        aims(&f, "brute"),
        Some(("strike", vec!["B"])),
        "no taunt: Strike the weakest"
    );
}

#[test]
fn note_healer_ignores_taunt() {
    let a = with(unit("A", 0, 120), Status::Taunting, 3);
    let mut f = fight(vec![a, hp(unit("B", 0, 90), 40), enemy(&HEALER, "healer")]);
    run(&mut f, 1);
    assert_eq!(aims(&f, "healer"), Some(("smite", vec!["B"])));
}

#[test]
fn note_shaman_always_targets_a_first() {
    // A has the most HP, yet the Shaman's fixed targeting picks it; then the first valid
    // target in order (B, the first not poisoned); with both poisoned, it bolts A.
    let mut f = fight(vec![
        unit("A", 0, 120),
        hp(unit("B", 0, 90), 20),
        enemy(&SHAMAN, "shaman"),
    ]);
    run(&mut f, 1);
    assert_eq!(aims(&f, "shaman"), Some(("venom_dart", vec!["A"])));
    run(&mut f, 2);
    assert_eq!(aims(&f, "shaman"), Some(("venom_dart", vec!["B"])));
    run(&mut f, 2);
    assert_eq!(aims(&f, "shaman"), Some(("arc_bolt", vec!["A"])));
}

#[test]
fn note_warlord_ground_slams_while_more_than_2_players_stand() {
    let mut f = fight(vec![
        unit("A", 0, 120),
        unit("B", 0, 90),
        unit("C", 0, 80),
        enemy(&WARLORD, "warlord"),
    ]);
    run(&mut f, 1);
    assert_eq!(
        aims(&f, "warlord"),
        Some(("ground_slam", vec!["A", "B", "C"]))
    );
    let mut c = unit("C", 0, 80);
    c.knock_out();
    let mut f = fight(vec![
        unit("A", 0, 120),
        unit("B", 0, 90),
        c,
        enemy(&WARLORD, "warlord"),
    ]);
    run(&mut f, 1);
    assert_eq!(aims(&f, "warlord"), Some(("heavy_slash", vec!["B"])));
}

#[test]
fn note_shield_reapplication_resets_the_pool_to_30() {
    for before in [20, 5] {
        let mut a = unit("A", 0, 120);
        a.shield = before;
        let mut f = fight(vec![
            a,
            always(unit("B", 0, 90), "ward"),
            unit("e1", 1, 100),
        ]);
        run(&mut f, 2);
        assert_eq!(get(&f, "A").shield, 30, "from {before}: reset, no stacking");
    }
}

#[test]
fn note_stun_lands_after_same_tick_attacks() {
    // e1's Strike and A's Concuss resolve in the same tick: the Strike still lands.
    let mut f = fight(vec![
        always(unit("A", 0, 100), "concuss"),
        always(unit("e1", 1, 100), "strike"),
    ]);
    run(&mut f, 2);
    assert_eq!(get(&f, "A").hp, 88, "the same-tick attack resolved");
    assert!(get(&f, "e1").has(Status::Stunned));
    run(&mut f, 1);
    assert_eq!(get(&f, "e1").why, vec!["stunned: cannot choose".to_owned()]);
    // A stun that lands while a longer action is in progress cancels it.
    let mut f = fight(vec![
        always(unit("A", 0, 100), "concuss"),
        always(unit("e1", 1, 100), "heavy_slash"),
    ]);
    let log = run(&mut f, 4);
    assert_eq!(get(&f, "A").hp, 100, "the Heavy Slash never landed");
    assert!(
        log.iter()
            .any(|l| l == "Tick 2: A's Concuss cancels e1's Heavy Slash."),
        "{log:?}"
    );
}

#[test]
fn note_interrupt_cannot_cancel_same_tick_resolution() {
    // Disrupt needs an acting target: it is queued at tick 2, when e1's Strike resolves.
    let mut f = fight(vec![
        always(unit("A", 0, 100), "disrupt"),
        always(unit("e1", 1, 100), "strike"),
    ]);
    let log = run(&mut f, 2);
    assert_eq!(
        get(&f, "A").hp,
        88,
        "the Strike resolved in the Disrupt's tick"
    );
    assert!(
        log.iter()
            .any(|l| l
                == "Tick 2: A's Disrupt has no effect: e1 has no action in progress to cancel."),
        "a Disrupt that cancels nothing says so: {log:?}"
    );
    // Queued before the target's action resolves, it cancels it.
    let mut f = fight(vec![
        always(unit("A", 0, 100), "disrupt"),
        always(unit("e1", 1, 100), "heavy_slash"),
    ]);
    let log = run(&mut f, 3);
    assert_eq!(get(&f, "A").hp, 100);
    assert!(
        log.iter()
            .any(|l| l == "Tick 2: A's Disrupt cancels e1's Heavy Slash."),
        "{log:?}"
    );
}

#[test]
fn note_poison_first_damage_one_tick_after_it_lands() {
    let mut f = fight(vec![
        always(unit("A", 0, 100), "venom_dart"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 2);
    assert!(get(&f, "e1").has(Status::Poisoned), "landed at tick 2");
    assert_eq!(get(&f, "e1").hp, 100, "no damage in the tick it lands");
    run(&mut f, 1);
    assert_eq!(get(&f, "e1").hp, 95);
    run(&mut f, 3);
    assert_eq!(get(&f, "e1").hp, 80, "4 ticks of 5");
    assert!(!get(&f, "e1").has(Status::Poisoned));
}

#[test]
fn note_defending_halves_damage_before_shields() {
    let mut a = with(unit("A", 0, 100), Status::Defending, 3);
    a.shield = 5;
    let mut f = fight(vec![a, always(unit("e1", 1, 100), "heavy_slash")]);
    run(&mut f, 3);
    // 25 halved to 12, the shield takes 5, health 7.
    assert_eq!(get(&f, "A").hp, 93);
    assert_eq!(get(&f, "A").shield, 0);
}

#[test]
fn note_enraged_adds_15_after_the_defending_reduction() {
    let a = with(unit("A", 0, 100), Status::Defending, 3);
    let e1 = with(always(unit("e1", 1, 100), "strike"), Status::Enraged, 0);
    let mut f = fight(vec![a, e1]);
    run(&mut f, 2);
    assert_eq!(get(&f, "A").hp, 100 - (12 / 2 + 15));
    assert!(
        !get(&f, "e1").has(Status::Enraged),
        "used up by that attack"
    );
}

#[test]
fn note_taunt_lasts_4_ticks() {
    let mut f = fight(vec![
        program(unit("A", 0, 100), &[("taunt", &[Always], None)]),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 1);
    assert!(get(&f, "A").has(Status::Taunting), "landed at tick 1");
    run(&mut f, 3);
    assert!(
        get(&f, "A").has(Status::Taunting),
        "still there after tick 4"
    );
    run(&mut f, 1);
    assert!(
        !get(&f, "A").has(Status::Taunting),
        "gone after tick 5: ticks 2 to 5"
    );
}

#[test]
fn note_taunt_only_affects_new_selections() {
    // e1 locks B at tick 1; A's taunt lands the same tick; the Strike still hits B, and e1's
    // next choice is A.
    let mut f = fight(vec![
        program(unit("A", 0, 100), &[("taunt", &[Always], None)]),
        hp(unit("B", 0, 100), 60),
        always(unit("e1", 1, 100), "strike"),
    ]);
    run(&mut f, 2);
    assert_eq!(get(&f, "B").hp, 48);
    run(&mut f, 1);
    assert_eq!(aims(&f, "e1"), Some(("strike", vec!["A"])));
}

#[test]
fn note_execute_at_or_below_25_percent() {
    for (hp_now, valid) in [(26, false), (25, true)] {
        let mut f = fight(vec![
            always(unit("A", 0, 100), "execute"),
            hp(unit("e1", 1, 100), hp_now),
        ]);
        run(&mut f, 1);
        assert_eq!(get(&f, "A").doing.is_some(), valid, "at {hp_now} HP");
    }
}

#[test]
fn note_heals_target_only_damaged_allies() {
    let mut f = fight(vec![
        unit("A", 0, 100),
        always(unit("B", 0, 100), "mend"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 1);
    assert!(
        get(&f, "B").doing.is_none(),
        "nobody is hurt: no heal is wasted"
    );
    let mut f = fight(vec![
        hp(unit("A", 0, 100), 99),
        always(unit("B", 0, 100), "mend"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 2);
    assert_eq!(get(&f, "A").hp, 100);
}

#[test]
fn note_revive_needs_a_knocked_out_ally() {
    let mut f = fight(vec![
        unit("A", 0, 100),
        always(unit("B", 0, 100), "revive"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 1);
    assert!(
        get(&f, "B").doing.is_none(),
        "cannot pre-queue on a living ally"
    );
    let mut a = unit("A", 0, 100);
    a.knock_out();
    let mut f = fight(vec![
        a,
        always(unit("B", 0, 100), "revive"),
        unit("e1", 1, 100),
    ]);
    run(&mut f, 4);
    assert!(!get(&f, "A").down);
    assert_eq!(get(&f, "A").hp, 30);
}

#[test]
fn note_the_inspector_shows_why_each_rule_fired_or_not() {
    let a = program(
        unit("A", 0, 100),
        &[
            ("mend", &[Always], None),
            ("arc_bolt", &[super::rules::Condition::EnemyHpBelow50], None),
            ("strike", &[Always], None),
        ],
    );
    let mut f = fight(vec![a, unit("e1", 1, 100)]);
    run(&mut f, 1);
    assert_eq!(
        get(&f, "A").why,
        vec![
            "1: Mend skipped: no valid target",
            "2: Arc Bolt skipped: no enemy's HP is below 50%",
            "3: Strike fires on e1",
        ]
    );
}

#[test]
fn note_the_forecast_predicts_the_next_action_after_the_current_one() {
    use super::state::{Gambit, Phase};
    let caster = program(
        unit("C", 0, 80),
        &[("execute", &[Always], None), ("arc_bolt", &[Always], None)],
    );
    let mut g = Gambit::new(
        &super::options::Options::default(),
        1,
        &[],
        crate::Names::defaults(1),
    );
    g.fight = fight(vec![caster, unit("e1", 1, 100)]);
    g.phase = Phase::Fighting;
    let next = |g: &Gambit| {
        let view = crate::view::to_view(&g.view_all())
            .expect("a view")
            .to_value();
        view["teams"][0]["units"][0]["next"].clone()
    };
    assert!(next(&g).is_null(), "idle: no forecast");
    g.step();
    // Busy with Arc Bolt; Execute has no target yet, so the next pick is Arc Bolt again.
    assert_eq!(
        next(&g),
        serde_json::json!({"skill": "arc_bolt", "targets": ["e1"]})
    );
    // The enemy falls to 25%: the forecast changes to Execute.
    g.fight.units[1].hp = 25;
    assert_eq!(
        next(&g),
        serde_json::json!({"skill": "execute", "targets": ["e1"]})
    );
}

/// The lines `ticks` ticks of a fight of `units` write.
fn lines(units: Vec<Unit>, ticks: u32) -> Vec<String> {
    run(&mut fight(units), ticks)
}

#[test]
fn the_log_says_who_did_what_to_whom_and_by_how_much() {
    // Two Strikes in a row: each gives its damage and the HP before and after.
    let log = lines(
        vec![always(unit("A", 0, 100), "strike"), unit("e1", 1, 100)],
        4,
    );
    for line in [
        "Tick 1: A begins Strike on e1 (2 ticks).",
        "Tick 2: A's Strike on e1: 12 damage (100 to 88).",
        "Tick 4: A's Strike on e1: 12 damage (88 to 76).",
    ] {
        assert!(log.contains(&line.to_owned()), "{line}: {log:?}");
    }
    // Two hits in one tick: each one's share, then the whole change.
    let log = lines(
        vec![
            always(unit("A", 0, 100), "strike"),
            always(unit("B", 0, 100), "strike"),
            unit("e1", 1, 100),
        ],
        2,
    );
    let both = "Tick 2: A's Strike (12 damage) and B's Strike (12 damage) on e1: 24 damage \
                (100 to 76).";
    assert!(log.contains(&both.to_owned()), "{log:?}");
    // Defending halves, a shield absorbs, and both are said.
    let mut f = fight(vec![
        always(unit("A", 0, 100), "strike"),
        with(unit("e1", 1, 100), Status::Defending, 3),
    ]);
    f.units[1].shield = 4;
    let log = run(&mut f, 2);
    let line = "Tick 2: A's Strike on e1: 6 damage (100 to 98); halved: e1 is defending; 4 \
                absorbed by its shield, -4 shield (4 to 0).";
    assert!(log.contains(&line.to_owned()), "{log:?}");
    // A status says who put it on whom and for how long.
    let log = lines(
        vec![always(unit("A", 0, 100), "venom_dart"), unit("e1", 1, 100)],
        3,
    );
    for line in [
        "Tick 2: A's Venom Dart leaves e1 poisoned for 4 ticks (5 damage a tick).",
        "Tick 3: e1 takes poison damage: 5 damage (100 to 95).",
    ] {
        assert!(log.contains(&line.to_owned()), "{line}: {log:?}");
    }
}
