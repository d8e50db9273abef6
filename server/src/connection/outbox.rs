//! A connection's bounded outgoing queue: the only way anything reaches a client.
//!
//! Battle actors and the connection's own reader hand ready-made [`Frame`]s to
//! [`Outbox::offer_frame`], which never waits. When nothing is queued ahead of it, the frame
//! goes straight into the socket with one non-blocking `send` (no task wake-up, no copy);
//! whatever the socket does not take at once is queued, in order, for the connection's
//! writer task, which sends it when the socket has room. A connection whose queue is full is
//! too slow to follow its battles: it is closed (see [`Outbox::close_lagging`]) rather than
//! being sent a silently broken stream.
//!
//! The queue is bounded twice: in frames (`--outbox-capacity`) and in bytes
//! (`--outbox-max-bytes`, a running sum kept on every push and pop, each frame counted at its
//! full length even when its buffer is shared with other connections: that is the memory the
//! connection pins). Over either bound the connection is closed with 1013 and its queued
//! frames are dropped at once, so a client that asks for much and reads nothing holds at most
//! the byte bound plus one offer (the frames offered while nothing was queued).
//!
//! Every write, direct or by the writer, happens under the queue's lock, so frames from
//! different battles and from the reader never interleave or overtake one another.
//!
//! With a durable store, a frame that shows a change carries the [`Ticket`] of the change's
//! record and is held (queued, in order) until the store has committed it: a client never
//! sees a change that a crash could lose. The store's writer releases held frames after each
//! commit ([`Outbox::release`]); frames behind a held one wait with it.

use std::collections::VecDeque;
use std::io::{self, IoSlice};
use std::net::Shutdown;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use battle_protocol::ServerMsg;
use futures::task::AtomicWaker;
use metrics::Counter;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Utf8Bytes;

use super::frame::{Frame, FrameBuf};
use super::mailbox::Mailbox;
use super::remote::RemoteEnd;
use crate::ids::ConnId;
use crate::poison::Locked;
use crate::store::{Commits, Release, Ticket};

/// Queued frames handed to the socket in one vectored write.
const FRAMES_PER_WRITE: usize = 32;

/// What happened to a frame offered to an outbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// Written to the socket, or queued for the writer.
    Queued,
    /// The queue was full: the connection has been told to close.
    Lagging,
    /// The connection is gone or closing.
    Closed,
}

/// What the writer task should do next.
#[derive(Debug)]
pub(super) enum Work {
    /// Frames are queued that the socket did not take.
    Write,
    /// A close was asked for: send what is queued, then this close frame, then stop.
    Close(Frame),
    /// The connection is over: stop now.
    End,
}

/// A queued frame and the ticket it waits for (0: none).
#[derive(Debug)]
struct Queued {
    frame: Frame,
    ticket: Ticket,
}

#[derive(Debug, Default)]
struct State {
    /// Frames not yet fully written, oldest first.
    queue: VecDeque<Queued>,
    /// The bytes of every frame in `queue`, each at its full length.
    queued_bytes: usize,
    /// Registered with the store's commits to be released (see [`Commits::wait`]).
    held: bool,
    /// Bytes of the first queued frame already written.
    offset: usize,
    /// The close frame asked for (the first reason given wins); taken by the writer.
    close: Option<Frame>,
    /// A close was asked for: nothing more is accepted.
    closing: bool,
    /// The connection is over: nothing is written any more.
    ended: bool,
    /// Frames written whole to the socket, for the metrics.
    sent_frames: u64,
    /// Bytes written to the socket, for the metrics.
    sent_bytes: u64,
}

