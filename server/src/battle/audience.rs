//! An audience: everyone who sees the battle the same way (one seat, or all spectators).
//!
//! Per change, an audience builds its view once, diffs it against its last view once,
//! serializes the message once and hands the same bytes to every member. Each member's
//! outbox only ever gets `try_send`; a member that cannot keep up is dropped and closed.

use std::io::Write as _;

use battle_protocol::{Req, ServerMsg};
use serde::Serialize;
use serde_json::Value;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use super::diff::{diff, diff_json};
use crate::connection::outbox::{ConnId, Offer, Outbox};
use crate::ruleset::Viewer;

/// One audience of one battle.
#[derive(Debug)]
pub struct Audience {
    viewer: Viewer,
    /// Number of the last view sent (patch or snapshot).
    seq: u64,
    /// The view at `seq`; only kept current while someone is watching.
    view: Value,
    /// `view` no longer matches the battle (nobody was watching when it changed).
    stale: bool,
    /// Length of the last serialized snapshot, to notice patches larger than the view.
    snapshot_len: usize,
    members: Vec<Outbox>,
}

/// A snapshot message serialized from borrowed parts (wire-identical to
/// [`ServerMsg::Snapshot`]).
#[derive(Serialize)]
struct SnapshotFrame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    battle_id: &'a str,
    seq: u64,
    view: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    req: Option<Req>,
}

/// The `patch` frame from `from` to `to`, wire-identical to [`ServerMsg::Patch`]'s, written in
/// one pass while diffing (no intermediate `Patch`, no copies of the changed values). `None`
/// when nothing changed and no `req` must be answered.
fn patch_text(
    battle_id: &str,
    seq: u64,
    req: Option<Req>,
    from: &Value,
    to: &Value,
) -> Option<String> {
    let mut frame = Vec::with_capacity(512);
    frame.extend_from_slice(b"{\"type\":\"patch\",\"battle_id\":");
    // Writing a string or a number into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut frame, battle_id);
    let _ = write!(frame, ",\"seq\":{seq},\"ops\":");
    let count = diff_json(from, to, &mut frame);
    if count == 0 && req.is_none() {
        return None;
    }
    if let Some(req) = req {
        let _ = write!(frame, ",\"req\":{req}");
    }
    frame.push(b'}');
    match String::from_utf8(frame) {
        Ok(text) => Some(text),
        // serde_json only writes UTF-8; should that ever change, fall back to the typed path.
        Err(_) => Some(
            ServerMsg::Patch {
                battle_id: battle_id.to_string(),
                seq,
                ops: diff(from, to),
                req,
            }
            .to_text(),
        ),
    }
}

impl Audience {
    /// An empty audience for `viewer`.
    pub fn new(viewer: Viewer) -> Audience {
        Audience {
            viewer,
            seq: 0,
            view: Value::Null,
            stale: true,
            snapshot_len: 0,
            members: Vec::new(),
        }
    }

    /// Who this audience sees the battle as.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// How many connections watch through this audience.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether nobody watches through this audience.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether `conn` is a member.
    pub fn contains(&self, conn: ConnId) -> bool {
        self.members.iter().any(|m| m.id() == conn)
    }

    /// Add a member (no-op if already there).
    pub fn add(&mut self, conn: Outbox) {
        if !self.contains(conn.id()) {
            self.members.push(conn);
        }
    }

    /// Remove a member; whether it was there.
    pub fn remove(&mut self, conn: ConnId) -> bool {
        let before = self.members.len();
        self.members.retain(|m| m.id() != conn);
        self.members.len() != before
    }

    /// Every member, for a farewell message.
    pub fn drain(&mut self) -> Vec<Outbox> {
        std::mem::take(&mut self.members)
    }

    /// Send `to` the whole current view. `current` builds the view if the audience's copy is
    /// stale. Returns what happened to the frame.
    pub fn send_snapshot(
        &mut self,
        battle_id: &str,
        to: &Outbox,
        req: Option<Req>,
        current: impl FnOnce() -> Value,
    ) -> Offer {
        if self.stale {
            let view = current();
            if view != self.view {
                self.seq += 1;
                self.view = view;
            }
            self.stale = false;
        }
        let text = self.snapshot_text(battle_id, req);
        to.offer(text)
    }

