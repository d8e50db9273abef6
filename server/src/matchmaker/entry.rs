//! A waiting player as a cluster keeps it: one element of its pool's list in Redis, and the
//! pure part of taking a battle's worth of them.
//!
//! A pool is one list per ruleset and options (`bs:mm:<pool name>`, see [`pool_name`]),
//! oldest first. Each element is an [`Entry`] as JSON text; the node that queued it keeps the
//! exact text, to remove it (`LREM`) when its player stops waiting.
//!
//! Players are taken `need` at a time, atomically; an entry whose node instance is no longer
//! live (or whose connection closed, for the taking node's own) is dropped then, never
//! matched ([`sort_taken`]). When that leaves fewer than `need`, the live ones go back at the
//! head of the list in their order, keeping their place.

use battle_protocol::{Req, Seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::pool::PoolKey;

/// Pool names longer than this are a hash of the name instead.
const LONGEST_NAME: usize = 100;

/// One waiting player (an element of its pool's list, as JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The node instance its connection is on (`<node id>/<instance>`).
    pub node: String,
    /// The connection's id on that node.
    pub conn: u64,
    /// That node's number for this wait: with `node`, it names the wait exactly (a
    /// connection that queues again waits under a new number).
    pub n: u64,
    /// What the player brings to its seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<Value>,
    /// The `queue`'s `req`, echoed on `matched`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub req: Option<Req>,
    /// When it queued, in Unix milliseconds.
    pub at: u64,
    /// The battle's seats for people, in order.
    pub people: Vec<Seat>,
}

impl Entry {
    /// The entry as its list holds it.
    pub fn text(&self) -> String {
        serde_json::to_string(self).expect("an entry (plain data and JSON values) serializes")
    }

    /// An entry read from its list; `None` for text that is not one.
    pub fn read(text: &str) -> Option<Entry> {
        serde_json::from_str(text).ok()
    }

    /// The id of the node its connection is on.
    pub fn node_id(&self) -> &str {
        self.node.split_once('/').map_or(&self.node, |(id, _)| id)
    }

    /// The instance of that node it was queued by.
    pub fn instance(&self) -> &str {
        self.node
            .split_once('/')
            .map_or("", |(_, instance)| instance)
    }
}

/// The name of `key`'s pool, after `bs:mm:`: the ruleset, `:` and the options as canonical
/// JSON (object members sorted by name, no spaces), so that equal options name one pool
/// whatever order their members came in; when that is long, the ruleset, `#` and the
/// SHA-256 of it in hex instead.
pub fn pool_name(key: &PoolKey) -> String {
    let mut name = format!("{}:", key.ruleset);
    canonical(&key.options, &mut name);
    if name.len() <= LONGEST_NAME {
        return name;
    }
    let digest = Sha256::digest(name.as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("{}#{hex}", key.ruleset)
}

/// Write `value` as JSON with every object's members sorted by name.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (name, member)) in members.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(name.clone()).to_string());
                out.push(':');
                canonical(member, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        leaf => out.push_str(&leaf.to_string()),
    }
}

/// What came of taking players from a pool.
#[derive(Debug, PartialEq)]
pub enum Took {
    /// Every player taken still waits: they meet, oldest first.
    Meet(Vec<Entry>),
    /// Some were dropped (`dropped`: their node instance is gone, their connection closed,
    /// or their text unreadable), leaving too few: `keep`, the others' texts oldest first,
    /// go back at the head of the pool.
    Short { keep: Vec<String>, dropped: usize },
}

/// Sort the `taken` texts (oldest first) of a pool whose battles need `need` players: those
/// `alive` refuses, and unreadable ones, are dropped.
pub fn sort_taken(taken: Vec<String>, need: usize, alive: impl Fn(&Entry) -> bool) -> Took {
    let mut meet = Vec::with_capacity(taken.len());
    let mut keep = Vec::with_capacity(taken.len());
    let mut dropped = 0;
    for text in taken {
        match Entry::read(&text) {
            Some(entry) if alive(&entry) => {
                meet.push(entry);
                keep.push(text);
            }
            _ => dropped += 1,
        }
    }
    if dropped == 0 && meet.len() >= need {
        Took::Meet(meet)
    } else {
        Took::Short { keep, dropped }
    }
}

/// The arguments of the `LPUSH` that puts `keep` (oldest first) back at the head of a list
/// in that order: `LPUSH` puts each of its values at the head in turn, so the oldest last.
pub fn head_first(mut keep: Vec<String>) -> Vec<String> {
    keep.reverse();
    keep
}

#[cfg(test)]
mod tests;
