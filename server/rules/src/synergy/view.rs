//! The view, built once for every viewer from plain structs. A hand is marked for its own
//! seat alone (so only that seat is ever sent it); draw and discard piles are only counts; the
//! log names no card that a viewer cannot see. Keys are stable and the log only grows, so
//! successive views diff into small patches.

use battle_protocol::Seat;
use serde::Serialize;

use super::cards::{CardType, Sigil};
use super::deck::Card;
use super::options::Mode;
use super::score::Settlement;
use super::side::Side;
use super::state::{Battle, Phase};
use super::ROUND_LIMIT;
use crate::view::{literal, Only};

/// The whole battle as every viewer sees it (each hand marked for its seat).
#[derive(Serialize)]
pub struct BattleView<'a> {
    /// The seat whose turn it is.
    active: Option<Seat>,
    mode: Mode,
    result: Option<ResultView<'a>>,
    round: u32,
    round_limit: u32,
    sides: [SideView<'a>; 2],
    state: Phase,
}

/// The settled result.
#[derive(Serialize)]
struct ResultView<'a> {
    /// How each seat's final score was reached from its running score.
    breakdown: [Settlement; 2],
    final_scores: [u32; 2],
    summary: &'a str,
    winner: Option<Seat>,
}

/// One side: everything public, and its hand for its own seat only.
#[derive(Serialize)]
struct SideView<'a> {
    block: u32,
    deck_size: usize,
    discard_count: usize,
    draw_count: usize,
    energy: u32,
    focus: u32,
    hand: Only<Vec<CardView>>,
    hand_count: usize,
    hp: u32,
    max_hp: u32,
    /// The seat's name, as the log gives it.
    name: &'a str,
    score: u32,
    sigils: SigilCounts,
    spectrum_bonus_taken: bool,
    turn_multiplier: u32,
}

/// This turn's count of each sigil.
#[derive(Serialize)]
#[allow(non_snake_case)] // the keys are the sigils' names
struct SigilCounts {
    Flame: u32,
    Gear: u32,
    Leaf: u32,
    Void: u32,
}

/// A card in its owner's hand.
#[derive(Serialize)]
struct CardView {
    /// The pool id, e.g. "C001".
    #[serde(serialize_with = "literal")]
    card: &'static str,
    cost: u32,
    /// The instance id, which `play_card` names.
    id: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    sigil: Sigil,
    /// Whether playing it now would trigger its sigil's synergy.
    synergy: bool,
    /// What the card does, in words.
    #[serde(serialize_with = "literal")]
    text: &'static str,
    #[serde(rename = "type")]
    kind: CardType,
    value: u32,
}

fn card_view(side: &Side, card: &Card) -> CardView {
    let def = card.def;
    CardView {
        card: def.id,
        cost: def.cost,
        id: card.id,
        name: def.name,
        sigil: def.sigil,
        synergy: side.would_synergize(def.sigil),
        text: def.text,
        kind: def.kind,
        value: def.value,
    }
}

fn side_view(side: &Side, seat: Seat) -> SideView<'_> {
    // Card ids and card names are literals of the card pool: the view borrows them
    // (`literal`) instead of copying them.
    let count = |sigil: Sigil| side.sigil_count(sigil);
    SideView {
        block: side.block,
        deck_size: side.deck_size,
        discard_count: side.zones.discard.len(),
        draw_count: side.zones.draw.len(),
        energy: side.energy,
        focus: side.focus,
        hand: Only::seat(
            seat,
            side.zones
                .hand
                .iter()
                .map(|card| card_view(side, card))
                .collect(),
        ),
        hand_count: side.zones.hand.len(),
        hp: side.hp,
        max_hp: side.max_hp,
        name: &side.name,
        score: side.score,
        sigils: SigilCounts {
            Flame: count(Sigil::Flame),
            Gear: count(Sigil::Gear),
            Leaf: count(Sigil::Leaf),
            Void: count(Sigil::Void),
        },
        spectrum_bonus_taken: side.spectrum_taken,
        turn_multiplier: side.multiplier,
    }
}

impl Battle {
    /// Every viewer's view (see [`Game::view`](crate::game::Game::view)).
    pub fn view_all(&self) -> BattleView<'_> {
        BattleView {
            active: self.active_seat(),
            mode: self.mode,
            result: self.result.as_ref().map(|result| ResultView {
                breakdown: result.breakdown,
                final_scores: result.final_scores,
                summary: &result.summary,
                winner: result.winner,
            }),
            round: self.round,
            round_limit: ROUND_LIMIT,
            sides: [side_view(&self.sides[0], 0), side_view(&self.sides[1], 1)],
            state: self.phase,
        }
    }
}
