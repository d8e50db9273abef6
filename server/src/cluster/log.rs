//! A battle's log in Redis: what each record becomes, and reading a battle back.
//!
//! A battle's hash keeps its creation ([`Created`], JSON) and its log list keeps every
//! record after it, one JSON [`Entry`] each: a seat taken (its token's hash and setup), a
//! seat given back, an input. Reading the hash and the list back gives a [`SavedBattle`],
//! which the node that takes the battle over replays exactly as a restarted single server
//! replays its SQLite file.

use battle_protocol::Seat;
use battle_rules::input_log::Input;
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};

use super::keys;
use crate::store::{Created, Record, SavedBattle, SavedSeat};

/// One entry of a battle's log list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Entry {
    /// A person took `seat` before the start.
    Seat {
        seat: Seat,
        /// The token's hash, never the token.
        hash: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<String>,
    },
    /// The seat was given back before the start.
    Free { seat: Seat },
    /// The battle's `n`-th input.
    Input { n: usize, input: Input },
}

impl Entry {
    /// The entry a record appends to its battle's log, if it appends one.
    pub fn of(record: &Record) -> Option<Entry> {
        Some(match record {
            Record::SeatTaken {
                seat,
                token_hash,
                setup,
                ..
            } => Entry::Seat {
                seat: *seat,
                hash: token_hash.clone(),
                setup: setup.clone(),
            },
            Record::SeatFreed { seat, .. } => Entry::Free { seat: *seat },
            Record::Input { n, input, .. } => Entry::Input {
                n: *n,
                input: input.clone(),
            },
            _ => return None,
        })
    }

    /// As it is kept.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an entry is plain data and serializes")
    }
}

/// Why a battle could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("the cluster store cannot be reached: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("no battle {0:?} is kept")]
    Missing(String),
    #[error("battle {0:?} holds a record this server cannot read: {1}")]
    Corrupt(String, String),
}

/// A battle's creation and log as kept, rebuilt into what a restore replays; with its log's
/// length (where the next entry goes).
pub async fn read_battle(
    conn: &mut ConnectionManager,
    battle: &str,
) -> Result<(SavedBattle, u64), ReadError> {
    let (created, entries): (Option<String>, Vec<String>) = redis::pipe()
        .hget(keys::battle(battle), "created")
        .lrange(keys::log(battle), 0, -1)
        .query_async(conn)
        .await?;
    let created = created.ok_or_else(|| ReadError::Missing(battle.to_string()))?;
    let created: Created = serde_json::from_str(&created)
        .map_err(|e| ReadError::Corrupt(battle.to_string(), e.to_string()))?;
    let length = entries.len() as u64;
    let mut seats: Vec<SavedSeat> = Vec::new();
    let mut inputs = Vec::new();
    for text in entries {
        let entry: Entry = serde_json::from_str(&text)
            .map_err(|e| ReadError::Corrupt(battle.to_string(), e.to_string()))?;
        match entry {
            Entry::Seat { seat, hash, setup } => {
                seats.retain(|held| held.seat != seat);
                seats.push(SavedSeat {
                    seat,
                    token_hash: hash,
                    setup,
                });
            }
            Entry::Free { seat } => seats.retain(|held| held.seat != seat),
            Entry::Input { n, input } => {
                if n != inputs.len() {
                    return Err(ReadError::Corrupt(
                        battle.to_string(),
                        format!("input {n} where input {} was due", inputs.len()),
                    ));
                }
                inputs.push(input);
            }
        }
    }
    seats.sort_by_key(|held| held.seat);
    Ok((
        SavedBattle {
            created,
            seats,
            inputs,
        },
        length,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_read_back_as_written() {
        for entry in [
            Entry::Seat {
                seat: 1,
                hash: "abc".into(),
                setup: Some("{\"deck\":[\"C001\"]}".into()),
            },
            Entry::Free { seat: 0 },
            Entry::Input {
                n: 3,
                input: Input::act(0, &json!({"kind": "end_turn"})),
            },
        ] {
            let back: Entry = serde_json::from_str(&entry.to_json()).expect("reads back");
            assert_eq!(back, entry);
        }
    }
}
