//! JSON objects with a fixed set of keys, built cheaply.
//!
//! Views are rebuilt for every audience after every change, so building their objects key by
//! key (an allocation and a tree insertion per key) is a hot path. A [`Shape`] keeps one
//! template object with its keys and clones it, then fills the values in key order.

use std::sync::OnceLock;

use serde_json::Value;

/// A JSON object with fixed keys, listed in sorted order. Views are built many times per
/// action, so each object is a clone of a cached template whose values are then filled in key
/// order; that is several times cheaper than building the map key by key.
pub struct Shape<const N: usize> {
    keys: [&'static str; N],
    template: OnceLock<Value>,
}

/// Whether `keys` are in strictly ascending byte order (the order a JSON map keeps them).
const fn sorted(keys: &[&str]) -> bool {
    let mut i = 1;
    while i < keys.len() {
        let (a, b) = (keys[i - 1].as_bytes(), keys[i].as_bytes());
        let mut j = 0;
        loop {
            if j == a.len() || j == b.len() {
                if a.len() >= b.len() {
                    return false;
                }
                break;
            }
            if a[j] != b[j] {
                if a[j] > b[j] {
                    return false;
                }
                break;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

impl<const N: usize> Shape<N> {
    /// A shape with these keys; a compile-time error unless they are sorted.
    pub const fn new(keys: [&'static str; N]) -> Shape<N> {
        assert!(sorted(&keys), "shape keys must be listed in sorted order");
        Shape {
            keys,
            template: OnceLock::new(),
        }
    }

    /// The keys, in order.
    pub fn keys(&self) -> &[&'static str] {
        &self.keys
    }

    /// The object with `values`, given in the same order as the keys.
    pub fn fill(&self, values: [Value; N]) -> Value {
        let template = self.template.get_or_init(|| {
            Value::Object(
                self.keys
                    .iter()
                    .map(|k| (k.to_string(), Value::Null))
                    .collect(),
            )
        });
        let mut out = template.clone();
        if let Value::Object(map) = &mut out {
            for (slot, value) in map.values_mut().zip(values) {
                *slot = value;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fill_matches_an_object_built_key_by_key() {
        static PAIR: Shape<3> = Shape::new(["a", "b", "c"]);
        for round in 0..3 {
            let filled = PAIR.fill([round.into(), json!([1, 2]), Value::Null]);
            assert_eq!(filled, json!({"a": round, "b": [1, 2], "c": null}));
        }
    }

    #[test]
    fn sorted_means_strictly_ascending_bytes() {
        assert!(sorted(&["a", "ab", "b", "to_act"]));
        assert!(!sorted(&["b", "a"]));
        assert!(!sorted(&["ab", "a"]));
        assert!(!sorted(&["a", "a"]));
        assert!(sorted(&[]));
    }
}
