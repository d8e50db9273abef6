//! The dumb writer: moves frames from the outbox to the socket, batching what is queued.

use std::sync::Arc;

use futures::stream::SplitSink;
use futures::SinkExt;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, Notify};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

type Sink = SplitSink<WebSocketStream<TcpStream>, Message>;

/// Drain `rx` into the socket until every sender is gone, the socket fails, or `close`
/// says the connection cannot keep up.
pub async fn run(mut sink: Sink, mut rx: mpsc::Receiver<Message>, close: Arc<Notify>) {
    loop {
        let first = tokio::select! {
            biased;
            () = close.notified() => break,
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
            () = close.notified() => break,
            result = write_batch(&mut sink, first, &mut rx) => result,
        };
        if written.is_err() {
            return;
        }
    }
    // Too slow: say why if the socket still takes a frame, without waiting on it for long.
    let frame = CloseFrame {
        code: CloseCode::Again,
        reason: "too slow to keep up; reconnect and resync".into(),
    };
    let _ = tokio::time::timeout(
        std::time::Duration::from_millis(100),
        sink.send(Message::Close(Some(frame))),
    )
    .await;
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