#[derive(Debug)]
struct Shared {
    id: ConnId,
    capacity: usize,
    /// Most bytes queued (see [`State::queued_bytes`]) before the connection counts as too
    /// slow.
    max_bytes: usize,
    /// The socket; `None` for a detached outbox (tests), whose frames stay queued.
    socket: Option<TcpStream>,
    state: Mutex<State>,
    /// The writer task, waiting for work.
    writer: AtomicWaker,
    /// The store's commits, when frames must wait for them.
    gate: Option<Arc<Commits>>,
    /// Counts the connections closed for not keeping up (the server's metrics).
    overflows: Counter,
    /// What others tell the connection's reader.
    mailbox: Mailbox,
    /// For a connection of another node (a cluster): where its frames go instead of a
    /// socket (see `remote.rs`).
    remote: Option<RemoteEnd>,
    /// The name the connection gave in `hello` (cleaned), which a seat it takes is named by.
    name: Mutex<Option<Arc<str>>>,
}

/// A cloneable sending end of one connection's outgoing queue.
#[derive(Debug, Clone)]
pub struct Outbox {
    shared: Arc<Shared>,
}

impl Release for Outbox {
    fn release(&self) {
        Outbox::release(self);
    }
}

impl Outbox {
    /// An outbox writing to `socket`, holding up to `capacity` frames and `max_bytes` bytes
    /// the socket could not take at once, and counting in `overflows` each time it closes
    /// the connection for want of room.
    pub(super) fn new(
        socket: TcpStream,
        capacity: usize,
        max_bytes: usize,
        gate: Option<Arc<Commits>>,
        overflows: Counter,
    ) -> Outbox {
        Outbox::build(Some(socket), capacity, max_bytes, gate, overflows)
    }

    /// An outbox with no socket: every frame stays queued until taken from the returned
    /// [`Tap`]. For tests of what battles send. Bounded in frames only.
    pub fn detached(capacity: usize) -> (Outbox, Tap) {
        Outbox::detached_with(capacity, usize::MAX)
    }

    /// A [detached](Outbox::detached) outbox bounded in bytes too.
    pub fn detached_with(capacity: usize, max_bytes: usize) -> (Outbox, Tap) {
        let outbox = Outbox::build(None, capacity, max_bytes, None, Counter::noop());
        let tap = Tap {
            outbox: outbox.clone(),
        };
        (outbox, tap)
    }

    fn build(
        socket: Option<TcpStream>,
        capacity: usize,
        max_bytes: usize,
        gate: Option<Arc<Commits>>,
        overflows: Counter,
    ) -> Outbox {
        Outbox {
            shared: Arc::new(Shared {
                id: ConnId::next(),
                capacity: capacity.max(1),
                max_bytes,
                socket,
                state: Mutex::new(State::default()),
                writer: AtomicWaker::new(),
                gate,
                overflows,
                mailbox: Mailbox::default(),
                remote: None,
                name: Mutex::new(None),
            }),
        }
    }

    /// Whether a frame carrying `ticket` may leave now.
    fn committed(&self, ticket: Ticket) -> bool {
        ticket == 0
            || self
                .shared
                .gate
                .as_ref()
                .is_none_or(|g| g.is_committed(ticket))
    }

    /// Whether the first queued frame may be written now.
    fn head_ready(&self, state: &State) -> bool {
        state
            .queue
            .front()
            .is_some_and(|q| self.committed(q.ticket))
    }

    /// After queueing a frame with `ticket`: have the store release this outbox when the
    /// ticket is committed (once registered, the whole queue is looked at then). If it is
    /// committed by now, nobody would release the frame: the writer task is woken to write
    /// it instead.
    fn hold_for(&self, state: &mut State, ticket: Ticket) {
        if state.held {
            return;
        }
        let registered = self
            .shared
            .gate
            .as_ref()
            .is_some_and(|gate| gate.wait(self, ticket));
        if registered {
            state.held = true;
        } else {
            self.shared.writer.wake();
        }
    }

    /// Make sure frames in the queue that wait for a commit will be released: whoever
    /// stops writing before them (the writer, the store's writer) registers the outbox.
    fn hold_queued(&self, state: &mut State) {
        if state.held {
            return;
        }
        if let Some(ticket) = state.queue.iter().map(|q| q.ticket).max() {
            self.hold_for(state, ticket);
        }
    }

