//! Finished battles kept for replays: how long and how many ([`Retention`]), and reading
//! them back ([`Archive`]).
//!
//! With a data directory, the committer writes each finished battle into the `replays`
//! table (one row with its whole input log) in the same commit that marks it finished, and
//! drops rows past the retention ([`prune`]); the archive reads them on a connection of its
//! own. Without one, the archive keeps the most recent battles in memory
//! ([`MEMORY_MOST`] at most). Reads block (SQLite): callers run them off the runtime's
//! threads.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use battle_protocol::{FinishedSummary, OutcomeInfo};
use battle_rules::input_log::Input;
use rusqlite::{params, Connection, OptionalExtension};

pub use crate::config::Retention;

use super::record::Ended;
use super::{schema, StoreError};
use crate::poison::Locked;

/// Most finished battles kept in memory without a data directory, whatever the retention.
pub const MEMORY_MOST: usize = 1_000;

/// Now, in Unix milliseconds.
pub fn unix_now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

enum Kept {
    /// Newest last.
    Memory(Mutex<VecDeque<Arc<Ended>>>),
    /// A read connection on the store's database.
    Database(Mutex<Connection>),
}

/// The finished battles kept for replays.
pub struct Archive {
    kept: Kept,
    retention: Retention,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("retention", &self.retention)
            .finish()
    }
}

impl Default for Archive {
    fn default() -> Self {
        Archive::memory(Retention::default())
    }
}

impl Archive {
    /// Battles kept in memory (at most [`MEMORY_MOST`]).
    pub fn memory(retention: Retention) -> Archive {
        let retention = Retention {
            most: retention.most.min(MEMORY_MOST),
            ..retention
        };
        Archive {
            kept: Kept::Memory(Mutex::new(VecDeque::new())),
            retention,
        }
    }

    /// Battles kept in the database in `dir` (opened and migrated already).
    pub fn database(dir: &Path, retention: Retention) -> Result<Archive, StoreError> {
        let conn = Connection::open(dir.join(schema::FILE))?;
        Ok(Archive {
            kept: Kept::Database(Mutex::new(conn)),
            retention,
        })
    }

    /// The retention this archive keeps to.
    pub fn retention(&self) -> Retention {
        self.retention
    }

    /// A battle ended. In memory it is kept now; in the database the committer writes it.
    pub fn keep(&self, ended: &Arc<Ended>) {
        let Kept::Memory(kept) = &self.kept else {
            return;
        };
        if !self.retention.keeps() {
            return;
        }
        let mut kept = kept.locked();
        kept.retain(|old| old.battle != ended.battle);
        kept.push_back(ended.clone());
        while kept.len() > self.retention.most {
            kept.pop_front();
        }
    }

    /// The battle `id`, if it ended and is still kept.
    pub fn get(&self, id: &str) -> Result<Option<Arc<Ended>>, StoreError> {
        let cutoff = self.retention.cutoff(unix_now_ms());
        match &self.kept {
            Kept::Memory(kept) => Ok(kept
                .locked()
                .iter()
                .rev()
                .find(|ended| ended.battle == id && ended.ended_at >= cutoff)
                .cloned()),
            Kept::Database(conn) => {
                let conn = conn.locked();
                let mut query = conn.prepare_cached(
                    "SELECT id, ruleset, version, options, seed, seats, bots, private, seeded,
                            outcome, ended_at, inputs
                     FROM replays WHERE id = ?1 AND ended_at >= ?2",
                )?;
                let row = query
                    .query_row(params![id, cutoff as i64], |row| {
                        Ok((
                            Ended {
                                battle: row.get(0)?,
                                ruleset: row.get(1)?,
                                version: row.get(2)?,
                                options: row.get(3)?,
                                seed: row.get::<_, i64>(4)? as u64,
                                seats: row.get::<_, i64>(5)? as usize,
                                bots: Vec::new(),
                                private: row.get(7)?,
                                seeded: row.get(8)?,
                                outcome: OutcomeInfo {
                                    summary: String::new(),
                                    winners: Vec::new(),
                                    reason: Default::default(),
                                },
                                ended_at: row.get::<_, i64>(10)? as u64,
                                inputs: Vec::new(),
                            },
                            row.get::<_, String>(6)?,
                            row.get::<_, String>(9)?,
                            row.get::<_, String>(11)?,
                        ))
                    })
                    .optional()?;
                let Some((mut ended, bots, outcome, inputs)) = row else {
                    return Ok(None);
                };
                ended.bots = json(&bots)?;
                ended.outcome = json(&outcome)?;
                ended.inputs = json::<Vec<Input>>(&inputs)?;
                Ok(Some(Arc::new(ended)))
            }
        }
    }

    /// The `most` most recently ended public battles still kept, newest first (a battle
    /// whose end its delayed spectators have not been shown yet is not listed).
    pub fn recent(&self, most: usize) -> Result<Vec<FinishedSummary>, StoreError> {
        let now = unix_now_ms();
        let cutoff = self.retention.cutoff(now);
        match &self.kept {
            Kept::Memory(kept) => Ok(kept
                .locked()
                .iter()
                .rev()
                .filter(|ended| !ended.private && (cutoff..=now).contains(&ended.ended_at))
                .take(most)
                .map(|ended| summary(ended))
                .collect()),
            Kept::Database(conn) => {
                let conn = conn.locked();
                let mut query = conn.prepare_cached(
                    "SELECT id, ruleset, seats, bots, outcome, ended_at, steps, seeded
                     FROM replays WHERE private = 0 AND ended_at BETWEEN ?1 AND ?2
                     ORDER BY ended_at DESC LIMIT ?3",
                )?;
                let mut rows = query.query(params![cutoff as i64, now as i64, most as i64])?;
                let mut listed = Vec::new();
                while let Some(row) = rows.next()? {
                    listed.push(FinishedSummary {
                        battle_id: row.get(0)?,
                        ruleset: row.get(1)?,
                        seats: row.get::<_, i64>(2)? as usize,
                        bots: json(&row.get::<_, String>(3)?)?,
                        outcome: json(&row.get::<_, String>(4)?)?,
                        ended_at: row.get::<_, i64>(5)? as u64,
                        steps: row.get::<_, i64>(6)? as usize,
                        seeded: row.get(7)?,
                    });
                }
                Ok(listed)
            }
        }
    }
}

/// What `list` shows of `ended`.
pub fn summary(ended: &Ended) -> FinishedSummary {
    FinishedSummary {
        battle_id: ended.battle.clone(),
        ruleset: ended.ruleset.clone(),
        seats: ended.seats,
        bots: ended.bots.clone(),
        outcome: ended.outcome.clone(),
        ended_at: ended.ended_at,
        steps: ended.steps(),
        seeded: ended.seeded,
    }
}

fn json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|err| StoreError::Corrupt(err.to_string()))
}

/// Drop the kept battles past `retention` (run by the committer now and then).
pub fn prune(conn: &Connection, retention: Retention) -> rusqlite::Result<usize> {
    let mut dropped = conn.execute(
        "DELETE FROM replays WHERE ended_at < ?1",
        params![retention.cutoff(unix_now_ms()) as i64],
    )?;
    let most = i64::try_from(retention.most).unwrap_or(i64::MAX);
    dropped += conn.execute(
        "DELETE FROM replays WHERE rowid IN
             (SELECT rowid FROM replays ORDER BY ended_at DESC LIMIT -1 OFFSET ?1)",
        params![most],
    )?;
    Ok(dropped)
}
