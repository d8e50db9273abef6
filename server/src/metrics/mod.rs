//! The server's metrics, rendered in the Prometheus text format at `GET /metrics`.
//!
//! Each server has a recorder of its own (`metrics-exporter-prometheus`, without its HTTP
//! listener: the server's own HTTP side serves the page), so that servers started side by
//! side in one process (tests) count apart. Every series a hot path moves is registered once,
//! up front, and kept as a handle ([`Counter`], [`Histogram`]): moving it is one atomic
//! operation, with no lookup by name. What can be read off the lobby when the page is asked
//! for (battles by ruleset and status, connections, audiences, bytes sent) is read then, in
//! `scrape.rs`, and costs the battles nothing.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use battle_protocol::ErrorCode;
use metrics::{Counter, Gauge, Histogram, Key, KeyName, Label, Metadata, Recorder};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

mod names;
mod scrape;

pub use scrape::{Census, Reading};

pub use names::*;

/// The bounds of the action latency histogram's buckets, in seconds: from 50 µs to 1 s.
pub const LATENCY_BUCKETS: [f64; 14] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0,
];

/// The counters of one ruleset's battles.
#[derive(Debug)]
pub struct RulesetMeters {
    /// Moves people made that the battle accepted.
    pub actions_accepted: Counter,
    /// Moves the server's bot made for a seat (bot seats, timeouts, absent holders).
    pub bot_moves: Counter,
    /// Engine steps (ticks, enemy phases).
    pub engine_steps: Counter,
    /// Decisions whose clock ran out.
    pub timeouts: Counter,
    /// Battles created (or brought back from the store).
    pub battles_created: Counter,
    /// Battles that reached an outcome.
    pub battles_finished: Counter,
}

/// What a node of a cluster counts (all zero on a single server).
#[derive(Debug)]
pub struct ClusterMeters {
    /// Battles taken over from a dead node.
    pub failovers_taken: Counter,
    /// Moves sent to another node's battle.
    pub forwarded_actions: Counter,
    /// Messages published to other nodes.
    pub publications: Counter,
    /// Writes refused because another node owns the battle now.
    pub fencing_refusals: Counter,
    /// One batch of writes to Redis, sent to answered.
    pub redis_round_trip: Histogram,
}

/// What one server counts.
pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    /// Each ruleset on offer, with its counters.
    rulesets: Vec<(&'static str, Arc<RulesetMeters>)>,
    /// Moves refused, by code, in the order of [`ErrorCode::ALL`].
    refused: Vec<Counter>,
    /// From a move's arrival at the server to its patch handed to the players' sockets.
    pub action_latency: Histogram,
    /// Connections closed because their outbox overflowed (close code 1013).
    pub outbox_overflows: Counter,
    /// Requests refused over a rate limit (`rate_limited`).
    pub rate_limited: Counter,
    /// WebSocket connections opened.
    pub connections_opened: Counter,
    /// Players paired by the matchmaker.
    pub players_matched: Counter,
    /// Cluster mode.
    pub cluster: ClusterMeters,
    /// Frames and bytes written by connections that have closed (the open ones are read
    /// off their outboxes when the page is rendered).
    closed_frames: AtomicU64,
    closed_bytes: AtomicU64,
    /// HTTP requests answered, by route.
    http: Vec<(&'static str, Counter)>,
    process: metrics_process::Collector,
    started: Instant,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

/// Where the counters are registered from (Prometheus does not show it).
static METADATA: Metadata<'static> =
    Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()));

