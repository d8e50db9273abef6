//! Rendering `/metrics`: the series read off the lobby at that moment (battles by ruleset
//! and status, connections and audiences, what the open connections wrote, the process),
//! then the whole page in the Prometheus text format.

use std::collections::HashMap;

use battle_protocol::BattleStatus;
use metrics::Label;

use super::names::*;
use super::Metrics;
use crate::lobby::Lobby;

/// Every status, as the `status` label spells it.
const STATUSES: [(BattleStatus, &str); 3] = [
    (BattleStatus::Waiting, "waiting"),
    (BattleStatus::Playing, "playing"),
    (BattleStatus::Finished, "finished"),
];

/// What the lobby holds now, counted for the gauges.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Live battles by ruleset and status.
    pub battles: HashMap<(String, BattleStatus), u64>,
    /// Seats held by a connected person.
    pub players: u64,
    /// Spectators, one per battle watched.
    pub spectators: u64,
}

impl Census {
    /// Count the battles `lobby` lists now.
    pub fn of(lobby: &Lobby) -> Census {
        let mut census = Census::default();
        lobby.for_each_summary(|summary| {
            *census
                .battles
                .entry((summary.ruleset.clone(), summary.status))
                .or_default() += 1;
            census.players += summary
                .seats
                .iter()
                .filter(|seat| seat.connected && !seat.bot)
                .count() as u64;
            census.spectators += summary.spectators as u64;
        });
        census
    }
}

impl Metrics {
    /// The page `GET /metrics` answers: every series, the ones read off `lobby` as they are
    /// now.
    pub fn render(&self, lobby: &Lobby) -> String {
        let census = Census::of(lobby);
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
            .set(lobby.connection_count() as f64);
        self.gauge(QUEUED, Vec::new())
            .set(lobby.queued_players() as f64);
        let owned = if lobby.cluster().is_some() {
            lobby.len()
        } else {
            0
        };
        self.gauge(OWNED, Vec::new()).set(owned as f64);
        let (frames, bytes) = lobby.sent_by_open_connections();
        let closed =
            |total: &std::sync::atomic::AtomicU64| total.load(std::sync::atomic::Ordering::Relaxed);
        self.counter(FRAMES_SENT)
            .absolute(frames + closed(&self.closed_frames));
        self.counter(BYTES_SENT)
            .absolute(bytes + closed(&self.closed_bytes));
        self.gauge(QUARANTINED, Vec::new())
            .set(lobby.quarantined_count() as f64);
        let available = if lobby.store().is_available() {
            1.0
        } else {
            0.0
        };
        self.gauge(STORE_AVAILABLE, Vec::new()).set(available);
        self.counter(STORE_COMMIT_FAILURES)
            .absolute(lobby.store().commit_failures());
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
