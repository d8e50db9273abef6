//! The embedded store: every battle's durable state in a SQLite database under the data
//! directory, so that a killed or restarted server restores every unfinished battle.
//!
//! Battle actors hand [`Record`]s to [`Store::append`], which never waits: its [`Journal`]
//! gives the record the next [`Ticket`] and passes it to the committer thread
//! ([`committer`]), which commits records in groups and then releases the frames that show
//! them ([`Commits`], through their [`Release`]). What
//! is kept: each battle's ruleset, version, options, seed, bots and pace, the seats held
//! before the start (a hash of each seat token, never the token), and its input log. On start
//! [`Store::open`] reads back every battle kept ([`SavedBattle`]) for the lobby to replay;
//! a battle is forgotten when it expires. Without a data directory ([`Store::none`]) nothing is kept and nothing waits.

mod archive;
mod commits;
mod committer;
mod journal;
pub mod offline;
mod quarantine;
mod record;
mod saved;
mod schema;
mod writable;

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use tokio::sync::mpsc;

pub use archive::{summary as finished_summary, unix_now_ms, Archive, Retention};
pub use commits::{Commits, Release, Ticket};
pub use journal::{Closing, Journal, Memory, Sqlite};
pub use quarantine::Quarantined;
pub use record::{Created, Ended, Record};
pub use saved::{Loaded, SavedBattle, SavedSeat};
pub use writable::Writable;

/// Why the store could not be opened (or read).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the data directory {0}: {1}")]
    Dir(String, std::io::Error),
    #[error("SQLite refused: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error(
        "its database has schema version {0}, newer than this server's {1} (a newer \
         battle-server wrote it: run that one)"
    )]
    Newer(usize, usize),
    #[error("the database holds a record this server cannot read: {0}")]
    Corrupt(String),
    #[error("cannot start the store's writer thread: {0}")]
    Thread(std::io::Error),
}

/// Why records cannot be kept now, in words for the client refused (`store_unavailable`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unavailable {
    /// The data directory refuses writes (a full disk, a read-only filesystem), with the
    /// last failure's words when known.
    #[error("the server's data directory takes no writes now{}", .0.as_ref().map(|why| format!(" ({why})")).unwrap_or_default())]
    DataDir(Option<String>),
    /// A cluster's Redis is out of reach.
    #[error("the cluster store is out of reach")]
    Cluster,
}

/// A cloneable handle on the store: its [`Journal`] (SQLite, memory, or a cluster's Redis)
/// and the finished battles it keeps for replays.
#[derive(Clone)]
pub struct Store {
    journal: Arc<dyn Journal>,
    archive: Arc<Archive>,
}

impl Default for Store {
    fn default() -> Self {
        Store::none(Retention::default())
    }
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("durable", &self.is_durable())
            .finish()
    }
}

impl Store {
    /// No store: battles live in memory only, and frames never wait. Finished battles are
    /// kept in memory for replays (see [`Archive::memory`]).
    pub fn none(retention: Retention) -> Store {
        let archive = Arc::new(Archive::memory(retention));
        Store {
            journal: Arc::new(Memory::new(archive.clone())),
            archive,
        }
    }

    /// A store whose records go to `journal` (a cluster's: finished battles are read back
    /// from where it keeps them, the archive here stays empty).
    pub fn with_journal(journal: Arc<dyn Journal>, retention: Retention) -> Store {
        Store {
            journal,
            archive: Arc::new(Archive::memory(retention)),
        }
    }

    /// Whether records can be kept now: not while the data directory refuses writes (a
    /// full disk, a read-only filesystem) or a cluster's Redis is out of reach. Meanwhile
    /// moves are refused with `store_unavailable`.
    pub fn is_available(&self) -> bool {
        self.journal.is_available()
    }

    /// Why records cannot be kept now (see [`Store::is_available`]).
    pub fn unavailable(&self) -> Unavailable {
        self.journal.unavailable()
    }

    /// Why records cannot be kept now, in words for the client refused.
    pub fn unavailable_reason(&self) -> String {
        self.unavailable().to_string()
    }

    /// How many commits to the data directory failed so far (0 in a cluster or without a
    /// store).
    pub fn commit_failures(&self) -> u64 {
        self.journal.commit_failures()
    }

    /// Open the store in `dir` (created if needed), read back every battle kept (and the
    /// battles set aside), and start the committer; finished battles are kept for replays as
    /// `retention` says. `fsync`: see [`schema::open`]. The caller holds the directory
    /// ([`crate::dir_lock`]).
    pub fn open(
        dir: &Path,
        fsync: bool,
        retention: Retention,
    ) -> Result<(Store, Loaded), StoreError> {
        let conn = schema::open(dir, fsync)?;
        let saved = saved::load(&conn)?;
        let writable = Arc::new(Writable::default());
        let writer = committer::Committer::new(conn, retention, writable.clone())?;
        let archive = Arc::new(Archive::database(dir, retention)?);
        let (tx, rx) = mpsc::unbounded_channel();
        let commits = Arc::new(Commits::default());
        let for_thread = commits.clone();
        let committer = std::thread::Builder::new()
            .name("store-committer".into())
            .spawn(move || writer.run(rx, for_thread))
            .map_err(StoreError::Thread)?;
        let stop = Arc::new(AtomicBool::new(false));
        let checkpointer = schema::checkpoints(dir, stop.clone())?;
        let journal = Sqlite::new(
            tx,
            commits,
            committer,
            (stop, checkpointer),
            writable,
            archive.clone(),
        );
        Ok((
            Store {
                journal: Arc::new(journal),
                archive,
            },
            saved,
        ))
    }

