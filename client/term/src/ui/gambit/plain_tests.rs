//! Plain mode's gambit lines: what changed, once; the prompt numbered for `play N`.

use serde_json::json;

use super::super::fixture::{editing_legal, set_rule, tracked, view};
use super::*;
use crate::choice::resolve;
use crate::keys::Command;
use crate::plain::PlainReporter;
use battle_protocol::ServerMsg;

fn apply(t: &mut ViewTracker, seq: u64, view: Value) {
    t.apply(&ServerMsg::Snapshot {
        battle_id: "g1".into(),
        seq,
        view,
        req: None,
    })
    .expect("a snapshot of the tracked battle applies");
}

#[test]
fn the_first_view_names_the_teams_the_phase_and_the_programs() {
    let mut out = Vec::new();
    changes(None, &view("planning", editing_legal("start")), &mut out);
    for line in [
        "team: Party: A Vanguard 120/120, B Mender 90/90, C Arcanist 56/80",
        "team: Enemies: Grunt #1 31/60",
        "phase: planning, encounter 1 of 6",
        "rules: A Vanguard: 1 Taunt · always | 2 Brace · if own HP below 25% | 3 Strike · always",
        "rules: B Mender: 1 Mend · if an ally below 75% HP | 2 (empty) | 3 (empty)",
    ] {
        assert!(
            out.contains(&line.to_owned()),
            "{line:?} missing from {out:#?}"
        );
    }
}

#[test]
fn a_tick_prints_new_log_lines_and_hp_changes_only() {
    let before = view("fighting", json!([{"kind": "pause"}]));
    let mut after = before.clone();
    after["game"]["tick"] = json!(4);
    after["game"]["log"]
        .as_array_mut()
        .expect("the fixture log is an array")
        .push(json!(
            "Tick 4: Grunt (grunt1) resolves Strike: Vanguard (A) 108/120 HP."
        ));
    after["game"]["teams"][0]["units"][0]["hp"] = json!(108);
    after["game"]["teams"][1]["units"][0]["hp"] = json!(0);
    after["game"]["teams"][1]["units"][0]["down"] = json!(true);
    let mut out = Vec::new();
    changes(Some(&before), &after, &mut out);
    assert_eq!(
        out,
        vec![
            "log: Tick 4: Grunt (grunt1) resolves Strike: Vanguard (A) 108/120 HP.",
            "hp: A Vanguard 120 -> 108",
            "hp: Grunt #1 31 -> 0 (knocked out)",
        ]
    );
    let mut quiet = before.clone();
    quiet["game"]["tick"] = json!(4);
    let mut out = Vec::new();
    changes(Some(&before), &quiet, &mut out);
    assert!(
        out.is_empty(),
        "a tick that changes nothing prints nothing: {out:?}"
    );
}

#[test]
fn the_prompt_numbers_every_legal_action_and_play_n_values_sets_a_rule() {
    let mut paused = view("paused", editing_legal("resume"));
    paused["prompt"] =
        json!({"decision": "paused", "text": "Paused at tick 3: edit your rules, then resume."});
    let t = tracked(paused);
    let line = prompt_line(&t).expect("the seat may act");
    for part in [
        "your move: Paused at tick 3: edit your rules, then resume. you may: ",
        "play 1 CONDITIONS SKILL SLOT TARGET = set a rule of A Vanguard \
         (SKILL one of [\"strike\", \"taunt\", \"brace\"])",
        "play 4 = clear A Vanguard's rule 1",
        "play 5 = move A Vanguard's rule 1 down",
        "play 9 = resume",
        "; values: CONDITIONS = 0 to 2 of [\"always\", ",
        "SLOT = a number from 1 to 3",
    ] {
        assert!(line.contains(part), "{part:?} missing from {line}");
    }
    let words = ["always,self_hp_below_50", "brace", "2", "null"];
    let action = resolve(
        &t,
        Command::Fill(1, words.iter().map(|w| (*w).to_owned()).collect()),
    )
    .expect("the values fit");
    assert!(fill::admits(
        &set_rule("A", &["strike", "taunt", "brace"]),
        &action
    ));
    assert_eq!(action["conditions"], json!(["always", "self_hp_below_50"]));
    assert_eq!(resolve(&t, Command::Play(9)), Ok(json!({"kind": "resume"})));
}

#[test]
fn a_running_fight_prompts_once_not_at_every_tick() {
    let mut t = ViewTracker::new("g1");
    let mut r = PlainReporter::new();
    let fighting = view("fighting", json!([{"kind": "pause"}]));
    apply(&mut t, 1, fighting.clone());
    r.changes(&t);
    assert_eq!(
        r.prompt(&t, false).as_deref(),
        Some("you may (not awaited): play 1 = pause")
    );
    let mut next = fighting;
    next["game"]["tick"] = json!(4);
    apply(&mut t, 2, next.clone());
    assert!(r.changes(&t).is_empty(), "nothing changed but the tick");
    assert_eq!(
        r.prompt(&t, false),
        None,
        "the same choices are not repeated"
    );
    r.reprompt();
    assert!(
        r.prompt(&t, false).is_some(),
        "a refused move repeats the prompt"
    );
    let mut paused = next;
    paused["game"]["phase"] = json!("paused");
    paused["to_act"] = json!([0]);
    paused["legal"] = editing_legal("resume");
    apply(&mut t, 3, paused);
    assert_eq!(
        r.changes(&t),
        vec!["phase: paused, encounter 1 of 6, at tick 4"]
    );
    assert!(r
        .prompt(&t, false)
        .is_some_and(|p| p.starts_with("your move: you may: play 1 CONDITIONS")));
}

#[test]
fn the_result_is_told_as_a_run() {
    let mut t = ViewTracker::new("g1");
    let mut r = PlainReporter::new();
    let mut lost = view("over", json!([]));
    lost["status"] = json!("finished");
    lost["to_act"] = json!([]);
    lost["outcome"] = json!({"winners": [], "reason": "knockout",
        "summary": "The run is lost: the party was knocked out at tick 40 in encounter 1."});
    apply(&mut t, 1, lost);
    let lines = r.changes(&t);
    let results: Vec<&String> = lines.iter().filter(|l| l.starts_with("result:")).collect();
    assert_eq!(
        results,
        vec![
            "result: You lost the run: you were defeated.",
            "result: The run is lost: the party was knocked out at tick 40 in encounter 1.",
        ]
    );
}
