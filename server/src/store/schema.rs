//! The database: opening it (WAL mode, the chosen durability) and its schema, created on
//! the first run and migrated by later versions (`PRAGMA user_version` holds the schema's
//! version).

use std::path::Path;

use rusqlite::Connection;

use super::StoreError;

/// The database file inside the data directory.
pub const FILE: &str = "battles.sqlite3";

/// Each step brings the schema from the previous version to the next; `user_version` counts
/// the steps applied.
const MIGRATIONS: &[&str] = &[
    // 1: battles, their seats before the start, and their input logs. The inputs of every
    // battle share one append-only table in commit order, without a secondary index: each
    // commit then writes a page or two at its end, not one page per battle it touches.
    "CREATE TABLE battles (
        id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        version INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        bots TEXT NOT NULL,
        pace_ms INTEGER NOT NULL,
        private INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        battle TEXT NOT NULL,
        seat INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        setup TEXT,
        PRIMARY KEY (battle, seat)
    ) WITHOUT ROWID;
    CREATE TABLE inputs (
        seq INTEGER PRIMARY KEY,
        battle TEXT NOT NULL,
        n INTEGER NOT NULL,
        input TEXT NOT NULL
    );",
    // 2: each battle's disconnect grace (battles kept before it get the server's default).
    "ALTER TABLE battles ADD COLUMN grace_ms INTEGER;",
    // 3: whether the creator chose the seed.
    "ALTER TABLE battles ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;",
    // 4: each battle's turn timer, as JSON (NULL: untimed).
    "ALTER TABLE battles ADD COLUMN timer TEXT;",
    // 5: finished battles kept for replays, each with its whole input log (a JSON array),
    // so that it outlives the battle's rows and is read back in one row.
    "CREATE TABLE replays (
        id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        version INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        seats INTEGER NOT NULL,
        bots TEXT NOT NULL,
        private INTEGER NOT NULL,
        seeded INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        ended_at INTEGER NOT NULL,
        steps INTEGER NOT NULL,
        inputs TEXT NOT NULL
    );
    CREATE INDEX replays_by_end ON replays (ended_at);",
    // 6: how long after the players each battle's spectators see a change.
    "ALTER TABLE battles ADD COLUMN spectator_delay_ms INTEGER NOT NULL DEFAULT 0;",
    // 7: battles set aside because they could not be read or replayed: their rows stay as
    // they are, and they are not restored until the operator retries (or drops) them.
    "CREATE TABLE quarantine (
        battle TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        since INTEGER NOT NULL
    );",
];

/// Open (or create) the database in `dir` and bring its schema up to date. `fsync`: commits
/// wait for the disk (`synchronous = FULL`), surviving power loss; otherwise they survive a
/// killed process, not a lost machine (`NORMAL`, the WAL default).
pub fn open(dir: &Path, fsync: bool) -> Result<Connection, StoreError> {
    std::fs::create_dir_all(dir).map_err(|err| StoreError::Dir(dir.display().to_string(), err))?;
    let conn = Connection::open(dir.join(FILE))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", if fsync { "FULL" } else { "NORMAL" })?;
    // Checkpoints (which wait for the disk) run on a connection of their own
    // ([`checkpoints`]), never in the middle of a commit.
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    migrate(&conn)?;
    Ok(conn)
}

/// How often the WAL is copied back into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Copy the WAL back into the database every [`CHECKPOINT_EVERY`] on a thread and
/// connection of their own (a passive checkpoint: it never holds up the committer), until
/// `stop` is set (and the thread unparked).
pub fn checkpoints(
    dir: &Path,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<std::thread::JoinHandle<()>, StoreError> {
    let conn = Connection::open(dir.join(FILE))?;
    std::thread::Builder::new()
        .name("store-checkpoint".into())
        .spawn(move || {
            let mut failing = false;
            loop {
                std::thread::park_timeout(CHECKPOINT_EVERY);
                if stop.load(std::sync::atomic::Ordering::Acquire) {
                    return;
                }
                match conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                    // One line per episode (a full disk fails every one).
                    Err(err) if !failing => {
                        failing = true;
                        tracing::warn!(%err, "WAL checkpoint failed (one line until one works)");
                    }
                    Err(_) => {}
                    Ok(()) if failing => {
                        failing = false;
                        tracing::info!("WAL checkpoints work again");
                    }
                    Ok(()) => {}
                }
            }
        })
        .map_err(StoreError::Thread)
}

/// Apply the migrations this database has not had yet.
fn migrate(conn: &Connection) -> Result<(), StoreError> {
    let applied: usize = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if applied > MIGRATIONS.len() {
        return Err(StoreError::Newer(applied, MIGRATIONS.len()));
    }
    for (step, sql) in MIGRATIONS.iter().enumerate().skip(applied) {
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", step + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_is_created_once_and_a_newer_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("battle-schema-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let conn = open(&dir, false).expect("created");
        let version: usize = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .expect("readable");
        assert_eq!(version, MIGRATIONS.len());
        drop(conn);
        open(&dir, true).expect("opened again without migrating twice");
        let conn = Connection::open(dir.join(FILE)).expect("opens");
        conn.pragma_update(None, "user_version", 99).expect("set");
        drop(conn);
        assert!(matches!(open(&dir, false), Err(StoreError::Newer(99, _))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
