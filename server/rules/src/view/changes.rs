//! `Changes`: one change of a battle, diffed once for all of its audiences.
//!
//! The actor builds the battle's view for every watching viewer at once (see
//! [`Ruleset::view_all`](crate::ruleset::Ruleset::view_all)) before and after a change, and
//! diffs the two once. Each operation is serialized once, tagged with the viewers who may
//! receive it; an audience's patch is then the operations tagged for its viewer, copied in
//! order. An operation whose value holds parts marked for some viewers only is serialized
//! once per viewer, each copy showing only what that viewer sees. So no audience is ever
//! sent bytes written for another.

use std::ops::Range;

use super::diff::{diff_marked, write_op, Kind, Path, Sink};
use crate::ruleset::Viewer;
use crate::view::value::ViewValue;
use crate::view::viewers::Viewers;

/// The serialized operations of one change, each tagged with the viewers who receive it.
#[derive(Debug, Default)]
pub struct Changes {
    /// Every operation's JSON, one after another.
    bytes: Vec<u8>,
    /// Where each operation lies in `bytes`, and who receives it; in patch order.
    ops: Vec<(Range<usize>, Viewers)>,
}

impl Changes {
    /// The operations turning `before` into `after` (two views built for all of `watching`
    /// at once) for the viewers in `watching`.
    pub fn between(before: &ViewValue, after: &ViewValue, watching: Viewers) -> Changes {
        let mut changes = Changes {
            bytes: Vec::with_capacity(1024),
            ops: Vec::with_capacity(24),
        };
        diff_marked(before, after, watching, &mut changes);
        changes
    }

    /// Append `viewer`'s operations to `out`, comma-separated, in patch order; returns how
    /// many were appended.
    pub fn write_for(&self, viewer: Viewer, out: &mut Vec<u8>) -> usize {
        let mut count = 0;
        for (range, viewers) in &self.ops {
            if viewers.contains(viewer) {
                if count > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(&self.bytes[range.clone()]);
                count += 1;
            }
        }
        count
    }

    /// Bytes of all operations together, over all viewers (a bound on one viewer's share).
    pub fn bytes_len(&self) -> usize {
        self.bytes.len()
    }

