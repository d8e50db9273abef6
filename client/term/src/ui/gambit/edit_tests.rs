//! The editor's commands and the actions they build: every action sent is a `legal` entry
//! or admitted by the open `set_rule` entry; anything else is refused in words.

use serde_json::{json, Value};

use super::super::fixture::{editing_legal, reward, set_rule, tracked, view};
use super::*;

fn paused() -> ViewTracker {
    tracked(view("paused", editing_legal("resume")))
}

fn run(ui: &mut GambitUi, t: &ViewTracker, commands: &[Command]) -> Result<Effect, String> {
    let mut last = Ok(Effect::Nothing);
    for c in commands {
        last = ui.command(t, c.clone());
    }
    last
}

fn sent(effect: Result<Effect, String>) -> Value {
    match effect {
        Ok(Effect::Send(action)) => action,
        other => panic!("expected an action to send, got {other:?}"),
    }
}

#[test]
fn the_editor_builds_a_set_rule_its_open_entry_admits() {
    let t = paused();
    let mut ui = GambitUi::default();
    // A's slot 2 holds Brace if own HP below 25%: the editor starts from it.
    run(&mut ui, &t, &[Command::Nav(Nav::Down), Command::Confirm]).expect("A is editable");
    let draft = ui.draft.clone().expect("the editor is open");
    assert_eq!(
        (draft.slot, &draft.skill, &draft.conditions),
        (
            2,
            &json!("brace"),
            &vec![json!("self_hp_below_25"), Value::Null]
        )
    );
    let edits = [
        Command::Nav(Nav::Right), // skill: brace → strike (wraps)
        Command::Nav(Nav::Down),  // condition 1
        Command::Nav(Nav::Right), // self_hp_below_25 → self_hp_below_50
        Command::Nav(Nav::Down),  // condition 2
        Command::Nav(Nav::Left),  // none → ally_hp_below_75 (wraps backwards)
        Command::Nav(Nav::Next),  // target
        Command::Nav(Nav::Right), // the skill's own → lowest_hp
        Command::Nav(Nav::Right), // → highest_hp
    ];
    assert_eq!(run(&mut ui, &t, &edits), Ok(Effect::Nothing));
    let action = sent(ui.command(&t, Command::Confirm));
    assert_eq!(
        action,
        json!({"kind": "set_rule", "unit": "A", "slot": 2, "skill": "strike",
               "conditions": ["self_hp_below_50", "ally_hp_below_75"], "target": "highest_hp"})
    );
    assert!(fill::admits(
        &set_rule("A", &["strike", "taunt", "brace"]),
        &action
    ));
    assert!(
        ui.draft.is_none(),
        "the editor closes once the rule is sent"
    );
}

#[test]
fn an_empty_slot_starts_from_the_first_skill_and_the_same_condition_twice_is_refused() {
    let t = paused();
    let mut ui = GambitUi::default();
    // B (Tab), slot 3 (digit), which is empty.
    run(
        &mut ui,
        &t,
        &[Command::Nav(Nav::Next), Command::Play(3), Command::Confirm],
    )
    .expect("B is editable");
    let draft = ui.draft.clone().expect("open");
    assert_eq!((&draft.unit, draft.slot), (&json!("B"), 3));
    assert_eq!(draft.skill, json!("mend"), "the first skill B knows");
    let twice = [
        Command::Nav(Nav::Down),
        Command::Nav(Nav::Right),
        Command::Nav(Nav::Down),
        Command::Nav(Nav::Right),
        Command::Confirm,
    ];
    assert_eq!(
        run(&mut ui, &t, &twice),
        Err("the two conditions are the same: change or empty one".to_owned())
    );
    assert!(ui.draft.is_some(), "a refused rule stays in the editor");
    assert_eq!(
        ui.command(&t, Command::ClearRule),
        Err("the editor is open: ↑↓ field, ←→ value, Enter sets the rule, Esc closes".to_owned())
    );
    let closed = ui.command(&t, Command::Cancel);
    assert_eq!(
        closed,
        Ok(Effect::Note("editor closed; nothing was sent".to_owned()))
    );
    assert!(ui.draft.is_none());
}

