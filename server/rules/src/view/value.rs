//! The value a ruleset builds its views from: JSON-shaped, cheap to build, compare and drop.
//!
//! A battle's view is rebuilt (once for all its audiences) before and after every change and
//! the two are diffed, so building views is the server's hottest path. A `serde_json::Value`
//! object owns a `String` per key and a tree node per entry; a [`ViewValue`] object is one
//! `Vec` of pairs whose keys are almost always string literals (no allocation, and compared
//! by address first), and text is a [`Text`]: literals are borrowed (and compared by address),
//! other text is kept inline up to 24 bytes, so names, states and sigils never allocate. A view of a synergy
//! battle costs a dozen allocations instead of a few hundred.
//!
//! Rulesets do not build it by hand: [`to_view`](super::to_view) turns any `Serialize` value
//! (plain structs, enums, lists) into one.
//!
//! The JSON a `ViewValue` writes is byte for byte what `serde_json` writes for the
//! equivalent value with its members in the same order (for a `serde_json::Value`, whose
//! maps keep keys sorted, when object keys are given in sorted order, as
//! [`ViewValue::object`] checks in debug builds).
//!
//! One view serves every viewer: an object member only some viewers may see holds a
//! [`ViewValue::Only`]. [`ViewValue::project`] and [`ViewValue::write_json_as`] give what one
//! viewer sees; everything else (`write_json`, `to_value`, `Serialize`) leaves marked
//! members out.

use std::borrow::Cow;

use compact_str::CompactString;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use crate::ruleset::Viewer;
use crate::view::viewers::Viewers;

/// An object key: a literal, or owned text for keys that come from elsewhere.
pub type Key = Cow<'static, str>;

/// Text in a view: a literal (a name, a state, a kind) is borrowed and compared by address;
/// other text is inline up to 24 bytes, else on the heap.
#[derive(Debug, Clone)]
pub enum Text {
    /// A literal, borrowed.
    Lit(&'static str),
    /// Any other text (compact_str: inline when short).
    Own(CompactString),
}

impl Text {
    /// Text copied from `text` (inline when it is short).
    #[inline]
    pub fn new(text: &str) -> Text {
        Text::Own(CompactString::new(text))
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match self {
            Text::Lit(text) => text,
            Text::Own(text) => text.as_str(),
        }
    }

    /// The literal, when this text is one.
    pub fn as_static_str(&self) -> Option<&'static str> {
        match self {
            Text::Lit(text) => Some(text),
            Text::Own(_) => None,
        }
    }

    /// Whether the text lives in a heap allocation of its own.
    pub fn is_heap_allocated(&self) -> bool {
        matches!(self, Text::Own(text) if text.is_heap_allocated())
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::Own(CompactString::from(text))
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Text) -> bool {
        same_text(self.as_str(), other.as_str())
    }
}

/// A JSON value as views need it.
#[derive(Debug, Clone, Default)]
pub enum ViewValue {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number with a fraction (written as `serde_json` writes an `f64`).
    Float(f64),
    /// Text; short text is inline and literals are borrowed, neither allocates.
    Str(Text),
    /// An array.
    List(Vec<ViewValue>),
    /// An object: keys in the order they are written (keep them sorted, see the module).
    Object(Vec<(Key, ViewValue)>),
    /// A value only `Viewers` may see, in a view built for several viewers at once (see
    /// [`Ruleset::view_all`](crate::ruleset::Ruleset::view_all)). It stands only as the
    /// value of an object member: for everyone else the member is absent. One object may
    /// hold the same key several times with disjoint sets (a seat's own legal actions), and
    /// the same marks in the same order in every view of a battle, so that the diff lines
    /// them up.
    Only(Viewers, Box<ViewValue>),
}

