//! Open entries of a view's `legal` list: actions whose parameters the player fills in, each
//! given as `{"$choose": <JSON Schema>}` (see PROTOCOL.md, "Open decisions"). Describing
//! them, drawing a random one for bots, and filling one from what a person typed (checking an
//! action against an entry is `battle_protocol::choose`, re-exported here). Written from the
//! protocol alone: it works for any ruleset.

use battle_protocol::choose::choose;
pub use battle_protocol::choose::{admits, is_open, schema_admits};
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{Map, Value};

/// A random action `entry` admits (`entry` itself when it is whole); `None` when a parameter
/// admits no value.
pub fn random_fill(entry: &Value, rng: &mut impl Rng) -> Option<Value> {
    if let Some(schema) = choose(entry) {
        return random_value(schema, rng);
    }
    Some(match entry {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, value) in map {
                out.insert(key.clone(), random_fill(value, rng)?);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| random_fill(item, rng))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// A random value `schema` admits.
fn random_value(schema: &Value, rng: &mut impl Rng) -> Option<Value> {
    if let Some(value) = schema.get("const") {
        return Some(value.clone());
    }
    if let Some(values) = schema["enum"].as_array() {
        return values
            .get(rng.random_range(0..values.len().max(1)))
            .cloned();
    }
    if let Some(options) = schema["anyOf"].as_array() {
        let option = options.get(rng.random_range(0..options.len().max(1)))?;
        return random_value(option, rng);
    }
    let count = |key: &str, default: u64| schema[key].as_u64().unwrap_or(default) as usize;
    match schema["type"].as_str() {
        Some("null") => Some(Value::Null),
        Some("integer") => {
            let min = schema["minimum"].as_i64().unwrap_or(0);
            let max = schema["maximum"].as_i64().unwrap_or(min.saturating_add(9));
            (min <= max).then(|| Value::from(rng.random_range(min..=max)))
        }
        Some("array") => {
            let (min, max) = (count("minItems", 0), count("maxItems", 4));
            let unique = schema["uniqueItems"] == true;
            match schema["items"]["enum"].as_array() {
                Some(values) if unique => {
                    let max = max.min(values.len());
                    if min > max {
                        return None;
                    }
                    let n = rng.random_range(min..=max);
                    let mut picks: Vec<usize> = (0..values.len()).collect();
                    picks.shuffle(rng);
                    picks.truncate(n);
                    picks.sort_unstable();
                    Some(Value::Array(
                        picks.into_iter().map(|i| values[i].clone()).collect(),
                    ))
                }
                _ => {
                    if min > max {
                        return None;
                    }
                    let n = rng.random_range(min..=max);
                    let items = (0..n)
                        .map(|_| random_value(&schema["items"], rng))
                        .collect::<Option<Vec<_>>>()?;
                    (!unique || admits_unique(&items)).then_some(Value::Array(items))
                }
            }
        }
        Some("object") => {
            let mut out = Map::new();
            for (key, property) in schema["properties"].as_object()? {
                out.insert(key.clone(), random_value(property, rng)?);
            }
            Some(Value::Object(out))
        }
        _ => None,
    }
}

fn admits_unique(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| !items[..i].contains(a))
}

/// The values a schema lists (`const`, `enum`, `anyOf` of those, `null`).
pub fn choices(schema: &Value) -> Vec<Value> {
    if let Some(value) = schema.get("const") {
        return vec![value.clone()];
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.clone();
    }
    if let Some(options) = schema["anyOf"].as_array() {
        return options.iter().flat_map(choices).collect();
    }
    if schema["type"] == "null" {
        return vec![Value::Null];
    }
    Vec::new()
}

/// The parameters of `entry` to fill, in the order their values are typed: each member
/// name and its schema.
pub fn parameters(entry: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    if let Value::Object(map) = entry {
        for (key, value) in map {
            if let Some(schema) = choose(value) {
                out.push((key.clone(), schema));
            }
        }
    }
    out
}

/// `entry` filled from what a person typed: one word per parameter, in the order of
/// [`parameters`]. A word is a JSON value, or for a list a comma-separated list (`5,9`); with
/// one parameter, several words make one list (`5 9`). Checked against the bounds; the error
/// says what was expected.
pub fn fill_from_text(entry: &Value, words: &[&str]) -> Result<Value, String> {
    let params = parameters(entry);
    if params.is_empty() {
        return if words.is_empty() {
            Ok(entry.clone())
        } else {
            Err("this action takes no values".to_owned())
        };
    }
    let joined;
    let words: Vec<&str> = if params.len() == 1 && words.len() > 1 {
        joined = words.join(",");
        vec![joined.as_str()]
    } else {
        words.to_vec()
    };
    if words.len() != params.len() {
        let names: Vec<String> = params.iter().map(|(name, s)| bounds(name, s)).collect();
        return Err(format!(
            "this action needs {} value(s): {}",
            params.len(),
            names.join("; ")
        ));
    }
    let Value::Object(map) = entry else {
        return Err("only an object action can have values".to_owned());
    };
    let mut action = map.clone();
    for ((name, schema), word) in params.iter().zip(words) {
        let value = parse_word(schema, word);
        if !schema_admits(schema, &value) {
            return Err(format!("{word} does not fit: {}", bounds(name, schema)));
        }
        action.insert(name.clone(), value);
    }
    Ok(Value::Object(action))
}

/// What a typed word means for `schema`.
fn parse_word(schema: &Value, word: &str) -> Value {
    if let Ok(value) = serde_json::from_str::<Value>(word) {
        if schema["type"] != "array" || value.is_array() {
            return value;
        }
    }
    if schema["type"] == "array" {
        let items = word
            .split(',')
            .filter(|w| !w.trim().is_empty())
            .map(|w| serde_json::from_str(w.trim()).unwrap_or_else(|_| Value::from(w.trim())))
            .collect();
        return Value::Array(items);
    }
    Value::from(word)
}

/// `name = <what it admits>`, in words.
fn bounds(name: &str, schema: &Value) -> String {
    format!("{name} = {}", describe_schema(schema))
}

/// What `schema` admits, in words.
pub fn describe_schema(schema: &Value) -> String {
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    if let Some(values) = schema["enum"].as_array() {
        return format!("one of {}", list(values));
    }
    if let Some(options) = schema["anyOf"].as_array() {
        let parts: Vec<String> = options.iter().map(describe_schema).collect();
        return parts.join(" or ");
    }
    match schema["type"].as_str() {
        Some("null") => "nothing (null)".to_owned(),
        Some("integer") => format!(
            "a number from {} to {}",
            schema["minimum"], schema["maximum"]
        ),
        Some("array") => {
            let range = match (schema["minItems"].as_u64(), schema["maxItems"].as_u64()) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a} to {b}"),
                (a, b) => format!(
                    "{} to {}",
                    a.unwrap_or(0),
                    b.map_or("any".into(), |b| b.to_string())
                ),
            };
            match schema["items"]["enum"].as_array() {
                Some(values) if schema["uniqueItems"] == true => {
                    format!("{range} of {}", list(values))
                }
                _ => format!("{range} items, each {}", describe_schema(&schema["items"])),
            }
        }
        Some("object") => {
            let parts: Vec<String> = schema["properties"]
                .as_object()
                .map(|p| p.iter().map(|(k, s)| bounds(k, s)).collect())
                .unwrap_or_default();
            format!("{{{}}}", parts.join(", "))
        }
        _ => schema.to_string(),
    }
}

fn list(values: &[Value]) -> String {
    let parts: Vec<String> = values.iter().map(Value::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// One line a person understands: `end_turn`, `play_card card=6`, or for an open entry
/// `bid: cards = 1 to 2 of [1, 5, 9]`.
pub fn describe(entry: &Value) -> String {
    let Value::Object(map) = entry else {
        return entry.to_string();
    };
    let kind = map
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("action")
        .to_owned();
    let fixed: Vec<String> = map
        .iter()
        .filter(|(k, v)| k.as_str() != "kind" && choose(v).is_none())
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}={s}"),
            other => format!("{k}={other}"),
        })
        .collect();
    let open: Vec<String> = parameters(entry)
        .iter()
        .map(|(name, schema)| bounds(name, schema))
        .collect();
    let mut line = kind;
    if !fixed.is_empty() {
        line.push(' ');
        line.push_str(&fixed.join(" "));
    }
    if !open.is_empty() {
        line.push_str(": ");
        line.push_str(&open.join("; "));
    }
    line
}

#[cfg(test)]
#[path = "fill_tests.rs"]
mod tests;
