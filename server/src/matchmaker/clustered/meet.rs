//! Players meeting across the cluster: taking a battle's worth from a pool's list (dead
//! entries dropped), making their battle here, seating this node's players and sending the
//! others' nodes a `seat` (or `unmatched`); and, on the other side, a seat or an unmatched
//! wait that another node sent for one of this node's connections.

use std::collections::HashMap;

use battle_protocol::{ErrorCode, ServerMsg};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::super::entry::{head_first, sort_taken, Entry, Took};
use super::super::pool::PoolKey;
use super::super::seating;
use super::ClusterMatchmaker;
use crate::cluster::keys;
use crate::cluster::wire::{Forwarded, InboxEntry};
use crate::connection::outbox::Outbox;
use crate::ids::ConnId;
use crate::lobby::Lobby;

/// Most takes in a row from one list (each drops at least one dead entry, or makes a battle).
const TAKE_ROUNDS: usize = 16;

impl ClusterMatchmaker {
    /// Take battles' worth of `need` players from `list` (the pool of `key`) while it holds
    /// enough, and make a battle for each. A draining node takes nobody: it makes no battles.
    pub(super) async fn take(&mut self, list: &str, key: &PoolKey, need: usize) {
        for _ in 0..TAKE_ROUNDS {
            if self.cluster.is_draining() {
                return;
            }
            let taken: Vec<String> = match self
                .cluster
                .scripts
                .pool_take
                .key(list)
                .arg(need)
                .invoke_async(&mut self.conn)
                .await
            {
                Ok(taken) => taken,
                Err(err) => {
                    tracing::warn!(%err, "cannot take players from their pool");
                    return;
                }
            };
            if taken.is_empty() {
                return;
            }
            let live = match self.live_instances(&taken).await {
                Ok(live) => live,
                Err(err) => {
                    tracing::warn!(%err, "cannot tell which nodes live; players put back");
                    self.push_front(list, taken).await;
                    return;
                }
            };
            let (owner, waiters) = (&self.cluster.owner, &self.waiters);
            let alive = |entry: &Entry| {
                if entry.node == *owner {
                    waiters
                        .get(&ConnId(entry.conn))
                        .is_some_and(|w| w.entry.n == entry.n && !w.from.is_closed())
                } else {
                    live.get(entry.node_id())
                        .is_some_and(|instance| instance == entry.instance())
                }
            };
            match sort_taken(taken, need, alive) {
                Took::Meet(players) => self.start(key, players).await,
                Took::Short { keep, dropped } => {
                    let pool = list;
                    tracing::info!(dropped, %pool, "players of gone nodes or connections dropped");
                    if keep.is_empty() {
                        continue;
                    }
                    self.push_front(list, keep).await;
                }
            }
        }
    }

    /// The live instance of every other node among the `taken` entries' (node id →
    /// instance; a node with no lease is absent).
    async fn live_instances(
        &self,
        taken: &[String],
    ) -> redis::RedisResult<HashMap<String, String>> {
        let mut ids: Vec<String> = taken
            .iter()
            .filter_map(|text| Entry::read(text))
            .filter(|entry| entry.node != self.cluster.owner)
            .map(|entry| entry.node_id().to_string())
            .collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let mut pipe = redis::pipe();
        for id in &ids {
            pipe.hget(keys::node(id), "instance");
        }
        let mut conn = self.conn.clone();
        let instances: Vec<Option<String>> = pipe.query_async(&mut conn).await?;
        Ok(ids
            .into_iter()
            .zip(instances)
            .filter_map(|(id, instance)| Some((id, instance?)))
            .collect())
    }

    /// Put `texts` (oldest first) back at the head of `list`, in that order.
    async fn push_front(&self, list: &str, texts: Vec<String>) {
        let mut conn = self.conn.clone();
        let pushed: redis::RedisResult<usize> = redis::cmd("LPUSH")
            .arg(list)
            .arg(head_first(texts))
            .query_async(&mut conn)
            .await;
        if let Err(err) = pushed {
            tracing::warn!(%err, pool = %list, "players taken could not be put back");
        }
    }

    /// Make the battle of `key` for `players` (in seat order; the server's bots on the seats
    /// for people beyond them) on this node, and send each player in: this node's own here,
    /// the others through their nodes.
    pub(super) async fn start(&mut self, key: &PoolKey, players: Vec<Entry>) {
        let Some(lobby) = self.lobby.upgrade() else {
            return;
        };
        if lobby.is_draining() || self.cluster.is_draining() {
            return self
                .refuse_all(&lobby, players, ErrorCode::ServerBusy)
                .await;
        }
        let people = players[0].people.clone();
        let (battle_id, handle) =
            match seating::create(&lobby, &self.creator, key, &people, players.len()) {
                Ok(created) => created,
                Err(code) => return self.refuse_all(&lobby, players, code).await,
            };
        let (ruleset, count) = (&key.ruleset, players.len());
        tracing::info!(battle = %battle_id, %ruleset, players = count, "matched");
        let mut commands = Vec::with_capacity(players.len() + 1);
        let mut others = redis::pipe();
        let mut any = false;
        for (player, &seat) in players.into_iter().zip(&people) {
            if player.node == self.cluster.owner {
                let from = self.matched_here(&lobby, player.conn, player.n);
                seating::seat(
                    &battle_id,
                    &handle,
                    from,
                    seat,
                    player.setup,
                    player.req,
                    &mut commands,
                );
                continue;
            }
            let node = player.node_id().to_string();
            let cmd = Forwarded::Seat {
                to: player.node,
                n: player.n,
                seat,
                setup: player.setup,
                req: player.req,
            };
            self.to_inbox(&mut others, &node, player.conn, &battle_id, cmd);
            any = true;
        }
        seating::deliver(handle, commands);
        if any {
            if let Err(err) = others.query_async::<()>(&mut self.conn).await {
                let battle = &battle_id;
                tracing::warn!(%err, %battle, "cannot send the matched players' nodes their seats");
            }
        }
    }

