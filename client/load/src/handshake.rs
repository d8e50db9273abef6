//! The WebSocket handshake of a load test connection: tungstenite's, over a stream that
//! stops at the end of the server's response head, so that no byte the server sends after it
//! is left behind in tungstenite's buffer when the [`Link`](super::link::Link) takes the TCP
//! stream over.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use battle_client::{ClientError, MAX_MESSAGE_BYTES};

/// WebSocket settings for the handshake, the one part of the link tungstenite runs: its
/// read buffer (allocated with the handshake's stream, then dropped) kept small.
fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES))
}

/// Run the client handshake for `url` on `stream`; returns the stream and the bytes the
/// server sent after its response head (normally none: the server speaks when spoken to).
pub async fn client<S>(url: &str, stream: S) -> Result<(S, Vec<u8>), ClientError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let head = Head {
        stream,
        after: Vec::new(),
        matched: 0,
    };
    let (ws, _response) =
        tokio_tungstenite::client_async_with_config(url, head, Some(config())).await?;
    let head = ws.into_inner();
    Ok((head.stream, head.after))
}

/// The TCP stream during the handshake. It hands tungstenite the server's bytes only up to
/// the end of the response head (the first `\r\n\r\n`) and keeps what follows, which would
/// otherwise stay in tungstenite's buffer, for the link.
struct Head<S> {
    stream: S,
    /// Bytes after the head.
    after: Vec<u8>,
    /// Bytes of `\r\n\r\n` matched so far (4: the head is complete).
    matched: u8,
}

impl<S> Head<S> {
    /// Look at the next received bytes; `Some(n)` when the head ends after the first `n`.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        for (i, &b) in bytes.iter().enumerate() {
            self.matched = match (self.matched, b) {
                (0 | 2, b'\r') => self.matched + 1,
                (1 | 3, b'\n') => self.matched + 1,
                (_, b'\r') => 1,
                _ => 0,
            };
            if self.matched == 4 {
                return Some(i + 1);
            }
        }
        None
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Head<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.matched == 4 {
            // The head is complete: tungstenite reads no further.
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.stream).poll_read(cx, buf))?;
        if let Some(head_end) = this.scan(&buf.filled()[before..]) {
            let end = before + head_end;
            this.after.extend_from_slice(&buf.filled()[end..]);
            buf.set_filled(end);
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Head<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

    #[test]
    fn finds_the_end_of_the_head_across_reads() {
        let text = b"HTTP/1.1 101 OK\r\nA: b\r\n\r\nrest";
        let end = text.len() - 4;
        for cut in 0..text.len() {
            let mut head = Head {
                stream: (),
                after: Vec::new(),
                matched: 0,
            };
            let found = match head.scan(&text[..cut]) {
                Some(n) => Some(n),
                None => head.scan(&text[cut..]).map(|n| cut + n),
            };
            assert_eq!(found, Some(end), "cut at {cut}");
        }
        let mut head = Head {
            stream: (),
            after: Vec::new(),
            matched: 0,
        };
        assert_eq!(head.scan(b"a\r\n\r\r\n\n\r\n"), None);
        assert_eq!(head.scan(b"\r\n"), Some(2));
    }

    /// A frame sent in the same write as the response head is kept, not lost with
    /// tungstenite's buffer.
    #[tokio::test]
    async fn keeps_bytes_sent_right_after_the_head() {
        let (near, mut server) = tokio::io::duplex(4096);
        let serve = tokio::spawn(async move {
            let mut request = Vec::new();
            let mut byte = [0u8; 1];
            while !request.ends_with(b"\r\n\r\n") {
                server.read_exact(&mut byte).await.expect("request");
                request.push(byte[0]);
            }
            let request = String::from_utf8(request).expect("ASCII request");
            let key = request
                .lines()
                .find_map(|l| l.strip_prefix("Sec-WebSocket-Key: "))
                .expect("a key");
            let mut reply = format!(
                "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n\
                 Upgrade: websocket\r\nSec-WebSocket-Accept: {}\r\n\r\n",
                derive_accept_key(key.as_bytes())
            )
            .into_bytes();
            reply.extend_from_slice(b"\x81\x02hi");
            server.write_all(&reply).await.expect("reply");
            server
        });
        let (_stream, after) = client("ws://localhost/", near).await.expect("handshake");
        assert_eq!(after, b"\x81\x02hi");
        drop(serve.await.expect("server"));
    }
}
