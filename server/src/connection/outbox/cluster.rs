//! The outbox's part in a cluster: outboxes that stand for another node's connection (their
//! frames go through the cluster, see `remote.rs`), frames dropped because their write was
//! refused (a battle another node took), and answers sent ahead of frames held for a commit
//! that cannot happen while the store is out of reach.

use std::sync::{Arc, Mutex};

use futures::task::AtomicWaker;
use metrics::Counter;

use super::super::frame::Frame;
use super::super::mailbox::Mailbox;
use super::super::remote::RemoteEnd;
use super::{ConnId, Flushed, Offer, Outbox, Queued, Shared, State};
use crate::store::Ticket;

impl Outbox {
    /// An outbox whose frames go to another node (see `remote.rs`).
    pub(in crate::connection) fn remote(end: RemoteEnd) -> Outbox {
        Outbox {
            shared: Arc::new(Shared {
                id: ConnId::next(),
                capacity: 1,
                max_bytes: usize::MAX,
                socket: None,
                state: Mutex::new(State::default()),
                writer: AtomicWaker::new(),
                gate: None,
                overflows: Counter::noop(),
                mailbox: Mailbox::default(),
                remote: Some(end),
                name: Mutex::new(None),
            }),
        }
    }

    /// Where a remote outbox's frames go (`None` for a connection of this node).
    pub(in crate::connection) fn remote_end(&self) -> Option<&RemoteEnd> {
        self.shared.remote.as_ref()
    }

    /// A remote outbox whose connection is gone (its node said so, or died): nothing is sent
    /// to it any more.
    pub fn end_remote(&self) {
        let mut state = self.state();
        state.ended = true;
        state.closing = true;
    }

    /// Whether a frame carrying `ticket` must be dropped: its write was refused (a battle
    /// another node of a cluster took).
    pub(super) fn poisoned(&self, ticket: Ticket) -> bool {
        ticket != 0
            && self
                .shared
                .gate
                .as_ref()
                .is_some_and(|g| g.is_poisoned(ticket))
    }

    /// Drop the queued frames whose ticket was poisoned (never one partly written).
    pub(super) fn drop_poisoned(&self, state: &mut State) {
        if !self.shared.gate.as_ref().is_some_and(|g| g.any_poisoned()) {
            return;
        }
        let started = state.offset > 0;
        let mut kept = std::collections::VecDeque::with_capacity(state.queue.len());
        let mut bytes = 0;
        for (index, queued) in std::mem::take(&mut state.queue).into_iter().enumerate() {
            let keep = (started && index == 0) || !self.poisoned(queued.ticket);
            if keep {
                bytes += queued.frame.len();
                kept.push_back(queued);
            }
        }
        state.queue = kept;
        state.queued_bytes = bytes;
    }

    /// Send `frame` (an answer that changes no view, such as a refusal) ahead of the frames
    /// held for a commit, behind those that may leave now: a store out of reach does not
    /// keep it from the client. (A held frame is never partly written, so the stream stays
    /// whole.)
    pub fn offer_ahead_of_held(&self, frame: Frame) -> Offer {
        let mut state = self.state();
        if state.ended || state.closing {
            return Offer::Closed;
        }
        if let Some(end) = &self.shared.remote {
            return end.send(&[&frame]);
        }
        let at = state
            .queue
            .iter()
            .position(|q| !self.committed(q.ticket))
            .unwrap_or(state.queue.len());
        if at == 0 && state.offset > 0 {
            // The head is partly written (so committed): behind it, then.
            state.push(Queued { frame, ticket: 0 });
        } else {
            state.queued_bytes += frame.len();
            state.queue.insert(at, Queued { frame, ticket: 0 });
        }
        match self.flush_locked(&mut state) {
            Ok(Flushed::Done | Flushed::Held) => Offer::Queued,
            Ok(Flushed::Blocked) => {
                drop(state);
                self.shared.writer.wake();
                Offer::Queued
            }
            Err(_) => Offer::Closed,
        }
    }
}
