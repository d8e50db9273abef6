//! The matchmaker of a node in a cluster: the pools are lists in Redis that every node
//! shares, so players meet whichever node they are connected to.
//!
//! - **`queue`** appends the player's entry ([`Entry`]: its node instance, connection, setup,
//!   `req`, when it queued, its battle's seats for people) to its pool's list, answers
//!   `queued` with the list's length, then takes a battle's worth of players from the head of
//!   the list in one atomic step (`Scripts::pool_take`), as long as there are enough.
//! - **Dead entries** (a node instance that is no longer live, a connection of this node that
//!   closed) are dropped when taken, never matched; when that leaves too few, the others go
//!   back at the head of the list in their order ([`meet`]).
//! - **The node that took the players makes the battle** in its own lobby and seats its own
//!   connections as a single server does; every other player's node is sent a `seat` through
//!   its inbox, and there its matchmaker posts the battle to the connection's mailbox and
//!   sends the join through the battle's routed handle: the owner answers `matched` and the
//!   snapshot. A node that can make no battle sends `unmatched` instead.
//! - **`unqueue`**, a closed connection and the end of a `bot_after_ms` wait remove the
//!   entry (`LREM`, with the text this node keeps per connection). Removing nothing means that
//!   a node took the player: its seat is on its way. For the wait's end, that means no bots.
//! - **Lost entries**: an entry gone from its list for a while with no seat come was dropped
//!   while this node's lease had lapsed, or taken by a node that stopped before seating it;
//!   the periodic sweep ([`sweep`]) puts it back at the end of its list (or, its wait for
//!   people over, gives it its bot battle).
//!
//! One task, one command at a time: it awaits Redis (never a client or a battle), while
//! commands wait in its bounded queue, so this node's changes to the lists happen in order.

mod meet;
mod sweep;

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use battle_protocol::{ErrorCode, Req, ServerMsg};
use redis::aio::ConnectionManager;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use super::command::Command;
use super::entry::{pool_name, Entry};
use super::pool::PoolKey;
use super::request::Checked;
use crate::cluster::{keys, Cluster};
use crate::connection::outbox::Outbox;
use crate::ids::ConnId;
use crate::lobby::Lobby;
use crate::quota::Creator;
use crate::store::unix_now_ms;

/// How often the lists are looked at for this node's closed connections and lost entries.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// How long after a failed removal at the end of a wait the removal is tried again.
const RETRY: Duration = Duration::from_secs(1);

/// One of this node's connections waiting in a pool.
#[derive(Debug)]
struct Waiter {
    from: Outbox,
    key: PoolKey,
    /// Its pool's list.
    list: String,
    entry: Entry,
    /// The entry's text, exactly as the list holds it.
    text: String,
    /// When it stops waiting for people.
    until: Option<Instant>,
    /// Since when the sweep has found its entry missing from the list with no seat come.
    missing_since: Option<Instant>,
    /// Put back in the list by the sweep: a seat that comes for it must remove it.
    pushed_again: bool,
}

/// The task that matches players across the cluster. Built and started by `super::start`.
pub(super) struct ClusterMatchmaker {
    rx: mpsc::Receiver<Command>,
    /// The lobby creates the battles (weak: the lobby holds this task's handle).
    lobby: Weak<Lobby>,
    cluster: Arc<Cluster>,
    conn: ConnectionManager,
    /// What the battles it makes count against (`Quotas::matchmaker`).
    creator: Creator,
    /// How many of this node's connections wait, for the metrics.
    waiting: Arc<AtomicUsize>,
    waiters: HashMap<ConnId, Waiter>,
    /// Waiters' deadlines for the server's bots: (when, wait number, connection).
    deadlines: BTreeSet<(Instant, u64, ConnId)>,
    /// The last wait number given.
    numbered: u64,
}

impl ClusterMatchmaker {
    pub(super) fn new(
        rx: mpsc::Receiver<Command>,
        lobby: Weak<Lobby>,
        cluster: Arc<Cluster>,
        creator: Creator,
        waiting: Arc<AtomicUsize>,
    ) -> Self {
        ClusterMatchmaker {
            rx,
            lobby,
            conn: cluster.conn.clone(),
            cluster,
            creator,
            waiting,
            waiters: HashMap::new(),
            deadlines: BTreeSet::new(),
            numbered: 0,
        }
    }

