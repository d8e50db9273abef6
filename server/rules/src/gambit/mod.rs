//! Gambit: the rule-programmed auto-battler (spec 001). A player programs a party of three
//! characters with up to three IF-THEN rules each, then watches the fight run by itself, tick
//! by tick, with no randomness at all; between encounters the party heals and may learn an
//! offered skill. Six encounters, the last a boss; or, in PvP, two programmed parties fight.
//!
//! Every number and every decision where the spec is silent is in `docs/rules/gambit.md`.

pub mod ai;
pub mod choose;
pub mod error;
pub mod fight;
pub mod options;
pub mod play;
pub mod roster;
pub mod rules;
pub mod skills;
pub mod state;
pub mod unit;
pub mod view;

#[cfg(test)]
mod testkit;
#[cfg(test)]
mod tests_notes;
#[cfg(test)]
mod tests_run;
#[cfg(test)]
mod tests_tick;

use battle_protocol::Seat;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::entry::{RulesetEntry, Sample};
use crate::error::{OptionsError, RuleError, SetupError};
use crate::game::Game;
use crate::legal::Legal;
use crate::prompt::Prompt;
use crate::ruleset::Outcome;
use crate::view::Viewer;
use crate::words::Names;
use error::GambitError;
use options::{Mode, Options, Setup};
use play::Action;
pub use state::Gambit;
use state::Phase;

/// The ruleset's catalog entry.
pub const ENTRY: RulesetEntry = RulesetEntry::of::<Gambit>();

impl Game for Gambit {
    type Options = Options;
    type Setup = Setup;
    type Action = Action;
    type Error = GambitError;

    const ID: &'static str = "gambit";
    const VERSION: u32 = 1;
    const SUMMARY: &'static str =
        "Gambit: program a party of three with IF-THEN rules, then watch the fight run tick by \
         tick (pause to edit). Options: mode pve (six encounters, the last a boss) or pvp (two \
         programmed parties), tick_ms (default 500). Setup (join): rules, the party's starting \
         program.";
    const SEATS: std::ops::RangeInclusive<usize> = 1..=2;
    const SAMPLES: &'static [Sample] = &[
        Sample {
            name: "run",
            about: "one player's run of six encounters against scripted enemies",
            options: r#"{"mode": "pve"}"#,
            setups: &[r#"{"rules": {"C": [{"skill": "arc_bolt", "conditions": ["always"]}]}}"#],
        },
        Sample {
            name: "duel",
            about: "two players program a party each; the parties fight once",
            options: r#"{"mode": "pvp"}"#,
            setups: &[
                r#"{}"#,
                r#"{"rules": {"A": [{"skill": "brace", "conditions": ["self_hp_below_50"]}, {"skill": "strike", "conditions": ["always"], "target": "highest_hp"}]}}"#,
            ],
        },
    ];
    /// Six fights of at most 600 ticks, with pauses and edits between ticks.
    const MAX_STEPS: usize = 200_000;

    fn check_options(options: &Options) -> Result<(), OptionsError> {
        options.check()
    }

    fn seat_count(options: &Options) -> usize {
        match options.mode {
            Mode::Pve => 1,
            Mode::Pvp => 2,
        }
    }

    fn check_setup(_options: &Options, _seat: Seat, setup: &Setup) -> Result<(), SetupError> {
        setup.check()
    }

    fn start(options: Options, seed: u64, setups: Vec<Setup>, names: Names) -> Gambit {
        Gambit::new(&options, seed, &setups, names)
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
            Phase::Planning => Prompt::new(
                "plan",
                match self.mode {
                    Mode::Pve => format!(
                        "Encounter {} of 6: edit your party's rules, then start the fight.",
                        self.encounter + 1
                    ),
                    Mode::Pvp => "Program your party, then say you are ready.".to_owned(),
                },
            ),
            Phase::Paused => Prompt::new(
                "paused",
                format!(
                    "Paused at tick {}: edit your rules, then resume.",
                    self.fight.tick
                ),
            ),
            _ => Prompt::new(
                "reward",
                "Take one of the offered skills for a character, or skip.",
            )
            .between(0, 1),
        })
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), GambitError> {
        self.act(seat, action)
    }

    /// Random play for tests and load: edits, with a one-in-four chance of moving on
    /// (start, resume) whenever that is legal, so that runs end in a sensible number of steps.
    fn random_action(&self, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Action> {
        let mut legal = self.legal(seat);
        let onward = legal
            .iter()
            .position(|l| matches!(l, Legal::Act(Action::Start {} | Action::Resume {})));
        if let (Some(i), true) = (onward, rng.random_ratio(1, 4)) {
            return match legal.swap_remove(i) {
                Legal::Act(action) => Some(action),
                Legal::Open(_) => None,
            };
        }
        crate::game::random_among(legal, rng)
    }

    fn ai_action(&self, seat: Seat) -> Option<Action> {
        self.ai_for(seat)
    }

    fn next_tick(&self) -> Option<u64> {
        (self.phase == Phase::Fighting).then_some(self.tick_ms)
    }

    fn advance(&mut self) -> Result<(), RuleError> {
        if self.phase != Phase::Fighting {
            return Err(RuleError::Illegal("no fight is running".into()));
        }
        self.step();
        Ok(())
    }

    /// A player who lets the clock run out: planning starts the fight with the program as it
    /// is, a pause resumes, an offering is skipped.
    fn timeout(&mut self, seat: Seat) -> Result<(), RuleError> {
        let action = match self.phase {
            Phase::Planning => Action::Start {},
            Phase::Paused => Action::Resume {},
            Phase::Reward => Action::Skip {},
            _ => return Err(RuleError::Illegal("nothing awaits this seat".into())),
        };
        self.act(seat, action).map_err(RuleError::from)
    }

    fn view(&self) -> impl Serialize + '_ {
        self.view_all()
    }

    /// Every line is public: PvP planning edits are not logged.
    fn log(&self, _viewer: Viewer) -> &[String] {
        &self.log
    }

    fn outcome(&self) -> Option<Outcome> {
        self.finish.clone()
    }
}
