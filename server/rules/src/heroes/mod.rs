//! Heroes: the 1v1 hero card battler with a shared shop, MTG-style blocking and level-up
//! (spec 002). Content (`cards.rs`, `classes.rs`, `items.rs`) is data; combat (`combat.rs`),
//! the hero (`hero.rs`) and the market (`market.rs`) are pure pieces; the game's flow is in
//! `state.rs`, `main_phase.rs` and `fights.rs`, its actions in `play.rs` and `legal.rs`, the
//! bot in `ai.rs`, the view in `view.rs`. Not in the catalog yet (the client's panel, the
//! load test and the rest of the issue come first). Every number and decision is in
//! `docs/rules/heroes.md`.

pub mod ai;
pub mod cards;
pub mod changes;
pub mod classes;
pub mod combat;
pub mod error;
pub mod fights;
pub mod hero;
pub mod items;
pub mod legal;
pub mod main_phase;
pub mod market;
pub mod options;
pub mod play;
pub mod relics;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests_game;

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
use error::HeroesError;
use options::{Options, Setup};
use play::Action;
pub use state::Heroes;
use state::Phase;

/// The ruleset's catalog entry.
pub const ENTRY: RulesetEntry = RulesetEntry::of::<Heroes>();

impl Game for Heroes {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Error = HeroesError;

    const ID: &'static str = "heroes";
    const VERSION: u32 = 1;
    const SUMMARY: &'static str =
        "Heroes: a 1v1 hero card battler with a shared shop, MTG-style blocking and level-up. \
         Setup (join): class, barbarian or mage, and optionally deck, 40 card ids.";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const SAMPLES: &'static [Sample] = &[Sample {
        name: "duel",
        about: "a Barbarian (seat 0) against a Mage (seat 1), each seat bringing the sample's \
                class; a seat the server plays is a Barbarian",
        options: "{}",
        setups: &[r#"{"class": "barbarian"}"#, r#"{"class": "mage"}"#],
    }];
    /// 40 rounds of two turns, each a few dozen decisions at most.
    const MAX_STEPS: usize = 40 * 2 * 60;

    fn seat_count(_options: &Options) -> usize {
        2
    }

    fn check_setup(_options: &Options, _seat: Seat, setup: &Setup) -> Result<(), SetupError> {
        setup.class()?;
        setup.deck().map(drop)
    }

    fn start(_options: Options, seed: u64, setups: Vec<Setup>, names: Names) -> Heroes {
        // Every setup passed `check_setup`.
        let class = |seat: usize| {
            setups
                .get(seat)
                .and_then(|s| s.class().ok())
                .unwrap_or(&classes::BARBARIAN)
        };
        let deck = |seat: usize| setups.get(seat).and_then(|s| s.deck().ok().flatten());
        Heroes::with_decks([class(0), class(1)], [deck(0), deck(1)], seed, names)
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
        Some(match &self.phase {
            Phase::Choosing(_) => Prompt::new("first", "You won the roll: choose who goes first."),
            Phase::Mulligan => {
                Prompt::new("mulligan", "Put back up to 3 cards to draw again.").between(0, 3)
            }
            Phase::Main => Prompt::turn(),
            Phase::Combat(combat) => match &combat.blocks {
                None => Prompt::new("block", "Choose blockers for the attacking minions."),
                Some(blocks) if self.unordered(combat, blocks).is_some() => Prompt::new(
                    "order",
                    "Order the blockers: damage goes lethal-first along the order.",
                ),
                Some(_) => Prompt::new(
                    "defend",
                    "Use your Defensive Ability on one unblocked attacker, or not.",
                ),
            },
            Phase::Incoming => Prompt::new(
                "defend",
                "You are about to be hit: use your Defensive Ability on one hit, or not.",
            ),
            Phase::Over => return None,
        })
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), HeroesError> {
        self.act(seat, action)
    }

    fn ai_action(&self, seat: Seat) -> Option<Action> {
        self.ai_for(seat)
    }

    fn view(&self) -> impl Serialize + '_ {
        self.view_all()
    }

    /// Every line is public: the log names no card in a hand or deck.
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finish.clone()
    }
}
