//! Lobby records: rulesets on offer and the public list of battles.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Seat;

/// A ruleset the server offers, as listed in `welcome`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesetInfo {
    /// The id used in `create`.
    pub id: String,
    /// The ruleset's version (raised whenever the same inputs could play differently).
    pub version: u32,
    /// One line describing the game and its options.
    pub summary: String,
    /// Fewest seats a battle of this ruleset has.
    pub min_seats: usize,
    /// Most seats a battle of this ruleset has (each battle's own count depends on its
    /// options).
    pub max_seats: usize,
    /// Named option sets, the first being the default: what clients offer and load tests
    /// play.
    pub samples: Vec<SampleInfo>,
}

/// A named set of `create` options of a ruleset, with the battle it makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleInfo {
    /// A short name, e.g. `"pvp"`.
    pub name: String,
    /// One line saying what it plays.
    pub about: String,
    /// The options to send in `create`.
    pub options: Value,
    /// Seats of a battle made with these options.
    pub seats: usize,
    /// Of those, the seats the server's engine always plays (never offered to people).
    pub engine_seats: Vec<Seat>,
}

/// Where a battle is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// The seat's name in every text the server writes: the name its holder gave in
    /// `hello`, or a server bot's name when the ruleset gives it one (made distinct from
    /// the other seats' names). Absent otherwise: clients then say `"Player " + (seat + 1)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
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
    /// Created with a `seed` chosen by its creator: reproducible, so its moves could be
    /// known in advance by whoever knows the seed. Absent (false) for the others.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seeded: bool,
    /// In a cluster of servers: the id of the node that runs the battle now. Absent on a
    /// single server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
}
