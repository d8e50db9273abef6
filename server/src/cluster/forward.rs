//! Sending this node's connections' commands to the battles other nodes own.
//!
//! One task takes the commands in the order the readers handed them over, finds each
//! battle's owner (remembered, or read from the battle's hash), follows the battle first for
//! a command that makes the connection part of it (see [`super::follow`]), and appends the
//! commands to the owners' inbox streams, a pipeline of them at a time. A battle that does
//! not exist is answered `no_such_battle` here; a battle this node owns after all is handed
//! to its actor.

use std::sync::Arc;

use battle_protocol::{ErrorCode, ServerMsg};
use tokio::sync::mpsc::UnboundedReceiver;

use super::awaiting::Awaiting;
use super::wire::{Forwarded, InboxEntry};
use super::{keys, Cluster};
use crate::connection::outbox::Outbox;

/// How long a command for a battle whose owner died waits before it is sent again.
const OWNER_DEAD_RETRY: std::time::Duration = std::time::Duration::from_millis(100);

/// Most commands in one pipeline.
const MAX_PIPELINE: usize = 256;

/// How long an inbox keeps its entries, about (older ones are trimmed as new ones come).
pub(crate) const INBOX_LENGTH: usize = 100_000;

/// Add to `pipe` the append of `entry` to `node`'s inbox stream (trimmed to about
/// [`INBOX_LENGTH`] entries): the one way any part of a node writes to another's inbox.
pub fn post(pipe: &mut redis::Pipeline, node: &str, entry: &InboxEntry) {
    let text = serde_json::to_string(entry).expect("an inbox entry is plain data: it serializes");
    pipe.cmd("XADD")
        .arg(keys::inbox(node))
        .arg("MAXLEN")
        .arg("~")
        .arg(INBOX_LENGTH)
        .arg("*")
        .arg("m")
        .arg(text)
        .ignore();
}

/// A command of `from` for `battle`, owned elsewhere (or maybe nowhere).
#[derive(Debug)]
pub struct Forward {
    pub battle: String,
    pub from: Outbox,
    pub cmd: Forwarded,
}

/// Forward commands until the cluster goes away.
pub async fn run(cluster: Arc<Cluster>, mut rx: UnboundedReceiver<Forward>) {
    let mut conn = cluster.conn.clone();
    let mut batch = Vec::with_capacity(64);
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_PIPELINE {
            match rx.try_recv() {
                Ok(forward) => batch.push(forward),
                Err(_) => break,
            }
        }
        let mut pipe = redis::pipe();
        let mut any = false;
        // Who to tell if the pipeline does not go through.
        let mut waiting: Vec<(Outbox, Option<battle_protocol::Req>, String)> = Vec::new();
        // The connections of the set-up requests kept until answered (forgotten again if
        // the pipeline fails: they are told so below).
        let mut kept = Vec::new();
        for forward in batch.drain(..) {
            // A `create` placed on a node names the node, not a battle.
            let placed = forward.battle.strip_prefix('@').map(str::to_string);
            let owner = match &placed {
                Some(node) => Some(node.clone()),
                None => owner_of(&cluster, &mut conn, &forward.battle).await,
            };
            let Some(owner) = owner else {
                refuse_missing(&forward);
                continue;
            };
            if owner == cluster.owner {
                local(&cluster, forward).await;
                continue;
            }
            if cluster.dead.contains_key(&owner) {
                if placed.is_some() {
                    // Placed on a node that has just died (as last read): made nowhere.
                    let req = answered(&forward.cmd).flatten();
                    super::awaiting::tell_lost(&forward.from, None, req);
                } else {
                    // Its owner died and the battle is being claimed: ask again shortly, once
                    // it has a live owner, rather than send it where nobody will read it.
                    cluster.owners.remove(&forward.battle);
                    later(&cluster, forward);
                }
                continue;
            }
            match &forward.cmd {
                Forwarded::Join { .. } | Forwarded::Rejoin { .. } | Forwarded::Spectate { .. } => {
                    cluster
                        .follows
                        .follow(&forward.battle, &forward.from, &forward.cmd)
                        .await;
                }
                Forwarded::Leave { .. } | Forwarded::Disconnected => {
                    cluster
                        .follows
                        .dismiss(&forward.battle, forward.from.id())
                        .await;
                }
                Forwarded::Act { .. } => {
                    if let Some(lobby) = cluster.lobby() {
                        lobby.metrics().cluster.forwarded_actions.increment(1);
                    }
                }
                _ => {}
            }
            if let Some(req) = answered(&forward.cmd) {
                waiting.push((forward.from.clone(), req, forward.battle.clone()));
                if Awaiting::kept(&forward.cmd) {
                    // Kept before it is sent: its answer may come back before the pipeline's.
                    let battle = placed.is_none().then(|| forward.battle.clone());
                    cluster.awaiting.sent(&owner, battle, req, &forward.from);
                    kept.push(forward.from.clone());
                }
            }
            let entry = InboxEntry {
                from: cluster.owner.clone(),
                conn: forward.from.id().0,
                battle: if placed.is_some() {
                    String::new()
                } else {
                    forward.battle
                },
                cmd: forward.cmd,
            };
            post(&mut pipe, Cluster::node_of(&owner), &entry);
            any = true;
        }
        if any {
            if let Err(err) = pipe.query_async::<()>(&mut conn).await {
                tracing::warn!(%err, "cannot forward commands to their battles' owners");
                for from in &kept {
                    cluster.awaiting.unsent(from);
                }
                // Nothing was done: every request is told so (never left unanswered).
                for (from, req, battle) in waiting {
                    from.offer_msg(&ServerMsg::Error {
                        code: ErrorCode::StoreUnavailable,
                        message: "the battle cannot be reached now (the cluster store is out \
                                  of reach): nothing was done; retry in a moment"
                            .into(),
                        battle_id: (!battle.starts_with('@')).then_some(battle),
                        req,
                        retry_after_ms: None,
                    });
                }
            }
        }
    }
}