    /// For the store's writer after a commit: write what may now leave, and leave the rest
    /// to the writer task when the socket is full (frames still waiting for a later commit
    /// stay registered: [`Outbox::flush_locked`] sees to it).
    pub fn release(&self) {
        let mut state = self.state();
        state.held = false;
        if state.ended {
            return;
        }
        let flushed = self.flush_locked(&mut state);
        let closing = state.closing;
        drop(state);
        // The writer takes over when the socket is full, or when a close waits behind what
        // was just written; otherwise it has nothing to do.
        if matches!(flushed, Ok(Flushed::Blocked) | Err(_)) || closing {
            self.shared.writer.wake();
        }
    }

    /// This connection's id.
    pub fn id(&self) -> ConnId {
        self.shared.id
    }

    /// The address the connection comes from (`None` for another node's connection, or a
    /// socket already gone). One system call: for rare decisions only.
    pub fn peer_ip(&self) -> Option<std::net::IpAddr> {
        let peer = self.shared.socket.as_ref()?.peer_addr().ok()?;
        Some(peer.ip().to_canonical())
    }

    /// The connection's mailbox: battles others put it in, and whether it waits in the
    /// matchmaker's queue.
    pub fn mailbox(&self) -> &Mailbox {
        &self.shared.mailbox
    }

    /// The name the connection gave in `hello` (already cleaned), if it gave one.
    pub fn name(&self) -> Option<String> {
        let name = self.shared.name.locked();
        name.as_deref().map(str::to_owned)
    }

    /// Keep the name the connection gave (`None`: it gave none, or an empty one); a seat it
    /// takes from now on is named by it.
    pub fn set_name(&self, name: Option<&str>) {
        let mut kept = self.shared.name.locked();
        *kept = name.map(Arc::from);
    }

    /// Whether the connection is closing or gone: nothing offered to it is sent any more.
    pub fn is_closed(&self) -> bool {
        let state = self.state();
        state.closing || state.ended
    }

    /// The bytes queued for this connection now: what its outbox pins, each frame counted
    /// at its full length.
    pub fn queued_bytes(&self) -> usize {
        self.state().queued_bytes
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock, and the state stays consistent between
        // statements anyway: a poisoned lock still holds a usable value.
        self.shared.state.locked()
    }

    /// Frames written whole and bytes written to the socket so far.
    pub fn sent(&self) -> (u64, u64) {
        let state = self.state();
        (state.sent_frames, state.sent_bytes)
    }

    /// The socket, for the connection's reader and writer.
    pub(super) fn socket(&self) -> Option<&TcpStream> {
        self.shared.socket.as_ref()
    }

    /// Send or queue a frame without waiting. A queue that is full (in frames or in bytes)
    /// closes the connection: its queued frames are dropped at once and the writer sends a
    /// close frame with 1013 ([`Offer::Lagging`]). A frame offered while nothing is queued
    /// is always taken, whatever its size.
    pub fn offer_frame(&self, frame: Frame) -> Offer {
        self.offer_frame_at(frame, 0)
    }

