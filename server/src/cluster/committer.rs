//! The cluster's committer: every write this node makes to its battles, in Redis, in order,
//! in batches, each write fenced by its battle's owner and epoch ([`super::scripts`]'s
//! batch script).
//!
//! Actors hand their records to the store as on a single server (`crate::store`), which
//! gives each a ticket and passes it here as an [`Op`]; what is published to other nodes
//! (a change for remote members, a note for one remote connection) comes the same way,
//! behind the records it shows. One batch is one script call: all of it is done, in order,
//! or (for a battle whose owner or epoch no longer match) none of that battle's part. After
//! each batch the committed watermark moves on and the frames waiting for it are released
//! ([`Commits`]); the tickets of a fenced battle are poisoned first, so that what waited for
//! them is dropped, never sent, and the lobby is told to let the battle go.
//!
//! When Redis cannot be reached the batch is tried again until it goes through (every
//! entry is written at its index, so a batch sent twice writes each entry once); meanwhile
//! the store says it is unavailable and actors refuse moves with `store_unavailable`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use redis::aio::ConnectionManager;
use tokio::sync::mpsc::UnboundedReceiver;

use super::scripts::Scripts;
use crate::lobby::Lobby;
use crate::store::{Commits, Ticket};

/// Most operations in one batch.
const MAX_BATCH: usize = 512;

/// First wait before a failed batch is tried again; it doubles up to [`RETRY_MAX`].
const RETRY_MIN: Duration = Duration::from_millis(50);
/// Longest wait between two tries of a failed batch.
const RETRY_MAX: Duration = Duration::from_secs(1);

/// One write to a battle, or a change of what this node owns.
#[derive(Debug, Clone)]
pub enum Op {
    /// A new battle, owned here from epoch 1.
    Create {
        battle: String,
        created: String,
        public: bool,
        summary: String,
    },
    /// A record after the creation, appended to the battle's log.
    Append { battle: String, entry: String },
    /// A message for another node (a change, a note).
    Publish {
        battle: String,
        channel: String,
        message: Vec<u8>,
    },
    /// The battle's `list` record.
    Summary { battle: String, summary: String },
    /// Only the check: what follows it may be sent.
    Fence { battle: String },
    /// The battle ended: kept for its replay for `retention_ms` (0: not kept).
    Ended {
        battle: String,
        ended: String,
        ended_at: u64,
        public: bool,
        retention_ms: u64,
    },
    /// The battle went away.
    Removed { battle: String },
    /// The battle cannot be replayed here: set it aside (why, as JSON).
    Quarantine { battle: String, why: String },
    /// From now on this node owns `battle` at `epoch`, its log `length` entries long.
    Own {
        battle: String,
        epoch: u64,
        length: u64,
    },
    /// This node no longer owns `battle` (handed over): its writes are not sent.
    Disown { battle: String },
}

impl Op {
    fn battle(&self) -> &str {
        match self {
            Op::Create { battle, .. }
            | Op::Append { battle, .. }
            | Op::Publish { battle, .. }
            | Op::Summary { battle, .. }
            | Op::Fence { battle }
            | Op::Ended { battle, .. }
            | Op::Removed { battle }
            | Op::Quarantine { battle, .. }
            | Op::Own { battle, .. }
            | Op::Disown { battle } => battle,
        }
    }
}

/// An operation written in a batch: its ticket, its battle, whether it publishes.
type Included = (Ticket, String, bool);

/// A battle this node owns: its epoch and how long its log is.
#[derive(Debug, Clone, Copy)]
struct Owned {
    epoch: u64,
    length: u64,
}

/// The committer task's state.
pub struct Committer {
    conn: ConnectionManager,
    scripts: Arc<Scripts>,
    /// This node instance, as battles name their owner.
    owner: String,
    owned: HashMap<String, Owned>,
    commits: Arc<Commits>,
    /// Whether the last batch went through.
    available: Arc<AtomicBool>,
    lobby: Arc<std::sync::OnceLock<Weak<Lobby>>>,
}

impl Committer {
    /// A committer writing as `owner` on `conn`.
    pub fn new(
        conn: ConnectionManager,
        scripts: Arc<Scripts>,
        owner: String,
        commits: Arc<Commits>,
        available: Arc<AtomicBool>,
        lobby: Arc<std::sync::OnceLock<Weak<Lobby>>>,
    ) -> Committer {
        Committer {
            conn,
            scripts,
            owner,
            owned: HashMap::new(),
            commits,
            available,
            lobby,
        }
    }

