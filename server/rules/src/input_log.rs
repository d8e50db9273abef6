//! The battle's input log: with the seed, enough to replay the battle exactly. Versioned, so
//! that a store can keep it and a later server can tell whether it can replay it.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::entry::RulesetEntry;
use crate::ruleset::{OptionsError, RuleError, Ruleset, SetupError};

/// The log format this code writes and reads.
pub const FORMAT: u32 = 1;

/// One accepted input, in the order it was applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "input", rename_all = "snake_case")]
pub enum Input {
    /// The setup a seat was given when the battle started (`None`: the ruleset's default,
    /// which bots bring), kept as its compact JSON text, and the name its holder gave
    /// (`None`: none, or a bot), which every line of the battle names the seat by.
    Setup {
        seat: Seat,
        #[serde(with = "compact_opt", default, skip_serializing_if = "Option::is_none")]
        setup: Option<Box<str>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<Box<str>>,
    },
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
    /// An awaited seat ran out of time ([`Ruleset::timeout`]).
    Timeout { seat: Seat },
    /// A seat gave up ([`Ruleset::resign`]).
    Resign { seat: Seat },
    /// A seat forfeited on time ([`Ruleset::forfeit`]).
    Forfeit { seat: Seat },
}

impl Input {
    /// The record of `seat`'s move `action`.
    pub fn act(seat: Seat, action: &Value) -> Input {
        Input::Act {
            seat,
            action: action.to_string().into_boxed_str(),
        }
    }

    /// The record of `seat`'s setup, brought by someone who gave no name.
    pub fn setup(seat: Seat, setup: Option<&Value>) -> Input {
        Input::setup_as(seat, setup, None)
    }

    /// The record of `seat`'s setup, brought by someone who gave `name`.
    pub fn setup_as(seat: Seat, setup: Option<&Value>, name: Option<&str>) -> Input {
        Input::Setup {
            seat,
            setup: setup.map(|setup| setup.to_string().into_boxed_str()),
            name: name.map(Box::from),
        }
    }

    /// Apply this input to `game`.
    pub fn apply_to(&self, game: &mut dyn Ruleset) -> Result<(), ReplayError> {
        let json = |text: &str| serde_json::from_str::<Value>(text);
        match self {
            Input::Setup { seat, setup, name } => {
                let setup = match setup.as_deref().map(json).transpose() {
                    Ok(setup) => setup,
                    Err(err) => return Err(SetupError(err.to_string()).into()),
                };
                game.setup_as(*seat, setup.as_ref(), name.as_deref())?;
            }
            Input::Act { seat, action } => match json(action) {
                Ok(action) => game.apply(*seat, &action)?,
                Err(err) => return Err(RuleError::BadAction(err.to_string()).into()),
            },
            Input::Advance => game.advance()?,
            Input::Timeout { seat } => game.timeout(*seat)?,
            Input::Resign { seat } => game.resign(*seat)?,
            Input::Forfeit { seat } => game.forfeit(*seat)?,
        }
        Ok(())
    }
}

/// JSON kept as text but written in a log as the JSON value it is.
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

