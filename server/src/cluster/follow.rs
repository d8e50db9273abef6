//! The battles other nodes own that this node's connections are in, and the one pub/sub
//! connection that brings their changes and the notes for this node's connections.
//!
//! Before a connection's `join`, `rejoin` or `spectate` goes to a battle's owner, this node
//! follows the battle (subscribes to its channel, and waits for Redis to confirm it), so
//! that no change sent after the answer can arrive before the subscription. The owner's
//! answer comes as notes on this node's channel: `admit` says which audience the connection
//! is now in (then its snapshot follows); from then on each change of that audience,
//! published once on the battle's channel, is written to every such connection here. A
//! node that lost its pub/sub connection may have missed changes: once connected again it
//! asks each battle's owner for a fresh snapshot of every connection it follows.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use battle_rules::ruleset::Viewer;
use bytes::Bytes;
use dashmap::DashMap;
use futures::StreamExt;
use redis::aio::PubSubSink;
use tokio::sync::Mutex;

use super::forward::Forward;
use super::wire::{self, Change, Forwarded, Note, Role};
use super::{keys, Cluster};
use crate::connection::frame::Frame;
use crate::connection::outbox::Outbox;
use crate::ids::ConnId;

/// One of this node's connections in a battle owned elsewhere.
#[derive(Debug, Clone)]
pub struct Member {
    pub outbox: Outbox,
    /// Its audience, once the owner admitted it (`None` while its request is on its way).
    pub viewer: Option<Viewer>,
    /// For a seat: its token's hash (to take the seat back if the battle moves).
    pub token_hash: Option<String>,
    /// While not admitted: the request that asks for it, when sending it again does no harm
    /// (`spectate`, `rejoin`): sent again if its answer may have been lost.
    pub request: Option<Forwarded>,
}

impl From<crate::battle::Present> for Member {
    fn from(present: crate::battle::Present) -> Member {
        Member {
            outbox: present.outbox,
            viewer: Some(present.viewer),
            token_hash: present.token_hash,
            request: None,
        }
    }
}

impl Member {
    /// What the connection is in the battle, once admitted.
    pub fn role(&self) -> Option<Role> {
        match (self.viewer?, &self.token_hash) {
            (Viewer::Spectator, _) => Some(Role::Spectator),
            (Viewer::Seat(seat), Some(hash)) => Some(Role::Seat {
                seat,
                token_hash: hash.clone(),
            }),
            (Viewer::Seat(_), None) => None,
        }
    }
}

/// The battles followed, and the subscriptions they need.
#[derive(Default)]
pub struct Follows {
    battles: DashMap<String, Vec<Member>>,
    /// The last `seq` handed on for each audience followed (battle, viewer).
    seqs: DashMap<(String, Viewer), u64>,
    /// The pub/sub connection's sending half (`None` while it is being made again).
    sink: Mutex<Option<PubSubSink>>,
    /// Whether the pub/sub connection has listened once (and who waits for it).
    listening: (std::sync::atomic::AtomicBool, tokio::sync::Notify),
}

impl Follows {
    /// Follow `battle` for `outbox`, subscribing first when this node does not follow it
    /// yet. Returns once Redis confirmed the subscription (or at once if it could not be
    /// made now: the connection will be resynced when pub/sub is back).
    pub async fn follow(&self, battle: &str, outbox: &Outbox, cmd: &Forwarded) {
        let request = matches!(cmd, Forwarded::Spectate { .. } | Forwarded::Rejoin { .. })
            .then(|| cmd.clone());
        let new = {
            let mut members = self.battles.entry(battle.to_string()).or_default();
            let new = members.is_empty();
            match members.iter_mut().find(|m| m.outbox.id() == outbox.id()) {
                Some(member) => {
                    if member.viewer.is_none() {
                        member.request = request;
                    }
                }
                None => members.push(Member {
                    outbox: outbox.clone(),
                    viewer: None,
                    token_hash: None,
                    request,
                }),
            }
            new
        };
        if new {
            if let Some(sink) = self.sink.lock().await.as_mut() {
                if let Err(err) = sink.subscribe(keys::battle_channel(battle)).await {
                    tracing::warn!(%battle, %err, "cannot subscribe to a battle's changes");
                }
            }
        }
    }

    /// The owner admitted `conn` into `viewer`'s audience, at `seq`.
    fn admit(
        &self,
        battle: &str,
        conn: ConnId,
        viewer: Viewer,
        seq: u64,
        token_hash: Option<String>,
    ) {
        self.seqs.insert((battle.to_string(), viewer), seq);
        if let Some(mut members) = self.battles.get_mut(battle) {
            if let Some(member) = members.iter_mut().find(|m| m.outbox.id() == conn) {
                member.viewer = Some(viewer);
                member.token_hash = token_hash;
                member.request = None;
            }
        }
    }

