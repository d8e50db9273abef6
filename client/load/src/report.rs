//! The load test's result: a [`Report`], written as JSON here and printed as a table by
//! module `table`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::stats::LatencySummary;
use super::status::Status;
use super::tally::BattleCounts;
use super::threshold::Verdict;

/// The server's resource use, from `/proc` (with `--server-pid`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ServerUsage {
    /// The server's process id.
    pub pid: u32,
    /// Other processes counted with it (`--also-pid`: a cluster node's `redis-server`):
    /// every figure below is their sum with the server's.
    pub also_pids: Vec<u32>,
    /// CPU seconds (user + system) the server used during the measured window.
    pub cpu_secs: f64,
    /// Server CPU seconds per 1,000 accepted actions in the measured window.
    pub cpu_secs_per_1000_actions: Option<f64>,
    /// Server CPU seconds per 1,000 engine ticks in the measured window (rulesets that
    /// tick by themselves; `null` when none ticked).
    pub cpu_secs_per_1000_ticks: Option<f64>,
    /// Share of one core the server used during the measured window (1.0 = one full core).
    pub cpu_cores: f64,
    /// RSS before the first connection, in KiB.
    pub rss_start_kib: u64,
    /// RSS at the end, before the load test's connections closed, in KiB.
    pub rss_end_kib: u64,
    /// Highest RSS seen (sampled every 250 ms), in KiB.
    pub rss_peak_kib: u64,
    /// `(rss_peak_kib − rss_start_kib) / peak_battles`: how much the server's RSS grew during
    /// this run per battle in progress at the peak, in KiB (`null` when no battle started).
    /// It counts what the server holds per battle (the battle, its connections, and finished
    /// battles it still lists). Comparable between runs against a freshly started server
    /// only: a server that already carried such a load reuses the memory it kept, and grows
    /// little or not at all.
    pub rss_per_battle_kib: Option<f64>,
}

/// Everything a load test measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// The servers' URLs players and creators connected to (`--server`), separated by
    /// commas.
    pub url: String,
    /// The servers spectators connected to (`--spectator-server`), separated by commas;
    /// `null`: the same as `url`.
    pub spectator_url: Option<String>,
    /// Whether connections that failed connected again (`--reconnect`).
    pub reconnect: bool,
    /// The ruleset played.
    pub ruleset: String,
    /// The ruleset's sample played, by name.
    pub sample: String,
    /// The create options sent.
    pub options: serde_json::Value,
    /// Battles kept running at once.
    pub concurrency: usize,
    /// Player connections per battle (the client plays these seats).
    pub players: usize,
    /// Spectator connections per battle.
    pub spectators: usize,
    /// Think time before each action, in milliseconds.
    pub think_ms: u64,
    /// Source addresses the connections were spread over.
    pub source_addrs: u8,
    /// Wall time of the whole run, in seconds.
    pub elapsed_secs: f64,
    /// Length of the measured window: from the moment every slot had its connections open
    /// to the end of the run (the whole run when it never got that far).
    pub window_secs: f64,
    /// Battles the server created. Always `battles_completed + battles_abandoned +
    /// battles_failed`.
    pub battles_started: u64,
    /// Battles played to their outcome.
    pub battles_completed: u64,
    /// Battles cut off by the end of the run.
    pub battles_abandoned: u64,
    /// Battles ended by an error (a refused `join` or `spectate`, a lost or stalled
    /// connection, too many refused actions).
    pub battles_failed: u64,
    /// Most battles in progress at once.
    pub peak_battles: u64,
    /// Connections opened (WebSocket handshake done) over the whole run, reconnections
    /// included.
    pub connections_opened: u64,
    /// Connections opened again after one failed during the run, each having taken its
    /// place back in its battle or tried to (`--reconnect`).
    pub reconnects: u64,
    /// Actions accepted (answered with their `req`) over the whole run.
    pub actions: u64,
    /// Actions accepted per second in the measured window.
    pub actions_per_sec: f64,
    /// Frames received over the whole run.
    pub frames_in: u64,
    /// Frames sent over the whole run.
    pub frames_out: u64,
    /// Payload bytes received over the whole run.
    pub bytes_in: u64,
    /// Payload bytes sent over the whole run.
    pub bytes_out: u64,
    /// Frames received per second in the measured window.
    pub frames_in_per_sec: f64,
    /// Payload bytes received per second in the measured window.
    pub bytes_in_per_sec: f64,
    /// Frames sent per second in the measured window.
    pub frames_out_per_sec: f64,
    /// `act` sent → the patch or snapshot carrying its `req` received.
    pub latency: LatencySummary,
    /// A change's earliest receipt among the battle's connections → a spectator's receipt.
    pub spectator_lag: LatencySummary,
    /// `act` sent → a spectator received the change it caused.
    pub act_to_spectator: LatencySummary,
    /// Rulesets that tick by themselves, with a battle pace (`--pace-ms`): how late each
    /// tick's patch reached a spectator after it was due, the fight's cadence anchored on
    /// its earliest arrival (see `ticks.rs`). Empty otherwise.
    pub tick_lag: LatencySummary,
    /// Engine ticks seen over the run (one connection per battle).
    pub ticks: u64,
    /// Engine ticks per second in the measured window.
    pub ticks_per_sec: f64,
    /// Completed battles whose connections counted different numbers of changes (a resync
    /// happened): no lag samples were taken from them.
    pub lag_unaligned_battles: u64,
    /// All errors: `server:<code>` for `error` messages, `client:<what>` for transport trouble.
    pub error_total: u64,
    /// Errors by kind.
    pub errors: BTreeMap<String, u64>,
    /// All protocol violations.
    pub violation_total: u64,
    /// Violations by kind: `seq_gap`, `patch_does_not_apply`, `patch_before_snapshot`,
    /// `undecodable_message`, `binary_frame`, `unexpected_reply`.
    pub violations: BTreeMap<String, u64>,
    /// The server's resource use, with `--server-pid`.
    pub server: Option<ServerUsage>,
    /// CPU seconds the load generator itself used during the measured window.
    pub client_cpu_secs: Option<f64>,
    /// The `--threshold` gates and how they fared.
    pub thresholds: Vec<Verdict>,
    /// Why the run itself failed (exit code 2), when it did: no connection, no battle
    /// started, every battle failed, or the server refused what the run asks for.
    pub failure: Option<String>,
}

