//! Shared load-test counters and latency histograms.
//!
//! Counters are relaxed atomics, read by the progress line while the run goes on.
//! Latencies are HDR histograms behind mutexes; the battle tasks do not lock them per sample
//! but collect samples in plain vectors and hand them over once per battle ([`Stats::flush`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use hdrhistogram::Histogram;
use serde::Serialize;

use super::tally::Tally;

/// Largest latency the histograms hold, in microseconds (60 s); larger samples are clamped.
const MAX_MICROS: u64 = 60_000_000;

/// Which latency a sample belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Series {
    /// A player's `act` sent → the patch or snapshot carrying its `req` received.
    Action,
    /// The first of the battle's connections received a change → a spectator received it.
    SpectatorLag,
    /// A player's `act` sent → a spectator received the change it caused.
    ActToSpectator,
    /// For rulesets that tick by themselves: how late each tick's patch reached a spectator
    /// after it was due (the fight's cadence anchored on its earliest arrival).
    TickLag,
}

/// Latency samples of one battle, in microseconds, before they reach the shared histograms.
#[derive(Debug, Default)]
pub struct Samples {
    /// [`Series::Action`] samples.
    pub action: Vec<u64>,
    /// [`Series::SpectatorLag`] samples.
    pub spectator_lag: Vec<u64>,
    /// [`Series::ActToSpectator`] samples.
    pub act_to_spectator: Vec<u64>,
    /// [`Series::TickLag`] samples.
    pub tick_lag: Vec<u64>,
}

/// Everything the load test counts, shared by all battle tasks.
pub struct Stats {
    /// Accepted actions (an answer carrying the act's `req` arrived).
    pub actions: AtomicU64,
    /// Frames received from the server, over every connection.
    pub frames_in: AtomicU64,
    /// Bytes of text received (WebSocket payloads).
    pub bytes_in: AtomicU64,
    /// Frames sent to the server.
    pub frames_out: AtomicU64,
    /// Bytes of text sent.
    pub bytes_out: AtomicU64,
    /// Battles started, completed, abandoned and failed.
    pub battles: Tally,
    /// Battles whose connections saw different numbers of changes (no lag samples taken).
    pub lag_unaligned: AtomicU64,
    /// Engine ticks seen (by seat 0's connection of each battle).
    pub ticks: AtomicU64,
    /// Connections open now.
    pub connections: AtomicU64,
    /// Connections opened so far (the WebSocket handshake succeeded).
    pub connections_opened: AtomicU64,
    /// Connections opened again after one failed during the run (`--reconnect`).
    pub reconnects: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
    violations: Mutex<BTreeMap<String, u64>>,
    action: Mutex<Histogram<u64>>,
    spectator_lag: Mutex<Histogram<u64>>,
    act_to_spectator: Mutex<Histogram<u64>>,
    tick_lag: Mutex<Histogram<u64>>,
}

fn histogram() -> Histogram<u64> {
    // Fixed, valid bounds: 1 µs to 60 s at 3 significant figures.
    Histogram::new_with_bounds(1, MAX_MICROS, 3).expect("constant histogram bounds are valid")
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Only counters live behind these locks; a panicking holder leaves them usable.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Default for Stats {
    fn default() -> Self {
        Stats::new()
    }
}

impl Stats {
    /// Empty counters and histograms.
    pub fn new() -> Stats {
        Stats {
            actions: AtomicU64::new(0),
            frames_in: AtomicU64::new(0),
            bytes_in: AtomicU64::new(0),
            frames_out: AtomicU64::new(0),
            bytes_out: AtomicU64::new(0),
            battles: Tally::default(),
            lag_unaligned: AtomicU64::new(0),
            ticks: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            connections_opened: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            errors: Mutex::new(BTreeMap::new()),
            violations: Mutex::new(BTreeMap::new()),
            action: Mutex::new(histogram()),
            spectator_lag: Mutex::new(histogram()),
            act_to_spectator: Mutex::new(histogram()),
            tick_lag: Mutex::new(histogram()),
        }
    }

    /// Count one error under `key` (`server:<code>` for `error` messages, `client:<what>` for
    /// transport trouble).
    pub fn error(&self, key: impl Into<String>) {
        *lock(&self.errors).entry(key.into()).or_insert(0) += 1;
    }

    /// Count one protocol violation under `key` (`seq_gap`, `bad_patch`, ...).
    pub fn violation(&self, key: impl Into<String>) {
        *lock(&self.violations).entry(key.into()).or_insert(0) += 1;
    }

    /// Errors so far, by key.
    pub fn errors(&self) -> BTreeMap<String, u64> {
        lock(&self.errors).clone()
    }

    /// Violations so far, by key.
    pub fn violations(&self) -> BTreeMap<String, u64> {
        lock(&self.violations).clone()
    }

    /// Total errors so far.
    pub fn error_total(&self) -> u64 {
        lock(&self.errors).values().sum()
    }

    /// Total violations so far.
    pub fn violation_total(&self) -> u64 {
        lock(&self.violations).values().sum()
    }

    /// Move one battle's samples into the shared histograms, leaving `samples` empty.
    pub fn flush(&self, samples: &mut Samples) {
        for (series, values) in [
            (Series::Action, &mut samples.action),
            (Series::SpectatorLag, &mut samples.spectator_lag),
            (Series::ActToSpectator, &mut samples.act_to_spectator),
            (Series::TickLag, &mut samples.tick_lag),
        ] {
            if values.is_empty() {
                continue;
            }
            let mut hist = lock(self.histogram(series));
            for value in values.drain(..) {
                hist.saturating_record(value.clamp(1, MAX_MICROS));
            }
        }
    }

    fn histogram(&self, series: Series) -> &Mutex<Histogram<u64>> {
        match series {
            Series::Action => &self.action,
            Series::SpectatorLag => &self.spectator_lag,
            Series::ActToSpectator => &self.act_to_spectator,
            Series::TickLag => &self.tick_lag,
        }
    }

    /// Percentiles of one series so far.
    pub fn summary(&self, series: Series) -> LatencySummary {
        LatencySummary::of(&lock(self.histogram(series)))
    }

    /// Current value of a counter.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    /// Add `n` to a counter.
    pub fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }
}

