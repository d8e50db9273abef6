//! The state of a Blind Bids battle and its round flow: a prize per round, sealed bids, the
//! reveal that settles each round, and the end.

use battle_protocol::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::options::Options;
use super::play::Mood;
use crate::words::Names;

/// Lowest and highest prize of a round.
pub const PRIZES: (u8, u8) = (1, 10);
/// Lowest and highest bid of the House in the one-seat game.
pub const HOUSE_BIDS: (u8, u8) = (2, 20);

/// Where the battle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Some seat has not bid this round.
    Bidding,
    /// Every seat has bid; the engine reveals next.
    Revealing,
    /// The last round was revealed.
    Over,
}

/// One seat.
#[derive(Debug, Clone)]
pub struct Bidder {
    /// "Player 1", "Player 2" (or "Player" alone against the House).
    pub name: String,
    /// Cards not bid yet, lowest first.
    pub hand: Vec<u8>,
    /// This round's sealed bid, once made.
    pub bid: Option<Vec<u8>>,
    /// This round's signal, once given.
    pub signal: Option<Mood>,
    /// Prize points won.
    pub points: u32,
}

/// A revealed round: public from the reveal on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Revealed {
    pub round: u8,
    pub prize: u8,
    /// Each seat's bid, in seat order.
    pub bids: Vec<Vec<u8>>,
    /// The House's bid (one-seat game).
    pub house: Option<u8>,
    /// Who took the prize: a seat, the House (`None` with `house_won`), or nobody on a tie.
    pub winner: Option<Seat>,
    pub house_won: bool,
}

/// A whole Blind Bids battle.
#[derive(Debug, Clone)]
pub struct Blind {
    pub(super) rounds: u8,
    /// The round under way, from 1.
    pub(super) round: u8,
    pub(super) prize: u8,
    pub(super) phase: Phase,
    pub(super) bidders: Vec<Bidder>,
    /// The House's points, in the one-seat game.
    pub(super) house: Option<u32>,
    pub(super) revealed: Vec<Revealed>,
    pub(super) log: Vec<String>,
    /// The result sentence, once over.
    pub(super) summary: Option<String>,
    /// Every prize and House bid is drawn from it.
    pub(super) rng: ChaCha8Rng,
}

/// "5 + 9 = 14", or "11" for one card.
fn describe(bid: &[u8]) -> String {
    let sum: u32 = bid.iter().map(|&c| u32::from(c)).sum();
    match bid {
        [one] => one.to_string(),
        cards => {
            let parts: Vec<String> = cards.iter().map(u8::to_string).collect();
            format!("{} = {sum}", parts.join(" + "))
        }
    }
}

/// The sum of a bid.
pub fn total(bid: &[u8]) -> u32 {
    bid.iter().map(|&c| u32::from(c)).sum()
}

