//! [`Refusal`]: a request turned down, with its stable wire code and the sentence the client
//! is shown. Every layer refuses with it: the store, battles, the lobby, quotas, the
//! matchmaker; the edge turns it into an `error` message (or an HTTP problem).

use battle_protocol::{ErrorCode, ServerMsg};

/// A request turned down: the code clients act on, and words for the person who asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// The stable wire code.
    pub code: ErrorCode,
    /// What went wrong, in words for the person who asked.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code`, saying `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The `error` message answering request `req` (if numbered) with this refusal.
    pub fn to_msg(self, req: Option<u64>) -> ServerMsg {
        ServerMsg::error(self.code, self.message, req)
    }
}
