//! Battle accounting: every battle the server created for the run ends counted exactly once,
//! as completed, abandoned or failed, so that `started = completed + abandoned + failed`
//! whichever way its slot stops: played out, cut off at the deadline, broken by an error, or
//! aborted by the run (its future dropped mid-battle).
//!
//! A started battle is a [`Battle`] guard. [`Battle::end`] counts it under an outcome;
//! dropped without one (the slot returned early or was aborted) it counts as abandoned.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

/// How a started battle ended for the load test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Played to its outcome by every connection of the battle.
    Completed,
    /// Cut off by the end of the run (its deadline, or the slot aborted after it).
    Abandoned,
    /// Ended by an error: a refused `join` or `spectate`, a lost or stalled connection, too
    /// many refused actions.
    Failed,
}

/// Battle counts at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct BattleCounts {
    /// Battles the server created for the run.
    pub started: u64,
    /// Of those, played to their outcome.
    pub completed: u64,
    /// Of those, cut off by the end of the run.
    pub abandoned: u64,
    /// Of those, ended by an error.
    pub failed: u64,
    /// Most battles in progress at once.
    pub peak_in_flight: u64,
}

impl BattleCounts {
    /// Battles started and not yet ended (0 once the run is over).
    pub fn in_flight(&self) -> u64 {
        self.started
            .saturating_sub(self.completed + self.abandoned + self.failed)
    }

    /// Whether every started battle is counted under exactly one outcome.
    pub fn balanced(&self) -> bool {
        self.started == self.completed + self.abandoned + self.failed
    }
}

/// The run's battle counters, shared by every slot.
#[derive(Debug, Default)]
pub struct Tally {
    started: AtomicU64,
    completed: AtomicU64,
    abandoned: AtomicU64,
    failed: AtomicU64,
    in_flight: AtomicU64,
    peak_in_flight: AtomicU64,
}

impl Tally {
    /// Count a battle the server just created; the guard counts its end.
    pub fn start(&self) -> Battle<'_> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak_in_flight.fetch_max(now, Ordering::SeqCst);
        Battle { tally: Some(self) }
    }

    fn record(&self, outcome: Outcome) {
        let counter = match outcome {
            Outcome::Completed => &self.completed,
            Outcome::Abandoned => &self.abandoned,
            Outcome::Failed => &self.failed,
        };
        counter.fetch_add(1, Ordering::SeqCst);
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
    }

    /// The counts now. The outcomes are read before `started`, so that while the run goes
    /// on an ended battle is never seen without its start.
    pub fn counts(&self) -> BattleCounts {
        let completed = self.completed.load(Ordering::SeqCst);
        let abandoned = self.abandoned.load(Ordering::SeqCst);
        let failed = self.failed.load(Ordering::SeqCst);
        BattleCounts {
            started: self.started.load(Ordering::SeqCst),
            completed,
            abandoned,
            failed,
            peak_in_flight: self.peak_in_flight.load(Ordering::SeqCst),
        }
    }
}

/// One started battle. Dropped without [`Battle::end`], it counts as abandoned.
#[derive(Debug)]
#[must_use = "a battle dropped at once counts as abandoned"]
pub struct Battle<'a> {
    /// `None` once the outcome is counted.
    tally: Option<&'a Tally>,
}

impl Battle<'_> {
    /// Count the battle's outcome.
    pub fn end(mut self, outcome: Outcome) {
        if let Some(tally) = self.tally.take() {
            tally.record(outcome);
        }
    }
}

impl Drop for Battle<'_> {
    fn drop(&mut self) {
        if let Some(tally) = self.tally.take() {
            tally.record(Outcome::Abandoned);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_battle_is_counted_once() {
        let tally = Tally::default();
        // Two at once.
        let first = tally.start();
        let second = tally.start();
        first.end(Outcome::Completed);
        second.end(Outcome::Failed);
        {
            // A slot that returns (or is aborted) mid-battle drops its guard.
            let _cut = tally.start();
        }
        let open = tally.start();
        let counts = tally.counts();
        assert_eq!(counts.in_flight(), 1);
        assert!(!counts.balanced(), "one battle is still going");
        open.end(Outcome::Completed);
        let counts = tally.counts();
        assert_eq!(
            counts,
            BattleCounts {
                started: 4,
                completed: 2,
                abandoned: 1,
                failed: 1,
                peak_in_flight: 2,
            }
        );
        assert!(counts.balanced());
        assert_eq!(counts.in_flight(), 0);
    }

    #[tokio::test]
    async fn an_aborted_task_abandons_its_battle() {
        let tally = std::sync::Arc::new(Tally::default());
        let shared = tally.clone();
        let (started, now_started) = tokio::sync::oneshot::channel();
        let task = tokio::spawn(async move {
            let battle = shared.start();
            let _ = started.send(());
            std::future::pending::<()>().await;
            battle.end(Outcome::Completed);
        });
        now_started.await.expect("the task starts its battle");
        task.abort();
        assert!(task.await.expect_err("aborted").is_cancelled());
        let counts = tally.counts();
        assert_eq!((counts.started, counts.abandoned), (1, 1));
        assert!(counts.balanced());
    }
}
