//! The Lua scripts that change ownership and write battles: each runs in Redis as one atomic
//! step, so a check and the write it guards can never be split by another node's write.
//!
//! A battle's *owner* is `<node id>/<instance>` (the instance is new at every start of a
//! process) and its *epoch* grows by one at every change of owner: together they are the
//! fencing token every write of the owner carries ([`BATCH`]). Ownership changes only
//! through [`CLAIM`] (a dead owner's battle) and [`HANDOFF`] (a draining owner's battle),
//! each one compare-and-set that raises the epoch.

use redis::Script;

/// Register a node at start: `ARGV` = id, instance, public url, lease ms, since (ms).
/// Returns 1, or 0 when another live instance holds the id.
const REGISTER: &str = r#"
local key = 'bs:node:' .. ARGV[1]
local held = redis.call('HGET', key, 'instance')
if held and held ~= ARGV[2] then return 0 end
redis.call('HSET', key, 'instance', ARGV[2], 'url', ARGV[3], 'battles', 0, 'draining', 0,
  'since', ARGV[5])
redis.call('PEXPIRE', key, ARGV[4])
redis.call('SADD', 'bs:nodes', ARGV[1])
redis.call('SADD', 'bs:instances', ARGV[1] .. '/' .. ARGV[2])
return 1
"#;

/// Renew a node's lease: `ARGV` = id, instance, lease ms, battles (its load), draining
/// (0/1), public url, now (ms). Returns 1 (renewed), 2 (the lease had lapsed and is taken
/// again: battles may have been claimed meanwhile) or 0 (another instance holds the id).
const RENEW: &str = r#"
local key = 'bs:node:' .. ARGV[1]
local held = redis.call('HGET', key, 'instance')
if held and held ~= ARGV[2] then return 0 end
local result = 1
if not held then
  result = 2
  redis.call('HSET', key, 'since', ARGV[7])
end
redis.call('HSET', key, 'instance', ARGV[2], 'url', ARGV[6], 'battles', ARGV[4],
  'draining', ARGV[5])
redis.call('PEXPIRE', key, ARGV[3])
redis.call('SADD', 'bs:nodes', ARGV[1])
redis.call('SADD', 'bs:instances', ARGV[1] .. '/' .. ARGV[2])
return result
"#;

/// Leave the cluster (a drained node): `ARGV` = id, instance. Its registration goes if it
/// is still this instance's.
const DEREGISTER: &str = r#"
local key = 'bs:node:' .. ARGV[1]
if redis.call('HGET', key, 'instance') == ARGV[2] then redis.call('DEL', key) end
return 1
"#;

/// Claim a battle of a dead owner: `ARGV` = battle, dead owner, new owner. Returns the new
/// epoch, or false when the battle is not the dead owner's any more, or its owner lives.
const CLAIM: &str = r#"
local b = 'bs:b:{' .. ARGV[1] .. '}'
local owner = redis.call('HGET', b, 'owner')
if owner ~= ARGV[2] then
  if not owner then redis.call('SREM', 'bs:owned:' .. ARGV[2], ARGV[1]) end
  return false
end
local slash = string.find(ARGV[2], '/', 1, true)
local id = string.sub(ARGV[2], 1, slash - 1)
local instance = string.sub(ARGV[2], slash + 1)
if redis.call('HGET', 'bs:node:' .. id, 'instance') == instance then return false end
local epoch = redis.call('HINCRBY', b, 'epoch', 1)
redis.call('HSET', b, 'owner', ARGV[3])
redis.call('SMOVE', 'bs:owned:' .. ARGV[2], 'bs:owned:' .. ARGV[3], ARGV[1])
return epoch
"#;

/// Hand a battle to another node: `ARGV` = battle, owner, epoch, new owner. Returns the new
/// epoch, or false when the battle is not (or no more) the owner's at that epoch.
const HANDOFF: &str = r#"
local b = 'bs:b:{' .. ARGV[1] .. '}'
local v = redis.call('HMGET', b, 'owner', 'epoch')
if v[1] ~= ARGV[2] or v[2] ~= ARGV[3] then return false end
local epoch = redis.call('HINCRBY', b, 'epoch', 1)
redis.call('HSET', b, 'owner', ARGV[4])
redis.call('SMOVE', 'bs:owned:' .. ARGV[2], 'bs:owned:' .. ARGV[4], ARGV[1])
return epoch
"#;

