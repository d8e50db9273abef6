//! Rendering `/metrics`: the series read off the lobby at that moment (a [`Reading`]: battles
//! by ruleset and status, connections and audiences, what the open connections wrote, the
//! store), the process, then the whole page in the Prometheus text format.

use std::collections::HashMap;

use battle_protocol::BattleStatus;
use metrics::Label;

use super::names::*;
use super::Metrics;

/// Every status, as the `status` label spells it.
const STATUSES: [(BattleStatus, &str); 3] = [
    (BattleStatus::Waiting, "waiting"),
    (BattleStatus::Playing, "playing"),
    (BattleStatus::Finished, "finished"),
];

/// What the lobby holds now, counted for the gauges (`crate::lobby` counts it).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Live battles by ruleset and status.
    pub battles: HashMap<(String, BattleStatus), u64>,
    /// Seats held by a connected person.
    pub players: u64,
    /// Spectators, one per battle watched.
    pub spectators: u64,
}

/// Everything `/metrics` reads off the lobby, read at one moment.
#[derive(Debug, Default)]
pub struct Reading {
    /// The live battles, players and spectators.
    pub census: Census,
    /// Open connections.
    pub connections: u64,
    /// Players waiting in the matchmaker's queue.
    pub queued: u64,
    /// In a cluster, the battles this node owns (0 on a single server).
    pub owned: u64,
    /// Frames and bytes the open connections wrote so far.
    pub sent: (u64, u64),
    /// Battles set aside.
    pub quarantined: u64,
    /// Whether the store takes writes now.
    pub store_available: bool,
    /// Commits to the data directory that failed so far.
    pub commit_failures: u64,
}

impl Metrics {
    /// The page `GET /metrics` answers: every series, the ones read off the lobby as `now`
    /// holds them.
    pub fn render(&self, now: &Reading) -> String {
        let census = &now.census;
        let mut rulesets: Vec<&str> = self.rulesets.iter().map(|(id, _)| *id).collect();
        for (ruleset, _) in census.battles.keys() {
            if !rulesets.contains(&ruleset.as_str()) {
                rulesets.push(ruleset);
            }
        }
        for ruleset in rulesets {
            for (status, name) in STATUSES {
                let count = census
                    .battles
                    .get(&(ruleset.to_string(), status))
                    .copied()
                    .unwrap_or(0);
                let labels = vec![
                    Label::new("ruleset", ruleset.to_string()),
                    Label::new("status", name),
                ];
                self.gauge(BATTLES, labels).set(count as f64);
            }
        }
        self.gauge(PLAYERS, Vec::new()).set(census.players as f64);
        self.gauge(SPECTATORS, Vec::new())
            .set(census.spectators as f64);
        self.gauge(CONNECTIONS, Vec::new())
            .set(now.connections as f64);
        self.gauge(QUEUED, Vec::new()).set(now.queued as f64);
        self.gauge(OWNED, Vec::new()).set(now.owned as f64);
        let (frames, bytes) = now.sent;
        let closed =
            |total: &std::sync::atomic::AtomicU64| total.load(std::sync::atomic::Ordering::Relaxed);
        self.counter(FRAMES_SENT)
            .absolute(frames + closed(&self.closed_frames));
        self.counter(BYTES_SENT)
            .absolute(bytes + closed(&self.closed_bytes));
        self.gauge(QUARANTINED, Vec::new())
            .set(now.quarantined as f64);
        let available = if now.store_available { 1.0 } else { 0.0 };
        self.gauge(STORE_AVAILABLE, Vec::new()).set(available);
        self.counter(STORE_COMMIT_FAILURES)
            .absolute(now.commit_failures);
        self.gauge(UPTIME, Vec::new())
            .set(self.uptime().as_secs_f64());
        self.gauge(
            BUILD_INFO,
            vec![Label::new("version", env!("CARGO_PKG_VERSION"))],
        )
        .set(1.0);
        metrics::with_local_recorder(&self.recorder, || self.process.collect());
        self.handle.render()
    }
}
