//! The dumb writer: moves frames from the outbox to the socket, batching what is queued.

use std::sync::Arc;
use std::time::Duration;

use futures::stream::SplitSink;
use futures::SinkExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::outbox::CloseSignal;

/// How long a closing connection gets to take what is still queued and the close frame.
const CLOSE_GRACE: Duration = Duration::from_millis(100);

type Sink = SplitSink<WebSocketStream<TcpStream>, Message>;

/// Drain `rx` into the socket until every sender is gone, the socket fails, or `close`
/// asks for the connection to end (too slow, or an unusable frame from the client).
pub async fn run(mut sink: Sink, mut rx: mpsc::Receiver<Message>, close: Arc<CloseSignal>) {
    loop {
        let first = tokio::select! {
            biased;
            () = close.requested() => break,
            next = rx.recv() => match next {
                Some(message) => message,
                None => {
                    let _ = sink.close().await;
                    return;
                }
            },
        };
        let written = tokio::select! {
            biased;
            () = close.requested() => break,
            result = write_batch(&mut sink, first, &mut rx) => result,
        };
        if written.is_err() {
            return;
        }
    }
    // Send what is still queued (an error explaining the close, say) and the close frame,
    // without waiting long on a client that may not be reading.
    let farewell = async {
        while let Ok(message) = rx.try_recv() {
            sink.feed(message).await?;
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
    rx: &mut mpsc::Receiver<Message>,
) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    sink.feed(first).await?;
    while let Ok(more) = rx.try_recv() {
        sink.feed(more).await?;
    }
    sink.flush().await
}
