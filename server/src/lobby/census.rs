//! What `/metrics` reads off the lobby: the battles counted by ruleset and status, the
//! players and spectators in them, the connections, the queue and the store, at one moment.

use crate::metrics::{Census, Reading};

use super::Lobby;

impl Lobby {
    /// Count the battles listed now.
    pub fn census(&self) -> Census {
        let mut census = Census::default();
        self.for_each_summary(|summary| {
            *census
                .battles
                .entry((summary.ruleset.clone(), summary.status))
                .or_default() += 1;
            census.players += summary
                .seats
                .iter()
                .filter(|seat| seat.connected && !seat.bot)
                .count() as u64;
            census.spectators += summary.spectators as u64;
        });
        census
    }

    /// Everything `/metrics` shows of the lobby now.
    pub fn reading(&self) -> Reading {
        Reading {
            census: self.census(),
            connections: self.connection_count() as u64,
            queued: self.queued_players() as u64,
            owned: if self.cluster().is_some() {
                self.len() as u64
            } else {
                0
            },
            sent: self.sent_by_open_connections(),
            quarantined: self.quarantined_count() as u64,
            store_available: self.store().is_available(),
            commit_failures: self.store().commit_failures(),
        }
    }
}
