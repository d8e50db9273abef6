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
pub fn websocket_config(max_frame_bytes: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(Some(max_frame_bytes))
        .max_frame_size(Some(max_frame_bytes))
}

/// Serve one accepted TCP connection until it closes.
pub async fn serve(stream: TcpStream, lobby: Arc<Lobby>) {
    let _ = stream.set_nodelay(true);
    let peer = stream.peer_addr().ok();
    let config = websocket_config(lobby.config().max_frame_bytes);
    let ws = match tokio_tungstenite::accept_async_with_config(stream, Some(config)).await {
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