    /// Commit operations as they come, until every sender is gone.
    pub async fn run(mut self, mut rx: UnboundedReceiver<(Ticket, Op)>) {
        let mut batch: Vec<(Ticket, Op)> = Vec::with_capacity(64);
        while let Some(first) = rx.recv().await {
            batch.push(first);
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(op) => batch.push(op),
                    Err(_) => break,
                }
            }
            self.commit(&batch).await;
            batch.clear();
        }
    }

    /// Write one batch (trying again until Redis takes it), then release what waited.
    async fn commit(&mut self, batch: &[(Ticket, Op)]) {
        let last = batch.iter().map(|(ticket, _)| *ticket).max().unwrap_or(0);
        let (args, included) = self.arguments(batch);
        let fenced: Vec<String> = if args.is_empty() {
            Vec::new()
        } else {
            self.run_script(&args).await
        };
        let published = included
            .iter()
            .filter(|(_, battle, publish)| *publish && !fenced.iter().any(|f| f == battle))
            .count();
        if published > 0 {
            if let Some(lobby) = self.lobby.get().and_then(Weak::upgrade) {
                lobby
                    .metrics()
                    .cluster
                    .publications
                    .increment(published as u64);
            }
        }
        if !fenced.is_empty() {
            let poisoned: Vec<Ticket> = included
                .iter()
                .filter(|(_, battle, _)| fenced.iter().any(|f| f == battle))
                .map(|(ticket, _, _)| *ticket)
                .collect();
            self.commits.poison(&poisoned);
            for battle in &fenced {
                self.owned.remove(battle);
            }
        }
        self.commits.advance(last);
        if !fenced.is_empty() {
            if let Some(lobby) = self.lobby.get().and_then(Weak::upgrade) {
                for battle in fenced {
                    lobby.metrics().cluster.fencing_refusals.increment(1);
                    tracing::warn!(%battle, "another node owns this battle now: let go");
                    lobby.fenced(&battle);
                }
            }
        }
    }

    /// Run the batch script on `args` until it goes through; the battles it fenced.
    async fn run_script(&mut self, args: &[Vec<u8>]) -> Vec<String> {
        let mut wait = RETRY_MIN;
        loop {
            let started = Instant::now();
            let mut invocation = self.scripts.batch.prepare_invoke();
            for arg in args {
                invocation.arg(arg.as_slice());
            }
            match invocation.invoke_async::<Vec<String>>(&mut self.conn).await {
                Ok(fenced) => {
                    if !self.available.swap(true, Ordering::AcqRel) {
                        tracing::info!("the cluster store is reachable again");
                    }
                    if let Some(lobby) = self.lobby.get().and_then(Weak::upgrade) {
                        lobby
                            .metrics()
                            .cluster
                            .redis_round_trip
                            .record(started.elapsed().as_secs_f64());
                    }
                    return fenced;
                }
                Err(err) => {
                    if self.available.swap(false, Ordering::AcqRel) {
                        tracing::error!(%err, "cannot write to the cluster store; retrying");
                    }
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(RETRY_MAX);
                }
            }
        }
    }

    /// The script's arguments for `batch`, and the (ticket, battle, whether it publishes) of
    /// every operation included. Operations of battles this node does not own are left out
    /// (their tickets poisoned: nothing waiting for them may be sent).
    fn arguments(&mut self, batch: &[(Ticket, Op)]) -> (Vec<Vec<u8>>, Vec<Included>) {
        let mut args: Vec<Vec<u8>> = Vec::with_capacity(batch.len() * 6);
        let mut included = Vec::with_capacity(batch.len());
        let mut left_out = Vec::new();
        for (ticket, op) in batch {
            match op {
                Op::Own {
                    battle,
                    epoch,
                    length,
                } => {
                    let owned = Owned {
                        epoch: *epoch,
                        length: *length,
                    };
                    self.owned.insert(battle.clone(), owned);
                    continue;
                }
                Op::Disown { battle } => {
                    self.owned.remove(battle);
                    continue;
                }
                Op::Create { battle, .. } => {
                    let owned = Owned {
                        epoch: 1,
                        length: 0,
                    };
                    self.owned.insert(battle.clone(), owned);
                }
                _ => {}
            }
            let battle = op.battle();
            let Some(owned) = self.owned.get_mut(battle) else {
                left_out.push(*ticket);
                continue;
            };
            let head = |kind: &str, args: &mut Vec<Vec<u8>>| {
                args.push(kind.as_bytes().to_vec());
                args.push(battle.as_bytes().to_vec());
                args.push(self.owner.as_bytes().to_vec());
                args.push(owned.epoch.to_string().into_bytes());
            };
            match op {
                Op::Create {
                    created,
                    public,
                    summary,
                    ..
                } => {
                    head("C", &mut args);
                    args.push(created.as_bytes().to_vec());
                    args.push(flag(*public));
                    args.push(summary.as_bytes().to_vec());
                }
                Op::Append { entry, .. } => {
                    head("A", &mut args);
                    args.push(owned.length.to_string().into_bytes());
                    args.push(entry.as_bytes().to_vec());
                    owned.length += 1;
                }
                Op::Publish {
                    channel, message, ..
                } => {
                    head("P", &mut args);
                    args.push(channel.as_bytes().to_vec());
                    args.push(message.clone());
                }
                Op::Summary { summary, .. } => {
                    head("S", &mut args);
                    args.push(summary.as_bytes().to_vec());
                }
                Op::Fence { .. } => head("F", &mut args),
                Op::Ended {
                    ended,
                    ended_at,
                    public,
                    retention_ms,
                    ..
                } => {
                    head("E", &mut args);
                    args.push(ended.as_bytes().to_vec());
                    args.push(ended_at.to_string().into_bytes());
                    args.push(flag(*public));
                    args.push(retention_ms.to_string().into_bytes());
                }
                Op::Removed { .. } => head("R", &mut args),
                Op::Quarantine { why, .. } => {
                    head("Q", &mut args);
                    args.push(why.as_bytes().to_vec());
                }
                Op::Own { .. } | Op::Disown { .. } => {}
            }
            if matches!(op, Op::Removed { .. } | Op::Quarantine { .. }) {
                self.owned.remove(battle);
            }
            let publish = matches!(op, Op::Publish { .. });
            included.push((*ticket, battle.to_string(), publish));
        }
        if !left_out.is_empty() {
            self.commits.poison(&left_out);
        }
        (args, included)
    }
}

fn flag(on: bool) -> Vec<u8> {
    if on {
        b"1".to_vec()
    } else {
        b"0".to_vec()
    }
}
