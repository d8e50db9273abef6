//! The battle's input log: with the seed, enough to replay the battle exactly.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rules;
use crate::ruleset::{OptionsError, RuleError, Ruleset};

/// One accepted input, in the order it was applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// A seat's move (a person's or a bot's: both are recorded the same way).
    Act { seat: Seat, action: Value },
    /// One engine step ([`Ruleset::advance`]).
    Advance,
}

/// Everything needed to rebuild a battle: ruleset, options, seed and inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputLog {
    pub ruleset: String,
    pub options: Value,
    pub seed: u64,
    pub inputs: Vec<Input>,
}

/// Why a log could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("unknown ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("options refused: {0}")]
    Options(#[from] OptionsError),
    #[error("input {index} refused: {error}")]
    Refused { index: usize, error: RuleError },
}

/// Rebuild the battle a log describes by applying every input to a fresh ruleset.
pub fn replay(log: &InputLog) -> Result<Box<dyn Ruleset>, ReplayError> {
    let entry =
        rules::find(&log.ruleset).ok_or_else(|| ReplayError::UnknownRuleset(log.ruleset.clone()))?;
    let mut game = (entry.build)(&log.options, log.seed)?;
    for (index, input) in log.inputs.iter().enumerate() {
        let result = match input {
            Input::Act { seat, action } => game.apply(*seat, action),
            Input::Advance => game.advance(),
        };
        result.map_err(|error| ReplayError::Refused { index, error })?;
    }
    Ok(game)
}