    fn snapshot_text(&mut self, battle_id: &str, req: Option<Req>) -> Utf8Bytes {
        let frame = SnapshotFrame {
            kind: "snapshot",
            battle_id,
            seq: self.seq,
            view: &self.view,
            req,
        };
        // A borrowed serde_json::Value and plain fields always serialize.
        let text = serde_json::to_string(&frame).expect("snapshot frames always serialize");
        self.snapshot_len = text.len();
        Utf8Bytes::from(text)
    }

    /// The battle changed. With members present, bring the view up to date, and send every
    /// member the patch (or a snapshot when the patch would be larger than the view). `req`
    /// marks the patch that answers this audience's own action; such a patch is sent even
    /// when the view did not change. Returns the members dropped because they were gone or
    /// too slow.
    pub fn publish(
        &mut self,
        battle_id: &str,
        req: Option<Req>,
        current: impl FnOnce() -> Value,
    ) -> Vec<ConnId> {
        if self.members.is_empty() {
            self.stale = true;
            return Vec::new();
        }
        let view = current();
        if self.stale {
            // Defensive: members should have been given a snapshot when they were added. If
            // not, a patch against a view they never saw would break their stream.
            self.stale = false;
            self.seq += 1;
            self.view = view;
            let text = self.snapshot_text(battle_id, req);
            return self.broadcast(text);
        }
        let Some(patch) = patch_text(battle_id, self.seq + 1, req, &self.view, &view) else {
            return Vec::new();
        };
        self.seq += 1;
        self.view = view;
        let text = if patch.len() > self.snapshot_len {
            let snapshot = self.snapshot_text(battle_id, req);
            if snapshot.len() < patch.len() {
                snapshot
            } else {
                Utf8Bytes::from(patch)
            }
        } else {
            Utf8Bytes::from(patch)
        };
        self.broadcast(text)
    }

    fn broadcast(&mut self, text: Utf8Bytes) -> Vec<ConnId> {
        let mut dropped = Vec::new();
        self.members
            .retain(|member| match member.offer(text.clone()) {
                Offer::Queued => true,
                Offer::Lagging | Offer::Closed => {
                    dropped.push(member.id());
                    false
                }
            });
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::json_patch;
    use serde_json::json;
    use tokio_tungstenite::tungstenite::Message;

    fn parse(msg: Message) -> ServerMsg {
        let Message::Text(text) = msg else {
            panic!("text frames only")
        };
        serde_json::from_str(&text).expect("server frames parse")
    }

    #[test]
    fn snapshot_then_patches_reproduce_the_view() {
        let mut audience = Audience::new(Viewer::Spectator);
        let (member, mut rx, _) = Outbox::new(8);
        audience.add(member.clone());
        // Large enough that a small patch is cheaper than a snapshot.
        let rules = "x".repeat(300);
        audience.send_snapshot(
            "b",
            &member,
            None,
            || json!({"hp": 10, "log": ["start"], "rules": rules}),
        );
        audience.publish(
            "b",
            None,
            || json!({"hp": 7, "log": ["start", "hit for 3"], "rules": rules}),
        );
        audience.publish(
            "b",
            None,
            || json!({"hp": 7, "log": ["start", "hit for 3"], "rules": rules}),
        );
        let mut view = match parse(rx.try_recv().expect("snapshot queued")) {
            ServerMsg::Snapshot { seq, view, .. } => {
                assert_eq!(seq, 1);
                view
            }
            other => panic!("expected snapshot, got {other:?}"),
        };
        match parse(rx.try_recv().expect("patch queued")) {
            ServerMsg::Patch { seq, ops, .. } => {
                assert_eq!(seq, 2);
                json_patch::patch(&mut view, &ops).expect("patch applies");
            }
            other => panic!("expected patch, got {other:?}"),
        }
        assert_eq!(
            view,
            json!({"hp": 7, "log": ["start", "hit for 3"], "rules": rules})
        );
        assert!(rx.try_recv().is_err(), "an unchanged view sends nothing");
    }

    #[test]
    fn answer_is_sent_even_without_change_and_carries_req() {
        let mut audience = Audience::new(Viewer::Seat(0));
        let (member, mut rx, _) = Outbox::new(8);
        audience.add(member.clone());
        audience.send_snapshot("b", &member, None, || json!({"a": 1}));
        let _ = rx.try_recv();
        audience.publish("b", Some(42), || json!({"a": 1}));
        match parse(rx.try_recv().expect("answer queued")) {
            ServerMsg::Patch { seq, ops, req, .. } => {
                assert_eq!((seq, ops.0.len(), req), (2, 0, Some(42)));
            }
            other => panic!("expected patch, got {other:?}"),
        }
    }

    #[test]
    fn large_change_becomes_snapshot() {
        let mut audience = Audience::new(Viewer::Spectator);
        let (member, mut rx, _) = Outbox::new(8);
        audience.add(member.clone());
        audience.send_snapshot("b", &member, None, || json!({"a": [1, 2, 3, 4, 5, 6]}));
        let _ = rx.try_recv();
        audience.publish("b", None, || json!({"b": [7, 8, 9, 10, 11, 12]}));
        match parse(rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, view, .. } => {
                assert_eq!(seq, 2);
                assert_eq!(view, json!({"b": [7, 8, 9, 10, 11, 12]}));
            }
            other => panic!("expected snapshot, got {other:?}"),
        }
    }

