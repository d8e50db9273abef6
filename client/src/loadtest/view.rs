//! The load generator's lean decoder and view: the part of [`ViewTracker`](crate::ViewTracker)
//! the load test needs, at a fraction of the CPU.
//!
//! The load generator shares the machine's cores with the server it measures, so every
//! microsecond it spends per frame is taken from the server. Profiling showed the general
//! client path spending about two thirds of the generator's CPU in decoding `ServerMsg`
//! (serde buffers every internally tagged enum into an intermediate tree before decoding it)
//! and in `json_patch` (which unescapes every pointer token into a new `String`). Here a frame
//! is decoded into one flat struct, and patches are applied with the RFC 6902 operations the
//! server sends (`add`, `remove`, `replace`, plus `test`); anything else is a violation.
//! The rules are the tracker's: a patch must carry `seq + 1`, a snapshot replaces the view.

use std::borrow::Cow;

use battle_protocol::{ErrorCode, Req};
use serde::Deserialize;
use serde_json::Value;

/// One server frame, decoded flat. Fields a frame type does not have stay `None`.
#[derive(Debug, Deserialize)]
pub struct Frame<'a> {
    /// The message type (`patch`, `snapshot`, `error`, ...).
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    /// The battle the message is about.
    #[serde(default, borrow)]
    pub battle_id: Option<Cow<'a, str>>,
    /// Snapshot and patch number.
    #[serde(default)]
    pub seq: Option<u64>,
    /// The request this message answers.
    #[serde(default)]
    pub req: Option<Req>,
    /// An error's code.
    #[serde(default)]
    pub code: Option<ErrorCode>,
    /// Why a `left` happened.
    #[serde(default, borrow)]
    pub reason: Option<Cow<'a, str>>,
    /// A snapshot's view.
    #[serde(default)]
    pub view: Option<Value>,
    /// A patch's operations.
    #[serde(default, borrow)]
    pub ops: Option<Vec<Op<'a>>>,
}

/// One RFC 6902 operation.
#[derive(Debug, Deserialize)]
pub struct Op<'a> {
    /// `add`, `remove`, `replace`, `test` (others are refused).
    #[serde(borrow)]
    pub op: Cow<'a, str>,
    /// The JSON pointer it applies to.
    #[serde(borrow)]
    pub path: Cow<'a, str>,
    /// The value for `add`, `replace` and `test` (`Some(Null)` for a JSON `null`).
    #[serde(default, deserialize_with = "present")]
    pub value: Option<Value>,
}

/// A field that is present, even as `null` (plain `Option` would read `null` as absent).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

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
    state: Option<(u64, Value)>,
}

