//! A connection's bounded outgoing queue: the only way anything reaches a client.
//!
//! Battle actors and the connection's own reader put ready-made frames into it with
//! [`Outbox::offer`], which never waits. A connection whose queue is full is too slow to
//! follow its battles: it is closed (see [`Outbox::close_lagging`]) rather than being sent a
//! silently broken stream.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;

use battle_protocol::ServerMsg;
use futures::task::AtomicWaker;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Utf8Bytes;

/// Tells a connection's writer to close the connection, and with which close frame.
///
/// The writer checks it before every batch of frames it writes, so waiting on it must cost
/// next to nothing: a flag and a waker slot, not a registration in a waiter list.
#[derive(Debug, Default)]
pub struct CloseSignal {
    asked: AtomicBool,
    waker: AtomicWaker,
    frame: Mutex<Option<CloseFrame>>,
}

impl CloseSignal {
    /// Ask for the connection to close; the first reason given wins.
    pub fn close(&self, code: CloseCode, reason: &str) {
        // The lock only guards a store and a take; a poisoned lock still holds a usable value.
        let mut frame = self
            .frame
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if frame.is_none() {
            *frame = Some(CloseFrame {
                code,
                reason: reason.into(),
            });
        }
        drop(frame);
        self.asked.store(true, Ordering::Release);
        self.waker.wake();
    }

    /// Wait until a close is asked for (returns at once if it already was).
    pub fn requested(&self) -> impl Future<Output = ()> + '_ {
        std::future::poll_fn(move |cx| {
            if self.asked.load(Ordering::Acquire) {
                return Poll::Ready(());
            }
            self.waker.register(cx.waker());
            // A close asked for between the check and the registration is seen here.
            if self.asked.load(Ordering::Acquire) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
    }

    /// The close frame asked for.
    pub fn take_frame(&self) -> Option<CloseFrame> {
        self.frame
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    }
}

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
    /// Text frames only (close frames go through the [`CloseSignal`]): a queue slot holds
    /// 32 bytes instead of a whole `Message`'s 56, in every slot of every connection.
    tx: mpsc::Sender<Utf8Bytes>,
    close: Arc<CloseSignal>,
}

impl Outbox {
    /// A new outbox holding up to `capacity` frames, with the receiving end for the writer
    /// and the signal the writer watches to close the connection early.
    pub fn new(capacity: usize) -> (Outbox, mpsc::Receiver<Utf8Bytes>, Arc<CloseSignal>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let close = Arc::new(CloseSignal::default());
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
        match self.tx.try_send(text) {
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
        self.close(
            CloseCode::Again,
            "too slow to keep up; reconnect and resync",
        );
    }

    /// Tell the writer to send what is queued, then close the connection with this code.
    pub fn close(&self, code: CloseCode, reason: &str) {
        self.close.close(code, reason);
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
        tokio::time::timeout(std::time::Duration::from_secs(1), close.requested())
            .await
            .expect("close signal is pending");
        assert_eq!(close.take_frame().map(|f| f.code), Some(CloseCode::Again));
        assert_eq!(rx.recv().await, Some(Utf8Bytes::from("a")));
        drop(rx);
        assert_eq!(outbox.offer("c".into()), Offer::Closed);
    }
}
