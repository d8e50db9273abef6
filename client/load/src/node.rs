//! `Node`: the load generator's JSON tree for the views it tracks.
//!
//! A view object has a dozen keys or so, and patches address them one path at a time. In a
//! `serde_json::Value` every object is a `BTreeMap<String, Value>`: building one allocates a
//! node per few keys, and every step of a path is a tree search comparing whole strings. Here
//! an object is a plain vector of `(key, value)` pairs searched from the front, comparing
//! lengths before bytes, which for objects this small is both quicker to build and quicker to
//! search. Frames are decoded straight into this tree (by the load generator's
//! [`Reader`](super::reader::Reader)), with no `Value` in between.
//!
//! Keys and strings of up to [`INLINE`] bytes, which are nearly all of them, are held inside
//! the node rather than in an allocation of their own ([`Str`]): searching an object then
//! reads one contiguous block of memory instead of chasing a pointer per key, and building
//! or dropping a view allocates and frees far less.
//!
//! The meaning is serde_json's: numbers are [`Number`]s, objects compare without regard to
//! key order, and a key given twice keeps its last value.

use std::fmt;

use serde_json::{Map, Number, Value};

/// Objects up to this many keys drop repeated keys by pairwise comparison; larger ones sort.
const SMALL_OBJECT: usize = 32;

/// Longest string held inline by a [`Str`]; it makes a `Str` as big as a `Vec`.
pub const INLINE: usize = 22;

/// An immutable string, inline when it has at most [`INLINE`] bytes.
///
/// Each string has exactly one form (inline exactly when it is short enough), so two `Str`s
/// are equal exactly when their forms are, and short ones compare as fixed-size arrays,
/// which needs neither a pointer nor a call to `memcmp`.
#[derive(Clone, PartialEq, Eq)]
pub enum Str {
    /// A short string: its length and its bytes, padded with zeros.
    Inline {
        /// Number of bytes used.
        len: u8,
        /// The bytes, zero after `len`.
        bytes: [u8; INLINE],
    },
    /// A longer string.
    Heap(Box<str>),
}

impl Str {
    /// The `Str` holding `text`.
    #[inline]
    pub fn new(text: &str) -> Str {
        match u8::try_from(text.len()) {
            Ok(len) if text.len() <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..text.len()].copy_from_slice(text.as_bytes());
                Str::Inline { len, bytes }
            }
            _ => Str::Heap(text.into()),
        }
    }

    /// Whether this is `text`. Lengths are compared first, and short strings byte by byte
    /// in place, which for keys of a few bytes beats building a `Str` to compare with.
    #[inline]
    pub fn is(&self, text: &str) -> bool {
        match self {
            Str::Inline { len, bytes } => {
                usize::from(*len) == text.len()
                    && bytes.iter().zip(text.as_bytes()).all(|(a, b)| a == b)
            }
            Str::Heap(own) => **own == *text,
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match self {
            Str::Inline { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)])
                .expect("the bytes were copied from a whole str"),
            Str::Heap(text) => text,
        }
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<String> for Str {
    fn from(text: String) -> Str {
        if text.len() <= INLINE {
            Str::new(&text)
        } else {
            Str::Heap(text.into_boxed_str())
        }
    }
}

/// One JSON value.
#[derive(Debug, Clone)]
pub enum Node {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json holds it.
    Number(Number),
    /// A string.
    String(Str),
    /// An array.
    Array(Vec<Node>),
    /// An object: its members in arrival order, each key once.
    Object(Vec<(Str, Node)>),
}

/// The member `key` of an object's member list.
#[inline]
pub fn member<'a>(members: &'a [(Str, Node)], key: &str) -> Option<&'a Node> {
    members.iter().find(|(k, _)| k.is(key)).map(|(_, v)| v)
}

