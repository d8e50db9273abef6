//! The lobby's part in a cluster: battles that come here (taken over from a dead node,
//! handed over by a draining one, placed here by the node a client asked), battles that
//! go (another node owns them now: their actor stops without a word, and this node's
//! connections in them follow them there), and this node's connections by id.

use std::sync::Arc;

use battle_protocol::{ErrorCode, Req, ServerMsg};
use serde_json::Value;
use tokio::sync::oneshot;

use super::{CreateRequest, Lobby};
use crate::battle::{self, Command};
use crate::cluster::follow::Member;
use crate::cluster::forward::Forward;
use crate::cluster::wire::Forwarded;
use crate::cluster::Cluster;
use crate::connection::outbox::Outbox;
use crate::connection::remote::RemoteSink;
use crate::ids::ConnId;
use crate::refusal::Refusal;
use crate::store::SavedBattle;
use battle_rules::input_log::ReplayError;

impl Lobby {
    /// In cluster mode: this node's part of the cluster.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// One of this node's open connections.
    pub(crate) fn connection(&self, conn: ConnId) -> Option<Outbox> {
        self.connections
            .get(&conn)
            .map(|entry| entry.value().clone())
    }

    /// The ids of the battles whose actors run here.
    pub fn local_ids(&self) -> Vec<String> {
        self.battles
            .iter()
            .map(|entry| entry.key().clone())
            .collect()
    }

    /// Whether a battle is known to exist (here, or in a cluster on a node it was seen on).
    pub fn knows(&self, battle_id: &str) -> bool {
        self.battles.contains_key(battle_id)
            || self
                .cluster
                .as_ref()
                .is_some_and(|c| c.owners.contains_key(battle_id) || c.follows.follows(battle_id))
    }

    /// Forget a battle whose actor stopped because it is another node's now (its records
    /// stay in Redis: nothing is removed there).
    pub(crate) fn remove_local(&self, battle_id: &str) {
        if let Some((_, entry)) = self.battles.remove(battle_id) {
            if !entry.private {
                self.index().remove(entry.created);
            }
        }
    }

    /// Another node owns `battle_id` now (a write of it was refused): stop its actor here,
    /// and take this node's connections in it to the new owner.
    pub fn fenced(self: &Arc<Self>, battle_id: &str) {
        let Some(handle) = self.local_handle(battle_id) else {
            return;
        };
        let lobby = self.clone();
        let battle = battle_id.to_string();
        tokio::spawn(async move {
            let (reply, members) = oneshot::channel();
            if handle.send(Command::LetGo { reply }).await.is_err() {
                return;
            }
            let Ok(members) = members.await else {
                return;
            };
            let members = members.into_iter().map(Member::from).collect();
            lobby.follow_elsewhere(&battle, members).await;
        });
    }

    /// Another instance holds this node's id now: let every battle go.
    pub fn let_all_go(self: &Arc<Self>) {
        for battle in self.local_ids() {
            self.fenced(&battle);
        }
    }

    /// This node's connections in a battle that went to another node: they follow it there
    /// (the new owner takes each back, with a snapshot).
    async fn follow_elsewhere(&self, battle: &str, members: Vec<Member>) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        cluster.owners.remove(battle);
        cluster.follows.adopt(battle, members.clone()).await;
        for member in members {
            if let Some(role) = member.role() {
                cluster.forward(Forward {
                    battle: battle.to_string(),
                    from: member.outbox,
                    cmd: Forwarded::Reattach { role },
                });
            }
        }
    }

    /// Stop a battle's actor to hand the battle to another node: the epoch this node owns
    /// it at, and this node's connections in it.
    pub async fn let_go_for_hand_off(&self, battle_id: &str) -> Option<(u64, Vec<Member>)> {
        let (handle, epoch) = {
            let entry = self.battles.get(battle_id)?;
            (entry.handle.clone(), entry.epoch)
        };
        let (reply, members) = oneshot::channel();
        handle.send(Command::LetGo { reply }).await.ok()?;
        let members = members.await.ok()?;
        Some((epoch, members.into_iter().map(Member::from).collect()))
    }

    /// A battle this node owns now at `epoch` (taken over or handed over): replayed from
    /// what Redis keeps and started.
    pub fn adopt(self: &Arc<Self>, saved: SavedBattle, epoch: u64) -> Result<(), ReplayError> {
        let id = saved.created.battle.clone();
        let private = saved.created.private;
        let (actor, handle, summary) = battle::restore(saved, self.clone())?;
        self.register(id, actor, handle, summary, private, epoch);
        Ok(())
    }

    /// Create a battle another node placed here for its connection `conn` (of node instance
    /// `from`); the answer (`created`, or the refusal) goes back to that connection.
    pub async fn create_placed(
        self: &Arc<Self>,
        from: &str,
        conn: u64,
        request: Value,
        req: Option<Req>,
    ) {
        let Some(cluster) = &self.cluster else {
            return;
        };
        let request: CreateRequest = match serde_json::from_value(request) {
            Ok(request) => request,
            Err(err) => {
                tracing::warn!(%err, "an unreadable placed create");
                return;
            }
        };
        let creator = self.quotas().matchmaker();
        let (battle, answer) = match self.create(request, &creator) {
            Ok((battle_id, _)) => (battle_id.clone(), ServerMsg::Created { battle_id, req }),
            Err(Refusal { code, message }) => (String::new(), ServerMsg::error(code, message, req)),
        };
        let sink: Arc<dyn RemoteSink> = cluster.link.clone();
        if battle.is_empty() {
            // No battle to fence the answer with: it goes straight to the connection's node.
            let proxy = Outbox::proxy(from, conn, "-", sink);
            proxy.offer_msg(&answer);
            return;
        }
        let proxy = cluster
            .proxies
            .entry((battle.clone(), from.to_string(), conn))
            .or_insert_with(|| Outbox::proxy(from, conn, &battle, sink))
            .clone();
        // Behind the creation's record: sent once the battle is kept.
        proxy.offer_msg(&answer);
    }

    /// In a cluster: the node a new battle should go to, if not this one; the creating
    /// connection's `create` is then sent there (answered from there). `ServerBusy` while
    /// this node drains and no other node takes battles.
    pub fn place(&self, request: &CreateRequest, from: &Outbox, req: Option<Req>) -> Placed {
        let Some(cluster) = &self.cluster else {
            return Placed::Here;
        };
        let target = cluster.placement(self.len() as u64);
        match target {
            Some(node) => {
                let request = serde_json::to_value(request).expect("a create request serializes");
                cluster.forward(Forward {
                    battle: format!("@{node}"),
                    from: from.clone(),
                    cmd: Forwarded::Create { request, req },
                });
                Placed::Elsewhere
            }
            None if cluster.is_draining() => Placed::Refused(Refusal::new(
                ErrorCode::ServerBusy,
                "this node is shutting down and takes no new battles; reconnect",
            )),
            None => Placed::Here,
        }
    }
}

/// Where a new battle goes.
#[derive(Debug)]
pub enum Placed {
    /// On this node.
    Here,
    /// On another node, which answers the creating connection itself.
    Elsewhere,
    /// Nowhere now.
    Refused(Refusal),
}
