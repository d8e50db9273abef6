//! The matchmaker: players who `queue` for the same ruleset with the same options meet in a
//! battle the matchmaker creates for them.
//!
//! One task ([`task`]) owns the pools ([`pool`]: the pure logic of who meets whom) and is
//! reached only through a [`MatchmakerHandle`] (a bounded queue, never awaited). A `queue`
//! is checked on the asking connection's reader ([`QueueRequest::check`]) and answered with
//! its refusal at once; a good one goes to the task, which answers `queued`. When a pool
//! holds a battle's worth of people, or a player's `bot_after_ms` has passed, the task
//! creates the battle in the lobby, posts it to each player's mailbox (so that their readers
//! route to it) and sends each player in with a `Command::Join` answered by `matched`.
//!
//! In a cluster the pools are lists in Redis that every node shares, and players meet
//! whichever node they are connected to: see [`clustered`]. The reader's side is the same.
//!
//! The matchmaker's battles count against no connection's open-battle quota: see
//! `crate::quota`.

mod clustered;
mod command;
mod entry;
mod handle;
mod pool;
mod request;
mod seating;
mod task;

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use tokio::sync::mpsc;

pub use handle::MatchmakerHandle;
pub use pool::PoolKey;
pub use request::{Checked, QueueRequest};

use crate::lobby::Lobby;

/// Requests the matchmaker's queue holds before `queue` and `unqueue` are refused with
/// `server_busy`.
const QUEUE: usize = 4096;

/// The matchmaker's handle, and what starts its task once the lobby it creates battles in
/// exists (the lobby holds the handle).
pub fn channel() -> (MatchmakerHandle, Starter) {
    let (tx, rx) = mpsc::channel(QUEUE);
    let waiting = Arc::new(AtomicUsize::new(0));
    (
        MatchmakerHandle::new(tx, waiting.clone()),
        Starter { rx, waiting },
    )
}

/// The matchmaker's task, not started yet.
#[derive(Debug)]
pub struct Starter {
    rx: mpsc::Receiver<command::Command>,
    /// How many players wait, as the task last counted them.
    waiting: Arc<AtomicUsize>,
}

impl Starter {
    /// Start the matchmaker's task, creating battles in `lobby` (in a cluster, for players
    /// on every node); it ends when the lobby has gone.
    pub fn start(self, lobby: &Arc<Lobby>) {
        let creator = lobby.quotas().matchmaker();
        let weak = Arc::downgrade(lobby);
        match lobby.cluster() {
            Some(cluster) => {
                let matchmaker = clustered::ClusterMatchmaker::new(
                    self.rx,
                    weak,
                    cluster.clone(),
                    creator,
                    self.waiting,
                );
                lobby.spawn_background(matchmaker.run());
            }
            None => {
                let matchmaker = task::Matchmaker::new(self.rx, weak, creator, self.waiting);
                lobby.spawn_background(matchmaker.run());
            }
        }
    }
}
