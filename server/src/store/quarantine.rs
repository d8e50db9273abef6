//! Battles set aside: a battle whose records cannot be read, or whose log does not replay
//! on this server (a ruleset version it does not know, an input the rules refuse), is never
//! restored half-way and never stops the others. It is *quarantined*: a row in the
//! `quarantine` table names it with the reason, its own rows stay exactly as they were (the
//! server deletes nothing of it), and every later start leaves it aside until the operator
//! retries it ([`release`], then the next start tries it again) or drops it ([`drop_battle`]).
//! `battle-server quarantine list|retry|drop` does both on a directory no server holds.

use rusqlite::{params, Connection, OptionalExtension};

use super::StoreError;

/// A battle set aside: its id, why, and since when.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Quarantined {
    /// The battle's id.
    pub battle: String,
    /// Why it was set aside, in one sentence.
    pub reason: String,
    /// When, in Unix milliseconds.
    pub since_ms: u64,
}

/// Set `battle` aside for `reason` (again, if it was: the newest reason is kept).
pub fn set_aside(conn: &Connection, quarantined: &Quarantined) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT OR REPLACE INTO quarantine (battle, reason, since) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![
        quarantined.battle,
        quarantined.reason,
        quarantined.since_ms as i64
    ])?;
    Ok(())
}

/// Every battle set aside, oldest first.
pub fn list(conn: &Connection) -> Result<Vec<Quarantined>, StoreError> {
    let mut query = conn.prepare("SELECT battle, reason, since FROM quarantine ORDER BY since")?;
    let rows = query.query_map([], |row| {
        Ok(Quarantined {
            battle: row.get(0)?,
            reason: row.get(1)?,
            since_ms: row.get::<_, i64>(2)? as u64,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The battle `id` as set aside, if it is.
pub fn get(conn: &Connection, id: &str) -> Result<Option<Quarantined>, StoreError> {
    Ok(conn
        .query_row(
            "SELECT battle, reason, since FROM quarantine WHERE battle = ?1",
            params![id],
            |row| {
                Ok(Quarantined {
                    battle: row.get(0)?,
                    reason: row.get(1)?,
                    since_ms: row.get::<_, i64>(2)? as u64,
                })
            },
        )
        .optional()?)
}

/// Take `id` out of quarantine: the next start tries to restore it again. Whether it was
/// set aside.
pub fn release(conn: &Connection, id: &str) -> Result<bool, StoreError> {
    Ok(conn.execute("DELETE FROM quarantine WHERE battle = ?1", params![id])? > 0)
}

/// Drop the battle `id` for good, with every row it has (it must be set aside: a battle
/// that is not is never dropped this way). Whether it was set aside.
pub fn drop_battle(conn: &mut Connection, id: &str) -> Result<bool, StoreError> {
    let tx = conn.transaction()?;
    if tx.execute("DELETE FROM quarantine WHERE battle = ?1", params![id])? == 0 {
        return Ok(false);
    }
    for sql in [
        "DELETE FROM inputs WHERE battle = ?1",
        "DELETE FROM seats WHERE battle = ?1",
        "DELETE FROM battles WHERE id = ?1",
    ] {
        tx.execute(sql, params![id])?;
    }
    tx.commit()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battle_set_aside_is_listed_released_or_dropped_with_its_rows() {
        let dir = std::env::temp_dir().join(format!("battle-quarantine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut conn = super::super::schema::open(&dir, false).expect("a fresh database");
        conn.execute_batch(
            "INSERT INTO battles (id, ruleset, version, options, seed, bots, pace_ms, private)
             VALUES ('bad', 'synergy', 1, 'null', 7, '[]', 0, 0),
                    ('good', 'synergy', 1, 'null', 8, '[]', 0, 0);
             INSERT INTO inputs (battle, n, input) VALUES ('bad', 0, '{}'), ('good', 0, '{}');",
        )
        .expect("rows");
        let aside = |battle: &str, reason: &str| Quarantined {
            battle: battle.into(),
            reason: reason.into(),
            since_ms: 1,
        };
        set_aside(&conn, &aside("bad", "input 0 cannot be read")).expect("set aside");
        set_aside(&conn, &aside("bad", "again")).expect("set aside twice");
        assert_eq!(list(&conn).expect("listed"), vec![aside("bad", "again")]);
        assert!(get(&conn, "good").expect("read").is_none());
        assert!(!drop_battle(&mut conn, "good").expect("a battle not set aside"));
        assert!(release(&conn, "bad").expect("released"));
        assert!(list(&conn).expect("listed").is_empty());
        set_aside(&conn, &aside("bad", "still")).expect("set aside");
        assert!(drop_battle(&mut conn, "bad").expect("dropped"));
        let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).expect("count") };
        assert_eq!(
            count("SELECT COUNT(*) FROM battles"),
            1,
            "only the good one"
        );
        assert_eq!(count("SELECT COUNT(*) FROM inputs"), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
