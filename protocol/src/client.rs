//! Messages a client sends to the server.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Req, Seat};

/// One client-to-server message. Every variant may carry `req`, which the server echoes on
/// the reply (or error) that answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Optional greeting; answered by `welcome` with the rulesets the server offers.
    Hello {
        /// The protocol version the client speaks.
        protocol: u32,
        /// A display name for logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Ask for one page of the public battles, oldest first; answered by `battles`.
    List {
        /// Also list recently finished battles (newest first), whose replays can be asked
        /// for with `replay`. Answered on the first page only (a request without `cursor`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        finished: bool,
        /// Most battles in the page: 1 to [`ClientMsg::LIST_LIMIT_MAX`] (more is taken as
        /// the maximum; 0 is refused with `bad_message`). Default
        /// [`ClientMsg::LIST_LIMIT_DEFAULT`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
        /// Where the page starts: the `next_cursor` of the previous page, passed back as it
        /// came (absent: the first page). The page holds battles created after the last one
        /// of the previous page, so battles coming and going between pages move nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cursor: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Create a battle; answered by `created`. The creator is not seated: it joins next.
    Create {
        /// Ruleset id, e.g. `"synergy"`.
        ruleset: String,
        /// Ruleset-specific options (mode, decks, ...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Value>,
        /// Seats the server plays itself.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        bots: Vec<Seat>,
        /// A private battle is not shown by `list`; it is joined by id.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        private: bool,
        /// Delay before each engine or bot move, in milliseconds (0 for tests and load).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pace_ms: Option<u64>,
        /// How long a seat's holder may be gone before the server's bot decides for it, in
        /// milliseconds (default: the server's `--disconnect-grace-secs`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grace_ms: Option<u64>,
        /// The battle's seed, for a reproducible battle (tests, tournaments, bug reports);
        /// such a battle is marked `seeded` in `list`. Default: a random seed nobody is told.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        /// Spectators receive every change this many milliseconds after the players (at
        /// most 600,000): a player watching from a second connection sees nothing sooner,
        /// and a streamer can delay. Default 0.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spectator_delay_ms: Option<u64>,
        /// The turn timer: `"off"`, or any of `bank_ms`, `increment_ms`, `cap_ms`,
        /// `forfeit_after` (the others from the ruleset's default). Default: the ruleset's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timer: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Take a seat (the first free one when `seat` is absent); answered by `joined` + `snapshot`.
    Join {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// What the player brings to the seat (a deck, a class, a party), checked by the
        /// ruleset (`bad_setup` when refused); absent: the ruleset's default.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Take back a seat with its token; answered by `joined` + `snapshot`.
    Rejoin {
        battle_id: String,
        token: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Watch a battle; answered by `spectating` + `snapshot`.
    Spectate {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Make a move: `action` is one of the legal actions listed in the seat's view.
    Act {
        battle_id: String,
        action: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Ask for a fresh `snapshot` (after a gap in `seq`).
    Resync {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Give up the battle this connection holds a seat in: it ends at once and the other
    /// seats win. Answered by the patch (carrying `req`) that ends it.
    Resign {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Stop receiving a battle's updates; answered by `left`.
    Leave {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Wait for opponents: the matchmaker puts this connection in the pool of everyone who
    /// asked for the same ruleset with the same options, answers `queued`, and once the pool
    /// holds a battle's worth of people sends each of them `matched` and a `snapshot`.
    Queue {
        /// Ruleset id, e.g. `"synergy"`.
        ruleset: String,
        /// The battle's options, as in `create` (not with `sample`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Value>,
        /// The name of one of the ruleset's samples (as `welcome` lists them), standing for
        /// its options (not with `options`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sample: Option<String>,
        /// What this player brings to their seat, as in `join`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<Value>,
        /// With no match within this many milliseconds (at most
        /// [`ClientMsg::BOT_AFTER_MS_MAX`]), play the server's bots instead.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot_after_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Stop waiting for opponents; answered by `unqueued`.
    Unqueue {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Ask for a finished battle as its spectators saw it; answered by `replay`.
    Replay {
        battle_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Liveness check; answered by `pong`.
    Ping {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
}

impl ClientMsg {
    /// The `type` names the server understands, in documentation order.
    pub const TYPES: [&'static str; 14] = [
        "hello", "list", "create", "join", "rejoin", "spectate", "act", "resync", "resign",
        "leave", "queue", "unqueue", "replay", "ping",
    ];

    /// The longest `bot_after_ms` a `queue` may ask for: ten minutes.
    pub const BOT_AFTER_MS_MAX: u64 = 600_000;

    /// Battles in a `list` page when the request gives no `limit`.
    pub const LIST_LIMIT_DEFAULT: u32 = 50;

    /// Most battles in one `list` page; a larger `limit` is taken as this.
    pub const LIST_LIMIT_MAX: u32 = 200;

    /// The correlation number the client attached, if any.
    pub fn req(&self) -> Option<Req> {
        match self {
            ClientMsg::Hello { req, .. }
            | ClientMsg::List { req, .. }
            | ClientMsg::Create { req, .. }
            | ClientMsg::Join { req, .. }
            | ClientMsg::Rejoin { req, .. }
            | ClientMsg::Spectate { req, .. }
            | ClientMsg::Act { req, .. }
            | ClientMsg::Resync { req, .. }
            | ClientMsg::Resign { req, .. }
            | ClientMsg::Leave { req, .. }
            | ClientMsg::Queue { req, .. }
            | ClientMsg::Unqueue { req }
            | ClientMsg::Replay { req, .. }
            | ClientMsg::Ping { req } => *req,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn act_round_trips() {
        let text = r#"{"type":"act","battle_id":"b1","action":{"kind":"end_turn"},"req":7}"#;
        let msg: ClientMsg = serde_json::from_str(text).expect("valid act message");
        assert_eq!(
            msg,
            ClientMsg::Act {
                battle_id: "b1".into(),
                action: json!({"kind": "end_turn"}),
                req: Some(7)
            }
        );
        assert_eq!(msg.req(), Some(7));
        let back: Value = serde_json::to_value(&msg).expect("serializable");
        assert_eq!(
            back,
            serde_json::from_str::<Value>(text).expect("valid json")
        );
    }

    #[test]
    fn create_defaults() {
        let msg: ClientMsg =
            serde_json::from_str(r#"{"type":"create","ruleset":"synergy"}"#).expect("valid");
        assert_eq!(
            msg,
            ClientMsg::Create {
                ruleset: "synergy".into(),
                options: None,
                bots: vec![],
                private: false,
                pace_ms: None,
                grace_ms: None,
                seed: None,
                spectator_delay_ms: None,
                timer: None,
                req: None
            }
        );
    }

    #[test]
    fn list_pages_default_to_the_first_page() {
        let msg: ClientMsg = serde_json::from_str(r#"{"type":"list"}"#).expect("valid");
        assert_eq!(
            msg,
            ClientMsg::List {
                finished: false,
                limit: None,
                cursor: None,
                req: None
            }
        );
        let text = r#"{"type":"list","limit":20,"cursor":"41","req":3}"#;
        let msg: ClientMsg = serde_json::from_str(text).expect("valid");
        assert_eq!(
            serde_json::to_value(&msg).expect("serializable"),
            serde_json::from_str::<Value>(text).expect("valid json")
        );
        assert!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"list","limit":-1}"#).is_err(),
            "a limit is a count"
        );
    }

    #[test]
    fn queue_round_trips_and_defaults() {
        let text = r#"{"type":"queue","ruleset":"synergy","sample":"pvp","setup":{"deck":["C001"]},"bot_after_ms":5000,"req":4}"#;
        let msg: ClientMsg = serde_json::from_str(text).expect("valid queue message");
        assert_eq!(
            msg,
            ClientMsg::Queue {
                ruleset: "synergy".into(),
                options: None,
                sample: Some("pvp".into()),
                setup: Some(json!({"deck": ["C001"]})),
                bot_after_ms: Some(5000),
                req: Some(4)
            }
        );
        assert_eq!(msg.req(), Some(4));
        assert_eq!(
            serde_json::to_value(&msg).expect("serializable"),
            serde_json::from_str::<Value>(text).expect("valid json")
        );
        let bare: ClientMsg = serde_json::from_str(r#"{"type":"unqueue"}"#).expect("valid unqueue");
        assert_eq!(bare, ClientMsg::Unqueue { req: None });
        assert!(
            serde_json::from_str::<ClientMsg>(r#"{"type":"queue","ruleset":"x","seat":1}"#)
                .is_err(),
            "a queue names no seat"
        );
    }

    #[test]
    fn every_type_name_parses() {
        for t in ClientMsg::TYPES {
            // Fields a variant does not have are refused, so build each minimal message.
            let minimal = match t {
                "hello" => json!({"type": t, "protocol": 1}),
                "list" | "ping" | "unqueue" => json!({"type": t}),
                "queue" => json!({"type": t, "ruleset": "x"}),
                "create" => json!({"type": t, "ruleset": "x"}),
                "rejoin" => json!({"type": t, "battle_id": "b", "token": "t"}),
                "act" => json!({"type": t, "battle_id": "b", "action": {}}),
                _ => json!({"type": t, "battle_id": "b"}),
            };
            serde_json::from_value::<ClientMsg>(minimal).expect("each documented type parses");
        }
    }
}
