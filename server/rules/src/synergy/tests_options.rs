//! Options and setups: the defaults, what is accepted, and each refusal with a message that
//! names the problem. Options and decks are read by serde: the messages are its own.

use serde_json::{json, Value};

use super::options::{Mode, Options};
use super::testkit::{battle_with, deck};
use super::Battle;
use crate::ruleset::Ruleset;
use crate::typed::Typed;

fn options_refused(options: Value, needle: &str) {
    let err = Typed::<Battle>::new(&options, 1)
        .err()
        .unwrap_or_else(|| panic!("{options} must be refused"));
    assert!(
        err.0.contains(needle),
        "{options}: message {:?} should mention {needle:?}",
        err.0
    );
}

fn setup_refused(options: Value, seat: usize, setup: Value, needle: &str) {
    let battle = Typed::<Battle>::new(&options, 1).expect("valid options");
    let err = battle
        .check_setup(seat, Some(&setup))
        .expect_err("must be refused");
    assert!(
        err.0.contains(needle),
        "{setup}: message {:?} should mention {needle:?}",
        err.0
    );
}

#[test]
fn defaults_from_null_and_empty_object() {
    for options in [json!(null), json!({})] {
        let battle = Typed::<Battle>::new(&options, 1).expect("defaults");
        assert_eq!(battle.engine_seats(), vec![1], "PvE is the default");
    }
    let parsed: Options = serde_json::from_value(json!({"mode": "pvp"})).expect("valid");
    assert_eq!(parsed.mode, Mode::Pvp);
    let b = battle_with(json!(null), [Value::Null, Value::Null], 3);
    assert_eq!([b.sides[0].deck_size, b.sides[1].deck_size], [10, 10]);
    let ids: Vec<&str> = b.sides[0]
        .zones
        .hand
        .iter()
        .chain(&b.sides[0].zones.draw)
        .map(|c| c.def.id)
        .collect();
    assert_eq!(
        ids.len(),
        10,
        "the default deck is the pool, each card once"
    );
}

#[test]
fn refuses_options_that_are_not_an_object() {
    options_refused(json!(3), "expected struct Options");
    options_refused(json!("pve"), "expected struct Options");
    // serde reads a list as the struct's members in order: here, a mode.
    options_refused(json!(["C001"]), "unknown variant `C001`");
}

#[test]
fn refuses_unknown_options_and_modes() {
    options_refused(
        json!({"mode": "pve", "difficulty": 3}),
        "unknown field `difficulty`",
    );
    // Decks come with each seat's setup now, not with the options.
    options_refused(json!({"deck": ["C001"]}), "unknown field `deck`");
    options_refused(
        json!({"opponent_deck": []}),
        "unknown field `opponent_deck`",
    );
    options_refused(json!({"mode": "coop"}), "unknown variant `coop`");
    options_refused(json!({"mode": 1}), "invalid type: integer `1`");
}

#[test]
fn accepted_decks() {
    let b = battle_with(
        json!({"mode": "pvp"}),
        [
            deck(&["C002"; 12]),
            deck(&["C001", "C001", "C003", "C004", "C005"]),
        ],
        1,
    );
    assert_eq!([b.sides[0].deck_size, b.sides[1].deck_size], [12, 5]);
    let b = battle_with(json!({"mode": "pve"}), [deck(&["C006"; 5]), Value::Null], 1);
    assert_eq!(b.sides[0].deck_size, 5, "duplicates are allowed");
}

#[test]
fn card_ids_are_read_in_any_letter_case() {
    let b = battle_with(
        json!({"mode": "pvp"}),
        [deck(&["c001", "C002", "c003", "C004", "c005"]), Value::Null],
        3,
    );
    assert_eq!(b.sides[0].deck_size, 5);
}

#[test]
fn refuses_bad_decks() {
    let pvp = json!({"mode": "pvp"});
    setup_refused(
        pvp.clone(),
        0,
        json!({"deck": "C001"}),
        "expected a sequence",
    );
    setup_refused(
        pvp.clone(),
        1,
        json!({"deck": {"C001": 5}}),
        "expected a sequence",
    );
    setup_refused(pvp.clone(), 0, deck(&["C001"; 4]), "the deck has 4 cards");
    setup_refused(pvp.clone(), 0, deck(&["C001"; 13]), "the deck has 13 cards");
    setup_refused(pvp.clone(), 0, json!({"deck": []}), "5 to 12 cards");
    setup_refused(
        pvp.clone(),
        0,
        deck(&["C001", "C002", "C003", "C004", "C011"]),
        "deck[4] is \"C011\"",
    );
    setup_refused(
        pvp.clone(),
        1,
        deck(&["C001", "X002", "C003", "C004", "C005"]),
        "deck[1] is \"X002\"",
    );
    setup_refused(
        pvp.clone(),
        0,
        json!({"deck": ["C001", 2, "C003", "C004", "C005"]}),
        "expected a string",
    );
    setup_refused(pvp.clone(), 0, json!({"Deck": []}), "unknown field `Deck`");
    setup_refused(pvp.clone(), 0, json!(3), "expected struct Setup");
    setup_refused(pvp, 0, json!("C001"), "expected struct Setup");
}

#[test]
fn the_automaton_keeps_the_fixed_pool() {
    let five = deck(&["C001", "C002", "C003", "C004", "C005"]);
    setup_refused(json!({"mode": "pve"}), 1, five.clone(), "spec 7.1");
    let battle = Typed::<Battle>::new(&json!({"mode": "pvp"}), 1).expect("valid");
    assert!(
        battle.check_setup(1, Some(&five)).is_ok(),
        "in PvP seat 1 is a person"
    );
}

#[test]
fn the_deck_set_up_is_the_deck_played() {
    let b = battle_with(json!({}), [deck(&["C003"; 7]), Value::Null], 5);
    assert_eq!(b.sides[0].deck_size, 7);
    assert!(b.sides[0].zones.hand.iter().all(|c| c.def.id == "C003"));
    assert_eq!(
        b.sides[1].deck_size, 10,
        "the automaton keeps the fixed pool"
    );
    let ids: Vec<u32> = b.sides[0]
        .zones
        .hand
        .iter()
        .chain(&b.sides[0].zones.draw)
        .map(|c| c.id)
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (1..=7).collect::<Vec<u32>>());
}