    /// Send or queue a frame that may leave once `ticket` is committed (0: at once, in
    /// order behind anything queued), without waiting. A full queue closes the connection.
    pub fn offer_frame_at(&self, frame: Frame, ticket: Ticket) -> Offer {
        let mut state = self.state();
        if state.ended || state.closing {
            return Offer::Closed;
        }
        if let Some(end) = &self.shared.remote {
            return end.send(&[&frame]);
        }
        if self.poisoned(ticket) {
            return Offer::Queued;
        }
        if state.queue.is_empty() {
            if self.committed(ticket) {
                if let Some(socket) = &self.shared.socket {
                    match socket.try_write(frame.bytes()) {
                        Ok(n) if n == frame.len() => {
                            state.sent_frames += 1;
                            state.sent_bytes += n as u64;
                            return Offer::Queued;
                        }
                        Ok(n) => {
                            state.sent_bytes += n as u64;
                            state.offset = n;
                        }
                        Err(err) if err.kind() == io::ErrorKind::WouldBlock => {}
                        Err(_) => {
                            self.end_locked(&mut state);
                            return Offer::Closed;
                        }
                    }
                }
                state.push(Queued { frame, ticket });
                drop(state);
                self.shared.writer.wake();
                return Offer::Queued;
            }
            state.push(Queued { frame, ticket });
            self.hold_for(&mut state, ticket);
            return Offer::Queued;
        }
        if !self.has_room(&state, 1, frame.len()) {
            self.lag_locked(&mut state);
            return Offer::Lagging;
        }
        state.push(Queued { frame, ticket });
        self.hold_for(&mut state, ticket);
        Offer::Queued
    }

    /// Whether `frames` more frames of `bytes` in all fit behind a non-empty queue.
    fn has_room(&self, state: &State, frames: usize, bytes: usize) -> bool {
        state.queue.len() + frames <= self.shared.capacity
            && state.queued_bytes.saturating_add(bytes) <= self.shared.max_bytes
    }

    /// Send or queue several frames for one connection at once, in order, without waiting:
    /// when nothing is queued ahead of them they go out in one vectored write (a reply and
    /// the snapshot that follows it cost one `send`, not two). A queue that cannot hold
    /// them all closes the connection, as in [`Outbox::offer_frame`].
    pub fn offer_frames<const N: usize>(&self, frames: [Frame; N]) -> Offer {
        self.offer_frames_at(frames, 0)
    }

    /// [`Outbox::offer_frames`] for frames that may leave once `ticket` is committed.
    pub fn offer_frames_at<const N: usize>(&self, frames: [Frame; N], ticket: Ticket) -> Offer {
        let mut state = self.state();
        if state.ended || state.closing {
            return Offer::Closed;
        }
        if let Some(end) = &self.shared.remote {
            let frames: Vec<&Frame> = frames.iter().collect();
            return end.send(&frames);
        }
        if self.poisoned(ticket) {
            return Offer::Queued;
        }
        let was_empty = state.queue.is_empty();
        let bytes = frames.iter().map(Frame::len).sum();
        if !was_empty && !self.has_room(&state, N, bytes) {
            self.lag_locked(&mut state);
            return Offer::Lagging;
        }
        for frame in frames {
            state.push(Queued { frame, ticket });
        }
        if !was_empty || !self.committed(ticket) {
            self.hold_for(&mut state, ticket);
            return Offer::Queued;
        }
        match self.flush_locked(&mut state) {
            Ok(Flushed::Done) => Offer::Queued,
            Ok(_) => {
                drop(state);
                self.shared.writer.wake();
                Offer::Queued
            }
            Err(_) => Offer::Closed,
        }
    }

    /// Send or queue a text frame without waiting (a copy of `text`). For tests.
    #[cfg(test)]
    pub fn offer(&self, text: &str) -> Offer {
        self.offer_frame(Frame::text(text))
    }

    /// Serialize and send or queue one message without waiting.
    pub fn offer_msg(&self, msg: &ServerMsg) -> Offer {
        self.offer_frame(message_frame(msg))
    }

    /// Serialize and send or queue one message that may leave once `ticket` is committed.
    pub fn offer_msg_at(&self, msg: &ServerMsg, ticket: Ticket) -> Offer {
        self.offer_frame_at(message_frame(msg), ticket)
    }

    /// Close the connection because it cannot keep up: what is queued is dropped at once
    /// (see [`Outbox::offer_frame`]), and the writer sends the close frame (1013).
    pub fn close_lagging(&self) {
        let mut state = self.state();
        self.lag_locked(&mut state);
    }

