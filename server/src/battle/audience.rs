//! An audience: everyone who sees the battle the same way (one seat, or all spectators).
//!
//! Per change, an audience builds its view once, diffs it against its last view once,
//! serializes the message once and hands the same bytes to every member. Each member's
//! outbox only ever gets `try_send`; a member that cannot keep up is dropped and closed.
//!
//! The ruleset's battle log ([`Ruleset::log`](crate::ruleset::Ruleset::log)) is not part of
//! the stored view: it only grows, so the audience remembers how many lines it has sent,
//! writes the new ones as `add` operations at `/game/log/N`, and splices the whole log into
//! `/game/log` when it serializes a snapshot. Clients see one view either way.

use std::io::Write as _;

use battle_protocol::Req;

use super::diff::diff_json;
use crate::connection::frame::{Frame, FrameBuf};
use crate::connection::outbox::{ConnId, Offer, Outbox};
use crate::ruleset::Viewer;
use crate::view_value::{write_str, ViewValue};

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
    /// Length of the last serialized snapshot, to notice patches larger than the view.
    snapshot_len: usize,
    members: Vec<Outbox>,
}

/// Append the envelope `view` as JSON with `log` placed at `/game/log`, where a sorted map
/// would keep it (wire-identical to the view with its log in place).
fn write_with_log(view: &ViewValue, log: &[String], out: &mut Vec<u8>) {
    let ViewValue::Object(envelope) = view else {
        return view.write_json(out);
    };
    out.push(b'{');
    for (i, (key, value)) in envelope.iter().enumerate() {
        if i > 0 {
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
                    if !placed && key.as_ref() > "log" {
                        comma(out);
                        write_log(log, out);
                        placed = true;
                    }
                    comma(out);
                    write_str(out, key);
                    out.push(b':');
                    value.write_json(out);
                }
                if !placed {
                    comma(out);
                    write_log(log, out);
                }
                out.push(b'}');
            }
            _ => value.write_json(out),
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

/// Append the `patch` message from `from` to `to` plus the log lines `new_lines` (the first
/// of which goes at index `first_line`) to `out`, wire-identical to `ServerMsg::Patch`'s,
/// written in one pass while diffing (no intermediate `Patch`, no copies of the changed
/// values). `false` when nothing changed and no `req` must be answered (what was appended is
/// then of no use).
pub fn write_patch(
    out: &mut Vec<u8>,
    battle_id: &str,
    seq: u64,
    req: Option<Req>,
    (from, to): (&ViewValue, &ViewValue),
    (first_line, new_lines): (usize, &[String]),
) -> bool {
    out.extend_from_slice(b"{\"type\":\"patch\",\"battle_id\":");
    // Writing a string or a number into a Vec cannot fail.
    write_str(out, battle_id);
    let _ = write!(out, ",\"seq\":{seq},\"ops\":");
    let mut count = diff_json(from, to, out);
    if !new_lines.is_empty() {
        out.pop(); // reopen the ops array diff_json closed
        for (offset, line) in new_lines.iter().enumerate() {
            if count > 0 {
                out.push(b',');
            }
            let _ = write!(
                out,
                "{{\"op\":\"add\",\"path\":\"/game/log/{}\",\"value\":",
                first_line + offset
            );
            write_str(out, line);
            out.push(b'}');
            count += 1;
        }
        out.push(b']');
    }
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
    views: (&ViewValue, &ViewValue),
    lines: (usize, &[String]),
) -> Option<String> {
    let mut out = Vec::with_capacity(512);
    write_patch(&mut out, battle_id, seq, req, views, lines)
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

    /// Send `to` the whole current `view`, with `log` (the battle log as this audience sees
    /// it). Members hold the view at `seq`, which is the current one: every change is
    /// published. Returns what happened to the frame.
    pub fn send_snapshot(
        &mut self,
        battle_id: &str,
        to: &Outbox,
        req: Option<Req>,
        log: &[String],
        view: &ViewValue,
    ) -> Offer {
        if self.stale {
            self.seq += 1;
            self.log_len = log.len();
            self.stale = false;
        }
        let frame = self.snapshot_frame(battle_id, req, view, log);
        to.offer_frame(frame.text())
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
        write_with_log(view, &log[..self.log_len.min(log.len())], out);
        if let Some(req) = req {
            let _ = write!(out, ",\"req\":{req}");
        }
        out.push(b'}');
        self.snapshot_len = frame.payload().len();
        frame
    }

    /// The battle changed. With members present, send every member the patch from `before`
    /// (the view they hold, built before the change) to the view `current` builds now, or a
    /// snapshot when the patch would be larger than the view. `log` is the battle log as this
    /// audience sees it now. `req` marks the patch that answers this audience's own action;
    /// such a patch is sent even when the view did not change. Returns the members dropped
    /// because they were gone or too slow.
    pub fn publish(
        &mut self,
        battle_id: &str,
        req: Option<Req>,
        log: &[String],
        before: Option<&ViewValue>,
        current: impl FnOnce() -> ViewValue,
    ) -> Vec<ConnId> {
        if self.members.is_empty() {
            self.stale = true;
            return Vec::new();
        }
        let view = current();
        let before = match before {
            Some(before) if !self.stale && log.len() >= self.log_len => before,
            _ => {
                // Defensive: members were given a snapshot when they were added, the actor
                // takes `before` whenever someone watches, and a log never shrinks.
                // Otherwise a patch would not fit what members hold: start them afresh.
                self.stale = false;
                self.seq += 1;
                self.log_len = log.len();
                let frame = self.snapshot_frame(battle_id, req, &view, log);
                return self.broadcast(frame.text());
            }
        };
        let views = (before, &view);
        let lines = (self.log_len, &log[self.log_len..]);
        let mut patch = FrameBuf::with_capacity(512);
        if !write_patch(patch.out(), battle_id, self.seq + 1, req, views, lines) {
            return Vec::new();
        }
        self.seq += 1;
        self.log_len = log.len();
        let frame = if patch.payload().len() > self.snapshot_len {
            let snapshot = self.snapshot_frame(battle_id, req, &view, log);
            if snapshot.payload().len() < patch.payload().len() {
                snapshot
            } else {
                patch
            }
        } else {
            patch
        };
        self.broadcast(frame.text())
    }

    /// Hand `frame` to every member: one buffer shared by all of them.
    fn broadcast(&mut self, frame: Frame) -> Vec<ConnId> {
        let mut dropped = Vec::new();
        self.members
            .retain(|member| match member.offer_frame(frame.clone()) {
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
    use crate::battle::diff::diff;
    use battle_protocol::{json_patch, ServerMsg};
    use serde_json::json;

    fn v(value: serde_json::Value) -> ViewValue {
        ViewValue::from(&value)
    }

    /// An audience driven the way the actor drives it: each change is published from the
    /// view sent last.
    struct Driven {
        audience: Audience,
        last: ViewValue,
    }

    impl std::ops::Deref for Driven {
        type Target = Audience;
        fn deref(&self) -> &Audience {
            &self.audience
        }
    }

    impl std::ops::DerefMut for Driven {
        fn deref_mut(&mut self) -> &mut Audience {
            &mut self.audience
        }
    }

    impl Driven {
        fn new(viewer: Viewer) -> Driven {
            Driven {
                audience: Audience::new(viewer),
                last: ViewValue::Null,
            }
        }

        fn snapshot(&mut self, to: &Outbox, log: &[String], view: serde_json::Value) {
            self.last = v(view);
            self.audience.send_snapshot("b", to, None, log, &self.last);
        }

        fn publish(
            &mut self,
            req: Option<Req>,
            log: &[String],
            view: serde_json::Value,
        ) -> Vec<ConnId> {
            let view = v(view);
            let before = (!self.audience.is_empty()).then_some(&self.last);
            let dropped = self
                .audience
                .publish("b", req, log, before, || view.clone());
            self.last = view;
            dropped
        }
    }

    fn parse(text: tokio_tungstenite::tungstenite::Utf8Bytes) -> ServerMsg {
        serde_json::from_str(&text).expect("server frames parse")
    }

    #[test]
    fn snapshot_then_patches_reproduce_the_view_and_the_log() {
        let mut audience = Driven::new(Viewer::Spectator);
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        // Large enough that a small patch is cheaper than a snapshot.
        let rules = "x".repeat(300);
        let log: Vec<String> = vec!["start".into(), "hit for 3".into(), "block 2".into()];
        audience.snapshot(
            &member,
            &log[..1],
            json!({"game": {"hp": 10, "rules": rules}}),
        );
        audience.publish(None, &log[..3], json!({"game": {"hp": 7, "rules": rules}}));
        audience.publish(None, &log[..3], json!({"game": {"hp": 7, "rules": rules}}));
        let mut view = match parse(rx.try_recv().expect("snapshot queued")) {
            ServerMsg::Snapshot { seq, view, .. } => {
                assert_eq!(seq, 1);
                assert_eq!(
                    view,
                    json!({"game": {"hp": 10, "log": ["start"], "rules": rules}})
                );
                view
            }
            other => panic!("expected snapshot, got {other:?}"),
        };
        match parse(rx.try_recv().expect("patch queued")) {
            ServerMsg::Patch { seq, ops, .. } => {
                assert_eq!(seq, 2);
                let paths: Vec<String> = ops.0.iter().map(|op| op.path().to_string()).collect();
                assert_eq!(paths, ["/game/hp", "/game/log/1", "/game/log/2"]);
                json_patch::patch(&mut view, &ops).expect("patch applies");
            }
            other => panic!("expected patch, got {other:?}"),
        }
        assert_eq!(view, json!({"game": {"hp": 7, "log": log, "rules": rules}}));
        assert!(rx.try_recv().is_err(), "an unchanged view sends nothing");
    }

    #[test]
    fn a_new_log_line_alone_is_a_patch() {
        let mut audience = Driven::new(Viewer::Spectator);
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        let pad = "x".repeat(300);
        let log: Vec<String> = vec!["one".into(), "two".into()];
        audience.snapshot(&member, &log[..1], json!({"game": {"pad": pad}}));
        let _ = rx.try_recv();
        audience.publish(None, &log, json!({"game": {"pad": pad}}));
        match parse(rx.try_recv().expect("patch queued")) {
            ServerMsg::Patch { seq, ops, .. } => {
                assert_eq!(seq, 2);
                assert_eq!(
                    serde_json::to_value(&ops).expect("patches serialize"),
                    json!([{"op": "add", "path": "/game/log/1", "value": "two"}])
                );
            }
            other => panic!("expected patch, got {other:?}"),
        }
    }

    #[test]
    fn a_shrinking_log_resets_members_with_a_snapshot() {
        let mut audience = Driven::new(Viewer::Spectator);
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        let log: Vec<String> = vec!["one".into(), "two".into()];
        audience.snapshot(&member, &log, json!({"game": {}}));
        let _ = rx.try_recv();
        audience.publish(None, &log[..1], json!({"game": {}}));
        match parse(rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, view, .. } => {
                assert_eq!((seq, view), (2, json!({"game": {"log": ["one"]}})));
            }
            other => panic!("expected snapshot, got {other:?}"),
        }
    }

    #[test]
    fn answer_is_sent_even_without_change_and_carries_req() {
        let mut audience = Driven::new(Viewer::Seat(0));
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        audience.snapshot(&member, &[], json!({"a": 1}));
        let _ = rx.try_recv();
        audience.publish(Some(42), &[], json!({"a": 1}));
        match parse(rx.try_recv().expect("answer queued")) {
            ServerMsg::Patch { seq, ops, req, .. } => {
                assert_eq!((seq, ops.0.len(), req), (2, 0, Some(42)));
            }
            other => panic!("expected patch, got {other:?}"),
        }
    }

    #[test]
    fn large_change_becomes_snapshot() {
        let mut audience = Driven::new(Viewer::Spectator);
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        audience.snapshot(&member, &[], json!({"a": [1, 2, 3, 4, 5, 6]}));
        let _ = rx.try_recv();
        audience.publish(None, &[], json!({"b": [7, 8, 9, 10, 11, 12]}));
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
        let mut audience = Driven::new(Viewer::Spectator);
        let (slow, _slow_rx) = Outbox::detached(1);
        let (fast, mut fast_rx) = Outbox::detached(64);
        audience.add(slow.clone());
        audience.add(fast.clone());
        audience.snapshot(&slow, &[], json!({"n": 0}));
        audience.snapshot(&fast, &[], json!({"n": 0}));
        let dropped = audience.publish(None, &[], json!({"n": 1}));
        assert_eq!(dropped, vec![slow.id()]);
        assert_eq!(audience.len(), 1);
        for n in 2..10 {
            assert!(audience.publish(None, &[], json!({"n": n})).is_empty());
        }
        assert_eq!(std::iter::from_fn(|| fast_rx.try_recv().ok()).count(), 10);
    }

    #[test]
    fn memberless_audience_goes_stale_and_newcomer_gets_next_seq() {
        let mut audience = Driven::new(Viewer::Spectator);
        assert!(audience
            .audience
            .publish("b", None, &[], None, || unreachable!("nobody watches"))
            .is_empty());
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        audience.snapshot(&member, &[], json!({"n": 5}));
        match parse(rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, view, .. } => assert_eq!((seq, view), (1, json!({"n": 5}))),
            other => panic!("expected snapshot, got {other:?}"),
        }
        // A second member joins at the seq the first one holds.
        audience.publish(None, &[], json!({"n": 6}));
        let (second, mut second_rx) = Outbox::detached(8);
        audience.add(second.clone());
        audience.snapshot(&second, &[], json!({"n": 6}));
        match parse(second_rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, .. } => assert_eq!(seq, 2),
            other => panic!("expected snapshot, got {other:?}"),
        }
        // Everyone leaves, the battle moves on, a newcomer gets the next seq.
        audience.remove(member.id());
        audience.remove(second.id());
        audience.publish(None, &[], json!({"n": 7}));
        let (third, mut third_rx) = Outbox::detached(8);
        audience.add(third.clone());
        audience.snapshot(&third, &[], json!({"n": 7}));
        match parse(third_rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, view, .. } => assert_eq!((seq, view), (3, json!({"n": 7}))),
            other => panic!("expected snapshot, got {other:?}"),
        }
        assert!(rx.try_recv().is_ok(), "the first member got the patch to 6");
    }

    #[test]
    fn a_change_without_the_view_before_it_is_sent_as_a_snapshot() {
        let mut audience = Driven::new(Viewer::Spectator);
        let (member, mut rx) = Outbox::detached(8);
        audience.add(member.clone());
        audience.snapshot(&member, &[], json!({"n": 1}));
        let _ = rx.try_recv();
        let view = v(json!({"n": 2}));
        audience
            .audience
            .publish("b", None, &[], None, || view.clone());
        match parse(rx.try_recv().expect("queued")) {
            ServerMsg::Snapshot { seq, view, .. } => assert_eq!((seq, view), (2, json!({"n": 2}))),
            other => panic!("expected snapshot, got {other:?}"),
        }
    }

    #[test]
    fn streamed_patch_is_wire_identical() {
        let from = json!({"a": [1, 2, 3], "b": {"c": "x\"y"}, "d/e": null});
        let to = json!({"a": [2, 3, 4], "b": {"c": "z", "f": [true]}, "g~h": 1.5});
        for req in [None, Some(7)] {
            let text = patch_frame("b\"1", 4, req, (&v(from.clone()), &v(to.clone())), (0, &[]))
                .expect("a change");
            let owned = ServerMsg::Patch {
                battle_id: "b\"1".into(),
                seq: 4,
                ops: diff(&v(from.clone()), &v(to.clone())),
                req,
            };
            assert_eq!(text, owned.to_text());
        }
        let lines = ["said \"hi\"".to_string()];
        let (vf, vt) = (v(from.clone()), v(to.clone()));
        let with_line = patch_frame("b", 4, None, (&vf, &vt), (5, &lines)).expect("a change");
        let mut ops = diff(&v(from.clone()), &v(to.clone()));
        ops.0.push(
            serde_json::from_value(json!({"op": "add", "path": "/game/log/5", "value": lines[0]}))
                .expect("a valid operation"),
        );
        let owned = ServerMsg::Patch {
            battle_id: "b".into(),
            seq: 4,
            ops,
            req: None,
        };
        assert_eq!(with_line, owned.to_text());
        let only_line = patch_frame("b", 4, None, (&vf, &vf), (0, &lines)).expect("a line");
        assert!(
            only_line.contains(r#""ops":[{"op":"add","path":"/game/log/0""#),
            "{only_line}"
        );
        assert_eq!(patch_frame("b", 2, None, (&vf, &vf), (0, &[])), None);
        let answer = patch_frame("b", 2, Some(3), (&vf, &vf), (0, &[])).expect("answers req");
        assert_eq!(
            answer,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[],"req":3}"#
        );
    }

    #[test]
    fn borrowed_snapshot_is_wire_identical() {
        let mut audience = Audience::new(Viewer::Spectator);
        let view = v(json!({"game": {"a": 1, "z": [2]}, "x": [1, {"y": "z"}]}));
        audience.seq = 9;
        audience.log_len = 1;
        audience.stale = false;
        let log = ["first".to_string(), "not yet sent".to_string()];
        let frame = audience.snapshot_frame("b1", Some(3), &view, &log);
        let text = std::str::from_utf8(frame.payload()).expect("UTF-8");
        let owned = ServerMsg::Snapshot {
            battle_id: "b1".into(),
            seq: 9,
            view: json!({"game": {"a": 1, "log": ["first"], "z": [2]}, "x": [1, {"y": "z"}]}),
            req: Some(3),
        };
        assert_eq!(text, owned.to_text());
    }
}
