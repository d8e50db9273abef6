//! What a seat may do now: [`Legal`] entries, each a whole action ready to send, or an
//! [`Open`] family of actions whose parameters the player fills in within stated bounds.
//!
//! An open entry is written into the seat's `legal` list as the action with each parameter
//! replaced by `{"$choose": <JSON Schema>}` (see [`Param`]), for example
//! `{"kind": "bid", "cards": {"$choose": {"type": "array", ...}}}`. A client fills every
//! `$choose` with a value its schema admits and sends the result as `act.action`; `apply`
//! validates it like any other action.

use rand_chacha::ChaCha8Rng;
use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use crate::param::Param;
use crate::view::{Literal, ViewValue};

/// One entry of a seat's legal actions.
#[derive(Debug, Clone, PartialEq)]
pub enum Legal<A> {
    /// This exact action.
    Act(A),
    /// Any action of this family whose parameters are within its bounds.
    Open(Open),
}

impl<A: Serialize> Serialize for Legal<A> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Legal::Act(action) => action.serialize(serializer),
            Legal::Open(open) => open.serialize(serializer),
        }
    }
}

/// A family of actions: a `kind` and the members the player fills in.
#[derive(Debug, Clone, PartialEq)]
pub struct Open {
    kind: &'static str,
    /// The members besides `kind`, in the order they were given.
    fields: Vec<(&'static str, Param)>,
}

impl Open {
    /// The actions `{"kind": kind, ...}`; add their members with [`Open::choose`] and
    /// [`Open::fixed`].
    pub fn new(kind: &'static str) -> Open {
        Open {
            kind,
            fields: Vec::new(),
        }
    }

    /// A member the player fills in within `param`'s bounds.
    pub fn choose(mut self, name: &'static str, param: Param) -> Open {
        self.fields.push((name, param));
        self
    }

    /// A member that is always `value`.
    pub fn fixed(self, name: &'static str, value: impl Into<ViewValue>) -> Open {
        self.choose(name, Param::Is(value.into()))
    }

    /// The action kind.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The members besides `kind`, with their bounds.
    pub fn fields(&self) -> &[(&'static str, Param)] {
        &self.fields
    }

    /// A random action of this family, as JSON (`None` when some member admits no value).
    pub fn random(&self, rng: &mut ChaCha8Rng) -> Option<Value> {
        let mut map = serde_json::Map::new();
        map.insert("kind".into(), Value::from(self.kind));
        for (name, param) in &self.fields {
            map.insert((*name).to_string(), param.random(rng)?);
        }
        Some(Value::Object(map))
    }

    /// Whether `action` is of this family: the same kind, exactly these members, each within
    /// its bounds.
    pub fn admits(&self, action: &Value) -> bool {
        let Some(map) = action.as_object() else {
            return false;
        };
        map.get("kind").and_then(Value::as_str) == Some(self.kind)
            && map.len() == self.fields.len() + 1
            && self
                .fields
                .iter()
                .all(|(name, param)| map.get(*name).is_some_and(|v| param.admits(v)))
    }
}

/// A member of an open entry: fixed members as they are, the others as `{"$choose": schema}`.
struct Member<'a>(&'a Param);

impl Serialize for Member<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Param::Is(value) => value.serialize(serializer),
            param => {
                let mut s = serializer.serialize_struct("Choose", 1)?;
                s.serialize_field("$choose", param)?;
                s.end()
            }
        }
    }
}

impl Serialize for Open {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Open", self.fields.len() + 1)?;
        s.serialize_field("kind", &Literal(self.kind))?;
        for (name, param) in &self.fields {
            s.serialize_field(name, &Member(param))?;
        }
        s.end()
    }
}

/// Whether `action` is one of `legal` (as JSON): equal to a whole action, or admitted by an
/// open entry.
pub fn admitted<A: Serialize>(legal: &[Legal<A>], action: &Value) -> bool {
    legal.iter().any(|entry| match entry {
        Legal::Act(a) => serde_json::to_value(a).is_ok_and(|a| a == *action),
        Legal::Open(open) => open.admits(action),
    })
}
