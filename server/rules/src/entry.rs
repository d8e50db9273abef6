//! [`RulesetEntry`]: the one registration point of a ruleset, and its [`Sample`] option
//! sets.

use std::ops::RangeInclusive;

use crate::game::Game;
use crate::ruleset::BuildFn;
use crate::typed;

/// A named set of `create` options (and of setups), for tests, load tests and clients'
/// defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// A short name, e.g. `"pvp"`.
    pub name: &'static str,
    /// One line saying what it plays, e.g. "two people".
    pub about: &'static str,
    /// The options as JSON text.
    pub options: &'static str,
    /// Setups for seats 0, 1, ... as JSON text (seats beyond the list bring none); tests
    /// join with them, clients and load tests bring their own.
    pub setups: &'static [&'static str],
}

/// Everything the server knows of a ruleset before building a battle of it. Each ruleset
/// module exports one (`pub const ENTRY: RulesetEntry = RulesetEntry::of::<Game>();`) and the
/// catalog lists it.
#[derive(Debug, Clone)]
pub struct RulesetEntry {
    /// The id used in `create`.
    pub id: &'static str,
    /// The ruleset's version (input logs replay only on it).
    pub version: u32,
    /// One line describing the game and its options.
    pub summary: &'static str,
    /// The seat counts its battles may have; each battle says its own.
    pub seats: RangeInclusive<usize>,
    /// Builds a battle from its `create` options and its seed.
    pub build: BuildFn,
    /// Named option sets; the first is the default.
    pub samples: &'static [Sample],
    /// Most steps any battle takes (actions, engine steps, timeouts).
    pub max_steps: usize,
    /// How a person's decisions are timed by default (`None`: untimed).
    pub timer: Option<crate::TimerSpec>,
}

impl RulesetEntry {
    /// The entry of typed game `G`.
    pub const fn of<G: Game>() -> RulesetEntry {
        RulesetEntry {
            id: G::ID,
            version: G::VERSION,
            summary: G::SUMMARY,
            seats: G::SEATS,
            build: typed::build::<G>,
            samples: G::SAMPLES,
            max_steps: G::MAX_STEPS,
            timer: G::TIMER,
        }
    }

    /// The sample named `name`.
    pub fn sample(&self, name: &str) -> Option<&'static Sample> {
        self.samples.iter().find(|sample| sample.name == name)
    }
}
