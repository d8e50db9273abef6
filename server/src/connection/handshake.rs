//! The opening handshake (RFC 6455 §4.2): tungstenite's, bounded in time, with an HTTP
//! answer for every request it refuses.
//!
//! Everything about the HTTP request that opens a connection is here: a socket that has not
//! finished its handshake within the timeout (silent, half-open, or trickling a byte at a
//! time) is answered `408` and closed; a request that is not a WebSocket opening handshake
//! gets `400 Bad Request` (or `431` for too many header fields) with a body saying what is
//! wrong, and one asking for another protocol version gets `426 Upgrade Required` with
//! `Sec-WebSocket-Version: 13`. tungstenite reads and checks the request; its error says
//! which answer fits.

use std::time::Duration;

use thiserror::Error;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::error::{CapacityError, Error as WsError, ProtocolError};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::http_refusal::HttpRefusal;

/// The one WebSocket version this server speaks (RFC 6455).
pub const WEBSOCKET_VERSION: &str = "13";

/// Why an opening handshake produced no WebSocket.
#[derive(Debug, Error)]
pub enum HandshakeError {
    /// The handshake was not over within the time allowed (answered `408`).
    #[error("the opening handshake did not complete within {0:?}")]
    TimedOut(Duration),
    /// The request was refused with an HTTP status.
    #[error("refused with HTTP {status}: {reason}")]
    Refused {
        /// The status sent.
        status: u16,
        /// The body sent, saying why.
        reason: String,
    },
    /// The client went away, or the socket failed, before the handshake was over.
    #[error("the connection ended during the opening handshake: {0}")]
    Gone(String),
}

/// Settings for the opening handshake. The WebSocket it would produce is only unwrapped for
/// its socket, so its buffers are kept small: the library's 128 KiB read buffer would be
/// allocated (and freed) for every connection.
fn handshake_config(max_frame_bytes: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_message_size(Some(max_frame_bytes))
        .max_frame_size(Some(max_frame_bytes))
}

/// Run the opening handshake on `stream` within `timeout`; the socket, ready for frames.
///
/// A refused or timed-out request is answered in plain HTTP before the socket is closed.
/// The future is large (the library's handshake state): a caller that lives on after the
/// handshake should box it, so that its size is given back once the handshake is over.
pub async fn accept(
    mut stream: TcpStream,
    timeout: Duration,
    max_frame_bytes: usize,
) -> Result<TcpStream, HandshakeError> {
    let config = handshake_config(max_frame_bytes);
    // The library works on a borrowed socket, so a refused request can still be answered.
    let handshake = tokio_tungstenite::accept_async_with_config(&mut stream, Some(config));
    let error = match tokio::time::timeout(timeout, handshake).await {
        // A client sends nothing after its opening handshake until the server's answer has
        // arrived (RFC 6455 §4.1; the library refuses a request with anything behind it), so
        // nothing past the handshake was read and the socket can be taken back as it is.
        Ok(Ok(websocket)) => {
            drop(websocket);
            return Ok(stream);
        }
        Ok(Err(error)) => error,
        Err(_) => {
            timed_out(timeout).send(stream).await;
            return Err(HandshakeError::TimedOut(timeout));
        }
    };
    match refusal(&error) {
        Some(refusal) => {
            refusal.send(stream).await;
            Err(HandshakeError::Refused {
                status: refusal.status,
                reason: refusal.body,
            })
        }
        None => Err(HandshakeError::Gone(error.to_string())),
    }
}

/// The answer to a handshake that took too long.
fn timed_out(timeout: Duration) -> HttpRefusal {
    HttpRefusal {
        status: 408,
        reason: "Request Timeout",
        headers: Vec::new(),
        body: format!(
            "the WebSocket opening handshake must complete within {} ms",
            timeout.as_millis()
        ),
    }
}

