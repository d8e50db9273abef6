//! Draining a node (SIGTERM in cluster mode, or `battle-server drain <node-id>`): it takes no
//! new battles and hands each of its battles to the live node with the fewest, one at a
//! time: the battle's actor stops, its log is committed, ownership moves by one
//! compare-and-set that raises the epoch, and the new owner is told to take it (it replays
//! the log and says the battle moved, and every node takes its connections back there).
//!
//! Placement uses the same measure: a new battle goes to the live, non-draining node that
//! owns the fewest battles (this node when it is among the fewest).

use std::sync::Arc;
use std::time::Duration;

use super::committer::Op;
use super::node;
use super::wire::{Forwarded, InboxEntry};
use super::Cluster;

/// How many battles more than the least loaded node this node may own and still keep a new
/// battle for itself (a new battle then costs no hop between nodes).
pub const PLACEMENT_SLACK: u64 = 8;

/// Hand every battle of this node to the others. Returns how many were handed over.
pub async fn drain(cluster: &Arc<Cluster>) -> usize {
    cluster.set_draining();
    let Some(lobby) = cluster.lobby() else {
        return 0;
    };
    let mut handed = 0;
    for battle in lobby.local_ids() {
        if hand_off(cluster, &lobby, &battle).await {
            handed += 1;
        }
    }
    tracing::info!(handed, "battles handed to the other nodes");
    handed
}

/// Hand one battle to the least loaded other node; whether it was.
async fn hand_off(cluster: &Arc<Cluster>, lobby: &crate::lobby::Lobby, battle: &str) -> bool {
    let mut conn = cluster.conn.clone();
    let Ok(nodes) = node::live(&mut conn).await else {
        return false;
    };
    let Some(target) = nodes
        .iter()
        .filter(|n| !n.draining && n.id != cluster.node_id())
        .min_by_key(|n| n.battles)
    else {
        tracing::warn!(%battle, "no other node to hand this battle to");
        return false;
    };
    let target_owner = format!("{}/{}", target.id, target.instance);
    let Some((epoch, members)) = lobby.let_go_for_hand_off(battle).await else {
        return false;
    };
    // Everything the battle wrote is in Redis before it changes hands.
    let store = lobby.store().clone();
    let _ = tokio::time::timeout(Duration::from_secs(5), store.flush()).await;
    cluster.link.send(Op::Disown {
        battle: battle.to_string(),
    });
    let handed: redis::RedisResult<Option<u64>> = cluster
        .scripts
        .handoff
        .prepare_invoke()
        .arg(battle)
        .arg(&cluster.owner)
        .arg(epoch)
        .arg(&target_owner)
        .invoke_async(&mut conn)
        .await;
    cluster.follows.adopt(battle, members).await;
    match handed {
        Ok(Some(_)) => {
            cluster
                .owners
                .insert(battle.to_string(), target_owner.clone());
            let entry = InboxEntry {
                from: cluster.owner.clone(),
                conn: 0,
                battle: battle.to_string(),
                cmd: Forwarded::Take,
            };
            let mut pipe = redis::pipe();
            super::forward::post(&mut pipe, &target.id, &entry);
            let sent: redis::RedisResult<()> = pipe.query_async(&mut conn).await;
            if let Err(err) = sent {
                tracing::warn!(%battle, %err, "cannot tell the new owner to take its battle");
            }
            true
        }
        Ok(None) => {
            tracing::warn!(%battle, "the battle was not this node's to hand over any more");
            false
        }
        Err(err) => {
            tracing::warn!(%battle, %err, "cannot hand the battle over");
            false
        }
    }
}
