//! The picker reaches every legal entry, fills open ones with keys, and keeps its place
//! when the list changes.

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
fn the_cursor_and_the_form_follow_their_entries_when_the_list_changes() {
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
