//! View diffs: the RFC 6902 patch from one view to the next, kept small for card games.
//!
//! `json_patch::diff` compares arrays position by position, so playing the first card of a
//! hand rewrites every card after it. Views change arrays mostly by removing or inserting a
//! few elements (a card leaves the hand, a log line is appended), so this diff first skips
//! the common prefix and suffix of two arrays and only compares what lies between; when one
//! side has extra elements there, they are placed where the rest line up by identity (an
//! object's `id`, anything else by value), so the others are diffed with their own former
//! selves instead of their neighbours. Objects
//! are compared key by key; successive views hold the same keys in the same order, so both
//! are walked side by side.

use battle_protocol::json_patch::jsonptr::PointerBuf;
use battle_protocol::json_patch::{
    AddOperation, Patch, PatchOperation, RemoveOperation, ReplaceOperation,
};

use crate::ruleset::Viewer;
use crate::view::value::{same_key, write_str, Key, ViewValue};
use crate::view::viewers::Viewers;

/// The JSON pointer of the value being compared, kept as encoded text. Going down a level
/// appends one escaped token, coming back up truncates it: no allocation per step. A
/// `PointerBuf` is only built for the values that produce an operation.
pub(super) struct Path {
    text: String,
    /// Where each pushed token starts in `text`.
    starts: Vec<usize>,
}

/// A path step: an object key or an array index.
trait Step {
    fn write_to(&self, text: &mut String);
}

impl Step for &Key {
    fn write_to(&self, text: &mut String) {
        // RFC 6901 escaping: `~` first, then `/`.
        if !self.contains(['~', '/']) {
            text.push_str(self);
            return;
        }
        for c in self.chars() {
            match c {
                '~' => text.push_str("~0"),
                '/' => text.push_str("~1"),
                c => text.push(c),
            }
        }
    }
}

impl Step for usize {
    fn write_to(&self, text: &mut String) {
        text.push_str(itoa::Buffer::new().format(*self));
    }
}

impl Path {
    fn new() -> Path {
        Path {
            text: String::with_capacity(64),
            starts: Vec::with_capacity(8),
        }
    }

    fn push_back(&mut self, step: impl Step) {
        self.starts.push(self.text.len());
        self.text.push('/');
        step.write_to(&mut self.text);
    }

    fn pop_back(&mut self) {
        if let Some(start) = self.starts.pop() {
            self.text.truncate(start);
        }
    }

    fn pointer(&self) -> PointerBuf {
        PointerBuf::parse(self.text.clone())
            .expect("every token is escaped as it is pushed, so the path is a valid pointer")
    }
}

/// What a diff operation does.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Add,
    Remove,
    Replace,
}

/// Where the diff walk puts the operations it finds.
pub(super) trait Sink {
    /// One operation at `path`, which only `viewers` receive; `value` is `None` for a
    /// removal, and may hold parts marked for some of `viewers` only.
    fn op(&mut self, kind: Kind, path: &Path, viewers: Viewers, value: Option<&ViewValue>);
}

/// Collects `json_patch` operations of a view without marks.
impl Sink for Vec<PatchOperation> {
    fn op(&mut self, kind: Kind, path: &Path, viewers: Viewers, value: Option<&ViewValue>) {
        if viewers != Viewers::ALL {
            // Marked for some viewers only: not part of a view without marks.
            return;
        }
        let path = path.pointer();
        let value = || value.map_or(serde_json::Value::Null, ViewValue::to_value);
        self.push(match kind {
            Kind::Add => PatchOperation::Add(AddOperation {
                path,
                value: value(),
            }),
            Kind::Remove => PatchOperation::Remove(RemoveOperation { path }),
            Kind::Replace => PatchOperation::Replace(ReplaceOperation {
                path,
                value: value(),
            }),
        });
    }
}

/// Writes the operations as the JSON array `serde_json` makes of a `json_patch::Patch`,
/// without building the operations or copying their values first.
struct JsonOps<'a> {
    out: &'a mut Vec<u8>,
    count: usize,
}

