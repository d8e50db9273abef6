//! The messages the matchmaker's task accepts.

use battle_protocol::Req;

use super::request::Checked;
use crate::cluster::wire::InboxEntry;
use crate::connection::outbox::Outbox;
use crate::ids::ConnId;

/// One request to the matchmaker. Each carries what the matchmaker answers through (it never
/// awaits a client).
#[derive(Debug)]
pub(super) enum Command {
    /// Wait in the pool of `checked`'s battle; answered by `queued` (or `already_queued`).
    Queue {
        from: Outbox,
        checked: Checked,
        req: Option<Req>,
    },
    /// Stop waiting; answered by `unqueued` (or `not_queued`).
    Unqueue { from: Outbox, req: Option<Req> },
    /// The connection closed: forget it, without an answer.
    Gone { conn: ConnId },
    /// In a cluster: another node's matchmaker met one of this node's connections with
    /// others (`seat`), or met it and could make no battle (`unmatched`).
    FromNode(InboxEntry),
}
