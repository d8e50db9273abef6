//! Lobby records: rulesets on offer and the public list of battles.

use serde::{Deserialize, Serialize};

use crate::Seat;

/// A ruleset the server offers, as listed in `welcome`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetInfo {
    /// The id used in `create`.
    pub id: String,
    /// How many seats a battle of this ruleset has.
    pub seats: usize,
    /// One line describing the game and its options.
    pub summary: String,
}

/// Where a battle is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStatus {
    /// Some seat is still free; actions are refused.
    Waiting,
    /// Every seat is filled and the battle runs.
    Playing,
    /// The battle has an outcome; it stays listed for a while.
    Finished,
}

/// One seat as shown in the battle list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: Seat,
    /// Someone (a person or a bot) holds the seat.
    pub taken: bool,
    /// The server plays this seat.
    pub bot: bool,
    /// A connection is attached to the seat right now (always true for bots).
    pub connected: bool,
}

/// One battle as shown by `list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSummary {
    pub battle_id: String,
    pub ruleset: String,
    pub status: BattleStatus,
    pub seats: Vec<SeatInfo>,
    /// How many spectators are watching.
    pub spectators: usize,
}