impl Sink for JsonOps<'_> {
    fn op(&mut self, kind: Kind, path: &Path, viewers: Viewers, value: Option<&ViewValue>) {
        if viewers != Viewers::ALL {
            // Marked for some viewers only: not part of a view without marks.
            return;
        }
        if self.count > 0 {
            self.out.push(b',');
        }
        self.count += 1;
        write_op(self.out, kind, path, value, None);
    }
}

/// Append one operation as JSON, its value as `viewer` sees it (see
/// [`ViewValue::write_json_as`]); returns whether the value holds marked parts.
pub(super) fn write_op(
    out: &mut Vec<u8>,
    kind: Kind,
    path: &Path,
    value: Option<&ViewValue>,
    viewer: Option<Viewer>,
) -> bool {
    out.extend_from_slice(match kind {
        Kind::Add => b"{\"op\":\"add\",\"path\":",
        Kind::Remove => b"{\"op\":\"remove\",\"path\":",
        Kind::Replace => b"{\"op\":\"replace\",\"path\":",
    });
    write_str(out, &path.text);
    let mut marked = false;
    if let Some(value) = value {
        out.extend_from_slice(b",\"value\":");
        marked = value.write_json_as(viewer, out);
    }
    out.push(b'}');
    marked
}

/// The patch that turns `from` into `to`, two views without marks (one viewer's).
pub fn diff(from: &ViewValue, to: &ViewValue) -> Patch {
    let mut ops = Vec::new();
    diff_value(from, to, &mut Path::new(), Viewers::ALL, &mut ops);
    Patch(ops)
}

/// Walk two views of a battle built for several viewers (see
/// [`Ruleset::view_all`](crate::ruleset::Ruleset::view_all)) and hand `sink` each operation
/// with the viewers among `watching` who receive it. Filtered for one viewer, the
/// operations turn that viewer's projection of `from` into its projection of `to`.
pub(super) fn diff_marked(
    from: &ViewValue,
    to: &ViewValue,
    watching: Viewers,
    sink: &mut impl Sink,
) {
    if !watching.is_empty() {
        diff_value(from, to, &mut Path::new(), watching, sink);
    }
}

/// The patch that turns `from` into `to`, appended to `out` as JSON, byte for byte what
/// `serde_json` writes for [`diff`]'s result; returns the number of operations. The server
/// uses it to build patch frames without an intermediate `Patch`.
pub fn diff_json(from: &ViewValue, to: &ViewValue, out: &mut Vec<u8>) -> usize {
    out.push(b'[');
    let mut sink = JsonOps { out, count: 0 };
    diff_value(from, to, &mut Path::new(), Viewers::ALL, &mut sink);
    let count = sink.count;
    out.push(b']');
    count
}

/// The operations from `from` to `to` at `path`, for `viewers` (never empty).
fn diff_value(
    from: &ViewValue,
    to: &ViewValue,
    path: &mut Path,
    viewers: Viewers,
    ops: &mut impl Sink,
) {
    match (from, to) {
        (ViewValue::Object(a), ViewValue::Object(b)) => diff_object(a, b, path, viewers, ops),
        (ViewValue::List(a), ViewValue::List(b)) => diff_array(a, b, path, viewers, ops),
        // A marked member: those who saw it and still see it get its diff, those who only
        // saw it lose it, those who only see it now get it.
        (ViewValue::Only(saw, a), ViewValue::Only(see, b)) => {
            let (both, gone, new) = (
                *saw & *see & viewers,
                *saw & !*see & viewers,
                !*saw & *see & viewers,
            );
            if !both.is_empty() {
                diff_value(a, b, path, both, ops);
            }
            if !gone.is_empty() {
                ops.op(Kind::Remove, path, gone, None);
            }
            if !new.is_empty() {
                ops.op(Kind::Add, path, new, Some(b));
            }
        }
        (ViewValue::Only(saw, a), b) => {
            if !(*saw & viewers).is_empty() {
                diff_value(a, b, path, *saw & viewers, ops);
            }
            if !(!*saw & viewers).is_empty() {
                ops.op(Kind::Add, path, !*saw & viewers, Some(b));
            }
        }
        (a, ViewValue::Only(see, b)) => {
            if !(*see & viewers).is_empty() {
                diff_value(a, b, path, *see & viewers, ops);
            }
            if !(!*see & viewers).is_empty() {
                ops.op(Kind::Remove, path, !*see & viewers, None);
            }
        }
        _ if from == to => {}
        _ => ops.op(Kind::Replace, path, viewers, Some(to)),
    }
}

