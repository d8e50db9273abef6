//! Section 2 "Progression" and the core loop of section 1: planning, the fight, the
//! offering, six encounters; pausing to edit; the PvP duel with hidden programs; setups,
//! refusals, timeouts and the bot.

use serde_json::{json, Value};

use super::state::Phase;
use super::Gambit;
use crate::ruleset::Ruleset;
use crate::typed::Typed;
use crate::view::Viewer;

fn pve(setup: Option<Value>, seed: u64) -> Typed<Gambit> {
    let mut g = Typed::<Gambit>::new(&json!({"mode": "pve", "tick_ms": 0}), seed).expect("valid");
    g.setup(0, setup.as_ref()).expect("valid setup");
    g
}

fn state(g: &Typed<Gambit>) -> &Gambit {
    g.game().expect("started")
}

fn act(g: &mut Typed<Gambit>, seat: usize, action: Value) {
    g.apply(seat, &action)
        .unwrap_or_else(|e| panic!("{action} refused: {e}"));
}

/// Tick until the fight is no longer running (bounded by the tick limit).
fn fight_out(g: &mut Typed<Gambit>) {
    while g.next_tick().is_some() {
        g.advance().expect("a running fight ticks");
    }
}

/// Let the bot play seat 0 until the run is over; the encounters it reached.
fn bot_run(g: &mut Typed<Gambit>) -> usize {
    for _ in 0..10_000 {
        if g.outcome().is_some() {
            break;
        }
        if g.next_tick().is_some() {
            g.advance().expect("ticks");
            continue;
        }
        let action = g
            .ai_action(0)
            .expect("the bot always has a move when awaited");
        g.apply(0, &action).expect("the bot's move is legal");
    }
    state(g).encounter + 1
}

#[test]
fn s2_progression_six_encounters_the_last_is_the_warlord() {
    let mut g = pve(None, 3);
    let reached = bot_run(&mut g);
    let last = &state(&g).fight.units;
    assert!(g.outcome().is_some());
    assert!(
        reached >= 3,
        "the starting program wins the early encounters (reached {reached})"
    );
    let mut run = Gambit::new(
        &super::options::Options::default(),
        3,
        &[],
        crate::Names::defaults(1),
    );
    let mut foes = Vec::new();
    for _ in 0..5 {
        run.next_encounter();
        foes.push(run.fight.units.len() - 3);
    }
    assert_eq!(foes, vec![2, 2, 3, 3, 1], "enemies per encounter 2 to 6");
    let enemies: Vec<&str> = run
        .fight
        .units
        .iter()
        .filter(|u| u.team == 1)
        .map(|u| u.id)
        .collect();
    assert_eq!(enemies, vec!["warlord"]);
    assert!(!last.is_empty());
}

#[test]
fn s2_the_bot_wins_the_early_encounters_on_every_seed_tried() {
    for seed in 0..20 {
        let mut g = pve(None, seed);
        let reached = bot_run(&mut g);
        assert!(
            reached >= 3,
            "seed {seed}: the run ended in encounter {reached}"
        );
    }
}

#[test]
fn s2_offerings_exclude_starting_skills_and_are_taken_or_skipped() {
    let mut g = pve(None, 7);
    act(&mut g, 0, json!({"kind": "start"}));
    fight_out(&mut g);
    assert_eq!(
        state(&g).phase,
        Phase::Reward,
        "encounter 1 is won by the starting program"
    );
    let offered: Vec<&str> = state(&g).offering.iter().map(|s| s.id).collect();
    assert_eq!(offered.len(), 3);
    for id in &offered {
        assert!(
            super::skills::OFFERING_POOL.contains(id),
            "{id} is not a starting skill"
        );
    }
    // The same seed offers the same skills.
    let mut again = pve(None, 7);
    act(&mut again, 0, json!({"kind": "start"}));
    fight_out(&mut again);
    let twice: Vec<&str> = state(&again).offering.iter().map(|s| s.id).collect();
    assert_eq!(offered, twice);
    // Taking one teaches it to the character named, and it is never offered again.
    let skill = offered[0];
    act(
        &mut g,
        0,
        json!({"kind": "take", "skill": skill, "unit": "B"}),
    );
    let b = &state(&g).fight.units[1];
    assert!(b.knows(skill));
    assert_eq!(state(&g).phase, Phase::Planning);
    assert_eq!(state(&g).encounter, 1);
    assert!(state(&g).taken.contains(&skill));
    // Skipping moves on too.
    act(&mut g, 0, json!({"kind": "start"}));
    fight_out(&mut g);
    if state(&g).phase == Phase::Reward {
        assert!(!state(&g).offering.iter().any(|s| s.id == skill));
        act(&mut g, 0, json!({"kind": "skip"}));
        assert_eq!(state(&g).phase, Phase::Planning);
    }
}

