//! `View`: one connection's copy of a battle view in the load generator, the part of
//! [`ViewTracker`](battle_client::ViewTracker) the load test needs, at a fraction of the CPU.
//!
//! The load generator shares the machine's cores with the server it measures, so every
//! microsecond it spends per frame is taken from the server. The general client path decodes
//! a `ServerMsg` and applies patches with `json_patch` to a `serde_json::Value` (unescaping
//! every pointer token into a new `String`, searching B-trees of `String` keys). Here a frame
//! is decoded flat ([`Frame`]), the view is a [`Node`] tree, and patches are applied with the
//! RFC 6902 operations the server sends (`add`, `remove`, `replace`, plus `test`); anything
//! else is a violation. The rules are the tracker's: a patch must carry `seq + 1`, a
//! snapshot replaces the view.

use super::frame::{Frame, Ops};
use super::node::Node;
use super::patch;

/// Why a frame could not be applied; the view is then waiting for a fresh snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Violation {
    /// A patch whose `seq` is not the held `seq + 1`.
    Gap,
    /// A patch before any snapshot.
    NoSnapshot,
    /// A patch that does not fit the view.
    BadPatch,
}

impl Violation {
    /// The key the report counts it under.
    pub fn key(self) -> &'static str {
        match self {
            Violation::Gap => "seq_gap",
            Violation::NoSnapshot => "patch_before_snapshot",
            Violation::BadPatch => "patch_does_not_apply",
        }
    }
}

/// One viewer's copy of a battle view.
#[derive(Debug, Default)]
pub struct View {
    /// `(seq, view)` once a snapshot arrived; `None` after a violation until the next one.
    state: Option<(u64, Node)>,
}

impl View {
    /// Apply a snapshot (`view` present) or a patch (`ops` present) of this view's battle.
    /// After a violation the view waits for a snapshot: patches until then are ignored
    /// (`Ok(false)`), so one lost message is counted once.
    ///
    /// `ops` holds the operations `frame` was decoded with.
    pub fn apply(
        &mut self,
        frame: &mut Frame<'_>,
        ops: &mut Ops,
        awaiting_resync: bool,
    ) -> Result<bool, Violation> {
        if let (Some(view), Some(seq)) = (frame.view.take(), frame.seq) {
            self.state = Some((seq, view));
            return Ok(true);
        }
        let (true, Some(seq)) = (frame.has_ops, frame.seq) else {
            return Ok(false);
        };
        if awaiting_resync {
            return Ok(false);
        }
        let Some((current, doc)) = self.state.as_mut() else {
            return Err(Violation::NoSnapshot);
        };
        if seq != *current + 1 {
            self.state = None;
            return Err(Violation::Gap);
        }
        if patch::apply_all(doc, ops.drain()).is_none() {
            // Part of the patch may be applied: drop the view until the resync.
            self.state = None;
            return Err(Violation::BadPatch);
        }
        *current = seq;
        Ok(true)
    }

    fn field(&self, name: &str) -> Option<&Node> {
        self.state.as_ref().and_then(|(_, view)| view.get(name))
    }

    /// `status` of the envelope (`waiting`, `playing`, `finished`).
    pub fn status(&self) -> Option<&str> {
        self.field("status").and_then(Node::as_str)
    }

    /// The engine tick count and tick interval in milliseconds (`game.tick`,
    /// `game.tick_ms`), for rulesets whose battles tick by themselves.
    pub fn tick(&self) -> Option<(u64, u64)> {
        let game = self.field("game")?;
        Some((game.get("tick")?.as_u64()?, game.get("tick_ms")?.as_u64()?))
    }

    /// The viewer's seat (`None` for a spectator).
    pub fn seat(&self) -> Option<u64> {
        self.field("seat").and_then(Node::as_u64)
    }

    /// Whether the view's own seat is awaited.
    pub fn my_turn(&self) -> bool {
        let Some(seat) = self.field("seat").and_then(Node::as_u64) else {
            return false;
        };
        self.field("to_act")
            .and_then(Node::as_array)
            .is_some_and(|seats| seats.iter().any(|s| s.as_u64() == Some(seat)))
    }

    /// The seat's legal actions.
    pub fn legal(&self) -> &[Node] {
        self.field("legal").and_then(Node::as_array).unwrap_or(&[])
    }

