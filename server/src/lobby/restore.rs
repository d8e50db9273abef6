//! The lobby at start: every battle the store kept is replayed and started, and every one
//! that cannot be (its records unreadable, its ruleset or version not on offer here, its log
//! refused by the rules) is set aside, quarantined, with its reason: logged, counted in
//! `/health` and `/metrics`, kept in the store as it was, and never in the way of the
//! others. In a cluster a battle taken over whose replay fails is set aside the same way
//! (`crate::cluster::watch`).

use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard};
use std::time::Instant;

use std::collections::BTreeMap;

use super::Lobby;
use crate::battle;
use crate::poison::Locked;
use crate::store::{unix_now_ms, Loaded, Quarantined, Record};

impl Lobby {
    /// Bring back the battles the store kept, each replayed from its seed and input log,
    /// and start their actors; set aside those that cannot be. Returns how many came back.
    pub fn restore_all(self: &Arc<Self>, loaded: Loaded) -> usize {
        let Loaded {
            battles,
            set_aside,
            unreadable,
        } = loaded;
        if battles.is_empty() && set_aside.is_empty() && unreadable.is_empty() {
            return 0;
        }
        let started = Instant::now();
        for kept in set_aside {
            tracing::warn!(
                battle = %kept.battle,
                reason = %kept.reason,
                "battle still set aside (quarantined): not restored; see `battle-server \
                 quarantine`"
            );
            self.quarantine_set().insert(kept.battle.clone(), kept);
        }
        for found in unreadable {
            self.set_aside(found);
        }
        let found = battles.len();
        let mut restored = 0;
        for saved in battles {
            let id = saved.created.battle.clone();
            let private = saved.created.private;
            match battle::restore(saved, self.clone()) {
                Ok((actor, handle, summary)) => {
                    self.register(id, actor, handle, summary, private, 0);
                    restored += 1;
                }
                Err(why) => self.set_aside(Quarantined {
                    battle: id,
                    reason: format!("its log does not replay on this server: {why}"),
                    since_ms: unix_now_ms(),
                }),
            }
        }
        tracing::info!(
            restored,
            found,
            ms = started.elapsed().as_millis() as u64,
            quarantined = self.quarantined_count(),
            "battles restored from the store"
        );
        restored
    }

    /// Set a battle aside: kept in the store as it is, never restored until retried, and
    /// counted. Logged with its id and the reason.
    pub fn set_aside(&self, quarantined: Quarantined) {
        tracing::error!(
            battle = %quarantined.battle,
            reason = %quarantined.reason,
            "battle set aside (quarantined): it cannot be restored; every other battle goes \
             on (see `battle-server quarantine`)"
        );
        // In a cluster, through the committer like any write of the battle (fenced).
        self.store.append(Record::Quarantined(quarantined.clone()));
        self.quarantine_set()
            .insert(quarantined.battle.clone(), quarantined);
    }

    /// Whether the battle `id` is set aside (here).
    pub fn is_quarantined(&self, id: &str) -> bool {
        self.quarantine_set().contains_key(id)
    }

    /// How many battles are set aside: in this server's data directory, or in a cluster in
    /// the whole cluster (as last read).
    pub fn quarantined_count(&self) -> usize {
        let here = self.quarantine_set().len();
        if self.cluster.is_some() {
            here.max(self.quarantined_in_cluster.load(Ordering::Relaxed))
        } else {
            here
        }
    }

    /// In a cluster: how many battles the whole cluster has set aside, as just read.
    pub(crate) fn set_quarantined_in_cluster(&self, count: usize) {
        self.quarantined_in_cluster.store(count, Ordering::Relaxed);
    }

    fn quarantine_set(&self) -> MutexGuard<'_, BTreeMap<String, Quarantined>> {
        // Nothing panics under this lock; a poisoned map is still a map.
        self.quarantined.locked()
    }
}