#[test]
fn s2_full_heal_and_statuses_cleared_between_encounters() {
    let mut g = pve(None, 1);
    act(&mut g, 0, json!({"kind": "start"}));
    fight_out(&mut g);
    assert!(state(&g)
        .fight
        .units
        .iter()
        .any(|u| u.team == 0 && u.hp < u.max_hp));
    act(&mut g, 0, json!({"kind": "skip"}));
    for u in state(&g).fight.units.iter() {
        assert_eq!(u.hp, u.max_hp, "{} is healed", u.id);
        assert!(u.statuses.is_empty() && u.shield == 0 && u.doing.is_none() && !u.down);
    }
    assert_eq!(state(&g).fight.tick, 0);
}

#[test]
fn s1_pause_edit_and_resume_during_a_fight() {
    let mut g = pve(None, 1);
    act(&mut g, 0, json!({"kind": "start"}));
    assert!(g.to_act().is_empty(), "a running fight awaits nobody");
    g.advance().expect("tick 1");
    act(&mut g, 0, json!({"kind": "pause"}));
    assert_eq!(g.next_tick(), None, "a paused fight does not tick");
    assert_eq!(g.to_act(), vec![0]);
    act(
        &mut g,
        0,
        json!({"kind": "set_rule", "unit": "C", "slot": 1, "skill": "arc_bolt",
               "conditions": ["enemy_hp_below_50"], "target": "highest_hp"}),
    );
    act(
        &mut g,
        0,
        json!({"kind": "move_rule", "unit": "C", "slot": 1, "direction": "down"}),
    );
    act(
        &mut g,
        0,
        json!({"kind": "clear_rule", "unit": "A", "slot": 2}),
    );
    let c = &state(&g).fight.units[2];
    assert_eq!(c.rules[1].as_ref().map(|r| r.skill.id), Some("arc_bolt"));
    assert!(state(&g).fight.units[0].rules[1].is_none());
    act(&mut g, 0, json!({"kind": "resume"}));
    assert_eq!(g.next_tick(), Some(0));
    assert!(g
        .log(Viewer::Spectator)
        .iter()
        .any(|l| l == "Player 1 pauses the fight at tick 1."));
}

#[test]
fn refusals_say_what_is_wrong_and_change_nothing() {
    let mut g = pve(None, 1);
    let before = g.view(Viewer::Seat(0));
    for (action, needle) in [
        (json!({"kind": "pause"}), "only while a PvE fight runs"),
        (
            json!({"kind": "set_rule", "unit": "A", "slot": 1, "skill": "mend",
                "conditions": [], "target": null}),
            "does not know \"mend\"",
        ),
        (
            json!({"kind": "set_rule", "unit": "Z", "slot": 1, "skill": "strike",
                "conditions": [], "target": null}),
            "not one of your characters",
        ),
        (
            json!({"kind": "set_rule", "unit": "A", "slot": 4, "skill": "strike",
                "conditions": [], "target": null}),
            "slot 4 does not exist",
        ),
        (
            json!({"kind": "set_rule", "unit": "A", "slot": 1, "skill": "strike",
                "conditions": ["always", "always"], "target": null}),
            "given twice",
        ),
        (
            json!({"kind": "move_rule", "unit": "A", "slot": 1, "direction": "up"}),
            "cannot move up",
        ),
        (
            json!({"kind": "take", "skill": "execute", "unit": "A"}),
            "after a won encounter",
        ),
    ] {
        let err = g.apply(0, &action).expect_err("refused");
        assert!(err.to_string().contains(needle), "{action}: {err}");
    }
    assert_eq!(g.view(Viewer::Seat(0)), before);
}

#[test]
fn setups_bring_a_program_and_bad_ones_are_refused() {
    let setup = json!({"rules": {"A": [{"skill": "strike", "conditions": ["always"]}]}});
    let g = pve(Some(setup), 1);
    let a = &state(&g).fight.units[0];
    assert_eq!(a.rules[0].as_ref().map(|r| r.skill.id), Some("strike"));
    assert!(
        a.rules[1].is_none(),
        "the setup replaces that character's program"
    );
    let fresh = Typed::<Gambit>::new(&json!(null), 1).expect("defaults");
    for (setup, needle) in [
        (json!({"rules": {"Q": []}}), "the characters are A, B and C"),
        (
            json!({"rules": {"A": [{"skill": "mend"}]}}),
            "does not start with the skill \"mend\"",
        ),
        (
            json!({"rules": {"A": [{"skill": "strike"}, {"skill": "strike"},
                {"skill": "strike"}, {"skill": "strike"}]}}),
            "3 slots",
        ),
        (json!({"rulez": {}}), "unknown field"),
    ] {
        let err = fresh.check_setup(0, Some(&setup)).expect_err("refused");
        assert!(err.to_string().contains(needle), "{setup}: {err}");
    }
    assert!(Typed::<Gambit>::new(&json!({"tick_ms": 20_000}), 1).is_err());
}

