//! The per-viewer JSON view. A hand is shown only to its own seat; draw and discard piles are
//! only counts; the log names no card that a viewer cannot see. Keys are stable and the log
//! only grows, so successive views diff into small patches.

use serde_json::Value;

use super::cards::Sigil;
use super::deck::Card;
use super::side::Side;
use super::state::Battle;
use super::ROUND_LIMIT;
use crate::json_shape::Shape;
use crate::ruleset::Viewer;

/// A JSON object from `(key, value)` pairs.
pub(super) fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

static CARD: Shape<8> = Shape::new([
    "card", "cost", "id", "name", "sigil", "synergy", "type", "value",
]);

static SIDE: Shape<14> = Shape::new([
    "block",
    "deck_size",
    "discard_count",
    "draw_count",
    "energy",
    "focus",
    "hand_count",
    "hp",
    "max_hp",
    "name",
    "score",
    "sigils",
    "spectrum_bonus_taken",
    "turn_multiplier",
]);

static SIGILS: Shape<4> = Shape::new(["Flame", "Gear", "Leaf", "Void"]);

static BATTLE: Shape<7> = Shape::new([
    "active",
    "mode",
    "result",
    "round",
    "round_limit",
    "sides",
    "state",
]);

fn card_json(side: &Side, card: &Card) -> Value {
    let def = card.def;
    CARD.fill([
        def.id.into(),
        def.cost.into(),
        card.id.into(),
        def.name.into(),
        def.sigil.as_str().into(),
        side.would_synergize(def.sigil).into(),
        def.kind.as_str().into(),
        def.value.into(),
    ])
}

fn side_json(side: &Side, show_hand: bool) -> Value {
    let count = |sigil: Sigil| Value::from(side.sigil_count(sigil));
    let sigils = SIGILS.fill([
        count(Sigil::Flame),
        count(Sigil::Gear),
        count(Sigil::Leaf),
        count(Sigil::Void),
    ]);
    let mut out = SIDE.fill([
        side.block.into(),
        side.deck_size.into(),
        side.zones.discard.len().into(),
        side.zones.draw.len().into(),
        side.energy.into(),
        side.focus.into(),
        side.zones.hand.len().into(),
        side.hp.into(),
        side.max_hp.into(),
        side.name.into(),
        side.score.into(),
        sigils,
        side.spectrum_taken.into(),
        side.multiplier.into(),
    ]);
    if show_hand {
        let hand: Vec<Value> = side
            .zones
            .hand
            .iter()
            .map(|card| card_json(side, card))
            .collect();
        if let Value::Object(map) = &mut out {
            map.insert("hand".to_string(), Value::Array(hand));
        }
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
        BATTLE.fill([
            self.active_seat().into(),
            self.mode.as_str().into(),
            result,
            self.round.into(),
            ROUND_LIMIT.into(),
            Value::Array(sides),
            self.phase.as_str().into(),
        ])
    }
}