    /// How many operations there are over all viewers.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the change changed nothing anyone watching sees.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

impl Sink for Changes {
    fn op(&mut self, kind: Kind, path: &Path, viewers: Viewers, value: Option<&ViewValue>) {
        let mut each = viewers.iter();
        let Some(first) = each.next() else {
            return;
        };
        let start = self.bytes.len();
        if !write_op(&mut self.bytes, kind, path, value, Some(first)) {
            // Nothing in the value is marked: the same bytes for every one of `viewers`.
            self.ops.push((start..self.bytes.len(), viewers));
            return;
        }
        // The value shows viewers different things: one copy per viewer.
        self.ops.push((start..self.bytes.len(), Viewers::of(first)));
        for viewer in each {
            let start = self.bytes.len();
            write_op(&mut self.bytes, kind, path, value, Some(viewer));
            self.ops
                .push((start..self.bytes.len(), Viewers::of(viewer)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Viewer;
    use crate::view::diff::diff_json;

    fn only(viewers: Viewers, value: ViewValue) -> ViewValue {
        ViewValue::Only(viewers, Box::new(value))
    }

    /// A view with a public counter, a hand per seat and a per-viewer `legal` list.
    fn table(hp: i64, hands: [&[i64]; 2], legal: [&[i64]; 2]) -> ViewValue {
        let list = |items: &[i64]| ViewValue::List(items.iter().map(|&n| n.into()).collect());
        let side = |seat: usize| {
            ViewValue::object([
                ("hand", only(Viewers::seat(seat), list(hands[seat]))),
                ("hand_count", hands[seat].len().into()),
            ])
        };
        let mut pairs = vec![
            ("hp".into(), hp.into()),
            ("legal".into(), only(Viewers::SPECTATORS, list(&[]))),
            ("legal".into(), only(Viewers::seat(0), list(legal[0]))),
            ("legal".into(), only(Viewers::seat(1), list(legal[1]))),
        ];
        pairs.push(("sides".into(), ViewValue::List(vec![side(0), side(1)])));
        ViewValue::Object(pairs)
    }

    const EVERYONE: [Viewer; 3] = [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)];

    /// Each viewer's share of the changes is byte for byte the diff of its own views.
    fn check(before: &ViewValue, after: &ViewValue) -> Changes {
        let watching: Viewers = EVERYONE.into_iter().collect();
        let changes = Changes::between(before, after, watching);
        for viewer in EVERYONE {
            let mut mine = b"[".to_vec();
            changes.write_for(viewer, &mut mine);
            mine.push(b']');
            let mut expected = Vec::new();
            diff_json(
                &before.project(viewer),
                &after.project(viewer),
                &mut expected,
            );
            assert_eq!(
                String::from_utf8(mine).expect("UTF-8"),
                String::from_utf8(expected).expect("UTF-8"),
                "{viewer:?}"
            );
        }
        changes
    }

    #[test]
    fn each_viewer_gets_its_own_hand_and_legal_changes_only() {
        let before = table(10, [&[1, 2, 3], &[7, 8]], [&[1, 2, 3], &[]]);
        let after = table(9, [&[1, 3], &[7, 8, 9]], [&[1, 3], &[]]);
        let changes = check(&before, &after);
        let mut spectator = Vec::new();
        changes.write_for(Viewer::Spectator, &mut spectator);
        let text = String::from_utf8(spectator).expect("UTF-8");
        assert!(!text.contains("hand/"), "{text}");
        assert!(!text.contains("legal"), "{text}");
        let mut seat1 = Vec::new();
        changes.write_for(Viewer::Seat(1), &mut seat1);
        let text = String::from_utf8(seat1).expect("UTF-8");
        assert!(text.contains("/sides/1/hand/2"), "{text}");
        assert!(!text.contains("/sides/0/hand/"), "{text}");
    }

    #[test]
    fn a_value_with_marked_parts_is_written_per_viewer() {
        let before = ViewValue::object([("sides", ViewValue::List(Vec::new()))]);
        let after = table(3, [&[5], &[6]], [&[], &[]]);
        let ViewValue::Object(pairs) = &after else {
            unreachable!("table builds an object")
        };
        let sides = pairs
            .iter()
            .find(|(k, _)| k == "sides")
            .map(|(_, v)| v.clone());
        let after = ViewValue::object([("sides", sides.expect("table has sides"))]);
        let changes = check(&before, &after);
        // Two added sides, each written once per viewer: nobody's copy holds another's hand.
        assert_eq!(changes.len(), 6);
        let mut spectator = Vec::new();
        changes.write_for(Viewer::Spectator, &mut spectator);
        assert!(!String::from_utf8(spectator)
            .expect("UTF-8")
            .contains("\"hand\""));
    }

    #[test]
    fn marks_appearing_and_disappearing_add_and_remove_members() {
        let plain = ViewValue::object([("x", 1.into())]);
        let marked = ViewValue::object([("x", only(Viewers::seat(0), 2.into()))]);
        let watching: Viewers = EVERYONE.into_iter().collect();
        for (before, after) in [(&plain, &marked), (&marked, &plain)] {
            let changes = Changes::between(before, after, watching);
            for viewer in EVERYONE {
                let mut ops = b"[".to_vec();
                changes.write_for(viewer, &mut ops);
                ops.push(b']');
                let ops: battle_protocol::json_patch::Patch =
                    serde_json::from_slice(&ops).expect("operations parse");
                let mut doc = before.project(viewer).to_value();
                battle_protocol::json_patch::patch(&mut doc, &ops).expect("operations apply");
                assert_eq!(doc, after.project(viewer).to_value(), "{viewer:?}");
            }
        }
    }

    #[test]
    fn viewers_not_watching_cost_nothing() {
        let before = table(10, [&[1], &[2]], [&[1], &[]]);
        let after = table(10, [&[], &[2, 3]], [&[], &[]]);
        let changes = Changes::between(&before, &after, Viewers::SPECTATORS);
        // Only hand counts changed for spectators; the hands and legal lists are skipped.
        assert_eq!(changes.len(), 2);
        assert!(Changes::between(&before, &after, Viewers::NONE).is_empty());
    }

    /// Random views with marked members, and changes of them (marks included), for
    /// [`random_changes_apply_for_every_viewer_and_leak_nothing`].
    mod random {
        use super::*;
        use crate::view::value::Key;
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;

        pub struct Gen {
            pub rng: ChaCha8Rng,
            secrets: u32,
        }

        /// The viewers the tests watch as: spectators and two seats.
        pub fn sets() -> [Viewers; 3] {
            [Viewers::SPECTATORS, Viewers::seat(0), Viewers::seat(1)]
        }

        impl Gen {
            pub fn new(seed: u64) -> Gen {
                Gen {
                    rng: ChaCha8Rng::seed_from_u64(seed),
                    secrets: 0,
                }
            }

            /// A non-empty set of the three viewers.
            fn viewers(&mut self) -> Viewers {
                let bits = self.rng.random_range(1..8u64);
                sets()
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .fold(Viewers::NONE, |set, (_, v)| set | *v)
            }

            /// A scalar; inside a marked value, text is a fresh secret.
            fn scalar(&mut self, hidden: bool) -> ViewValue {
                match self.rng.random_range(0..4) {
                    0 => ViewValue::Int(self.rng.random_range(0..3)),
                    1 => ViewValue::Bool(self.rng.random()),
                    2 if hidden => {
                        self.secrets += 1;
                        ViewValue::from(format!("secret-{}-", self.secrets))
                    }
                    2 => ["x", "y"][self.rng.random_range(0..2)].into(),
                    _ => ViewValue::Null,
                }
            }

            pub fn value(&mut self, depth: u32, hidden: bool) -> ViewValue {
                match self.rng.random_range(0..if depth == 0 { 1 } else { 4 }) {
                    0 => self.scalar(hidden),
                    1 => ViewValue::List(
                        (0..self.rng.random_range(0..4))
                            .map(|_| self.value(depth - 1, hidden))
                            .collect(),
                    ),
                    _ => self.object(depth - 1, hidden),
                }
            }

            /// An object whose members may be marked; `per_viewer` is one key given once
            /// per viewer, as the envelope gives `legal`.
            pub fn object(&mut self, depth: u32, hidden: bool) -> ViewValue {
                let mut pairs: Vec<(Key, ViewValue)> = Vec::new();
                for key in ["a", "b", "c", "d"] {
                    match self.rng.random_range(0..6) {
                        0 => {}
                        1 | 2 => {
                            let who = self.viewers();
                            let value = self.value(depth, true);
                            pairs.push((key.into(), ViewValue::Only(who, Box::new(value))));
                        }
                        3 if depth > 0 => {
                            for who in sets() {
                                let value = self.value(depth - 1, true);
                                pairs.push((key.into(), ViewValue::Only(who, Box::new(value))));
                            }
                        }
                        _ => pairs.push((key.into(), self.value(depth, hidden))),
                    }
                }
                ViewValue::Object(pairs)
            }

            /// `value` changed a little: scalars, list items, members, and marks.
            pub fn mutate(&mut self, value: &ViewValue, depth: u32, hidden: bool) -> ViewValue {
                match value {
                    ViewValue::List(items) => {
                        let mut items: Vec<ViewValue> = items
                            .iter()
                            .map(|item| self.mutate(item, depth.saturating_sub(1), hidden))
                            .collect();
                        match self.rng.random_range(0..4) {
                            0 if !items.is_empty() => {
                                let at = self.rng.random_range(0..items.len());
                                items.remove(at);
                            }
                            1 => {
                                let at = self.rng.random_range(0..=items.len());
                                let item = self.value(1, hidden);
                                items.insert(at, item);
                            }
                            _ => {}
                        }
                        ViewValue::List(items)
                    }
                    ViewValue::Object(pairs) => {
                        let per_viewer = |pairs: &[(Key, ViewValue)], key: &Key| {
                            pairs.iter().filter(|(k, _)| k == key).count() > 1
                        };
                        let mut out: Vec<(Key, ViewValue)> = Vec::new();
                        for (key, member) in pairs {
                            let grouped = per_viewer(pairs, key);
                            let member = match member {
                                ViewValue::Only(who, inner) => {
                                    let inner = self.mutate(inner, depth.saturating_sub(1), true);
                                    match self.rng.random_range(0..8) {
                                        // A single member's mark changes, or goes.
                                        0 if !grouped => {
                                            ViewValue::Only(self.viewers(), Box::new(inner))
                                        }
                                        1 if !grouped => inner,
                                        2 if !grouped => continue,
                                        _ => ViewValue::Only(*who, Box::new(inner)),
                                    }
                                }
                                plain => {
                                    let plain = self.mutate(plain, depth.saturating_sub(1), hidden);
                                    match self.rng.random_range(0..10) {
                                        0 => ViewValue::Only(self.viewers(), Box::new(plain)),
                                        1 => continue,
                                        _ => plain,
                                    }
                                }
                            };
                            out.push((key.clone(), member));
                        }
                        if self.rng.random_range(0..6) == 0 && !out.iter().any(|(k, _)| k == "e") {
                            let value = self.value(1, hidden);
                            out.push(("e".into(), value));
                        }
                        ViewValue::Object(out)
                    }
                    _ if self.rng.random_range(0..3) == 0 => self.scalar(hidden),
                    other => other.clone(),
                }
            }
        }

        /// Every secret written in `json`.
        pub fn secrets(json: &str) -> Vec<&str> {
            json.match_indices("secret-")
                .map(|(at, _)| {
                    let end = json[at + 7..].find('-').map_or(json.len(), |n| at + 8 + n);
                    &json[at..end]
                })
                .collect()
        }
    }

    #[test]
    fn random_changes_apply_for_every_viewer_and_leak_nothing() {
        use battle_protocol::json_patch;
        let watching = random::sets()
            .iter()
            .fold(Viewers::NONE, |set, viewers| set | *viewers);
        for seed in 0..3000 {
            let mut gen = random::Gen::new(seed);
            let before = gen.object(3, false);
            let after = gen.mutate(&before, 3, false);
            let changes = Changes::between(&before, &after, watching);
            for viewer in EVERYONE {
                let mut share = b"[".to_vec();
                changes.write_for(viewer, &mut share);
                share.push(b']');
                let share = String::from_utf8(share).expect("UTF-8");
                let ops: json_patch::Patch = serde_json::from_str(&share)
                    .unwrap_or_else(|e| panic!("seed {seed} {viewer:?}: {e}: {share}"));
                let mut doc = before.project(viewer).to_value();
                json_patch::patch(&mut doc, &ops)
                    .unwrap_or_else(|e| panic!("seed {seed} {viewer:?}: {e}: {share}"));
                assert_eq!(
                    doc,
                    after.project(viewer).to_value(),
                    "seed {seed} {viewer:?}: {share}"
                );
                let seen = after.project(viewer).to_json();
                let allowed = random::secrets(&seen);
                for secret in random::secrets(&share) {
                    assert!(
                        allowed.contains(&secret),
                        "seed {seed}: {viewer:?} was sent {secret}, which it may not see: {share}"
                    );
                }
            }
        }
    }
}
