//! An audience: everyone who sees the battle the same way (one seat, or all spectators).
//!
//! Per change, the actor diffs the battle's view once for every audience
//! ([`Changes`]); an audience copies the operations its viewer may receive into one patch
//! message and hands the same bytes to every member. Each member's
//! outbox only ever gets `try_send`; a member that cannot keep up is dropped and closed.
//!
//! The ruleset's battle log ([`Ruleset::log`](battle_rules::ruleset::Ruleset::log)) is not part of
//! the stored view: it only grows, so the audience remembers how many lines it has sent,
//! writes the new ones as `add` operations at `/game/log/N`, and splices the whole log into
//! `/game/log` when it serializes a snapshot. Clients see one view either way.

use std::io::Write as _;

use battle_protocol::Req;

use crate::connection::frame::{Frame, FrameBuf};
use crate::connection::outbox::{Offer, Outbox};
use crate::ids::ConnId;
use crate::store::Ticket;
use battle_rules::ruleset::Viewer;
use battle_rules::view::value::{write_str, ViewValue};
use battle_rules::view::Changes;

/// One audience of one battle.
#[derive(Debug)]
pub struct Audience {
    viewer: Viewer,
    /// Number of the last view sent (patch or snapshot).
    seq: u64,
    /// How many log lines the view at `seq` holds.
    log_len: usize,
    /// The battle changed while nobody was watching: the next member starts a new `seq`.
    stale: bool,
    /// About how long a snapshot would be now, to notice patches larger than the view: the
    /// length of the last serialized snapshot plus the log lines sent since (a snapshot
    /// carries the whole log). Only a patch longer than that is compared with a real one.
    snapshot_len: usize,
    /// This node's connections.
    members: Vec<Outbox>,
    /// In a cluster: connections of other nodes (their proxies), which get each change
    /// through the one `relay`.
    remote: Vec<Outbox>,
    /// Publishes each change once for every remote member, while there is one.
    relay: Option<Outbox>,
}

/// Append the envelope `view` as `viewer` sees it (see [`ViewValue::write_json_as`]) as
/// JSON, with `log` placed at `/game/log`, where a sorted map would keep it (wire-identical
/// to the view with its log in place).
fn write_with_log(view: &ViewValue, viewer: Viewer, log: &[String], out: &mut Vec<u8>) {
    let ViewValue::Object(envelope) = view else {
        view.write_json_as(Some(viewer), out);
        return;
    };
    out.push(b'{');
    let mut first = true;
    for (key, value) in envelope {
        let Some(value) = value.as_seen_by(Some(viewer)) else {
            continue;
        };
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        write_str(out, key);
        out.push(b':');
        match value {
            ViewValue::Object(game) if key == "game" && !game.iter().any(|(k, _)| k == "log") => {
                out.push(b'{');
                let mut placed = false;
                let mut first = true;
                let mut comma = |out: &mut Vec<u8>| {
                    if !std::mem::take(&mut first) {
                        out.push(b',');
                    }
                };
                for (key, value) in game {
                    let Some(value) = value.as_seen_by(Some(viewer)) else {
                        continue;
                    };
                    if !placed && key.as_ref() > "log" {
                        comma(out);
                        write_log(log, out);
                        placed = true;
                    }
                    comma(out);
                    write_str(out, key);
                    out.push(b':');
                    value.write_json_as(Some(viewer), out);
                }
                if !placed {
                    comma(out);
                    write_log(log, out);
                }
                out.push(b'}');
            }
            _ => {
                value.write_json_as(Some(viewer), out);
            }
        }
    }
    out.push(b'}');
}

/// Append `"log":[...]`.
fn write_log(log: &[String], out: &mut Vec<u8>) {
    out.extend_from_slice(b"\"log\":[");
    for (i, line) in log.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(out, line);
    }
    out.push(b']');
}

