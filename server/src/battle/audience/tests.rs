//! Unit tests of `Audience`: snapshots, patches, the log, slow members and the wire form.

use super::*;
use crate::connection::outbox::Tap;
use battle_protocol::{json_patch, ServerMsg};
use battle_rules::view::diff;
use battle_rules::view::viewers::Viewers;
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
        self.audience
            .send_snapshot("b", to, None, None, log, &self.last, 0);
    }

    fn publish(
        &mut self,
        req: Option<Req>,
        log: &[String],
        view: serde_json::Value,
    ) -> Vec<ConnId> {
        let view = v(view);
        let viewers = Viewers::of(self.audience.viewer());
        let change = Changes::between(&self.last, &view, viewers);
        let change = (!self.audience.is_empty()).then_some(&change);
        let dropped = self.audience.publish("b", req, log, change, &view, 0);
        self.last = view;
        dropped
    }
}

/// An audience of `viewer` with one member that has already taken its snapshot of `view`;
/// the member's queue comes back empty.
fn with_member(viewer: Viewer, log: &[String], view: serde_json::Value) -> (Driven, Tap) {
    let mut audience = Driven::new(viewer);
    let (member, mut rx) = Outbox::detached(8);
    audience.add(member.clone());
    audience.snapshot(&member, log, view);
    let _ = rx.try_recv();
    (audience, rx)
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
    let pad = "x".repeat(300);
    let log: Vec<String> = vec!["one".into(), "two".into()];
    let (mut audience, mut rx) =
        with_member(Viewer::Spectator, &log[..1], json!({"game": {"pad": pad}}));
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
    let log: Vec<String> = vec!["one".into(), "two".into()];
    let (mut audience, mut rx) = with_member(Viewer::Spectator, &log, json!({"game": {}}));
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
    let (mut audience, mut rx) = with_member(Viewer::Seat(0), &[], json!({"a": 1}));
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
    let (mut audience, mut rx) =
        with_member(Viewer::Spectator, &[], json!({"a": [1, 2, 3, 4, 5, 6]}));
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
        .publish("b", None, &[], None, &ViewValue::Null, 0)
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
    let (mut audience, mut rx) = with_member(Viewer::Spectator, &[], json!({"n": 1}));
    let view = v(json!({"n": 2}));
    audience.audience.publish("b", None, &[], None, &view, 0);
    match parse(rx.try_recv().expect("queued")) {
        ServerMsg::Snapshot { seq, view, .. } => assert_eq!((seq, view), (2, json!({"n": 2}))),
        other => panic!("expected snapshot, got {other:?}"),
    }
}

/// The changes between two views without marks.
fn ch(from: &ViewValue, to: &ViewValue) -> Changes {
    Changes::between(from, to, Viewers::SPECTATORS)
}

#[test]
fn streamed_patch_is_wire_identical() {
    let from = json!({"a": [1, 2, 3], "b": {"c": "x\"y"}, "d/e": null});
    let to = json!({"a": [2, 3, 4], "b": {"c": "z", "f": [true]}, "g~h": 1.5});
    for req in [None, Some(7)] {
        let text = patch_frame(
            "b\"1",
            4,
            req,
            (&ch(&v(from.clone()), &v(to.clone())), Viewer::Spectator),
            (0, &[]),
        )
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
    let with_line = patch_frame(
        "b",
        4,
        None,
        (&ch(&vf, &vt), Viewer::Spectator),
        (5, &lines),
    )
    .expect("a change");
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
    let only_line = patch_frame(
        "b",
        4,
        None,
        (&ch(&vf, &vf), Viewer::Spectator),
        (0, &lines),
    )
    .expect("a line");
    assert!(
        only_line.contains(r#""ops":[{"op":"add","path":"/game/log/0""#),
        "{only_line}"
    );
    assert_eq!(
        patch_frame("b", 2, None, (&ch(&vf, &vf), Viewer::Spectator), (0, &[])),
        None
    );
    let answer = patch_frame(
        "b",
        2,
        Some(3),
        (&ch(&vf, &vf), Viewer::Spectator),
        (0, &[]),
    )
    .expect("answers req");
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

#[test]
fn a_snapshot_of_a_shared_view_holds_only_what_its_viewer_sees() {
    let hand = |seat: usize, cards: serde_json::Value| {
        ViewValue::Only(Viewers::seat(seat), Box::new(v(cards)))
    };
    let side = |seat: usize, cards: serde_json::Value| {
        ViewValue::object([("hand", hand(seat, cards)), ("hp", 9.into())])
    };
    let game = ViewValue::object([
        ("round", 1.into()),
        (
            "sides",
            ViewValue::List(vec![side(0, json!([1, 2])), side(1, json!([3]))]),
        ),
    ]);
    let only =
        |viewer: Viewer, value: ViewValue| ViewValue::Only(Viewers::of(viewer), Box::new(value));
    let view = ViewValue::Object(vec![
        ("game".into(), game),
        ("seat".into(), only(Viewer::Spectator, ViewValue::Null)),
        ("seat".into(), only(Viewer::Seat(0), 0.into())),
        ("seat".into(), only(Viewer::Seat(1), 1.into())),
    ]);
    let log = ["begin".to_string()];
    for (viewer, expected) in [
        (
            Viewer::Spectator,
            json!({"game": {"log": ["begin"], "round": 1, "sides": [{"hp": 9}, {"hp": 9}]},
                   "seat": null}),
        ),
        (
            Viewer::Seat(0),
            json!({"game": {"log": ["begin"], "round": 1,
                            "sides": [{"hand": [1, 2], "hp": 9}, {"hp": 9}]}, "seat": 0}),
        ),
        (
            Viewer::Seat(1),
            json!({"game": {"log": ["begin"], "round": 1,
                            "sides": [{"hp": 9}, {"hand": [3], "hp": 9}]}, "seat": 1}),
        ),
    ] {
        let mut audience = Audience::new(viewer);
        let (member, mut rx) = Outbox::detached(4);
        audience.add(member.clone());
        audience.send_snapshot("b", &member, None, None, &log, &view, 0);
        let text = rx.try_recv().expect("a snapshot");
        match parse(text.clone()) {
            ServerMsg::Snapshot { view, .. } => assert_eq!(view, expected, "{viewer:?}"),
            other => panic!("expected a snapshot, got {other:?}"),
        }
        // Wire-identical to the viewer's own view with its log in place.
        let owned = ServerMsg::Snapshot {
            battle_id: "b".into(),
            seq: 1,
            view: expected,
            req: None,
        };
        assert_eq!(text.as_str(), owned.to_text());
    }
}