    /// Drop the queue and ask for a close with 1013. A frame the socket has taken part of
    /// stays, so the close frame follows a whole frame; the rest of the queue's memory is
    /// given back now, not when the writer gets to it.
    fn lag_locked(&self, state: &mut State) {
        if state.closing || state.ended {
            return;
        }
        self.shared.overflows.increment(1);
        let held = state
            .queue
            .iter()
            .filter(|q| !self.committed(q.ticket))
            .count();
        tracing::warn!(
            conn = self.shared.id.0,
            frames = state.queue.len(),
            bytes = state.queued_bytes,
            held,
            "a connection that cannot keep up: its queue is full, closing it with 1013"
        );
        let started = if state.offset > 0 {
            state.queue.pop_front()
        } else {
            None
        };
        state.queue = VecDeque::new();
        state.queued_bytes = 0;
        if let Some(started) = started {
            state.push(started);
        }
        self.close_locked(state, CloseCode::Again, LAGGING);
    }

    /// Tell the writer to send what is queued, then close the connection with this code.
    /// The first close asked for wins; nothing offered afterwards is sent.
    pub fn close(&self, code: CloseCode, reason: &str) {
        let mut state = self.state();
        self.close_locked(&mut state, code, reason);
    }

    fn close_locked(&self, state: &mut State, code: CloseCode, reason: &str) {
        if state.closing || state.ended {
            return;
        }
        if let Some(end) = &self.shared.remote {
            state.closing = true;
            end.close(code.into(), reason);
            return;
        }
        state.closing = true;
        state.close = Some(Frame::close(code, reason));
        self.shared.writer.wake();
    }

    /// End the connection at once: nothing queued is sent, the socket is shut down (its
    /// reader sees the end of the stream) and every later offer reports
    /// [`Offer::Closed`].
    pub(super) fn end(&self) {
        let mut state = self.state();
        self.end_locked(&mut state);
    }

    fn end_locked(&self, state: &mut State) {
        if state.ended {
            return;
        }
        state.ended = true;
        state.closing = true;
        state.close = None;
        state.queue = VecDeque::new();
        state.queued_bytes = 0;
        state.offset = 0;
        if let Some(socket) = &self.shared.socket {
            let _ = socket2::SockRef::from(socket).shutdown(Shutdown::Both);
        }
        self.shared.writer.wake();
    }

    /// For the writer: what to do next, or `Pending` (with the task registered) while there
    /// is nothing to do.
    pub(super) fn poll_work(&self, cx: &mut Context<'_>) -> Poll<Work> {
        let mut state = self.state();
        if state.ended {
            return Poll::Ready(Work::End);
        }
        if let Some(frame) = state.close.take() {
            return Poll::Ready(Work::Close(frame));
        }
        if self.head_ready(&state) {
            return Poll::Ready(Work::Write);
        }
        // Registered under the lock: an offer that queues after this check wakes the task
        // (frames held for a commit are written by the store's writer, or wake the task).
        self.shared.writer.register(cx.waker());
        Poll::Pending
    }

    /// For the writer: whether a close (or the end) was asked for, registering the task to
    /// be woken when it is.
    pub(super) fn poll_closing(&self, cx: &mut Context<'_>) -> Poll<()> {
        let state = self.state();
        if state.closing {
            return Poll::Ready(());
        }
        self.shared.writer.register(cx.waker());
        Poll::Pending
    }

    /// For the writer: write queued frames until the queue is empty, the socket is full or
    /// the next frame waits for a commit. `extra` is queued behind them first (the close
    /// frame).
    pub(super) fn flush(&self, extra: Option<Frame>) -> io::Result<Flushed> {
        let mut state = self.state();
        if state.ended {
            return Err(io::ErrorKind::NotConnected.into());
        }
        if let Some(frame) = extra {
            state.push(Queued { frame, ticket: 0 });
        }
        self.flush_locked(&mut state)
    }

