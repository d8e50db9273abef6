//! The form's fields for each schema shape the protocol uses, and the actions they make:
//! always admitted by the entry, or refused in words.

use serde_json::json;

use super::*;

fn mulligan() -> Value {
    json!({"kind": "mulligan", "cards": {"$choose": {"type": "array",
        "items": {"enum": [11, 12, 13, 14]}, "uniqueItems": true, "minItems": 0, "maxItems": 3}}})
}

fn block() -> Value {
    json!({"kind": "block", "blockers": [21, 22], "attackers": {"$choose": {"type": "array",
        "items": {"anyOf": [{"type": "null"}, {"enum": [7, 8]}]}, "minItems": 2, "maxItems": 2}}})
}

fn aimed_spell() -> Value {
    json!({"kind": "play", "card": 5,
        "target": {"$choose": {"enum": ["hero:1", "minion:7"]}},
        "spend": {"$choose": {"type": "integer", "minimum": 0, "maximum": 4}}})
}

#[test]
fn a_subset_is_chosen_by_digits_in_order_and_taken_back_by_pressing_again() {
    let mut form = Form::open(0, &mulligan()).expect("a subset of listed values");
    assert_eq!(form.action(), Ok(json!({"kind": "mulligan", "cards": []})));
    form.digit(3).expect("option 3 exists");
    form.digit(1).expect("option 1 exists");
    assert_eq!(
        form.action(),
        Ok(json!({"kind": "mulligan", "cards": [13, 11]}))
    );
    form.digit(3).expect("taken back");
    form.digit(2).expect("option 2 exists");
    form.digit(4).expect("a third card");
    assert_eq!(
        form.digit(3),
        Err("at most 3 may be chosen: take one back first (press its number again)".to_owned())
    );
    assert_eq!(form.digit(5), Err("choose among 1 to 4".to_owned()));
    form.step_value(true);
    form.step_value(true);
    assert_eq!(
        form.toggle(),
        Ok(()),
        "the cursor's option (1) is taken back"
    );
    assert_eq!(
        form.action(),
        Ok(json!({"kind": "mulligan", "cards": [12, 14]}))
    );
}

#[test]
fn a_list_of_single_choices_is_one_field_per_item_starting_at_nobody() {
    let mut form = Form::open(2, &block()).expect("two single choices");
    assert_eq!(form.fields.len(), 2);
    assert_eq!(form.fields[1].item, Some(1));
    assert_eq!(
        form.action(),
        Ok(json!({"kind": "block", "blockers": [21, 22], "attackers": [null, null]}))
    );
    form.step_value(true);
    form.step_field(true);
    form.digit(3).expect("the third option is attacker 8");
    form.step_field(true);
    assert_eq!(form.at, 1, "stays on the last field");
    assert_eq!(
        form.action(),
        Ok(json!({"kind": "block", "blockers": [21, 22], "attackers": [7, 8]}))
    );
    form.step_value(true);
    assert_eq!(form.fields[1].value(), Value::Null, "wraps back to nobody");
}

#[test]
fn a_number_stays_within_its_bounds() {
    // Parameters come in the order of their names: spend, then target.
    let mut form = Form::open(0, &aimed_spell()).expect("a number and a target");
    form.step_value(false);
    assert_eq!(form.fields[0].value(), json!(0), "not below the minimum");
    assert_eq!(form.digit(5), Err("choose a number from 0 to 4".to_owned()));
    form.digit(3).expect("within bounds");
    form.step_value(true);
    form.step_value(true);
    assert_eq!(form.fields[0].value(), json!(4), "not above the maximum");
    assert!(form.toggle().is_err(), "space means nothing for a number");
    form.step_field(true);
    form.step_value(false);
    assert_eq!(form.fields[1].value(), json!("minion:7"), "wraps backwards");
    assert_eq!(
        form.action(),
        Ok(json!({"kind": "play", "card": 5, "target": "minion:7", "spend": 4}))
    );
}

#[test]
fn too_few_chosen_is_refused_in_words() {
    let fight = json!({"kind": "fight", "attackers": {"$choose": {"type": "array",
        "items": {"enum": [3, 4]}, "uniqueItems": true, "minItems": 1, "maxItems": 2}}});
    let mut form = Form::open(4, &fight).expect("a subset");
    assert_eq!(
        form.action(),
        Err("choose at least 1 for attackers (0 chosen)".to_owned())
    );
    form.digit(2).expect("option 2");
    assert_eq!(
        form.action(),
        Ok(json!({"kind": "fight", "attackers": [4]}))
    );
}

#[test]
fn shapes_the_keys_cannot_fill_point_to_plain_mode() {
    let open_list = json!({"kind": "say", "words": {"$choose": {"type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 9}, "minItems": 0, "maxItems": 5}}});
    assert_eq!(
        Form::open(1, &open_list),
        Err("words cannot be chosen with keys; in --plain mode type play 2 VALUES".to_owned())
    );
    assert!(Form::open(0, &json!({"kind": "end_turn"})).is_err());
}
