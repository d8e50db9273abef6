//! The view serializer: byte for byte what serde_json writes, literals borrowed, marked
//! members only where they may stand.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::*;
use crate::view::{Only, Viewer, Viewers};

#[derive(Serialize)]
enum Shape {
    Dot,
    Circle(f64),
    Pair(i32, i32),
    Rect { w: u32, h: u32 },
}

/// Fields declared out of key order: the view keeps the declared order, as serde_json
/// writes it.
#[derive(Serialize)]
struct Everything {
    zeta: bool,
    alpha: i64,
    #[serde(rename = "type")]
    kind: Shape,
    shapes: Vec<Shape>,
    name: String,
    letter: char,
    maybe: Option<u8>,
    nothing: Option<u8>,
    unit: (),
    tuple: (u8, &'static str),
    by_name: BTreeMap<String, u16>,
    by_number: BTreeMap<u32, bool>,
    big: u64,
    negative: i8,
    ratio: f64,
    long: String,
}

fn everything() -> Everything {
    Everything {
        zeta: true,
        alpha: -5,
        kind: Shape::Rect { w: 3, h: 4 },
        shapes: vec![Shape::Dot, Shape::Circle(1.5), Shape::Pair(-1, 2)],
        name: "say \"hi\"\n".into(),
        letter: 'é',
        maybe: Some(7),
        nothing: None,
        unit: (),
        tuple: (1, "x"),
        by_name: [
            ("b".to_string(), 2),
            ("a".to_string(), 1),
            ("c".to_string(), 3),
        ]
        .into(),
        by_number: [(10, true), (2, false)].into(),
        big: i64::MAX as u64,
        negative: -128,
        ratio: 0.25,
        long: "a sentence much longer than twenty-four bytes".into(),
    }
}

#[test]
fn views_write_what_serde_json_writes() {
    let value = everything();
    let view = to_view(&value).expect("a plain struct makes a view");
    assert_eq!(
        view.to_json(),
        serde_json::to_string(&value).expect("serializes")
    );
    assert_eq!(
        view.to_value(),
        serde_json::to_value(&value).expect("serializes")
    );
    // A map's entries come in the map's order, whatever it is.
    let map: HashMap<String, u8> = [("b".into(), 2), ("a".into(), 1), ("c".into(), 3)].into();
    assert_eq!(
        to_view(&map).expect("view").to_json(),
        serde_json::to_string(&map).expect("json")
    );
}

#[test]
fn names_and_literals_are_borrowed_not_copied() {
    #[derive(Serialize)]
    struct Card {
        #[serde(serialize_with = "literal")]
        text: &'static str,
        state: Shape,
        lit: Literal,
    }
    let card = Card {
        text: "a literal sentence well beyond the inline size of a view's text",
        state: Shape::Dot,
        lit: Literal("another literal sentence beyond twenty-four bytes"),
    };
    let view = to_view(&card).expect("view");
    for key in ["text", "state", "lit"] {
        let Some(ViewValue::Str(text)) = view.get(key) else {
            panic!("{key} is text");
        };
        assert!(!text.is_heap_allocated(), "{key} was copied to the heap");
    }
    assert_eq!(
        view.to_json(),
        serde_json::to_string(&card).expect("serializes")
    );
}

#[test]
fn marked_members_are_seen_by_their_viewers_only() {
    #[derive(Serialize)]
    struct Side {
        hand: Only<Vec<u32>>,
        hand_count: usize,
        notes: BTreeMap<&'static str, Only<&'static str>>,
    }
    let side = Side {
        hand: Only::seat(1, vec![4, 5]),
        hand_count: 2,
        notes: [("plan", Only::new(Viewers::SPECTATORS, "watch"))].into(),
    };
    let view = to_view(&side).expect("view");
    assert_eq!(
        view.project(Viewer::Seat(1)).to_json(),
        r#"{"hand":[4,5],"hand_count":2,"notes":{}}"#
    );
    assert_eq!(
        view.project(Viewer::Seat(0)).to_json(),
        r#"{"hand_count":2,"notes":{}}"#
    );
    assert_eq!(
        view.project(Viewer::Spectator).to_json(),
        r#"{"hand_count":2,"notes":{"plan":"watch"}}"#
    );
    // Any other serializer shows nothing of a marked value.
    assert_eq!(
        serde_json::to_string(&side).expect("serializes"),
        r#"{"hand":null,"hand_count":2,"notes":{"plan":null}}"#
    );
}

#[test]
fn marks_anywhere_but_a_member_are_refused() {
    assert!(to_view(&Only::seat(0, 1)).is_err(), "a whole view marked");
    assert!(
        to_view(&vec![Only::seat(0, 1)]).is_err(),
        "a list item marked"
    );
    assert!(to_view(&Some(vec![(1, Only::seat(0, 2))])).is_err());
    #[derive(Serialize)]
    struct Nested {
        deep: Only<Only<u8>>,
    }
    assert!(to_view(&Nested {
        deep: Only::seat(0, Only::seat(1, 3))
    })
    .is_err());
}

#[test]
fn shapes_json_cannot_hold_are_refused() {
    assert!(to_view(&u64::MAX).is_err());
    assert!(to_view(&i128::MIN).is_err());
    let by_list: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into();
    assert!(to_view(&by_list).is_err());
}