impl ViewValue {
    /// An object from pairs whose keys are literals given in sorted order.
    pub fn object<const N: usize>(pairs: [(&'static str, ViewValue); N]) -> ViewValue {
        debug_assert!(
            pairs.windows(2).all(|w| w[0].0 < w[1].0),
            "view object keys must be given in sorted order: {:?}",
            pairs.iter().map(|(k, _)| *k).collect::<Vec<_>>()
        );
        ViewValue::Object(
            pairs
                .into_iter()
                .map(|(key, value)| (Cow::Borrowed(key), value))
                .collect(),
        )
    }

    /// Text copied from `text` (inline when it is short).
    pub fn text(text: &str) -> ViewValue {
        ViewValue::Str(Text::new(text))
    }

    /// The value under `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&ViewValue> {
        match self {
            ViewValue::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The same value as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        match self {
            ViewValue::Null => Value::Null,
            ViewValue::Bool(b) => Value::Bool(*b),
            ViewValue::Int(n) => Value::from(*n),
            ViewValue::Float(x) => Value::from(*x),
            ViewValue::Str(s) => Value::String(s.as_str().to_string()),
            ViewValue::List(items) => Value::Array(items.iter().map(Self::to_value).collect()),
            ViewValue::Object(pairs) => Value::Object(
                pairs
                    .iter()
                    .filter(|(_, v)| !matches!(v, ViewValue::Only(..)))
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
            // Marked values are shown to nobody here; see `project`.
            ViewValue::Only(..) => Value::Null,
        }
    }

    /// What `viewer` sees of this value: marked members it may see are unwrapped, the others
    /// left out. The result holds no [`ViewValue::Only`].
    pub fn project(&self, viewer: Viewer) -> ViewValue {
        let seen = |value: &ViewValue| value.as_seen_by(Some(viewer)).map(|v| v.project(viewer));
        match self {
            ViewValue::List(items) => ViewValue::List(items.iter().filter_map(seen).collect()),
            ViewValue::Object(pairs) => ViewValue::Object(
                pairs
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), seen(v)?)))
                    .collect(),
            ),
            ViewValue::Only(..) => seen(self).unwrap_or(ViewValue::Null),
            plain => plain.clone(),
        }
    }

    /// This value, standing as an object member, as `viewer` sees it (`None`: nobody in
    /// particular): itself; unwrapped when it is marked for `viewer`; `None` when it is
    /// marked for others, so that the member is absent.
    pub fn as_seen_by(&self, viewer: Option<Viewer>) -> Option<&ViewValue> {
        match self {
            ViewValue::Only(viewers, inner) => viewer
                .is_some_and(|v| viewers.contains(v))
                .then_some(&**inner),
            value => Some(value),
        }
    }

    /// Append this value's JSON to `out`, as everyone sees it: marked members are left out.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write_json_as(None, out);
    }

    /// Append this value's JSON as `viewer` sees it (`None`: as nobody in particular, so
    /// without any marked member) to `out`, which is the JSON of
    /// [`project`](ViewValue::project)`(viewer)`. Returns whether the value holds a
    /// [`ViewValue::Only`] anywhere (whether or not `viewer` sees it): when it does not, the
    /// bytes are the same for every viewer.
    pub fn write_json_as(&self, viewer: Option<Viewer>, out: &mut Vec<u8>) -> bool {
        // Plain values always serialize, and writing to a Vec cannot fail.
        match self {
            ViewValue::Null => out.extend_from_slice(b"null"),
            ViewValue::Bool(true) => out.extend_from_slice(b"true"),
            ViewValue::Bool(false) => out.extend_from_slice(b"false"),
            ViewValue::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
            ViewValue::Float(x) => {
                let _ = serde_json::to_writer(&mut *out, x);
            }
            ViewValue::Str(s) => write_str(out, s.as_str()),
            ViewValue::List(items) => {
                let mut marked = false;
                out.push(b'[');
                let mut first = true;
                for item in items {
                    marked |= matches!(item, ViewValue::Only(..));
                    let Some(item) = item.as_seen_by(viewer) else {
                        continue;
                    };
                    if !std::mem::take(&mut first) {
                        out.push(b',');
                    }
                    marked |= item.write_json_as(viewer, out);
                }
                out.push(b']');
                return marked;
            }
            ViewValue::Object(pairs) => {
                let mut marked = false;
                out.push(b'{');
                let mut first = true;
                for (key, value) in pairs {
                    marked |= matches!(value, ViewValue::Only(..));
                    let Some(value) = value.as_seen_by(viewer) else {
                        continue;
                    };
                    if !std::mem::take(&mut first) {
                        out.push(b',');
                    }
                    write_str(out, key);
                    out.push(b':');
                    marked |= value.write_json_as(viewer, out);
                }
                out.push(b'}');
                return marked;
            }
            ViewValue::Only(..) => {
                match self.as_seen_by(viewer) {
                    Some(inner) => inner.write_json_as(viewer, out),
                    None => {
                        out.extend_from_slice(b"null");
                        false
                    }
                };
                return true;
            }
        }
        false
    }

    /// This value's JSON.
    pub fn to_json(&self) -> String {
        let mut out = Vec::with_capacity(256);
        self.write_json(&mut out);
        String::from_utf8(out).expect("JSON text written from UTF-8 strings is UTF-8")
    }
}