#[test]
fn clear_and_move_send_legal_entries_or_say_why_not() {
    let t = paused();
    let mut ui = GambitUi::default();
    assert_eq!(
        ui.command(&t, Command::MoveRule(true)),
        Err("Vanguard's rule 1 is already at the top".to_owned())
    );
    assert_eq!(
        sent(ui.command(&t, Command::MoveRule(false))),
        json!({"direction": "down", "kind": "move_rule", "slot": 1, "unit": "A"})
    );
    assert_eq!(ui.slot, 1, "the selection follows the moved rule");
    assert_eq!(
        sent(ui.command(&t, Command::ClearRule)),
        json!({"kind": "clear_rule", "slot": 2, "unit": "A"})
    );
    // C's slot 3 is empty.
    run(
        &mut ui,
        &t,
        &[
            Command::Nav(Nav::Next),
            Command::Nav(Nav::Next),
            Command::Play(3),
        ],
    )
    .expect("selection");
    assert_eq!(
        ui.command(&t, Command::ClearRule),
        Err("Arcanist's slot 3 is empty".to_owned())
    );
    // The enemy after C (wrapping: ← from A).
    let mut ui = GambitUi::default();
    ui.command(&t, Command::Nav(Nav::Left)).expect("selection");
    assert_eq!(
        ui.command(&t, Command::Confirm),
        Err("Grunt #1 is not one of your characters: Tab selects yours".to_owned())
    );
    assert_eq!(
        sent(ui.command(&t, Command::PauseResume)),
        json!({"kind": "resume"})
    );
}

#[test]
fn a_running_fight_pauses_but_is_not_edited() {
    let t = tracked(view("fighting", json!([{"kind": "pause"}])));
    let mut ui = GambitUi::default();
    assert_eq!(
        ui.command(&t, Command::Confirm),
        Err("the fight is running: press p to pause it, then edit".to_owned())
    );
    assert_eq!(
        ui.command(&t, Command::ClearRule),
        Err("the fight is running: press p to pause it, then edit".to_owned())
    );
    assert_eq!(
        ui.command(&t, Command::Start),
        Err("the fight is already running".to_owned())
    );
    assert_eq!(
        ui.command(&t, Command::Skip),
        Err("there are no offered skills to skip now".to_owned())
    );
    assert_eq!(
        sent(ui.command(&t, Command::PauseResume)),
        json!({"kind": "pause"})
    );
    // Selection still works: the why box follows it.
    ui.command(&t, Command::Nav(Nav::Right)).expect("selection");
    assert_eq!(ui.selected(&t).map(|u| u["id"].clone()), Some(json!("B")));
}

#[test]
fn reward_digits_pick_the_skill_then_the_character() {
    let t = tracked(reward());
    let mut ui = GambitUi::default();
    assert_eq!(
        ui.command(&t, Command::Play(3)),
        Err("there are 2 offered skills: press 1 to 2".to_owned())
    );
    let note = ui.command(&t, Command::Play(2)).expect("Leech is offered");
    assert!(
        matches!(&note, Effect::Note(n) if n.starts_with("Leech chosen: now the character")),
        "{note:?}"
    );
    assert_eq!(
        ui.command(&t, Command::Play(2)),
        Err("Mender already knows Leech".to_owned())
    );
    assert_eq!(
        sent(ui.command(&t, Command::Play(3))),
        json!({"kind": "take", "skill": "leech", "unit": "C"})
    );
    // Enter takes the chosen skill for the selected character.
    let mut ui = GambitUi::default();
    assert_eq!(
        ui.command(&t, Command::Confirm),
        Err("press 1-3 to choose an offered skill first, or k to skip".to_owned())
    );
    ui.command(&t, Command::Play(1))
        .expect("Execute is offered");
    assert_eq!(
        sent(ui.command(&t, Command::Confirm)),
        json!({"kind": "take", "skill": "execute", "unit": "A"})
    );
    assert_eq!(sent(ui.command(&t, Command::Skip)), json!({"kind": "skip"}));
}

#[test]
fn spectators_and_ready_players_are_refused_in_words() {
    let mut spectator = view("planning", json!([]));
    spectator["seat"] = Value::Null;
    let t = tracked(spectator);
    let mut ui = GambitUi::default();
    assert_eq!(
        ui.command(&t, Command::Confirm),
        Err("spectators cannot edit rules".to_owned())
    );
    assert_eq!(
        ui.command(&t, Command::Start),
        Err("spectators cannot act".to_owned())
    );
    let mut ready = view("planning", json!([]));
    ready["game"]["mode"] = json!("pvp");
    let t = tracked(ready);
    assert_eq!(
        ui.command(&t, Command::Start),
        Err("you are ready already; the fight starts when both players are".to_owned())
    );
    assert_eq!(
        ui.command(&t, Command::Confirm),
        Err("you said you are ready: your rules are locked".to_owned())
    );
}

#[test]
fn the_editor_closes_when_the_view_stops_offering_edits() {
    let mut ui = GambitUi::default();
    ui.command(&paused(), Command::Confirm)
        .expect("A is editable");
    assert!(ui.draft.is_some());
    ui.sync(&paused());
    assert!(ui.draft.is_some(), "still editable");
    ui.sync(&tracked(view("fighting", json!([{"kind": "pause"}]))));
    assert!(ui.draft.is_none());
    assert_eq!(
        choices(&json!({"anyOf": [{"type": "null"}, {"enum": ["a"]}]})),
        vec![Value::Null, json!("a")]
    );
}
