//! `ViewTracker`: one viewer's copy of a battle view, kept current by snapshots and patches.
//!
//! The server sends a `snapshot` (the whole view at some `seq`) and then one `patch` per change,
//! each numbered exactly one more than the previous message this viewer got for the battle.
//! The server may also send a change as a whole snapshot (when that is smaller than the
//! patch); a snapshot always replaces the view, whatever its `seq`.
//! The tracker applies them in order and refuses anything out of order: a patch whose `seq` is
//! not `current + 1` means a message was lost, and the caller should send `resync` and feed the
//! snapshot that answers it. A refused message leaves the tracker exactly as it was.
//!
//! The view is the server's envelope:
//! `{"battle_id","ruleset","status","seat","to_act","legal","outcome","game"}`; the helpers
//! read those fields and never look inside `game`, which belongs to the ruleset.

use battle_protocol::json_patch::{self, PatchError};
use battle_protocol::{BattleStatus, Req, Seat, ServerMsg};
use serde_json::Value;

/// What [`ViewTracker::apply`] did with a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// A snapshot replaced the view; the tracker is now at `seq`.
    Snapshot {
        /// The snapshot's sequence number.
        seq: u64,
        /// Set when the snapshot answers this client's `resync`, or stands in for the patch
        /// answering its own accepted `act`.
        req: Option<Req>,
    },
    /// A patch moved the view forward to `seq`.
    Patch {
        /// The patch's sequence number (the previous one plus one).
        seq: u64,
        /// Set when the patch answers this client's own accepted `act`.
        req: Option<Req>,
    },
    /// The message is not a snapshot or patch of this tracker's battle; nothing changed.
    Ignored,
}

/// Why a snapshot or patch could not be applied. The tracker is unchanged in every case.
#[derive(Debug, thiserror::Error)]
pub enum TrackError {
    /// A patch skipped or repeated a sequence number: a message was lost (or duplicated).
    /// Send `resync` and apply the snapshot that comes back.
    #[error("sequence gap: expected patch {expected}, got {got}")]
    Gap {
        /// The only `seq` the next patch may have.
        expected: u64,
        /// The `seq` the patch had.
        got: u64,
    },
    /// A patch arrived before any snapshot of the battle.
    #[error("patch {seq} arrived before any snapshot")]
    NoSnapshot {
        /// The `seq` the patch had.
        seq: u64,
    },
    /// The patch does not fit the tracked view (a path that does not exist, a failed test).
    #[error("patch {seq} does not apply: {source}")]
    Patch {
        /// The `seq` the patch had.
        seq: u64,
        /// What json-patch reported.
        #[source]
        source: PatchError,
    },
}

/// One viewer's view of one battle.
#[derive(Debug, Clone)]
pub struct ViewTracker {
    battle_id: String,
    /// `(seq, view)` once a snapshot has arrived.
    state: Option<(u64, Value)>,
}

impl ViewTracker {
    /// A tracker for `battle_id` that waits for its first snapshot.
    pub fn new(battle_id: impl Into<String>) -> ViewTracker {
        ViewTracker {
            battle_id: battle_id.into(),
            state: None,
        }
    }

    /// A tracker holding `view` of `battle_id` at `seq`, as if its snapshot had just been
    /// applied (screens drawn from a saved or made-up view, tests).
    pub fn with_view(battle_id: impl Into<String>, seq: u64, view: Value) -> ViewTracker {
        ViewTracker {
            battle_id: battle_id.into(),
            state: Some((seq, view)),
        }
    }

    /// Feed one server message. Snapshots of this battle replace the view, patches of this
    /// battle advance it, everything else is [`Applied::Ignored`].
    pub fn apply(&mut self, msg: &ServerMsg) -> Result<Applied, TrackError> {
        match msg {
            ServerMsg::Snapshot {
                battle_id,
                seq,
                view,
                req,
            } if *battle_id == self.battle_id => {
                self.state = Some((*seq, view.clone()));
                Ok(Applied::Snapshot {
                    seq: *seq,
                    req: *req,
                })
            }
            ServerMsg::Patch {
                battle_id,
                seq,
                ops,
                req,
            } if *battle_id == self.battle_id => {
                let Some((current, view)) = self.state.as_mut() else {
                    return Err(TrackError::NoSnapshot { seq: *seq });
                };
                let expected = *current + 1;
                if *seq != expected {
                    return Err(TrackError::Gap {
                        expected,
                        got: *seq,
                    });
                }
                // `json_patch::patch` undoes the operations it applied when a later one
                // fails, so an error leaves the view untouched.
                json_patch::patch(view, ops)
                    .map_err(|source| TrackError::Patch { seq: *seq, source })?;
                *current = *seq;
                Ok(Applied::Patch {
                    seq: *seq,
                    req: *req,
                })
            }
            _ => Ok(Applied::Ignored),
        }
    }

