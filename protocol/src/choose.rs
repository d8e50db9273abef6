//! Open decisions: a `legal` entry whose parameters the player fills in is the action with
//! each parameter written as `{"$choose": <JSON Schema>}` (PROTOCOL.md, "Open decisions").
//! These functions read such entries and check a filled action against them, from the
//! protocol's subset of JSON Schema (`const`, `enum`, `anyOf`, `type` `integer`/`array`/
//! `object`/`null` with their bounds): any client, and the server's tests, use them.

use serde_json::Value;

/// Whether `entry` has parameters left to fill.
pub fn is_open(entry: &Value) -> bool {
    match entry {
        Value::Object(map) => map.contains_key("$choose") || map.values().any(is_open),
        Value::Array(items) => items.iter().any(is_open),
        _ => false,
    }
}

/// The schema of `value` when it is a parameter to fill (`{"$choose": schema}`).
pub fn choose(value: &Value) -> Option<&Value> {
    match value {
        Value::Object(map) if map.len() == 1 => map.get("$choose"),
        _ => None,
    }
}

/// Whether `action` is `entry` with every parameter filled within its bounds (for a whole
/// action: equal to it).
pub fn admits(entry: &Value, action: &Value) -> bool {
    if let Some(schema) = choose(entry) {
        return schema_admits(schema, action);
    }
    match (entry, action) {
        (Value::Object(e), Value::Object(a)) => {
            e.len() == a.len()
                && e.iter()
                    .all(|(k, v)| a.get(k).is_some_and(|x| admits(v, x)))
        }
        (Value::Array(e), Value::Array(a)) => {
            e.len() == a.len() && e.iter().zip(a).all(|(x, y)| admits(x, y))
        }
        _ => entry == action,
    }
}

/// Whether `value` is one the schema (the protocol's subset of JSON Schema) admits.
pub fn schema_admits(schema: &Value, value: &Value) -> bool {
    if let Some(expected) = schema.get("const") {
        return expected == value;
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.contains(value);
    }
    if let Some(options) = schema["anyOf"].as_array() {
        return options.iter().any(|option| schema_admits(option, value));
    }
    let count = |key: &str| schema[key].as_u64();
    match schema["type"].as_str() {
        Some("null") => value.is_null(),
        Some("integer") => value.as_i64().is_some_and(|n| {
            schema["minimum"].as_i64().is_none_or(|min| n >= min)
                && schema["maximum"].as_i64().is_none_or(|max| n <= max)
        }),
        Some("array") => value.as_array().is_some_and(|items| {
            let n = items.len() as u64;
            count("minItems").is_none_or(|min| n >= min)
                && count("maxItems").is_none_or(|max| n <= max)
                && items
                    .iter()
                    .all(|item| schema_admits(&schema["items"], item))
                && (schema["uniqueItems"] != true
                    || items
                        .iter()
                        .enumerate()
                        .all(|(i, a)| !items[..i].contains(a)))
        }),
        Some("object") => value.as_object().is_some_and(|map| {
            let properties = schema["properties"].as_object();
            let known = |key: &String| properties.is_some_and(|p| p.contains_key(key));
            let required = schema["required"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            required
                .iter()
                .all(|k| k.as_str().is_some_and(|k| map.contains_key(k)))
                && (schema["additionalProperties"] != false || map.keys().all(known))
                && map.iter().all(|(k, v)| {
                    properties
                        .and_then(|p| p.get(k))
                        .is_none_or(|s| schema_admits(s, v))
                })
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn bid() -> Value {
        json!({"kind": "bid", "cards": {"$choose": {"type": "array", "items": {"enum": [1, 5, 9]},
            "uniqueItems": true, "minItems": 1, "maxItems": 2}}})
    }

    #[test]
    fn open_entries_admit_exactly_the_actions_within_their_bounds() {
        assert!(is_open(&bid()));
        assert!(!is_open(&json!({"kind": "end_turn"})));
        assert!(admits(&bid(), &json!({"kind": "bid", "cards": [9, 1]})));
        for refused in [
            json!({"kind": "bid", "cards": []}),
            json!({"kind": "bid", "cards": [1, 5, 9]}),
            json!({"kind": "bid", "cards": [1, 1]}),
            json!({"kind": "bid", "cards": [2]}),
            json!({"kind": "bid", "cards": [1], "extra": 1}),
            json!({"kind": "pass", "cards": [1]}),
        ] {
            assert!(!admits(&bid(), &refused), "{refused}");
        }
        assert!(admits(
            &json!({"kind": "end_turn"}),
            &json!({"kind": "end_turn"})
        ));
    }

    #[test]
    fn every_schema_kind_is_checked() {
        let rule = json!({"type": "object", "additionalProperties": false,
            "required": ["skill", "below"],
            "properties": {"skill": {"enum": ["strike", "mend"]},
                "below": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1, "maximum": 99}]}}});
        assert!(schema_admits(
            &rule,
            &json!({"skill": "mend", "below": null})
        ));
        assert!(schema_admits(
            &rule,
            &json!({"skill": "strike", "below": 50})
        ));
        assert!(!schema_admits(
            &rule,
            &json!({"skill": "strike", "below": 100})
        ));
        assert!(!schema_admits(&rule, &json!({"skill": "strike"})));
        assert!(!schema_admits(
            &rule,
            &json!({"skill": "strike", "below": 1, "x": 1})
        ));
        assert!(schema_admits(&json!({"const": 3}), &json!(3)));
        assert!(
            !schema_admits(&json!({"type": "boolean"}), &json!(true)),
            "not in the subset"
        );
    }
}