/// Whether the client waits for an answer to `cmd` (its `req`, which may be absent).
fn answered(cmd: &Forwarded) -> Option<Option<battle_protocol::Req>> {
    match cmd {
        Forwarded::Join { req, .. }
        | Forwarded::Rejoin { req, .. }
        | Forwarded::Spectate { req }
        | Forwarded::Act { req, .. }
        | Forwarded::Resync { req }
        | Forwarded::Leave { req }
        | Forwarded::Resign { req }
        | Forwarded::Create { req, .. } => Some(*req),
        Forwarded::Disconnected
        | Forwarded::Reattach { .. }
        | Forwarded::Take
        | Forwarded::Seat { .. }
        | Forwarded::Unmatched { .. } => None,
    }
}

/// Who owns `battle`: remembered, else read from Redis (`None`: no such battle).
async fn owner_of(
    cluster: &Cluster,
    conn: &mut redis::aio::ConnectionManager,
    battle: &str,
) -> Option<String> {
    if let Some(owner) = cluster.owners.get(battle) {
        return Some(owner.clone());
    }
    let owner: String = redis::cmd("HGET")
        .arg(keys::battle(battle))
        .arg("owner")
        .query_async::<Option<String>>(conn)
        .await
        .ok()
        .flatten()?;
    cluster.owners.insert(battle.to_string(), owner.clone());
    Some(owner)
}

/// Forward `forward` again a moment from now (its battle's owner is dead and being
/// replaced), unless its connection has closed meanwhile.
fn later(cluster: &Arc<Cluster>, forward: Forward) {
    let cluster = Arc::clone(cluster);
    tokio::spawn(async move {
        tokio::time::sleep(OWNER_DEAD_RETRY).await;
        if !forward.from.is_closed() || matches!(forward.cmd, Forwarded::Disconnected) {
            cluster.forward(forward);
        }
    });
}

/// A battle this node owns after all: its actor takes the command (as its own connection's).
async fn local(cluster: &Arc<Cluster>, forward: Forward) {
    let Some(lobby) = cluster.lobby() else {
        return;
    };
    match lobby.local_handle(&forward.battle) {
        Some(handle) => {
            let command = super::inbox::command(forward.cmd, forward.from);
            if let Some(command) = command {
                let _ = handle.send(command).await;
            }
        }
        None => refuse_missing(&forward),
    }
}

/// Tell `forward`'s connection that its battle does not exist (nothing to say to a leave).
fn refuse_missing(forward: &Forward) {
    let req = match &forward.cmd {
        Forwarded::Disconnected
        | Forwarded::Leave { .. }
        | Forwarded::Reattach { .. }
        | Forwarded::Seat { .. }
        | Forwarded::Unmatched { .. } => return,
        Forwarded::Join { req, .. }
        | Forwarded::Rejoin { req, .. }
        | Forwarded::Spectate { req }
        | Forwarded::Act { req, .. }
        | Forwarded::Resync { req }
        | Forwarded::Resign { req }
        | Forwarded::Create { req, .. } => *req,
        Forwarded::Take => None,
    };
    forward.from.offer_msg(&ServerMsg::Error {
        code: ErrorCode::NoSuchBattle,
        message: format!(
            "no battle {:?} (it may have ended and expired)",
            forward.battle
        ),
        battle_id: Some(forward.battle.clone()),
        req,
        retry_after_ms: None,
    });
}
