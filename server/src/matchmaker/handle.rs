//! The cloneable way into the matchmaker: the reader checks a `queue` on its own task, then
//! hands it over without waiting.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use battle_protocol::{ErrorCode, Req};
use tokio::sync::mpsc;

use super::command::Command;
use super::request::QueueRequest;
use crate::cluster::wire::InboxEntry;
use crate::config::Config;
use crate::connection::outbox::Outbox;
use crate::ids::ConnId;
use crate::refusal::Refusal;

/// Sends requests to the matchmaker's task. Cheap to clone.
#[derive(Debug, Clone)]
pub struct MatchmakerHandle {
    tx: mpsc::Sender<Command>,
    /// How many players wait, as the task last counted them.
    waiting: Arc<AtomicUsize>,
}

impl MatchmakerHandle {
    pub(super) fn new(tx: mpsc::Sender<Command>, waiting: Arc<AtomicUsize>) -> MatchmakerHandle {
        MatchmakerHandle { tx, waiting }
    }

    /// How many players wait in the queue (as of the matchmaker's last change).
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// `queue` from `from`: checked here against the rulesets `config` offers (refusals come
    /// back at once), then queued for the matchmaker, which answers `queued` (or
    /// `already_queued`) itself. `server_busy` when the matchmaker's queue is full.
    pub fn queue(
        &self,
        config: &Config,
        request: QueueRequest,
        from: Outbox,
        req: Option<Req>,
    ) -> Result<(), Refusal> {
        let checked = request.check(config)?;
        self.offer(Command::Queue { from, checked, req })
    }

    /// `unqueue` from `from`; the matchmaker answers `unqueued` (or `not_queued`).
    /// `server_busy` when the matchmaker's queue is full.
    pub fn unqueue(&self, from: Outbox, req: Option<Req>) -> Result<(), Refusal> {
        self.offer(Command::Unqueue { from, req })
    }

    /// The connection `conn` closed while it waited. Without room in the matchmaker's queue
    /// this is dropped: the matchmaker never matches a closed connection anyway, and sweeps
    /// them out of its pools.
    pub fn gone(&self, conn: ConnId) {
        let _ = self.tx.try_send(Command::Gone { conn });
    }

    /// In a cluster: what another node's matchmaker says about one of this node's waiting
    /// connections (a seat in the battle it made, or no battle). Never dropped: without
    /// room now, it waits for room on a task of its own.
    pub(crate) fn told_by_node(&self, entry: InboxEntry) {
        if let Err(mpsc::error::TrySendError::Full(command)) =
            self.tx.try_send(Command::FromNode(entry))
        {
            let tx = self.tx.clone();
            tokio::spawn(async move {
                let _ = tx.send(command).await;
            });
        }
    }

    fn offer(&self, command: Command) -> Result<(), Refusal> {
        self.tx.try_send(command).map_err(|err| match err {
            mpsc::error::TrySendError::Full(_) => Refusal::new(
                ErrorCode::ServerBusy,
                "the matchmaker has too many requests waiting; retry in a moment".to_string(),
            ),
            mpsc::error::TrySendError::Closed(_) => Refusal::new(
                ErrorCode::ServerBusy,
                "matchmaking has stopped: the server is shutting down".to_string(),
            ),
        })
    }
}
