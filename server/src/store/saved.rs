//! Reading back what the store kept: every battle, with its seats and its input log, for
//! the server to restore at start (a finished one too: its players may not have seen the
//! end yet, and it stays for the finished-battle time as it would have).

use std::collections::HashMap;

use battle_protocol::Seat;
use battle_rules::input_log::Input;
use rusqlite::Connection;

use super::record::Created;
use super::StoreError;

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

/// Every battle kept, oldest first.
pub fn load(conn: &Connection) -> Result<Vec<SavedBattle>, StoreError> {
    let mut battles = Vec::new();
    let mut index = HashMap::new();
    let mut query = conn.prepare(
        "SELECT id, ruleset, version, options, seed, bots, pace_ms, private, grace_ms, seeded,
                timer, spectator_delay_ms
         FROM battles ORDER BY rowid",
    )?;
    let mut rows = query.query([])?;
    while let Some(row) = rows.next()? {
        let bots: String = row.get(5)?;
        let created = Created {
            battle: row.get(0)?,
            ruleset: row.get(1)?,
            version: row.get(2)?,
            options: row.get(3)?,
            seed: row.get::<_, i64>(4)? as u64,
            bots: serde_json::from_str(&bots).map_err(|e| StoreError::Corrupt(e.to_string()))?,
            pace_ms: row.get::<_, i64>(6)? as u64,
            private: row.get(7)?,
            // Kept before battles had their own grace: the default.
            grace_ms: row
                .get::<_, Option<i64>>(8)?
                .map_or(DEFAULT_GRACE_MS, |ms| ms as u64),
            seeded: row.get(9)?,
            timer: match row.get::<_, Option<String>>(10)? {
                Some(text) => Some(
                    serde_json::from_str(&text).map_err(|e| StoreError::Corrupt(e.to_string()))?,
                ),
                None => None,
            },
            spectator_delay_ms: row.get::<_, i64>(11)? as u64,
        };
        index.insert(created.battle.clone(), battles.len());
        battles.push(SavedBattle {
            created,
            seats: Vec::new(),
            inputs: Vec::new(),
        });
    }
    let mut query = conn.prepare("SELECT battle, seat, token_hash, setup FROM seats")?;
    let mut rows = query.query([])?;
    while let Some(row) = rows.next()? {
        let battle: String = row.get(0)?;
        if let Some(&i) = index.get(&battle) {
            battles[i].seats.push(SavedSeat {
                seat: row.get::<_, i64>(1)? as Seat,
                token_hash: row.get(2)?,
                setup: row.get(3)?,
            });
        }
    }
    let mut query = conn.prepare("SELECT battle, n, input FROM inputs ORDER BY seq")?;
    let mut rows = query.query([])?;
    while let Some(row) = rows.next()? {
        let battle: String = row.get(0)?;
        let Some(&i) = index.get(&battle) else {
            continue;
        };
        let n = row.get::<_, i64>(1)? as usize;
        let text: String = row.get(2)?;
        let input: Input =
            serde_json::from_str(&text).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let inputs = &mut battles[i].inputs;
        if n != inputs.len() {
            return Err(StoreError::Corrupt(format!(
                "battle {battle}: input {n} follows input {}",
                inputs.len().wrapping_sub(1)
            )));
        }
        inputs.push(input);
    }
    Ok(battles)
}
