//! The stable list of error codes the server sends in `error` messages.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a request was refused. The snake_case name is the wire form and never changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame is not valid JSON (or not a JSON object).
    BadJson,
    /// The `type` field is missing or names no message.
    UnknownType,
    /// The message has the right `type` but its fields are wrong or missing.
    BadMessage,
    /// A binary frame, or a frame larger than the server accepts.
    UnsupportedFrame,
    /// `hello` named a protocol version this server does not speak.
    UnsupportedProtocol,
    /// `create` named a ruleset the server does not have.
    UnknownRuleset,
    /// `create` carried options (or bots) the ruleset refuses.
    BadOptions,
    /// `join` carried a setup (deck, class, party, ...) the ruleset refuses.
    BadSetup,
    /// No battle has that id (it never existed or has expired).
    NoSuchBattle,
    /// The requested seat is already held by someone.
    SeatTaken,
    /// The seat number does not exist in this battle, or is played by the engine.
    BadSeat,
    /// Every seat is taken.
    NoFreeSeat,
    /// The seat token does not match any seat of this battle.
    BadToken,
    /// This connection holds no seat in, and is not watching, that battle.
    NotInBattle,
    /// Actions are refused until every seat is filled.
    NotStarted,
    /// The battle has ended; no more actions or seats.
    BattleOver,
    /// It is not this seat's turn to decide.
    NotYourTurn,
    /// The action is well formed but the rules do not allow it now.
    IllegalAction,
    /// The action is not one of the shapes this ruleset understands.
    BadAction,
    /// Spectators can watch but not act.
    SpectatorsCannotAct,
    /// `replay` named a battle that is still being played: spectate it instead.
    NotFinished,
    /// `queue` from a connection already waiting in the queue: nothing changed.
    AlreadyQueued,
    /// `unqueue` from a connection that is not waiting in the queue.
    NotQueued,
    /// The server is at a configured limit (battles, queue); try again later.
    ServerBusy,
    /// The connection sent more requests than its rate allows; nothing was done. The error
    /// carries `retry_after_ms`, the time to wait before the request would be accepted.
    RateLimited,
    /// In a cluster of servers, the battle's log cannot be written (the shared store is out
    /// of reach): the action was not taken and nothing changed. Retry once the service is
    /// back; nothing that was acknowledged is ever lost.
    StoreUnavailable,
    /// In a cluster of servers, the server that held this request (a `create`, `join`,
    /// `rejoin` or `spectate` made through another) stopped before it answered: the request
    /// may or may not have been carried out. Look (`list`, `rejoin`) or ask again.
    NodeLost,
    /// Something went wrong inside the server; the request had no effect.
    Internal,
}

impl ErrorCode {
    /// Every code, in documentation order.
    pub const ALL: [ErrorCode; 28] = [
        ErrorCode::BadJson,
        ErrorCode::UnknownType,
        ErrorCode::BadMessage,
        ErrorCode::UnsupportedFrame,
        ErrorCode::UnsupportedProtocol,
        ErrorCode::UnknownRuleset,
        ErrorCode::BadOptions,
        ErrorCode::BadSetup,
        ErrorCode::NoSuchBattle,
        ErrorCode::SeatTaken,
        ErrorCode::BadSeat,
        ErrorCode::NoFreeSeat,
        ErrorCode::BadToken,
        ErrorCode::NotInBattle,
        ErrorCode::NotStarted,
        ErrorCode::BattleOver,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalAction,
        ErrorCode::BadAction,
        ErrorCode::SpectatorsCannotAct,
        ErrorCode::NotFinished,
        ErrorCode::AlreadyQueued,
        ErrorCode::NotQueued,
        ErrorCode::ServerBusy,
        ErrorCode::RateLimited,
        ErrorCode::StoreUnavailable,
        ErrorCode::NodeLost,
        ErrorCode::Internal,
    ];

    /// The wire name, e.g. `"not_your_turn"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad_json",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::UnsupportedFrame => "unsupported_frame",
            ErrorCode::UnsupportedProtocol => "unsupported_protocol",
            ErrorCode::UnknownRuleset => "unknown_ruleset",
            ErrorCode::BadOptions => "bad_options",
            ErrorCode::BadSetup => "bad_setup",
            ErrorCode::NoSuchBattle => "no_such_battle",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::BadSeat => "bad_seat",
            ErrorCode::NoFreeSeat => "no_free_seat",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::NotInBattle => "not_in_battle",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::BattleOver => "battle_over",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::BadAction => "bad_action",
            ErrorCode::SpectatorsCannotAct => "spectators_cannot_act",
            ErrorCode::NotFinished => "not_finished",
            ErrorCode::AlreadyQueued => "already_queued",
            ErrorCode::NotQueued => "not_queued",
            ErrorCode::ServerBusy => "server_busy",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::StoreUnavailable => "store_unavailable",
            ErrorCode::NodeLost => "node_lost",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_match_as_str() {
        for code in ErrorCode::ALL {
            let wire = serde_json::to_value(code).expect("unit variant serializes");
            assert_eq!(wire, serde_json::Value::String(code.as_str().to_string()));
            let back: ErrorCode = serde_json::from_value(wire).expect("round trip");
            assert_eq!(back, code);
        }
    }
}
