//! What a synergy battle is created with (the mode) and what each player brings to a seat
//! (a deck), with the checks that refuse anything else in a sentence that names the problem.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::cards::{self, CardDef, POOL};
use crate::error::SetupError;

/// Fewest cards a deck may hold: one opening hand.
pub const MIN_DECK: usize = 5;
/// Most cards a deck may hold (spec metadata: maximum 12).
pub const MAX_DECK: usize = 12;

/// Who plays the battle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person (seat 0) against the Training Automaton (seat 1).
    #[default]
    Pve,
    /// Two people.
    Pvp,
}

/// The `create` options: `{"mode": "pve" | "pvp"}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// PvE (default) or PvP.
    #[serde(default)]
    pub mode: Mode,
}

/// What a player brings to a seat with `join`: `{"deck": ["C001", ...]}`, 5 to 12 card ids
/// (duplicates allowed). Without a deck the seat plays the pool, each card once.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Card ids, in the order given (the deck is shuffled when the battle starts).
    #[serde(default)]
    pub deck: Option<Vec<String>>,
}

/// The default deck: each pool card once (also the Training Automaton's fixed deck, spec 7.1).
pub fn pool_deck() -> Vec<&'static CardDef> {
    POOL.iter().collect()
}

impl Setup {
    /// The deck this setup plays, or why it is refused. `seat` and `mode` decide whether a
    /// deck may be chosen at all: the Training Automaton always plays the pool.
    pub fn deck(&self, mode: Mode, seat: Seat) -> Result<Vec<&'static CardDef>, SetupError> {
        let err = |text: String| Err(SetupError(text));
        let Some(ids) = &self.deck else {
            return Ok(pool_deck());
        };
        if mode == Mode::Pve && seat == 1 {
            return err(
                "the Training Automaton always plays the fixed 10-card pool (spec 7.1)".into(),
            );
        }
        if !(MIN_DECK..=MAX_DECK).contains(&ids.len()) {
            let n = ids.len();
            let cards = if n == 1 { "card" } else { "cards" };
            return err(format!(
                "the deck has {n} {cards}; a deck must hold {MIN_DECK} to {MAX_DECK} cards"
            ));
        }
        ids.iter()
            .enumerate()
            .map(|(i, id)| {
                cards::find(id).ok_or_else(|| {
                    SetupError(format!(
                        "deck[{i}] is \"{id}\", which is not a card; the cards are C001 to C010"
                    ))
                })
            })
            .collect()
    }
}