/// Append `viewer`'s `patch` message of `changes` plus the log lines `new_lines` (the first
/// of which goes at index `first_line`) to `out`, wire-identical to `ServerMsg::Patch`'s:
/// the operations were serialized once for every audience and are copied here. `false`
/// when nothing changed for `viewer` and no `req` must be answered (what was appended is
/// then of no use).
pub fn write_patch(
    out: &mut Vec<u8>,
    battle_id: &str,
    seq: u64,
    req: Option<Req>,
    (changes, viewer): (&Changes, Viewer),
    (first_line, new_lines): (usize, &[String]),
) -> bool {
    out.extend_from_slice(b"{\"type\":\"patch\",\"battle_id\":");
    // Writing a string or a number into a Vec cannot fail.
    write_str(out, battle_id);
    out.extend_from_slice(b",\"seq\":");
    out.extend_from_slice(itoa::Buffer::new().format(seq).as_bytes());
    out.extend_from_slice(b",\"ops\":[");
    let mut count = changes.write_for(viewer, out);
    for (offset, line) in new_lines.iter().enumerate() {
        if count > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"op\":\"add\",\"path\":\"/game/log/");
        out.extend_from_slice(itoa::Buffer::new().format(first_line + offset).as_bytes());
        out.extend_from_slice(b"\",\"value\":");
        write_str(out, line);
        out.push(b'}');
        count += 1;
    }
    out.push(b']');
    if count == 0 && req.is_none() {
        return false;
    }
    if let Some(req) = req {
        let _ = write!(out, ",\"req\":{req}");
    }
    out.push(b'}');
    true
}

/// The `patch` message of [`write_patch`] as text; `None` when there is nothing to send.
pub fn patch_frame(
    battle_id: &str,
    seq: u64,
    req: Option<Req>,
    change: (&Changes, Viewer),
    lines: (usize, &[String]),
) -> Option<String> {
    let mut out = Vec::with_capacity(512);
    write_patch(&mut out, battle_id, seq, req, change, lines)
        .then(|| String::from_utf8(out).expect("serde_json and the literals only write UTF-8"))
}

impl Audience {
    /// An empty audience for `viewer`.
    pub fn new(viewer: Viewer) -> Audience {
        Audience {
            viewer,
            seq: 0,
            log_len: 0,
            stale: true,
            snapshot_len: 0,
            members: Vec::new(),
            remote: Vec::new(),
            relay: None,
        }
    }

    /// Who this audience sees the battle as.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// How many connections watch through this audience (other nodes' included).
    pub fn len(&self) -> usize {
        self.members.len() + self.remote.len()
    }

