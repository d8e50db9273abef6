//! The view, built once for every viewer: each seat's hand and sealed bid are marked for that
//! seat alone until the reveal; everything else (points, cards left, who has bid, signals,
//! revealed rounds) is public.

use serde::Serialize;

use super::play::Mood;
use super::state::{Bidder, Blind, Phase, Revealed};
use crate::view::Only;

/// The whole battle.
#[derive(Serialize)]
pub struct BlindView<'a> {
    state: Phase,
    round: u8,
    rounds: u8,
    /// This round's prize.
    prize: u8,
    seats: Vec<SeatView<'a>>,
    /// The House's points (one-seat game), else `null`.
    house: Option<u32>,
    /// Every revealed round, oldest first.
    revealed: &'a [Revealed],
    /// The result sentence, once over.
    result: Option<&'a str>,
}

/// One seat: public counts, and its own cards.
#[derive(Serialize)]
struct SeatView<'a> {
    name: &'a str,
    points: u32,
    cards_left: usize,
    has_bid: bool,
    signal: Option<Mood>,
    /// The seat's cards, for the seat alone.
    hand: Only<&'a [u8]>,
    /// This round's sealed bid, for the seat alone until the reveal.
    sealed: Only<Option<&'a [u8]>>,
}

fn seat_view(seat: usize, bidder: &Bidder) -> SeatView<'_> {
    SeatView {
        name: &bidder.name,
        points: bidder.points,
        cards_left: bidder.hand.len(),
        has_bid: bidder.bid.is_some(),
        signal: bidder.signal,
        hand: Only::seat(seat, &bidder.hand),
        sealed: Only::seat(seat, bidder.bid.as_deref()),
    }
}

impl Blind {
    /// Every viewer's view (see [`Game::view`](crate::game::Game::view)).
    pub fn view_all(&self) -> BlindView<'_> {
        BlindView {
            state: self.phase,
            round: self.round,
            rounds: self.rounds,
            prize: if self.phase == Phase::Over {
                0
            } else {
                self.prize
            },
            seats: self
                .bidders
                .iter()
                .enumerate()
                .map(|(seat, bidder)| seat_view(seat, bidder))
                .collect(),
            house: self.house,
            revealed: &self.revealed,
            result: self.summary.as_deref(),
        }
    }
}
