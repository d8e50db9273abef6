//! The names of everything the cluster keeps in Redis, in one place.
//!
//! Every key starts with `bs:`. A battle's keys hold its id between braces (`bs:b:{id}`, its
//! log `bs:b:{id}:log`): a Redis Cluster hash tag, so that one battle's keys always share a
//! slot (see `docs/scaling.md`).
//!
//! | key | type | what |
//! | --- | --- | --- |
//! | `bs:nodes` | set | every node id ever registered (live or not) |
//! | `bs:node:<id>` | hash, with the lease as its time to live | a live node: `instance`, `url`, `battles` (its load), `draining`, `since` |
//! | `bs:instances` | set | every node instance (`<id>/<instance>`) that may still own battles |
//! | `bs:owned:<id>/<instance>` | set | the battles one instance owns |
//! | `bs:drain:<id>` | string | present: the node is asked to drain |
//! | `bs:b:{<id>}` | hash | a battle: `owner` (`<node>/<instance>`), `epoch`, `created` (JSON), `seq` (creation number), `public` |
//! | `bs:b:{<id>}:log` | list | the battle's records after its creation, in order (JSON) |
//! | `bs:summaries` | hash | battle id → its `list` record (JSON) |
//! | `bs:lobby` | sorted set | the public live battles by creation number |
//! | `bs:lobby:seq` | string | the last creation number given |
//! | `bs:finished` | sorted set | finished public battles by when they ended (ms) |
//! | `bs:replay:{<id>}` | string, with the replay retention as its time to live | a finished battle as kept for its replay (JSON) |
//! | `bs:quarantine` | hash | battle id → why it was set aside (JSON: reason, since); its `bs:b:{<id>}` keys stay as they were |
//! | `bs:inbox:<id>` | stream | commands for a node's battles from other nodes |
//! | `bs:mm:<pool>` | list | players waiting in one matchmaking pool, oldest first (JSON entries; the pool named by its ruleset and canonical options, or their hash) |
//!
//! Channels: `bs:to:<id>` (frames and notes for one node's connections), `bs:bt:{<id>}`
//! (a battle's changes, one message per audience), `bs:cluster` (battles that moved).

/// Every node id ever registered.
pub const NODES: &str = "bs:nodes";
/// Every node instance that may still own battles.
pub const INSTANCES: &str = "bs:instances";
/// Battle id → its `list` record.
pub const SUMMARIES: &str = "bs:summaries";
/// The public live battles by creation number.
pub const LOBBY: &str = "bs:lobby";
/// The last creation number given.
pub const LOBBY_SEQ: &str = "bs:lobby:seq";
/// Finished public battles by when they ended.
pub const FINISHED: &str = "bs:finished";
/// Battles set aside (their replay failed): battle id → why, as JSON.
pub const QUARANTINE: &str = "bs:quarantine";
/// Battles that moved from one node to another.
pub const CLUSTER_CHANNEL: &str = "bs:cluster";

/// A live node's registration (its lease).
pub fn node(id: &str) -> String {
    format!("bs:node:{id}")
}

/// The flag asking a node to drain.
pub fn drain(id: &str) -> String {
    format!("bs:drain:{id}")
}

/// The battles one node instance (`<id>/<instance>`) owns.
pub fn owned(owner: &str) -> String {
    format!("bs:owned:{owner}")
}

/// A battle's hash.
pub fn battle(id: &str) -> String {
    format!("bs:b:{{{id}}}")
}

/// A battle's log.
pub fn log(id: &str) -> String {
    format!("bs:b:{{{id}}}:log")
}

/// A finished battle kept for its replay.
pub fn replay(id: &str) -> String {
    format!("bs:replay:{{{id}}}")
}

/// A node's inbox.
pub fn inbox(node: &str) -> String {
    format!("bs:inbox:{node}")
}

/// The channel of frames and notes for one node's connections.
pub fn to_node(node: &str) -> String {
    format!("bs:to:{node}")
}

/// The channel of one battle's changes.
pub fn battle_channel(id: &str) -> String {
    format!("bs:bt:{{{id}}}")
}

/// The battle id of a battle channel's name.
pub fn battle_of_channel(channel: &str) -> Option<&str> {
    channel.strip_prefix("bs:bt:{")?.strip_suffix('}')
}

/// One matchmaking pool.
pub fn pool(key: &str) -> String {
    format!("bs:mm:{key}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battle_keys_share_a_hash_tag() {
        assert_eq!(battle("abc"), "bs:b:{abc}");
        assert_eq!(log("abc"), "bs:b:{abc}:log");
        assert_eq!(battle_channel("abc"), "bs:bt:{abc}");
        assert_eq!(battle_of_channel("bs:bt:{abc}"), Some("abc"));
        assert_eq!(battle_of_channel("bs:to:n1"), None);
    }
}