#[test]
fn timeouts_start_resume_and_skip() {
    let mut g = pve(None, 1);
    g.timeout(0).expect("planning times out into the fight");
    assert_eq!(state(&g).phase, Phase::Fighting);
    act(&mut g, 0, json!({"kind": "pause"}));
    g.timeout(0).expect("a pause times out into the fight");
    assert_eq!(state(&g).phase, Phase::Fighting);
    fight_out(&mut g);
    if state(&g).phase == Phase::Reward {
        g.timeout(0).expect("an offering times out into a skip");
        assert_eq!(state(&g).phase, Phase::Planning);
    }
}

#[test]
fn s1_pvp_programs_stay_hidden_until_the_fight_starts() {
    let mut g = Typed::<Gambit>::new(&json!({"mode": "pvp", "tick_ms": 0}), 5).expect("valid");
    g.setup(0, None).expect("default");
    g.setup(1, Some(&json!({"rules": {"A": [{"skill": "brace"}]}})))
        .expect("a program");
    let rules_of =
        |view: &Value, team: usize| view["teams"][team]["units"][0].get("rules").cloned();
    let mine = g.view(Viewer::Seat(0)).to_value();
    assert!(
        rules_of(&mine, 0).is_some(),
        "a player sees their own program"
    );
    assert!(rules_of(&mine, 1).is_none(), "but not the opponent's");
    let watcher = g.view(Viewer::Spectator).to_value();
    assert!(rules_of(&watcher, 0).is_none() && rules_of(&watcher, 1).is_none());
    assert_eq!(g.to_act(), vec![0, 1], "both plan at the same time");
    act(&mut g, 1, json!({"kind": "start"}));
    assert_eq!(g.to_act(), vec![0]);
    assert!(g.legal_actions(1).is_empty(), "a ready player waits");
    act(&mut g, 0, json!({"kind": "start"}));
    assert_eq!(state(&g).phase, Phase::Fighting);
    assert!(g.legal_actions(0).is_empty(), "no pausing a duel");
    let watcher = g.view(Viewer::Spectator).to_value();
    assert_eq!(
        rules_of(&watcher, 1).expect("revealed")[0]["skill"],
        "brace",
        "revealed once the fight starts"
    );
    fight_out(&mut g);
    let outcome = g.outcome().expect("a duel ends");
    assert!(outcome.winners.len() <= 1);
}

#[test]
fn the_bot_reaches_the_warlord() {
    for seed in 0..5 {
        let mut g = pve(None, seed);
        assert_eq!(bot_run(&mut g), 6, "seed {seed}");
        assert!(g.outcome().is_some(), "seed {seed}: the run ends");
    }
}

/// The outcome of a fight of `options` (seats Ana and Ben) made ready by `set` and stepped
/// once, at its encounter `encounter`.
fn ended(
    options: &super::options::Options,
    encounter: usize,
    set: impl Fn(&mut super::unit::Unit),
) -> crate::Outcome {
    let names = crate::Names::new(vec![Some("Ana".into()), Some("Ben".into())]);
    let mut g = Gambit::new(options, 1, &[], names);
    g.encounter = encounter;
    g.fight.units.iter_mut().for_each(set);
    if g.fight
        .units
        .iter()
        .all(|u| u.rules.iter().all(Option::is_none))
    {
        g.fight.tick = super::fight::MAX_TICKS - 1;
    }
    g.phase = Phase::Fighting;
    g.step();
    g.finish.clone().expect("over")
}

#[test]
fn each_way_a_run_or_a_duel_ends_is_said_in_its_outcome() {
    use super::options::{Mode, Options};
    use crate::OutcomeReason::{Completed, Knockout, Limit};
    let pve = Options::default();
    let pvp = Options {
        mode: Mode::Pvp,
        ..Options::default()
    };
    let idle = |u: &mut super::unit::Unit| u.rules = Default::default();
    let down = |team: Option<usize>| {
        move |u: &mut super::unit::Unit| {
            if team.is_none_or(|t| t == u.team) {
                u.hp = 0;
            }
        }
    };
    for (outcome, reason, winners, summary) in [
        (
            ended(&pve, 0, idle),
            Limit,
            vec![],
            "Ana's run is lost: the party ran out of time (600 ticks) in encounter 1.",
        ),
        (
            ended(&pve, 0, down(Some(0))),
            Knockout,
            vec![],
            "Ana's run is lost: the party was knocked out at tick 1 in encounter 1.",
        ),
        (
            ended(&pve, 5, down(Some(1))),
            Completed,
            vec![0],
            "Ana's party wins the run: the Warlord falls at tick 1 of encounter 6.",
        ),
        (
            ended(&pvp, 0, down(Some(0))),
            Knockout,
            vec![1],
            "Ben's party wins at tick 1: Ana's party is knocked out.",
        ),
        (
            ended(&pvp, 0, down(None)),
            Knockout,
            vec![],
            "Both parties fell at tick 1: a draw.",
        ),
        (
            ended(&pvp, 0, idle),
            Limit,
            vec![],
            "Both parties still stand after 600 ticks: a draw.",
        ),
    ] {
        assert_eq!(outcome.summary, summary);
        assert_eq!(
            (outcome.reason, outcome.winners),
            (reason, winners),
            "{summary}"
        );
    }
}
