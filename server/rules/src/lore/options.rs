//! The `create` options (none) and what a player brings to a seat: a ready deck by id, or
//! its own 60 cards.

use serde::Deserialize;

use super::cards::Card;
use super::decks::{check_deck, ready_deck, READY_DECKS};
use crate::error::SetupError;

/// `create` options: none; `null` or `{}`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {}

/// What a player brings to a seat: `ready_deck`, the id of a ready deck (`emberfall` or
/// `tidewater`), or `deck`, its own 60 card ids (at most 4 copies of each); not both. With
/// neither, seat 0 plays Emberfall and seat 1 Tidewater.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// A ready deck's id.
    #[serde(default)]
    pub ready_deck: Option<String>,
    /// The player's own deck, as card ids.
    #[serde(default)]
    pub deck: Option<Vec<String>>,
}

impl Setup {
    /// The 60 cards this setup brings for `seat`, in list order, or why it is refused.
    pub fn cards(&self, seat: usize) -> Result<Vec<&'static Card>, SetupError> {
        match (&self.ready_deck, &self.deck) {
            (Some(_), Some(_)) => Err(SetupError(
                "bring either a ready_deck or your own deck, not both".into(),
            )),
            (None, Some(ids)) => check_deck(ids),
            (Some(id), None) => ready_deck(id).map(|deck| deck.list()).ok_or_else(|| {
                SetupError(format!(
                    "\"{id}\" is not a ready deck; the ready decks are emberfall and tidewater"
                ))
            }),
            (None, None) => Ok(READY_DECKS[seat % READY_DECKS.len()].list()),
        }
    }
}
