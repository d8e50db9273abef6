//! Outboxes whose connection is on another node of a cluster.
//!
//! On the node that owns a battle, a connection of another node looks like any other
//! [`Outbox`] to the battle's actor, so that seats, audiences and every `offer` work
//! unchanged; what it is offered goes out through the cluster instead of a socket:
//!
//! - a **proxy** stands for one remote connection in one battle: its frames (answers,
//!   snapshots, errors) go to that connection's node as a note addressed to it;
//! - a **relay** stands for all the remote members of one audience: the audience offers it
//!   each change once, and it publishes the change once on the battle's channel, from which
//!   every node with members of that audience hands it to its own connections.
//!
//! Both hand their messages to a [`RemoteSink`] (the cluster's committer), which sends them
//! behind the battle's records and only while this node still owns the battle.

use std::sync::Arc;

use battle_rules::ruleset::Viewer;
use bytes::Bytes;

use super::frame::Frame;
use super::outbox::{Offer, Outbox};
use crate::cluster::keys;
use crate::cluster::wire::{self, Note};

/// Where remote outboxes send their messages.
pub trait RemoteSink: Send + Sync + std::fmt::Debug {
    /// Send `message` on `channel` for `battle`, behind everything the battle wrote so far,
    /// if this node still owns the battle.
    fn publish(&self, battle: &str, channel: String, message: Vec<u8>);
}

/// What a remote outbox stands for.
#[derive(Debug, Clone)]
pub enum RemoteKind {
    /// One connection of node `node` (its id there: `conn`) in `battle`.
    Proxy {
        node: String,
        conn: u64,
        battle: String,
    },
    /// Every remote member of `battle`'s audience of `viewer`.
    Relay { battle: String, viewer: Viewer },
}

/// A remote outbox's end: what it stands for and where its messages go.
#[derive(Debug, Clone)]
pub struct RemoteEnd {
    pub kind: RemoteKind,
    pub sink: Arc<dyn RemoteSink>,
}

impl RemoteEnd {
    /// Send `frames` (written one after the other, as the connection would get them).
    pub(super) fn send(&self, frames: &[&Frame]) -> Offer {
        match &self.kind {
            RemoteKind::Proxy { node, conn, battle } => {
                let mut bytes = Vec::with_capacity(frames.iter().map(|f| f.len()).sum());
                for frame in frames {
                    bytes.extend_from_slice(frame.bytes());
                }
                let note = Note::Frames {
                    conn: *conn,
                    battle: battle.clone(),
                    bytes: Bytes::from(bytes),
                };
                self.sink
                    .publish(battle, keys::to_node(node), note.encode());
            }
            RemoteKind::Relay { battle, viewer } => {
                for frame in frames {
                    let seq = wire::frame_seq(frame.bytes()).unwrap_or(0);
                    let message = wire::encode_change(*viewer, seq, frame.bytes());
                    self.sink
                        .publish(battle, keys::battle_channel(battle), message);
                }
            }
        }
        Offer::Queued
    }

    /// Send a note to a proxy's connection (nothing for a relay).
    fn note(&self, note: impl FnOnce(u64, String) -> Note) {
        if let RemoteKind::Proxy { node, conn, battle } = &self.kind {
            let message = note(*conn, battle.clone()).encode();
            self.sink.publish(battle, keys::to_node(node), message);
        }
    }

    /// Ask a proxy's node to close its connection.
    pub(super) fn close(&self, code: u16, reason: &str) {
        self.note(|conn, battle| Note::Close {
            conn,
            battle,
            code,
            reason: reason.to_string(),
        });
    }
}

impl Outbox {
    /// A proxy for connection `conn` of node `node` in `battle`.
    pub fn proxy(node: &str, conn: u64, battle: &str, sink: Arc<dyn RemoteSink>) -> Outbox {
        Outbox::remote(RemoteEnd {
            kind: RemoteKind::Proxy {
                node: node.to_string(),
                conn,
                battle: battle.to_string(),
            },
            sink,
        })
    }

    /// Whether this outbox stands for a connection of another node.
    pub fn is_proxy(&self) -> bool {
        matches!(
            self.remote_end(),
            Some(RemoteEnd {
                kind: RemoteKind::Proxy { .. },
                ..
            })
        )
    }

    /// For a proxy: the relay of its battle's audience of `viewer` (`None` for any other
    /// outbox).
    pub fn relay(&self, viewer: Viewer) -> Option<Outbox> {
        let end = self.remote_end()?;
        let RemoteKind::Proxy { battle, .. } = &end.kind else {
            return None;
        };
        Some(Outbox::remote(RemoteEnd {
            kind: RemoteKind::Relay {
                battle: battle.clone(),
                viewer,
            },
            sink: end.sink.clone(),
        }))
    }

    /// For a proxy: tell its node that the connection is now part of the battle as
    /// `viewer` (holding the seat whose token hashes to `token_hash`), at `seq`. Sent right
    /// after the snapshot that starts its view, before any change after it.
    pub fn note_admitted(&self, viewer: Viewer, seq: u64, token_hash: Option<&str>) {
        if let Some(end) = self.remote_end() {
            end.note(|conn, battle| Note::Admit {
                conn,
                battle,
                viewer,
                seq,
                token_hash: token_hash.map(str::to_string),
            });
        }
    }

    /// For a relay: tell the nodes with members in its audience that it is at `seq` (those
    /// that missed a change have their members resynced).
    pub fn beacon(&self, seq: u64) {
        if let Some(RemoteEnd {
            kind: RemoteKind::Relay { battle, viewer },
            sink,
        }) = self.remote_end()
        {
            sink.publish(
                battle,
                keys::battle_channel(battle),
                wire::encode_beacon(*viewer, seq),
            );
        }
    }

    /// For a proxy: tell its node that the connection is no longer part of the battle.
    pub fn note_dismissed(&self) {
        if let Some(end) = self.remote_end() {
            end.note(|conn, battle| Note::Dismiss { conn, battle });
        }
    }
}
