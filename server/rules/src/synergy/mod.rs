//! Synergy Turn Card Battle (spec v0.1.0): two sides trade turns playing cards of four sigils;
//! playing two cards of one sigil in a turn triggers its synergy, and all four in one turn
//! doubles the turn's score. PvE against the Training Automaton, or PvP.
//!
//! The rules as implemented, and every decision where the spec is silent, are written up in
//! `docs/rules/synergy.md`.

pub mod ai;
pub mod cards;
pub mod deck;
pub mod error;
pub mod options;
pub mod play;
pub mod score;
pub mod side;
pub mod state;
pub mod view;

#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests_ai;
#[cfg(test)]
mod tests_cards;
#[cfg(test)]
mod tests_decisions;
#[cfg(test)]
mod tests_golden;
#[cfg(test)]
mod tests_options;
#[cfg(test)]
mod tests_p0;

use battle_protocol::Seat;
use serde::Serialize;

use crate::entry::{RulesetEntry, Sample};
use crate::error::SetupError;
use crate::game::Game;
use crate::legal::Legal;
use crate::prompt::Prompt;
use crate::ruleset::{Outcome, OutcomeReason};
use crate::view::Viewer;
use crate::words::Names;
use error::SynergyError;
use options::{Mode, Options, Setup};
use play::Action;
pub use state::Battle;

/// Player-side HP (spec 3.1); both sides in PvP.
pub const PLAYER_HP: u32 = 60;
/// Enemy HP in PvE (spec 3.1).
pub const ENEMY_HP: u32 = 70;
/// Energy at every turn start (spec 3.2).
pub const ENERGY_PER_TURN: u32 = 3;
/// Cards in the opening hand (spec 3.4); it is also the first turn's draw.
pub const OPENING_DRAW: u32 = 5;
/// Cards drawn at every later turn start (spec 3.4).
pub const TURN_DRAW: u32 = 5;
/// Most cards a hand may hold (spec 3.4).
pub const HAND_LIMIT: usize = 8;
/// Most rounds a battle lasts (our decision: guarantees the battle ends).
pub const ROUND_LIMIT: u32 = 40;

/// The ruleset's entry in the catalog.
pub const ENTRY: RulesetEntry = RulesetEntry::of::<Battle>();

/// The name of the side the engine plays in PvE.
pub const BOT_NAME: &str = "Training Automaton";

impl Game for Battle {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Error = SynergyError;

    const ID: &'static str = "synergy";
    const VERSION: u32 = 1;
    const SUMMARY: &'static str =
        "Synergy Turn Card Battle: play Flame, Leaf, Gear and Void cards; two of a sigil in a \
         turn trigger its synergy, all four double the turn's score. Options: mode \"pve\" \
         (default, vs the Training Automaton) or \"pvp\". Setup (join): deck, 5 to 12 card \
         ids C001..C010.";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const SAMPLES: &'static [Sample] = &[
        Sample {
            name: "pve",
            about: "one person against the Training Automaton",
            options: r#"{"mode": "pve"}"#,
            // Small deck with duplicates: reshuffles every turn.
            setups: &[
                r#"{"deck": ["C005", "C010", "C005", "C010", "C001", "C002", "C003", "C004"]}"#,
            ],
        },
        Sample {
            name: "pvp",
            about: "two people",
            options: r#"{"mode": "pvp"}"#,
            setups: &[
                r#"{"deck": ["C008", "C008", "C004", "C007", "C001"]}"#,
                r#"{"deck": ["C001", "C002", "C003", "C004", "C005", "C006", "C007", "C008", "C009", "C010", "C010", "C005"]}"#,
            ],
        },
    ];
    /// 40 rounds of two turns, each at most 3 actions (the third play ends the turn).
    const MAX_STEPS: usize = 40 * 2 * 3;

    fn seat_count(_options: &Options) -> usize {
        2
    }

    fn engine_seats(options: &Options) -> Vec<Seat> {
        match options.mode {
            Mode::Pve => vec![1],
            Mode::Pvp => Vec::new(),
        }
    }

    fn check_setup(options: &Options, seat: Seat, setup: &Setup) -> Result<(), SetupError> {
        setup.deck(options.mode, seat).map(drop)
    }

    fn start(options: Options, seed: u64, setups: Vec<Setup>, names: Names) -> Battle {
        // Every setup passed `check_setup` when its seat was set up, so none is refused here.
        let decks = [0, 1].map(|seat| {
            setups
                .get(seat)
                .and_then(|setup| setup.deck(options.mode, seat).ok())
                .unwrap_or_else(options::pool_deck)
        });
        Battle::new(options.mode, decks, seed, &names)
    }

    fn bot_name(options: &Options, seat: Seat) -> Option<&'static str> {
        (options.mode == Mode::Pve && seat == 1).then_some(BOT_NAME)
    }

    fn to_act(&self) -> Vec<Seat> {
        self.active_seat().into_iter().collect()
    }

    fn legal(&self, seat: Seat) -> Vec<Legal<Action>> {
        self.legal_actions(seat)
    }

    fn prompt(&self, seat: Seat) -> Option<Prompt> {
        let energy = self.sides.get(seat)?.energy;
        (self.active_seat() == Some(seat)).then(|| {
            Prompt::new(
                "turn",
                format!("Your turn: play cards ({energy} energy left) or end the turn."),
            )
        })
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), SynergyError> {
        self.act(seat, action)
    }

    fn ai_action(&self, seat: Seat) -> Option<Action> {
        ai::choose(self, seat)
    }

    fn view(&self) -> impl Serialize + '_ {
        self.view_all()
    }

    /// Every line of the synergy log is public: the same for every viewer.
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        let reason = match self.verdict {
            Some(score::Verdict::RoundLimit) => OutcomeReason::Limit,
            _ => OutcomeReason::Knockout,
        };
        self.result.as_ref().map(|result| {
            Outcome::new(
                result.winner.into_iter().collect(),
                reason,
                result.summary.clone(),
            )
        })
    }
}
