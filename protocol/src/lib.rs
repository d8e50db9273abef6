//! The public contract between the battle server and its clients: protocol version 1.
//!
//! Every frame is one JSON object in a WebSocket text frame with a `type` field. Client
//! messages are [`ClientMsg`], server messages are [`ServerMsg`]; failures carry an
//! [`ErrorCode`] from one stable list. `PROTOCOL.md` at the repository root documents every
//! message with an example.

pub mod choose;
mod client;
mod error;
mod lobby;
mod replay;
mod server;

pub use client::ClientMsg;
pub use error::ErrorCode;
pub use lobby::{BattleStatus, BattleSummary, RulesetInfo, SampleInfo, SeatInfo};
pub use replay::{FinishedSummary, OutcomeInfo, OutcomeReason, Replay};
pub use server::ServerMsg;

/// Re-exported so clients can apply patches with the same types the server produces.
pub use json_patch;

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// A seat number inside a battle, starting at 0.
pub type Seat = usize;

/// A client-chosen correlation number, echoed on the reply it caused.
pub type Req = u64;