/// Percentiles of a latency histogram, in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct LatencySummary {
    /// Number of samples.
    pub count: u64,
    /// Mean.
    pub mean_ms: f64,
    /// Median.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 95th percentile.
    pub p95_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Largest sample.
    pub max_ms: f64,
}

impl LatencySummary {
    /// Summarize a histogram of microsecond samples (all zero when it is empty).
    pub fn of(hist: &Histogram<u64>) -> LatencySummary {
        if hist.is_empty() {
            return LatencySummary::default();
        }
        let ms = |micros: u64| micros as f64 / 1000.0;
        LatencySummary {
            count: hist.len(),
            mean_ms: hist.mean() / 1000.0,
            p50_ms: ms(hist.value_at_quantile(0.50)),
            p90_ms: ms(hist.value_at_quantile(0.90)),
            p95_ms: ms(hist.value_at_quantile(0.95)),
            p99_ms: ms(hist.value_at_quantile(0.99)),
            p999_ms: ms(hist.value_at_quantile(0.999)),
            max_ms: ms(hist.max()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_samples() {
        let stats = Stats::new();
        // 1..=1000 ms: percentiles are easy to predict.
        let mut samples = Samples {
            action: (1..=1000).map(|ms| ms * 1000).collect(),
            ..Samples::default()
        };
        stats.flush(&mut samples);
        assert!(samples.action.is_empty(), "flush drains the samples");
        let s = stats.summary(Series::Action);
        assert_eq!(s.count, 1000);
        let near = |got: f64, want: f64| (got - want).abs() <= want * 0.002;
        assert!(near(s.p50_ms, 500.0), "{s:?}");
        assert!(near(s.p90_ms, 900.0), "{s:?}");
        assert!(near(s.p95_ms, 950.0), "{s:?}");
        assert!(near(s.p99_ms, 990.0), "{s:?}");
        assert!(near(s.p999_ms, 999.0), "{s:?}");
        assert!(near(s.max_ms, 1000.0), "{s:?}");
        assert!(near(s.mean_ms, 500.5), "{s:?}");
    }

    #[test]
    fn empty_and_out_of_range_samples() {
        let stats = Stats::new();
        assert_eq!(
            stats.summary(Series::SpectatorLag),
            LatencySummary::default()
        );
        let mut samples = Samples {
            spectator_lag: vec![0, u64::MAX],
            ..Samples::default()
        };
        stats.flush(&mut samples);
        let s = stats.summary(Series::SpectatorLag);
        assert_eq!(s.count, 2);
        assert!(
            s.max_ms >= 59_000.0 && s.max_ms <= 60_100.0,
            "clamped to 60 s: {s:?}"
        );
        assert_eq!(stats.summary(Series::Action).count, 0);
    }

    #[test]
    fn errors_and_violations_count_by_key() {
        let stats = Stats::new();
        stats.error("server:not_your_turn");
        stats.error("server:not_your_turn");
        stats.error("client:stall");
        stats.violation("seq_gap");
        assert_eq!(stats.error_total(), 3);
        assert_eq!(stats.errors()["server:not_your_turn"], 2);
        assert_eq!(stats.violation_total(), 1);
        assert_eq!(stats.violations()["seq_gap"], 1);
    }
}