/// The member `key` of an object's member list, to change it.
#[inline]
pub fn member_mut<'a>(members: &'a mut [(Str, Node)], key: &str) -> Option<&'a mut Node> {
    members.iter_mut().find(|(k, _)| k.is(key)).map(|(_, v)| v)
}

impl Node {
    /// The member `key` when this is an object.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => member(members, key),
            _ => None,
        }
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The number as a `u64`, when it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Node::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// The items, when this is an array.
    pub fn as_array(&self) -> Option<&[Node]> {
        match self {
            Node::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Node::Null)
    }

    /// The same value as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Number(n) => Value::Number(n.clone()),
            Node::String(s) => Value::String(s.as_str().to_owned()),
            Node::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.as_str().to_owned(), v.to_value()))
                    .collect::<Map<String, Value>>(),
            ),
        }
    }
}

impl From<&Value> for Node {
    fn from(value: &Value) -> Node {
        match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.clone()),
            Value::String(s) => Node::String(Str::new(s)),
            Value::Array(items) => Node::Array(items.iter().map(Node::from).collect()),
            Value::Object(map) => Node::Object(
                map.iter()
                    .map(|(k, v)| (Str::new(k), Node::from(v)))
                    .collect(),
            ),
        }
    }
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Null, Node::Null) => true,
            (Node::Bool(a), Node::Bool(b)) => a == b,
            (Node::Number(a), Node::Number(b)) => a == b,
            (Node::String(a), Node::String(b)) => a == b,
            (Node::Array(a), Node::Array(b)) => a == b,
            // Keys are unique on both sides, so equal sizes and every member found equal
            // means equal objects, in whatever order they came.
            (Node::Object(a), Node::Object(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| member(b, k.as_str()) == Some(v))
            }
            _ => false,
        }
    }
}

