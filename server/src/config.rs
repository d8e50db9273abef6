//! Server settings, shared by the binary's flags and by tests that start a server in-process.

use std::net::SocketAddr;
use std::time::Duration;

use battle_rules::catalog::catalog;
use battle_rules::RulesetEntry;

/// Everything a running server can be tuned with.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Delay before each engine or bot move when `create` gives no `pace_ms`.
    pub default_pace_ms: u64,
    /// How long a finished battle stays listable before it goes away.
    pub finished_ttl: Duration,
    /// How long a battle with no connected person lives before it goes away.
    pub idle_ttl: Duration,
    /// Most battles alive at once; `create` beyond it gets `server_busy`.
    pub max_battles: usize,
    /// Frames queued for one connection before it counts as too slow and is closed.
    pub outbox_capacity: usize,
    /// Commands queued for one battle actor.
    pub battle_queue: usize,
    /// Largest client frame accepted, in bytes.
    pub max_frame_bytes: usize,
    /// The rulesets on offer: the catalog (tests add rulesets of their own).
    pub rulesets: Vec<&'static RulesetEntry>,
    /// How long a person may take over a decision the battle awaits before the ruleset
    /// decides for them ([`Ruleset::timeout`](battle_rules::Ruleset::timeout)); `None`: no
    /// clock. The hook that turn clocks plug into; no flag sets it yet.
    pub turn_limit: Option<Duration>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 7878)),
            default_pace_ms: 600,
            finished_ttl: Duration::from_secs(300),
            idle_ttl: Duration::from_secs(600),
            max_battles: 20_000,
            outbox_capacity: 256,
            battle_queue: 256,
            max_frame_bytes: 64 * 1024,
            rulesets: catalog().iter().collect(),
            turn_limit: None,
        }
    }
}

impl Config {
    /// The ruleset with this id, among those on offer.
    pub fn ruleset(&self, id: &str) -> Option<&'static RulesetEntry> {
        self.rulesets.iter().copied().find(|entry| entry.id == id)
    }

    /// Settings for tests: an ephemeral loopback port and no pacing.
    pub fn for_tests() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            default_pace_ms: 0,
            ..Config::default()
        }
    }
}
