//! The picker reaches every legal entry, fills open ones with keys, keeps an open form on
//! its entry when the list changes, and starts every new decision from the first entry.

use serde_json::json;

use super::*;

/// A heroes-like view for seat 0 with `legal`.
fn tracker(legal: Value) -> ViewTracker {
    ViewTracker::with_view(
        "b",
        1,
        json!({"battle_id": "b", "ruleset": "heroes", "status": "playing", "seat": 0,
            "to_act": [0], "outcome": null, "game": {}, "legal": legal}),
    )
}

/// Twelve whole entries (more than the digits reach) and one open entry.
fn long_list() -> Value {
    let mut legal: Vec<Value> = (0..12)
        .map(|slot| json!({"kind": "attack", "target": format!("minion:{slot}")}))
        .collect();
    legal.push(
        json!({"kind": "fight", "attackers": {"$choose": {"type": "array",
        "items": {"enum": [3, 4]}, "uniqueItems": true, "minItems": 1, "maxItems": 2}}}),
    );
    legal.push(json!({"kind": "end_turn"}));
    Value::Array(legal)
}

#[test]
fn the_cursor_reaches_entries_past_the_ninth_and_enter_sends_them() {
    let t = tracker(long_list());
    let mut picker = Picker::default();
    picker.sync(&t);
    for _ in 0..10 {
        assert_eq!(
            picker.command(&t, Command::Nav(Nav::Down)),
            Ok(Effect::Nothing)
        );
    }
    assert_eq!(
        picker.command(&t, Command::Confirm),
        Ok(Effect::Send(
            json!({"kind": "attack", "target": "minion:10"})
        ))
    );
    for _ in 0..20 {
        picker.command(&t, Command::Nav(Nav::Down)).expect("moves");
    }
    assert_eq!(picker.cursor, 13, "stops at the last entry");
    assert_eq!(
        picker.command(&t, Command::Play(2)),
        Ok(Effect::Send(
            json!({"kind": "attack", "target": "minion:1"})
        ))
    );
    assert_eq!(picker.cursor, 1, "a digit moves the cursor too");
}

#[test]
fn an_open_entry_opens_a_form_that_sends_only_what_it_admits() {
    let t = tracker(long_list());
    let mut picker = Picker::default();
    picker.sync(&t);
    picker.cursor = 12;
    assert_eq!(picker.command(&t, Command::Confirm), Ok(Effect::Nothing));
    assert!(picker.form.is_some());
    assert_eq!(
        picker.command(&t, Command::Confirm),
        Err("choose at least 1 for attackers (0 chosen)".to_owned())
    );
    picker
        .command(&t, Command::Nav(Nav::Right))
        .expect("cursor to 4");
    assert_eq!(picker.command(&t, Command::Toggle), Ok(Effect::Nothing));
    assert_eq!(picker.command(&t, Command::Play(1)), Ok(Effect::Nothing));
    assert_eq!(
        picker.command(&t, Command::Confirm),
        Ok(Effect::Send(json!({"kind": "fight", "attackers": [4, 3]})))
    );
    assert!(picker.form.is_none(), "closed once sent");
    picker.command(&t, Command::Confirm).expect("opens again");
    assert_eq!(
        picker.command(&t, Command::Cancel),
        Ok(Effect::Note("closed; nothing was sent".to_owned()))
    );
    picker.command(&t, Command::Confirm).expect("opens again");
    assert_eq!(
        picker.command(&t, Command::EndTurn),
        Ok(Effect::Send(json!({"kind": "end_turn"}))),
        "e still ends the turn, closing the form"
    );
    assert!(picker.form.is_none());
}

#[test]
fn the_form_follows_its_entry_when_the_list_changes() {
    let mut picker = Picker::default();
    let before = tracker(long_list());
    picker.sync(&before);
    picker.cursor = 12;
    picker.command(&before, Command::Confirm).expect("form");
    let mut shorter = long_list();
    let items = shorter.as_array_mut().expect("a list");
    items.drain(0..5);
    assert_eq!(picker.sync(&tracker(shorter.clone())), None);
    assert_eq!(picker.cursor, 7, "still on the open entry");
    assert_eq!(picker.form.as_ref().map(|f| f.index), Some(7));
    let only_end = json!([{"kind": "end_turn"}]);
    assert_eq!(
        picker.sync(&tracker(only_end)),
        Some("that choice is no longer open; nothing was sent".to_owned())
    );
    assert_eq!((picker.cursor, picker.form.is_none()), (0, true));
}

