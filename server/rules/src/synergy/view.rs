//! The JSON view, built once for every viewer. A hand is marked for its own seat alone (so
//! only that seat is ever sent it); draw and discard piles are only counts; the log names no
//! card that a viewer cannot see. Keys are stable and the log
//! only grows, so successive views diff into small patches.

use super::cards::Sigil;
use super::deck::Card;
use super::side::Side;
use super::state::Battle;
use super::ROUND_LIMIT;
use crate::view::value::{Key, ViewValue};
use crate::view::viewers::Viewers;

fn card_view(side: &Side, card: &Card) -> ViewValue {
    let def = card.def;
    ViewValue::object([
        ("card", def.id.into()),
        ("cost", def.cost.into()),
        ("id", card.id.into()),
        ("name", def.name.into()),
        ("sigil", def.sigil.as_str().into()),
        ("synergy", side.would_synergize(def.sigil).into()),
        ("type", def.kind.as_str().into()),
        ("value", def.value.into()),
    ])
}

fn side_view(side: &Side, seat: usize) -> ViewValue {
    let count = |sigil: Sigil| ViewValue::from(side.sigil_count(sigil));
    let sigils = ViewValue::object([
        ("Flame", count(Sigil::Flame)),
        ("Gear", count(Sigil::Gear)),
        ("Leaf", count(Sigil::Leaf)),
        ("Void", count(Sigil::Void)),
    ]);
    let hand = ViewValue::List(
        side.zones
            .hand
            .iter()
            .map(|card| card_view(side, card))
            .collect(),
    );
    // Built as the object's own pairs (one allocation); keys in sorted order.
    let mut pairs: Vec<(Key, ViewValue)> = Vec::with_capacity(15);
    let mut put = |key: &'static str, value: ViewValue| pairs.push((Key::Borrowed(key), value));
    put("block", side.block.into());
    put("deck_size", side.deck_size.into());
    put("discard_count", side.zones.discard.len().into());
    put("draw_count", side.zones.draw.len().into());
    put("energy", side.energy.into());
    put("focus", side.focus.into());
    // Only the side's own seat sees its hand; the key sits where a sorted map keeps it.
    put("hand", ViewValue::Only(Viewers::seat(seat), Box::new(hand)));
    put("hand_count", side.zones.hand.len().into());
    put("hp", side.hp.into());
    put("max_hp", side.max_hp.into());
    put("name", side.name.into());
    put("score", side.score.into());
    put("sigils", sigils);
    put("spectrum_bonus_taken", side.spectrum_taken.into());
    put("turn_multiplier", side.multiplier.into());
    ViewValue::Object(pairs)
}

impl Battle {
    /// Every viewer's view (see [`Ruleset::view_all`](crate::ruleset::Ruleset::view_all)).
    pub fn view_all(&self) -> ViewValue {
        let sides: Vec<ViewValue> = self
            .sides
            .iter()
            .enumerate()
            .map(|(seat, side)| side_view(side, seat))
            .collect();
        let result = match &self.result {
            None => ViewValue::Null,
            Some(result) => ViewValue::object([
                (
                    "final_scores",
                    ViewValue::List(result.final_scores.iter().map(|&s| s.into()).collect()),
                ),
                ("summary", ViewValue::text(result.summary.as_str())),
                ("winner", result.winner.into()),
            ]),
        };
        ViewValue::object([
            ("active", self.active_seat().into()),
            ("mode", self.mode.as_str().into()),
            ("result", result),
            ("round", self.round.into()),
            ("round_limit", ROUND_LIMIT.into()),
            ("sides", ViewValue::List(sides)),
            ("state", self.phase.as_str().into()),
        ])
    }
}