    /// The battle this tracker follows.
    pub fn battle_id(&self) -> &str {
        &self.battle_id
    }

    /// The sequence number of the last applied snapshot or patch.
    pub fn seq(&self) -> Option<u64> {
        self.state.as_ref().map(|(seq, _)| *seq)
    }

    /// The whole current view, once a snapshot has arrived.
    pub fn view(&self) -> Option<&Value> {
        self.state.as_ref().map(|(_, view)| view)
    }

    /// The ruleset's own part of the view (`view.game`).
    pub fn game(&self) -> Option<&Value> {
        self.field("game")
    }

    /// The battle's status (`waiting`, `playing`, `finished`).
    pub fn status(&self) -> Option<BattleStatus> {
        self.field("status")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    }

    /// The seat this view belongs to; `None` for a spectator (or before any snapshot).
    pub fn seat(&self) -> Option<Seat> {
        self.field("seat")
            .and_then(Value::as_u64)
            .and_then(|s| usize::try_from(s).ok())
    }

    /// The seats whose decision the battle waits on now.
    pub fn to_act(&self) -> Vec<Seat> {
        self.field("to_act")
            .and_then(Value::as_array)
            .map(|seats| {
                seats
                    .iter()
                    .filter_map(Value::as_u64)
                    .filter_map(|s| usize::try_from(s).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// True when this view's own seat is among [`ViewTracker::to_act`].
    pub fn my_turn(&self) -> bool {
        self.seat()
            .is_some_and(|seat| self.to_act().contains(&seat))
    }

    /// The actions this seat may send now, each usable as `act.action` as it is.
    pub fn legal_actions(&self) -> &[Value] {
        self.field("legal")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The outcome (`{"winners":[..],"summary":".."}`) once the battle is over.
    pub fn outcome(&self) -> Option<&Value> {
        self.field("outcome").filter(|v| !v.is_null())
    }

    /// True once the view carries an outcome.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    fn field(&self, name: &str) -> Option<&Value> {
        self.view().and_then(|view| view.get(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn snapshot(battle_id: &str, seq: u64, view: Value) -> ServerMsg {
        ServerMsg::Snapshot {
            battle_id: battle_id.into(),
            seq,
            view,
            req: None,
        }
    }

    fn patch(battle_id: &str, seq: u64, ops: Value, req: Option<Req>) -> ServerMsg {
        ServerMsg::Patch {
            battle_id: battle_id.into(),
            seq,
            ops: serde_json::from_value(ops).expect("valid RFC 6902 patch"),
            req,
        }
    }

    fn waiting_view() -> Value {
        json!({
            "battle_id": "b1", "ruleset": "synergy", "status": "waiting", "seat": 0,
            "to_act": [], "legal": [], "outcome": null,
            "game": {"round": 0, "sides": [{"hp": 30}, {"hp": 30}]}
        })
    }

    #[test]
    fn snapshot_then_patches() {
        let mut t = ViewTracker::new("b1");
        assert_eq!(t.seq(), None);
        assert_eq!(t.status(), None);
        assert!(t.legal_actions().is_empty());

        assert_eq!(
            t.apply(&snapshot("b1", 4, waiting_view()))
                .expect("snapshot"),
            Applied::Snapshot { seq: 4, req: None }
        );
        assert_eq!(t.seq(), Some(4));
        assert_eq!(t.status(), Some(BattleStatus::Waiting));
        assert_eq!(t.seat(), Some(0));
        assert!(!t.my_turn());

        let start = json!([
            {"op": "replace", "path": "/status", "value": "playing"},
            {"op": "replace", "path": "/to_act", "value": [0]},
            {"op": "add", "path": "/legal/0", "value": {"kind": "end_turn"}},
        ]);
        assert_eq!(
            t.apply(&patch("b1", 5, start, None)).expect("patch 5"),
            Applied::Patch { seq: 5, req: None }
        );
        assert_eq!(t.status(), Some(BattleStatus::Playing));
        assert_eq!(t.to_act(), vec![0]);
        assert!(t.my_turn());
        assert_eq!(t.legal_actions(), &[json!({"kind": "end_turn"})]);

        let end = json!([
            {"op": "replace", "path": "/status", "value": "finished"},
            {"op": "replace", "path": "/to_act", "value": []},
            {"op": "replace", "path": "/legal", "value": []},
            {"op": "replace", "path": "/outcome", "value": {"winners": [0], "summary": "won"}},
            {"op": "replace", "path": "/game/sides/1/hp", "value": 0},
        ]);
        assert_eq!(
            t.apply(&patch("b1", 6, end, Some(9))).expect("patch 6"),
            Applied::Patch {
                seq: 6,
                req: Some(9)
            }
        );
        assert_eq!(t.status(), Some(BattleStatus::Finished));
        assert_eq!(
            t.outcome(),
            Some(&json!({"winners": [0], "summary": "won"}))
        );
        assert!(t.is_over());
        assert_eq!(t.game().expect("game")["sides"][1]["hp"], json!(0));

        // A later snapshot replaces everything, even at a lower seq.
        t.apply(&snapshot("b1", 2, waiting_view()))
            .expect("snapshot");
        assert_eq!(t.seq(), Some(2));
        assert!(!t.is_over());
    }

    #[test]
    fn gap_is_refused_and_leaves_the_view_alone() {
        let mut t = ViewTracker::new("b1");
        t.apply(&snapshot("b1", 1, waiting_view()))
            .expect("snapshot");
        let ops = json!([{"op": "replace", "path": "/status", "value": "playing"}]);

        match t.apply(&patch("b1", 3, ops.clone(), None)) {
            Err(TrackError::Gap {
                expected: 2,
                got: 3,
            }) => {}
            other => panic!("expected a gap, got {other:?}"),
        }
        // A repeated patch is a gap too.
        match t.apply(&patch("b1", 1, ops.clone(), None)) {
            Err(TrackError::Gap {
                expected: 2,
                got: 1,
            }) => {}
            other => panic!("expected a gap, got {other:?}"),
        }
        assert_eq!(t.seq(), Some(1));
        assert_eq!(t.view(), Some(&waiting_view()));

        // The right patch still applies afterwards.
        t.apply(&patch("b1", 2, ops, None)).expect("patch 2");
        assert_eq!(t.status(), Some(BattleStatus::Playing));
    }

    #[test]
    fn bad_patch_is_refused_and_rolled_back() {
        let mut t = ViewTracker::new("b1");
        t.apply(&snapshot("b1", 1, waiting_view()))
            .expect("snapshot");
        // The first operation applies, the second names a missing path: both must be undone.
        let ops = json!([
            {"op": "replace", "path": "/status", "value": "playing"},
            {"op": "replace", "path": "/game/nowhere/deep", "value": 1},
        ]);
        match t.apply(&patch("b1", 2, ops, None)) {
            Err(TrackError::Patch { seq: 2, .. }) => {}
            other => panic!("expected a patch error, got {other:?}"),
        }
        assert_eq!(t.seq(), Some(1));
        assert_eq!(t.view(), Some(&waiting_view()));

        // A failing `test` operation is refused as well.
        let ops = json!([{"op": "test", "path": "/status", "value": "finished"}]);
        assert!(matches!(
            t.apply(&patch("b1", 2, ops, None)),
            Err(TrackError::Patch { .. })
        ));
        assert_eq!(t.seq(), Some(1));
    }

    #[test]
    fn patch_before_snapshot_is_refused() {
        let mut t = ViewTracker::new("b1");
        let ops = json!([{"op": "replace", "path": "/status", "value": "playing"}]);
        assert!(matches!(
            t.apply(&patch("b1", 1, ops, None)),
            Err(TrackError::NoSnapshot { seq: 1 })
        ));
        assert_eq!(t.view(), None);
    }

    #[test]
    fn other_battles_and_messages_are_ignored() {
        let mut t = ViewTracker::new("b1");
        t.apply(&snapshot("b1", 1, waiting_view()))
            .expect("snapshot");
        let ops = json!([{"op": "replace", "path": "/status", "value": "playing"}]);
        assert_eq!(
            t.apply(&patch("b2", 7, ops, None)).expect("ignored"),
            Applied::Ignored
        );
        assert_eq!(
            t.apply(&snapshot("b2", 1, json!({}))).expect("ignored"),
            Applied::Ignored
        );
        assert_eq!(
            t.apply(&ServerMsg::Pong { req: None }).expect("ignored"),
            Applied::Ignored
        );
        assert_eq!(t.seq(), Some(1));
        assert_eq!(t.view(), Some(&waiting_view()));
    }

    #[test]
    fn spectator_view_has_no_seat() {
        let mut view = waiting_view();
        view["seat"] = Value::Null;
        view["to_act"] = json!([0]);
        let mut t = ViewTracker::new("b1");
        t.apply(&snapshot("b1", 0, view)).expect("snapshot");
        assert_eq!(t.seat(), None);
        assert_eq!(t.to_act(), vec![0]);
        assert!(!t.my_turn());
    }
}
