//! Turning one client text frame into a [`ClientMsg`], or into the precise error it deserves.
//!
//! The fast path parses straight into the typed message. Only when that fails is the frame
//! looked at again to tell bad JSON from an unknown `type` from wrong fields, and to recover
//! the `req` number so the error can echo it.

use battle_protocol::{ClientMsg, ErrorCode, Req, ServerMsg};
use serde_json::Value;

/// Parse a frame, or build the `error` message that answers it.
pub fn decode(text: &str) -> Result<ClientMsg, ServerMsg> {
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
