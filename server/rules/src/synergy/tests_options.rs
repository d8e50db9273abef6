//! Option and deck validation: the defaults, what is accepted, and each refusal with a message
//! that names the problem.

use serde_json::{json, Value};

use super::build;
use super::options::{Mode, Options};

fn refused(options: Value, needle: &str) {
    let err = Options::parse(&options).expect_err("must be refused");
    assert!(
        err.0.contains(needle),
        "{options}: message {:?} should mention {needle:?}",
        err.0
    );
    assert!(build(&options, 1).is_err());
}

#[test]
fn defaults_from_null_and_empty_object() {
    for options in [json!(null), json!({})] {
        let parsed = Options::parse(&options).expect("defaults");
        assert_eq!(parsed.mode, Mode::Pve);
        assert_eq!(parsed.deck.len(), 10);
        assert_eq!(parsed.opponent_deck.len(), 10);
        let ids: Vec<&str> = parsed.deck.iter().map(|c| c.id).collect();
        assert_eq!(ids[0], "C001");
        assert_eq!(ids[9], "C010");
    }
}

#[test]
fn accepted_decks_and_modes() {
    let twelve = vec!["C002"; 12];
    let parsed = Options::parse(&json!({"mode": "pvp", "deck": twelve, "opponent_deck": ["C001", "C001", "C003", "C004", "C005"]}))
        .expect("valid");
    assert_eq!(
        (parsed.mode, parsed.deck.len(), parsed.opponent_deck.len()),
        (Mode::Pvp, 12, 5)
    );
    let parsed =
        Options::parse(&json!({"mode": "pve", "deck": ["C006", "C006", "C006", "C006", "C006"]}))
            .expect("duplicates are allowed");
    assert_eq!(parsed.deck.len(), 5);
    let parsed = Options::parse(&json!({"mode": "pvp"})).expect("valid");
    assert_eq!(parsed.opponent_deck.len(), 10);
    assert!(build(&json!({"mode": "pvp"}), 3).is_ok());
}

#[test]
fn refuses_options_that_are_not_an_object() {
    refused(json!(3), "must be a JSON object");
    refused(json!("pve"), "must be a JSON object");
    refused(json!(["C001"]), "must be a JSON object");
    refused(json!(true), "must be a JSON object");
}

#[test]
fn refuses_unknown_keys() {
    refused(
        json!({"mode": "pve", "difficulty": 3}),
        "unknown option \"difficulty\"",
    );
    refused(json!({"Deck": []}), "unknown option \"Deck\"");
}

#[test]
fn refuses_a_wrong_mode() {
    refused(json!({"mode": "coop"}), "unknown mode \"coop\"");
    refused(json!({"mode": 1}), "mode must be the string");
    refused(json!({"mode": null}), "mode must be the string");
}

#[test]
fn refuses_bad_decks() {
    refused(json!({"deck": "C001"}), "deck must be an array");
    refused(json!({"deck": {"C001": 5}}), "deck must be an array");
    refused(
        json!({"deck": ["C001", "C001", "C001", "C001"]}),
        "deck has 4 cards",
    );
    refused(json!({"deck": vec!["C001"; 13]}), "deck has 13 cards");
    refused(json!({"deck": []}), "5 to 12 cards");
    refused(
        json!({"deck": ["C001", "C002", "C003", "C004", "C011"]}),
        "deck[4] is \"C011\"",
    );
    refused(
        json!({"deck": ["C001", "c002", "C003", "C004", "C005"]}),
        "deck[1] is \"c002\"",
    );
    refused(
        json!({"deck": ["C001", 2, "C003", "C004", "C005"]}),
        "deck[1] must be a card id string",
    );
}

#[test]
fn refuses_opponent_deck_in_pve() {
    let five = ["C001", "C002", "C003", "C004", "C005"];
    refused(
        json!({"opponent_deck": five}),
        "only allowed with mode \"pvp\"",
    );
    refused(json!({"mode": "pve", "opponent_deck": five}), "spec 7.1");
    refused(
        json!({"mode": "pvp", "opponent_deck": ["C001"]}),
        "opponent_deck has 1 card",
    );
    refused(
        json!({"mode": "pvp", "opponent_deck": 7}),
        "opponent_deck must be an array",
    );
}

#[test]
fn the_deck_option_is_the_deck_played() {
    let b = super::testkit::battle(json!({"deck": vec!["C003"; 7]}), 5);
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