impl Metrics {
    /// A recorder of its own with every series registered, for a server offering `rulesets`.
    pub fn new(rulesets: &[&'static str]) -> Arc<Metrics> {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                metrics_exporter_prometheus::Matcher::Full(ACTION_LATENCY.into()),
                &LATENCY_BUCKETS,
            )
            .expect("the bucket list is not empty")
            .set_buckets_for_metric(
                metrics_exporter_prometheus::Matcher::Full(REDIS_ROUND_TRIP.into()),
                &LATENCY_BUCKETS,
            )
            .expect("the bucket list is not empty")
            .build_recorder();
        let handle = recorder.handle();
        describe(&recorder);
        let counter = |name: &'static str, labels: Vec<Label>| {
            recorder.register_counter(&Key::from_parts(name, labels), &METADATA)
        };
        let by_ruleset = |name: &'static str, ruleset: &'static str| {
            counter(name, vec![Label::new("ruleset", ruleset)])
        };
        let rulesets = rulesets
            .iter()
            .map(|&id| {
                let meters = RulesetMeters {
                    actions_accepted: by_ruleset(ACTIONS_ACCEPTED, id),
                    bot_moves: by_ruleset(BOT_MOVES, id),
                    engine_steps: by_ruleset(ENGINE_STEPS, id),
                    timeouts: by_ruleset(TIMEOUTS, id),
                    battles_created: by_ruleset(BATTLES_CREATED, id),
                    battles_finished: by_ruleset(BATTLES_FINISHED, id),
                };
                (id, Arc::new(meters))
            })
            .collect();
        let refused = ErrorCode::ALL
            .iter()
            .map(|code| counter(ACTIONS_REFUSED, vec![Label::new("code", code.as_str())]))
            .collect();
        let http = HTTP_ROUTES
            .iter()
            .map(|&route| {
                (
                    route,
                    counter(HTTP_REQUESTS, vec![Label::new("route", route)]),
                )
            })
            .collect();
        let process = metrics_process::Collector::default();
        metrics::with_local_recorder(&recorder, || process.describe());
        Arc::new(Metrics {
            action_latency: recorder.register_histogram(&Key::from_name(ACTION_LATENCY), &METADATA),
            outbox_overflows: counter(OUTBOX_OVERFLOWS, Vec::new()),
            rate_limited: counter(RATE_LIMITED, Vec::new()),
            connections_opened: counter(CONNECTIONS_OPENED, Vec::new()),
            players_matched: counter(PLAYERS_MATCHED, Vec::new()),
            cluster: ClusterMeters {
                failovers_taken: counter(FAILOVERS, Vec::new()),
                forwarded_actions: counter(FORWARDED, Vec::new()),
                publications: counter(PUBLICATIONS, Vec::new()),
                fencing_refusals: counter(FENCING, Vec::new()),
                redis_round_trip: recorder
                    .register_histogram(&Key::from_name(REDIS_ROUND_TRIP), &METADATA),
            },
            closed_frames: AtomicU64::new(0),
            closed_bytes: AtomicU64::new(0),
            rulesets,
            refused,
            http,
            process,
            handle,
            recorder,
            started: Instant::now(),
        })
    }

    /// The counters of a ruleset's battles (a ruleset not on offer gets counters that count
    /// nothing).
    pub fn ruleset(&self, id: &str) -> Arc<RulesetMeters> {
        self.rulesets
            .iter()
            .find(|(known, _)| *known == id)
            .map(|(_, meters)| meters.clone())
            .unwrap_or_else(|| {
                Arc::new(RulesetMeters {
                    actions_accepted: Counter::noop(),
                    bot_moves: Counter::noop(),
                    engine_steps: Counter::noop(),
                    timeouts: Counter::noop(),
                    battles_created: Counter::noop(),
                    battles_finished: Counter::noop(),
                })
            })
    }

    /// Count a move refused with `code`.
    pub fn refused(&self, code: ErrorCode) {
        if let Some(index) = ErrorCode::ALL.iter().position(|&known| known == code) {
            self.refused[index].increment(1);
        }
    }

    /// Count an HTTP request answered on `route` (one of [`HTTP_ROUTES`]; others count as
    /// `other`).
    pub fn http_request(&self, route: &str) {
        let found = self
            .http
            .iter()
            .find(|(known, _)| *known == route)
            .or_else(|| self.http.iter().find(|(known, _)| *known == "other"));
        if let Some((_, counter)) = found {
            counter.increment(1);
        }
    }

    /// Count what a connection that closed had written.
    pub fn connection_closed(&self, frames: u64, bytes: u64) {
        self.closed_frames.fetch_add(frames, Ordering::Relaxed);
        self.closed_bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// How long the server has been up.
    pub fn uptime(&self) -> Duration {
        self.started.elapsed()
    }

    /// Fold the samples recorded since the last look into the histograms, so that they do
    /// not pile up between scrapes (called every few seconds).
    pub fn upkeep(&self) {
        self.handle.run_upkeep();
    }

    fn gauge(&self, name: &'static str, labels: Vec<Label>) -> Gauge {
        self.recorder
            .register_gauge(&Key::from_parts(name, labels), &METADATA)
    }

    fn counter(&self, name: &'static str) -> Counter {
        self.recorder
            .register_counter(&Key::from_name(name), &METADATA)
    }
}

/// Register each series' help text and unit.
fn describe(recorder: &PrometheusRecorder) {
    for (name, kind, unit, help) in DESCRIPTIONS {
        let (name, help) = (KeyName::from(*name), (*help).into());
        match kind {
            Kind::Counter => recorder.describe_counter(name, *unit, help),
            Kind::Gauge => recorder.describe_gauge(name, *unit, help),
            Kind::Histogram => recorder.describe_histogram(name, *unit, help),
        }
    }
}

/// Time since `since`, for the latency histogram.
pub fn seconds_since(since: Instant) -> f64 {
    since.elapsed().as_secs_f64()
}
