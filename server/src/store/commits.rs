//! How far the input log is committed, and the connections waiting for it.
//!
//! Every record the store takes gets a ticket, in the order the writer commits them; a frame
//! that shows a change carries the ticket of the change's record and leaves only once that
//! ticket is committed (see [`Release`]). The store's writer advances the watermark after each
//! commit and hands the waiting connections their now-committed frames.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::poison::Locked;
use tokio::sync::Notify;

/// What waits for a commit: released (its frames written) once the ticket it waits for is
/// committed. A connection's outbox is one.
pub trait Release: Send + Sync + 'static {
    /// The ticket waited for is committed: write what may now leave.
    fn release(&self);
}

/// A record's place in the commit order; 0 stands for "nothing to wait for".
pub type Ticket = u64;

/// How many poisoned tickets are remembered (see [`Commits::poison`]): far more than an
/// actor can hand out before it learns that its battle went to another node.
const POISON_KEPT: usize = 4096;

/// The committed watermark and the connections with frames waiting for a later one.
#[derive(Default)]
pub struct Commits {
    /// Every ticket up to this one is committed.
    committed: AtomicU64,
    /// Connections holding frames whose ticket is not committed yet.
    waiting: Mutex<Vec<Box<dyn Release>>>,
    /// Woken at every advance of the watermark (for [`Commits::committed_through`]).
    advanced: Notify,
    /// Tickets whose write was refused (in a cluster, by a battle another node took): what
    /// carries one is dropped, never sent. Empty on a single server.
    poisoned: Mutex<std::collections::VecDeque<Ticket>>,
    /// Whether any ticket was ever poisoned (so that the check costs nothing otherwise).
    any_poisoned: std::sync::atomic::AtomicBool,
}

impl Commits {
    /// Whether a frame carrying `ticket` may leave.
    pub fn is_committed(&self, ticket: Ticket) -> bool {
        ticket <= self.committed.load(Ordering::Acquire)
    }

    /// The highest committed ticket.
    pub fn committed(&self) -> Ticket {
        self.committed.load(Ordering::Acquire)
    }

    /// Register `outbox` to be released when `ticket` is committed; `false` when it already
    /// is (then nothing was registered and the caller may write at once). Checked under the
    /// same lock [`Commits::advance`] takes, so no commit slips between check and register.
    pub fn wait<R: Release + Clone>(&self, waiter: &R, ticket: Ticket) -> bool {
        let mut waiting = self.lock();
        if self.is_committed(ticket) {
            return false;
        }
        waiting.push(Box::new(waiter.clone()));
        true
    }

    /// Wait (without blocking the runtime) until `ticket` is committed.
    pub async fn committed_through(&self, ticket: Ticket) {
        loop {
            let advanced = self.advanced.notified();
            tokio::pin!(advanced);
            advanced.as_mut().enable();
            if self.is_committed(ticket) {
                return;
            }
            advanced.await;
        }
    }

    /// These tickets' writes were refused: frames carrying them are dropped. Called before
    /// the watermark passes them.
    pub fn poison(&self, tickets: &[Ticket]) {
        if tickets.is_empty() {
            return;
        }
        let mut poisoned = self.poisoned.locked();
        poisoned.extend(tickets.iter().copied().filter(|&t| t != 0));
        while poisoned.len() > POISON_KEPT {
            poisoned.pop_front();
        }
        self.any_poisoned.store(true, Ordering::Release);
    }

    /// Whether a frame carrying `ticket` must be dropped.
    pub fn is_poisoned(&self, ticket: Ticket) -> bool {
        if ticket == 0 || !self.any_poisoned.load(Ordering::Acquire) {
            return false;
        }
        self.poisoned.locked().contains(&ticket)
    }

    /// Whether any ticket was ever poisoned.
    pub fn any_poisoned(&self) -> bool {
        self.any_poisoned.load(Ordering::Acquire)
    }

    /// Everything up to `ticket` is committed: raise the watermark and release the frames
    /// now allowed to leave.
    pub fn advance(&self, ticket: Ticket) {
        let released = {
            let mut waiting = self.lock();
            self.committed.fetch_max(ticket, Ordering::AcqRel);
            std::mem::take(&mut *waiting)
        };
        self.advanced.notify_waiters();
        for waiter in released {
            waiter.release();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Box<dyn Release>>> {
        // Nothing panics under this lock; a poisoned list is still a list.
        self.waiting.locked()
    }
}

impl std::fmt::Debug for Commits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Commits")
            .field("committed", &self.committed())
            .finish_non_exhaustive()
    }
}
