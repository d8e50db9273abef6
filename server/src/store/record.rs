//! What the store keeps: one record per change to a battle's durable state, in the order the
//! actors made them.

use std::sync::Arc;

use battle_protocol::{OutcomeInfo, Seat};
use battle_rules::input_log::Input;

use super::quarantine::Quarantined;

/// One change to what the store keeps of a battle.
#[derive(Debug, Clone)]
pub enum Record {
    /// A battle was created.
    Created(Box<Created>),
    /// A person took `seat` (before the battle started, with what they brought).
    SeatTaken {
        battle: String,
        seat: Seat,
        /// The seat token's hash ([`token_hash`](crate::battle::token_hash)); never the token.
        token_hash: String,
        /// The setup brought with `join`, as JSON text.
        setup: Option<String>,
    },
    /// A seat was given back before the battle started.
    SeatFreed { battle: String, seat: Seat },
    /// The battle's `n`-th input (0-based): a setup at the start, a move, an engine step or
    /// a timeout.
    Input {
        battle: String,
        n: usize,
        input: Input,
    },
    /// The battle ended: kept for replays as well.
    Finished(Arc<Ended>),
    /// The battle went away (expired): forget it.
    Removed { battle: String },
    /// The battle cannot be restored: set it aside, its rows kept as they are.
    Quarantined(Quarantined),
    /// Nothing to keep: in a cluster, what follows may only be sent while this node still
    /// owns the battle (the check is the record's commit). A single server has nothing to
    /// check.
    Fence { battle: String },
}

/// A new battle: everything it was built from.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Created {
    pub battle: String,
    pub ruleset: String,
    /// The ruleset's version: a log replays only on the version that wrote it.
    pub version: u32,
    /// The options as JSON text.
    pub options: String,
    pub seed: u64,
    pub bots: Vec<Seat>,
    pub pace_ms: u64,
    /// How long a seat's holder may be gone before the bot decides for it.
    pub grace_ms: u64,
    pub private: bool,
    /// The creator chose the seed.
    pub seeded: bool,
    /// The turn timer (`None`: untimed).
    pub timer: Option<battle_rules::TimerSpec>,
    /// How long after the players spectators see each change, in milliseconds (0: at once).
    pub spectator_delay_ms: u64,
}

/// A battle that ended, as kept for its replay: what rebuilds it (options, seed, the whole
/// input log) and what `list` shows of it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Ended {
    pub battle: String,
    pub ruleset: String,
    /// The ruleset's version: a log replays only on the version that wrote it.
    pub version: u32,
    /// The options as JSON text.
    pub options: String,
    pub seed: u64,
    /// How many seats the battle had.
    pub seats: usize,
    pub bots: Vec<Seat>,
    /// Not shown by `list` (its replay is still given by id).
    pub private: bool,
    pub seeded: bool,
    pub outcome: OutcomeInfo,
    /// When it ended, in Unix milliseconds; for a battle with a spectator delay, when its
    /// end is shown to spectators (its replay is given from then on).
    pub ended_at: u64,
    /// The whole input log, the setups first.
    pub inputs: Vec<Input>,
}

impl Ended {
    /// How many steps its replay has after the start: every input but the setups.
    pub fn steps(&self) -> usize {
        self.inputs
            .iter()
            .filter(|input| !matches!(input, Input::Setup { .. }))
            .count()
    }
}