impl Report {
    /// Whether every threshold held.
    pub fn passed(&self) -> bool {
        self.thresholds.iter().all(|v| v.passed)
    }

    /// How the run ended; its [`Status::code`] is the process exit code.
    pub fn status(&self) -> Status {
        if self.failure.is_some() {
            Status::RunFailed
        } else if !self.passed() {
            Status::ThresholdFailed
        } else {
            Status::Passed
        }
    }

    /// The battle counts.
    pub fn battles(&self) -> BattleCounts {
        BattleCounts {
            started: self.battles_started,
            completed: self.battles_completed,
            abandoned: self.battles_abandoned,
            failed: self.battles_failed,
            peak_in_flight: self.peak_battles,
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // Plain data (numbers, strings, maps with string keys) always serializes.
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A report with a few figures set, for this module's tests and the table's.
    pub(crate) fn sample() -> Report {
        let mut report = Report {
            url: "ws://127.0.0.1:7878".into(),
            ruleset: "synergy".into(),
            sample: "pvp".into(),
            options: serde_json::json!({"mode": "pvp"}),
            concurrency: 2,
            players: 2,
            spectators: 2,
            battles_started: 5,
            battles_completed: 3,
            battles_abandoned: 1,
            battles_failed: 1,
            peak_battles: 2,
            actions: 100,
            actions_per_sec: 50.0,
            ..Report::default()
        };
        report.errors.insert("server:not_your_turn".into(), 1);
        report.error_total = 1;
        report.latency.p95_ms = 1.25;
        report.latency.p99_ms = 1.5;
        report.thresholds.push(Verdict {
            threshold: "p99<1ms".into(),
            value: Some(1.5),
            unit: "ms",
            passed: false,
        });
        report
    }

    #[test]
    fn json_round_trips_the_figures() {
        let report = sample();
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("valid JSON");
        assert_eq!(json["actions"], 100);
        assert_eq!(json["actions_per_sec"], 50.0);
        assert_eq!(json["latency"]["p95_ms"], 1.25);
        assert_eq!(json["latency"]["p99_ms"], 1.5);
        assert_eq!(json["errors"]["server:not_your_turn"], 1);
        assert_eq!(json["violation_total"], 0);
        assert_eq!(json["server"], serde_json::Value::Null);
        assert_eq!(json["thresholds"][0]["passed"], false);
        assert_eq!(json["thresholds"][0]["unit"], "ms");
        assert_eq!(json["battles_failed"], 1);
        assert_eq!(json["failure"], serde_json::Value::Null);
        assert!(!report.passed());
    }

    #[test]
    fn status_tells_a_failed_threshold_from_a_failed_run() {
        let mut report = sample();
        assert!(report.battles().balanced());
        assert_eq!(report.status(), Status::ThresholdFailed);
        report.thresholds[0].passed = true;
        assert_eq!(report.status(), Status::Passed);
        report.failure = Some("no battle could be started".into());
        assert_eq!(report.status(), Status::RunFailed);
        report.thresholds.clear();
        assert_eq!(report.status().code(), 2);
    }
}
