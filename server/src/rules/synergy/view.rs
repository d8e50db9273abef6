//! The per-viewer JSON view. A hand is shown only to its own seat; draw and discard piles are
//! only counts; the log names no card that a viewer cannot see. Keys are stable and the log
//! only grows, so successive views diff into small patches.

use std::sync::OnceLock;

use serde_json::Value;

use super::cards::Sigil;
use super::deck::Card;
use super::side::Side;
use super::state::Battle;
use super::ROUND_LIMIT;
use crate::ruleset::Viewer;

/// A JSON object from `(key, value)` pairs.
pub(super) fn object<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A JSON object with fixed keys, listed in sorted order. Views are built many times per
/// action, so each object is a clone of a cached template whose values are then filled in key
/// order; that is several times cheaper than building the map key by key.
struct Shape<const N: usize> {
    keys: [&'static str; N],
    template: OnceLock<Value>,
}

/// Whether `keys` are in strictly ascending byte order (the order a JSON map keeps them).
const fn sorted(keys: &[&str]) -> bool {
    let mut i = 1;
    while i < keys.len() {
        let (a, b) = (keys[i - 1].as_bytes(), keys[i].as_bytes());
        let mut j = 0;
        loop {
            if j == a.len() || j == b.len() {
                if a.len() >= b.len() {
                    return false;
                }
                break;
            }
            if a[j] != b[j] {
                if a[j] > b[j] {
                    return false;
                }
                break;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

impl<const N: usize> Shape<N> {
    const fn new(keys: [&'static str; N]) -> Shape<N> {
        assert!(sorted(&keys), "shape keys must be listed in sorted order");
        Shape {
            keys,
            template: OnceLock::new(),
        }
    }

    /// The object with `values`, given in the same order as the keys.
    fn fill(&self, values: [Value; N]) -> Value {
        let template = self.template.get_or_init(|| {
            Value::Object(
                self.keys
                    .iter()
                    .map(|k| (k.to_string(), Value::Null))
                    .collect(),
            )
        });
        let mut out = template.clone();
        if let Value::Object(map) = &mut out {
            for (slot, value) in map.values_mut().zip(values) {
                *slot = value;
            }
        }
        out
    }
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
