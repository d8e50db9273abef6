//! A connection's mailbox: what others tell its reader between two of its messages.
//!
//! The reader keeps the battles its connection is in, to route `act`, `resign` and `leave`
//! to them and to tell them when the connection closes. It learns by itself of the battles it
//! joins, rejoins or watches; a battle the matchmaker seats the connection in is posted here,
//! and the reader takes it before it routes its next message, at its next keepalive look and
//! when it ends. A flag says whether anything was posted, so an empty mailbox costs the
//! reader one relaxed load per message.
//!
//! The mailbox also holds whether the connection waits in the matchmaker's queue, which keeps
//! a connection in no battle from being closed as idle while it waits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::battle::BattleHandle;
use crate::poison::Locked;

/// A battle someone else made the connection part of.
#[derive(Debug)]
pub struct Entered {
    /// The battle's id.
    pub battle_id: String,
    /// The way into it.
    pub handle: BattleHandle,
}

/// The connection's reader has ended: nothing posted now would ever be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sealed;

/// What others post for one connection's reader. Part of the connection's outbox.
#[derive(Debug, Default)]
pub struct Mailbox {
    /// Something was posted and not taken yet.
    pending: AtomicBool,
    /// The connection waits in the matchmaker's queue.
    queued: AtomicBool,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    entered: Vec<Entered>,
    /// The reader has ended.
    sealed: bool,
}

impl Mailbox {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Nothing panics while holding the lock, and every change is one statement: a
        // poisoned lock still holds a usable value.
        self.inner.locked()
    }

    /// Tell the reader that its connection is now part of a battle, or learn that the reader
    /// has ended (the connection is closed).
    pub fn post(&self, entered: Entered) -> Result<(), Sealed> {
        let mut inner = self.lock();
        if inner.sealed {
            return Err(Sealed);
        }
        inner.entered.push(entered);
        self.pending.store(true, Ordering::Release);
        Ok(())
    }

    /// For the reader: what was posted since it last looked, oldest first. With nothing
    /// posted, one relaxed load and no allocation.
    ///
    /// A relaxed load is enough: whatever the reader must know before it routes a message
    /// (the battle a `matched` named) was posted before that message's cause was sent to the
    /// client, so the post happens before the message is read.
    #[inline]
    pub fn take(&self) -> Vec<Entered> {
        if !self.pending.load(Ordering::Relaxed) {
            return Vec::new();
        }
        self.take_posted()
    }

    #[cold]
    fn take_posted(&self) -> Vec<Entered> {
        let mut inner = self.lock();
        self.pending.store(false, Ordering::Relaxed);
        std::mem::take(&mut inner.entered)
    }

    /// For the reader as it ends: what was posted and not taken yet; from now on every post
    /// is refused with [`Sealed`].
    pub fn seal(&self) -> Vec<Entered> {
        let mut inner = self.lock();
        inner.sealed = true;
        self.pending.store(false, Ordering::Relaxed);
        std::mem::take(&mut inner.entered)
    }

    /// For the matchmaker: the connection waits in its queue, or no longer does.
    pub fn set_queued(&self, queued: bool) {
        self.queued.store(queued, Ordering::Relaxed);
    }

    /// Whether the connection waits in the matchmaker's queue.
    pub fn is_queued(&self) -> bool {
        self.queued.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entered(id: &str) -> Entered {
        let (tx, _rx) = tokio::sync::mpsc::channel(1);
        Entered {
            battle_id: id.to_string(),
            handle: BattleHandle::new(tx),
        }
    }

    fn ids(entered: Vec<Entered>) -> Vec<String> {
        entered.into_iter().map(|e| e.battle_id).collect()
    }

    #[test]
    fn posts_are_taken_once_in_order() {
        let mailbox = Mailbox::default();
        assert!(mailbox.take().is_empty());
        mailbox.post(entered("a")).expect("open");
        mailbox.post(entered("b")).expect("open");
        assert_eq!(ids(mailbox.take()), ["a", "b"]);
        assert!(mailbox.take().is_empty(), "taken once");
        mailbox.post(entered("c")).expect("open");
        assert_eq!(ids(mailbox.take()), ["c"]);
    }

    #[test]
    fn a_sealed_mailbox_hands_over_the_rest_and_refuses_posts() {
        let mailbox = Mailbox::default();
        mailbox.post(entered("a")).expect("open");
        assert_eq!(ids(mailbox.seal()), ["a"]);
        assert_eq!(mailbox.post(entered("b")).map(drop), Err(Sealed));
        assert!(mailbox.take().is_empty());
    }

    #[test]
    fn the_queued_mark_is_kept() {
        let mailbox = Mailbox::default();
        assert!(!mailbox.is_queued());
        mailbox.set_queued(true);
        assert!(mailbox.is_queued());
        mailbox.set_queued(false);
        assert!(!mailbox.is_queued());
    }
}