/// The viewers among `viewers` who see a member whose value is `value`.
fn seen_by(value: &ViewValue, viewers: Viewers) -> Viewers {
    match value {
        ViewValue::Only(who, _) => *who & viewers,
        _ => viewers,
    }
}

/// A member's value without its mark.
fn unmarked(value: &ViewValue) -> &ViewValue {
    match value {
        ViewValue::Only(_, inner) => inner,
        value => value,
    }
}

/// Whether two member values carry the same mark (or none).
fn same_mark(a: &ViewValue, b: &ViewValue) -> bool {
    match (a, b) {
        (ViewValue::Only(x, _), ViewValue::Only(y, _)) => x == y,
        (ViewValue::Only(..), _) | (_, ViewValue::Only(..)) => false,
        _ => true,
    }
}

fn diff_object(
    from: &[(Key, ViewValue)],
    to: &[(Key, ViewValue)],
    path: &mut Path,
    viewers: Viewers,
    ops: &mut impl Sink,
) {
    // Fast path: successive views are built the same way, so both objects hold the same keys
    // with the same marks in the same order, and their keys are the same literals.
    if from.len() == to.len()
        && from
            .iter()
            .zip(to)
            .all(|(a, b)| same_key(&a.0, &b.0) && same_mark(&a.1, &b.1))
    {
        for ((key, old), (_, new)) in from.iter().zip(to) {
            if !is_container(old) && old == new {
                // Most values do not change: skip the path step for them.
                continue;
            }
            if seen_by(old, viewers).is_empty() {
                // Marked for viewers none of whom is watching.
                continue;
            }
            path.push_back(key);
            diff_value(old, new, path, viewers, ops);
            path.pop_back();
        }
        return;
    }
    // Members are matched by key and mark: the same key may stand once per viewer. A key
    // that stands once on each side is matched by key alone, so that a member whose mark
    // changes (a program revealed when a fight starts) is diffed: viewers who saw it and
    // still see it get its changes, not a removal and an addition.
    for (key, old) in from {
        if partner(to, from, key, old).is_none() && !seen_by(old, viewers).is_empty() {
            path.push_back(key);
            ops.op(Kind::Remove, path, seen_by(old, viewers), None);
            path.pop_back();
        }
    }
    for (key, new) in to {
        let who = seen_by(new, viewers);
        match partner(from, to, key, new) {
            Some(old) => {
                if who.is_empty() && seen_by(old, viewers).is_empty() {
                    continue;
                }
                path.push_back(key);
                diff_value(old, new, path, viewers, ops);
                path.pop_back();
            }
            None if who.is_empty() => {}
            None => {
                path.push_back(key);
                ops.op(Kind::Add, path, who, Some(unmarked(new)));
                path.pop_back();
            }
        }
    }
}

/// The member of `pairs` that `like` (a member of `own` under `key`) is diffed against: the
/// one under `key` with the same mark, or the only one under `key` when `key` stands once in
/// each of `pairs` and `own`.
fn partner<'a>(
    pairs: &'a [(Key, ViewValue)],
    own: &[(Key, ViewValue)],
    key: &Key,
    like: &ViewValue,
) -> Option<&'a ViewValue> {
    find(pairs, key, like).or_else(|| {
        let count =
            |members: &[(Key, ViewValue)]| members.iter().filter(|(k, _)| same_key(k, key)).count();
        (count(pairs) == 1 && count(own) == 1)
            .then(|| pairs.iter().find(|(k, _)| same_key(k, key)).map(|(_, v)| v))
            .flatten()
    })
}

/// Whether `value` is walked into rather than compared whole.
fn is_container(value: &ViewValue) -> bool {
    matches!(
        value,
        ViewValue::Object(_) | ViewValue::List(_) | ViewValue::Only(..)
    )
}