impl Blind {
    /// A battle with every seat's checked hand; the first round's prize is drawn.
    pub fn new(options: &Options, seed: u64, hands: Vec<Vec<u8>>, names: &Names) -> Blind {
        let bidders = hands
            .into_iter()
            .enumerate()
            .map(|(seat, hand)| Bidder {
                name: names.of(seat),
                hand,
                bid: None,
                signal: None,
                points: 0,
            })
            .collect::<Vec<_>>();
        let solo = bidders.len() == 1;
        let mut blind = Blind {
            rounds: options.rounds,
            round: 0,
            prize: 0,
            phase: Phase::Bidding,
            bidders,
            house: solo.then_some(0),
            revealed: Vec::new(),
            log: Vec::new(),
            summary: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        let against = if solo { "the House" } else { "each other" };
        blind.log.push(format!(
            "Blind Bids begins: {} rounds, bidding against {against}.",
            blind.rounds
        ));
        blind.next_round();
        blind
    }

    /// The seats whose bid is awaited.
    pub fn awaited(&self) -> Vec<Seat> {
        if self.phase != Phase::Bidding {
            return Vec::new();
        }
        (0..self.bidders.len())
            .filter(|&seat| self.bidders[seat].bid.is_none())
            .collect()
    }

    /// Most cards `seat` may bid now: 2, or fewer when it must keep one card for each later
    /// round.
    pub fn max_bid(&self, seat: Seat) -> usize {
        let later = usize::from(self.rounds - self.round);
        self.bidders[seat].hand.len().saturating_sub(later).min(2)
    }

    /// Start the next round: draw its prize, clear bids and signals.
    fn next_round(&mut self) {
        self.round += 1;
        self.prize = self.rng.random_range(PRIZES.0..=PRIZES.1);
        for bidder in &mut self.bidders {
            bidder.bid = None;
            bidder.signal = None;
        }
        self.phase = Phase::Bidding;
        self.log.push(format!(
            "Round {} of {}: a prize of {} points.",
            self.round, self.rounds, self.prize
        ));
    }

    /// Record `seat`'s sealed bid (already checked); the reveal comes once every seat has bid.
    pub(super) fn seal(&mut self, seat: Seat, bid: Vec<u8>) {
        let bidder = &mut self.bidders[seat];
        bidder.hand.retain(|card| !bid.contains(card));
        bidder.bid = Some(bid);
        self.log.push(format!("{} has bid.", bidder.name));
        if self.bidders.iter().all(|b| b.bid.is_some()) {
            self.phase = Phase::Revealing;
        }
    }

    /// The engine's step: reveal every bid, give the prize, then the next round or the end.
    pub(super) fn reveal(&mut self) {
        let bids: Vec<Vec<u8>> = self
            .bidders
            .iter()
            .map(|b| b.bid.clone().unwrap_or_default())
            .collect();
        let house = self
            .house
            .map(|_| self.rng.random_range(HOUSE_BIDS.0..=HOUSE_BIDS.1));
        let mut sums: Vec<u32> = bids.iter().map(|bid| total(bid)).collect();
        if let Some(bid) = house {
            sums.push(u32::from(bid));
        }
        let best = sums.iter().copied().max().unwrap_or(0);
        let top: Vec<usize> = (0..sums.len()).filter(|&i| sums[i] == best).collect();
        let mut parts: Vec<String> = self
            .bidders
            .iter()
            .zip(&bids)
            .map(|(b, bid)| format!("{} bid {}", b.name, describe(bid)))
            .collect();
        if let Some(bid) = house {
            parts.push(format!("the House bid {bid}"));
        }
        let (winner, house_won, taker) = match top.as_slice() {
            [i] if *i < self.bidders.len() => {
                self.bidders[*i].points += u32::from(self.prize);
                (Some(*i), false, self.bidders[*i].name.to_string())
            }
            [_] => {
                *self.house.get_or_insert(0) += u32::from(self.prize);
                (None, true, "The House".to_string())
            }
            _ => (None, false, String::new()),
        };
        let outcome = if taker.is_empty() {
            "A tie: nobody takes the prize.".to_string()
        } else {
            format!("{taker} takes {} points.", self.prize)
        };
        self.log
            .push(format!("Reveal: {}. {outcome}", parts.join(", ")));
        self.revealed.push(Revealed {
            round: self.round,
            prize: self.prize,
            bids,
            house,
            winner,
            house_won,
        });
        if self.round < self.rounds {
            self.next_round();
        } else {
            self.finish();
        }
    }

    /// The end: most points wins.
    fn finish(&mut self) {
        self.phase = Phase::Over;
        for bidder in &mut self.bidders {
            bidder.bid = None;
        }
        let summary = match self.house {
            Some(house) => {
                let (me, mine) = (&self.bidders[0].name, self.bidders[0].points);
                match mine.cmp(&house) {
                    std::cmp::Ordering::Greater => {
                        format!("{me} wins with {mine} points to the House's {house}.")
                    }
                    std::cmp::Ordering::Equal => {
                        format!("A draw: {me} and the House have {mine} points each.")
                    }
                    std::cmp::Ordering::Less => {
                        format!("The House wins with {house} points to {me}'s {mine}.")
                    }
                }
            }
            None => {
                let [a, b] = [self.bidders[0].points, self.bidders[1].points];
                let [one, two] = [&self.bidders[0].name, &self.bidders[1].name];
                match a.cmp(&b) {
                    std::cmp::Ordering::Greater => format!("{one} wins with {a} points to {b}."),
                    std::cmp::Ordering::Less => format!("{two} wins with {b} points to {a}."),
                    std::cmp::Ordering::Equal => format!("A draw: {a} points each."),
                }
            }
        };
        self.log.push(summary.clone());
        self.summary = Some(summary);
    }

    /// The winning seats (none for a draw, or when the House wins).
    pub fn winners(&self) -> Vec<Seat> {
        let best = self.bidders.iter().map(|b| b.points).max().unwrap_or(0);
        if self.house.is_some_and(|house| house >= best) {
            return Vec::new();
        }
        let top: Vec<Seat> = (0..self.bidders.len())
            .filter(|&seat| self.bidders[seat].points == best)
            .collect();
        if top.len() == 1 {
            top
        } else {
            Vec::new()
        }
    }
}
