//! The `create` options of a synergy battle: mode and decks, validated with a clear message
//! for every refusal.

use serde_json::Value;

use super::cards::{self, CardDef, POOL};
use crate::ruleset::OptionsError;

/// Fewest cards a configured deck may hold: one opening hand.
pub const MIN_DECK: usize = 5;
/// Most cards a deck may hold (spec metadata: maximum 12).
pub const MAX_DECK: usize = 12;

/// Who plays the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A person (seat 0) against the Training Automaton (seat 1).
    Pve,
    /// Two people.
    Pvp,
}

impl Mode {
    /// The option value and view value: "pve" or "pvp".
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Pve => "pve",
            Mode::Pvp => "pvp",
        }
    }
}

/// Validated options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// PvE or PvP.
    pub mode: Mode,
    /// Seat 0's deck, in the order given (it is shuffled at battle start).
    pub deck: Vec<&'static CardDef>,
    /// Seat 1's deck.
    pub opponent_deck: Vec<&'static CardDef>,
}

const KEYS: [&str; 3] = ["mode", "deck", "opponent_deck"];

/// The default deck: each pool card once (also the Training Automaton's fixed deck, spec 7.1).
pub fn pool_deck() -> Vec<&'static CardDef> {
    POOL.iter().collect()
}

impl Options {
    /// Reads options; JSON `null` and `{}` both mean every default.
    pub fn parse(value: &Value) -> Result<Options, OptionsError> {
        let empty = serde_json::Map::new();
        let map = match value {
            Value::Null => &empty,
            Value::Object(map) => map,
            other => {
                return Err(err(format!(
                    "options must be a JSON object (or null), not {}",
                    kind_of(other)
                )))
            }
        };
        if let Some(key) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(err(format!(
                "unknown option \"{key}\"; the options are mode, deck and opponent_deck"
            )));
        }
        let mode = match map.get("mode") {
            None => Mode::Pve,
            Some(Value::String(s)) if s == "pve" => Mode::Pve,
            Some(Value::String(s)) if s == "pvp" => Mode::Pvp,
            Some(Value::String(s)) => {
                return Err(err(format!(
                    "unknown mode \"{s}\"; mode must be \"pve\" or \"pvp\""
                )))
            }
            Some(other) => {
                return Err(err(format!(
                    "mode must be the string \"pve\" or \"pvp\", not {}",
                    kind_of(other)
                )))
            }
        };
        let deck = match map.get("deck") {
            None => pool_deck(),
            Some(v) => parse_deck("deck", v)?,
        };
        let opponent_deck = match (mode, map.get("opponent_deck")) {
            (_, None) => pool_deck(),
            (Mode::Pve, Some(_)) => {
                return Err(err(
                    "opponent_deck is only allowed with mode \"pvp\": in PvE the Training \
                     Automaton always plays the fixed 10-card pool (spec 7.1)"
                        .to_string(),
                ))
            }
            (Mode::Pvp, Some(v)) => parse_deck("opponent_deck", v)?,
        };
        Ok(Options {
            mode,
            deck,
            opponent_deck,
        })
    }
}

fn parse_deck(key: &str, value: &Value) -> Result<Vec<&'static CardDef>, OptionsError> {
    let Value::Array(items) = value else {
        return Err(err(format!(
            "{key} must be an array of card ids such as \"C001\", not {}",
            kind_of(value)
        )));
    };
    if items.len() < MIN_DECK || items.len() > MAX_DECK {
        return Err(err(format!(
            "{key} has {} cards; a deck must hold {MIN_DECK} to {MAX_DECK} cards",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(id) => cards::find(id).ok_or_else(|| {
                err(format!(
                    "{key}[{i}] is \"{id}\", which is not a card; the cards are C001 to C010"
                ))
            }),
            other => Err(err(format!(
                "{key}[{i}] must be a card id string such as \"C001\", not {}",
                kind_of(other)
            ))),
        })
        .collect()
}

fn err(msg: String) -> OptionsError {
    OptionsError(msg)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