    /// Whether nobody watches through this audience.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.remote.is_empty()
    }

    /// Whether `conn` is a member.
    pub fn contains(&self, conn: ConnId) -> bool {
        self.members
            .iter()
            .chain(&self.remote)
            .any(|m| m.id() == conn)
    }

    /// Add a member (no-op if already there). Another node's connection is reached through
    /// the audience's relay.
    pub fn add(&mut self, conn: Outbox) {
        if self.contains(conn.id()) {
            return;
        }
        if conn.is_proxy() {
            if self.relay.is_none() {
                self.relay = conn.relay(self.viewer);
            }
            self.remote.push(conn);
        } else {
            self.members.push(conn);
        }
    }

    /// Remove a member; whether it was there. Another node's connection still open is told
    /// (its node stops handing it this audience's changes).
    pub fn remove(&mut self, conn: ConnId) -> bool {
        let before = self.members.len() + self.remote.len();
        self.members.retain(|m| m.id() != conn);
        self.remote.retain(|m| {
            if m.id() != conn {
                return true;
            }
            if !m.is_closed() {
                m.note_dismissed();
            }
            false
        });
        if self.remote.is_empty() {
            self.relay = None;
        }
        self.members.len() + self.remote.len() != before
    }

    /// This node's own members.
    pub fn locals(&self) -> Vec<Outbox> {
        self.members.clone()
    }

    /// The `seq` of the last view sent.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Whether other nodes' connections are members (changes go to them through a relay).
    pub fn has_remote(&self) -> bool {
        self.relay.is_some()
    }

    /// Tell the other nodes with members in this audience which `seq` it is at.
    pub fn beacon(&self) {
        if let Some(relay) = &self.relay {
            relay.beacon(self.seq);
        }
    }

    /// The next publish sends every member a snapshot, whatever they were sent before.
    pub fn renew(&mut self) {
        self.stale = true;
    }

    /// Every member, for a farewell message.
    pub fn drain(&mut self) -> Vec<Outbox> {
        self.relay = None;
        let mut all = std::mem::take(&mut self.members);
        all.append(&mut self.remote);
        all
    }

    /// Send `to` the whole current `view` (built for this audience's viewer, or for several
    /// viewers at once: members marked for others are left out), with `log` (the battle log
    /// as this audience sees it). Members hold the view at `seq`, which is the current one: every change is
    /// published. `ahead`, if given, is sent just before the snapshot in the same write
    /// (the reply that admits `to`). Both leave once `ticket` is committed. Returns what
    /// happened to the frames.
    #[allow(clippy::too_many_arguments)]
    pub fn send_snapshot(
        &mut self,
        battle_id: &str,
        to: &Outbox,
        ahead: Option<Frame>,
        req: Option<Req>,
        log: &[String],
        view: &ViewValue,
        ticket: Ticket,
    ) -> Offer {
        if self.stale {
            self.seq += 1;
            self.log_len = log.len();
            self.stale = false;
        }
        let frame = self.snapshot_frame(battle_id, req, view, log).text();
        match ahead {
            Some(reply) => to.offer_frames_at([reply, frame], ticket),
            None => to.offer_frame_at(frame, ticket),
        }
    }

    fn snapshot_frame(
        &mut self,
        battle_id: &str,
        req: Option<Req>,
        view: &ViewValue,
        log: &[String],
    ) -> FrameBuf {
        let mut frame = FrameBuf::with_capacity(self.snapshot_len.max(256));
        let out = frame.out();
        out.extend_from_slice(b"{\"type\":\"snapshot\",\"battle_id\":");
        write_str(out, battle_id);
        // Writing numbers into a Vec cannot fail.
        let _ = write!(out, ",\"seq\":{},\"view\":", self.seq);
        write_with_log(view, self.viewer, &log[..self.log_len.min(log.len())], out);
        if let Some(req) = req {
            let _ = write!(out, ",\"req\":{req}");
        }
        out.push(b'}');
        self.snapshot_len = frame.payload().len();
        frame
    }

    /// The battle changed. With members present, send every member this audience's share of
    /// `change` (the diff from the view they hold, built before the change, to `view`, the
    /// view now, both built for several viewers at once), or a snapshot of `view` when the
    /// patch would be larger than the view or there is no `change` to send. `log` is the
    /// battle log as this audience sees it now. `req` marks the patch that answers this
    /// audience's own action; such a patch is sent even when the view did not change. What
    /// is sent leaves once `ticket` (the change's record) is committed. Returns the members
    /// dropped because they were gone or too slow.
    pub fn publish(
        &mut self,
        battle_id: &str,
        req: Option<Req>,
        log: &[String],
        change: Option<&Changes>,
        view: &ViewValue,
        ticket: Ticket,
    ) -> Vec<ConnId> {
        if self.is_empty() {
            self.stale = true;
            return Vec::new();
        }
        let change = match change {
            Some(change) if !self.stale && log.len() >= self.log_len => change,
            _ => {
                // Defensive: members were given a snapshot when they were added, the actor
                // diffs whenever someone watches, and a log never shrinks. Otherwise a patch
                // would not fit what members hold: start them afresh.
                self.stale = false;
                self.seq += 1;
                self.log_len = log.len();
                let frame = self.snapshot_frame(battle_id, req, view, log);
                return self.broadcast(frame.text(), ticket);
            }
        };
        let new_lines = &log[self.log_len..];
        let lines = (self.log_len, new_lines);
        let line_bytes: usize = new_lines.iter().map(|line| line.len() + 3).sum();
        let mut patch = FrameBuf::with_capacity(change.bytes_len() + 2 * line_bytes + 128);
        let mine = (change, self.viewer);
        if !write_patch(patch.out(), battle_id, self.seq + 1, req, mine, lines) {
            return Vec::new();
        }
        self.seq += 1;
        self.log_len = log.len();
        self.snapshot_len += line_bytes;
        let frame = if patch.payload().len() > self.snapshot_len {
            let snapshot = self.snapshot_frame(battle_id, req, view, log);
            if snapshot.payload().len() < patch.payload().len() {
                snapshot
            } else {
                patch
            }
        } else {
            patch
        };
        self.broadcast(frame.text(), ticket)
    }

    /// Hand `frame` to every member: one buffer shared by all of them.
    fn broadcast(&mut self, frame: Frame, ticket: Ticket) -> Vec<ConnId> {
        if let Some(relay) = &self.relay {
            relay.offer_frame_at(frame.clone(), ticket);
        }
        let mut dropped = Vec::new();
        self.members.retain(
            |member| match member.offer_frame_at(frame.clone(), ticket) {
                Offer::Queued => true,
                Offer::Lagging | Offer::Closed => {
                    dropped.push(member.id());
                    false
                }
            },
        );
        dropped
    }
}

#[cfg(test)]
mod tests;
