//! The per-viewer JSON view. A hand is shown only to its own seat; draw and discard piles are
//! only counts; the log names no card that a viewer cannot see. Keys are stable and the log
//! only grows, so successive views diff into small patches.

use serde_json::{Map, Value};

use super::deck::Card;
use super::side::Side;
use super::state::Battle;
use super::ROUND_LIMIT;
use crate::ruleset::Viewer;

/// A JSON object from `(key, value)` pairs, built directly (cheaper than `json!`, which goes
/// through the generic serializer for every field).
pub(super) fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn card_json(side: &Side, card: &Card) -> Value {
    let def = card.def;
    object([
        ("id", card.id.into()),
        ("card", def.id.into()),
        ("name", def.name.into()),
        ("type", def.kind.as_str().into()),
        ("cost", def.cost.into()),
        ("value", def.value.into()),
        ("sigil", def.sigil.as_str().into()),
        ("synergy", side.would_synergize(def.sigil).into()),
    ])
}

fn side_json(side: &Side, show_hand: bool) -> Value {
    let mut sigils = Map::new();
    for sigil in super::cards::Sigil::ALL {
        sigils.insert(sigil.as_str().into(), side.sigil_count(sigil).into());
    }
    let mut out = object([
        ("name", side.name.into()),
        ("hp", side.hp.into()),
        ("max_hp", side.max_hp.into()),
        ("block", side.block.into()),
        ("energy", side.energy.into()),
        ("score", side.score.into()),
        ("turn_multiplier", side.multiplier.into()),
        ("spectrum_bonus_taken", side.spectrum_taken.into()),
        ("focus", side.focus.into()),
        ("sigils", Value::Object(sigils)),
        ("hand_count", side.zones.hand.len().into()),
        ("draw_count", side.zones.draw.len().into()),
        ("discard_count", side.zones.discard.len().into()),
        ("deck_size", side.deck_size.into()),
    ]);
    if show_hand {
        let hand: Vec<Value> = side
            .zones
            .hand
            .iter()
            .map(|card| card_json(side, card))
            .collect();
        out["hand"] = Value::Array(hand);
    }
    out
}

impl Battle {
    /// The whole view for `viewer`.
    pub fn view_for(&self, viewer: Viewer) -> Value {
        let sides: Vec<Value> = self
            .sides
            .iter()
            .enumerate()
            .map(|(seat, side)| side_json(side, viewer == Viewer::Seat(seat)))
            .collect();
        let result = match &self.result {
            None => Value::Null,
            Some(result) => object([
                ("winner", result.winner.into()),
                (
                    "final_scores",
                    Value::Array(result.final_scores.iter().map(|&s| s.into()).collect()),
                ),
                ("summary", result.summary.as_str().into()),
            ]),
        };
        object([
            ("mode", self.mode.as_str().into()),
            ("state", self.phase.as_str().into()),
            ("round", self.round.into()),
            ("round_limit", ROUND_LIMIT.into()),
            ("active", self.active_seat().into()),
            ("sides", Value::Array(sides)),
            (
                "log",
                Value::Array(self.log.iter().cloned().map(Value::String).collect()),
            ),
            ("result", result),
        ])
    }
}
