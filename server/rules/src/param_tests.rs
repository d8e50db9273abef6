//! Params: the JSON Schema each one writes, and random values that are always admitted.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::*;
use crate::view::to_view;

fn schema(param: &Param) -> Value {
    let view = to_view(param).expect("params always make a view");
    assert_eq!(
        view.to_json(),
        serde_json::to_string(param).expect("params serialize"),
        "the view and serde_json write the same schema"
    );
    view.to_value()
}

#[test]
fn each_param_writes_the_json_schema_of_its_values() {
    assert_eq!(schema(&Param::Is(3.into())), json!({"const": 3}));
    assert_eq!(
        schema(&Param::Int { min: 0, max: 5 }),
        json!({"type": "integer", "minimum": 0, "maximum": 5})
    );
    assert_eq!(
        schema(&Param::one_of(["a", "b"])),
        json!({"enum": ["a", "b"]})
    );
    assert_eq!(
        schema(&Param::subset([4, 8, 9], 0, 2)),
        json!({"type": "array", "items": {"enum": [4, 8, 9]}, "uniqueItems": true,
               "minItems": 0, "maxItems": 2})
    );
    assert_eq!(
        schema(&Param::Order(vec![1.into(), 2.into()])),
        json!({"type": "array", "items": {"enum": [1, 2]}, "uniqueItems": true,
               "minItems": 2, "maxItems": 2})
    );
    let rule = Param::Object(vec![
        ("skill", Param::one_of(["strike", "mend"])),
        (
            "below",
            Param::Maybe(Box::new(Param::Int { min: 1, max: 99 })),
        ),
    ]);
    assert_eq!(
        schema(&Param::List {
            item: Box::new(rule),
            min: 1,
            max: 3
        }),
        json!({"type": "array", "minItems": 1, "maxItems": 3, "items": {
            "type": "object", "additionalProperties": false, "required": ["skill", "below"],
            "properties": {
                "skill": {"enum": ["strike", "mend"]},
                "below": {"anyOf": [{"type": "null"},
                                    {"type": "integer", "minimum": 1, "maximum": 99}]}}}})
    );
}

#[test]
fn random_values_are_always_admitted() {
    let params = [
        Param::Is("x".into()),
        Param::Int { min: -3, max: 3 },
        Param::one_of([1, 2, 3]),
        Param::subset([1, 2, 3, 4, 5], 1, 3),
        Param::subset([1, 2], 0, 9),
        Param::Order(vec![7.into(), 8.into(), 9.into()]),
        Param::List {
            item: Box::new(Param::Object(vec![
                ("a", Param::Int { min: 0, max: 1 }),
                ("b", Param::Maybe(Box::new(Param::one_of(["p", "q"])))),
            ])),
            min: 0,
            max: 4,
        },
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for param in &params {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..500 {
            let value = param.random(&mut rng).expect("these params admit values");
            assert!(
                param.admits(&value),
                "{param:?} drew {value} which it refuses"
            );
            seen.insert(value.to_string());
        }
        assert!(
            seen.len() > 1 || matches!(param, Param::Is(_)),
            "{param:?} always draws the same value"
        );
    }
}

#[test]
fn values_out_of_bounds_are_refused() {
    let subset = Param::subset([1, 2, 3], 1, 2);
    for bad in [
        json!([]),
        json!([1, 2, 3]),
        json!([1, 1]),
        json!([4]),
        json!("1"),
        json!(null),
    ] {
        assert!(!subset.admits(&bad), "{bad}");
    }
    assert!(subset.admits(&json!([3, 1])));
    let order = Param::Order(vec![1.into(), 2.into()]);
    assert!(order.admits(&json!([2, 1])));
    for bad in [json!([1]), json!([1, 1]), json!([1, 2, 2])] {
        assert!(!order.admits(&bad), "{bad}");
    }
    let int = Param::Int { min: 2, max: 4 };
    for bad in [json!(1), json!(5), json!(2.5), json!("3")] {
        assert!(!int.admits(&bad), "{bad}");
    }
    let object = Param::Object(vec![("a", Param::Is(1.into()))]);
    assert!(object.admits(&json!({"a": 1})));
    assert!(!object.admits(&json!({"a": 1, "b": 2})));
    assert!(!object.admits(&json!({})));
}

#[test]
fn params_that_admit_nothing_draw_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert_eq!(Param::OneOf(Vec::new()).random(&mut rng), None);
    assert_eq!(Param::subset([1], 2, 3).random(&mut rng), None);
    assert_eq!(Param::Int { min: 3, max: 2 }.random(&mut rng), None);
}
