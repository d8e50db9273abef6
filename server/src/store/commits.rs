//! How far the input log is committed, and the connections waiting for it.
//!
//! Every record the store takes gets a ticket, in the order the writer commits them; a frame
//! that shows a change carries the ticket of the change's record and leaves only once that
//! ticket is committed (see [`Outbox`]). The store's writer advances the watermark after each
//! commit and hands the waiting connections their now-committed frames.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::connection::outbox::Outbox;

/// A record's place in the commit order; 0 stands for "nothing to wait for".
pub type Ticket = u64;

/// How many poisoned tickets are remembered (see [`Commits::poison`]): far more than an
/// actor can hand out before it learns that its battle went to another node.
const POISON_KEPT: usize = 4096;

/// The committed watermark and the connections with frames waiting for a later one.
#[derive(Debug, Default)]
pub struct Commits {
    /// Every ticket up to this one is committed.
    committed: AtomicU64,
    /// Connections holding frames whose ticket is not committed yet.
    waiting: Mutex<Vec<Outbox>>,
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
    pub fn wait(&self, outbox: &Outbox, ticket: Ticket) -> bool {
        let mut waiting = self.lock();
        if self.is_committed(ticket) {
            return false;
        }
        waiting.push(outbox.clone());
        true
    }

    /// These tickets' writes were refused: frames carrying them are dropped. Called before
    /// the watermark passes them.
    pub fn poison(&self, tickets: &[Ticket]) {
        if tickets.is_empty() {
            return;
        }
        let mut poisoned = self
            .poisoned
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
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
        self.poisoned
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .contains(&ticket)
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
        for outbox in released {
            outbox.release();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Outbox>> {
        // Nothing panics under this lock; a poisoned list is still a list.
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
