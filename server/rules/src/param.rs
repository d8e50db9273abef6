//! [`Param`]: the bounds of a value a player fills in, for decisions that cannot be listed one
//! by one (which cards to mulligan, which blockers on which attacker, a programmed rule).
//!
//! A param is written into the view as the JSON Schema that admits exactly its values (a
//! small, standard subset: `const`, `enum`, `type` integer/array/object, `minimum`,
//! `maximum`, `items`, `minItems`, `maxItems`, `uniqueItems`, `properties`, `required`,
//! `additionalProperties`, `anyOf`), so that any client can build a form or a random value
//! from it. It can also draw a random admitted value and tell whether a value is admitted.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use crate::view::{Literal as Lit, ViewValue};

/// The bounds of one value to fill in.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    /// Exactly this value (`{"const": value}`).
    Is(ViewValue),
    /// A whole number from `min` to `max`, both included.
    Int {
        /// Smallest admitted number.
        min: i64,
        /// Largest admitted number.
        max: i64,
    },
    /// One of these values (`{"enum": [...]}`).
    OneOf(Vec<ViewValue>),
    /// A list of `min` to `max` distinct values taken from `of`, in any order.
    Subset {
        /// The values to take from.
        of: Vec<ViewValue>,
        /// Fewest values.
        min: usize,
        /// Most values.
        max: usize,
    },
    /// Every value of the list, each once, in an order the player chooses.
    Order(Vec<ViewValue>),
    /// A list of `min` to `max` values, each admitted by `item`.
    List {
        /// What each item must be.
        item: Box<Param>,
        /// Fewest items.
        min: usize,
        /// Most items.
        max: usize,
    },
    /// An object with exactly these members, each admitted by its param.
    Object(Vec<(&'static str, Param)>),
    /// `null`, or a value the inner param admits.
    Maybe(Box<Param>),
}

impl Param {
    /// A list of `min` to `max` distinct values from `of`.
    pub fn subset(
        of: impl IntoIterator<Item = impl Into<ViewValue>>,
        min: usize,
        max: usize,
    ) -> Param {
        Param::Subset {
            of: of.into_iter().map(Into::into).collect(),
            min,
            max,
        }
    }

    /// One of `values`.
    pub fn one_of(values: impl IntoIterator<Item = impl Into<ViewValue>>) -> Param {
        Param::OneOf(values.into_iter().map(Into::into).collect())
    }

    /// A random value this param admits, drawn from `rng`; `None` when it admits none (an
    /// empty `OneOf`, a `Subset` asking for more values than it has, `min > max`).
    pub fn random(&self, rng: &mut ChaCha8Rng) -> Option<Value> {
        Some(match self {
            Param::Is(value) => value.to_value(),
            Param::Int { min, max } => {
                if min > max {
                    return None;
                }
                Value::from(rng.random_range(*min..=*max))
            }
            Param::OneOf(values) => {
                if values.is_empty() {
                    return None;
                }
                values[rng.random_range(0..values.len())].to_value()
            }
            Param::Subset { of, min, max } => {
                let max = (*max).min(of.len());
                if *min > max {
                    return None;
                }
                let count = rng.random_range(*min..=max);
                // Which of `of` to take, kept in their listed order.
                let mut picks: Vec<usize> = (0..of.len()).collect();
                picks.shuffle(rng);
                picks.truncate(count);
                picks.sort_unstable();
                Value::Array(picks.into_iter().map(|i| of[i].to_value()).collect())
            }
            Param::Order(values) => {
                let mut items: Vec<Value> = values.iter().map(ViewValue::to_value).collect();
                items.shuffle(rng);
                Value::Array(items)
            }
            Param::List { item, min, max } => {
                if min > max {
                    return None;
                }
                let count = rng.random_range(*min..=*max);
                let items: Option<Vec<Value>> = (0..count).map(|_| item.random(rng)).collect();
                Value::Array(items?)
            }
            Param::Object(fields) => {
                let mut map = serde_json::Map::new();
                for (name, param) in fields {
                    map.insert((*name).to_string(), param.random(rng)?);
                }
                Value::Object(map)
            }
            Param::Maybe(inner) => {
                if rng.random_bool(0.5) {
                    Value::Null
                } else {
                    inner.random(rng)?
                }
            }
        })
    }

    /// Whether `value` is one this param admits.
    pub fn admits(&self, value: &Value) -> bool {
        let among = |values: &[ViewValue], v: &Value| values.iter().any(|x| x.to_value() == *v);
        match self {
            Param::Is(expected) => expected.to_value() == *value,
            Param::Int { min, max } => value.as_i64().is_some_and(|n| *min <= n && n <= *max),
            Param::OneOf(values) => among(values, value),
            Param::Subset { of, min, max } => value.as_array().is_some_and(|items| {
                (*min..=*max).contains(&items.len())
                    && items.iter().all(|v| among(of, v))
                    && distinct(items)
            }),
            Param::Order(values) => value.as_array().is_some_and(|items| {
                items.len() == values.len()
                    && items.iter().all(|v| among(values, v))
                    && distinct(items)
            }),
            Param::List { item, min, max } => value.as_array().is_some_and(|items| {
                (*min..=*max).contains(&items.len()) && items.iter().all(|v| item.admits(v))
            }),
            Param::Object(fields) => value.as_object().is_some_and(|map| {
                map.len() == fields.len()
                    && fields
                        .iter()
                        .all(|(name, param)| map.get(*name).is_some_and(|v| param.admits(v)))
            }),
            Param::Maybe(inner) => value.is_null() || inner.admits(value),
        }
    }
}

fn distinct(items: &[Value]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, a)| items[..i].iter().all(|b| a != b))
}