    /// Whether the battle has an outcome.
    pub fn is_over(&self) -> bool {
        self.field("outcome").is_some_and(|o| !o.is_null())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_client::{Applied, ViewTracker};
    use serde_json::json;

    /// Decode `text` and apply it to `view`.
    fn apply(view: &mut View, text: &str, awaiting_resync: bool) -> Result<bool, Violation> {
        let mut ops = Ops::default();
        let mut frame = Frame::decode(text, &mut ops).expect("valid frame");
        view.apply(&mut frame, &mut ops, awaiting_resync)
    }

    /// The same frames through this view and through `ViewTracker` give the same document.
    #[test]
    fn agrees_with_the_view_tracker() {
        let frames = [
            r#"{"type":"snapshot","battle_id":"b","seq":1,"view":{"status":"waiting","seat":0,"to_act":[],"legal":[],"outcome":null,"game":{"log":["a"],"hand":[{"id":1},{"id":2}],"k/x~y":1}}}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"replace","path":"/status","value":"playing"},{"op":"add","path":"/to_act/0","value":0},{"op":"add","path":"/legal/0","value":{"kind":"end_turn"}},{"op":"add","path":"/game/log/1","value":"b"}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":3,"ops":[{"op":"remove","path":"/game/hand/0"},{"op":"replace","path":"/game/k~1x~0y","value":2},{"op":"add","path":"/game/new","value":[1]},{"op":"add","path":"/game/log/-","value":"c"},{"op":"test","path":"/seat","value":0}],"req":4}"#,
            r#"{"type":"patch","battle_id":"b","seq":4,"ops":[{"op":"replace","path":"/outcome","value":{"winners":[0]}},{"op":"replace","path":"/legal","value":[]},{"op":"remove","path":"/game/new"},{"op":"replace","path":"/seat","value":null}]}"#,
        ];
        let mut view = View::default();
        let mut tracker = ViewTracker::new("b");
        for text in frames {
            assert_eq!(apply(&mut view, text, false), Ok(true), "{text}");
            let msg = battle_client::decode(text.to_string()).expect("decodes");
            assert!(!matches!(
                tracker.apply(&msg).expect("applies"),
                Applied::Ignored
            ));
            assert_eq!(
                view.state.as_ref().map(|(_, v)| v.to_value()).as_ref(),
                tracker.view(),
                "after {text}"
            );
            assert_eq!(view.state.as_ref().map(|(s, _)| *s), tracker.seq());
        }
        assert!(view.is_over());
        assert_eq!(view.status(), Some("playing"));
        assert!(view.legal().is_empty());
    }

    #[test]
    fn envelope_helpers() {
        let mut view = View::default();
        apply(
            &mut view,
            r#"{"type":"snapshot","battle_id":"b","seq":5,"view":{"status":"playing","seat":1,"to_act":[1],"legal":[{"kind":"end_turn"}],"outcome":null}}"#,
            false,
        )
        .expect("snapshot");
        assert!(view.my_turn());
        assert_eq!(view.legal(), &[Node::from(&json!({"kind": "end_turn"}))]);
        assert!(!view.is_over());
    }

    #[test]
    fn violations_are_reported_once_until_a_snapshot() {
        let mut view = View::default();
        let patch2 = r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"replace","path":"/a","value":2}]}"#;
        assert_eq!(apply(&mut view, patch2, false), Err(Violation::NoSnapshot));
        let snap = r#"{"type":"snapshot","battle_id":"b","seq":1,"view":{"a":1,"l":[1]}}"#;
        apply(&mut view, snap, false).expect("snapshot");
        let gap = r#"{"type":"patch","battle_id":"b","seq":3,"ops":[]}"#;
        assert_eq!(apply(&mut view, gap, false), Err(Violation::Gap));
        // Waiting for the resync: later patches are ignored, not counted again.
        assert_eq!(apply(&mut view, patch2, true), Ok(false));
        apply(&mut view, snap, true).expect("snapshot");
        for bad in [
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"replace","path":"/nope/x","value":2}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"remove","path":"/l/1"}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"add","path":"/l/5","value":0}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"test","path":"/a","value":9}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"move","from":"/a","path":"/b"}]}"#,
        ] {
            apply(&mut view, snap, false).expect("snapshot");
            assert_eq!(
                apply(&mut view, bad, false),
                Err(Violation::BadPatch),
                "{bad}"
            );
        }
    }
}
