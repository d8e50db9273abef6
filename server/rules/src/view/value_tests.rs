//! Unit tests of `ViewValue`: its JSON, its escaping, its equality and its viewer marks.

use super::*;
use serde_json::json;

fn sample() -> ViewValue {
    ViewValue::object([
        ("a", 1u32.into()),
        ("b", ViewValue::List(vec![true.into(), ViewValue::Null])),
        ("c", ViewValue::text("say \"hi\"\n\u{1}")),
        ("d", 1.5.into()),
        ("e", 2.0.into()),
        (
            "f",
            ViewValue::object([("x", "lit".into()), ("y", (-3i64).into())]),
        ),
    ])
}

#[test]
fn json_is_what_serde_json_writes() {
    let value = sample();
    let expected = json!({"a": 1, "b": [true, null], "c": "say \"hi\"\n\u{1}", "d": 1.5,
                          "e": 2.0, "f": {"x": "lit", "y": -3}});
    assert_eq!(value.to_value(), expected);
    assert_eq!(
        value.to_json(),
        serde_json::to_string(&expected).expect("serializes")
    );
    assert_eq!(
        serde_json::to_string(&value).expect("serializes"),
        value.to_json()
    );
}

#[test]
fn strings_are_escaped_as_serde_json_escapes_them() {
    for text in [
        "plain",
        "",
        "quote\"",
        "back\\slash",
        "tab\t",
        "\u{7f}\u{1f}",
        "é ✓ 🃏",
    ] {
        let mut out = Vec::new();
        write_str(&mut out, text);
        assert_eq!(
            String::from_utf8(out).expect("UTF-8"),
            serde_json::to_string(text).expect("serializes")
        );
    }
}

#[test]
fn escape_check_finds_every_special_byte_at_every_position() {
    for len in 0..20 {
        let plain = "a".repeat(len);
        assert!(!needs_escape(plain.as_bytes()), "{plain:?}");
        for at in 0..len {
            for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                let mut bytes = plain.clone().into_bytes();
                bytes[at] = special;
                assert!(needs_escape(&bytes), "{bytes:?}");
            }
            for harmless in [b' ', b'~', b'/', 0x7f, 0xc3] {
                let mut bytes = plain.clone().into_bytes();
                bytes[at] = harmless;
                assert!(!needs_escape(&bytes), "{bytes:?}");
            }
        }
    }
}

#[test]
fn conversion_from_serde_json_round_trips() {
    let value = json!({"k/1": [1, -2, 2.5, "s", null, {"z": false}], "a": {}});
    let view = ViewValue::from(&value);
    assert_eq!(view.to_value(), value);
    assert_eq!(
        view.to_json(),
        serde_json::to_string(&value).expect("serializes")
    );
}

#[test]
fn keys_match_by_text_whatever_their_storage() {
    let literal: Key = Cow::Borrowed("hand");
    let owned: Key = Cow::Owned("hand".to_string());
    assert!(same_key(&literal, &owned));
    assert!(!same_key(&literal, &Cow::Borrowed("hp")));
    assert_eq!(sample().get("a"), Some(&ViewValue::Int(1)));
    assert_eq!(sample().get("zz"), None);
}

#[test]
fn marked_members_are_written_only_for_their_viewers() {
    let only = |viewers: Viewers, value: ViewValue| ViewValue::Only(viewers, Box::new(value));
    let value = ViewValue::Object(vec![
        ("a".into(), 1u32.into()),
        ("b".into(), only(Viewers::seat(0), "mine".into())),
        (
            "b".into(),
            only(Viewers::seat(1) | Viewers::SPECTATORS, "theirs".into()),
        ),
        (
            "c".into(),
            ViewValue::List(vec![ViewValue::object([(
                "d",
                only(Viewers::seat(1), ViewValue::List(vec![2u32.into()])),
            )])]),
        ),
    ]);
    let expected = [
        (Viewer::Spectator, json!({"a": 1, "b": "theirs", "c": [{}]})),
        (Viewer::Seat(0), json!({"a": 1, "b": "mine", "c": [{}]})),
        (
            Viewer::Seat(1),
            json!({"a": 1, "b": "theirs", "c": [{"d": [2]}]}),
        ),
        (Viewer::Seat(2), json!({"a": 1, "c": [{}]})),
    ];
    for (viewer, json) in expected {
        let projected = value.project(viewer);
        assert_eq!(projected.to_value(), json, "{viewer:?}");
        let mut out = Vec::new();
        assert!(
            value.write_json_as(Some(viewer), &mut out),
            "the value holds marks"
        );
        assert_eq!(String::from_utf8(out).expect("UTF-8"), projected.to_json());
        let mut plain = Vec::new();
        assert!(
            !projected.write_json_as(Some(viewer), &mut plain),
            "a projection has no marks"
        );
    }
    // Written for nobody in particular: every marked member is left out.
    assert_eq!(value.to_value(), json!({"a": 1, "c": [{}]}));
    assert_eq!(value.to_json(), r#"{"a":1,"c":[{}]}"#);
    assert_eq!(
        serde_json::to_string(&value).expect("serializes"),
        value.to_json()
    );
}