    /// Write queued frames, under the lock, until the queue is empty, the socket is full or
    /// the next frame waits for a commit; a failed write ends the connection.
    fn flush_locked(&self, state: &mut State) -> io::Result<Flushed> {
        self.drop_poisoned(state);
        let Some(socket) = &self.shared.socket else {
            return Ok(if state.queue.is_empty() {
                Flushed::Done
            } else {
                Flushed::Held
            });
        };
        while !state.queue.is_empty() {
            let written = {
                let mut slices = Vec::with_capacity(FRAMES_PER_WRITE);
                let mut offset = state.offset;
                for queued in state
                    .queue
                    .iter()
                    .take(FRAMES_PER_WRITE)
                    .take_while(|q| self.committed(q.ticket))
                {
                    slices.push(IoSlice::new(&queued.frame.bytes()[offset..]));
                    offset = 0;
                }
                if slices.is_empty() {
                    self.hold_queued(state);
                    return Ok(Flushed::Held);
                }
                match socket.try_write_vectored(&slices) {
                    Ok(n) => n,
                    Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                        self.hold_queued(state);
                        return Ok(Flushed::Blocked);
                    }
                    Err(err) => {
                        self.end_locked(state);
                        return Err(err);
                    }
                }
            };
            state.sent_bytes += written as u64;
            let mut left = written + state.offset;
            state.offset = 0;
            while let Some(front) = state.queue.front() {
                if left < front.frame.len() {
                    state.offset = left;
                    break;
                }
                left -= front.frame.len();
                state.pop();
                state.sent_frames += 1;
            }
        }
        // A queue that once backed up gives its memory back.
        if state.queue.capacity() > FRAMES_PER_WRITE {
            state.queue = VecDeque::new();
        }
        Ok(Flushed::Done)
    }
}

impl State {
    /// Queue `queued` behind the rest, counting its bytes.
    fn push(&mut self, queued: Queued) {
        self.queued_bytes += queued.frame.len();
        self.queue.push_back(queued);
    }

    /// Take the oldest queued frame, uncounting its bytes.
    fn pop(&mut self) -> Option<Queued> {
        let queued = self.queue.pop_front()?;
        self.queued_bytes -= queued.frame.len();
        Some(queued)
    }
}

/// How far a flush got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flushed {
    /// Everything queued is written.
    Done,
    /// The socket is full.
    Blocked,
    /// The next frame waits for a commit.
    Held,
}

/// One server message as a text frame.
pub fn message_frame(msg: &ServerMsg) -> Frame {
    let mut frame = FrameBuf::with_capacity(128);
    // Every field is a plain value, a string-keyed map or a serde_json::Value, all of
    // which serialize without error; writing into a Vec cannot fail.
    serde_json::to_writer(frame.out(), msg).expect("server messages always serialize");
    frame.text()
}

/// Reason given when a connection is closed for not keeping up.
const LAGGING: &str = "too slow to keep up; reconnect and resync";

/// The receiving end of a [detached](Outbox::detached) outbox, for tests. Dropping it ends
/// the connection, as a writer that stopped would.
#[derive(Debug)]
pub struct Tap {
    outbox: Outbox,
}

impl Tap {
    /// The oldest queued text frame's payload, if any.
    pub fn try_recv(&mut self) -> Result<Utf8Bytes, Empty> {
        let mut state = self.outbox.state();
        while let Some(Queued { frame, .. }) = state.pop() {
            if frame.is_text() {
                return Utf8Bytes::try_from(frame.payload()).map_err(|_| Empty);
            }
        }
        Err(Empty)
    }

    /// The close code asked for, if a close was asked for.
    pub fn close_code(&self) -> Option<u16> {
        let state = self.outbox.state();
        state.close.as_ref().map(|frame| {
            let payload = frame.payload();
            u16::from_be_bytes([payload[0], payload[1]])
        })
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        self.outbox.end();
    }
}

/// Nothing is queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Empty;

mod cluster;

#[cfg(test)]
mod tests;