    #[test]
    fn slow_member_is_dropped_others_keep_receiving() {
        let mut audience = Audience::new(Viewer::Spectator);
        let (slow, _slow_rx, _) = Outbox::new(1);
        let (fast, mut fast_rx, _) = Outbox::new(64);
        audience.add(slow.clone());
        audience.add(fast.clone());
        audience.send_snapshot("b", &slow, None, || json!({"n": 0}));
        audience.send_snapshot("b", &fast, None, || json!({"n": 0}));
        let dropped = audience.publish("b", None, || json!({"n": 1}));
        assert_eq!(dropped, vec![slow.id()]);
        assert_eq!(audience.len(), 1);
        for n in 2..10 {
            assert!(audience.publish("b", None, || json!({"n": n})).is_empty());
        }
        assert_eq!(std::iter::from_fn(|| fast_rx.try_recv().ok()).count(), 10);
    }

    #[test]
    fn memberless_audience_goes_stale_and_newcomer_gets_next_seq() {
        let mut audience = Audience::new(Viewer::Spectator);
        assert!(audience
            .publish("b", None, || unreachable!("nobody watches"))
            .is_empty());
        let (member, mut rx, _) = Outbox::new(8);
        audience.add(member.clone());
        audience.send_snapshot("b", &member, None, || json!({"n": 5}));
        match parse(rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, view, .. } => assert_eq!((seq, view), (1, json!({"n": 5}))),
            other => panic!("expected snapshot, got {other:?}"),
        }
    }

    #[test]
    fn streamed_patch_is_wire_identical() {
        let from = json!({"a": [1, 2, 3], "b": {"c": "x\"y"}, "d/e": null});
        let to = json!({"a": [2, 3, 4], "b": {"c": "z", "f": [true]}, "g~h": 1.5});
        for req in [None, Some(7)] {
            let text = patch_text("b\"1", 4, req, &from, &to).expect("a change");
            let owned = ServerMsg::Patch {
                battle_id: "b\"1".into(),
                seq: 4,
                ops: diff(&from, &to),
                req,
            };
            assert_eq!(text, owned.to_text());
        }
        assert_eq!(patch_text("b", 2, None, &from, &from), None);
        let answer = patch_text("b", 2, Some(3), &from, &from).expect("answers req");
        assert_eq!(
            answer,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[],"req":3}"#
        );
    }

    #[test]
    fn borrowed_snapshot_is_wire_identical() {
        let mut audience = Audience::new(Viewer::Spectator);
        audience.view = json!({"x": [1, {"y": "z"}]});
        audience.seq = 9;
        audience.stale = false;
        let text = audience.snapshot_text("b1", Some(3));
        let owned = ServerMsg::Snapshot {
            battle_id: "b1".into(),
            seq: 9,
            view: json!({"x": [1, {"y": "z"}]}),
            req: Some(3),
        };
        assert_eq!(text.as_str(), owned.to_text());
    }
}
