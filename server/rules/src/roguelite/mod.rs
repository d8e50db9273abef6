//! Roguelite: the card RPG battle logic of spec 003 (version 4.0). One player fights a run
//! of battles against enemies the engine plays, depth by depth: speed decides the order of
//! phases (`speed.rs`), the player plays cards with 3 energy a phase, the enemy takes as many
//! actions as its energy (`enemy_phase.rs`, one engine step each), damage runs through
//! Guard, AP and HP (`damage.rs`), statuses stack and run out (`status.rs`). Content is data
//! (`cards.rs`, `enemies.rs`, `equipment.rs`); the run's flow is `state.rs` and `reward.rs`,
//! actions `play.rs`, the bot `ai.rs`, the view `view.rs`. Every number and every decision
//! where the spec is silent is in `docs/rules/roguelite.md`.

pub mod ai;
pub mod cards;
pub mod damage;
pub mod effect;
pub mod enemies;
pub mod enemy_phase;
pub mod equipment;
pub mod error;
pub mod fighter;
pub mod options;
pub mod piles;
pub mod play;
pub mod resolve;
pub mod reward;
pub mod speed;
pub mod state;
pub mod status;
pub mod view;

#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests_battle_flow;
#[cfg(test)]
mod tests_damage;
#[cfg(test)]
mod tests_defense;
#[cfg(test)]
mod tests_depth;
#[cfg(test)]
mod tests_run;
#[cfg(test)]
mod tests_speed;
#[cfg(test)]
mod tests_status;

use battle_protocol::Seat;
use serde::Serialize;

use crate::entry::{RulesetEntry, Sample};
use crate::error::{OptionsError, RuleError};
use crate::game::Game;
use crate::legal::Legal;
use crate::prompt::Prompt;
use crate::ruleset::Outcome;
use crate::view::Viewer;
use crate::words::Names;
use error::RogueliteError;
use options::{Options, Setup};
use play::Action;
pub use state::Roguelite;
use state::{Stage, BATTLES, TURN_LIMIT};

/// The ruleset's catalog entry.
pub const ENTRY: RulesetEntry = RulesetEntry::of::<Roguelite>();

impl Game for Roguelite {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Error = RogueliteError;

    const ID: &'static str = "roguelite";
    const VERSION: u32 = 1;
    const SUMMARY: &'static str =
        "Roguelite: a run of nine card battles through three depths against enemies the \
         engine plays; speed sets the order of phases, damage goes to Guard, then AP, then \
         HP. Options: tick_ms (default 400), the pace of the enemy's actions.";
    const SEATS: std::ops::RangeInclusive<usize> = 1..=1;
    const SAMPLES: &'static [Sample] = &[Sample {
        name: "run",
        about: "one player's run of nine battles through three depths",
        options: "{}",
        setups: &[],
    }];
    /// Nine battles, each at most 30 of the player's phases (4 actions each at most: 3
    /// energy, every card costing 1 or more, and the end of the turn) and so at most 30
    /// rounds. A round holds at most 21 enemy phases in a row: no enemy is faster than 71
    /// after the variance, speed statuses add at most 135 (3 Haste, 3 Super Fast) and the
    /// player's speed is at least 1, a difference of at most 205. An enemy phase is at most
    /// 6 steps (its start, 4 actions: 3 energy x 150%, its end). With eight rewards:
    /// 9 x (30 x 4 + 30 x 21 x 6) + 8 = 35,108.
    const MAX_STEPS: usize = 36_000;
    /// Untimed: one person plays against the engine, so nobody waits for them.
    const TIMER: Option<crate::TimerSpec> = None;

    fn check_options(options: &Options) -> Result<(), OptionsError> {
        options.check()
    }

    fn seat_count(_options: &Options) -> usize {
        1
    }

    fn start(options: Options, seed: u64, _setups: Vec<Setup>, names: Names) -> Roguelite {
        Roguelite::new(options.tick_ms, seed, &names.of(0))
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
        Some(match self.stage {
            Stage::Reward => Prompt::new(
                "reward",
                format!(
                    "Battle {} of {BATTLES} is won: take one reward or skip.",
                    self.battle + 1
                ),
            )
            .between(0, 1),
            _ => {
                let mine = self
                    .queue
                    .iter()
                    .take_while(|&&s| s == self.queue[0])
                    .count();
                Prompt::new(
                    "turn",
                    format!(
                        "Your phase {} of at most {TURN_LIMIT} in this battle ({} in a row), {} \
                         energy left: play cards, then end your turn.",
                        self.player_phases, mine, self.energy
                    ),
                )
            }
        })
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), RogueliteError> {
        self.act(seat, action)
    }

    fn ai_action(&self, seat: Seat) -> Option<Action> {
        self.ai_for(seat)
    }

    fn next_tick(&self) -> Option<u64> {
        matches!(
            self.stage,
            Stage::EnemyStart | Stage::EnemyAct | Stage::EnemyEnd
        )
        .then_some(self.tick_ms)
    }

    fn advance(&mut self) -> Result<(), RuleError> {
        if self.next_tick().is_none() {
            return Err(RuleError::Illegal("the enemy is not acting".into()));
        }
        self.enemy_step();
        Ok(())
    }

    /// A player who lets the clock run out ends the turn, or takes no reward.
    fn timeout(&mut self, seat: Seat) -> Result<(), RuleError> {
        let action = match self.stage {
            Stage::PlayerPhase => Action::EndTurn {},
            Stage::Reward => Action::Skip {},
            _ => return Err(RuleError::Illegal("nothing awaits this seat".into())),
        };
        self.act(seat, action).map_err(RuleError::from)
    }

    fn view(&self) -> impl Serialize + '_ {
        self.view_all()
    }

    /// Every line is public: the log names cards only when they are played.
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finish.clone()
    }
}