/// Append `text` as a JSON string, escaped as `serde_json` escapes it.
pub fn write_str(out: &mut Vec<u8>, text: &str) {
    // Keys, paths, names and most log lines need no escaping: copy them in one go.
    if !needs_escape(text.as_bytes()) {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
        return;
    }
    // A string always serializes, and writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// Whether `bytes` holds a quote, a backslash or a control character, the bytes JSON
/// strings escape. Eight bytes at a time: every key, path and name of every patch passes
/// through here.
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    // Whether some byte of `x` is below `n` (exact for n <= 0x80).
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS != 0;
    // Whether some byte of `x` is zero.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let x = u64::from_le_bytes(chunk.try_into().expect("chunks_exact gives 8 bytes"));
        if below(x, 0x20)
            || zero(x ^ (ONES * u64::from(b'"')))
            || zero(x ^ (ONES * u64::from(b'\\')))
        {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Whether two keys are the same text; literals usually match by address.
pub fn same_key(a: &Key, b: &Key) -> bool {
    same_text(a, b)
}

/// Whether two texts are equal; literals usually match by address.
#[inline]
fn same_text(a: &str, b: &str) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
}

/// JSON equality (an integer never equals a fraction, as in `serde_json`), with a shortcut
/// for literal text and keys: the diff compares every value of two successive views.
impl PartialEq for ViewValue {
    fn eq(&self, other: &ViewValue) -> bool {
        match (self, other) {
            (ViewValue::Null, ViewValue::Null) => true,
            (ViewValue::Bool(a), ViewValue::Bool(b)) => a == b,
            (ViewValue::Int(a), ViewValue::Int(b)) => a == b,
            (ViewValue::Float(a), ViewValue::Float(b)) => a == b,
            (ViewValue::Str(a), ViewValue::Str(b)) => same_text(a.as_str(), b.as_str()),
            (ViewValue::List(a), ViewValue::List(b)) => a == b,
            (ViewValue::Object(a), ViewValue::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| same_text(ka, kb) && va == vb)
            }
            (ViewValue::Only(a, x), ViewValue::Only(b, y)) => a == b && x == y,
            _ => false,
        }
    }
}

impl Serialize for ViewValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ViewValue::Null => serializer.serialize_unit(),
            ViewValue::Bool(b) => serializer.serialize_bool(*b),
            ViewValue::Int(n) => serializer.serialize_i64(*n),
            ViewValue::Float(x) => serializer.serialize_f64(*x),
            ViewValue::Str(s) => serializer.serialize_str(s.as_str()),
            ViewValue::List(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            ViewValue::Object(pairs) => {
                let shown = |(_, v): &&(Key, ViewValue)| !matches!(v, ViewValue::Only(..));
                let mut map = serializer.serialize_map(Some(pairs.iter().filter(shown).count()))?;
                for (key, value) in pairs.iter().filter(shown) {
                    map.serialize_entry(key.as_ref(), value)?;
                }
                map.end()
            }
            // Marked values are shown to nobody here; see `ViewValue::project`.
            ViewValue::Only(..) => serializer.serialize_unit(),
        }
    }
}

impl From<&Value> for ViewValue {
    fn from(value: &Value) -> ViewValue {
        match value {
            Value::Null => ViewValue::Null,
            Value::Bool(b) => ViewValue::Bool(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => ViewValue::Int(i),
                // u64 beyond i64 and fractions: kept as f64 like serde_json's arbitrary
                // numbers would lose them anyway; views never hold such numbers.
                None => ViewValue::Float(n.as_f64().unwrap_or(0.0)),
            },
            Value::String(s) => ViewValue::text(s.as_str()),
            Value::Array(items) => ViewValue::List(items.iter().map(ViewValue::from).collect()),
            Value::Object(map) => ViewValue::Object(
                map.iter()
                    .map(|(k, v)| (Cow::Owned(k.clone()), ViewValue::from(v)))
                    .collect(),
            ),
        }
    }
}

impl From<bool> for ViewValue {
    fn from(b: bool) -> ViewValue {
        ViewValue::Bool(b)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for ViewValue {
            fn from(n: $t) -> ViewValue {
                ViewValue::Int(i64::from(n))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32);

impl From<usize> for ViewValue {
    fn from(n: usize) -> ViewValue {
        // Counts in a view are far below i64::MAX.
        ViewValue::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<f64> for ViewValue {
    fn from(x: f64) -> ViewValue {
        ViewValue::Float(x)
    }
}

impl From<&'static str> for ViewValue {
    fn from(s: &'static str) -> ViewValue {
        ViewValue::Str(Text::Lit(s))
    }
}

impl From<String> for ViewValue {
    fn from(s: String) -> ViewValue {
        ViewValue::Str(Text::from(s))
    }
}

impl<T: Into<ViewValue>> From<Option<T>> for ViewValue {
    fn from(value: Option<T>) -> ViewValue {
        value.map_or(ViewValue::Null, Into::into)
    }
}

impl<T: Into<ViewValue>> From<Vec<T>> for ViewValue {
    fn from(items: Vec<T>) -> ViewValue {
        ViewValue::List(items.into_iter().map(Into::into).collect())
    }
}

#[cfg(test)]
#[path = "value_tests.rs"]
mod tests;
