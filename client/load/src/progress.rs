//! `--progress-json`: while the run goes on, one JSON object per interval, one per line, for
//! tools that follow a run as it happens (stderr by default, so that stdout holds only the
//! report). The lines stop with the run.
//!
//! Counts and latency percentiles are cumulative since the start of the run; only
//! `actions_per_sec` is measured over the interval since the previous line.

use std::io::Write as _;
use std::sync::mpsc::Sender;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::stats::{Series, Stats};

/// One progress line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgressLine {
    /// Seconds since the run started.
    pub elapsed_s: f64,
    /// Battles the server created so far.
    pub battles_started: u64,
    /// Battles played to their outcome so far.
    pub battles_completed: u64,
    /// Battles cut off by the end of the run so far (0 until the deadline, as a rule).
    pub battles_abandoned: u64,
    /// Battles ended by an error so far.
    pub battles_failed: u64,
    /// Battles in progress now.
    pub battles_in_flight: u64,
    /// Connections open now.
    pub connections: u64,
    /// Actions accepted so far.
    pub actions: u64,
    /// Actions accepted per second since the previous line.
    pub actions_per_sec: f64,
    /// Median action latency so far, in milliseconds.
    pub p50_ms: f64,
    /// 95th percentile of the action latency so far, in milliseconds.
    pub p95_ms: f64,
    /// 99th percentile of the action latency so far, in milliseconds.
    pub p99_ms: f64,
    /// Errors so far.
    pub errors: u64,
    /// Protocol violations so far.
    pub violations: u64,
}

/// Where the progress lines go.
#[derive(Debug, Clone, Default)]
pub enum ProgressSink {
    /// Standard error, one line each.
    #[default]
    Stderr,
    /// A channel, one line (without its newline) per message: for callers that run the load
    /// test as a library.
    Channel(Sender<String>),
}

impl ProgressSink {
    /// Write one line. A closed stderr or a dropped receiver loses the line, not the run.
    pub fn emit(&self, line: &str) {
        match self {
            ProgressSink::Stderr => {
                let _ = writeln!(std::io::stderr().lock(), "{line}");
            }
            ProgressSink::Channel(sender) => {
                let _ = sender.send(line.to_string());
            }
        }
    }
}

/// Builds the lines: remembers the previous one's moment and action count for the rate.
#[derive(Debug)]
pub struct Progress {
    start: Instant,
    last_at: Instant,
    last_actions: u64,
}

impl Progress {
    /// Lines of a run that started at `start`.
    pub fn new(start: Instant) -> Progress {
        Progress {
            start,
            last_at: start,
            last_actions: 0,
        }
    }

    /// The line for `now`.
    pub fn line(&mut self, stats: &Stats, now: Instant) -> ProgressLine {
        let battles = stats.battles.counts();
        let actions = Stats::get(&stats.actions);
        let interval = now.saturating_duration_since(self.last_at).as_secs_f64();
        let actions_per_sec = if interval > 0.0 {
            actions.saturating_sub(self.last_actions) as f64 / interval
        } else {
            0.0
        };
        self.last_at = now;
        self.last_actions = actions;
        let latency = stats.summary(Series::Action);
        ProgressLine {
            elapsed_s: now.saturating_duration_since(self.start).as_secs_f64(),
            battles_started: battles.started,
            battles_completed: battles.completed,
            battles_abandoned: battles.abandoned,
            battles_failed: battles.failed,
            battles_in_flight: battles.in_flight(),
            connections: Stats::get(&stats.connections),
            actions,
            actions_per_sec,
            p50_ms: latency.p50_ms,
            p95_ms: latency.p95_ms,
            p99_ms: latency.p99_ms,
            errors: stats.error_total(),
            violations: stats.violation_total(),
        }
    }
}

impl ProgressLine {
    /// The line as one line of JSON.
    pub fn to_json(&self) -> String {
        // Numbers only: always serializes.
        serde_json::to_string(self).expect("a progress line always serializes")
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::stats::Samples;

    #[test]
    fn lines_count_so_far_and_rate_over_the_interval() {
        let stats = Stats::new();
        let start = Instant::now();
        let mut progress = Progress::new(start);
        let battle = stats.battles.start();
        Stats::add(&stats.actions, 10);
        stats.flush(&mut Samples {
            action: vec![1_000, 2_000, 3_000],
            ..Samples::default()
        });
        let first = progress.line(&stats, start + Duration::from_secs(2));
        assert_eq!(first.actions, 10);
        assert_eq!(first.actions_per_sec, 5.0);
        assert_eq!((first.battles_started, first.battles_in_flight), (1, 1));
        assert!(first.p99_ms >= 2.9 && first.p99_ms <= 3.01, "{first:?}");
        battle.end(super::super::tally::Outcome::Completed);
        Stats::add(&stats.actions, 4);
        stats.error("client:stall");
        let second = progress.line(&stats, start + Duration::from_secs(4));
        assert_eq!(second.actions, 14);
        assert_eq!(second.actions_per_sec, 2.0, "over the last interval only");
        assert_eq!((second.battles_completed, second.battles_in_flight), (1, 0));
        assert_eq!(second.errors, 1);
        assert_eq!(second.elapsed_s, 4.0);

        let json = second.to_json();
        assert!(!json.contains('\n'), "one line: {json}");
        let parsed: ProgressLine = serde_json::from_str(&json).expect("parses back");
        assert_eq!(parsed, second);
    }

    #[test]
    fn a_channel_sink_receives_each_line() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let sink = ProgressSink::Channel(sender);
        sink.emit("{\"a\":1}");
        sink.emit("{\"a\":2}");
        let lines: Vec<String> = receiver.try_iter().collect();
        assert_eq!(lines, ["{\"a\":1}", "{\"a\":2}"]);
    }
}
