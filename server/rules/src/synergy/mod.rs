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
mod tests_options;
#[cfg(test)]
mod tests_p0;

use battle_protocol::Seat;
use serde_json::Value;

use crate::ruleset::{OptionsError, Outcome, RuleError, Ruleset, ViewValue, Viewer};
use options::{Mode, Options};
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

/// One line for `welcome`: the game and its options.
pub const SUMMARY: &str =
    "Synergy Turn Card Battle: play Flame, Leaf, Gear and Void cards; two of a \
     sigil in a turn trigger its synergy, all four double the turn's score. Options: mode \
     \"pve\" (default, vs the Training Automaton) or \"pvp\"; deck and, in pvp, opponent_deck: \
     5 to 12 card ids C001..C010.";

/// Builds a battle from `create` options and a seed.
pub fn build(options: &Value, seed: u64) -> Result<Box<dyn Ruleset>, OptionsError> {
    let options = Options::parse(options)?;
    Ok(Box::new(Battle::new(&options, seed)))
}

impl Ruleset for Battle {
    fn id(&self) -> &'static str {
        "synergy"
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn engine_seats(&self) -> Vec<Seat> {
        match self.mode {
            Mode::Pve => vec![1],
            Mode::Pvp => Vec::new(),
        }
    }

    fn to_act(&self) -> Vec<Seat> {
        self.active_seat().into_iter().collect()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        self.legal(seat)
            .into_iter()
            .map(play::Action::to_json)
            .collect()
    }

    fn legal_view(&self, seat: Seat) -> ViewValue {
        ViewValue::List(
            self.legal(seat)
                .into_iter()
                .map(play::Action::to_view)
                .collect(),
        )
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), RuleError> {
        self.act(seat, action).map_err(RuleError::from)
    }

    fn ai_action(&self, seat: Seat) -> Option<Value> {
        ai::choose(self, seat).map(play::Action::to_json)
    }

    fn view_all(&self) -> ViewValue {
        Battle::view_all(self)
    }

    /// Every line of the synergy log is public: the same for every viewer.
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result.as_ref().map(|result| Outcome {
            winners: result.winner.into_iter().collect(),
            summary: result.summary.clone(),
        })
    }
}
