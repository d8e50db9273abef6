//! The WebSocket edge: per client connection, one reader task and one writer task around
//! one outbox.
//!
//! Every connection starts as HTTP ([`crate::http`]: pages, and the opening handshake, each
//! request bounded in time, malformed openings answered in HTTP); once upgraded, the
//! connection speaks WebSocket frames itself: the reader
//! ([`frame_reader`]) parses and unmasks what the client sends and routes each message
//! (lobby requests are answered on the spot, battle requests go to the battle's handle);
//! everything sent to the client goes through the connection's [`outbox::Outbox`], which
//! writes ready-made [`frame::Frame`]s straight into the socket and leaves only what the
//! socket cannot take at once to the writer. Only this module knows JSON framing.

pub mod accept_backoff;
pub mod decode;
pub mod frame;
pub mod frame_reader;
pub mod http_refusal;
pub mod keepalive;
pub mod limits;
mod lobby_reads;
pub mod mailbox;
pub mod outbox;
mod reader;
pub mod remote;
mod router;
mod writer;

use std::sync::Arc;

use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::http::Upgraded;
use crate::lobby::Lobby;
use outbox::Outbox;

/// Kernel send buffer per connection (Linux doubles it for bookkeeping).
///
/// Left alone, Linux grows a socket's send buffer up to `tcp_wmem`'s maximum (4 MiB by
/// default) for a peer that does not read: a stalled client could then swallow megabytes
/// before its outbox starts to queue, so its bounded outbox would fill (and the connection
/// close) late or never, and each such socket would pin that much kernel memory. A fixed size
/// keeps "too slow" a matter of a few dozen frames; 64 KiB still takes the largest view
/// snapshots in one write.
pub const SEND_BUFFER_BYTES: usize = 64 * 1024;

/// Socket options for an accepted connection: no Nagle delay (frames are small and
/// latency-bound) and a fixed send buffer ([`SEND_BUFFER_BYTES`]).
fn tune_socket(stream: &TcpStream) {
    let _ = stream.set_nodelay(true);
    if let Err(err) = socket2::SockRef::from(stream).set_send_buffer_size(SEND_BUFFER_BYTES) {
        tracing::debug!(%err, "cannot size the send buffer");
    }
}

/// Serve one accepted TCP connection until it closes.
///
/// Everything it does runs inside a `conn` span (`peer`, then `conn` once the handshake gave
/// it an id), entered by its reader and writer, so that every event of theirs (and of the
/// lobby on its behalf) carries them; the span is made once per connection.
///
/// A connection still speaking HTTP when `closing` is cancelled (the server has drained its
/// WebSockets) is dropped; a WebSocket is closed by the lobby, with 1001, before that.
pub async fn serve(stream: TcpStream, lobby: Arc<Lobby>, closing: CancellationToken) {
    let peer = stream.peer_addr().ok();
    let span = tracing::info_span!(
        "conn",
        conn = tracing::field::Empty,
        peer = peer.map(tracing::field::display)
    );
    serve_in(stream, lobby, peer, span.clone(), closing)
        .instrument(span)
        .await;
}

async fn serve_in(
    stream: TcpStream,
    lobby: Arc<Lobby>,
    peer: Option<std::net::SocketAddr>,
    span: tracing::Span,
    closing: CancellationToken,
) {
    tune_socket(&stream);
    // Boxed: hyper's connection state is large and would otherwise stay part of this task's
    // future, for every connection, long after the upgrade.
    let http = Box::pin(crate::http::serve(
        stream,
        crate::http::Site::Lobby(lobby.clone()),
        lobby.config().handshake_timeout,
    ));
    let upgraded = tokio::select! {
        upgraded = http => upgraded,
        () = closing.cancelled() => None,
    };
    let Some(Upgraded { stream, early }) = upgraded else {
        return;
    };
    // The early bytes share hyper's read buffer (kilobytes): copied out, if there are any,
    // so that the buffer is given back now rather than held for the connection's life.
    let early = {
        let bytes = early;
        (!bytes.is_empty()).then(|| bytes.to_vec())
    };
    let outbox = Outbox::new(
        stream,
        lobby.config().outbox_capacity,
        lobby.config().outbox_max_bytes,
        lobby.store().commits(),
        lobby.metrics().outbox_overflows.clone(),
    );
    span.record("conn", outbox.id().0);
    tracing::debug!("connection open");
    lobby.connected(&outbox);
    let writer = tokio::spawn(writer::run(outbox.clone()).instrument(span));
    reader::run(
        outbox.clone(),
        lobby.clone(),
        peer.map(|peer| peer.ip()),
        early,
    )
    .await;
    // Counted as open until its writer has sent what it owed (a draining server waits).
    let _ = writer.await;
    lobby.disconnected(outbox.id());
    tracing::debug!("connection closed");
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
        tune_socket(&accepted);
        let sock = socket2::SockRef::from(&accepted);
        let size = sock.send_buffer_size().expect("getsockopt");
        // Linux reports twice the size asked for; autotuning would start at 16 KiB and grow.
        assert_eq!(
            size,
            2 * SEND_BUFFER_BYTES,
            "the option applies to the accepted socket"
        );
        assert!(accepted.nodelay().expect("getsockopt"), "Nagle is off");
    }
}
