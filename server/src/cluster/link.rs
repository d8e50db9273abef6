//! The store's way into the cluster's committer: records become [`Op`]s with tickets, in
//! the order they are handed over, exactly as the single server's store hands its records
//! to its SQLite writer (`crate::store`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::committer::Op;
use super::log::Entry;
use crate::connection::remote::RemoteSink;
use crate::poison::Locked;
use crate::store::{Closing, Commits, Journal, Record, Retention, Ticket, Unavailable};

/// The sending end and the last ticket given, taken together under one lock, so that
/// operations reach the committer in ticket order.
struct Sender {
    last: Ticket,
    tx: Option<UnboundedSender<(Ticket, Op)>>,
}

/// The cluster's committer, as the store sees it.
pub struct StoreLink {
    sender: Mutex<Sender>,
    commits: Arc<Commits>,
    available: Arc<AtomicBool>,
    retention: Retention,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for StoreLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreLink")
            .field("available", &self.is_available())
            .finish_non_exhaustive()
    }
}

impl StoreLink {
    /// A link sending to `tx` (the committer's channel, served by `task`).
    pub fn new(
        tx: UnboundedSender<(Ticket, Op)>,
        commits: Arc<Commits>,
        available: Arc<AtomicBool>,
        retention: Retention,
        task: JoinHandle<()>,
    ) -> StoreLink {
        StoreLink {
            sender: Mutex::new(Sender {
                last: 0,
                tx: Some(tx),
            }),
            commits,
            available,
            retention,
            task: Mutex::new(Some(task)),
        }
    }

    /// Hand `op` to the committer; its ticket (0 once closed).
    pub fn send(&self, op: Op) -> Ticket {
        let mut sender = self.sender.locked();
        let Some(tx) = &sender.tx else {
            return 0;
        };
        let ticket = sender.last + 1;
        if tx.send((ticket, op)).is_err() {
            return 0;
        }
        sender.last = ticket;
        ticket
    }

    /// Hand a battle's record to the committer; its ticket.
    fn append_record(&self, record: Record) -> Ticket {
        let op = match record {
            Record::Created(created) => Op::Create {
                battle: created.battle.clone(),
                public: !created.private,
                created: serde_json::to_string(&*created).expect("a creation serializes"),
                summary: "null".into(),
            },
            Record::Finished(ended) => Op::Ended {
                battle: ended.battle.clone(),
                ended: serde_json::to_string(&*ended).expect("an ended battle serializes"),
                ended_at: ended.ended_at,
                public: !ended.private,
                retention_ms: if self.retention.keeps() {
                    u64::try_from(self.retention.keep_for.as_millis()).unwrap_or(u64::MAX)
                } else {
                    0
                },
            },
            Record::Removed { battle } => Op::Removed { battle },
            Record::Quarantined(quarantined) => Op::Quarantine {
                battle: quarantined.battle.clone(),
                why: serde_json::to_string(&quarantined).expect("plain data serializes"),
            },
            Record::Fence { battle } => Op::Fence { battle },
            ref other => {
                let entry = Entry::of(other).expect("every other record is a log entry");
                let battle = match other {
                    Record::SeatTaken { battle, .. }
                    | Record::SeatFreed { battle, .. }
                    | Record::Input { battle, .. } => battle.clone(),
                    _ => unreachable!("the records without an entry were matched above"),
                };
                Op::Append {
                    battle,
                    entry: entry.to_json(),
                }
            }
        };
        self.send(op)
    }

    /// Whether the cluster store took the last batch (moves are refused while it did not).
    pub fn is_available(&self) -> bool {
        self.available.load(Ordering::Acquire)
    }

    /// Whether Redis answered (the lease's renewal says so between batches): moves are
    /// refused while it does not, rather than applied and held.
    pub fn set_available(&self, available: bool) {
        self.available.store(available, Ordering::Release);
    }

    /// Stop taking operations, and wait until the committer has written what it took (at
    /// most `limit`: a store out of reach is not waited for forever).
    pub async fn close_within(&self, limit: std::time::Duration) {
        self.sender.locked().tx = None;
        let task = self.task.locked().take();
        if let Some(task) = task {
            let _ = tokio::time::timeout(limit, task).await;
        }
    }
}

/// The cluster's journal: the battles' records go to Redis, fenced by owner and epoch.
impl Journal for StoreLink {
    fn append(&self, record: Record) -> Ticket {
        self.append_record(record)
    }

    fn last_ticket(&self) -> Ticket {
        self.sender.locked().last
    }

    fn commits(&self) -> Option<Arc<Commits>> {
        Some(self.commits.clone())
    }

    fn is_available(&self) -> bool {
        StoreLink::is_available(self)
    }

    fn unavailable(&self) -> Unavailable {
        Unavailable::Cluster
    }

    /// Every node lists the battle from its record in Redis (fenced like its log).
    fn keep_summary(&self, battle: &str, summary: &battle_protocol::BattleSummary) {
        self.send(Op::Summary {
            battle: battle.to_string(),
            summary: serde_json::to_string(summary).expect("a summary serializes"),
        });
    }

    /// A store out of reach is not waited for long: what it did not take was never
    /// acknowledged to anyone.
    fn close(&self) -> Closing<'_> {
        Box::pin(self.close_within(std::time::Duration::from_secs(5)))
    }
}

impl RemoteSink for StoreLink {
    fn publish(&self, battle: &str, channel: String, message: Vec<u8>) {
        self.send(Op::Publish {
            battle: battle.to_string(),
            channel,
            message,
        });
    }
}
