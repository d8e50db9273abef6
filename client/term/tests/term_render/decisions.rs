//! The decision panel as a person meets it: a new decision starts with the cursor on its
//! first entry, a value that cannot vary is not asked, only the keys that apply are named,
//! the hand keeps its numbers through a turn, long card text wraps, and the command that
//! lets others watch stays on screen while this client waits.

use battle_client::ViewTracker;
use battle_term::hand::HandNumbers;
use battle_term::keys::{Command, Nav};
use battle_term::picker::Picker;
use battle_term::Link;
use serde_json::{json, Value};

use super::{assert_snapshot, render_with, Extras};

/// A tracker of `view` (the id is the fixture's own; only the view matters here).
fn follow(view: &Value) -> ViewTracker {
    ViewTracker::with_view(view["battle_id"].as_str().unwrap_or("b"), 7, view.clone())
}

/// `view`'s screen with `picker` and `hand`.
fn screen(view: Value, picker: Option<&Picker>, hand: Option<&HandNumbers>) -> String {
    render_with(
        view,
        Link::Connected,
        Extras {
            picker,
            hand,
            ..Extras::default()
        },
    )
}

#[test]
fn a_new_decision_starts_with_the_cursor_on_its_first_entry() {
    // The player's phase, the cursor moved down to the fourth card…
    let phase = super::roguelite::player_phase(Some(0));
    let mut picker = Picker::default();
    picker.sync(&follow(&phase));
    for _ in 0..3 {
        picker
            .command(&follow(&phase), Command::Nav(Nav::Down))
            .expect("the cursor moves");
    }
    assert!(screen(phase, Some(&picker), None).contains("▸[4] play Slash"));
    // …then the battle is won: the rewards are a new decision, from the top.
    let reward = super::roguelite::reward(Some(0));
    picker.sync(&follow(&reward));
    let shown = screen(reward, Some(&picker), None);
    assert!(
        shown.contains("▸[1] take War Chant (a card for the deck)"),
        "the first reward is under the cursor:\n{shown}"
    );
    assert!(
        shown.contains(" [4] skip the reward"),
        "and not the old position:\n{shown}"
    );
    assert_snapshot("decision_cursor_reset", &shown);
}

