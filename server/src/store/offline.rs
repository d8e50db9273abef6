//! A data directory's store with no server running on it: what `battle-server quarantine`
//! reads and changes. Opened to change it, it holds the directory's lock
//! ([`crate::dir_lock`]), so it is refused while a server runs there; opened to read, it
//! reads beside a running server (SQLite readers never hold up its writer).

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::quarantine::{self, Quarantined};
use super::{saved, schema, SavedBattle, StoreError};
use crate::dir_lock::{DirLock, LockError};

/// Why a data directory's store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum OfflineError {
    /// A server holds the directory.
    #[error(
        "a battle-server{} holds the data directory {dir}: battles set aside are changed only \
         while no server runs there, so stop it first",
        pid.map(|pid| format!(" (pid {pid})")).unwrap_or_default()
    )]
    InUse {
        /// The directory.
        dir: String,
        /// The holder's pid, when known.
        pid: Option<u32>,
    },
    /// The directory cannot be locked.
    #[error(transparent)]
    Lock(LockError),
    /// No database in the directory.
    #[error("no battles are kept in {0} (there is no database there)")]
    Missing(String),
    /// The database refused.
    #[error("cannot read the battles kept in {dir}: {source}")]
    Store {
        /// The data directory.
        dir: String,
        /// What the database said.
        source: StoreError,
    },
}

/// The store of a data directory, opened without a server.
pub struct Offline {
    conn: Connection,
    dir: String,
    /// Held while open to change it.
    _lock: Option<DirLock>,
}

impl Offline {
    /// Open `dir`'s store to change it: its lock is taken first (refused while a server
    /// holds it), and its schema brought up to date.
    pub fn open(dir: &Path) -> Result<Offline, OfflineError> {
        if !dir.join(schema::FILE).exists() {
            return Err(OfflineError::Missing(dir.display().to_string()));
        }
        let lock = DirLock::acquire(dir).map_err(|err| match err {
            LockError::Held { dir, pid } => OfflineError::InUse { dir, pid },
            other => OfflineError::Lock(other),
        })?;
        let conn = schema::open(dir, true).map_err(|source| OfflineError::Store {
            dir: dir.display().to_string(),
            source,
        })?;
        Ok(Offline {
            conn,
            dir: dir.display().to_string(),
            _lock: Some(lock),
        })
    }

    /// Open `dir`'s store to read it, whether a server runs on it or not.
    pub fn read_only(dir: &Path) -> Result<Offline, OfflineError> {
        let file = dir.join(schema::FILE);
        if !file.exists() {
            return Err(OfflineError::Missing(dir.display().to_string()));
        }
        let conn = Connection::open_with_flags(&file, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(
            |err| OfflineError::Store {
                dir: dir.display().to_string(),
                source: err.into(),
            },
        )?;
        Ok(Offline {
            conn,
            dir: dir.display().to_string(),
            _lock: None,
        })
    }

    fn store_error(&self, source: StoreError) -> OfflineError {
        OfflineError::Store {
            dir: self.dir.clone(),
            source,
        }
    }

    /// Every battle set aside, oldest first (none in a database older than quarantine).
    pub fn quarantined(&self) -> Result<Vec<Quarantined>, OfflineError> {
        if !self.has_quarantine().map_err(|e| self.store_error(e))? {
            return Ok(Vec::new());
        }
        quarantine::list(&self.conn).map_err(|e| self.store_error(e))
    }

    /// The battle `id` as set aside, if it is.
    pub fn get(&self, id: &str) -> Result<Option<Quarantined>, OfflineError> {
        if !self.has_quarantine().map_err(|e| self.store_error(e))? {
            return Ok(None);
        }
        quarantine::get(&self.conn, id).map_err(|e| self.store_error(e))
    }

    /// The battle `id` as kept, or why its records cannot be read; `None` if none is kept.
    pub fn battle(&self, id: &str) -> Result<Option<Result<SavedBattle, String>>, OfflineError> {
        saved::load_one(&self.conn, id).map_err(|e| self.store_error(e))
    }

    /// Take `id` out of quarantine (the next start restores it). Whether it was set aside.
    pub fn release(&self, id: &str) -> Result<bool, OfflineError> {
        quarantine::release(&self.conn, id).map_err(|e| self.store_error(e))
    }

    /// Set `id` aside again, with a new reason.
    pub fn set_aside(&self, quarantined: &Quarantined) -> Result<(), OfflineError> {
        quarantine::set_aside(&self.conn, quarantined).map_err(|e| self.store_error(e.into()))
    }

    /// Drop the battle `id` (set aside) for good. Whether it was set aside.
    pub fn drop_battle(&mut self, id: &str) -> Result<bool, OfflineError> {
        let dropped = quarantine::drop_battle(&mut self.conn, id);
        dropped.map_err(|e| self.store_error(e))
    }

    /// Whether the database has the quarantine table (a read-only open does not migrate).
    fn has_quarantine(&self) -> Result<bool, StoreError> {
        let found: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'quarantine'",
            [],
            |row| row.get(0),
        )?;
        Ok(found > 0)
    }
}
