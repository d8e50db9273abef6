//! Messages the server sends to a client.

use json_patch::Patch;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{BattleSummary, ErrorCode, FinishedSummary, Replay, Req, RulesetInfo, Seat};

/// One server-to-client message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Answer to `hello`.
    Welcome {
        /// Server name and version.
        server: String,
        protocol: u32,
        rulesets: Vec<RulesetInfo>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `list`: one page of the public battles, oldest first.
    Battles {
        battles: Vec<BattleSummary>,
        /// How many public battles there are in all (on every page).
        #[serde(default)]
        total: usize,
        /// Pass it back as `list`'s `cursor` for the next page; absent on the last page.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next_cursor: Option<String>,
        /// With `list`'s `finished`: recently finished public battles, newest first.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        finished: Option<Vec<FinishedSummary>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `create`.
    Created {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `join` and `rejoin`; a `snapshot` follows.
    Joined {
        battle_id: String,
        seat: Seat,
        /// Secret that lets this seat be taken back with `rejoin`.
        token: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// A queue found this player a battle: the seat it holds there and the seat's token, as
    /// `joined` gives them; the battle's `snapshot` follows. `req` is the `queue`'s.
    Matched {
        battle_id: String,
        seat: Seat,
        /// Secret that lets this seat be taken back with `rejoin`.
        token: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `queue`: the connection waits for opponents.
    Queued {
        /// The ruleset asked for.
        ruleset: String,
        /// How many players wait in the same pool (same ruleset, same options), this one
        /// included.
        waiting: usize,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// The connection no longer waits in the queue.
    Unqueued {
        /// `"requested"` (answering `unqueue`, whose `req` it carries) or `"server_busy"` (a
        /// match was found but the server could not make its battle; the `queue`'s `req`).
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `spectate`; a `snapshot` follows.
    Spectating {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// The whole view of the battle for this viewer at `seq`; replaces any view held before.
    Snapshot {
        battle_id: String,
        seq: u64,
        view: Value,
        /// Set when this snapshot answers the receiver's `resync`, or stands in for the patch
        /// that answers its own accepted `act`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// RFC 6902 patch from this viewer's view at `seq - 1` to its view at `seq`. `req` is set
    /// on the patch that answers the receiver's own accepted `act`.
    Patch {
        battle_id: String,
        seq: u64,
        ops: Patch,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// This connection no longer receives the battle's updates.
    Left {
        battle_id: String,
        /// `"requested"`, `"replaced"` (the seat was rejoined elsewhere), `"expired"`.
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `replay`: the finished battle as its spectators saw it.
    Replay {
        replay: Box<Replay>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Answer to `ping`.
    Pong {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// A request was refused; nothing changed.
    Error {
        code: ErrorCode,
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        battle_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
        /// With `rate_limited`: milliseconds to wait before the request would be accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<u64>,
    },
}

impl ServerMsg {
    /// Shorthand for an `error` message.
    pub fn error(code: ErrorCode, message: impl Into<String>, req: Option<Req>) -> ServerMsg {
        ServerMsg::Error {
            code,
            message: message.into(),
            battle_id: None,
            req,
            retry_after_ms: None,
        }
    }

    /// A `rate_limited` error: nothing was done; the request would be accepted after
    /// `retry_after_ms` milliseconds.
    pub fn rate_limited(
        message: impl Into<String>,
        retry_after_ms: u64,
        req: Option<Req>,
    ) -> ServerMsg {
        ServerMsg::Error {
            code: ErrorCode::RateLimited,
            message: message.into(),
            battle_id: None,
            req,
            retry_after_ms: Some(retry_after_ms),
        }
    }

    /// Serialize to the text of one frame.
    pub fn to_text(&self) -> String {
        // Every field is a plain value, a string-keyed map or a serde_json::Value, all of which
        // serialize without error.
        serde_json::to_string(self).expect("server messages always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patch_serializes_as_rfc6902() {
        let ops: Patch =
            serde_json::from_value(json!([{"op": "replace", "path": "/hp", "value": 5}]))
                .expect("valid patch");
        let msg = ServerMsg::Patch {
            battle_id: "b".into(),
            seq: 3,
            ops,
            req: Some(9),
        };
        let v: Value = serde_json::from_str(&msg.to_text()).expect("valid json");
        assert_eq!(
            v,
            json!({"type": "patch", "battle_id": "b", "seq": 3,
                "ops": [{"op": "replace", "path": "/hp", "value": 5}], "req": 9})
        );
        let back: ServerMsg = serde_json::from_value(v).expect("round trip");
        assert_eq!(back, msg);
    }

    #[test]
    fn battles_carry_the_total_and_the_next_cursor_until_the_last_page() {
        let page = ServerMsg::Battles {
            battles: vec![],
            total: 120,
            next_cursor: Some("49".into()),
            finished: None,
            req: Some(2),
        };
        let v: Value = serde_json::from_str(&page.to_text()).expect("valid json");
        assert_eq!(
            v,
            json!({"type": "battles", "battles": [], "total": 120, "next_cursor": "49",
                "req": 2})
        );
        let last = ServerMsg::Battles {
            battles: vec![],
            total: 0,
            next_cursor: None,
            finished: None,
            req: None,
        };
        let v: Value = serde_json::from_str(&last.to_text()).expect("valid json");
        assert_eq!(v, json!({"type": "battles", "battles": [], "total": 0}));
    }

    #[test]
    fn queue_answers_serialize_as_documented() {
        let cases = [
            (
                ServerMsg::Queued {
                    ruleset: "synergy".into(),
                    waiting: 1,
                    req: Some(4),
                },
                json!({"type": "queued", "ruleset": "synergy", "waiting": 1, "req": 4}),
            ),
            (
                ServerMsg::Matched {
                    battle_id: "b".into(),
                    seat: 1,
                    token: "t".into(),
                    req: Some(4),
                },
                json!({"type": "matched", "battle_id": "b", "seat": 1, "token": "t", "req": 4}),
            ),
            (
                ServerMsg::Unqueued {
                    reason: "requested".into(),
                    req: None,
                },
                json!({"type": "unqueued", "reason": "requested"}),
            ),
        ];
        for (msg, want) in cases {
            let v: Value = serde_json::from_str(&msg.to_text()).expect("valid json");
            assert_eq!(v, want);
            let back: ServerMsg = serde_json::from_value(v).expect("round trip");
            assert_eq!(back, msg);
        }
    }

    #[test]
    fn error_has_code_string() {
        let v: Value =
            serde_json::from_str(&ServerMsg::error(ErrorCode::NotYourTurn, "wait", None).to_text())
                .expect("valid json");
        assert_eq!(
            v,
            json!({"type": "error", "code": "not_your_turn", "message": "wait"})
        );
    }

    #[test]
    fn rate_limited_carries_the_time_to_wait() {
        let text = ServerMsg::rate_limited("slow down", 250, Some(7)).to_text();
        let v: Value = serde_json::from_str(&text).expect("valid json");
        assert_eq!(
            v,
            json!({"type": "error", "code": "rate_limited", "message": "slow down",
                   "req": 7, "retry_after_ms": 250})
        );
        let back: ServerMsg = serde_json::from_str(&text).expect("round trip");
        assert!(matches!(
            back,
            ServerMsg::Error {
                code: ErrorCode::RateLimited,
                retry_after_ms: Some(250),
                ..
            }
        ));
    }
}
