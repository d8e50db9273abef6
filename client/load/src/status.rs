//! How a load test ended, and the process exit code that says so:
//!
//! | code | [`Status`] | meaning |
//! | --- | --- | --- |
//! | 0 | `Passed` | the run completed and every threshold held |
//! | 1 | `ThresholdFailed` | the run completed but a threshold failed (or was not measured) |
//! | 2 | `RunFailed` | the run itself failed: no server answers, no connection opened, no battle started, the server refused what the run asks for, bad arguments |
//!
//! Also here: the reasons a run failed, worded for the operator.

use std::collections::BTreeMap;
use std::process::ExitCode;

use super::tally::BattleCounts;

/// The server flags a load test needs: a server's default rates are sized for people
/// playing (a few messages a second per connection, a few creates), and the load generator
/// sends as fast as the server answers, from a handful of addresses.
pub const LOAD_LIMITS: &str =
    "--rate-per-sec 0 --ip-rate-per-sec 0 --create-rate-per-sec 0 --ip-create-rate-per-sec 0";

/// The command that starts a server for a load test (README, "Load testing"); it listens on
/// `ws://127.0.0.1:7878`, the load test's default `--server`.
pub const START_SERVER: &str = "cargo run --release -p battle-server -- --rate-per-sec 0 \
     --ip-rate-per-sec 0 --create-rate-per-sec 0 --ip-create-rate-per-sec 0";

/// How a load test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The run completed and every threshold held: exit code 0.
    Passed,
    /// The run completed but a threshold failed: exit code 1.
    ThresholdFailed,
    /// The run itself failed: exit code 2.
    RunFailed,
}

impl Status {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Status::Passed => 0,
            Status::ThresholdFailed => 1,
            Status::RunFailed => 2,
        }
    }

    /// A few words for the report.
    pub fn describe(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::ThresholdFailed => "threshold failed",
            Status::RunFailed => "run failed",
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

/// What nobody answering at `url` looks like to the operator, with `cause` (the socket's
/// error) and how to start a server.
pub fn no_server(url: &str, cause: &dyn std::fmt::Display) -> String {
    format!(
        "no server answers at {url} ({cause}). Start one with `{START_SERVER}` (it listens \
         on ws://127.0.0.1:7878) or pass the URL of a running one with --server"
    )
}

/// Why a run stops at the first `rate_limited`: the server at `url` holds the load to rates
/// sized for people, so nothing it measures would be the server's.
pub fn over_rates(url: &str) -> String {
    format!(
        "the server at {url} refused the load over its rate limits (server:rate_limited): \
         its defaults are sized for people playing, not for a load generator; start it with \
         `battle-server {LOAD_LIMITS}` (as bench/run does) and run the load test again"
    )
}

/// Why a finished run counts as failed, if it does: it was stopped early (`halted`), it
/// opened no connection, it started no battle, or every battle it started failed.
pub fn failure(
    url: &str,
    halted: Option<String>,
    connections_opened: u64,
    battles: &BattleCounts,
    errors: &BTreeMap<String, u64>,
) -> Option<String> {
    if let Some(why) = halted {
        return Some(why);
    }
    let seen = if errors.is_empty() {
        String::from("no error was reported")
    } else {
        let list: Vec<String> = errors.iter().map(|(k, v)| format!("{k} ×{v}")).collect();
        format!("errors: {}", list.join(", "))
    };
    if connections_opened == 0 {
        return Some(format!(
            "could not open a single connection to {url} ({seen}); is a server running there? \
             Start one with `{START_SERVER}`"
        ));
    }
    if battles.started == 0 {
        return Some(format!("no battle could be started ({seen})"));
    }
    if battles.failed == battles.started {
        return Some(format!(
            "every battle started ({}) failed ({seen})",
            battles.started
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_to_start_has_the_limits_of_a_load_generator() {
        for flag in LOAD_LIMITS.split(' ').filter(|f| f.starts_with("--")) {
            assert!(START_SERVER.contains(flag), "{flag}");
        }
        let why = over_rates("ws://127.0.0.1:7878");
        assert!(
            why.contains("server:rate_limited") && why.contains(LOAD_LIMITS),
            "{why}"
        );
    }

    #[test]
    fn exit_codes() {
        assert_eq!(ExitCode::from(Status::Passed), ExitCode::SUCCESS);
        assert_eq!(Status::ThresholdFailed.code(), 1);
        assert_eq!(ExitCode::from(Status::RunFailed), ExitCode::from(2));
    }

    #[test]
    fn a_run_without_connections_or_battles_failed() {
        let mut errors = BTreeMap::new();
        errors.insert("client:websocket_connect".to_string(), 3);
        let none = BattleCounts::default();
        let why = failure("ws://127.0.0.1:9", None, 0, &none, &errors).expect("failed");
        assert!(why.contains("client:websocket_connect ×3"), "{why}");
        assert!(why.contains(START_SERVER), "{why}");
        let why = failure("ws://x", None, 4, &none, &BTreeMap::new()).expect("failed");
        assert!(why.starts_with("no battle could be started"), "{why}");
        let all_failed = BattleCounts {
            started: 2,
            failed: 2,
            ..BattleCounts::default()
        };
        assert!(failure("ws://x", None, 4, &all_failed, &errors).is_some());
        let some_played = BattleCounts {
            started: 2,
            completed: 1,
            failed: 1,
            ..BattleCounts::default()
        };
        assert_eq!(failure("ws://x", None, 4, &some_played, &errors), None);
        assert_eq!(
            failure("ws://x", Some("stopped".into()), 4, &some_played, &errors),
            Some("stopped".into())
        );
    }
}