#[test]
fn a_new_decision_puts_the_cursor_back_on_the_first_entry() {
    let mut picker = Picker::default();
    let hand = json!([{"kind": "play", "card": 1}, {"kind": "play", "card": 2},
        {"kind": "play", "card": 3}, {"kind": "end_turn"}]);
    picker.sync(&tracker(hand));
    picker.cursor = 2;
    let rewards = json!([{"kind": "take", "reward": "a"}, {"kind": "take", "reward": "b"},
        {"kind": "take", "reward": "c"}, {"kind": "skip"}]);
    assert_eq!(picker.sync(&tracker(rewards.clone())), None);
    assert_eq!(picker.cursor, 0, "the reward list starts at its top");
    picker.cursor = 3;
    assert_eq!(picker.sync(&tracker(rewards)), None);
    assert_eq!(picker.cursor, 3, "the same decision keeps the cursor");
    let mut asked_again = tracker(json!([{"kind": "take", "reward": "a"},
        {"kind": "take", "reward": "b"}, {"kind": "take", "reward": "c"}, {"kind": "skip"}]))
    .view()
    .expect("a view")
    .clone();
    asked_again["prompt"] = json!({"decision": "reward", "text": "Take a reward."});
    picker.sync(&ViewTracker::with_view("b", 2, asked_again));
    assert_eq!(picker.cursor, 0, "a new prompt is a new decision");
}

#[test]
fn values_that_cannot_vary_are_filled_without_asking() {
    let fixed = json!({"kind": "play", "card": 25, "target": null,
        "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 0}}});
    let t = tracker(json!([fixed, {"kind": "end_turn"}]));
    let mut picker = Picker::default();
    picker.sync(&t);
    assert_eq!(
        picker.command(&t, Command::Confirm),
        Ok(Effect::Send(
            json!({"kind": "play", "card": 25, "target": null, "spend": 0})
        )),
        "spending from 0 to 0 is no choice: sent at once"
    );
    assert!(picker.form.is_none());
    let one_attacker = json!({"kind": "fight", "attackers": {"$choose": {"type": "array",
        "items": {"enum": [43]}, "uniqueItems": true, "minItems": 1, "maxItems": 1}}});
    let t = tracker(json!([one_attacker]));
    picker.sync(&t);
    assert_eq!(
        picker.command(&t, Command::Play(1)),
        Ok(Effect::Send(json!({"kind": "fight", "attackers": [43]}))),
        "the one minion that can attack is chosen without asking"
    );
    let aimed = json!({"kind": "play", "card": 25,
        "target": {"$choose": {"enum": ["hero:1", "minion:43"]}},
        "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 0}}});
    let t = tracker(json!([aimed]));
    picker.sync(&t);
    picker.command(&t, Command::Confirm).expect("a form");
    let form = picker.form.as_ref().expect("the target is a choice");
    let open: Vec<&str> = form.open_fields().map(|(_, f)| f.name.as_str()).collect();
    assert_eq!(open, vec!["target"], "the spend is not asked");
    assert_eq!(form.field().name, "target");
    picker.command(&t, Command::Nav(Nav::Down)).expect("stays");
    assert_eq!(
        picker.form.as_ref().map(|f| f.field().name.clone()),
        Some("target".into())
    );
    picker.command(&t, Command::Play(2)).expect("the minion");
    assert_eq!(
        picker.command(&t, Command::Confirm),
        Ok(Effect::Send(
            json!({"kind": "play", "card": 25, "target": "minion:43", "spend": 0})
        ))
    );
}

#[test]
fn refusals_are_in_words() {
    let t = tracker(json!([{"kind": "end_turn"}]));
    let mut picker = Picker::default();
    picker.sync(&t);
    assert_eq!(
        picker.command(&t, Command::Play(4)),
        Err("there is no legal action 4: 1 are legal".to_owned())
    );
    assert!(picker.command(&t, Command::Toggle).is_err());
    let spectator = ViewTracker::with_view(
        "b",
        1,
        json!({"battle_id": "b", "ruleset": "heroes", "status": "playing", "seat": null,
            "to_act": [0], "outcome": null, "game": {}, "legal": []}),
    );
    assert_eq!(
        picker.command(&spectator, Command::Confirm),
        Err("spectators cannot act".to_owned())
    );
}