    /// Players who met but get no battle (`code` says why): this node's own are told
    /// `unqueued` with the code as the reason, the others' nodes `unmatched`.
    async fn refuse_all(&mut self, lobby: &Lobby, players: Vec<Entry>, code: ErrorCode) {
        let mut others = redis::pipe();
        let mut any = false;
        for player in players {
            if player.node == self.cluster.owner {
                self.unmatched_here(lobby, player.conn, player.n, code.as_str(), player.req);
                continue;
            }
            let node = player.node_id().to_string();
            let cmd = Forwarded::Unmatched {
                to: player.node,
                n: player.n,
                reason: code.as_str().to_string(),
                req: player.req,
            };
            self.to_inbox(&mut others, &node, player.conn, "", cmd);
            any = true;
        }
        if any {
            if let Err(err) = others.query_async::<()>(&mut self.conn).await {
                tracing::warn!(%err, "cannot tell matched players' nodes there is no battle");
            }
        }
    }

    /// Add to `pipe` the message `cmd` about connection `conn` of node `node`.
    fn to_inbox(
        &self,
        pipe: &mut redis::Pipeline,
        node: &str,
        conn: u64,
        battle: &str,
        cmd: Forwarded,
    ) {
        let entry = InboxEntry {
            from: self.cluster.owner.clone(),
            conn,
            battle: battle.to_string(),
            cmd,
        };
        crate::cluster::forward::post(pipe, node, &entry);
    }

    /// This node's connection `conn`, matched for its wait number `n`: out of the queue (if
    /// that wait is still its own), counted, and its outbox; a closed stand-in when the
    /// connection is gone, so that its seat is held as after a disconnection.
    fn matched_here(&mut self, lobby: &Lobby, conn: u64, n: u64) -> Outbox {
        lobby.metrics().players_matched.increment(1);
        let conn = ConnId(conn);
        if self.waiters.get(&conn).is_some_and(|w| w.entry.n == n) {
            if let Some(waiter) = self.forget(conn) {
                return waiter.from;
            }
        }
        lobby.connection(conn).unwrap_or_else(gone)
    }

    /// This node's connection `conn`, met for its wait number `n` but without a battle: out
    /// of the queue, told `unqueued` with `reason` and its `queue`'s `req` (unless it waits
    /// again, anew).
    fn unmatched_here(
        &mut self,
        lobby: &Lobby,
        conn: u64,
        n: u64,
        reason: &str,
        req: Option<battle_protocol::Req>,
    ) {
        let conn = ConnId(conn);
        let from = match self.waiters.get(&conn) {
            Some(waiter) if waiter.entry.n == n => self.forget(conn).map(|w| w.from),
            Some(_) => return,
            None => lobby.connection(conn),
        };
        if let Some(from) = from {
            from.mailbox().set_queued(false);
            from.offer_msg(&ServerMsg::Unqueued {
                reason: reason.to_string(),
                req,
            });
        }
    }

    /// What another node's matchmaker says about one of this node's connections.
    pub(super) async fn told_by_node(&mut self, entry: InboxEntry) {
        let Some(lobby) = self.lobby.upgrade() else {
            return;
        };
        match entry.cmd {
            Forwarded::Seat {
                to,
                n,
                seat,
                setup,
                req,
            } => {
                // The battle is its maker's: known here before its creation may be read.
                self.cluster
                    .owners
                    .insert(entry.battle.clone(), entry.from.clone());
                let from = if to == self.cluster.owner {
                    let again = self
                        .waiters
                        .get(&ConnId(entry.conn))
                        .filter(|w| w.entry.n == n && w.pushed_again)
                        .map(|w| (w.list.clone(), w.text.clone()));
                    if let Some((list, text)) = again {
                        // The sweep put it back: that copy goes.
                        let mut conn = self.conn.clone();
                        let _: redis::RedisResult<usize> = redis::cmd("LREM")
                            .arg(list)
                            .arg(1)
                            .arg(text)
                            .query_async(&mut conn)
                            .await;
                    }
                    self.matched_here(&lobby, entry.conn, n)
                } else {
                    // For an instance of this node that has stopped: its seat waits for
                    // nobody, as after a disconnection.
                    gone()
                };
                let Some(handle) = lobby.handle(&entry.battle) else {
                    return;
                };
                let mut commands = Vec::with_capacity(2);
                seating::seat(
                    &entry.battle,
                    &handle,
                    from,
                    seat,
                    setup,
                    req,
                    &mut commands,
                );
                seating::deliver(handle, commands);
            }
            Forwarded::Unmatched { to, n, reason, req } if to == self.cluster.owner => {
                self.unmatched_here(&lobby, entry.conn, n, &reason, req);
            }
            _ => {}
        }
    }
}

/// A stand-in for a connection that is gone: closed, its mailbox sealed, so that the battle
/// that seats it is told at once that it went away.
fn gone() -> Outbox {
    let (outbox, _tap) = Outbox::detached(1);
    outbox.mailbox().seal();
    outbox.close(CloseCode::Away, "gone");
    outbox
}
