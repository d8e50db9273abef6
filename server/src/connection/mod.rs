//! The WebSocket edge: one reader and one writer task per client connection.
//!
//! The writer only drains the connection's [`outbox::Outbox`] into the socket. The reader
//! only decodes frames and routes them: lobby requests are answered on the spot, battle
//! requests go to the battle's handle. Only this module knows JSON framing.

pub mod decode;
pub mod outbox;
mod reader;
mod writer;

use std::sync::Arc;

use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::lobby::Lobby;
use outbox::Outbox;

/// WebSocket buffer sizes chosen for many small frames over many connections: the library's
/// 128 KiB defaults would cost that much per connection, zero-filled before each read.
///
/// Client frames are a few hundred bytes (`act` is about 100), so a 1 KiB read buffer takes a
/// whole frame in one read; a larger frame still arrives, the buffer growing for it. The
/// buffer is zero-filled (so resident) on the first read: 4 KiB cost 12 KiB more per battle
/// with four connections (`bench/run`, S2 idle: 93.5 → 81.5 KiB per battle).
pub fn websocket_config(max_frame_bytes: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(Some(max_frame_bytes))
        .max_frame_size(Some(max_frame_bytes))
}

/// Kernel send buffer per connection (Linux doubles it for bookkeeping).
///
/// Left alone, Linux grows a socket's send buffer up to `tcp_wmem`'s maximum (4 MiB by
/// default) for a peer that does not read: a stalled client could then swallow megabytes
/// before its writer blocks, so its bounded outbox would fill (and the connection close)
/// late or never, and each such socket would pin that much kernel memory. A fixed size keeps
/// "too slow" a matter of a few dozen frames; 64 KiB still takes the largest view snapshots
/// in one write.
pub const SEND_BUFFER_BYTES: u32 = 64 * 1024;

/// Set the send buffer of an accepted stream. tokio's `TcpStream` has no setter, so the
/// option is set through a duplicate of the socket's descriptor (same socket, closed again
/// right away).
#[cfg(unix)]
fn set_send_buffer(stream: &TcpStream, bytes: u32) -> std::io::Result<()> {
    use std::os::fd::AsFd;
    let fd = stream.as_fd().try_clone_to_owned()?;
    tokio::net::TcpSocket::from_std_stream(std::net::TcpStream::from(fd))
        .set_send_buffer_size(bytes)
}

#[cfg(not(unix))]
fn set_send_buffer(_stream: &TcpStream, _bytes: u32) -> std::io::Result<()> {
    Ok(())
}

/// Serve one accepted TCP connection until it closes.
pub async fn serve(stream: TcpStream, lobby: Arc<Lobby>) {
    let _ = stream.set_nodelay(true);
    if let Err(err) = set_send_buffer(&stream, SEND_BUFFER_BYTES) {
        tracing::debug!(%err, "cannot size the send buffer");
    }
    let peer = stream.peer_addr().ok();
    let config = websocket_config(lobby.config().max_frame_bytes);
    // Boxed: the handshake's state is large (about 1.3 KiB) and would otherwise stay part of
    // this task's future, for every connection, long after the handshake is over.
    let handshake = Box::pin(tokio_tungstenite::accept_async_with_config(
        stream,
        Some(config),
    ));
    let ws = match handshake.await {
        Ok(ws) => ws,
        Err(err) => {
            tracing::debug!(?peer, %err, "websocket handshake failed");
            return;
        }
    };
    let (sink, stream) = futures::StreamExt::split(ws);
    let (outbox, rx, close) = Outbox::new(lobby.config().outbox_capacity);
    tracing::debug!(?peer, conn = outbox.id().0, "connection open");
    let writer = tokio::spawn(writer::run(sink, rx, close));
    reader::run(stream, outbox.clone(), lobby, writer).await;
    tracing::debug!(?peer, conn = outbox.id().0, "connection closed");
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_streams_get_a_fixed_send_buffer() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let _client = TcpStream::connect(addr).await.expect("connect");
        let (accepted, _) = listener.accept().await.expect("accept");
        set_send_buffer(&accepted, SEND_BUFFER_BYTES).expect("setsockopt");
        use std::os::fd::AsFd;
        let fd = accepted.as_fd().try_clone_to_owned().expect("dup");
        let size = tokio::net::TcpSocket::from_std_stream(std::net::TcpStream::from(fd))
            .send_buffer_size()
            .expect("getsockopt");
        // Linux reports twice the size asked for; autotuning would start at 16 KiB and grow.
        assert_eq!(
            size,
            2 * SEND_BUFFER_BYTES,
            "the option applies to the accepted socket"
        );
        // The stream still works after the duplicate descriptor was closed.
        accepted
            .set_nodelay(true)
            .expect("the socket is still open");
    }
}
