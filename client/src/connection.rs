//! `Connection`: one WebSocket connection to the battle server, speaking protocol messages.
//!
//! The connection is deliberately thin: it encodes [`ClientMsg`]s, decodes [`ServerMsg`]s and
//! hides WebSocket control frames. It does not interpret battles; feed the messages it returns
//! to a [`ViewTracker`](crate::ViewTracker) for that.
//!
//! Buffers are sized for this protocol rather than left at tungstenite's 128 KiB defaults:
//! client messages are a few hundred bytes, server messages are patches of a few hundred bytes
//! and occasional snapshots of a few KiB. See [`Connection::config`].

use std::time::Duration;

use battle_protocol::{ClientMsg, ServerMsg};
use futures::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::ClientError;

/// Read buffer per connection. Large enough for a typical snapshot in one read; bigger
/// messages still arrive, over several reads.
pub const READ_BUFFER_BYTES: usize = 8 * 1024;

/// Largest message the client accepts from the server. Views are small JSON documents; this
/// bounds memory if a server misbehaves.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// Most bytes held in the write buffer when the socket cannot take them (back-pressure).
pub const MAX_WRITE_BUFFER_BYTES: usize = 256 * 1024;

/// A client's WebSocket connection to the battle server.
#[derive(Debug)]
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Connection {
    /// The WebSocket settings every connection uses.
    ///
    /// - an 8 KiB read buffer instead of 128 KiB;
    /// - write buffer size 0: each message is written out at once (client messages are tiny
    ///   and latency matters more than batching), with at most 256 KiB held back when the
    ///   socket is not writable;
    /// - incoming messages and frames capped at 4 MiB.
    pub fn config() -> WebSocketConfig {
        WebSocketConfig::default()
            .read_buffer_size(READ_BUFFER_BYTES)
            .write_buffer_size(0)
            .max_write_buffer_size(MAX_WRITE_BUFFER_BYTES)
            .max_message_size(Some(MAX_MESSAGE_BYTES))
            .max_frame_size(Some(MAX_MESSAGE_BYTES))
    }

    /// Open a connection to `url`, e.g. `"ws://127.0.0.1:7878"`.
    pub async fn connect(url: &str) -> Result<Connection, ClientError> {
        let (ws, _response) =
            tokio_tungstenite::connect_async_with_config(url, Some(Self::config()), true).await?;
        Ok(Connection { ws })
    }

    /// Run the WebSocket handshake for `url` over a TCP stream the caller already opened, for
    /// example one whose socket buffers were sized on purpose.
    pub async fn connect_over(url: &str, stream: TcpStream) -> Result<Connection, ClientError> {
        stream
            .set_nodelay(true)
            .map_err(|e| ClientError::WebSocket(e.into()))?;
        let (ws, _response) = tokio_tungstenite::client_async_with_config(
            url,
            MaybeTlsStream::Plain(stream),
            Some(Self::config()),
        )
        .await?;
        Ok(Connection { ws })
    }

    /// Send one protocol message.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        let text = serde_json::to_string(msg).map_err(ClientError::Encode)?;
        self.send_text(&text).await
    }

    /// Send a raw text frame, exactly as given (tests use it for malformed input).
    pub async fn send_text(&mut self, text: &str) -> Result<(), ClientError> {
        self.ws.send(Message::text(text)).await?;
        Ok(())
    }

    /// Send a raw binary frame (which protocol version 1 does not use).
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        self.ws.send(Message::binary(bytes)).await?;
        Ok(())
    }

    /// The next text frame, undecoded. WebSocket pings and pongs are skipped (tungstenite
    /// answers pings by itself); a close frame or the end of the stream is
    /// [`ClientError::Closed`].
    ///
    /// Cancel safe: dropping the future before it completes loses no message.
    pub async fn recv_text(&mut self) -> Result<String, ClientError> {
        loop {
            let Some(frame) = self.ws.next().await else {
                return Err(ClientError::Closed {
                    code: None,
                    reason: String::new(),
                });
            };
            match frame? {
                Message::Text(text) => return Ok(text.as_str().to_owned()),
                Message::Binary(bytes) => return Err(ClientError::Binary(bytes.len())),
                Message::Close(frame) => {
                    return Err(ClientError::Closed {
                        code: frame.as_ref().map(|f| u16::from(f.code)),
                        reason: frame
                            .map(|f| f.reason.as_str().to_owned())
                            .unwrap_or_default(),
                    })
                }
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
            }
        }
    }

    /// The next server message. Cancel safe, like [`Connection::recv_text`].
    pub async fn recv(&mut self) -> Result<ServerMsg, ClientError> {
        let text = self.recv_text().await?;
        decode(text)
    }

    /// The next server message, or [`ClientError::Timeout`] if none arrives within `limit`.
    /// A timeout loses nothing: a message arriving later is returned by the next call.
    pub async fn recv_timeout(&mut self, limit: Duration) -> Result<ServerMsg, ClientError> {
        match tokio::time::timeout(limit, self.recv()).await {
            Ok(result) => result,
            Err(_) => Err(ClientError::Timeout(limit)),
        }
    }

    /// Close the connection politely (close frame, then wait for the server's answer).
    pub async fn close(mut self) -> Result<(), ClientError> {
        if let Err(e) = self.ws.close(None).await {
            let e = ClientError::from(e);
            // Already closed by the server: the goal is reached.
            return if e.is_closed() { Ok(()) } else { Err(e) };
        }
        // Drain until the server's close frame (or the end of the stream) arrives.
        while let Some(frame) = self.ws.next().await {
            if frame.is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// Decode one text frame into a server message.
pub fn decode(text: String) -> Result<ServerMsg, ClientError> {
    match serde_json::from_str(&text) {
        Ok(msg) => Ok(msg),
        Err(source) => Err(ClientError::Decode { text, source }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::ErrorCode;

    #[test]
    fn config_is_small_and_valid() {
        let config = Connection::config();
        assert_eq!(config.read_buffer_size, 8 * 1024);
        assert_eq!(config.write_buffer_size, 0);
        // tungstenite panics at connect time unless max > size.
        assert!(config.max_write_buffer_size > config.write_buffer_size);
    }

    #[test]
    fn decode_reports_the_bad_text() {
        match decode("{\"type\":\"mystery\"}".to_owned()) {
            Err(ClientError::Decode { text, .. }) => assert_eq!(text, "{\"type\":\"mystery\"}"),
            other => panic!("expected a decode error, got {other:?}"),
        }
        let ok = decode(r#"{"type":"error","code":"bad_json","message":"x"}"#.to_owned())
            .expect("valid error message");
        assert!(matches!(
            ok,
            ServerMsg::Error {
                code: ErrorCode::BadJson,
                ..
            }
        ));
    }

    /// A tiny scripted server: sends a WebSocket ping then a pong message, waits for one text
    /// frame and answers it with `error`, then sends a close frame.
    async fn scripted_server() -> (String, tokio::task::JoinHandle<String>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("ws://{}", listener.local_addr().expect("addr"));
        let handle = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.expect("accept");
            let mut ws = tokio_tungstenite::accept_async(tcp)
                .await
                .expect("handshake");
            ws.send(Message::Ping(vec![1, 2].into()))
                .await
                .expect("ping");
            ws.send(Message::text(r#"{"type":"pong","req":1}"#))
                .await
                .expect("pong");
            let got = loop {
                match ws.next().await.expect("a frame").expect("no error") {
                    Message::Text(t) => break t.as_str().to_owned(),
                    _ => continue,
                }
            };
            ws.send(Message::text(
                r#"{"type":"error","code":"bad_json","message":"x","req":2}"#,
            ))
            .await
            .expect("error");
            ws.close(None).await.expect("close");
            got
        });
        (url, handle)
    }

    #[tokio::test]
    async fn round_trip_skips_control_frames_and_reports_close() {
        let (url, server) = scripted_server().await;
        let mut conn = Connection::connect(&url).await.expect("connect");
        let first = conn
            .recv_timeout(Duration::from_secs(5))
            .await
            .expect("pong");
        assert_eq!(first, ServerMsg::Pong { req: Some(1) });

        conn.send(&ClientMsg::Ping { req: Some(2) })
            .await
            .expect("send");
        let second = conn
            .recv_timeout(Duration::from_secs(5))
            .await
            .expect("error");
        assert!(matches!(
            second,
            ServerMsg::Error {
                code: ErrorCode::BadJson,
                req: Some(2),
                ..
            }
        ));
        let end = conn.recv_timeout(Duration::from_secs(5)).await;
        assert!(matches!(end, Err(ClientError::Closed { .. })), "{end:?}");
        assert!(end.unwrap_err().is_closed());

        let sent = server.await.expect("server task");
        assert_eq!(sent, r#"{"type":"ping","req":2}"#);
    }

    #[tokio::test]
    async fn recv_timeout_loses_nothing() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("ws://{}", listener.local_addr().expect("addr"));
        let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.expect("accept");
            let mut ws = tokio_tungstenite::accept_async(tcp)
                .await
                .expect("handshake");
            go_rx.await.expect("go");
            ws.send(Message::text(r#"{"type":"pong"}"#))
                .await
                .expect("pong");
            // Keep the socket open until the client is done.
            let _ = ws.next().await;
        });
        let mut conn = Connection::connect(&url).await.expect("connect");
        let quiet = conn.recv_timeout(Duration::from_millis(50)).await;
        assert!(matches!(quiet, Err(ClientError::Timeout(_))), "{quiet:?}");
        go_tx.send(()).expect("server waits");
        let late = conn
            .recv_timeout(Duration::from_secs(5))
            .await
            .expect("late pong");
        assert_eq!(late, ServerMsg::Pong { req: None });
        conn.close().await.expect("close");
        server.await.expect("server task");
    }

    #[tokio::test]
    async fn connect_to_nothing_fails() {
        // Bind then drop a listener so the port is (almost certainly) closed.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        drop(listener);
        let result = Connection::connect(&format!("ws://{addr}")).await;
        assert!(
            matches!(result, Err(ClientError::WebSocket(_))),
            "{result:?}"
        );
    }
}
