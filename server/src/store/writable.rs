//! Whether the data directory takes writes now: a full disk, or a filesystem that turned
//! read-only, makes commits fail. The committer says so here; the battles refuse every
//! move that would need a write (`store_unavailable`) until a commit goes through again,
//! `/health` says `degraded`, and what needs no write (watching, lists, replays) goes on.
//! A commit that failed is tried again until it goes through (space came back) or the
//! server stops; the frames that wait for it are never released before (nothing a crash
//! could lose is ever shown).

use crate::poison::Locked;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The store's write state, shared by its writer thread and everyone who asks.
#[derive(Debug, Default)]
pub struct Writable {
    /// The last commit failed (and none went through since).
    failing: AtomicBool,
    /// The server stops: a commit that fails now is given up.
    closing: AtomicBool,
    /// Commits that failed, in all.
    failures: AtomicU64,
    /// Since when, and why, while failing.
    episode: Mutex<Option<(Instant, String)>>,
}

impl Writable {
    /// Whether commits go through.
    pub fn is_writable(&self) -> bool {
        !self.failing.load(Ordering::Acquire)
    }

    /// Why not, while commits fail.
    pub fn why_not(&self) -> Option<String> {
        self.lock().as_ref().map(|(_, why)| why.clone())
    }

    /// How many commits failed so far.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// A commit failed with `err`; whether it is the first of an episode.
    pub fn failed(&self, err: &impl std::fmt::Display) -> bool {
        self.failures.fetch_add(1, Ordering::Relaxed);
        let mut episode = self.lock();
        let first = episode.is_none();
        if first {
            *episode = Some((Instant::now(), err.to_string()));
        }
        self.failing.store(true, Ordering::Release);
        first
    }

    /// A commit went through: how long the episode it ends lasted, if one did.
    pub fn succeeded(&self) -> Option<std::time::Duration> {
        if !self.failing.load(Ordering::Acquire) {
            return None;
        }
        let since = self.lock().take().map(|(since, _)| since.elapsed());
        self.failing.store(false, Ordering::Release);
        since
    }

    /// The server stops: a commit that fails from now on is given up.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Release);
    }

    /// Whether the server stops.
    pub fn is_closing(&self) -> bool {
        self.closing.load(Ordering::Acquire)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(Instant, String)>> {
        // Nothing panics under this lock; a poisoned value is still consistent.
        self.episode.locked()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_episode_starts_with_the_first_failure_and_ends_with_a_commit() {
        let state = Writable::default();
        assert!(state.is_writable());
        assert_eq!(state.succeeded(), None, "nothing to end");
        assert!(
            state.failed(&"database or disk is full"),
            "the first failure"
        );
        assert!(!state.failed(&"still full"), "the same episode");
        assert!(!state.is_writable());
        assert_eq!(state.why_not().as_deref(), Some("database or disk is full"));
        assert_eq!(state.failures(), 2);
        assert!(state.succeeded().is_some());
        assert!(state.is_writable());
        assert_eq!(state.why_not(), None);
    }
}
