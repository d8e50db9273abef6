//! The dumb writer: moves frames from the outbox to the socket, batching what is queued.

use std::sync::Arc;
use std::time::Duration;

use futures::stream::SplitSink;
use futures::SinkExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::WebSocketStream;

use super::outbox::CloseSignal;

/// How long a closing connection gets to take what is still queued and the close frame.
const CLOSE_GRACE: Duration = Duration::from_millis(100);

type Sink = SplitSink<WebSocketStream<TcpStream>, Message>;

/// Drain `rx` into the socket until every sender is gone, the socket fails, or `close`
/// asks for the connection to end (too slow, or an unusable frame from the client).
pub async fn run(mut sink: Sink, mut rx: mpsc::Receiver<Utf8Bytes>, close: Arc<CloseSignal>) {
    // One wait for the close signal for the connection's whole life, instead of a new
    // registration with the signal for every frame written.
    let closing = close.requested();
    tokio::pin!(closing);
    loop {
        let first = tokio::select! {
            biased;
            () = &mut closing => break,
            next = rx.recv() => match next {
                Some(text) => Message::Text(text),
                None => {
                    let _ = sink.close().await;
                    return;
                }
            },
        };
        let written = tokio::select! {
            biased;
            () = &mut closing => break,
            result = write_batch(&mut sink, first, &mut rx) => result,
        };
        if written.is_err() {
            return;
        }
    }
    // Send what is still queued (an error explaining the close, say) and the close frame,
    // without waiting long on a client that may not be reading.
    let farewell = async {
        while let Ok(text) = rx.try_recv() {
            sink.feed(Message::Text(text)).await?;
        }
        if let Some(frame) = close.take_frame() {
            sink.feed(Message::Close(Some(frame))).await?;
        }
        sink.flush().await
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, farewell).await;
}

async fn write_batch(
    sink: &mut Sink,
    first: Message,
    rx: &mut mpsc::Receiver<Utf8Bytes>,
) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    sink.feed(first).await?;
    while let Ok(more) = rx.try_recv() {
        sink.feed(Message::Text(more)).await?;
    }
    sink.flush().await
}
