//! What a `queue` asks for, checked at once on the asking connection's reader: the ruleset,
//! the options (or the sample standing for them), the setup the player brings, how long it
//! waits for people. Checking builds the battle once from its options, to learn its seats for
//! people and to have the ruleset check the setup, so that a refusal comes with the `queue`'s
//! answer and a player in a pool is one the battle will seat.

use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode, Seat};
use serde_json::Value;

use super::pool::PoolKey;
use crate::config::Config;
use crate::lobby::offered;
use crate::refusal::Refusal;

/// A `queue` message's request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueueRequest {
    /// The ruleset's id.
    pub ruleset: String,
    /// The battle's options, as `create` takes them.
    pub options: Option<Value>,
    /// A sample of the ruleset, by name, standing for its options.
    pub sample: Option<String>,
    /// What the player brings to their seat.
    pub setup: Option<Value>,
    /// After this many milliseconds without a match, a battle against the server's bots.
    pub bot_after_ms: Option<u64>,
}

/// A request found good: where it waits and what its battle is.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The pool it waits in: the ruleset and the options (a sample resolved to its options).
    pub key: PoolKey,
    /// The battle's seats for people, in order: the seats given to the players who meet, in
    /// their order of arrival.
    pub people: Vec<Seat>,
    /// What the player brings to their seat.
    pub setup: Option<Value>,
    /// How long it waits for people before playing the server's bots.
    pub bot_after: Option<Duration>,
}

impl QueueRequest {
    /// Check the request against the rulesets `config` offers: `unknown_ruleset`, or
    /// `bad_options` (options and a sample both given, a sample the ruleset does not have,
    /// options the ruleset refuses, a battle without a seat for people, `bot_after_ms` over
    /// [`ClientMsg::BOT_AFTER_MS_MAX`]), or `bad_setup` (the setup refused for a seat people
    /// play: it must fit whichever it is given).
    pub fn check(self, config: &Config) -> Result<Checked, Refusal> {
        let bad = |why: String| Refusal::new(ErrorCode::BadOptions, why);
        let entry = offered(config, &self.ruleset)?;
        let options = match (self.options, self.sample) {
            (Some(_), Some(_)) => {
                return Err(bad("give options or a sample, not both".into()));
            }
            (Some(options), None) => options,
            (None, Some(name)) => {
                let sample = entry.sample(&name).ok_or_else(|| {
                    let names: Vec<&str> = entry.samples.iter().map(|s| s.name).collect();
                    bad(format!(
                        "{} has no sample {name:?}; its samples: {}",
                        entry.id,
                        names.join(", ")
                    ))
                })?;
                serde_json::from_str(sample.options)
                    .map_err(|err| bad(format!("sample {name:?} does not read: {err}")))?
            }
            (None, None) => Value::Null,
        };
        let bot_after = match self.bot_after_ms {
            Some(ms) if ms > ClientMsg::BOT_AFTER_MS_MAX => {
                return Err(bad(format!(
                    "bot_after_ms: at most {} (ten minutes), not {ms}",
                    ClientMsg::BOT_AFTER_MS_MAX
                )));
            }
            ms => ms.map(Duration::from_millis),
        };
        let game = (entry.build)(&options, 0)
            .map_err(|err| bad(format!("{} options: {err}", entry.id)))?;
        let engine = game.engine_seats();
        let people: Vec<Seat> = (0..game.seat_count())
            .filter(|seat| !engine.contains(seat))
            .collect();
        if people.is_empty() {
            return Err(bad(format!(
                "this {} battle has no seat for people: the engine plays them all",
                entry.id
            )));
        }
        for &seat in &people {
            game.check_setup(seat, self.setup.as_ref())
                .map_err(|err| Refusal::new(err.code(), format!("setup refused: {err}")))?;
        }
        Ok(Checked {
            key: PoolKey {
                ruleset: entry.id.to_string(),
                options,
            },
            people,
            setup: self.setup,
            bot_after,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(request: QueueRequest) -> Result<Checked, Refusal> {
        request.check(&Config::for_tests())
    }

    fn synergy(options: Option<Value>, sample: Option<&str>) -> QueueRequest {
        QueueRequest {
            ruleset: "synergy".into(),
            options,
            sample: sample.map(str::to_string),
            ..QueueRequest::default()
        }
    }

    fn code(result: Result<Checked, Refusal>) -> ErrorCode {
        result.expect_err("refused").code
    }

    #[test]
    fn a_sample_stands_for_its_options() {
        let by_sample = check(synergy(None, Some("pvp"))).expect("a sample");
        let by_options = check(synergy(Some(json!({"mode": "pvp"})), None)).expect("options");
        assert_eq!(by_sample.key, by_options.key, "they wait in one pool");
        assert_eq!(by_sample.people, [0, 1]);
    }

    #[test]
    fn engine_seats_are_not_for_people() {
        let pve = check(synergy(None, Some("pve"))).expect("pve");
        assert_eq!(pve.people, [0], "the Training Automaton plays seat 1");
    }

    #[test]
    fn refusals_carry_their_codes() {
        let unknown = QueueRequest {
            ruleset: "chess".into(),
            ..QueueRequest::default()
        };
        let Refusal {
            code: got,
            message: why,
        } = check(unknown).expect_err("no such ruleset");
        assert_eq!(got, ErrorCode::UnknownRuleset);
        assert!(why.contains("synergy"), "{why}");
        assert_eq!(
            code(check(synergy(Some(json!({"mode": "pvp"})), Some("pvp")))),
            ErrorCode::BadOptions,
            "not both"
        );
        assert_eq!(
            code(check(synergy(None, Some("nosuch")))),
            ErrorCode::BadOptions
        );
        assert_eq!(
            code(check(synergy(Some(json!({"mode": "chaos"})), None))),
            ErrorCode::BadOptions
        );
        let slow = QueueRequest {
            bot_after_ms: Some(ClientMsg::BOT_AFTER_MS_MAX + 1),
            ..synergy(None, Some("pvp"))
        };
        assert_eq!(code(check(slow)), ErrorCode::BadOptions);
        let deck = QueueRequest {
            setup: Some(json!({"deck": ["C001"]})),
            ..synergy(None, Some("pvp"))
        };
        assert_eq!(code(check(deck)), ErrorCode::BadSetup);
    }

    #[test]
    fn a_good_request_keeps_its_setup_and_wait() {
        let request = QueueRequest {
            setup: Some(json!({"deck": ["C001", "C002", "C003", "C004", "C005"]})),
            bot_after_ms: Some(ClientMsg::BOT_AFTER_MS_MAX),
            ..synergy(None, Some("pvp"))
        };
        let checked = check(request.clone()).expect("good");
        assert_eq!(checked.setup, request.setup);
        assert_eq!(checked.bot_after, Some(Duration::from_secs(600)));
        assert_eq!(checked.key.options, json!({"mode": "pvp"}));
    }
}
