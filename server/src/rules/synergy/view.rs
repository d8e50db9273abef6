//! The per-viewer JSON view. A hand is shown only to its own seat; draw and discard piles are
//! only counts; the log names no card that a viewer cannot see. Keys are stable and the log
//! only grows, so successive views diff into small patches.

use serde_json::{json, Map, Value};

use super::deck::Card;
use super::side::Side;
use super::state::Battle;
use super::ROUND_LIMIT;
use crate::ruleset::Viewer;

fn card_json(side: &Side, card: &Card) -> Value {
    let def = card.def;
    json!({
        "id": card.id,
        "card": def.id,
        "name": def.name,
        "type": def.kind.as_str(),
        "cost": def.cost,
        "value": def.value,
        "sigil": def.sigil.as_str(),
        "synergy": side.would_synergize(def.sigil),
    })
}

fn side_json(side: &Side, show_hand: bool) -> Value {
    let mut sigils = Map::new();
    for sigil in super::cards::Sigil::ALL {
        sigils.insert(sigil.as_str().into(), json!(side.sigil_count(sigil)));
    }
    let mut out = json!({
        "name": side.name,
        "hp": side.hp,
        "max_hp": side.max_hp,
        "block": side.block,
        "energy": side.energy,
        "score": side.score,
        "turn_multiplier": side.multiplier,
        "spectrum_bonus_taken": side.spectrum_taken,
        "focus": side.focus,
        "sigils": sigils,
        "hand_count": side.zones.hand.len(),
        "draw_count": side.zones.draw.len(),
        "discard_count": side.zones.discard.len(),
        "deck_size": side.deck_size,
    });
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
            Some(result) => json!({
                "winner": result.winner,
                "final_scores": result.final_scores,
                "summary": result.summary,
            }),
        };
        json!({
            "mode": self.mode.as_str(),
            "state": self.phase.as_str(),
            "round": self.round,
            "round_limit": ROUND_LIMIT,
            "active": self.active_seat(),
            "sides": sides,
            "log": self.log,
            "result": result,
        })
    }
}