/// The committer's batch: every write of this node's battles since the last batch, each
/// fenced by its battle's owner and epoch in the same atomic step. `ARGV` is a flat list of
/// operations, each `kind, battle, owner, epoch` and then the kind's own arguments:
///
/// - `C` create: created JSON, public (`1`/`0`), summary JSON
/// - `A` append a log entry: index, entry (written only at that index, so a batch sent twice
///   after a lost answer writes each entry once)
/// - `P` publish: channel, message
/// - `S` summary: its JSON
/// - `F` fence: nothing (only the check: what follows may be sent)
/// - `E` ended: ended JSON, ended at (ms), public, replay retention (ms; 0 keeps none)
/// - `R` removed
/// - `Q` set aside (quarantined): why, as JSON; its keys stay, it leaves this node's battles
///   and the lobby's list
///
/// Returns the battles whose check failed: none of their operations was done.
const BATCH: &str = r#"
local out = {}
local checked = {}
local i = 1
local n = #ARGV
while i <= n do
  local kind, id, owner, epoch = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  i = i + 4
  local b = 'bs:b:{' .. id .. '}'
  local ok = checked[id]
  if ok == nil then
    if kind == 'C' then
      local held = redis.call('HGET', b, 'owner')
      ok = (not held) or held == owner
    else
      local v = redis.call('HMGET', b, 'owner', 'epoch')
      ok = v[1] == owner and v[2] == epoch
    end
    checked[id] = ok
    if not ok then table.insert(out, id) end
  end
  if kind == 'A' then
    if ok and redis.call('LLEN', b .. ':log') == tonumber(ARGV[i]) then
      redis.call('RPUSH', b .. ':log', ARGV[i + 1])
    end
    i = i + 2
  elseif kind == 'P' then
    if ok then redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end
    i = i + 2
  elseif kind == 'S' then
    if ok then redis.call('HSET', 'bs:summaries', id, ARGV[i]) end
    i = i + 1
  elseif kind == 'C' then
    if ok and redis.call('EXISTS', b) == 0 then
      redis.call('HSET', b, 'owner', owner, 'epoch', epoch, 'created', ARGV[i],
        'public', ARGV[i + 1])
      redis.call('SADD', 'bs:owned:' .. owner, id)
      redis.call('HSET', 'bs:summaries', id, ARGV[i + 2])
      local seq = redis.call('INCR', 'bs:lobby:seq')
      redis.call('HSET', b, 'seq', seq)
      if ARGV[i + 1] == '1' then redis.call('ZADD', 'bs:lobby', seq, id) end
    end
    i = i + 3
  elseif kind == 'E' then
    if ok then
      redis.call('HSET', b, 'finished', 1)
      if tonumber(ARGV[i + 3]) > 0 then
        redis.call('SET', 'bs:replay:{' .. id .. '}', ARGV[i], 'PX', ARGV[i + 3])
        if ARGV[i + 2] == '1' then redis.call('ZADD', 'bs:finished', ARGV[i + 1], id) end
      end
    end
    i = i + 4
  elseif kind == 'R' then
    if ok then
      redis.call('DEL', b, b .. ':log')
      redis.call('ZREM', 'bs:lobby', id)
      redis.call('HDEL', 'bs:summaries', id)
      redis.call('SREM', 'bs:owned:' .. owner, id)
    end
  elseif kind == 'Q' then
    if ok then
      redis.call('HSET', 'bs:quarantine', id, ARGV[i])
      redis.call('ZREM', 'bs:lobby', id)
      redis.call('SREM', 'bs:owned:' .. owner, id)
    end
    i = i + 1
  end
end
return out
"#;

/// Take players from a matchmaking pool once it holds enough: `KEYS[1]` the pool,
/// `ARGV[1]` how many meet. Returns them (oldest first), or nothing while fewer wait.
const POOL_TAKE: &str = r#"
local need = tonumber(ARGV[1])
if redis.call('LLEN', KEYS[1]) < need then return {} end
return redis.call('LPOP', KEYS[1], need)
"#;

/// The scripts, loaded once.
pub struct Scripts {
    pub register: Script,
    pub renew: Script,
    pub deregister: Script,
    pub claim: Script,
    pub handoff: Script,
    pub batch: Script,
    pub pool_take: Script,
}

impl Scripts {
    /// Every script (each is sent by its SHA-1, and loaded on the first miss).
    pub fn new() -> Scripts {
        Scripts {
            register: Script::new(REGISTER),
            renew: Script::new(RENEW),
            deregister: Script::new(DEREGISTER),
            claim: Script::new(CLAIM),
            handoff: Script::new(HANDOFF),
            batch: Script::new(BATCH),
            pool_take: Script::new(POOL_TAKE),
        }
    }
}

impl Default for Scripts {
    fn default() -> Self {
        Scripts::new()
    }
}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scripts").finish_non_exhaustive()
    }
}