    /// Whether battles are kept.
    pub fn is_durable(&self) -> bool {
        self.journal.is_durable()
    }

    /// The commits frames wait for (`None` without a store).
    pub fn commits(&self) -> Option<Arc<Commits>> {
        self.journal.commits()
    }

    /// The finished battles kept for replays.
    pub fn archive(&self) -> &Archive {
        &self.archive
    }

    /// Hand `record` to the journal; its ticket (0 without a store, or once closed). A
    /// finished battle goes to the archive too.
    pub fn append(&self, record: Record) -> Ticket {
        self.journal.append(record)
    }

    /// A battle's `list` record changed (kept for the other nodes in a cluster).
    pub fn keep_summary(&self, battle: &str, summary: &battle_protocol::BattleSummary) {
        self.journal.keep_summary(battle, summary);
    }

    /// The last ticket handed out.
    pub fn last_ticket(&self) -> Ticket {
        self.journal.last_ticket()
    }

    /// Wait (without blocking the runtime) until everything appended so far is committed.
    pub async fn flush(&self) {
        let Some(commits) = self.commits() else {
            return;
        };
        commits.committed_through(self.last_ticket()).await;
    }

    /// Stop taking records, commit what was taken and stop the committer.
    pub async fn close(&self) {
        self.journal.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_rules::input_log::Input;

    fn created(battle: &str) -> Record {
        Record::Created(Box::new(Created {
            battle: battle.into(),
            ruleset: "synergy".into(),
            version: 3,
            options: "{\"mode\":\"pvp\"}".into(),
            seed: u64::MAX - 5,
            bots: vec![1],
            pace_ms: 600,
            grace_ms: 60_000,
            private: true,
            seeded: false,
            timer: Some(battle_rules::TimerSpec::STANDARD),
            spectator_delay_ms: 1_500,
        }))
    }

    fn ended(battle: &str, private: bool) -> Ended {
        Ended {
            battle: battle.into(),
            ruleset: "synergy".into(),
            version: 3,
            options: "{\"mode\":\"pvp\"}".into(),
            seed: u64::MAX - 5,
            seats: 2,
            bots: vec![1],
            private,
            seeded: false,
            outcome: battle_protocol::OutcomeInfo {
                summary: "Player 1 wins".into(),
                winners: vec![0],
                reason: battle_protocol::OutcomeReason::Resignation,
            },
            ended_at: unix_now_ms(),
            inputs: vec![
                Input::setup(0, None),
                Input::setup(1, None),
                Input::act(0, &serde_json::json!({"kind": "end_turn"})),
                Input::Resign { seat: 1 },
            ],
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn what_is_committed_comes_back_in_order_and_removed_battles_do_not() {
        let dir = std::env::temp_dir().join(format!("battle-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (store, loaded) =
            Store::open(&dir, false, Retention::default()).expect("a fresh store");
        assert!(loaded.battles.is_empty());
        let battle = |b: &str| b.to_string();
        let first = store.append(created("a"));
        assert_eq!(first, 1, "tickets count from 1");
        store.append(Record::SeatTaken {
            battle: battle("a"),
            seat: 0,
            token_hash: "ab".repeat(32),
            setup: Some("{\"deck\":[]}".into()),
        });
        store.append(Record::SeatTaken {
            battle: battle("a"),
            seat: 2,
            token_hash: "cd".repeat(32),
            setup: None,
        });
        store.append(Record::SeatFreed {
            battle: battle("a"),
            seat: 2,
        });
        for (n, input) in [Input::setup(0, None), Input::Advance]
            .into_iter()
            .enumerate()
        {
            store.append(Record::Input {
                battle: battle("a"),
                n,
                input,
            });
        }
        store.append(created("gone"));
        store.append(Record::Removed {
            battle: battle("gone"),
        });
        let last = store.append(Record::Finished(Arc::new(ended("a", false))));
        store.append(Record::Finished(Arc::new(ended("hidden", true))));
        store.flush().await;
        assert!(store.commits().expect("durable").is_committed(last));
        store.close().await;
        assert_eq!(
            store.append(created("late")),
            0,
            "a closed store takes nothing"
        );

        let (again, loaded) = Store::open(&dir, true, Retention::default()).expect("reopened");
        let saved = loaded.battles;
        assert_eq!(saved.len(), 1, "the removed battle is gone: {saved:?}");
        let a = &saved[0];
        assert_eq!(a.created.battle, "a");
        assert_eq!(a.created.seed, u64::MAX - 5, "the whole 64-bit seed");
        assert_eq!((a.created.bots.clone(), a.created.pace_ms), (vec![1], 600));
        assert!(a.created.private);
        assert_eq!(a.created.spectator_delay_ms, 1_500);
        assert_eq!(a.seats.len(), 1, "the freed seat is gone");
        assert_eq!(a.seats[0].setup.as_deref(), Some("{\"deck\":[]}"));
        assert_eq!(a.inputs, vec![Input::setup(0, None), Input::Advance]);
        let kept = again.archive().get("a").expect("readable").expect("kept");
        assert_eq!(kept.inputs, ended("a", false).inputs);
        assert_eq!(
            (kept.seed, kept.seats, &kept.bots),
            (u64::MAX - 5, 2, &vec![1])
        );
        assert_eq!(kept.outcome.winners, vec![0]);
        assert!(again.archive().get("hidden").expect("readable").is_some());
        assert!(again.archive().get("nobody").expect("readable").is_none());
        let listed = again.archive().recent(10).expect("readable");
        assert_eq!(
            listed.len(),
            1,
            "a private battle is not listed: {listed:?}"
        );
        assert_eq!((listed[0].battle_id.as_str(), listed[0].steps), ("a", 2));
        again.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