impl View {
    /// Apply a snapshot (`view` present) or a patch (`ops` present) of this view's battle.
    /// After a violation the view waits for a snapshot: patches until then are ignored
    /// (`Ok(false)`), so one lost message is counted once.
    pub fn apply(
        &mut self,
        frame: &mut Frame<'_>,
        awaiting_resync: bool,
    ) -> Result<bool, Violation> {
        if let (Some(view), Some(seq)) = (frame.view.take(), frame.seq) {
            self.state = Some((seq, view));
            return Ok(true);
        }
        let (Some(ops), Some(seq)) = (frame.ops.as_mut(), frame.seq) else {
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
        for op in ops.iter_mut() {
            if apply_op(doc, op).is_none() {
                // Part of the patch may be applied: drop the view until the resync.
                self.state = None;
                return Err(Violation::BadPatch);
            }
        }
        *current = seq;
        Ok(true)
    }

    fn field(&self, name: &str) -> Option<&Value> {
        self.state.as_ref().and_then(|(_, view)| view.get(name))
    }

    /// `status` of the envelope (`waiting`, `playing`, `finished`).
    pub fn status(&self) -> Option<&str> {
        self.field("status").and_then(Value::as_str)
    }

    /// Whether the view's own seat is awaited.
    pub fn my_turn(&self) -> bool {
        let Some(seat) = self.field("seat").and_then(Value::as_u64) else {
            return false;
        };
        self.field("to_act")
            .and_then(Value::as_array)
            .is_some_and(|seats| seats.iter().any(|s| s.as_u64() == Some(seat)))
    }

    /// The seat's legal actions.
    pub fn legal(&self) -> &[Value] {
        self.field("legal")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// Whether the battle has an outcome.
    pub fn is_over(&self) -> bool {
        self.field("outcome").is_some_and(|o| !o.is_null())
    }
}

/// Unescape one pointer token (`~1` → `/`, `~0` → `~`), borrowing when there is nothing to do.
fn token(raw: &str) -> Cow<'_, str> {
    if raw.contains('~') {
        Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(raw)
    }
}

/// The parent container of `path` and the last token (`None` for the root or a bad path).
fn parent<'d, 'p>(doc: &'d mut Value, path: &'p str) -> Option<(&'d mut Value, Cow<'p, str>)> {
    let rest = path.strip_prefix('/')?;
    let (dirs, last) = match rest.rfind('/') {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => ("", rest),
    };
    let mut node = doc;
    if !dirs.is_empty() || rest.contains('/') {
        for raw in dirs.split('/') {
            node = match node {
                Value::Object(map) => map.get_mut(token(raw).as_ref())?,
                Value::Array(items) => items.get_mut(raw.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
    }
    Some((node, token(last)))
}

/// Apply one operation; `None` when it does not fit the document.
fn apply_op(doc: &mut Value, op: &mut Op<'_>) -> Option<()> {
    if op.path.is_empty() {
        // The whole document.
        return match op.op.as_ref() {
            "add" | "replace" => {
                *doc = op.value.take()?;
                Some(())
            }
            "test" => (op.value.as_ref()? == doc).then_some(()),
            _ => None,
        };
    }
    let (node, last) = parent(doc, &op.path)?;
    match (op.op.as_ref(), node) {
        ("add", Value::Object(map)) => {
            map.insert(last.into_owned(), op.value.take()?);
        }
        ("add", Value::Array(items)) => {
            let value = op.value.take()?;
            if last == "-" {
                items.push(value);
            } else {
                let at: usize = last.parse().ok()?;
                if at > items.len() {
                    return None;
                }
                items.insert(at, value);
            }
        }
        ("remove", Value::Object(map)) => {
            map.remove(last.as_ref())?;
        }
        ("remove", Value::Array(items)) => {
            let at: usize = last.parse().ok()?;
            if at >= items.len() {
                return None;
            }
            items.remove(at);
        }
        ("replace", Value::Object(map)) => *map.get_mut(last.as_ref())? = op.value.take()?,
        ("replace", Value::Array(items)) => {
            *items.get_mut(last.parse::<usize>().ok()?)? = op.value.take()?
        }
        ("test", Value::Object(map)) => {
            return (map.get(last.as_ref())? == op.value.as_ref()?).then_some(())
        }
        ("test", Value::Array(items)) => {
            return (items.get(last.parse::<usize>().ok()?)? == op.value.as_ref()?).then_some(())
        }
        _ => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Applied, ViewTracker};
    use serde_json::json;

    fn frame(text: &str) -> Frame<'_> {
        serde_json::from_str(text).expect("valid frame")
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
            let mut f = frame(text);
            assert_eq!(view.apply(&mut f, false), Ok(true), "{text}");
            let msg = crate::decode(text.to_string()).expect("decodes");
            assert!(!matches!(
                tracker.apply(&msg).expect("applies"),
                Applied::Ignored
            ));
            assert_eq!(
                view.state.as_ref().map(|(_, v)| v),
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
        let mut f = frame(
            r#"{"type":"snapshot","battle_id":"b","seq":5,"view":{"status":"playing","seat":1,"to_act":[1],"legal":[{"kind":"end_turn"}],"outcome":null}}"#,
        );
        view.apply(&mut f, false).expect("snapshot");
        assert!(view.my_turn());
        assert_eq!(view.legal(), &[json!({"kind": "end_turn"})]);
        assert!(!view.is_over());
        let f = frame(
            r#"{"type":"error","code":"not_your_turn","message":"x","battle_id":"b","req":3}"#,
        );
        assert_eq!(
            (f.code, f.req, f.kind.as_ref()),
            (Some(ErrorCode::NotYourTurn), Some(3), "error")
        );
    }

    #[test]
    fn violations_are_reported_once_until_a_snapshot() {
        let mut view = View::default();
        let patch2 = r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"replace","path":"/a","value":2}]}"#;
        assert_eq!(
            view.apply(&mut frame(patch2), false),
            Err(Violation::NoSnapshot)
        );
        let snap = r#"{"type":"snapshot","battle_id":"b","seq":1,"view":{"a":1,"l":[1]}}"#;
        view.apply(&mut frame(snap), false).expect("snapshot");
        let gap = r#"{"type":"patch","battle_id":"b","seq":3,"ops":[]}"#;
        assert_eq!(view.apply(&mut frame(gap), false), Err(Violation::Gap));
        // Waiting for the resync: later patches are ignored, not counted again.
        assert_eq!(view.apply(&mut frame(patch2), true), Ok(false));
        view.apply(&mut frame(snap), true).expect("snapshot");
        for bad in [
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"replace","path":"/nope/x","value":2}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"remove","path":"/l/1"}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"add","path":"/l/5","value":0}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"test","path":"/a","value":9}]}"#,
            r#"{"type":"patch","battle_id":"b","seq":2,"ops":[{"op":"move","from":"/a","path":"/b"}]}"#,
        ] {
            view.apply(&mut frame(snap), false).expect("snapshot");
            assert_eq!(
                view.apply(&mut frame(bad), false),
                Err(Violation::BadPatch),
                "{bad}"
            );
        }
    }
}
