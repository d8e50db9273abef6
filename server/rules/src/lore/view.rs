//! The view, built once for every viewer (spec "Zone System"): everything in play, the
//! discards, lore, ink counts and the bag are public; each hand and each inkwell's facedown
//! cards are marked for their owner alone (the other player and spectators see counts); a
//! deck is only a count, its order in no view.

use serde::Serialize;

use super::cards::{Card, Kind};
use super::state::{Held, InPlay, Lore, Phase, WIN_LORE};
use crate::view::{literal, Only};

/// The whole game.
#[derive(Serialize)]
pub struct LoreView<'a> {
    /// Whose turn it is.
    active: usize,
    /// Triggered abilities waiting in the bag, in the order they triggered.
    bag: Vec<PendingView>,
    /// Who chooses the bag's next resolution (`null` when the bag is empty).
    chooser: Option<usize>,
    /// Who went first.
    first: usize,
    /// `mulligan`, `set`, `main`, `end`, `over`.
    #[serde(serialize_with = "literal")]
    phase: &'static str,
    result: Option<ResultView<'a>>,
    sides: [SideView; 2],
    /// Turns begun in the game.
    turn: u32,
    /// Lore that wins.
    win_lore: u32,
}

#[derive(Serialize)]
struct ResultView<'a> {
    summary: &'a str,
    winners: &'a [usize],
}

#[derive(Serialize)]
struct PendingView {
    #[serde(serialize_with = "literal")]
    card: &'static str,
    id: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    owner: usize,
    source: u32,
    #[serde(serialize_with = "literal")]
    text: &'static str,
}

/// A card in a hand, with everything about it.
#[derive(Serialize)]
struct CardView {
    #[serde(serialize_with = "literal")]
    card: &'static str,
    cost: u32,
    id: u32,
    inkable: bool,
    #[serde(serialize_with = "literal")]
    kind: &'static str,
    lore: Option<u32>,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    strength: Option<u32>,
    #[serde(serialize_with = "literal")]
    text: &'static str,
    willpower: Option<u32>,
}

fn card_view(id: u32, card: &'static Card) -> CardView {
    let (strength, willpower, lore) = match card.kind {
        Kind::Character {
            strength,
            willpower,
            lore,
        } => (Some(strength), Some(willpower), Some(lore)),
        Kind::Location { willpower, lore } => (None, Some(willpower), Some(lore)),
        Kind::Action(_) | Kind::Item => (None, None, None),
    };
    CardView {
        card: card.id,
        cost: card.cost,
        id,
        inkable: card.inkable,
        kind: card.kind_name(),
        lore,
        name: card.name,
        strength,
        text: card.text,
        willpower,
    }
}

/// A card in a discard or an inkwell: which card it is (its text is in the hand's and
/// play's views of the same card, and in `docs/rules/lore.md`).
#[derive(Serialize)]
struct PileCard {
    #[serde(serialize_with = "literal")]
    card: &'static str,
    id: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
}

fn pile(held: &[Held]) -> Vec<PileCard> {
    held.iter()
        .map(|h| PileCard {
            card: h.card.id,
            id: h.id,
            name: h.card.name,
        })
        .collect()
}

/// A card in play, with its numbers as they are now.
#[derive(Serialize)]
struct InPlayView {
    #[serde(serialize_with = "literal")]
    card: &'static str,
    damage: u32,
    drying: bool,
    exerted: bool,
    id: u32,
    #[serde(serialize_with = "literal")]
    kind: &'static str,
    lore: Option<u32>,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    strength: Option<u32>,
    #[serde(serialize_with = "literal")]
    text: &'static str,
    willpower: Option<u32>,
}

fn in_play_view(card: &InPlay) -> InPlayView {
    let character = card.is_character();
    InPlayView {
        card: card.card.id,
        damage: card.damage,
        drying: card.drying,
        exerted: card.exerted,
        id: card.id,
        kind: card.card.kind_name(),
        lore: card.willpower().map(|_| card.lore()),
        name: card.card.name,
        strength: character.then(|| card.strength()),
        text: card.card.text,
        willpower: card.willpower(),
    }
}

#[derive(Serialize)]
struct SideView {
    deck_count: usize,
    discard: Vec<PileCard>,
    hand: Only<Vec<CardView>>,
    hand_count: usize,
    inked: bool,
    ink_ready: u32,
    ink_total: usize,
    /// The inkwell's facedown cards: their owner may look at them.
    inkwell: Only<Vec<PileCard>>,
    lore: u32,
    mulliganed: bool,
    /// Its characters, items and locations in play, in the order they came in.
    play: Vec<InPlayView>,
    /// Own turns begun.
    turns: u32,
}

impl Lore {
    /// Every viewer's view.
    pub fn view_all(&self) -> LoreView<'_> {
        let side_view = |seat: usize| {
            let side = &self.sides[seat];
            SideView {
                deck_count: side.deck.len(),
                discard: pile(&side.discard),
                hand: Only::seat(
                    seat,
                    side.hand.iter().map(|h| card_view(h.id, h.card)).collect(),
                ),
                hand_count: side.hand.len(),
                inked: side.inked,
                ink_ready: side.ink_ready,
                ink_total: side.inkwell.len(),
                inkwell: Only::seat(seat, pile(&side.inkwell)),
                lore: side.lore,
                mulliganed: side.mulliganed,
                play: self
                    .play
                    .iter()
                    .filter(|c| c.owner == seat)
                    .map(in_play_view)
                    .collect(),
                turns: side.turns,
            }
        };
        LoreView {
            active: self.active,
            bag: self
                .bag
                .iter()
                .map(|p| PendingView {
                    card: p.card.id,
                    id: p.id,
                    name: p.card.name,
                    owner: p.owner,
                    source: p.source,
                    text: p.ability.text,
                })
                .collect(),
            chooser: (!self.bag.is_empty()).then(|| self.chooser()),
            first: self.first,
            phase: match self.phase {
                Phase::Mulligan => "mulligan",
                Phase::Set => "set",
                Phase::Main => "main",
                Phase::End => "end",
                Phase::Over => "over",
            },
            result: self.finish.as_ref().map(|outcome| ResultView {
                summary: &outcome.summary,
                winners: &outcome.winners,
            }),
            sides: [side_view(0), side_view(1)],
            turn: self.turn,
            win_lore: WIN_LORE,
        }
    }
}