/// [`compact`] for a value that may be absent.
mod compact_opt {
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(
        text: &Option<Box<str>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match text {
            Some(text) => super::compact::serialize(text, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Box<str>>, D::Error> {
        Option::<Value>::deserialize(deserializer)
            .map(|value| value.map(|value| value.to_string().into_boxed_str()))
    }
}

/// Everything needed to rebuild a battle: ruleset and version, options, seed and inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputLog {
    /// The log format ([`FORMAT`]).
    pub format: u32,
    /// The ruleset id.
    pub ruleset: String,
    /// The ruleset's version when the battle was played.
    pub version: u32,
    pub options: Value,
    pub seed: u64,
    pub inputs: Vec<Input>,
}

impl InputLog {
    /// An empty log for a battle of `game` built with `options` and `seed`.
    pub fn new(game: &dyn Ruleset, options: Value, seed: u64) -> InputLog {
        InputLog {
            format: FORMAT,
            ruleset: game.id().to_string(),
            version: game.version(),
            options,
            seed,
            inputs: Vec::new(),
        }
    }
}

/// Why a log could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("log format {0} is not {FORMAT}, the format this server reads")]
    Format(u32),
    #[error("unknown ruleset {0:?}")]
    UnknownRuleset(String),
    #[error("the log was written by {ruleset} version {logged}; this server has version {have}")]
    Version {
        ruleset: String,
        logged: u32,
        have: u32,
    },
    #[error("options refused: {0}")]
    Options(#[from] OptionsError),
    #[error("setup refused: {0}")]
    Setup(#[from] SetupError),
    #[error("input refused: {0}")]
    Rule(#[from] RuleError),
    #[error("input {index} refused: {error}")]
    Refused {
        index: usize,
        error: Box<ReplayError>,
    },
}

/// Rebuild the battle a log describes, from the rulesets in `rulesets`, by applying every
/// input to a fresh battle.
pub fn replay(log: &InputLog, rulesets: &[RulesetEntry]) -> Result<Box<dyn Ruleset>, ReplayError> {
    if log.format != FORMAT {
        return Err(ReplayError::Format(log.format));
    }
    let entry = rulesets
        .iter()
        .find(|entry| entry.id == log.ruleset)
        .ok_or_else(|| ReplayError::UnknownRuleset(log.ruleset.clone()))?;
    if entry.version != log.version {
        return Err(ReplayError::Version {
            ruleset: log.ruleset.clone(),
            logged: log.version,
            have: entry.version,
        });
    }
    let mut game = (entry.build)(&log.options, log.seed)?;
    for (index, input) in log.inputs.iter().enumerate() {
        input
            .apply_to(&mut *game)
            .map_err(|error| ReplayError::Refused {
                index,
                error: Box::new(error),
            })?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{catalog, find};
    use crate::view::Viewer;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use serde_json::json;

    /// Play a battle with random legal moves, recording each input as the actor does.
    fn play_and_record(
        options: Value,
        setups: [Value; 2],
        seed: u64,
        moves: usize,
    ) -> (Box<dyn Ruleset>, InputLog) {
        let entry = find("synergy").expect("synergy is in the catalog");
        let mut game = (entry.build)(&options, seed).expect("valid options");
        let mut log = InputLog::new(&*game, options, seed);
        for (seat, setup) in setups.iter().enumerate() {
            let setup = (!setup.is_null()).then_some(setup);
            game.setup(seat, setup).expect("valid setup");
            log.inputs.push(Input::setup(seat, setup));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..moves {
            let Some(&seat) = game.to_act().first() else {
                break;
            };
            let action = game
                .random_action(seat, &mut rng)
                .expect("an awaited seat can act");
            game.apply(seat, &action).expect("random actions are legal");
            log.inputs.push(Input::act(seat, &action));
        }
        (game, log)
    }

    fn decks() -> [Value; 2] {
        [
            json!({"deck": ["C001", "C004", "C004", "C008", "C009"]}),
            Value::Null,
        ]
    }

    #[test]
    fn a_resignation_ends_the_battle_for_the_others_and_replays() {
        let (mut game, mut log) = play_and_record(json!({"mode": "pvp"}), decks(), 3, 4);
        let before = game.view(Viewer::Seat(0));
        assert!(game.resign(5).is_err(), "no such seat");
        assert_eq!(
            game.view(Viewer::Seat(0)),
            before,
            "a refusal changes nothing"
        );
        game.resign(1)
            .expect("a seat may resign while the battle is played");
        log.inputs.push(Input::Resign { seat: 1 });
        let outcome = game.outcome().expect("over");
        assert_eq!(outcome.winners, vec![0]);
        assert_eq!(outcome.summary, "Player 2 resigns: Player 1 wins.");
        assert_eq!(outcome.reason, crate::OutcomeReason::Resignation);
        assert!(game.to_act().is_empty() && game.legal_actions(0).is_empty());
        assert_eq!(game.next_tick(), None);
        assert!(matches!(game.resign(0), Err(RuleError::GameOver)));
        assert!(matches!(
            game.apply(0, &json!({"kind": "end_turn"})),
            Err(RuleError::GameOver)
        ));
        let replayed = replay(&log, catalog()).expect("a resignation replays");
        assert_eq!(replayed.outcome(), Some(outcome));
        let text = serde_json::to_string(&log.inputs).expect("serializes");
        assert!(text.contains(r#"{"input":"resign","seat":1}"#), "{text}");
    }

    #[test]
    fn a_forfeit_on_time_is_not_a_resignation_and_names_replay() {
        let entry = find("synergy").expect("synergy is in the catalog");
        let options = json!({"mode": "pvp"});
        let mut game = (entry.build)(&options, 9).expect("valid options");
        let mut log = InputLog::new(&*game, options, 9);
        for (seat, name) in [(0, Some(" Ana\n")), (1, None)] {
            game.setup_as(seat, None, name).expect("the default setup");
            log.inputs.push(Input::setup_as(seat, None, name));
        }
        let names = game.names().expect("started").clone();
        assert_eq!(names.all(), ["Ana", "Player 2"], "cleaned, and a default");
        assert!(game
            .log(Viewer::Spectator)
            .iter()
            .any(|line| line.contains("Ana")));
        game.forfeit(0)
            .expect("a seat may forfeit while the battle is played");
        log.inputs.push(Input::Forfeit { seat: 0 });
        let outcome = game.outcome().expect("over");
        assert_eq!(outcome.winners, vec![1]);
        assert_eq!(outcome.reason, crate::OutcomeReason::Time);
        assert_eq!(outcome.summary, "Ana forfeits on time: Player 2 wins.");
        assert!(matches!(game.forfeit(1), Err(RuleError::GameOver)));
        let text = serde_json::to_string(&log).expect("serializes");
        assert!(text.contains(r#""name":" Ana\n""#), "{text}");
        assert!(text.contains(r#"{"input":"forfeit","seat":0}"#), "{text}");
        let back: InputLog = serde_json::from_str(&text).expect("parses back");
        let replayed = replay(&back, catalog()).expect("a forfeit replays");
        assert_eq!(replayed.outcome(), Some(outcome));
        assert_eq!(replayed.names(), Some(&names));
        assert_eq!(
            replayed.log(Viewer::Spectator),
            game.log(Viewer::Spectator),
            "the same words"
        );
    }

    #[test]
    fn replay_rebuilds_every_view_exactly() {
        for seed in 0..20 {
            let (game, log) = play_and_record(json!({"mode": "pvp"}), decks(), seed, 25);
            let replayed = replay(&log, catalog()).expect("a recorded log replays");
            for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
                assert_eq!(game.view(viewer), replayed.view(viewer), "seed {seed}");
            }
        }
    }

    #[test]
    fn replay_survives_a_round_trip_through_json() {
        let (game, log) = play_and_record(Value::Null, decks(), 3, 40);
        let text = serde_json::to_string(&log).expect("logs serialize");
        assert!(
            text.contains(r#""action":{"#) && text.contains(r#""setup":{"deck":["#),
            "actions and setups are written as JSON values: {text}"
        );
        assert!(
            text.starts_with(r#"{"format":1,"ruleset":"synergy","version":1,"#),
            "{text}"
        );
        let back: InputLog = serde_json::from_str(&text).expect("logs parse back");
        assert_eq!(back, log);
        let replayed = replay(&back, catalog()).expect("a recorded log replays");
        assert_eq!(
            game.view(Viewer::Spectator),
            replayed.view(Viewer::Spectator)
        );
    }

    #[test]
    fn replay_reports_the_first_refused_input() {
        let (_, mut log) = play_and_record(Value::Null, decks(), 5, 3);
        log.inputs
            .push(Input::act(0, &json!({"kind": "play_card", "card": 9999})));
        log.inputs.push(Input::Advance);
        let at = log.inputs.len() - 2;
        match replay(&log, catalog()) {
            Err(ReplayError::Refused { index, .. }) => assert_eq!(index, at),
            Err(other) => panic!("expected a refused input, got {other}"),
            Ok(_) => panic!("expected a refused input, got a replayed battle"),
        }
        let mut timeout = log.clone();
        timeout.inputs.truncate(at);
        timeout.inputs.push(Input::Timeout { seat: 0 });
        assert!(
            matches!(
                replay(&timeout, catalog()),
                Err(ReplayError::Refused { .. })
            ),
            "synergy has no clock, so a timeout is refused"
        );
        let mut setup = log.clone();
        setup.inputs[0] = Input::setup(0, Some(&json!({"deck": vec!["C999"; 5]})));
        assert!(matches!(
            replay(&setup, catalog()),
            Err(ReplayError::Refused { index: 0, .. })
        ));
    }

    #[test]
    fn replay_refuses_logs_it_cannot_read() {
        let (_, log) = play_and_record(Value::Null, decks(), 5, 3);
        let mut other = log.clone();
        other.ruleset = "chess".into();
        assert!(matches!(
            replay(&other, catalog()),
            Err(ReplayError::UnknownRuleset(_))
        ));
        let mut other = log.clone();
        other.version += 1;
        assert!(matches!(
            replay(&other, catalog()),
            Err(ReplayError::Version { .. })
        ));
        let mut other = log;
        other.format = 0;
        assert!(matches!(
            replay(&other, catalog()),
            Err(ReplayError::Format(0))
        ));
    }
}
