//! The seam between battles and where their records are kept: the [`Journal`] trait and its
//! two local backends, [`Memory`] (no data directory: nothing kept, nothing waits) and
//! [`Sqlite`] (the data directory's committer thread). A cluster node's backend, on Redis,
//! implements the same trait in `crate::cluster`.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use battle_protocol::BattleSummary;
use tokio::sync::mpsc::UnboundedSender;

use super::archive::Archive;
use super::commits::{Commits, Ticket};
use super::record::Record;
use super::writable::Writable;
use super::Unavailable;
use crate::poison::Locked;

/// What closing a journal waits for.
pub type Closing<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Where a battle's records go. [`Journal::append`] never waits: it gives the record its
/// ticket, in the order the backend will commit them, and hands it over.
pub trait Journal: Send + Sync + std::fmt::Debug {
    /// Hand `record` over; its ticket (0: nothing to wait for, as without a store or once
    /// closed).
    fn append(&self, record: Record) -> Ticket;

    /// The last ticket handed out.
    fn last_ticket(&self) -> Ticket;

    /// The commits frames wait for (`None` when nothing is kept).
    fn commits(&self) -> Option<Arc<Commits>>;

    /// Whether battles are kept.
    fn is_durable(&self) -> bool {
        self.commits().is_some()
    }

    /// Whether records can be kept now (moves are refused with `store_unavailable` while
    /// they cannot).
    fn is_available(&self) -> bool;

    /// Why records cannot be kept now (asked once [`Journal::is_available`] said no).
    fn unavailable(&self) -> Unavailable;

    /// How many commits failed so far.
    fn commit_failures(&self) -> u64 {
        0
    }

    /// A battle's `list` record changed: backends shared by several nodes keep it for them.
    fn keep_summary(&self, _battle: &str, _summary: &BattleSummary) {}

    /// Stop taking records, commit what was taken and stop.
    fn close(&self) -> Closing<'_>;
}

/// No data directory: records are dropped at once (finished battles go to the archive kept in
/// memory), and frames never wait.
#[derive(Debug)]
pub struct Memory {
    archive: Arc<Archive>,
}

impl Memory {
    /// Finished battles go to `archive`.
    pub fn new(archive: Arc<Archive>) -> Memory {
        Memory { archive }
    }
}

impl Journal for Memory {
    fn append(&self, record: Record) -> Ticket {
        if let Record::Finished(ended) = &record {
            self.archive.keep(ended);
        }
        0
    }

    fn last_ticket(&self) -> Ticket {
        0
    }

    fn commits(&self) -> Option<Arc<Commits>> {
        None
    }

    fn is_available(&self) -> bool {
        true
    }

    fn unavailable(&self) -> Unavailable {
        Unavailable::DataDir(None)
    }

    fn close(&self) -> Closing<'_> {
        Box::pin(std::future::ready(()))
    }
}

/// The sending end, with the last ticket given: taken together under one lock, so records
/// reach the committer in ticket order.
#[derive(Debug)]
struct Sender {
    last: Ticket,
    tx: Option<UnboundedSender<(Ticket, Record)>>,
}

/// The data directory's journal: the committer thread writing records to SQLite in groups.
#[derive(Debug)]
pub struct Sqlite {
    sender: Mutex<Sender>,
    commits: Arc<Commits>,
    committer: Mutex<Option<JoinHandle<()>>>,
    /// The checkpoint thread and the flag that stops it.
    checkpoints: (Arc<AtomicBool>, Mutex<Option<JoinHandle<()>>>),
    /// Whether commits go through now.
    writable: Arc<Writable>,
    archive: Arc<Archive>,
}

impl Sqlite {
    /// A journal sending to `tx`, served by the `committer` thread (and `checkpointer`,
    /// stopped by `stop`).
    pub(super) fn new(
        tx: UnboundedSender<(Ticket, Record)>,
        commits: Arc<Commits>,
        committer: JoinHandle<()>,
        checkpoints: (Arc<AtomicBool>, JoinHandle<()>),
        writable: Arc<Writable>,
        archive: Arc<Archive>,
    ) -> Sqlite {
        Sqlite {
            sender: Mutex::new(Sender {
                last: 0,
                tx: Some(tx),
            }),
            commits,
            committer: Mutex::new(Some(committer)),
            checkpoints: (checkpoints.0, Mutex::new(Some(checkpoints.1))),
            writable,
            archive,
        }
    }
}

impl Journal for Sqlite {
    fn append(&self, record: Record) -> Ticket {
        match &record {
            Record::Fence { .. } => return 0,
            Record::Finished(ended) => self.archive.keep(ended),
            _ => {}
        }
        let mut sender = self.sender.locked();
        let Some(tx) = &sender.tx else {
            return 0;
        };
        let ticket = sender.last + 1;
        if tx.send((ticket, record)).is_err() {
            return 0;
        }
        sender.last = ticket;
        ticket
    }

    fn last_ticket(&self) -> Ticket {
        self.sender.locked().last
    }

    fn commits(&self) -> Option<Arc<Commits>> {
        Some(self.commits.clone())
    }

    fn is_available(&self) -> bool {
        self.writable.is_writable()
    }

    fn unavailable(&self) -> Unavailable {
        Unavailable::DataDir(self.writable.why_not())
    }

    fn commit_failures(&self) -> u64 {
        self.writable.failures()
    }

    fn close(&self) -> Closing<'_> {
        self.sender.locked().tx = None;
        // A commit that keeps failing is given up now (what waits for it was never shown).
        self.writable.close();
        let committer = self.committer.locked().take();
        self.checkpoints.0.store(true, Ordering::Release);
        let checkpointer = self.checkpoints.1.locked().take();
        if let Some(checkpointer) = &checkpointer {
            checkpointer.thread().unpark();
        }
        Box::pin(async move {
            // Joining waits for the last commit and checkpoint: off the runtime's threads.
            let _ = tokio::task::spawn_blocking(move || {
                if let Some(committer) = committer {
                    let _ = committer.join();
                }
                if let Some(checkpointer) = checkpointer {
                    let _ = checkpointer.join();
                }
            })
            .await;
        })
    }
}