/// The value under `key` with the same mark as `like` in an object's pairs.
fn find<'a>(pairs: &'a [(Key, ViewValue)], key: &Key, like: &ViewValue) -> Option<&'a ViewValue> {
    pairs
        .iter()
        .find(|(k, v)| same_key(k, key) && same_mark(v, like))
        .map(|(_, v)| v)
}

fn diff_array(
    from: &[ViewValue],
    to: &[ViewValue],
    path: &mut Path,
    viewers: Viewers,
    ops: &mut impl Sink,
) {
    let prefix = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    let rest_from = &from[prefix..];
    let rest_to = &to[prefix..];
    let suffix = rest_from
        .iter()
        .rev()
        .zip(rest_to.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let middle_from = &rest_from[..rest_from.len() - suffix];
    let middle_to = &rest_to[..rest_to.len() - suffix];
    // Elements the longer middle has in excess: where they sit, so that the others line up
    // with their counterparts (a card leaving the middle of a hand while another card's flag
    // changes is one removal and one replacement, not a rewrite of every card after it).
    let (short, long) = if middle_from.len() <= middle_to.len() {
        (middle_from, middle_to)
    } else {
        (middle_to, middle_from)
    };
    let extra = long.len() - short.len();
    let at = gap(short, long).unwrap_or(short.len());
    let removing = middle_from.len() > middle_to.len();
    for (offset, (old, new)) in middle_from.iter().zip(middle_to).take(at).enumerate() {
        path.push_back(prefix + offset);
        diff_value(old, new, path, viewers, ops);
        path.pop_back();
    }
    if removing {
        // The removed elements all sit at the same index once each earlier one is gone.
        for _ in 0..extra {
            path.push_back(prefix + at);
            ops.op(Kind::Remove, path, viewers, None);
            path.pop_back();
        }
    } else {
        for (offset, new) in middle_to[at..at + extra].iter().enumerate() {
            path.push_back(prefix + at + offset);
            ops.op(Kind::Add, path, viewers, Some(new));
            path.pop_back();
        }
    }
    for (offset, short_item) in short.iter().enumerate().skip(at) {
        let long_item = &long[offset + extra];
        let (old, new) = if removing {
            (long_item, short_item)
        } else {
            (short_item, long_item)
        };
        path.push_back(prefix + offset + if removing { 0 } else { extra });
        diff_value(old, new, path, viewers, ops);
        path.pop_back();
    }
}

/// Where `long`'s extra elements sit so that every element of `short` lines up with one of
/// the same identity in `long` (`None` when no such place exists, or nothing is extra).
fn gap(short: &[ViewValue], long: &[ViewValue]) -> Option<usize> {
    let extra = long.len() - short.len();
    if extra == 0 || short.is_empty() {
        return None;
    }
    let head = short
        .iter()
        .zip(long)
        .take_while(|(a, b)| same_identity(a, b))
        .count();
    let tail = short
        .iter()
        .rev()
        .zip(long.iter().rev())
        .take_while(|(a, b)| same_identity(a, b))
        .count();
    (head + tail >= short.len()).then_some(head)
}

/// Whether two array elements stand for the same thing: objects with an `id` by their
/// `id`, anything else by its whole value.
fn same_identity(a: &ViewValue, b: &ViewValue) -> bool {
    match (a.get("id"), b.get("id")) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::json_patch;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use serde_json::{json, Value};

    fn check(from: &Value, to: &Value) -> Patch {
        let (a, b) = (ViewValue::from(from), ViewValue::from(to));
        let patch = diff(&a, &b);
        // The streamed form is byte for byte what serde_json makes of the patch.
        let mut json = Vec::new();
        let count = diff_json(&a, &b, &mut json);
        assert_eq!(count, patch.0.len());
        assert_eq!(
            String::from_utf8(json).expect("diff_json writes UTF-8"),
            serde_json::to_string(&patch).expect("patches serialize")
        );
        let mut doc = from.clone();
        json_patch::patch(&mut doc, &patch).expect("our patches always apply");
        assert_eq!(&doc, to, "patch {patch:?} must turn {from} into {to}");
        patch
    }

    #[test]
    fn removing_the_first_card_is_one_op() {
        let from = json!({"hand": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]});
        let to = json!({"hand": [{"id": 2}, {"id": 3}, {"id": 4}]});
        let patch = check(&from, &to);
        assert_eq!(
            serde_json::to_value(&patch).expect("patches serialize"),
            json!([{"op": "remove", "path": "/hand/0"}])
        );
    }

    #[test]
    fn a_card_leaving_mid_hand_while_another_changes_is_two_ops() {
        let card = |id: u32, synergy: bool| json!({"id": id, "synergy": synergy});
        let from =
            json!({"hand": [card(1, false), card(2, false), card(3, false), card(4, false)]});
        let to = json!({"hand": [card(1, true), card(3, false), card(4, false)]});
        let patch = check(&from, &to);
        assert_eq!(
            serde_json::to_value(&patch).expect("patches serialize"),
            json!([{"op": "replace", "path": "/hand/0/synergy", "value": true},
                   {"op": "remove", "path": "/hand/1"}])
        );
        // And the other way round: a card arriving mid-hand.
        let patch = check(&to, &from);
        assert_eq!(
            serde_json::to_value(&patch).expect("patches serialize"),
            json!([{"op": "replace", "path": "/hand/0/synergy", "value": false},
                   {"op": "add", "path": "/hand/1", "value": card(2, false)}])
        );
    }

    #[test]
    fn appending_to_a_log_is_one_add_per_line() {
        let from = json!({"log": ["a", "b"]});
        let to = json!({"log": ["a", "b", "c", "d"]});
        let patch = check(&from, &to);
        assert_eq!(
            serde_json::to_value(&patch).expect("patches serialize"),
            json!([{"op": "add", "path": "/log/2", "value": "c"},
                   {"op": "add", "path": "/log/3", "value": "d"}])
        );
    }

    #[test]
    fn keys_with_slashes_and_tildes_are_escaped() {
        check(
            &json!({"a/b": 1, "c~d": [1]}),
            &json!({"a/b": 2, "c~d": [1, 2], "e": null}),
        );
    }

    fn random_value(rng: &mut ChaCha8Rng, depth: u32) -> Value {
        match rng.random_range(0..if depth == 0 { 3 } else { 6 }) {
            0 => Value::from(rng.random_range(0..4)),
            1 => Value::from(["x", "y", "z"][rng.random_range(0..3)]),
            2 => Value::Null,
            3 | 4 => Value::Array(
                (0..rng.random_range(0..5))
                    .map(|_| random_value(rng, depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..rng.random_range(0..4))
                    .map(|_| {
                        let key =
                            ["k", "id", "m", "n/o", "p~\"q"][rng.random_range(0..5)].to_string();
                        (key, random_value(rng, depth - 1))
                    })
                    .collect(),
            ),
        }
    }

    /// Nudge a value a little, the way views change between two steps.
    fn mutate(rng: &mut ChaCha8Rng, value: &Value) -> Value {
        match value {
            Value::Array(items) => {
                let mut items: Vec<Value> = items.iter().map(|v| mutate(rng, v)).collect();
                match rng.random_range(0..4) {
                    0 if !items.is_empty() => {
                        let at = rng.random_range(0..items.len());
                        items.remove(at);
                    }
                    1 => {
                        let at = rng.random_range(0..=items.len());
                        items.insert(at, random_value(rng, 1));
                    }
                    _ => {}
                }
                Value::Array(items)
            }
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), mutate(rng, v)))
                    .collect(),
            ),
            _ if rng.random_range(0..4) == 0 => random_value(rng, 1),
            other => other.clone(),
        }
    }

    #[test]
    fn random_pairs_always_round_trip() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let from = random_value(&mut rng, 4);
            let to = if rng.random_range(0..2) == 0 {
                mutate(&mut rng, &from)
            } else {
                random_value(&mut rng, 4)
            };
            check(&from, &to);
        }
    }
}