/// Keep the last value of every key given more than once, as serde_json does.
pub fn drop_repeated_keys(members: &mut Vec<(Str, Node)>) {
    if members.len() <= SMALL_OBJECT {
        // Walk from the back so that the surviving copy of a key is its last one.
        let mut i = members.len();
        while i > 1 {
            i -= 1;
            let key = &members[i].0;
            if let Some(earlier) = members[..i].iter().position(|(k, _)| k == key) {
                let last = members.remove(i);
                members[earlier].1 = last.1;
            }
        }
    } else {
        // A stable sort keeps repeated keys in arrival order, so the last of each run wins.
        members.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        let mut kept: Vec<(Str, Node)> = Vec::with_capacity(members.len());
        for (key, value) in members.drain(..) {
            match kept.last_mut() {
                Some(last) if last.0 == key => last.1 = value,
                _ => kept.push((key, value)),
            }
        }
        *members = kept;
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::reader::tests::read;
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use serde_json::json;

    /// A random JSON document: nested objects and arrays, every scalar kind, awkward keys.
    pub(crate) fn random_value(rng: &mut SmallRng, depth: u32) -> Value {
        let kinds = if depth == 0 { 6 } else { 8 };
        match rng.random_range(0..kinds) {
            0 => Value::Null,
            1 => Value::Bool(rng.random()),
            2 => json!(rng.random_range(0..100u64)),
            3 => json!(-rng.random_range(1..100i64)),
            4 => json!(f64::from(rng.random_range(0..1000u32)) / 8.0),
            5 => Value::String(random_key(rng)),
            6 => Value::Array(
                (0..rng.random_range(0..5))
                    .map(|_| random_value(rng, depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..rng.random_range(0..6))
                    .map(|_| (random_key(rng), random_value(rng, depth - 1)))
                    .collect(),
            ),
        }
    }

    /// A short key from a small alphabet (so that keys repeat), with pointer and JSON
    /// escapes now and then.
    pub(crate) fn random_key(rng: &mut SmallRng) -> String {
        const PARTS: [&str; 9] = ["a", "b", "hp", "hand", "~", "/", "é", "\"", ""];
        (0..rng.random_range(1..3))
            .map(|_| PARTS[rng.random_range(0..PARTS.len())])
            .collect()
    }

    #[test]
    fn converts_both_ways() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..2000 {
            let value = random_value(&mut rng, 4);
            let node = Node::from(&value);
            assert_eq!(node.to_value(), value);
            assert_eq!(read(&value.to_string()), Ok(node), "{value}");
        }
    }

    #[test]
    fn repeated_keys_keep_the_last_value() {
        let text = r#"{"a":1,"b":2,"a":3,"c":{"x":1,"x":[2]},"b":4}"#;
        let node = read(text).expect("valid JSON");
        let value: Value = serde_json::from_str(text).expect("valid JSON");
        assert_eq!(node.to_value(), value);
        assert!(matches!(&node, Node::Object(m) if m.len() == 3));

        // The same for an object too big for pairwise comparison.
        let mut big: Vec<String> = (0..50).map(|i| format!("\"k{i}\":{i}")).collect();
        big.push("\"k7\":\"last\"".into());
        big.insert(3, "\"k40\":\"first\"".into());
        let text = format!("{{{}}}", big.join(","));
        let node = read(&text).expect("valid JSON");
        let value: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(node.to_value(), value);
        assert_eq!(node.get("k7").and_then(Node::as_str), Some("last"));
        assert_eq!(node.get("k40").and_then(Node::as_u64), Some(40));
    }

    #[test]
    fn equality_is_serde_jsons() {
        let mut rng = SmallRng::seed_from_u64(11);
        let values: Vec<Value> = (0..300).map(|_| random_value(&mut rng, 2)).collect();
        for a in &values {
            for b in values.iter().take(60) {
                assert_eq!(Node::from(a) == Node::from(b), a == b, "{a} vs {b}");
            }
        }
        // Key order does not matter; number kinds do, as in serde_json.
        let x = read(r#"{"a":1,"b":[true,null]}"#).expect("JSON");
        let y = read(r#"{"b":[true,null],"a":1}"#).expect("JSON");
        assert_eq!(x, y);
        let one = read("1").expect("JSON");
        let one_float = read("1.0").expect("JSON");
        assert_ne!(one, one_float);
        assert_eq!(json!(1) == json!(1.0), one == one_float);
    }

    #[test]
    fn accessors() {
        let node = read(r#"{"s":"x","n":3,"neg":-1,"l":[1],"z":null}"#).expect("JSON");
        let get = |key: &str| node.get(key);
        assert_eq!(get("s").and_then(Node::as_str), Some("x"));
        assert_eq!(get("n").and_then(Node::as_u64), Some(3));
        assert_eq!(get("neg").and_then(Node::as_u64), None);
        assert_eq!(get("l").and_then(Node::as_array).map(<[_]>::len), Some(1));
        assert!(get("z").is_some_and(Node::is_null));
        assert!(get("missing").is_none());
        assert!(Node::Null.get("s").is_none());
    }

    #[test]
    fn strings_inline_up_to_the_limit() {
        for len in [0, 1, INLINE - 1, INLINE, INLINE + 1, 100] {
            let text = "é".repeat(len / 2) + &"x".repeat(len % 2);
            let s = Str::new(&text);
            assert_eq!(s.as_str(), text);
            assert_eq!(
                matches!(s, Str::Inline { .. }),
                text.len() <= INLINE,
                "{len}"
            );
            assert_eq!(Str::from(text.clone()), s);
            assert!(s.is(&text));
            assert!(!s.is(&format!("{text}x")));
            if let Some(c) = text.chars().last() {
                assert!(!s.is(&text[..text.len() - c.len_utf8()]));
            }
        }
        assert_ne!(Str::new("ab"), Str::new("ab\0"));
        assert_ne!(Str::new("ab"), Str::new("abc"));
        assert_eq!(size_of::<Str>(), size_of::<Vec<u8>>());
        assert_eq!(size_of::<Node>(), 32);
    }
}