    /// Run until every handle is gone (the lobby went away).
    pub(super) async fn run(mut self) {
        let mut sweep_at = Instant::now() + SWEEP_EVERY;
        loop {
            let due = self.deadlines.first().map(|&(at, ..)| at);
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                    self.bots_due(Instant::now()).await;
                }
                () = sleep_until(sweep_at) => {
                    self.sweep().await;
                    sweep_at = Instant::now() + SWEEP_EVERY;
                }
            }
            self.waiting.store(self.waiters.len(), Ordering::Relaxed);
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Queue { from, checked, req } => self.queue(from, checked, req).await,
            Command::Unqueue { from, req } => self.unqueue(from, req).await,
            Command::Gone { conn } => {
                if let Some(waiter) = self.forget(conn) {
                    // Nothing removed: a node took it, and its seat is told as disconnected.
                    if let Err(err) = self.remove(&waiter).await {
                        tracing::warn!(%err, "cannot take a closed connection out of its pool");
                    }
                }
            }
            Command::FromNode(entry) => self.told_by_node(entry).await,
        }
    }

    async fn queue(&mut self, from: Outbox, checked: Checked, req: Option<Req>) {
        if from.is_closed() {
            return;
        }
        if self.waiters.contains_key(&from.id()) {
            let why = "this connection already waits in the queue; unqueue first";
            from.offer_msg(&ServerMsg::error(ErrorCode::AlreadyQueued, why, req));
            return;
        }
        self.numbered += 1;
        let entry = Entry {
            node: self.cluster.owner.clone(),
            conn: from.id().0,
            n: self.numbered,
            setup: checked.setup,
            req,
            at: unix_now_ms(),
            people: checked.people,
        };
        let text = entry.text();
        let list = keys::pool(&pool_name(&checked.key));
        let pushed: redis::RedisResult<usize> = redis::cmd("RPUSH")
            .arg(&list)
            .arg(&text)
            .query_async(&mut self.conn)
            .await;
        let waiting = match pushed {
            Ok(waiting) => waiting,
            Err(err) => {
                tracing::warn!(%err, "cannot queue a player");
                let why = "the matchmaking queue is out of reach; retry in a moment";
                from.offer_msg(&ServerMsg::error(ErrorCode::StoreUnavailable, why, req));
                return;
            }
        };
        let until = checked.bot_after.map(|wait| Instant::now() + wait);
        if let Some(at) = until {
            self.deadlines.insert((at, entry.n, from.id()));
        }
        from.mailbox().set_queued(true);
        from.offer_msg(&ServerMsg::Queued {
            ruleset: checked.key.ruleset.clone(),
            waiting,
            req,
        });
        let need = entry.people.len().max(1);
        let key = checked.key;
        self.waiters.insert(
            from.id(),
            Waiter {
                from,
                key: key.clone(),
                list: list.clone(),
                entry,
                text,
                until,
                missing_since: None,
                pushed_again: false,
            },
        );
        self.take(&list, &key, need).await;
    }

    async fn unqueue(&mut self, from: Outbox, req: Option<Req>) {
        let Some(waiter) = self.waiters.get(&from.id()) else {
            let why = "this connection does not wait in the queue";
            from.offer_msg(&ServerMsg::error(ErrorCode::NotQueued, why, req));
            return;
        };
        let removed = match self.remove(waiter).await {
            Ok(removed) => removed,
            Err(err) => {
                tracing::warn!(%err, "cannot take a player out of its pool");
                let why = "the matchmaking queue is out of reach; retry in a moment";
                from.offer_msg(&ServerMsg::error(ErrorCode::StoreUnavailable, why, req));
                return;
            }
        };
        self.forget(from.id());
        from.mailbox().set_queued(false);
        if removed {
            from.offer_msg(&ServerMsg::Unqueued {
                reason: "requested".into(),
                req,
            });
        } else {
            let why = "this connection no longer waits in the queue: it was just matched";
            from.offer_msg(&ServerMsg::error(ErrorCode::NotQueued, why, req));
        }
    }

    /// Every waiter whose wait for people is over gets a battle against the server's bots,
    /// if its entry is still in its list (else a node took it, and its seat is on its way).
    async fn bots_due(&mut self, now: Instant) {
        while let Some(&(at, n, conn)) = self.deadlines.first() {
            if at > now {
                break;
            }
            self.deadlines.pop_first();
            let Some(waiter) = self.waiters.get(&conn).filter(|w| w.entry.n == n) else {
                continue;
            };
            if waiter.from.is_closed() {
                if let Some(waiter) = self.forget(conn) {
                    let _ = self.remove(&waiter).await;
                }
                continue;
            }
            match self.remove(waiter).await {
                Ok(true) => {
                    let (key, entry) = (waiter.key.clone(), waiter.entry.clone());
                    self.start(&key, vec![entry]).await;
                }
                Ok(false) => {
                    // Taken, or lost: the sweep tells which (a lost one gets its bots then).
                    if let Some(waiter) = self.waiters.get_mut(&conn) {
                        waiter.missing_since.get_or_insert(now);
                    }
                }
                Err(err) => {
                    tracing::warn!(%err, "cannot end a player's wait; trying again");
                    self.deadlines.insert((now + RETRY, n, conn));
                }
            }
        }
    }

    /// Forget `conn`'s wait (not its entry); what it was.
    fn forget(&mut self, conn: ConnId) -> Option<Waiter> {
        let waiter = self.waiters.remove(&conn)?;
        if let Some(at) = waiter.until {
            self.deadlines.remove(&(at, waiter.entry.n, conn));
        }
        Some(waiter)
    }

    /// Remove `waiter`'s entry from its list: whether it was there.
    async fn remove(&self, waiter: &Waiter) -> redis::RedisResult<bool> {
        let mut conn = self.conn.clone();
        let removed: usize = redis::cmd("LREM")
            .arg(&waiter.list)
            .arg(1)
            .arg(&waiter.text)
            .query_async(&mut conn)
            .await?;
        Ok(removed > 0)
    }
}