/// The HTTP answer to a request tungstenite refused; `None` when there is nobody to answer
/// (the client went away, the socket failed).
fn refusal(error: &WsError) -> Option<HttpRefusal> {
    let bad = |body: String| HttpRefusal {
        status: 400,
        reason: "Bad Request",
        headers: Vec::new(),
        body,
    };
    let body = match error {
        WsError::ConnectionClosed | WsError::AlreadyClosed | WsError::Io(_) => return None,
        WsError::Protocol(ProtocolError::HandshakeIncomplete) => return None,
        WsError::Protocol(ProtocolError::MissingSecWebSocketVersionHeader) => {
            return Some(HttpRefusal {
                status: 426,
                reason: "Upgrade Required",
                headers: vec![
                    ("Upgrade", "websocket".into()),
                    ("Sec-WebSocket-Version", WEBSOCKET_VERSION.into()),
                ],
                body: format!(
                    "this server speaks WebSocket version {WEBSOCKET_VERSION} only \
                     (send Sec-WebSocket-Version: {WEBSOCKET_VERSION})"
                ),
            });
        }
        WsError::Capacity(CapacityError::TooManyHeaders) => {
            return Some(HttpRefusal {
                status: 431,
                reason: "Request Header Fields Too Large",
                headers: Vec::new(),
                body: "the opening handshake has too many header fields".into(),
            });
        }
        WsError::Protocol(protocol) => match protocol {
            ProtocolError::WrongHttpMethod => {
                "a WebSocket opening handshake is a GET request".into()
            }
            ProtocolError::WrongHttpVersion => {
                "a WebSocket opening handshake needs HTTP/1.1 or later".into()
            }
            ProtocolError::MissingConnectionUpgradeHeader => {
                "the request has no \"Connection: Upgrade\" header: this endpoint speaks \
                 WebSocket only"
                    .into()
            }
            ProtocolError::MissingUpgradeWebSocketHeader => {
                "the request has no \"Upgrade: websocket\" header: this endpoint speaks \
                 WebSocket only"
                    .into()
            }
            ProtocolError::MissingSecWebSocketKey => {
                "the request has no Sec-WebSocket-Key header".into()
            }
            ProtocolError::InvalidSecWebSocketKey => {
                "Sec-WebSocket-Key must be 16 bytes in base64 (24 characters)".into()
            }
            ProtocolError::JunkAfterRequest => {
                "bytes followed the opening handshake before the server's answer".into()
            }
            ProtocolError::HttparseError(err) => format!("the request is not valid HTTP: {err}"),
            other => format!("the opening handshake is malformed: {other}"),
        },
        WsError::AttackAttempt => {
            "the opening handshake is too large or came in too many small pieces".into()
        }
        other => format!("the opening handshake is malformed: {other}"),
    };
    Some(bad(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(error: WsError) -> Option<u16> {
        refusal(&error).map(|r| r.status)
    }

    #[test]
    fn each_malformed_request_gets_its_status() {
        assert_eq!(
            status(ProtocolError::MissingSecWebSocketVersionHeader.into()),
            Some(426)
        );
        for error in [
            ProtocolError::WrongHttpMethod,
            ProtocolError::WrongHttpVersion,
            ProtocolError::MissingConnectionUpgradeHeader,
            ProtocolError::MissingUpgradeWebSocketHeader,
            ProtocolError::MissingSecWebSocketKey,
            ProtocolError::InvalidSecWebSocketKey,
            ProtocolError::JunkAfterRequest,
        ] {
            assert_eq!(status(error.into()), Some(400));
        }
        assert_eq!(status(WsError::AttackAttempt), Some(400));
        assert_eq!(status(CapacityError::TooManyHeaders.into()), Some(431));
    }

    #[test]
    fn a_client_that_went_away_is_not_answered() {
        assert_eq!(status(ProtocolError::HandshakeIncomplete.into()), None);
        assert_eq!(status(WsError::ConnectionClosed), None);
        assert_eq!(
            status(std::io::Error::from(std::io::ErrorKind::ConnectionReset).into()),
            None
        );
    }

    #[test]
    fn a_wrong_version_is_told_the_one_spoken() {
        let refusal =
            refusal(&ProtocolError::MissingSecWebSocketVersionHeader.into()).expect("answered");
        let text = String::from_utf8(refusal.to_bytes()).expect("ASCII");
        assert!(
            text.starts_with("HTTP/1.1 426 Upgrade Required\r\n"),
            "{text}"
        );
        assert!(text.contains("\r\nSec-WebSocket-Version: 13\r\n"), "{text}");
        assert!(text.contains("\r\nUpgrade: websocket\r\n"), "{text}");
    }
}
