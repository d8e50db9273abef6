//! What a battle's actor is given by whoever hosts it (the lobby): its settings, its
//! counters, its journal, and where it reports its summary and its end. The actor names
//! this trait, never the lobby, so the battle sits below the registry that holds it.

use std::net::IpAddr;

use battle_protocol::{BattleStatus, BattleSummary};

use crate::config::Config;
use crate::metrics::Metrics;
use crate::store::Store;

/// The services a battle's actor uses and the registry it reports to.
pub trait Host: Send + Sync {
    /// The server's settings.
    fn config(&self) -> &Config;
    /// What the server counts.
    fn metrics(&self) -> &Metrics;
    /// The battle's journal.
    fn store(&self) -> &Store;
    /// In a cluster: this node's id (`None` on a single server). A clustered battle fences
    /// what it sends so that it leaves only while this node owns the battle.
    fn node_id(&self) -> Option<&str>;
    /// The battle's summary changed.
    fn set_summary(&self, battle_id: &str, summary: BattleSummary);
    /// The battle is gone: out of the registry (and, in a cluster, its directory).
    fn remove(&self, battle_id: &str);
    /// The battle moved to another node: out of this node's registry only.
    fn remove_local(&self, battle_id: &str);
}

/// A battle's hold on its creator's open-battle quotas, given up (dropped) once the battle
/// is under way.
pub trait CreatorClaim: Send + Sync {
    /// Whether the battle was created from `ip`.
    fn created_from(&self, ip: IpAddr) -> bool;
}

/// Whether a battle is under way: started, with a person in it (a seat held by someone, not
/// a bot, or a spectator). Until then it counts against its creator's quotas.
pub fn under_way(summary: &BattleSummary) -> bool {
    summary.status != BattleStatus::Waiting
        && (summary.spectators > 0 || summary.seats.iter().any(|seat| seat.taken && !seat.bot))
}
