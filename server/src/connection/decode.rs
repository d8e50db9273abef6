//! Turning one client text frame into a [`ClientMsg`], or into the precise error it deserves.
//!
//! The fast path parses straight into the typed message: an `act`, by far the most frequent
//! message, as a plain struct (serde reads an internally tagged enum into an intermediate
//! tree first, copying every key and value), anything else as a [`ClientMsg`]. Only when
//! that fails is the frame looked at again to tell bad JSON from an unknown `type` from wrong
//! fields, and to recover the `req` number so the error can echo it.

use battle_protocol::{ClientMsg, ErrorCode, Req, ServerMsg};
use serde::Deserialize;
use serde_json::Value;

/// An `act` message, read without the enum's intermediate tree. It accepts exactly the
/// `act` frames [`ClientMsg`] accepts; whatever it refuses goes through `ClientMsg`, which
/// accepts or explains it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    #[serde(rename = "type")]
    _kind: ActTag,
    battle_id: String,
    action: Value,
    #[serde(default)]
    req: Option<Req>,
}

/// The `type` of an [`Act`]: `"act"` and nothing else.
#[derive(Deserialize)]
enum ActTag {
    #[serde(rename = "act")]
    Act,
}

/// Parse a frame, or build the `error` message that answers it.
pub fn decode(text: &str) -> Result<ClientMsg, ServerMsg> {
    if let Ok(act) = serde_json::from_str::<Act>(text) {
        let ActTag::Act = act._kind;
        return Ok(ClientMsg::Act {
            battle_id: act.battle_id,
            action: act.action,
            req: act.req,
        });
    }
    match serde_json::from_str::<ClientMsg>(text) {
        Ok(msg) => Ok(msg),
        Err(typed_err) => Err(diagnose(text, &typed_err)),
    }
}

fn diagnose(text: &str, typed_err: &serde_json::Error) -> ServerMsg {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => {
            return ServerMsg::error(
                ErrorCode::BadJson,
                format!("the frame is not JSON: {err}"),
                None,
            )
        }
    };
    let Some(object) = value.as_object() else {
        return ServerMsg::error(ErrorCode::BadJson, "a message must be a JSON object", None);
    };
    let req: Option<Req> = object.get("req").and_then(Value::as_u64);
    match object.get("type").and_then(Value::as_str) {
        None => ServerMsg::error(
            ErrorCode::UnknownType,
            "a message needs a string field \"type\"",
            req,
        ),
        Some(kind) if !ClientMsg::TYPES.contains(&kind) => ServerMsg::error(
            ErrorCode::UnknownType,
            format!(
                "unknown message type {kind:?}; known: {}",
                ClientMsg::TYPES.join(", ")
            ),
            req,
        ),
        Some(kind) => ServerMsg::error(
            ErrorCode::BadMessage,
            format!("bad {kind:?} message: {typed_err}"),
            req,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn act_frames_decode_as_the_enum_decodes_them() {
        for text in [
            r#"{"type":"act","battle_id":"b1","action":{"kind":"end_turn"},"req":7}"#,
            r#"{"battle_id":"b1","req":null,"action":[1,{"a":null}],"type":"act"}"#,
            r#"{"type":"act","battle_id":"b\"2","action":null}"#,
            r#"{"type":"act","battle_id":"b1","action":1,"extra":2}"#,
            r#"{"type":"act","battle_id":"b1","action":1,"action":2}"#,
            r#"{"type":"act","battle_id":"b1"}"#,
            r#"{"type":"act","battle_id":"b1","action":1,"req":-1}"#,
            r#"{"type":"Act","battle_id":"b1","action":1}"#,
            r#"{"type":"join","battle_id":"b1","action":1}"#,
        ] {
            let general = serde_json::from_str::<ClientMsg>(text).map_err(|e| diagnose(text, &e));
            assert_eq!(decode(text), general, "{text}");
        }
    }

    fn code_of(text: &str) -> (ErrorCode, Option<Req>) {
        match decode(text) {
            Err(ServerMsg::Error { code, req, .. }) => (code, req),
            other => panic!("expected an error for {text}, got {other:?}"),
        }
    }

    #[test]
    fn classifies_every_kind_of_bad_frame() {
        assert_eq!(code_of("not json"), (ErrorCode::BadJson, None));
        assert_eq!(code_of("[1,2]"), (ErrorCode::BadJson, None));
        assert_eq!(code_of(r#"{"req":4}"#), (ErrorCode::UnknownType, Some(4)));
        assert_eq!(
            code_of(r#"{"type":"dance","req":5}"#),
            (ErrorCode::UnknownType, Some(5))
        );
        assert_eq!(
            code_of(r#"{"type":"join","req":6}"#),
            (ErrorCode::BadMessage, Some(6))
        );
        assert_eq!(
            code_of(r#"{"type":"join","battle_id":3}"#),
            (ErrorCode::BadMessage, None)
        );
        assert_eq!(
            code_of(r#"{"type":"ping","extra":true}"#),
            (ErrorCode::BadMessage, None)
        );
    }

    #[test]
    fn good_frames_parse() {
        assert_eq!(
            decode(r#"{"type":"ping","req":1}"#),
            Ok(ClientMsg::Ping { req: Some(1) })
        );
    }
}
