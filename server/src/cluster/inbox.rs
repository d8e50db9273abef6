//! This node's inbox: commands other nodes' connections sent to the battles owned here.
//!
//! One task reads the node's inbox stream (a blocking read on a connection of its own) from
//! where it started. Each entry names the connection (its node instance and id): a *proxy*
//! outbox stands for it in the battle (see `crate::connection::remote`), made at its first
//! command and dropped when its node says it closed or its node dies. The command then goes
//! to the battle's actor like a command of this node's own connections. A battle that is
//! not here is looked up again and the command sent on to its owner (or answered
//! `no_such_battle`).
//!
//! The inbox also brings the seats other nodes' matchmakers give this node's waiting
//! connections: those go to this node's matchmaker (`crate::matchmaker`).

use std::sync::Arc;
use std::time::Duration;

use redis::streams::{StreamReadOptions, StreamReadReply};
use redis::AsyncCommands;
use tokio::time::Instant;

use super::wire::{Forwarded, InboxEntry};
use super::{keys, Cluster};
use crate::battle::{Command, Seating};
use crate::connection::outbox::Outbox;
use crate::connection::remote::RemoteSink;

/// How long one blocking read waits for entries.
const BLOCK_MS: usize = 2_000;

/// Most entries taken at once.
const COUNT: usize = 512;

/// How many times a command for a battle this node is about to own (it is being taken over)
/// is looked at again, 20 ms apart, before it is sent on or refused.
const TRIES: u32 = 50;

/// The id of the newest entry of node `node`'s inbox now (`0-0` when it has none).
pub async fn newest(
    conn: &mut redis::aio::ConnectionManager,
    node: &str,
) -> redis::RedisResult<String> {
    let entries: Vec<(String, Vec<(String, String)>)> = redis::cmd("XREVRANGE")
        .arg(keys::inbox(node))
        .arg("+")
        .arg("-")
        .arg("COUNT")
        .arg(1)
        .query_async(conn)
        .await?;
    Ok(entries
        .into_iter()
        .next()
        .map_or_else(|| "0-0".to_string(), |(id, _)| id))
}

