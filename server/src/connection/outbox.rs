//! A connection's bounded outgoing queue: the only way anything reaches a client.
//!
//! Battle actors and the connection's own reader put ready-made frames into it with
//! [`Outbox::offer`], which never waits. A connection whose queue is full is too slow to
//! follow its battles: it is closed (see [`Outbox::close_lagging`]) rather than being sent a
//! silently broken stream.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use battle_protocol::ServerMsg;
use tokio::sync::{mpsc, Notify};
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// Identifies one client connection for the lifetime of the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

impl ConnId {
    /// A process-unique id.
    pub fn next() -> ConnId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ConnId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// What happened to a frame offered to an outbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// Queued for the writer.
    Queued,
    /// The queue was full: the connection has been told to close.
    Lagging,
    /// The connection is gone.
    Closed,
}

/// A cloneable sending end of one connection's outgoing queue.
#[derive(Debug, Clone)]
pub struct Outbox {
    id: ConnId,
    tx: mpsc::Sender<Message>,
    close: Arc<Notify>,
}

impl Outbox {
    /// A new outbox holding up to `capacity` frames, with the receiving end for the writer
    /// and the signal the writer watches to close the connection early.
    pub fn new(capacity: usize) -> (Outbox, mpsc::Receiver<Message>, Arc<Notify>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let close = Arc::new(Notify::new());
        let outbox = Outbox {
            id: ConnId::next(),
            tx,
            close: close.clone(),
        };
        (outbox, rx, close)
    }

    /// This connection's id.
    pub fn id(&self) -> ConnId {
        self.id
    }

    /// Queue a text frame without waiting. A full queue closes the connection.
    pub fn offer(&self, text: Utf8Bytes) -> Offer {
        match self.tx.try_send(Message::Text(text)) {
            Ok(()) => Offer::Queued,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close_lagging();
                Offer::Lagging
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Offer::Closed,
        }
    }

    /// Serialize and queue one message without waiting.
    pub fn offer_msg(&self, msg: &ServerMsg) -> Offer {
        self.offer(Utf8Bytes::from(msg.to_text()))
    }

    /// Tell the writer to close the connection because it cannot keep up.
    pub fn close_lagging(&self) {
        self.close.notify_one();
    }

    /// Whether the writer has gone away.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn full_queue_reports_lagging_and_signals_close() {
        let (outbox, mut rx, close) = Outbox::new(1);
        assert_eq!(outbox.offer("a".into()), Offer::Queued);
        assert_eq!(outbox.offer("b".into()), Offer::Lagging);
        // The close signal was stored, so a writer that starts waiting now sees it at once.
        tokio::time::timeout(std::time::Duration::from_secs(1), close.notified())
            .await
            .expect("close signal is pending");
        assert_eq!(rx.recv().await, Some(Message::Text("a".into())));
        drop(rx);
        assert_eq!(outbox.offer("c".into()), Offer::Closed);
        assert!(outbox.is_closed());
    }
}
