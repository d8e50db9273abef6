//! The periodic look at the lists this node's players wait in.
//!
//! - A waiter whose connection closed without its goodbye reaching the matchmaker (its
//!   queue was full) is taken out.
//! - A waiter whose entry is missing from its list at two looks in a row, with no seat come
//!   meanwhile, was lost: dropped as dead by a node that took it while this node's lease had
//!   lapsed, or taken by a node that stopped before it sent the seat. Its entry goes back at
//!   the end of the list (it loses its place, not its wait); one whose wait for people is
//!   over gets its battle against the server's bots instead.
//! - A list holding a battle's worth (someone put back, or a take cut short) is taken from.

use std::collections::{HashMap, HashSet};

use tokio::time::Instant;

use super::{ClusterMatchmaker, SWEEP_EVERY};
use crate::ids::ConnId;

impl ClusterMatchmaker {
    pub(super) async fn sweep(&mut self) {
        let closed: Vec<ConnId> = self
            .waiters
            .iter()
            .filter(|(_, w)| w.from.is_closed())
            .map(|(&conn, _)| conn)
            .collect();
        for conn in closed {
            if let Some(waiter) = self.forget(conn) {
                let _ = self.remove(&waiter).await;
            }
        }
        if self.waiters.is_empty() {
            return;
        }
        let mut lists: Vec<String> = self.waiters.values().map(|w| w.list.clone()).collect();
        lists.sort_unstable();
        lists.dedup();
        let mut pipe = redis::pipe();
        for list in &lists {
            pipe.lrange(list, 0, -1);
        }
        let read: redis::RedisResult<Vec<Vec<String>>> = pipe.query_async(&mut self.conn).await;
        let contents = match read {
            Ok(contents) => contents,
            Err(err) => {
                tracing::warn!(%err, "cannot read the pools this node's players wait in");
                return;
            }
        };
        let now = Instant::now();
        let lengths: HashMap<&str, usize> = lists
            .iter()
            .zip(&contents)
            .map(|(list, texts)| (list.as_str(), texts.len()))
            .collect();
        let present: HashSet<&str> = contents.iter().flatten().map(String::as_str).collect();
        let mut again = Vec::new();
        let mut bots = Vec::new();
        for (&conn, waiter) in &mut self.waiters {
            if present.contains(waiter.text.as_str()) {
                waiter.missing_since = None;
                continue;
            }
            let since = *waiter.missing_since.get_or_insert(now);
            if now.duration_since(since) < SWEEP_EVERY {
                continue;
            }
            waiter.missing_since = None;
            if waiter.until.is_some_and(|until| until <= now) {
                bots.push(conn);
            } else {
                waiter.pushed_again = true;
                again.push((waiter.list.clone(), waiter.text.clone()));
            }
        }
        let mut pushed: HashMap<String, usize> = HashMap::new();
        if !again.is_empty() {
            tracing::warn!(
                players = again.len(),
                "players lost from their pools put back"
            );
            let mut pipe = redis::pipe();
            for (list, text) in &again {
                pipe.rpush(list, text).ignore();
                *pushed.entry(list.clone()).or_default() += 1;
            }
            if let Err(err) = pipe.query_async::<()>(&mut self.conn).await {
                tracing::warn!(%err, "cannot put lost players back");
            }
        }
        for conn in bots {
            let Some(waiter) = self.waiters.get(&conn) else {
                continue;
            };
            let (key, entry) = (waiter.key.clone(), waiter.entry.clone());
            self.start(&key, vec![entry]).await;
        }
        // Every list with a battle's worth in it is taken from.
        let mut full = Vec::new();
        for list in &lists {
            let Some(waiter) = self.waiters.values().find(|w| &w.list == list) else {
                continue;
            };
            let need = waiter.entry.people.len().max(1);
            let held = lengths.get(list.as_str()).copied().unwrap_or(0)
                + pushed.get(list).copied().unwrap_or(0);
            if held >= need {
                full.push((list.clone(), waiter.key.clone(), need));
            }
        }
        for (list, key, need) in full {
            self.take(&list, &key, need).await;
        }
    }
}
