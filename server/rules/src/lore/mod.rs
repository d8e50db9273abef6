//! Lore: the lore-race trading card game's core rules (spec 004) with our own card set.
//! Content (`cards.rs`, `decks.rs`) is data; the game and its turn flow are in `state.rs`,
//! the bag and the effects in `bag.rs`, the moves in `moves.rs`, what a seat may do in
//! `legal.rs`, the bot in `ai.rs`, the view in `view.rs`. Every number and decision is in
//! `docs/rules/lore.md`.

pub mod ai;
pub mod bag;
pub mod cards;
pub mod decks;
pub mod error;
pub mod legal;
pub mod moves;
pub mod options;
pub mod state;
pub mod view;

#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests_bag;
#[cfg(test)]
mod tests_checks;
#[cfg(test)]
mod tests_deliverables;
#[cfg(test)]
mod tests_moves;
#[cfg(test)]
mod tests_setup;
#[cfg(test)]
mod tests_turn;
#[cfg(test)]
mod tests_zones;

use battle_protocol::Seat;
use serde::Serialize;

use crate::entry::{RulesetEntry, Sample};
use crate::error::SetupError;
use crate::game::Game;
use crate::legal::Legal;
use crate::prompt::Prompt;
use crate::ruleset::Outcome;
use crate::view::Viewer;
use crate::words::Names;
use error::LoreError;
use moves::Action;
use options::{Options, Setup};
pub use state::Lore;
use state::{Phase, OPENING_HAND};

/// The ruleset's catalog entry.
pub const ENTRY: RulesetEntry = RulesetEntry::of::<Lore>();

impl Game for Lore {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Error = LoreError;

    const ID: &'static str = "lore";
    const VERSION: u32 = 1;
    const SUMMARY: &'static str =
        "Lore: a two-player lore race with ink, quests, challenges and the bag of triggers; \
         20 lore wins. Setup (join): ready_deck, emberfall or tidewater, or deck, 60 card ids.";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const SAMPLES: &'static [Sample] = &[Sample {
        name: "duel",
        about: "Emberfall against Tidewater",
        options: "{}",
        setups: &[
            r#"{"ready_deck": "emberfall"}"#,
            r#"{"ready_deck": "tidewater"}"#,
        ],
    }];
    /// A true bound (see `docs/rules/lore.md`, "The bound"): at most 109 turns before a
    /// deck runs out; per turn at most 60 quests or challenges, 60 start-of-turn and 60
    /// end-of-turn resolutions and a pass; and over the game 2 mulligans, 120 cards inked
    /// or played, 480 "whenever you play a character" and 480 "whenever another is
    /// banished" resolutions, 120 "when played" and 120 "when banished" ones.
    const MAX_STEPS: usize = 2 + 120 + 109 * (60 + 60 + 60 + 60 + 1) + 480 + 480 + 120 + 120;

    fn seat_count(_options: &Options) -> usize {
        2
    }

    fn check_setup(_options: &Options, seat: Seat, setup: &Setup) -> Result<(), SetupError> {
        setup.cards(seat).map(drop)
    }

    fn start(_options: Options, seed: u64, setups: Vec<Setup>, names: Names) -> Lore {
        // Every setup passed `check_setup`; a missing one plays the seat's default deck.
        let deck = |seat: usize| {
            setups
                .get(seat)
                .and_then(|s| s.cards(seat).ok())
                .unwrap_or_else(|| decks::READY_DECKS[seat].list())
        };
        Lore::new([deck(0), deck(1)], seed, names)
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
        Some(match self.phase {
            Phase::Mulligan => Prompt::new(
                "mulligan",
                "Alter your hand: put any number of cards on the bottom of your deck; \
                 you draw back to 7 and shuffle.",
            )
            .between(0, OPENING_HAND as u32),
            _ if !self.bag.is_empty() => Prompt::new(
                "bag",
                "Choose which of your triggered abilities in the bag resolves next.",
            ),
            _ => Prompt::turn(),
        })
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), LoreError> {
        self.act(seat, action)
    }

    fn ai_action(&self, seat: Seat) -> Option<Action> {
        self.ai_for(seat)
    }

    fn view(&self) -> impl Serialize + '_ {
        self.view_all()
    }

    /// Every line is public: the log names no card in a hand, a deck or an inkwell (a card
    /// going into the inkwell is revealed as it goes, as the rules say).
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finish.clone()
    }
}
