//! The matchmaker's pools, as pure logic: who waits for which battle, in arrival order, who
//! meets whom, and whose wait for opponents is over.
//!
//! Waiters meet when they ask for the same ruleset with the same options (a [`PoolKey`]:
//! options compared as JSON values). A pool is matched as soon as it holds as many waiters as
//! the battle has seats for people: the oldest ones, in arrival order, which is also the
//! order their seats are given in. Waiters the caller reports as gone (their connection
//! closed) are dropped before anyone is counted or matched, so they never meet anyone. A
//! waiter may also wait for opponents only until a deadline, after which it is handed back
//! (to play the server's bots).
//!
//! Costs: a connection is found by id in a set; a pool by a walk over the pools in use (one
//! per ruleset and option set people wait for, few); deadlines in an ordered set. An empty
//! pool is dropped.

use std::collections::{BTreeSet, HashSet, VecDeque};

use serde_json::Value;
use tokio::time::Instant;

use crate::ids::ConnId;

/// Which waiters may meet: those asking for the same ruleset with the same options.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolKey {
    /// The ruleset's id.
    pub ruleset: String,
    /// The battle's options (`null` when none were given; a sample stands for its options).
    pub options: Value,
}

/// The connection already waits in a pool: nothing changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlreadyQueued;

/// What queueing one waiter did.
#[derive(Debug)]
pub struct Queued<T> {
    /// How many wait in its pool, this one included (those just matched counted).
    pub waiting: usize,
    /// The waiters who meet now, oldest first (this one among them), if the pool is full.
    pub matched: Option<Vec<T>>,
}

/// One waiter in a pool.
#[derive(Debug)]
struct Waiting<T> {
    conn: ConnId,
    /// Arrival number: orders the deadlines of waiters due at the same instant.
    arrival: u64,
    /// When it stops waiting for people.
    until: Option<Instant>,
    item: T,
}

#[derive(Debug)]
struct Pool<T> {
    key: PoolKey,
    /// Seats for people in the battle this pool fills: how many meet at once.
    size: usize,
    waiting: VecDeque<Waiting<T>>,
}

/// Every pool, and every waiter's deadline.
#[derive(Debug)]
pub struct Pools<T> {
    pools: Vec<Pool<T>>,
    /// The connections waiting in some pool.
    members: HashSet<ConnId>,
    /// Waiters' deadlines, earliest first.
    deadlines: BTreeSet<(Instant, u64, ConnId)>,
    arrivals: u64,
}

impl<T> Default for Pools<T> {
    fn default() -> Self {
        Pools {
            pools: Vec::new(),
            members: HashSet::new(),
            deadlines: BTreeSet::new(),
            arrivals: 0,
        }
    }
}

impl<T> Pools<T> {
    /// How many connections wait in all.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether nobody waits.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether `conn` waits in a pool.
    #[cfg(test)]
    pub fn contains(&self, conn: ConnId) -> bool {
        self.members.contains(&conn)
    }

    /// Put `item` (for connection `conn`) last in the pool of `key`, whose battles have `size`
    /// seats for people, waiting for people until `until` (if given). Waiters `alive` refuses
    /// are dropped from that pool first. When the pool then holds `size` waiters, they are
    /// taken out and returned, oldest first.
    pub fn queue(
        &mut self,
        conn: ConnId,
        key: PoolKey,
        size: usize,
        until: Option<Instant>,
        item: T,
        alive: impl Fn(&T) -> bool,
    ) -> Result<Queued<T>, AlreadyQueued> {
        if !self.members.insert(conn) {
            return Err(AlreadyQueued);
        }
        let arrival = self.arrivals;
        self.arrivals += 1;
        if let Some(at) = until {
            self.deadlines.insert((at, arrival, conn));
        }
        let index = match self.pools.iter().position(|pool| pool.key == key) {
            Some(index) => index,
            None => {
                self.pools.push(Pool {
                    key,
                    size: size.max(1),
                    waiting: VecDeque::new(),
                });
                self.pools.len() - 1
            }
        };
        let pool = &mut self.pools[index];
        let mut gone = Vec::new();
        pool.waiting.retain(|waiting| {
            let keep = alive(&waiting.item);
            if !keep {
                gone.push((waiting.conn, waiting.until, waiting.arrival));
            }
            keep
        });
        pool.waiting.push_back(Waiting {
            conn,
            arrival,
            until,
            item,
        });
        let waiting = pool.waiting.len();
        let matched = (waiting >= pool.size).then(|| {
            let size = pool.size;
            pool.waiting.drain(..size).collect::<Vec<_>>()
        });
        for (conn, until, arrival) in gone {
            self.forget(conn, until, arrival);
        }
        let matched = matched.map(|group| {
            group
                .into_iter()
                .map(|waiting| {
                    self.forget(waiting.conn, waiting.until, waiting.arrival);
                    waiting.item
                })
                .collect()
        });
        self.drop_empty();
        Ok(Queued { waiting, matched })
    }

    /// Take `conn` out of its pool; its item, or `None` when it waited nowhere.
    pub fn remove(&mut self, conn: ConnId) -> Option<T> {
        if !self.members.contains(&conn) {
            return None;
        }
        let (index, at) = self.pools.iter().enumerate().find_map(|(index, pool)| {
            let at = pool.waiting.iter().position(|w| w.conn == conn)?;
            Some((index, at))
        })?;
        let waiting = self.pools[index].waiting.remove(at)?;
        self.forget(waiting.conn, waiting.until, waiting.arrival);
        self.drop_empty();
        Some(waiting.item)
    }

    /// The earliest deadline of any waiter.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.deadlines.first().map(|(at, ..)| *at)
    }

    /// Take out every waiter whose deadline is `now` or earlier, earliest first, with its
    /// pool's key.
    pub fn due(&mut self, now: Instant) -> Vec<(PoolKey, T)> {
        let mut due = Vec::new();
        while let Some(&(at, _, conn)) = self.deadlines.first() {
            if at > now {
                break;
            }
            let key = self
                .pools
                .iter()
                .find(|pool| pool.waiting.iter().any(|w| w.conn == conn))
                .map(|pool| pool.key.clone());
            match (key, self.remove(conn)) {
                (Some(key), Some(item)) => due.push((key, item)),
                // Not in a pool: a stale deadline, dropped.
                _ => {
                    self.deadlines.pop_first();
                }
            }
        }
        due
    }

    /// Drop every waiter `alive` refuses; how many went.
    pub fn sweep(&mut self, alive: impl Fn(&T) -> bool) -> usize {
        let mut gone = Vec::new();
        for pool in &mut self.pools {
            pool.waiting.retain(|waiting| {
                let keep = alive(&waiting.item);
                if !keep {
                    gone.push((waiting.conn, waiting.until, waiting.arrival));
                }
                keep
            });
        }
        let count = gone.len();
        for (conn, until, arrival) in gone {
            self.forget(conn, until, arrival);
        }
        self.drop_empty();
        count
    }

    /// `conn` no longer waits: forget it and its deadline.
    fn forget(&mut self, conn: ConnId, until: Option<Instant>, arrival: u64) {
        self.members.remove(&conn);
        if let Some(at) = until {
            self.deadlines.remove(&(at, arrival, conn));
        }
    }

    fn drop_empty(&mut self) {
        self.pools.retain(|pool| !pool.waiting.is_empty());
    }
}

#[cfg(test)]
mod tests;
