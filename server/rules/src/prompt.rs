//! [`Prompt`]: what a seat whose decision the battle awaits is being asked, shown at
//! `/prompt` of that seat's view.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::view::{literal, Key, Literal, Text, ViewValue};

/// What is being decided, in words and as a stable name, with how many things to choose when
/// the decision is a choice of several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// A stable name for the decision, e.g. `"turn"`, `"mulligan"`, `"blockers"`.
    pub decision: &'static str,
    /// One sentence a player understands, e.g. "Choose up to 3 cards to shuffle back".
    pub text: Cow<'static, str>,
    /// Fewest things to choose, when the decision is a choice of several.
    pub min: Option<u32>,
    /// Most things to choose, when the decision is a choice of several.
    pub max: Option<u32>,
}

impl Prompt {
    /// A decision named `decision`, described by `text`.
    pub fn new(decision: &'static str, text: impl Into<Cow<'static, str>>) -> Prompt {
        Prompt {
            decision,
            text: text.into(),
            min: None,
            max: None,
        }
    }

    /// The prompt of a plain turn: any of the legal actions.
    pub fn turn() -> Prompt {
        Prompt::new("turn", "Your turn: choose one of your legal actions.")
    }

    /// Choose from `min` to `max` things.
    pub fn between(mut self, min: u32, max: u32) -> Prompt {
        self.min = Some(min);
        self.max = Some(max);
        self
    }
}

impl Prompt {
    /// The prompt as shown at `/prompt`, built directly (the server builds one per awaited
    /// seat for every change); the same value [`to_view`](crate::view::to_view) makes of it.
    pub fn to_view_value(&self) -> ViewValue {
        let text = match &self.text {
            Cow::Borrowed(text) => Text::Lit(text),
            Cow::Owned(text) => Text::new(text),
        };
        let mut pairs: Vec<(Key, ViewValue)> = Vec::with_capacity(4);
        pairs.push((Key::Borrowed("decision"), self.decision.into()));
        if let Some(max) = self.max {
            pairs.push((Key::Borrowed("max"), max.into()));
        }
        if let Some(min) = self.min {
            pairs.push((Key::Borrowed("min"), min.into()));
        }
        pairs.push((Key::Borrowed("text"), ViewValue::Str(text)));
        ViewValue::Object(pairs)
    }
}

/// `{"decision", "max"?, "min"?, "text"}`; literal text is borrowed by the view.
impl Serialize for Prompt {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Text<'a>(&'a Cow<'static, str>);
        impl Serialize for Text<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self.0 {
                    Cow::Borrowed(text) => literal(text, serializer),
                    Cow::Owned(text) => serializer.serialize_str(text),
                }
            }
        }
        let len = 2 + usize::from(self.min.is_some()) + usize::from(self.max.is_some());
        let mut s = serializer.serialize_struct("Prompt", len)?;
        s.serialize_field("decision", &Literal(self.decision))?;
        if let Some(max) = self.max {
            s.serialize_field("max", &max)?;
        }
        if let Some(min) = self.min {
            s.serialize_field("min", &min)?;
        }
        s.serialize_field("text", &Text(&self.text))?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::to_view;

    #[test]
    fn the_direct_view_is_the_serialized_view() {
        for prompt in [
            Prompt::turn(),
            Prompt::new("bid", format!("Bid for {} points", 7)).between(1, 2),
        ] {
            let direct = prompt.to_view_value();
            assert_eq!(direct, to_view(&prompt).expect("prompts make views"));
            assert_eq!(
                direct.to_json(),
                serde_json::to_string(&prompt).expect("prompts serialize")
            );
        }
    }
}
