//! The dumb writer: sends what the outbox could not write at once, and closes the connection.
//!
//! Most frames never reach it: [`Outbox::offer_frame`] writes straight into the socket when
//! nothing is queued. The writer wakes only when frames are queued behind a full socket, when
//! a close is asked for, or when the connection ends.

use std::time::Duration;

use super::frame::Frame;
use super::outbox::{Flushed, Outbox, Work};

/// How long a closing connection gets to take what is still queued and the close frame.
const CLOSE_GRACE: Duration = Duration::from_millis(100);

/// Serve `outbox` until the connection ends; the socket is shut down on the way out, which
/// also ends the connection's reader.
pub async fn run(outbox: Outbox) {
    loop {
        match std::future::poll_fn(|cx| outbox.poll_work(cx)).await {
            Work::Write => {
                let Some(socket) = outbox.socket() else {
                    break;
                };
                // Wait for room in the socket, unless a close is asked for meanwhile.
                let ready = tokio::select! {
                    biased;
                    () = std::future::poll_fn(|cx| outbox.poll_closing(cx)) => continue,
                    ready = socket.writable() => ready,
                };
                // Done, or blocked again, or held for a commit (the store's writer releases
                // it): the next `poll_work` tells.
                if ready.is_err() || outbox.flush(None).is_err() {
                    break;
                }
            }
            Work::Close(frame) => {
                // Send what is still queued (an error explaining the close, say) and the
                // close frame, without waiting long on a client that may not be reading.
                let _ = tokio::time::timeout(CLOSE_GRACE, farewell(&outbox, frame)).await;
                break;
            }
            Work::End => break,
        }
    }
    outbox.end();
}

/// How often a closing connection looks again at frames held for a commit.
const HELD_POLL: Duration = Duration::from_millis(2);

/// Write the queue and then `close`, waiting for room (and for held frames' commit) as
/// needed.
async fn farewell(outbox: &Outbox, close: Frame) {
    let mut extra = Some(close);
    loop {
        match outbox.flush(extra.take()) {
            Ok(Flushed::Done) | Err(_) => return,
            Ok(Flushed::Held) => tokio::time::sleep(HELD_POLL).await,
            Ok(Flushed::Blocked) => {
                let Some(socket) = outbox.socket() else {
                    return;
                };
                if socket.writable().await.is_err() {
                    return;
                }
            }
        }
    }
}
