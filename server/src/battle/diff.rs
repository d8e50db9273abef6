//! View diffs: the RFC 6902 patch from one view to the next, kept small for card games.
//!
//! `json_patch::diff` compares arrays position by position, so playing the first card of a
//! hand rewrites every card after it. Views change arrays mostly by removing or inserting a
//! few elements (a card leaves the hand, a log line is appended), so this diff first skips
//! the common prefix and suffix of two arrays and only compares what lies between. Objects
//! are compared key by key, as in `json_patch`.

use battle_protocol::json_patch::jsonptr::PointerBuf;
use battle_protocol::json_patch::{
    AddOperation, Patch, PatchOperation, RemoveOperation, ReplaceOperation,
};
use serde_json::{Map, Value};

/// The patch that turns `from` into `to`.
pub fn diff(from: &Value, to: &Value) -> Patch {
    let mut ops = Vec::new();
    let mut path = PointerBuf::new();
    diff_value(from, to, &mut path, &mut ops);
    Patch(ops)
}

fn diff_value(from: &Value, to: &Value, path: &mut PointerBuf, ops: &mut Vec<PatchOperation>) {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => diff_object(a, b, path, ops),
        (Value::Array(a), Value::Array(b)) => diff_array(a, b, path, ops),
        _ if from == to => {}
        _ => ops.push(PatchOperation::Replace(ReplaceOperation {
            path: path.clone(),
            value: to.clone(),
        })),
    }
}

fn diff_object(
    from: &Map<String, Value>,
    to: &Map<String, Value>,
    path: &mut PointerBuf,
    ops: &mut Vec<PatchOperation>,
) {
    for key in from.keys() {
        if !to.contains_key(key) {
            path.push_back(key);
            ops.push(PatchOperation::Remove(RemoveOperation {
                path: path.clone(),
            }));
            path.pop_back();
        }
    }
    for (key, new) in to {
        path.push_back(key);
        match from.get(key) {
            Some(old) => diff_value(old, new, path, ops),
            None => ops.push(PatchOperation::Add(AddOperation {
                path: path.clone(),
                value: new.clone(),
            })),
        }
        path.pop_back();
    }
}

fn diff_array(from: &[Value], to: &[Value], path: &mut PointerBuf, ops: &mut Vec<PatchOperation>) {
    let prefix = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    let rest_from = &from[prefix..];
    let rest_to = &to[prefix..];
    let suffix = rest_from
        .iter()
        .rev()
        .zip(rest_to.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let middle_from = &rest_from[..rest_from.len() - suffix];
    let middle_to = &rest_to[..rest_to.len() - suffix];
    let paired = middle_from.len().min(middle_to.len());
    for (offset, (old, new)) in middle_from.iter().zip(middle_to).enumerate() {
        path.push_back(prefix + offset);
        diff_value(old, new, path, ops);
        path.pop_back();
    }
    // Extra old elements all sit at the same index once each earlier one is removed.
    for _ in paired..middle_from.len() {
        path.push_back(prefix + paired);
        ops.push(PatchOperation::Remove(RemoveOperation {
            path: path.clone(),
        }));
        path.pop_back();
    }
    for (offset, new) in middle_to.iter().enumerate().skip(paired) {
        path.push_back(prefix + offset);
        ops.push(PatchOperation::Add(AddOperation {
            path: path.clone(),
            value: new.clone(),
        }));
        path.pop_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::json_patch;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use serde_json::json;

    fn check(from: &Value, to: &Value) -> Patch {
        let patch = diff(from, to);
        let mut doc = from.clone();
        json_patch::patch(&mut doc, &patch).expect("our patches always apply");
        assert_eq!(&doc, to, "patch {patch:?} must turn {from} into {to}");
        patch
    }

    #[test]
    fn removing_the_first_card_is_one_op() {
        let from = json!({"hand": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]});
        let to = json!({"hand": [{"id": 2}, {"id": 3}, {"id": 4}]});
        let patch = check(&from, &to);
        assert_eq!(
            serde_json::to_value(&patch).expect("patches serialize"),
            json!([{"op": "remove", "path": "/hand/0"}])
        );
    }

    #[test]
    fn appending_to_a_log_is_one_add_per_line() {
        let from = json!({"log": ["a", "b"]});
        let to = json!({"log": ["a", "b", "c", "d"]});
        let patch = check(&from, &to);
        assert_eq!(
            serde_json::to_value(&patch).expect("patches serialize"),
            json!([{"op": "add", "path": "/log/2", "value": "c"},
                   {"op": "add", "path": "/log/3", "value": "d"}])
        );
    }

    #[test]
    fn keys_with_slashes_and_tildes_are_escaped() {
        check(
            &json!({"a/b": 1, "c~d": [1]}),
            &json!({"a/b": 2, "c~d": [1, 2], "e": null}),
        );
    }

    fn random_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
        match rng.random_range(0..if depth == 0 { 3 } else { 6 }) {
            0 => Value::from(rng.random_range(0..4)),
            1 => Value::from(["x", "y", "z"][rng.random_range(0..3)]),
            2 => Value::Null,
            3 | 4 => Value::Array(
                (0..rng.random_range(0..5))
                    .map(|_| random_value(rng, depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..rng.random_range(0..4))
                    .map(|_| {
                        let key = ["k", "l", "m", "n/o"][rng.random_range(0..4)].to_string();
                        (key, random_value(rng, depth - 1))
                    })
                    .collect(),
            ),
        }
    }

    /// Nudge a value a little, the way views change between two steps.
    fn mutate(rng: &mut ChaCha8Rng, value: &Value) -> Value {
        match value {
            Value::Array(items) => {
                let mut items: Vec<Value> = items.iter().map(|v| mutate(rng, v)).collect();
                match rng.random_range(0..4) {
                    0 if !items.is_empty() => {
                        let at = rng.random_range(0..items.len());
                        items.remove(at);
                    }
                    1 => {
                        let at = rng.random_range(0..=items.len());
                        items.insert(at, random_value(rng, 1));
                    }
                    _ => {}
                }
                Value::Array(items)
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), mutate(rng, v)))
                    .collect(),
            ),
            _ if rng.random_range(0..4) == 0 => random_value(rng, 1),
            other => other.clone(),
        }
    }

    #[test]
    fn random_pairs_always_round_trip() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..5_000 {
            let from = random_value(&mut rng, 4);
            let to = if rng.random_range(0..2) == 0 {
                mutate(&mut rng, &from)
            } else {
                random_value(&mut rng, 4)
            };
            check(&from, &to);
        }
    }
}
