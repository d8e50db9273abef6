//! The `create` options (none yet) and what a player brings to a seat: a class.

use serde::Deserialize;

use super::cards::{find, Card};
use super::classes::{class, Class, BARBARIAN};
use crate::error::SetupError;

/// `create` options: none; `null` or `{}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {}

/// Cards in a deck (spec).
pub const DECK_SIZE: usize = 40;
/// Most copies of one card a deck a player brings may hold (decision).
pub const MAX_COPIES: usize = 4;

/// What a player brings to a seat: a class (`barbarian` or `mage`; the default is the
/// Barbarian) and, if it likes, its own deck of 40 cards of that class (by card id; at most
/// 4 copies of a card); without one it plays the class's ready deck.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The class id.
    #[serde(default)]
    pub class: Option<String>,
    /// The deck, as card ids.
    #[serde(default)]
    pub deck: Option<Vec<String>>,
}

impl Setup {
    /// The deck this setup brings (`None`: the class's ready deck), or why it is refused.
    pub fn deck(&self) -> Result<Option<Vec<&'static Card>>, SetupError> {
        let Some(ids) = &self.deck else {
            return Ok(None);
        };
        let class = self.class()?;
        if ids.len() != DECK_SIZE {
            return Err(SetupError(format!(
                "the deck has {} cards; a deck holds {DECK_SIZE}",
                ids.len()
            )));
        }
        let mut cards = Vec::with_capacity(DECK_SIZE);
        for (i, id) in ids.iter().enumerate() {
            let in_class = class.deck.iter().any(|(c, _)| *c == id.as_str());
            let card = find(id).filter(|_| in_class).ok_or_else(|| {
                SetupError(format!(
                    "deck[{i}] is \"{id}\", which is not a {} card",
                    class.name
                ))
            })?;
            if ids.iter().filter(|x| *x == id).count() > MAX_COPIES {
                return Err(SetupError(format!(
                    "the deck holds more than {MAX_COPIES} copies of \"{id}\""
                )));
            }
            cards.push(card);
        }
        Ok(Some(cards))
    }

    /// The class this setup picks, or why not.
    pub fn class(&self) -> Result<&'static Class, SetupError> {
        match &self.class {
            None => Ok(&BARBARIAN),
            Some(id) => class(id).ok_or_else(|| {
                SetupError(format!(
                    "\"{id}\" is not a class; the classes are barbarian and mage"
                ))
            }),
        }
    }
}