#[test]
fn a_value_that_cannot_vary_is_not_asked() {
    let mut view = super::heroes::main_phase(Some(0));
    // A Barbarian has no Spell Damage to spend: 0 to 0 is no choice.
    view["legal"] = json!([
        {"kind": "play", "card": 30, "spend": {"$choose": {"type": "integer", "minimum": 0,
         "maximum": 0}}, "target": {"$choose": {"enum": ["minion:2", "minion:6"]}}},
        {"kind": "play", "card": 22, "target": null,
         "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 0}}},
        {"kind": "end_turn"}
    ]);
    let tracker = follow(&view);
    let mut picker = Picker::default();
    picker.sync(&tracker);
    let list = screen(view.clone(), Some(&picker), None);
    assert!(
        list.contains("[1] play Blood Frenzy: choose the target …"),
        "{list}"
    );
    assert!(
        list.contains("[2] play Iron Skin") && !list.contains("[2] play Iron Skin:"),
        "nothing to choose, so no form:\n{list}"
    );
    picker
        .command(&tracker, Command::Confirm)
        .expect("the form opens");
    let form = screen(view, Some(&picker), None);
    assert!(
        form.contains("▸ target: [1.your Pit Brawler] 2.your Shield"),
        "{form}"
    );
    assert!(
        !form.contains("spend"),
        "no field for a fixed value:\n{form}"
    );
    assert!(!form.contains("(0 to 0)"), "{form}");
    assert!(
        !form.contains("↑↓ field"),
        "one field, no field keys:\n{form}"
    );
    assert_snapshot("decision_fixed_value_hidden", &form);
}

#[test]
fn only_the_keys_that_apply_are_named() {
    let mut view = super::heroes::main_phase(Some(0));
    view["legal"] = json!([{"kind": "mulligan", "cards": {"$choose": {"type": "array",
        "items": {"enum": [25, 22, 30]}, "uniqueItems": true, "minItems": 0, "maxItems": 3}}}]);
    view["game"]["phase"] = json!("mulligan");
    let shown = screen(view, None, None);
    assert!(shown.contains("Enter or 1 to act:"), "{shown}");
    assert!(
        !shown.contains("e ends the turn") && !shown.contains("e end turn"),
        "no end of turn to offer during the mulligan:\n{shown}"
    );
    let waiting = screen(super::heroes::main_phase(Some(1)), None, None);
    assert!(waiting.contains("waiting · PgUp/PgDn log"), "{waiting}");
    assert!(!waiting.contains("Enter/1"), "{waiting}");
}

/// Synergy's mid-battle view with `ids` left in the player's hand.
fn hand_of(ids: &[u64]) -> Value {
    let mut view = super::mid_battle(Some(0));
    let hand: Vec<Value> = view["game"]["sides"][0]["hand"]
        .as_array()
        .expect("the player's hand")
        .iter()
        .filter(|card| ids.iter().any(|id| card["id"] == *id))
        .cloned()
        .collect();
    let legal: Vec<Value> = ids
        .iter()
        .map(|id| json!({"kind": "play_card", "card": id}))
        .chain([json!({"kind": "end_turn"})])
        .collect();
    view["game"]["sides"][0]["hand_count"] = json!(hand.len());
    view["game"]["sides"][0]["hand"] = Value::Array(hand);
    view["legal"] = Value::Array(legal);
    view
}

#[test]
fn a_card_keeps_its_number_when_another_is_played() {
    let mut numbers = HandNumbers::default();
    numbers.sync(&follow(&hand_of(&[1, 6, 5])));
    // Bark Guard (2) was played: Null Pierce stays 3.
    let after = hand_of(&[1, 5]);
    numbers.sync(&follow(&after));
    let shown = screen(after, None, Some(&numbers));
    assert!(shown.contains("[1] Ember Strike"), "{shown}");
    assert!(shown.contains("[3] Null Pierce"), "{shown}");
    assert!(!shown.contains("[2]"), "{shown}");
    assert!(shown.contains("1,3 play card"), "{shown}");
    assert_snapshot("decision_stable_hand", &shown);
    // Heroes and lore number their hands the same way.
    let mut heroes = super::heroes::main_phase(Some(0));
    let mut numbers = HandNumbers::default();
    numbers.sync(&follow(&heroes));
    heroes["game"]["sides"][0]["hand"]
        .as_array_mut()
        .expect("the hand")
        .remove(0);
    numbers.sync(&follow(&heroes));
    let shown = screen(heroes, None, Some(&numbers));
    assert!(shown.contains("2. Iron Skin (2)"), "{shown}");
    assert!(shown.contains("3. Blood Frenzy (3)"), "{shown}");
}

#[test]
fn long_card_text_wraps_instead_of_being_cut() {
    let mut view = super::mid_battle(Some(0));
    let text = "The opponent loses 2 block (not below 0). Void synergy: x1.5 score for this \
                card, rounded down, and it counts toward the full spectrum of the turn.";
    view["game"]["sides"][0]["hand"][2]["text"] = json!(text);
    let shown = screen(view, None, None);
    for piece in [
        "The opponent loses 2 block",
        "rounded down,",
        "full spectrum of the turn.",
    ] {
        assert!(shown.contains(piece), "{piece:?} cut off:\n{shown}");
    }
}

#[test]
fn the_watch_command_stays_in_sight_while_waiting() {
    let invite = ["others watch with: battle-client watch kg4fme4qk7".to_owned()];
    let waiting = render_with(
        super::heroes::main_phase(Some(1)),
        Link::Connected,
        Extras {
            invite: &invite,
            ..Extras::default()
        },
    );
    assert!(
        waiting.contains("» others watch with: battle-client watch kg4fme4qk7"),
        "{waiting}"
    );
    let playing = render_with(
        super::heroes::main_phase(Some(0)),
        Link::Connected,
        Extras {
            invite: &invite,
            status: "not sent: it is not your turn",
            ..Extras::default()
        },
    );
    assert!(
        playing.contains("» not sent: it is not your turn"),
        "news goes first:\n{playing}"
    );
}
