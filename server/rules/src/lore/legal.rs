//! Everything a seat may do now, as the envelope's `legal` list: whole actions, and open
//! ones where the player fills something in (the cards to put back, the character an
//! action or a triggered ability chooses, the target of a challenge).

use battle_protocol::Seat;

use super::cards::Kind;
use super::moves::Action;
use super::state::{Lore, Phase, OPENING_HAND};
use crate::legal::{Legal, Open};
use crate::param::Param;
use crate::view::ViewValue;

fn ids(ids: impl IntoIterator<Item = u32>) -> Vec<ViewValue> {
    ids.into_iter().map(ViewValue::from).collect()
}

impl Lore {
    /// `seat`'s legal entries now (none unless it is awaited).
    pub fn legal_for(&self, seat: Seat) -> Vec<Legal<Action>> {
        let mut legal = Vec::new();
        if seat > 1 || !self.awaited().contains(&seat) {
            return legal;
        }
        if self.phase == Phase::Mulligan {
            let hand = self.sides[seat].hand.iter().map(|h| h.id);
            legal.push(Legal::Open(
                Open::new("mulligan").choose("cards", Param::subset(ids(hand), 0, OPENING_HAND)),
            ));
        } else if !self.bag.is_empty() {
            self.bag_legal(seat, &mut legal);
        } else if self.phase == Phase::Main {
            self.main_legal(seat, &mut legal);
        }
        legal
    }

    /// One entry per trigger of `seat` in the bag: whole when it chooses no character (or
    /// has none to choose), open on the character otherwise.
    fn bag_legal(&self, seat: Seat, legal: &mut Vec<Legal<Action>>) {
        for pending in self.bag.iter().filter(|p| p.owner == seat) {
            let choices = pending
                .ability
                .effect
                .chooses()
                .map(|whom| self.choices(seat, whom))
                .unwrap_or_default();
            legal.push(if choices.is_empty() {
                Legal::Act(Action::Resolve {
                    trigger: pending.id,
                    target: None,
                })
            } else {
                Legal::Open(
                    Open::new("resolve")
                        .fixed("trigger", pending.id)
                        .choose("target", Param::OneOf(ids(choices))),
                )
            });
        }
    }

    fn main_legal(&self, seat: Seat, legal: &mut Vec<Legal<Action>>) {
        let side = &self.sides[seat];
        if !side.inked {
            for held in side.hand.iter().filter(|h| h.card.inkable) {
                legal.push(Legal::Act(Action::Ink { card: held.id }));
            }
        }
        for held in side.hand.iter().filter(|h| h.card.cost <= side.ink_ready) {
            let choices = held
                .card
                .played_choice()
                .map(|whom| self.choices(seat, whom))
                .unwrap_or_default();
            legal.push(if choices.is_empty() {
                Legal::Act(Action::Play {
                    card: held.id,
                    target: None,
                })
            } else {
                Legal::Open(
                    Open::new("play")
                        .fixed("card", held.id)
                        .choose("target", Param::OneOf(ids(choices))),
                )
            });
        }
        let targets = self.challenge_targets(seat);
        for card in self.play.iter().filter(|c| c.owner == seat && c.can_act()) {
            legal.push(Legal::Act(Action::Quest { character: card.id }));
            if !targets.is_empty() {
                legal.push(Legal::Open(
                    Open::new("challenge")
                        .fixed("challenger", card.id)
                        .choose("target", Param::OneOf(ids(targets.iter().copied()))),
                ));
            }
        }
        legal.push(Legal::Act(Action::PassTurn {}));
    }

    /// What `seat`'s characters may challenge: exerted opposing characters and opposing
    /// locations.
    pub fn challenge_targets(&self, seat: Seat) -> Vec<u32> {
        self.play
            .iter()
            .filter(|c| c.owner != seat)
            .filter(|c| {
                (c.is_character() && c.exerted) || matches!(c.card.kind, Kind::Location { .. })
            })
            .map(|c| c.id)
            .collect()
    }
}
