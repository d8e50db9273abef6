//! Reading the lobby wherever its battles run: `list` pages, the recently finished
//! battles and replays, from this server's own records, or in a cluster from Redis (the
//! whole cluster's). Used by WebSocket requests and `/api/battles` alike.

use std::sync::Arc;

use battle_protocol::{ErrorCode, FinishedSummary, Replay};

use super::{Lobby, Page, Refusal};
use crate::cluster::directory;

impl Lobby {
    /// One page of the public battles (every node's, in a cluster).
    pub async fn page(&self, cursor: Option<&str>, limit: Option<u32>) -> Result<Page, Refusal> {
        match &self.cluster {
            Some(cluster) => {
                let mut conn = cluster.conn.clone();
                directory::list(&mut conn, cursor, limit).await
            }
            None => self.list(cursor, limit),
        }
    }

    /// The recently finished public battles (every node's, in a cluster); read off the
    /// runtime's threads on a single server.
    pub async fn finished_battles(self: &Arc<Self>) -> Result<Vec<FinishedSummary>, Refusal> {
        if let Some(cluster) = &self.cluster {
            let mut conn = cluster.conn.clone();
            return directory::recently_finished(&mut conn).await;
        }
        let lobby = self.clone();
        tokio::task::spawn_blocking(move || lobby.recently_finished())
            .await
            .map_err(|_| Refusal::new(ErrorCode::Internal, "the lookup failed"))?
    }

    /// A finished battle's replay (any node's, in a cluster), rebuilt off the runtime's
    /// threads.
    pub async fn replay_of(self: &Arc<Self>, battle_id: &str) -> Result<Replay, Refusal> {
        if let Some(cluster) = &self.cluster {
            let mut conn = cluster.conn.clone();
            return directory::replay(&mut conn, &self.config, battle_id).await;
        }
        let lobby = self.clone();
        let id = battle_id.to_string();
        tokio::task::spawn_blocking(move || lobby.replay(&id))
            .await
            .map_err(|_| Refusal::new(ErrorCode::Internal, "the replay failed"))?
    }
}
