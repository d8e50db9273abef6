//! The dumb reader: reads the socket, decodes each frame and routes it to the lobby or to a
//! battle. Its one timer pings the client and closes a connection that stopped answering or
//! stays idle in no battle ([`Keepalive`]); a frame only raises a flag for it.

use std::collections::HashMap;
use std::io::{self, Read as _};
use std::net::IpAddr;
use std::ops::ControlFlow;
use std::sync::Arc;

use battle_protocol::{ErrorCode, ServerMsg};
use tokio::io::Interest;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::frame::Frame;
use super::frame_reader::{Fed, FrameReader, Inbound, ReadError};
use super::keepalive::{Expiry, Keepalive, Look, Timeouts};
use super::outbox::Outbox;
use super::router::{Blocked, Router};
use crate::battle::Command;
use crate::config::Config;
use crate::lobby::Lobby;
use crate::rate::Limits;

/// Bytes read from the socket at a time, into a buffer on the stack: a connection keeps no
/// read buffer between reads (client frames are a few hundred bytes; a longer one is
/// carried over in pieces).
const READ_CHUNK: usize = 4096;

/// How the connection ends.
enum End {
    /// The client went away, or the socket was shut down (by the writer, say).
    Gone,
    /// The client sent a close frame: answer it.
    Close,
    /// The client broke the WebSocket protocol or a limit.
    Refused(ReadError),
    /// The client stopped answering pings, or stayed idle in no battle.
    Expired(Expiry),
    /// The client kept sending past its rate limits: close with 1008 (policy violation).
    Flooding,
}

/// What to do after routing what was read.
enum Step {
    /// Read on.
    More,
    /// A battle's queue is full: wait for room, then route the rest of what was read.
    Blocked(Blocked),
    /// Stop reading.
    End(End),
}

/// Read frames until the client leaves or the connection is shut down; then tell every battle
/// this connection was part of that it is gone. `peer` is the client's address, which its
/// open-battle quota and create rate are shared with; `early`, bytes read with the opening
/// handshake, is read first.
pub async fn run(outbox: Outbox, lobby: Arc<Lobby>, peer: Option<IpAddr>, early: Option<Vec<u8>>) {
    let mut frames = FrameReader::new(lobby.config().max_frame_bytes);
    let conn = outbox.clone();
    let opened = Instant::now();
    let mut keepalive = Keepalive::new(timeouts(lobby.config()), opened);
    let mut router = Router {
        outbox,
        limits: Limits::new(lobby.config()),
        creator: lobby.quotas().creator(peer),
        lobby,
        battles: HashMap::new(),
        idle_since: Some(opened),
        flooding: false,
    };
    let look = tokio::time::sleep_until(keepalive.first_look(opened));
    let mut look = std::pin::pin!(look);
    // Whether anything arrived since the keepalive's last look.
    let mut heard = false;
    let mut ended = None;
    if let Some(mut early) = early {
        let step = route_frames(&mut frames, &mut early, &mut router);
        ended = settle(step, &mut frames, &mut router).await;
    }
    let end = loop {
        if let Some(end) = ended.take() {
            break end;
        }
        let Some(socket) = conn.socket() else {
            break End::Gone;
        };
        tokio::select! {
            biased;
            ready = socket.readable() => if ready.is_err() {
                break End::Gone;
            },
            () = &mut look => {
                let now = Instant::now();
                router.take_mail();
                router.forget_ended_battles(now);
                router.waiting_in_queue(now);
                match keepalive.look(now, std::mem::take(&mut heard), router.idle_since) {
                    Look::Wait(next) => look.as_mut().reset(next),
                    Look::Ping(next) => {
                        conn.offer_frame(Frame::ping(&[]));
                        look.as_mut().reset(next);
                    }
                    Look::Close(expiry) => break End::Expired(expiry),
                }
                continue;
            }
        }
        heard = true;
        let step = read_and_route(socket, &mut frames, &mut router);
        ended = settle(step, &mut frames, &mut router).await;
    };
    match end {
        End::Gone => conn.end(),
        End::Close => conn.close(CloseCode::Normal, ""),
        End::Refused(err) => {
            if let ReadError::TooBig { .. } = err {
                // The frame cannot be skipped, so the connection cannot carry on: explain,
                // then close with 1009 ("message too big").
                router.reply(ServerMsg::error(
                    ErrorCode::UnsupportedFrame,
                    format!("frame refused: {err}; the connection closes"),
                    None,
                ));
            }
            tracing::debug!(conn = conn.id().0, %err, "frame refused");
            conn.close(err.close_code(), &err.to_string());
        }
        End::Expired(expiry) => {
            tracing::debug!(conn = conn.id().0, %expiry, "connection closed");
            conn.close(expiry.close_code(), &expiry.to_string());
        }
        End::Flooding => {
            tracing::debug!(conn = conn.id().0, ?peer, "closed for flooding");
            conn.close(CloseCode::Policy, "too many requests over the rate limits");
        }
    }
    if router.outbox.mailbox().is_queued() {
        router.lobby.matchmaker().gone(router.outbox.id());
    }
    // Battles the connection was put in and has not heard of yet are told too; nobody can
    // put it in one from now on.
    for entered in router.outbox.mailbox().seal() {
        router.battles.insert(entered.battle_id, entered.handle);
    }
    for handle in router.battles.values() {
        // A full battle queue must not keep a dead connection's reader alive; the battle
        // also notices the closed outbox on its next broadcast.
        let _ = handle.try_send(Command::Disconnected {
            from: router.outbox.clone(),
        });
    }
}

