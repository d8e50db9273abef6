//! `ClientError`: everything that can go wrong on a client's connection to the server.

use std::time::Duration;

use tokio_tungstenite::tungstenite;

/// Why a [`Connection`](crate::Connection) call failed.
///
/// A refused *request* is not a `ClientError`: the server answers it with an ordinary
/// [`ServerMsg::Error`](battle_protocol::ServerMsg::Error) message and the connection stays
/// usable. These errors are about the transport itself.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The WebSocket handshake or the underlying socket failed.
    #[error("websocket error: {0}")]
    WebSocket(#[from] tungstenite::Error),

    /// The server closed the connection (a close frame, or the stream simply ended).
    #[error("connection closed by the server (code {code:?}: {reason:?})")]
    Closed {
        /// The close code the server sent, if it sent a close frame.
        code: Option<u16>,
        /// The close reason the server sent (empty when none).
        reason: String,
    },

    /// Nothing arrived within the time the caller allowed.
    #[error("no message within {0:?}")]
    Timeout(Duration),

    /// The server sent a text frame that is not a valid server message.
    #[error("undecodable server message {text:?}: {source}")]
    Decode {
        /// The frame as received.
        text: String,
        /// What serde_json disliked about it.
        #[source]
        source: serde_json::Error,
    },

    /// The server sent a binary frame; protocol version 1 only uses text frames.
    #[error("unexpected binary frame of {0} bytes")]
    Binary(usize),

    /// A client message could not be turned into JSON (it holds a non-serializable value).
    #[error("cannot encode client message: {0}")]
    Encode(#[source] serde_json::Error),

    /// The server answered a request with an `error`.
    #[error("the server refused: {0}")]
    Refused(String),
}

impl ClientError {
    /// True when the error means the connection is gone (closed, reset or ended), as opposed
    /// to a timeout or a single bad frame.
    pub fn is_closed(&self) -> bool {
        match self {
            ClientError::Closed { .. } => true,
            ClientError::WebSocket(e) => matches!(
                e,
                tungstenite::Error::ConnectionClosed
                    | tungstenite::Error::AlreadyClosed
                    | tungstenite::Error::Io(_)
                    | tungstenite::Error::Protocol(_)
            ),
            _ => false,
        }
    }
}
