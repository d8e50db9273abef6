//! Battles a cluster set aside: a battle taken over whose replay failed is quarantined by
//! the node that claimed it (the committer's `Q` write: an entry in `bs:quarantine`, out of
//! the node's battles and of the lobby's list, its keys left as they were), and the other
//! battles go on. `battle-server quarantine ... --cluster-url` lists them, drops one for
//! good, or hands one back to failover to be replayed again ([`retry`]).

use redis::aio::ConnectionManager;
use redis::Script;

use super::{keys, log, ClusterError};
use crate::store::{Quarantined, SavedBattle};

/// Hand a set-aside battle back: `ARGV` = battle, a placeholder owner that no node is. The
/// battle becomes that (dead) owner's, so the live nodes claim it and replay it as after a
/// failover; it is listed again if it is public. Returns 0 when it was not set aside.
const RETRY: &str = r#"
local id = ARGV[1]
if redis.call('HDEL', 'bs:quarantine', id) == 0 then return 0 end
local b = 'bs:b:{' .. id .. '}'
redis.call('HSET', b, 'owner', ARGV[2])
redis.call('SADD', 'bs:owned:' .. ARGV[2], id)
redis.call('SADD', 'bs:instances', ARGV[2])
local v = redis.call('HMGET', b, 'public', 'seq')
if v[1] == '1' and v[2] then redis.call('ZADD', 'bs:lobby', v[2], id) end
return 1
"#;

/// Drop a set-aside battle for good: `ARGV` = battle. Returns 0 when it was not set aside.
const DROP: &str = r#"
local id = ARGV[1]
if redis.call('HDEL', 'bs:quarantine', id) == 0 then return 0 end
local b = 'bs:b:{' .. id .. '}'
redis.call('DEL', b, b .. ':log')
redis.call('HDEL', 'bs:summaries', id)
redis.call('ZREM', 'bs:lobby', id)
return 1
"#;

/// A connection to the cluster's Redis at `url`, for the operator's commands.
pub async fn connect(url: &str) -> Result<ConnectionManager, ClusterError> {
    let client = redis::Client::open(url)
        .map_err(|err| ClusterError::BadUrl(url.to_string(), err.to_string()))?;
    super::manager(&client, url).await
}

/// Every battle the cluster set aside, oldest first.
pub async fn list(conn: &mut ConnectionManager) -> redis::RedisResult<Vec<Quarantined>> {
    let entries: Vec<(String, String)> = redis::cmd("HGETALL")
        .arg(keys::QUARANTINE)
        .query_async(conn)
        .await?;
    let mut listed: Vec<Quarantined> = entries
        .into_iter()
        .map(|(battle, why)| {
            serde_json::from_str(&why).unwrap_or(Quarantined {
                battle,
                reason: why,
                since_ms: 0,
            })
        })
        .collect();
    listed.sort_by_key(|q| q.since_ms);
    Ok(listed)
}

/// The battle `id` as kept in Redis (its creation and log), or why it cannot be read.
pub async fn battle(conn: &mut ConnectionManager, id: &str) -> Result<SavedBattle, log::ReadError> {
    log::read_battle(conn, id).await.map(|(saved, _)| saved)
}

/// Hand the set-aside battle `id` back to failover. Whether it was set aside.
pub async fn retry(conn: &mut ConnectionManager, id: &str) -> redis::RedisResult<bool> {
    let owner = format!("quarantine/{}", crate::store::unix_now_ms());
    let done: i64 = Script::new(RETRY)
        .prepare_invoke()
        .arg(id)
        .arg(&owner)
        .invoke_async(conn)
        .await?;
    Ok(done == 1)
}

/// Drop the set-aside battle `id` for good. Whether it was set aside.
pub async fn drop_battle(conn: &mut ConnectionManager, id: &str) -> redis::RedisResult<bool> {
    let done: i64 = Script::new(DROP)
        .prepare_invoke()
        .arg(id)
        .invoke_async(conn)
        .await?;
    Ok(done == 1)
}
