//! Replays: a finished battle as its spectators saw it, and the records `list` gives for
//! recently finished battles.

use json_patch::Patch;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Seat;

/// How a battle ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeInfo {
    /// One sentence in the third person, true for every reader, e.g. "Ana wins with 20
    /// lore." or "Player 2 forfeits on time: Player 1 wins.".
    pub summary: String,
    /// The seats that won; empty for a draw.
    pub winners: Vec<Seat>,
    /// How it ended (`other` for a battle kept before the server said).
    #[serde(default)]
    pub reason: OutcomeReason,
}

/// How a battle ended, as `outcome.reason` says it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeReason {
    /// A side's health (its hero, its party, its HP) reached 0.
    Knockout,
    /// The game's count decided it: points, lore, a score.
    Score,
    /// A one-player run ended by its own end: every encounter won, or the run lost.
    Completed,
    /// A seat resigned.
    Resignation,
    /// A seat forfeited on time.
    Time,
    /// A turn, round or tick limit ended it.
    Limit,
    /// Anything else.
    #[default]
    Other,
}

impl OutcomeReason {
    /// Every reason, in the order above.
    pub const ALL: [OutcomeReason; 7] = [
        OutcomeReason::Knockout,
        OutcomeReason::Score,
        OutcomeReason::Completed,
        OutcomeReason::Resignation,
        OutcomeReason::Time,
        OutcomeReason::Limit,
        OutcomeReason::Other,
    ];

    /// The wire word, e.g. `"time"`.
    pub fn as_str(self) -> &'static str {
        match self {
            OutcomeReason::Knockout => "knockout",
            OutcomeReason::Score => "score",
            OutcomeReason::Completed => "completed",
            OutcomeReason::Resignation => "resignation",
            OutcomeReason::Time => "time",
            OutcomeReason::Limit => "limit",
            OutcomeReason::Other => "other",
        }
    }
}

/// One recently finished battle, as `list` with `finished` gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinishedSummary {
    pub battle_id: String,
    pub ruleset: String,
    /// How many seats the battle had.
    pub seats: usize,
    /// The seats the server played.
    pub bots: Vec<Seat>,
    pub outcome: OutcomeInfo,
    /// When the battle ended, in Unix milliseconds.
    pub ended_at: u64,
    /// How many steps its replay has after the start.
    pub steps: usize,
    /// Created with a `seed` chosen by its creator. Absent (false) for the others.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seeded: bool,
}

/// A finished battle as its spectators saw it: the spectator view when it started, then one
/// patch per step (a move, an engine step, a timeout, a resignation), ending on its result.
///
/// Step `n`'s view is `start` with the first `n` patches applied, in order. Each view is
/// the envelope a spectator held (see PROTOCOL.md) with its `log`, without the two members
/// that depend on when it was watched rather than on the battle: `seats` (who was connected)
/// and `clocks` (the turn timer's deadlines). Nothing a spectator could not see is in it: no
/// hand, no seed, no player's input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub battle_id: String,
    pub ruleset: String,
    /// The ruleset's version the battle was played with.
    pub version: u32,
    /// How many seats the battle had.
    pub seats: usize,
    /// The seats the server played.
    pub bots: Vec<Seat>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seeded: bool,
    pub outcome: OutcomeInfo,
    /// When the battle ended, in Unix milliseconds.
    pub ended_at: u64,
    /// The spectator view once every seat was set up.
    pub start: Value,
    /// One RFC 6902 patch per step after the start.
    pub steps: Vec<Patch>,
}

impl Replay {
    /// Every step's view, the start first: `steps.len() + 1` views. Fails if a patch does not
    /// apply (a damaged file).
    pub fn views(&self) -> Result<Vec<Value>, json_patch::PatchError> {
        let mut views = Vec::with_capacity(self.steps.len() + 1);
        let mut view = self.start.clone();
        views.push(view.clone());
        for patch in &self.steps {
            json_patch::patch(&mut view, patch)?;
            views.push(view.clone());
        }
        Ok(views)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcome_reasons_have_their_wire_words_and_old_outcomes_read_as_other() {
        for reason in OutcomeReason::ALL {
            assert_eq!(
                serde_json::to_value(reason).expect("serializes"),
                json!(reason.as_str())
            );
        }
        let old: OutcomeInfo =
            serde_json::from_value(json!({"summary": "Player 1 wins.", "winners": [0]}))
                .expect("an outcome without a reason");
        assert_eq!(old.reason, OutcomeReason::Other);
        let new = OutcomeInfo {
            summary: "Player 2 forfeits on time: Player 1 wins.".into(),
            winners: vec![0],
            reason: OutcomeReason::Time,
        };
        assert_eq!(
            serde_json::to_value(&new).expect("serializes"),
            json!({"summary": "Player 2 forfeits on time: Player 1 wins.", "winners": [0],
                   "reason": "time"})
        );
    }

    #[test]
    fn views_apply_each_step_in_order() {
        let replay: Replay = serde_json::from_value(json!({
            "battle_id": "b1", "ruleset": "synergy", "version": 3, "seats": 2, "bots": [1],
            "outcome": {"summary": "Seat 0 wins", "winners": [0]}, "ended_at": 1,
            "start": {"turn": 1, "log": []},
            "steps": [
                [{"op": "replace", "path": "/turn", "value": 2},
                 {"op": "add", "path": "/log/0", "value": "a"}],
                [{"op": "replace", "path": "/turn", "value": 3}]
            ]
        }))
        .expect("a replay");
        assert!(!replay.seeded, "absent means not seeded");
        let views = replay.views().expect("the patches apply");
        assert_eq!(
            views,
            vec![
                json!({"turn": 1, "log": []}),
                json!({"turn": 2, "log": ["a"]}),
                json!({"turn": 3, "log": ["a"]}),
            ]
        );
    }
}
