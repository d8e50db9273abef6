//! Reading back what the store kept: every battle, with its seats and its input log, for
//! the server to restore at start (a finished one too: its players may not have seen the
//! end yet, and it stays for the finished-battle time as it would have).

use std::collections::{HashMap, HashSet};

use battle_protocol::Seat;
use battle_rules::input_log::Input;
use rusqlite::{params, Connection};

use super::quarantine::{self, Quarantined};
use super::record::Created;
use super::{unix_now_ms, StoreError};

/// The grace of a battle kept before battles had their own: the server's default.
const DEFAULT_GRACE_MS: u64 = 60_000;

/// A held seat as saved: its token's hash and the setup brought with `join`.
#[derive(Debug, Clone)]
pub struct SavedSeat {
    pub seat: Seat,
    pub token_hash: String,
    pub setup: Option<String>,
}

/// One battle as the store kept it.
#[derive(Debug, Clone)]
pub struct SavedBattle {
    pub created: Created,
    pub seats: Vec<SavedSeat>,
    pub inputs: Vec<Input>,
}

/// What the store kept, read back at start.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The battles to restore, oldest first.
    pub battles: Vec<SavedBattle>,
    /// Battles an earlier start set aside, still set aside (not read further).
    pub set_aside: Vec<Quarantined>,
    /// Battles whose records cannot be read now: to be set aside, with the reason.
    pub unreadable: Vec<Quarantined>,
}

/// Every battle kept (a battle whose records cannot be read is set aside in
/// [`Loaded::unreadable`], never failing the others), and the battles set aside already.
pub fn load(conn: &Connection) -> Result<Loaded, StoreError> {
    let set_aside = quarantine::list(conn)?;
    let aside: HashSet<&str> = set_aside.iter().map(|q| q.battle.as_str()).collect();
    let read = read(conn, None, &aside)?;
    let mut loaded = Loaded {
        set_aside: set_aside.clone(),
        ..Loaded::default()
    };
    let since = unix_now_ms();
    for (battle, saved) in read {
        match saved {
            Ok(saved) => loaded.battles.push(saved),
            Err(reason) => loaded.unreadable.push(Quarantined {
                battle,
                reason,
                since_ms: since,
            }),
        }
    }
    Ok(loaded)
}

/// The battle `id` as kept (set aside or not), or why its records cannot be read; `None`
/// when no battle `id` is kept.
pub fn load_one(
    conn: &Connection,
    id: &str,
) -> Result<Option<Result<SavedBattle, String>>, StoreError> {
    Ok(read(conn, Some(id), &HashSet::new())?
        .into_iter()
        .next()
        .map(|(_, saved)| saved))
}

/// A battle's id, and the battle as kept or why its records cannot be read.
type Read = (String, Result<SavedBattle, String>);

/// The battles kept (only `only`, if given; none of `skip`), oldest first, each with its
/// seats and inputs or why they cannot be read.
fn read(
    conn: &Connection,
    only: Option<&str>,
    skip: &HashSet<&str>,
) -> Result<Vec<Read>, StoreError> {
    let mut battles: Vec<Read> = Vec::new();
    let mut index = HashMap::new();
    let mut query = conn.prepare(
        "SELECT id, ruleset, version, options, seed, bots, pace_ms, private, grace_ms, seeded,
                timer, spectator_delay_ms
         FROM battles WHERE ?1 IS NULL OR id = ?1 ORDER BY rowid",
    )?;
    let mut rows = query.query(params![only])?;
    while let Some(row) = rows.next()? {
        let id: String = row.get(0)?;
        if skip.contains(id.as_str()) {
            continue;
        }
        let saved = created(row)
            .map(|created| SavedBattle {
                created,
                seats: Vec::new(),
                inputs: Vec::new(),
            })
            .map_err(|why| format!("its creation cannot be read: {why}"));
        index.insert(id.clone(), battles.len());
        battles.push((id, saved));
    }
    let mut query = conn.prepare(
        "SELECT battle, seat, token_hash, setup FROM seats WHERE ?1 IS NULL OR battle = ?1",
    )?;
    let mut rows = query.query(params![only])?;
    while let Some(row) = rows.next()? {
        let battle: String = row.get(0)?;
        if let Some((_, Ok(saved))) = index.get(&battle).map(|&i| &mut battles[i]) {
            saved.seats.push(SavedSeat {
                seat: row.get::<_, i64>(1)? as Seat,
                token_hash: row.get(2)?,
                setup: row.get(3)?,
            });
        }
    }
    let mut query = conn.prepare(
        "SELECT battle, n, input FROM inputs WHERE ?1 IS NULL OR battle = ?1 ORDER BY seq",
    )?;
    let mut rows = query.query(params![only])?;
    while let Some(row) = rows.next()? {
        let battle: String = row.get(0)?;
        let Some((_, slot)) = index.get(&battle).map(|&i| &mut battles[i]) else {
            continue;
        };
        let Ok(saved) = slot else {
            continue;
        };
        let n = row.get::<_, i64>(1)?;
        let text: String = row.get(2)?;
        if let Err(why) = next_input(&mut saved.inputs, n, &text) {
            *slot = Err(why);
        }
    }
    Ok(battles)
}

