//! Open entries: descriptions, random fills that are always admitted, and filling from
//! typed words with clear refusals.

use rand::SeedableRng;
use serde_json::json;

use super::*;

fn bid() -> Value {
    json!({"kind": "bid", "cards": {"$choose": {"type": "array", "items": {"enum": [1, 5, 9, 13]},
        "uniqueItems": true, "minItems": 1, "maxItems": 2}}})
}

fn rule() -> Value {
    json!({"kind": "set_rule", "slot": 2, "rule": {"$choose": {"type": "object",
        "additionalProperties": false, "required": ["skill", "below"],
        "properties": {"skill": {"enum": ["strike", "mend"]},
            "below": {"anyOf": [{"type": "null"},
                                {"type": "integer", "minimum": 1, "maximum": 99}]}}}},
        "order": {"$choose": {"type": "array", "items": {"enum": ["a", "b", "c"]},
            "uniqueItems": true, "minItems": 3, "maxItems": 3}}})
}

#[test]
fn entries_are_described_in_words() {
    assert_eq!(describe(&json!({"kind": "end_turn"})), "end_turn");
    assert_eq!(
        describe(&json!({"kind": "play_card", "card": 6})),
        "play_card card=6"
    );
    assert_eq!(describe(&bid()), "bid: cards = 1 to 2 of [1, 5, 9, 13]");
    let text = describe(&rule());
    assert!(
        text.starts_with("set_rule slot=2: order = 3 of [\"a\", \"b\", \"c\"]; rule = {"),
        "{text}"
    );
}

#[test]
fn random_fills_are_always_admitted() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for entry in [bid(), rule(), json!({"kind": "end_turn"})] {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..300 {
            let action = random_fill(&entry, &mut rng).expect("these entries admit actions");
            assert!(admits(&entry, &action), "{action} for {entry}");
            seen.insert(action.to_string());
        }
        assert!(
            seen.len() > 1 || !is_open(&entry),
            "{entry}: always the same fill"
        );
    }
    let empty = json!({"kind": "bid", "cards": {"$choose": {"type": "array",
        "items": {"enum": [1]}, "uniqueItems": true, "minItems": 2, "maxItems": 2}}});
    assert_eq!(
        random_fill(&empty, &mut rng),
        None,
        "no two distinct cards of one"
    );
}

#[test]
fn typed_words_fill_an_entry_or_say_what_fits() {
    assert_eq!(
        fill_from_text(&bid(), &["5,9"]),
        Ok(json!({"kind": "bid", "cards": [5, 9]}))
    );
    assert_eq!(
        fill_from_text(&bid(), &["5", "9"]),
        Ok(json!({"kind": "bid", "cards": [5, 9]}))
    );
    assert_eq!(
        fill_from_text(&bid(), &["[13]"]),
        Ok(json!({"kind": "bid", "cards": [13]}))
    );
    let err = fill_from_text(&bid(), &["2"]).expect_err("2 is not in the hand");
    assert_eq!(err, "2 does not fit: cards = 1 to 2 of [1, 5, 9, 13]");
    assert!(fill_from_text(&bid(), &["1,5,9"]).is_err());
    assert!(fill_from_text(&bid(), &[])
        .expect_err("a value is needed")
        .contains("needs 1 value"));
    let filled = fill_from_text(&rule(), &["c,a,b", r#"{"skill":"mend","below":40}"#])
        .expect("both values fit");
    assert_eq!(filled["order"], json!(["c", "a", "b"]));
    assert_eq!(filled["rule"]["below"], 40);
    assert!(fill_from_text(&json!({"kind": "end_turn"}), &["1"]).is_err());
    assert_eq!(
        fill_from_text(&json!({"kind": "end_turn"}), &[]),
        Ok(json!({"kind": "end_turn"}))
    );
}