/// Read the inbox until the cluster goes away.
pub async fn run(cluster: Arc<Cluster>) {
    let key = keys::inbox(cluster.node_id());
    // Where reading starts: after the newest entry when this node joined (entries older
    // than that were for a previous instance). Not `$`, which a read taken again after a
    // timeout would move past entries added meanwhile.
    let mut last = cluster.inbox_start.clone();
    loop {
        // Its reads block for up to BLOCK_MS: answers are waited for longer than that.
        let config = redis::AsyncConnectionConfig::new()
            .set_response_timeout(Some(Duration::from_millis(BLOCK_MS as u64 + 5_000)));
        let connected = cluster
            .client()
            .get_multiplexed_async_connection_with_config(&config)
            .await;
        let mut conn = match connected {
            Ok(conn) => conn,
            Err(err) => {
                tracing::warn!(%err, "cannot open the inbox connection; retrying");
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        loop {
            if cluster.lobby().is_none() {
                return;
            }
            let options = StreamReadOptions::default().block(BLOCK_MS).count(COUNT);
            let read: redis::RedisResult<Option<StreamReadReply>> =
                conn.xread_options(&[&key], &[&last], &options).await;
            let reply = match read {
                Ok(reply) => reply,
                Err(err) => {
                    tracing::warn!(%err, "cannot read the inbox; connecting again");
                    break;
                }
            };
            let Some(reply) = reply else {
                continue;
            };
            for stream in reply.keys {
                for id in stream.ids {
                    last = id.id.clone();
                    let Some(text) = id.get::<String>("m") else {
                        continue;
                    };
                    match serde_json::from_str::<InboxEntry>(&text) {
                        Ok(entry) => handle(&cluster, entry).await,
                        Err(err) => tracing::warn!(%err, "unreadable inbox entry"),
                    }
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One command from another node.
async fn handle(cluster: &Arc<Cluster>, entry: InboxEntry) {
    let Some(lobby) = cluster.lobby() else {
        return;
    };
    match entry.cmd {
        Forwarded::Create { request, req } => {
            lobby
                .create_placed(&entry.from, entry.conn, request, req)
                .await;
            return;
        }
        Forwarded::Take => {
            super::watch::take_handed(cluster, &entry.battle).await;
            return;
        }
        Forwarded::Seat { .. } | Forwarded::Unmatched { .. } => {
            // A match made on another node for one of this node's connections: its wait is
            // this node's matchmaker's to end.
            lobby.matchmaker().told_by_node(entry);
            return;
        }
        _ => {}
    }
    let mut tries = 0;
    let handle = loop {
        if let Some(handle) = lobby.local_handle(&entry.battle) {
            break handle;
        }
        // Not here (yet?): whose is it?
        let mut conn = cluster.conn.clone();
        let owner: Option<String> = conn
            .hget(keys::battle(&entry.battle), "owner")
            .await
            .ok()
            .flatten();
        match owner {
            Some(owner) if owner == cluster.owner && tries < TRIES => {
                // Claimed here and being replayed: wait for its actor.
                tries += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Some(owner) if owner != cluster.owner => {
                cluster.owners.insert(entry.battle.clone(), owner.clone());
                send_on(cluster, &owner, &entry).await;
                return;
            }
            _ => {
                drop_proxy(cluster, &entry);
                if !matches!(entry.cmd, Forwarded::Disconnected | Forwarded::Leave { .. }) {
                    let proxy = proxy(cluster, &entry);
                    proxy.offer_msg(&battle_protocol::ServerMsg::error(
                        battle_protocol::ErrorCode::NoSuchBattle,
                        format!(
                            "no battle {:?} (it may have ended and expired)",
                            entry.battle
                        ),
                        None,
                    ));
                    drop_proxy(cluster, &entry);
                }
                return;
            }
        }
    };
    let disconnected = matches!(entry.cmd, Forwarded::Disconnected);
    let from = proxy(cluster, &entry);
    if disconnected {
        drop_proxy(cluster, &entry);
        from.end_remote();
    }
    if let Some(command) = command(entry.cmd, from) {
        if let Err(crate::battle::Offered::Full(command)) = handle.try_offer(command) {
            // Full: the inbox waits for room rather than drop a command (gone: the battle
            // ended, and the proxy's connection hears of it from the battle's end).
            tracing::debug!(battle = %entry.battle, "a battle's queue is full: waiting");
            let _ = handle.send(command).await;
        }
    }
}

/// Send an entry on to the battle's owner.
async fn send_on(cluster: &Cluster, owner: &str, entry: &InboxEntry) {
    let mut conn = cluster.conn.clone();
    let mut pipe = redis::pipe();
    super::forward::post(&mut pipe, Cluster::node_of(owner), entry);
    let sent: redis::RedisResult<()> = pipe.query_async(&mut conn).await;
    if let Err(err) = sent {
        tracing::warn!(%err, "cannot send a command on to its battle's owner");
    }
}

/// The proxy of `entry`'s connection in its battle (made at its first command).
fn proxy(cluster: &Cluster, entry: &InboxEntry) -> Outbox {
    let key = (entry.battle.clone(), entry.from.clone(), entry.conn);
    cluster
        .proxies
        .entry(key)
        .or_insert_with(|| {
            let sink: Arc<dyn RemoteSink> = cluster.link.clone();
            Outbox::proxy(&entry.from, entry.conn, &entry.battle, sink)
        })
        .clone()
}

fn drop_proxy(cluster: &Cluster, entry: &InboxEntry) {
    cluster
        .proxies
        .remove(&(entry.battle.clone(), entry.from.clone(), entry.conn));
}

/// The actor's command for a forwarded one, answering `from` (`None` for what no actor
/// takes).
pub fn command(cmd: Forwarded, from: Outbox) -> Option<Command> {
    Some(match cmd {
        Forwarded::Join {
            seat,
            setup,
            name,
            req,
            matched,
        } => Command::Join {
            from,
            seat,
            setup,
            name,
            req,
            answer: if matched {
                Seating::Matched
            } else {
                Seating::Joined
            },
        },
        Forwarded::Rejoin { token, req } => Command::Rejoin { from, token, req },
        Forwarded::Spectate { req } => Command::Spectate { from, req },
        Forwarded::Act { action, req } => Command::Act {
            from,
            action,
            req,
            received: Instant::now(),
        },
        Forwarded::Resync { req } => Command::Resync { from, req },
        Forwarded::Leave { req } => Command::Leave { from, req },
        Forwarded::Resign { req } => Command::Resign { from, req },
        Forwarded::Disconnected => Command::Disconnected { from },
        Forwarded::Reattach { role } => Command::Reattach { from, role },
        Forwarded::Create { .. }
        | Forwarded::Take
        | Forwarded::Seat { .. }
        | Forwarded::Unmatched { .. } => return None,
    })
}

/// Every proxy of the dead node instance `owner`: dropped, each battle told its connection
/// is gone.
pub fn forget_instance(cluster: &Cluster, owner: &str) {
    let Some(lobby) = cluster.lobby() else {
        return;
    };
    let gone: Vec<((String, String, u64), Outbox)> = cluster
        .proxies
        .iter()
        .filter(|entry| entry.key().1 == owner)
        .map(|entry| (entry.key().clone(), entry.value().clone()))
        .collect();
    for (key, proxy) in gone {
        cluster.proxies.remove(&key);
        proxy.end_remote();
        if let Some(handle) = lobby.local_handle(&key.0) {
            let _ = handle.try_send(Command::Disconnected { from: proxy });
        }
    }
}
