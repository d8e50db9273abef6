//! The messages a battle actor accepts.

use battle_protocol::{Req, Seat};
use battle_rules::ruleset::Viewer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::Instant;

use crate::connection::outbox::Outbox;

/// What a connection is in a battle, as its node knows it (for taking it back to a battle
/// that moved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum Role {
    /// Watching.
    Spectator,
    /// Holding `seat`, whose token hashes to `token_hash`.
    Seat { seat: Seat, token_hash: String },
}

/// One of this node's connections in a battle that lets it go (the battle moves to another
/// node): what it was there, so that it can be taken back where the battle goes.
#[derive(Debug, Clone)]
pub struct Present {
    /// The connection.
    pub outbox: Outbox,
    /// Its audience.
    pub viewer: Viewer,
    /// For a seat: its token's hash.
    pub token_hash: Option<String>,
}

/// One request to a battle actor. Each carries the requesting connection's outbox, through
/// which the actor answers (it never awaits a client).
#[derive(Debug)]
pub enum Command {
    /// Take a seat (the first free one when `seat` is `None`), bringing `setup` to it, the
    /// seat named `name` (the connection's `hello` name); answered as `answer` says.
    Join {
        from: Outbox,
        seat: Option<Seat>,
        setup: Option<Value>,
        name: Option<String>,
        req: Option<Req>,
        answer: Seating,
    },
    /// Take back the seat this token belongs to.
    Rejoin {
        from: Outbox,
        token: String,
        req: Option<Req>,
    },
    /// Watch the battle.
    Spectate { from: Outbox, req: Option<Req> },
    /// Make a move for the connection's seat.
    Act {
        from: Outbox,
        action: Value,
        req: Option<Req>,
        /// When the move arrived, for the latency histogram.
        received: Instant,
    },
    /// Send the connection a fresh snapshot.
    Resync { from: Outbox, req: Option<Req> },
    /// Stop sending the connection updates.
    Leave { from: Outbox, req: Option<Req> },
    /// The seat `from` holds gives up the battle.
    Resign { from: Outbox, req: Option<Req> },
    /// The connection closed.
    Disconnected { from: Outbox },
    /// In a cluster, the battle moved here (or a node lost its pub/sub connection): take
    /// the connection back as it was (the seat whose token hashes as `role` says, or a
    /// spectator), sending it a snapshot only.
    Reattach { from: Outbox, role: Role },
    /// In a cluster, the battle is another node's now (or is being handed to one): stop
    /// without a word to anyone, and hand back this node's connections in it.
    LetGo {
        reply: tokio::sync::oneshot::Sender<Vec<Present>>,
    },
}

/// How a seat taken with [`Command::Join`] is answered, before the snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seating {
    /// `joined`: the connection asked for the seat with `join`.
    Joined,
    /// `matched`: the matchmaker seats a connection that waited in its queue (and posted the
    /// battle to the connection's mailbox).
    Matched,
}
