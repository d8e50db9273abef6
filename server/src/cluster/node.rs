//! A node's registration: its lease in Redis (a hash whose time to live is the lease,
//! renewed three times a lease), its load, whether it drains, and the list of live nodes
//! (`/api/nodes`, placement).

use std::sync::Arc;
use std::time::Duration;

use redis::aio::ConnectionManager;
use serde::Serialize;

use super::scripts::Scripts;
use super::{keys, Cluster, ClusterConfig, ClusterError};
use crate::poison::Locked;
use crate::store::unix_now_ms;

/// How long a starting node waits for a previous instance's lease to end before it gives
/// up, in leases: a live holder renews, a dead one's lease runs out within one.
const WAIT_FOR_LEASES: u32 = 2;

/// One live node, as `/api/nodes` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeInfo {
    pub id: String,
    /// Its WebSocket URL.
    pub url: String,
    /// Battles it owns (its load).
    pub battles: u64,
    pub draining: bool,
    /// When it joined, in Unix ms.
    pub since_ms: u64,
    /// Its instance (new at every start).
    pub instance: String,
}

/// Register this node; refused while another live instance holds its id (a dead one's
/// lease is waited out).
pub async fn register(
    conn: &ConnectionManager,
    scripts: &Scripts,
    config: &ClusterConfig,
    instance: &str,
) -> Result<(), ClusterError> {
    let deadline = tokio::time::Instant::now() + config.lease * WAIT_FOR_LEASES;
    let mut said = false;
    loop {
        let mut conn = conn.clone();
        let done: i64 = scripts
            .register
            .prepare_invoke()
            .arg(&config.node_id)
            .arg(instance)
            .arg(&config.public_url)
            .arg(config.lease.as_millis() as u64)
            .arg(unix_now_ms())
            .invoke_async(&mut conn)
            .await
            .map_err(|err| ClusterError::Unreachable(config.url.clone(), err.to_string()))?;
        if done == 1 {
            return Ok(());
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ClusterError::IdInUse(config.node_id.clone()));
        }
        if !std::mem::replace(&mut said, true) {
            tracing::warn!(
                node = %config.node_id,
                "another instance holds this node id; waiting for its lease to end"
            );
        }
        tokio::time::sleep(config.lease / 4).await;
    }
}

/// Renew the lease three times a lease, with this node's load; notice when the node is
/// asked to drain.
pub async fn renew(cluster: Arc<Cluster>) {
    let every = cluster.config.lease / 3;
    let mut conn = cluster.conn.clone();
    loop {
        tokio::time::sleep(every).await;
        let Some(lobby) = cluster.lobby() else {
            return;
        };
        let load = lobby.len() as u64;
        let renewed: redis::RedisResult<i64> = cluster
            .scripts
            .renew
            .prepare_invoke()
            .arg(cluster.node_id())
            .arg(&cluster.instance)
            .arg(cluster.config.lease.as_millis() as u64)
            .arg(load)
            .arg(u8::from(cluster.is_draining()))
            .arg(&cluster.config.public_url)
            .arg(unix_now_ms())
            .invoke_async(&mut conn)
            .await;
        cluster.link.set_available(renewed.is_ok());
        match renewed {
            Ok(1) => {}
            Ok(2) => {
                tracing::warn!(
                    "this node's lease had lapsed (a long pause, or Redis lost it): registered \
                     again; battles other nodes took meanwhile are let go"
                );
                let_go_of_lost(&cluster, &lobby, &mut conn).await;
            }
            Ok(_) => {
                tracing::error!(
                    "another instance holds this node's id now: this node lets every battle go"
                );
                lobby.let_all_go();
            }
            Err(err) => tracing::warn!(%err, "cannot renew this node's lease"),
        }
        if let Ok(nodes) = live(&mut conn).await {
            *cluster.nodes.locked() = nodes;
        }
        let asked: redis::RedisResult<bool> = redis::cmd("EXISTS")
            .arg(keys::drain(cluster.node_id()))
            .query_async(&mut conn)
            .await;
        if asked.unwrap_or(false) && !cluster.is_draining() {
            tracing::info!("asked to drain");
            cluster.drain_asked.notify_one();
        }
    }
}

/// After a lapsed lease: every battle running here that another node owns now is let go.
async fn let_go_of_lost(
    cluster: &Cluster,
    lobby: &Arc<crate::lobby::Lobby>,
    conn: &mut ConnectionManager,
) {
    let ids = lobby.local_ids();
    if ids.is_empty() {
        return;
    }
    let mut pipe = redis::pipe();
    for id in &ids {
        pipe.hget(keys::battle(id), "owner");
    }
    let Ok(owners) = pipe.query_async::<Vec<Option<String>>>(conn).await else {
        return;
    };
    for (id, owner) in ids.iter().zip(owners) {
        if owner.as_deref() != Some(cluster.owner.as_str()) {
            lobby.fenced(id);
        }
    }
}

/// The live nodes.
pub async fn live(conn: &mut ConnectionManager) -> redis::RedisResult<Vec<NodeInfo>> {
    let ids: Vec<String> = redis::cmd("SMEMBERS")
        .arg(keys::NODES)
        .query_async(conn)
        .await?;
    let mut pipe = redis::pipe();
    for id in &ids {
        pipe.hgetall(keys::node(id));
    }
    let fields: Vec<std::collections::HashMap<String, String>> = pipe.query_async(conn).await?;
    let mut nodes: Vec<NodeInfo> = ids
        .into_iter()
        .zip(fields)
        .filter(|(_, fields)| fields.contains_key("instance"))
        .map(|(id, fields)| {
            let number = |key: &str| fields.get(key).and_then(|v| v.parse().ok()).unwrap_or(0);
            NodeInfo {
                url: fields.get("url").cloned().unwrap_or_default(),
                battles: number("battles"),
                draining: fields.get("draining").is_some_and(|v| v == "1"),
                since_ms: number("since"),
                instance: fields.get("instance").cloned().unwrap_or_default(),
                id,
            }
        })
        .collect();
    nodes.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(nodes)
}

/// Ask node `id` to drain (the `drain` command): it hands its battles to the others and
/// stops.
pub async fn ask_to_drain(url: &str, id: &str) -> Result<(), ClusterError> {
    let client = redis::Client::open(url)
        .map_err(|err| ClusterError::BadUrl(url.to_string(), err.to_string()))?;
    let mut conn = super::manager(&client, url).await?;
    let _: () = redis::cmd("SET")
        .arg(keys::drain(id))
        .arg(1)
        .arg("PX")
        .arg(Duration::from_secs(600).as_millis() as u64)
        .query_async(&mut conn)
        .await
        .map_err(|err| ClusterError::Unreachable(url.to_string(), err.to_string()))?;
    Ok(())
}
