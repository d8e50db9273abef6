//! `Link`: the load generator's own WebSocket connection.
//!
//! It speaks the same WebSocket as [`Connection`](crate::Connection) but hands out received
//! text frames as they came out of the socket's read buffer ([`Utf8Bytes`]) instead of
//! copying each into a new `String`, and reads into a smaller buffer: tungstenite zeroes the
//! free part of its read buffer before every read, and server frames are a few hundred bytes
//! (snapshots a few KiB, which then take two reads or more).

use futures::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::WebSocketStream;

use crate::{ClientError, MAX_MESSAGE_BYTES, MAX_WRITE_BUFFER_BYTES};

/// Read buffer per connection: one typical patch frame with room to spare.
pub const READ_BUFFER_BYTES: usize = 4 * 1024;

/// One WebSocket connection of the load test.
#[derive(Debug)]
pub struct Link {
    ws: WebSocketStream<TcpStream>,
}

/// The WebSocket settings of a load test connection: those of
/// [`Connection::config`](crate::Connection::config) with a smaller read buffer.
pub fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER_BYTES)
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES))
}

impl Link {
    /// Run the WebSocket handshake for `url` over an open TCP stream.
    pub async fn open(url: &str, stream: TcpStream) -> Result<Link, ClientError> {
        stream
            .set_nodelay(true)
            .map_err(|e| ClientError::WebSocket(e.into()))?;
        let (ws, _response) =
            tokio_tungstenite::client_async_with_config(url, stream, Some(config())).await?;
        Ok(Link { ws })
    }

    /// Send one text frame.
    pub async fn send(&mut self, text: String) -> Result<(), ClientError> {
        self.ws.send(Message::text(text)).await?;
        Ok(())
    }

    /// The next text frame. Pings and pongs are skipped (tungstenite answers pings itself);
    /// a close frame or the end of the stream is [`ClientError::Closed`], a binary frame
    /// [`ClientError::Binary`].
    ///
    /// Cancel safe: dropping the future before it completes loses no frame.
    pub async fn recv(&mut self) -> Result<Utf8Bytes, ClientError> {
        loop {
            let Some(frame) = self.ws.next().await else {
                return Err(ClientError::Closed {
                    code: None,
                    reason: String::new(),
                });
            };
            match frame? {
                Message::Text(text) => return Ok(text),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_is_valid() {
        let config = config();
        assert_eq!(config.read_buffer_size, READ_BUFFER_BYTES);
        // tungstenite panics at connect time unless max > size.
        assert!(config.max_write_buffer_size > config.write_buffer_size);
    }

    /// Control frames are skipped, text frames come through whole, a close frame ends it.
    #[tokio::test]
    async fn receives_text_and_reports_close() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let server = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.expect("accept");
            let mut ws = tokio_tungstenite::accept_async(tcp)
                .await
                .expect("handshake");
            ws.send(Message::Ping(vec![1].into())).await.expect("ping");
            let big = "x".repeat(3 * READ_BUFFER_BYTES);
            ws.send(Message::text(big)).await.expect("text");
            let got = loop {
                match ws.next().await.expect("a frame").expect("no error") {
                    Message::Text(t) => break t.as_str().to_owned(),
                    _ => continue,
                }
            };
            ws.close(None).await.expect("close");
            got
        });
        let stream = TcpStream::connect(addr).await.expect("connect");
        let mut link = Link::open(&format!("ws://{addr}"), stream)
            .await
            .expect("handshake");
        let text = link.recv().await.expect("text frame");
        assert_eq!(text.len(), 3 * READ_BUFFER_BYTES);
        link.send("hello".to_owned()).await.expect("send");
        assert!(matches!(link.recv().await, Err(ClientError::Closed { .. })));
        assert_eq!(server.await.expect("server task"), "hello");
    }
}