/// A battle's creation, as its row in `battles` keeps it.
fn created(row: &rusqlite::Row<'_>) -> Result<Created, String> {
    let sql = |err: rusqlite::Error| err.to_string();
    let bots: String = row.get(5).map_err(sql)?;
    Ok(Created {
        battle: row.get(0).map_err(sql)?,
        ruleset: row.get(1).map_err(sql)?,
        version: row.get(2).map_err(sql)?,
        options: row.get(3).map_err(sql)?,
        seed: row.get::<_, i64>(4).map_err(sql)? as u64,
        bots: serde_json::from_str(&bots).map_err(|e| format!("bots: {e}"))?,
        pace_ms: row.get::<_, i64>(6).map_err(sql)? as u64,
        private: row.get(7).map_err(sql)?,
        // Kept before battles had their own grace: the default.
        grace_ms: row
            .get::<_, Option<i64>>(8)
            .map_err(sql)?
            .map_or(DEFAULT_GRACE_MS, |ms| ms as u64),
        seeded: row.get(9).map_err(sql)?,
        timer: match row.get::<_, Option<String>>(10).map_err(sql)? {
            Some(text) => Some(serde_json::from_str(&text).map_err(|e| format!("timer: {e}"))?),
            None => None,
        },
        spectator_delay_ms: row.get::<_, i64>(11).map_err(sql)? as u64,
    })
}

/// Add input `n` (its JSON `text`) to `inputs`, which holds the inputs before it; or why
/// the log cannot be read: the input is unreadable, written twice, or follows a gap.
fn next_input(inputs: &mut Vec<Input>, n: i64, text: &str) -> Result<(), String> {
    let due = inputs.len() as i64;
    if n < due {
        return Err(format!(
            "input {n} is written twice (two servers wrote this battle's log at once?)"
        ));
    }
    if n > due {
        return Err(format!(
            "input {n} follows input {}: the inputs between are missing",
            due - 1
        ));
    }
    let input: Input =
        serde_json::from_str(text).map_err(|e| format!("input {n} cannot be read: {e}"))?;
    inputs.push(input);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_is_read_in_order_and_a_duplicate_or_a_gap_is_named() {
        let act = r#"{"input":"advance"}"#;
        let mut inputs = Vec::new();
        next_input(&mut inputs, 0, act).expect("the first");
        next_input(&mut inputs, 1, act).expect("the second");
        let twice = next_input(&mut inputs, 1, act).expect_err("written twice");
        assert!(twice.contains("input 1 is written twice"), "{twice}");
        let gap = next_input(&mut inputs, 5, act).expect_err("a gap");
        assert!(gap.contains("input 5 follows input 1"), "{gap}");
        let bad = next_input(&mut inputs, 2, "{").expect_err("unreadable");
        assert!(bad.starts_with("input 2 cannot be read"), "{bad}");
        assert_eq!(inputs.len(), 2, "nothing refused was kept");
    }
}
