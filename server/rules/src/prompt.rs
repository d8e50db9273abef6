//! [`Prompt`]: what a seat whose decision the battle awaits is being asked, shown at
//! `/prompt` of that seat's view.

use std::borrow::Cow;

use crate::view::{Key, Text, ViewValue};

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
    /// The prompt as shown at `/prompt`: `{"decision", "max"?, "min"?, "text"}`. Built
    /// directly (the server builds one per awaited seat for every change); literal text is
    /// borrowed.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_show_what_is_decided_and_how_many() {
        assert_eq!(
            Prompt::turn().to_view_value().to_json(),
            r#"{"decision":"turn","text":"Your turn: choose one of your legal actions."}"#
        );
        let bid = Prompt::new("bid", format!("Bid for {} points", 7)).between(1, 2);
        assert_eq!(
            bid.to_view_value().to_json(),
            r#"{"decision":"bid","max":2,"min":1,"text":"Bid for 7 points"}"#
        );
        let Some(ViewValue::Str(text)) = Prompt::turn().to_view_value().get("text").cloned() else {
            panic!("the text is text");
        };
        assert!(text.as_static_str().is_some(), "a literal is borrowed");
    }
}