    /// `conn` is no longer part of `battle`; the battle is let go once nobody follows it.
    pub async fn dismiss(&self, battle: &str, conn: ConnId) {
        let emptied = match self.battles.get_mut(battle) {
            Some(mut members) => {
                members.retain(|m| m.outbox.id() != conn);
                members.is_empty()
            }
            None => false,
        };
        if emptied {
            self.battles
                .remove_if(battle, |_, members| members.is_empty());
            self.seqs.retain(|(followed, _), _| followed != battle);
            if let Some(sink) = self.sink.lock().await.as_mut() {
                let _ = sink.unsubscribe(keys::battle_channel(battle)).await;
            }
        }
    }

    /// Resolves once the pub/sub connection listens (its first subscriptions confirmed).
    pub async fn listening(&self) {
        use std::sync::atomic::Ordering;
        loop {
            let notified = self.listening.1.notified();
            if self.listening.0.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }

    /// Whether any connection here follows `battle`.
    pub fn follows(&self, battle: &str) -> bool {
        self.battles.contains_key(battle)
    }

    /// Whether `conn` follows `battle`.
    pub fn is_member(&self, battle: &str, conn: ConnId) -> bool {
        self.battles
            .get(battle)
            .is_some_and(|members| members.iter().any(|m| m.outbox.id() == conn))
    }

    /// The connections following `battle`.
    pub fn members(&self, battle: &str) -> Vec<Member> {
        self.battles
            .get(battle)
            .map(|members| members.clone())
            .unwrap_or_default()
    }

    /// Every battle followed, with its connections.
    fn all(&self) -> Vec<(String, Vec<Member>)> {
        self.battles
            .iter()
            .map(|entry| (entry.key().clone(), entry.value().clone()))
            .collect()
    }

    /// Start following `battle` with members that were this node's own (its battle went to
    /// another node): they are admitted already.
    pub async fn adopt(&self, battle: &str, members: Vec<Member>) {
        let new = {
            let mut followed = self.battles.entry(battle.to_string()).or_default();
            let new = followed.is_empty();
            for member in members {
                if !followed.iter().any(|m| m.outbox.id() == member.outbox.id()) {
                    followed.push(member);
                }
            }
            new
        };
        if new {
            if let Some(sink) = self.sink.lock().await.as_mut() {
                let _ = sink.subscribe(keys::battle_channel(battle)).await;
            }
        }
    }

    /// Stop following `battle` (it is owned here now): its members, for the local actor.
    pub async fn take(&self, battle: &str) -> Vec<Member> {
        let members = self
            .battles
            .remove(battle)
            .map(|(_, members)| members)
            .unwrap_or_default();
        if !members.is_empty() {
            if let Some(sink) = self.sink.lock().await.as_mut() {
                let _ = sink.unsubscribe(keys::battle_channel(battle)).await;
            }
        }
        members
    }

    /// Write one audience's change to every connection of that audience here.
    fn deliver(&self, battle: &str, viewer: Viewer, seq: u64, frame: Bytes) {
        let Some(members) = self.battles.get(battle) else {
            return;
        };
        self.seqs.insert((battle.to_string(), viewer), seq);
        let frame = Frame::from_wire(frame);
        for member in members.iter().filter(|m| m.viewer == Some(viewer)) {
            member.outbox.offer_frame(frame.clone());
        }
    }
}

/// An audience's beacon: when the changes handed on here stop short of its `seq`, one was
/// missed: its connections here are resynced (each gets a fresh snapshot).
fn on_beacon(cluster: &Cluster, battle: &str, viewer: Viewer, seq: u64) {
    let key = (battle.to_string(), viewer);
    let behind = cluster
        .follows
        .seqs
        .get(&key)
        .is_none_or(|handed| *handed < seq);
    if !behind {
        return;
    }
    cluster.follows.seqs.insert(key, seq);
    for member in cluster.follows.members(battle) {
        if member.viewer == Some(viewer) {
            tracing::debug!(%battle, "a change was missed: resyncing");
            cluster.forward(Forward {
                battle: battle.to_string(),
                from: member.outbox,
                cmd: Forwarded::Resync { req: None },
            });
        }
    }
}

/// Keep this node's pub/sub connection: subscribe to its own channel, the cluster channel
/// and every battle followed; hand each message on; when the connection is lost, make it
/// again and have every followed connection resynced.
pub async fn listen(cluster: Arc<Cluster>) {
    let mut wait = Duration::from_millis(100);
    let mut first = true;
    let mut received: u64 = 0;
    loop {
        let pubsub = match cluster.client().get_async_pubsub().await {
            Ok(pubsub) => pubsub,
            Err(err) => {
                tracing::warn!(%err, "cannot open the pub/sub connection; retrying");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        let (mut sink, mut stream) = pubsub.split();
        let mut channels = vec![
            keys::to_node(&cluster.owner),
            keys::CLUSTER_CHANNEL.to_string(),
        ];
        let followed = cluster.follows.all();
        channels.extend(
            followed
                .iter()
                .map(|(battle, _)| keys::battle_channel(battle)),
        );
        if let Err(err) = sink.subscribe(&channels).await {
            tracing::warn!(%err, "cannot subscribe; retrying");
            tokio::time::sleep(wait).await;
            continue;
        }
        wait = Duration::from_millis(100);
        *cluster.follows.sink.lock().await = Some(sink);
        cluster
            .follows
            .listening
            .0
            .store(true, std::sync::atomic::Ordering::Release);
        cluster.follows.listening.1.notify_waiters();
        if !std::mem::replace(&mut first, false) {
            tracing::info!(
                battles = followed.len(),
                "pub/sub is back: resyncing what it carries"
            );
            resync_all(&cluster, followed);
        }
        while let Some(message) = stream.next().await {
            let channel = message.get_channel_name().to_string();
            let payload = Bytes::from(message.get_payload_bytes().to_vec());
            if let Some(battle) = keys::battle_of_channel(&channel) {
                match wire::decode_change(payload) {
                    Ok(Change::Frame { viewer, seq, frame }) => {
                        received += 1;
                        let drop_every = u64::from(cluster.config.drop_changes);
                        if drop_every > 0 && received % drop_every == 0 {
                            tracing::debug!(%battle, "a change dropped on purpose (--drop-changes)");
                            continue;
                        }
                        cluster.follows.deliver(battle, viewer, seq, frame);
                    }
                    Ok(Change::Beacon { viewer, seq }) => on_beacon(&cluster, battle, viewer, seq),
                    Err(err) => tracing::warn!(%err, "unreadable change"),
                }
            } else if channel == keys::CLUSTER_CHANNEL {
                if let Ok(text) = std::str::from_utf8(&payload) {
                    if let Some((battle, owner)) = wire::decode_moved(text) {
                        super::watch::moved(&cluster, battle, owner).await;
                    }
                }
            } else {
                match Note::decode(payload) {
                    Ok(note) => on_note(&cluster, note).await,
                    Err(err) => tracing::warn!(%err, "unreadable note"),
                }
            }
        }
        *cluster.follows.sink.lock().await = None;
        tracing::warn!("the pub/sub connection was lost; opening it again");
    }
}

/// A note from a battle's owner for one of this node's connections.
async fn on_note(cluster: &Arc<Cluster>, note: Note) {
    let Some(lobby) = cluster.lobby() else {
        return;
    };
    match note {
        Note::Frames {
            conn,
            battle,
            bytes,
        } => {
            cluster.awaiting.noted(conn, &battle);
            if let Some(outbox) = lobby.connection(ConnId(conn)) {
                outbox.offer_frame(Frame::from_wire(bytes));
            }
        }
        Note::Admit {
            conn,
            battle,
            viewer,
            seq,
            token_hash,
        } => {
            cluster.awaiting.noted(conn, &battle);
            cluster
                .follows
                .admit(&battle, ConnId(conn), viewer, seq, token_hash);
        }
        Note::Dismiss { conn, battle } => cluster.follows.dismiss(&battle, ConnId(conn)).await,
        Note::Close {
            conn, code, reason, ..
        } => {
            if let Some(outbox) = lobby.connection(ConnId(conn)) {
                outbox.close(code.into(), &reason);
            }
        }
        Note::NotHere { battle, .. } => {
            cluster.owners.remove(&battle);
        }
    }
}

/// Ask the owner of every battle followed for a fresh snapshot of each connection here.
fn resync_all(cluster: &Arc<Cluster>, followed: Vec<(String, Vec<Member>)>) {
    let mut by_battle: HashMap<String, Vec<Member>> = HashMap::new();
    for (battle, members) in followed {
        by_battle.entry(battle).or_default().extend(members);
    }
    for (battle, members) in by_battle {
        for member in members {
            let cmd = match (member.viewer, member.request) {
                (Some(_), _) => Forwarded::Resync { req: None },
                // Its answer may have been lost: asked again (it does no harm).
                (None, Some(request)) => request,
                (None, None) => continue,
            };
            cluster.forward(Forward {
                battle: battle.clone(),
                from: member.outbox,
                cmd,
            });
        }
    }
}
