//! Blind Bids: a tiny ruleset used only by tests, not in the catalog. Each round one or two
//! players seal a bid of 1 or 2 of their cards for a public prize; the engine reveals the bids
//! and the highest sum takes the prize. It exercises every part of the ruleset platform:
//! simultaneous decisions, an open decision, per-seat setups, a one-seat variant, a signal
//! allowed while not awaited, engine steps, a timeout rule, hidden information.
//!
//! Every number and decision is in `docs/rules/blind.md`.

pub mod error;
pub mod options;
pub mod play;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

use battle_protocol::Seat;
use serde::Serialize;

use crate::entry::{RulesetEntry, Sample};
use crate::error::{OptionsError, RuleError, SetupError};
use crate::game::Game;
use crate::legal::Legal;
use crate::prompt::Prompt;
use crate::ruleset::{Outcome, OutcomeReason};
use crate::view::Viewer;
use crate::words::Names;
use error::BlindError;
use options::{Options, Setup};
use play::Action;
pub use state::Blind;
use state::Phase;

/// Milliseconds of game time between the last bid of a round and its reveal.
pub const REVEAL_MS: u64 = 400;

/// The ruleset's entry (tests add it to a server's rulesets; it is not in the catalog).
pub const ENTRY: RulesetEntry = RulesetEntry::of::<Blind>();

impl Game for Blind {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Error = BlindError;

    const ID: &'static str = "blind";
    const VERSION: u32 = 1;
    const SUMMARY: &'static str =
        "Blind Bids (a test ruleset): seal 1 or 2 cards each round for a public prize; the \\
         highest sum takes it. Options: seats 1 (against the House) or 2, rounds 1 to 9. \\
         Setup (join): hand, distinct cards 1 to 13.";
    const SEATS: std::ops::RangeInclusive<usize> = 1..=2;
    const SAMPLES: &'static [Sample] = &[
        Sample {
            name: "duel",
            about: "two people bid against each other for 5 prizes",
            options: r#"{"seats": 2, "rounds": 5}"#,
            setups: &[
                r#"{"hand": [1, 3, 5, 7, 9, 11, 13]}"#,
                r#"{"hand": [2, 4, 6, 8, 10, 12]}"#,
            ],
        },
        Sample {
            name: "solo",
            about: "one person bids against the House for 3 prizes",
            options: r#"{"seats": 1, "rounds": 3}"#,
            setups: &[r#"{"hand": [4, 5, 6, 7]}"#],
        },
    ];
    /// Per round: a bid and a signal per seat and one reveal; at most 9 rounds.
    const MAX_STEPS: usize = 9 * (2 * 2 + 1);

    fn check_options(options: &Options) -> Result<(), OptionsError> {
        options.check()
    }

    fn seat_count(options: &Options) -> usize {
        options.seats
    }

    fn check_setup(options: &Options, _seat: Seat, setup: &Setup) -> Result<(), SetupError> {
        setup.hand(options).map(drop)
    }

    fn start(options: Options, seed: u64, setups: Vec<Setup>, names: Names) -> Blind {
        // Every setup passed `check_setup`; a refusal cannot happen here.
        let hands = setups
            .iter()
            .map(|setup| setup.hand(&options).unwrap_or_default())
            .collect();
        Blind::new(&options, seed, hands, &names)
    }

    fn to_act(&self) -> Vec<Seat> {
        self.awaited()
    }

    fn legal(&self, seat: Seat) -> Vec<Legal<Action>> {
        self.legal_for(seat)
    }

    fn prompt(&self, seat: Seat) -> Option<Prompt> {
        if !self.awaited().contains(&seat) {
            return None;
        }
        let max = self.max_bid(seat);
        let how = if max == 1 { "1 card" } else { "1 or 2 cards" };
        let text = format!(
            "Round {} of {}: bid {how} of your hand for a prize of {} points.",
            self.round, self.rounds, self.prize
        );
        Some(Prompt::new("bid", text).between(1, max as u32))
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), BlindError> {
        self.act(seat, action)
    }

    fn next_tick(&self) -> Option<u64> {
        (self.phase == Phase::Revealing).then_some(REVEAL_MS)
    }

    fn advance(&mut self) -> Result<(), RuleError> {
        if self.phase != Phase::Revealing {
            return Err(RuleError::Illegal("no bids to reveal".into()));
        }
        self.reveal();
        Ok(())
    }

    fn timeout(&mut self, seat: Seat) -> Result<(), RuleError> {
        self.time_out(seat).map_err(RuleError::from)
    }

    fn view(&self) -> impl Serialize + '_ {
        self.view_all()
    }

    /// Every line is public: bids are named only at the reveal.
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        let summary = self.summary.clone()?;
        Some(Outcome::new(self.winners(), OutcomeReason::Score, summary))
    }
}
