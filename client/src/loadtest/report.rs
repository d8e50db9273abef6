//! The load test's result: a [`Report`], printed as a table or written as JSON.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::Serialize;

use super::stats::LatencySummary;
use super::threshold::Verdict;

/// The server's resource use, from `/proc` (with `--server-pid`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ServerUsage {
    /// The server's process id.
    pub pid: u32,
    /// CPU seconds (user + system) the server used during the measured window.
    pub cpu_secs: f64,
    /// Server CPU seconds per 1,000 accepted actions in the measured window.
    pub cpu_secs_per_1000_actions: Option<f64>,
    /// Share of one core the server used during the measured window (1.0 = one full core).
    pub cpu_cores: f64,
    /// RSS before the first connection.
    pub rss_start_kib: u64,
    /// RSS at the end, before the load test's connections closed.
    pub rss_end_kib: u64,
    /// Highest RSS seen (sampled every 250 ms).
    pub rss_peak_kib: u64,
    /// `(rss_peak − rss_start) / concurrency`: server memory per live battle with its
    /// connections.
    pub rss_per_battle_kib: Option<f64>,
}

/// Everything a load test measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// The server's URL.
    pub url: String,
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
    /// Battles created.
    pub battles_started: u64,
    /// Battles played to their outcome.
    pub battles_completed: u64,
    /// Battles cut off by the end of the run or by an error.
    pub battles_abandoned: u64,
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
}

impl Report {
    /// Whether every threshold held.
    pub fn passed(&self) -> bool {
        self.thresholds.iter().all(|v| v.passed)
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // Plain data (numbers, strings, maps with string keys) always serializes.
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// The report as a human-readable table.
    pub fn table(&self) -> String {
        self.to_string()
    }
}

fn latency_row(out: &mut String, name: &str, s: &LatencySummary) -> fmt::Result {
    writeln!(
        out,
        "  {name:<18} {:>9} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>9.2}",
        s.count, s.p50_ms, s.p90_ms, s.p99_ms, s.p999_ms, s.max_ms
    )
}

fn counts(map: &BTreeMap<String, u64>) -> String {
    if map.is_empty() {
        return "none".into();
    }
    map.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        let o = &mut out;
        writeln!(
            o,
            "load test of {} — {} sample {} {}, {} concurrent battles × ({} player(s) + {} spectator(s)), think {} ms",
            self.url, self.ruleset, self.sample, self.options, self.concurrency, self.players, self.spectators, self.think_ms
        )?;
        writeln!(
            o,
            "  run {:.1} s, measured window {:.1} s",
            self.elapsed_secs, self.window_secs
        )?;
        writeln!(
            o,
            "  battles   started {}  completed {}  abandoned {}",
            self.battles_started, self.battles_completed, self.battles_abandoned
        )?;
        writeln!(
            o,
            "  actions   {}  ({:.0}/s)",
            self.actions, self.actions_per_sec
        )?;
        writeln!(
            o,
            "  frames    in {} ({:.0}/s, {:.2} MB/s)  out {} ({:.0}/s)",
            self.frames_in,
            self.frames_in_per_sec,
            self.bytes_in_per_sec / 1e6,
            self.frames_out,
            self.frames_out_per_sec
        )?;
        writeln!(
            o,
            "  latency (ms)           count      p50      p90      p99    p99.9       max"
        )?;
        latency_row(o, "action", &self.latency)?;
        latency_row(o, "spectator lag", &self.spectator_lag)?;
        latency_row(o, "act→spectator", &self.act_to_spectator)?;
        if self.lag_unaligned_battles > 0 {
            writeln!(
                o,
                "  ({} battles gave no lag samples: resynced)",
                self.lag_unaligned_battles
            )?;
        }
        writeln!(
            o,
            "  errors     {}  ({})",
            self.error_total,
            counts(&self.errors)
        )?;
        writeln!(
            o,
            "  violations {}  ({})",
            self.violation_total,
            counts(&self.violations)
        )?;
        if let Some(s) = &self.server {
            let per_1000 = s
                .cpu_secs_per_1000_actions
                .map_or("-".into(), |v| format!("{v:.4}"));
            let per_battle = s
                .rss_per_battle_kib
                .map_or("-".into(), |v| format!("{v:.1}"));
            writeln!(
                o,
                "  server    pid {}  cpu {:.2} s ({:.2} cores)  {} cpu-s per 1000 actions",
                s.pid, s.cpu_secs, s.cpu_cores, per_1000
            )?;
            writeln!(
                o,
                "            rss start {} KiB  peak {} KiB  end {} KiB  {} KiB per battle",
                s.rss_start_kib, s.rss_peak_kib, s.rss_end_kib, per_battle
            )?;
        }
        if let Some(cpu) = self.client_cpu_secs {
            writeln!(o, "  client    cpu {cpu:.2} s")?;
        }
        for v in &self.thresholds {
            let value = v.value.map_or("not measured".into(), |x| format!("{x:.3}"));
            let mark = if v.passed { "ok  " } else { "FAIL" };
            writeln!(o, "  {mark} {}  (measured {value})", v.threshold)?;
        }
        f.write_str(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        let mut report = Report {
            url: "ws://127.0.0.1:7878".into(),
            ruleset: "synergy".into(),
            sample: "pvp".into(),
            options: serde_json::json!({"mode": "pvp"}),
            concurrency: 2,
            players: 2,
            spectators: 2,
            actions: 100,
            actions_per_sec: 50.0,
            ..Report::default()
        };
        report.errors.insert("server:not_your_turn".into(), 1);
        report.error_total = 1;
        report.latency.p99_ms = 1.5;
        report.thresholds.push(Verdict {
            threshold: "p99<1ms".into(),
            value: Some(1.5),
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
        assert_eq!(json["latency"]["p99_ms"], 1.5);
        assert_eq!(json["errors"]["server:not_your_turn"], 1);
        assert_eq!(json["violation_total"], 0);
        assert_eq!(json["server"], serde_json::Value::Null);
        assert_eq!(json["thresholds"][0]["passed"], false);
        assert!(!report.passed());
    }

    #[test]
    fn table_shows_the_headline_figures() {
        let mut report = sample();
        report.server = Some(ServerUsage {
            pid: 7,
            cpu_secs: 1.0,
            cpu_secs_per_1000_actions: Some(0.05),
            rss_per_battle_kib: Some(40.0),
            ..ServerUsage::default()
        });
        let table = report.table();
        for needle in [
            "100  (50/s)",
            "server:not_your_turn=1",
            "violations 0",
            "FAIL p99<1ms",
            "0.0500",
            "40.0 KiB",
        ] {
            assert!(table.contains(needle), "{needle:?} missing from\n{table}");
        }
    }
}