/// Finish what routing `step` left: wait for room in a battle's full queue (back-pressure on
/// this client only), finish routing, then route what was read after it; how the connection
/// ends, if it does.
async fn settle(mut step: Step, frames: &mut FrameReader, router: &mut Router) -> Option<End> {
    while let Step::Blocked(blocked) = step {
        // Boxed, so the rarely needed waiting state is not part of every connection's task.
        let send = Box::pin(blocked.handle.send(blocked.command));
        let delivered = send.await.is_ok();
        router.delivered(blocked.then, delivered);
        step = route_frames(frames, &mut [], router);
    }
    match step {
        Step::End(end) => Some(end),
        Step::More | Step::Blocked(_) => None,
    }
}

/// The keepalive's timeouts from the server's settings.
fn timeouts(config: &Config) -> Timeouts {
    Timeouts {
        ping_interval: config.ping_interval,
        pong_timeout: config.pong_timeout,
        idle: config.idle_connection,
    }
}

/// Read what the socket has (without waiting) and route the frames in it.
///
/// A read that does not fill the chunk has drained the socket, so it is reported to tokio as
/// "would block", which clears the socket's readiness at once: the connection then waits
/// for the next data without a second read whose only answer would be `EAGAIN`. (Readiness
/// that arrives meanwhile is not lost: tokio clears only the readiness it saw before the
/// read.)
fn read_and_route(socket: &TcpStream, frames: &mut FrameReader, router: &mut Router) -> Step {
    // Nothing here awaits, and routing never reads another socket: the worker thread's
    // chunk is free (a fresh zeroed chunk per read cost about 4 % of a move's instructions).
    CHUNK.with_borrow_mut(|chunk| read_into(chunk, socket, frames, router))
}

thread_local! {
    /// Each worker thread's read buffer, zeroed once.
    static CHUNK: std::cell::RefCell<[u8; READ_CHUNK]> =
        const { std::cell::RefCell::new([0; READ_CHUNK]) };
}

/// [`read_and_route`] with the thread's buffer.
fn read_into(
    chunk: &mut [u8; READ_CHUNK],
    socket: &TcpStream,
    frames: &mut FrameReader,
    router: &mut Router,
) -> Step {
    let mut read = None;
    let outcome = socket.try_io(Interest::READABLE, || {
        let n = (&*socket2::SockRef::from(socket)).read(chunk)?;
        read = Some(n);
        if 0 < n && n < READ_CHUNK {
            Err(io::ErrorKind::WouldBlock.into())
        } else {
            Ok(())
        }
    });
    match (read, outcome) {
        (Some(0), _) => Step::End(End::Gone),
        (Some(n), _) => route_frames(frames, &mut chunk[..n], router),
        (None, Err(err)) if err.kind() != io::ErrorKind::WouldBlock => {
            tracing::debug!(conn = router.outbox.id().0, %err, "read failed");
            Step::End(End::Gone)
        }
        (None, _) => Step::More,
    }
}

/// Route every whole frame of `data` (after what was carried over), pausing at a command
/// whose battle has no room.
fn route_frames(frames: &mut FrameReader, data: &mut [u8], router: &mut Router) -> Step {
    let mut blocked = None;
    let fed = frames.feed(data, |inbound| {
        match inbound {
            Inbound::Text(text) => {
                if let Some(command) = router.route(text) {
                    blocked = Some(command);
                    return ControlFlow::Break(());
                }
            }
            Inbound::Binary(_) => {
                let taken = router.take_message();
                if router.admitted(taken, None) {
                    router.reply(ServerMsg::error(
                        ErrorCode::UnsupportedFrame,
                        "binary frames are not part of the protocol; send JSON text frames",
                        None,
                    ));
                }
            }
            Inbound::Ping(payload) => {
                // A ping over the rate is not answered (and counts as a refusal).
                if router.take_message().is_ok() {
                    router.outbox.offer_frame(Frame::pong(payload));
                } else {
                    router.flooding |= router.limits.refused();
                }
            }
            Inbound::Close(_) => {}
        }
        if router.flooding {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if router.flooding {
        return Step::End(End::Flooding);
    }
    match (fed, blocked) {
        (Ok(Fed::Paused), Some(blocked)) => Step::Blocked(blocked),
        (Ok(Fed::Done | Fed::Paused), _) => Step::More,
        (Ok(Fed::Closed), _) => Step::End(End::Close),
        (Err(err), _) => Step::End(End::Refused(err)),
    }
}
