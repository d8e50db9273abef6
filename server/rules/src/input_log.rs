//! The battle's input log: with the seed, enough to replay the battle exactly.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::catalog as rules;
use crate::ruleset::{OptionsError, RuleError, Ruleset};

/// One accepted input, in the order it was applied.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// A seat's move (a person's or a bot's: both are recorded the same way). The action is
    /// kept as its compact JSON text: one allocation instead of a tree, for every move of
    /// every live battle.
    Act {
        seat: Seat,
        #[serde(with = "compact")]
        action: Box<str>,
    },
    /// One engine step ([`Ruleset::advance`]).
    Advance,
}

impl Input {
    /// The record of `seat`'s move `action`.
    pub fn act(seat: Seat, action: &Value) -> Input {
        Input::Act {
            seat,
            action: action.to_string().into_boxed_str(),
        }
    }
}

/// An action kept as JSON text but written in a log as the JSON value it is.
mod compact {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
        let value: Value = serde_json::from_str(text).map_err(serde::ser::Error::custom)?;
        value.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Box<str>, D::Error> {
        Value::deserialize(deserializer).map(|value| value.to_string().into_boxed_str())
    }
}

/// Everything needed to rebuild a battle: ruleset, options, seed and inputs.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    let entry = rules::find(&log.ruleset)
        .ok_or_else(|| ReplayError::UnknownRuleset(log.ruleset.clone()))?;
    let mut game = (entry.build)(&log.options, log.seed)?;
    for (index, input) in log.inputs.iter().enumerate() {
        let result = match input {
            Input::Act { seat, action } => match serde_json::from_str::<Value>(action) {
                Ok(action) => game.apply(*seat, &action),
                Err(err) => Err(RuleError::BadAction(err.to_string())),
            },
            Input::Advance => game.advance(),
        };
        result.map_err(|error| ReplayError::Refused { index, error })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Viewer;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use serde_json::json;

    /// Play a battle with random legal moves, recording each as the actor does.
    fn play_and_record(options: Value, seed: u64, moves: usize) -> (Box<dyn Ruleset>, InputLog) {
        let entry = rules::find("synergy").expect("synergy is in the catalog");
        let mut game = (entry.build)(&options, seed).expect("default options are valid");
        let mut log = InputLog {
            ruleset: "synergy".into(),
            options,
            seed,
            inputs: Vec::new(),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..moves {
            let Some(&seat) = game.to_act().first() else {
                break;
            };
            let legal = game.legal_actions(seat);
            let action = legal[rng.random_range(0..legal.len())].clone();
            game.apply(seat, &action)
                .expect("legal actions are accepted");
            log.inputs.push(Input::act(seat, &action));
        }
        (game, log)
    }

    #[test]
    fn replay_rebuilds_every_view_exactly() {
        for seed in 0..20 {
            let (game, log) = play_and_record(json!({"mode": "pvp"}), seed, 25);
            let replayed = replay(&log).expect("a recorded log replays");
            for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
                assert_eq!(game.view(viewer), replayed.view(viewer), "seed {seed}");
            }
        }
    }

    #[test]
    fn replay_survives_a_round_trip_through_json() {
        let (game, log) = play_and_record(Value::Null, 3, 40);
        let text = serde_json::to_string(&log).expect("logs serialize");
        assert!(
            text.contains(r#""action":{"#),
            "actions are written as JSON values: {text}"
        );
        let back: InputLog = serde_json::from_str(&text).expect("logs parse back");
        let replayed = replay(&back).expect("a recorded log replays");
        assert_eq!(
            game.view(Viewer::Spectator),
            replayed.view(Viewer::Spectator)
        );
    }

    #[test]
    fn replay_reports_the_first_refused_input() {
        let (_, mut log) = play_and_record(Value::Null, 5, 3);
        log.inputs
            .push(Input::act(0, &json!({"kind": "play_card", "card": 9999})));
        let at = log.inputs.len() - 1;
        match replay(&log) {
            Err(ReplayError::Refused { index, .. }) => assert_eq!(index, at),
            Err(other) => panic!("expected a refused input, got {other}"),
            Ok(_) => panic!("expected a refused input, got a replayed battle"),
        }
        log.ruleset = "chess".into();
        assert!(matches!(replay(&log), Err(ReplayError::UnknownRuleset(_))));
    }
}