/// An array schema: `items`, `maxItems`, `minItems`, `type` and, for distinct values,
/// `uniqueItems` (in the order views keep keys).
fn array_schema<S: Serializer>(
    serializer: S,
    items: Items<'_>,
    min: usize,
    max: usize,
    unique: bool,
) -> Result<S::Ok, S::Error> {
    let mut s = serializer.serialize_struct("Schema", 4 + usize::from(unique))?;
    s.serialize_field("items", &items)?;
    s.serialize_field("maxItems", &max)?;
    s.serialize_field("minItems", &min)?;
    s.serialize_field("type", &Lit("array"))?;
    if unique {
        s.serialize_field("uniqueItems", &true)?;
    }
    s.end()
}

/// What each item of an array schema must be: one of some values, or admitted by a param.
enum Items<'a> {
    Enum(&'a [ViewValue]),
    Param(&'a Param),
}

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Items::Enum(values) => {
                let mut s = serializer.serialize_struct("Schema", 1)?;
                s.serialize_field("enum", values)?;
                s.end()
            }
            Items::Param(param) => param.serialize(serializer),
        }
    }
}

/// The JSON Schema admitting exactly this param's values.
impl Serialize for Param {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Param::Is(value) => {
                let mut s = serializer.serialize_struct("Schema", 1)?;
                s.serialize_field("const", value)?;
                s.end()
            }
            Param::Int { min, max } => {
                let mut s = serializer.serialize_struct("Schema", 3)?;
                s.serialize_field("maximum", max)?;
                s.serialize_field("minimum", min)?;
                s.serialize_field("type", &Lit("integer"))?;
                s.end()
            }
            Param::OneOf(values) => {
                let mut s = serializer.serialize_struct("Schema", 1)?;
                s.serialize_field("enum", values)?;
                s.end()
            }
            Param::Subset { of, min, max } => {
                array_schema(serializer, Items::Enum(of), *min, *max, true)
            }
            Param::Order(values) => {
                let n = values.len();
                array_schema(serializer, Items::Enum(values), n, n, true)
            }
            Param::List { item, min, max } => {
                array_schema(serializer, Items::Param(item), *min, *max, false)
            }
            Param::Object(fields) => {
                let mut s = serializer.serialize_struct("Schema", 4)?;
                s.serialize_field("additionalProperties", &false)?;
                s.serialize_field("properties", &Properties(fields))?;
                let required: Vec<Lit> = fields.iter().map(|(name, _)| Lit(name)).collect();
                s.serialize_field("required", &required)?;
                s.serialize_field("type", &Lit("object"))?;
                s.end()
            }
            Param::Maybe(inner) => {
                let mut s = serializer.serialize_struct("Schema", 1)?;
                s.serialize_field("anyOf", &(NullSchema, &**inner))?;
                s.end()
            }
        }
    }
}

/// `{"type": "null"}`.
struct NullSchema;

impl Serialize for NullSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Schema", 1)?;
        s.serialize_field("type", &Lit("null"))?;
        s.end()
    }
}

/// An object schema's `properties`: each member's schema under its name.
struct Properties<'a>(&'a [(&'static str, Param)]);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Properties", self.0.len())?;
        for (name, param) in self.0 {
            s.serialize_field(name, param)?;
        }
        s.end()
    }
}

#[cfg(test)]
#[path = "param_tests.rs"]
mod tests;
