//! The dumb reader: reads the socket, decodes each frame and routes it to the lobby or to a
//! battle. Its one timer pings the client and closes a connection that stopped answering or
//! stays idle in no battle ([`Keepalive`]); a frame only raises a flag for it.

use std::collections::HashMap;
use std::io::{self, Read as _};
use std::net::IpAddr;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};
use tokio::io::Interest;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tracing::Instrument;

use super::decode::decode;
use super::frame::Frame;
use super::frame_reader::{Fed, FrameReader, Inbound, ReadError};
use super::keepalive::{Expiry, Keepalive, Look, Timeouts};
use super::lobby_reads;
use super::outbox::Outbox;
use super::rate::{retry_after_ms, Limits};
use crate::battle::{BattleHandle, Command, Offered, Seating};
use crate::config::{Config, Rate};
use crate::lobby::{CreateRequest, Lobby, Placed};
use crate::matchmaker::QueueRequest;
use crate::quota::Creator;

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
    let mut chunk = [0u8; READ_CHUNK];
    let mut read = None;
    let outcome = socket.try_io(Interest::READABLE, || {
        let n = (&*socket2::SockRef::from(socket)).read(&mut chunk)?;
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
                let taken = router.limits.messages.take();
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
                if router.limits.messages.take().is_ok() {
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

/// A command for a battle whose queue was full, to be sent once there is room.
struct Blocked {
    handle: BattleHandle,
    command: Command,
    then: Then,
}

/// What routing does once a command reached its battle (or found it gone).
enum Then {
    /// The connection joined, rejoined or watches: remember the battle.
    Entered {
        battle_id: String,
        req: Option<u64>,
        handle: BattleHandle,
    },
    /// A command within a battle; `leaving` forgets the battle.
    Within {
        battle_id: String,
        req: Option<u64>,
        leaving: bool,
    },
}

struct Router {
    outbox: Outbox,
    lobby: Arc<Lobby>,
    /// Battles this connection joined or watches.
    battles: HashMap<String, BattleHandle>,
    /// While in no battle: since when (the connection opened, left its last battle, or
    /// made its last request other than `ping`). `None` while in a battle.
    idle_since: Option<Instant>,
    /// This connection's token buckets.
    limits: Limits,
    /// This connection's open battles and its address.
    creator: Creator,
    /// Refused too often: the connection is to be closed with 1008.
    flooding: bool,
}

impl Router {
    fn reply(&self, msg: ServerMsg) {
        self.outbox.offer_msg(&msg);
    }

    /// Whether a message got its token (`taken`, from the message bucket); without one,
    /// answer `rate_limited` for `msg`: nothing else is done.
    fn admitted(&mut self, taken: Result<(), Duration>, msg: Option<&ClientMsg>) -> bool {
        match taken {
            Ok(()) => true,
            Err(wait) => {
                let rate = self.limits.messages.rate();
                self.rate_limited("messages", rate, wait, msg);
                false
            }
        }
    }

    /// Check the bucket of an expensive request (lobby reads, creates); without a token,
    /// answer `rate_limited` and return false.
    fn admit_request(&mut self, msg: &ClientMsg) -> bool {
        let (what, taken, rate) = match msg {
            ClientMsg::Hello { .. } | ClientMsg::List { .. } | ClientMsg::Replay { .. } => (
                "lobby requests (hello, list, replay)",
                self.limits.lobby.take(),
                self.limits.lobby.rate(),
            ),
            // A queue may create a battle: it is held to the create rates.
            ClientMsg::Create { .. } | ClientMsg::Queue { .. } => {
                match self.limits.creates.take() {
                    Ok(()) => (
                        "creates from your address",
                        self.creator.take_create(),
                        self.creator.create_rate(),
                    ),
                    Err(wait) => ("creates", Err(wait), self.limits.creates.rate()),
                }
            }
            _ => return true,
        };
        match taken {
            Ok(()) => true,
            Err(wait) => {
                self.rate_limited(what, rate, wait, Some(msg));
                false
            }
        }
    }

    /// Refuse `msg` (if it could be read) over `rate` with `rate_limited` and the time to
    /// wait, echoing its `req` and battle; a connection refused too often is flooding.
    fn rate_limited(&mut self, what: &str, rate: Rate, wait: Duration, msg: Option<&ClientMsg>) {
        let retry = retry_after_ms(wait);
        let mut refusal = ServerMsg::rate_limited(
            format!(
                "too many {what}: at most {} a second ({} at once); retry in {retry} ms",
                rate.per_sec, rate.burst
            ),
            retry,
            msg.and_then(ClientMsg::req),
        );
        if let ServerMsg::Error { battle_id, .. } = &mut refusal {
            *battle_id = msg.and_then(battle_of).map(str::to_string);
        }
        self.reply(refusal);
        self.flooding |= self.limits.refused();
    }

    /// Answer or forward one frame. Commands go to battles with `try_send`; `Some` when a
    /// battle's queue is full, for the caller to wait on and then report to
    /// [`Router::delivered`]. (Keeping the wait out of here keeps each connection's task
    /// small: a waiting send's state is large and almost never needed.)
    fn route(&mut self, text: &str) -> Option<Blocked> {
        // Battles someone else put this connection in are routed to like its own.
        self.take_mail();
        // The token is taken first; the message is read even without one, for the refusal
        // to echo its `req`.
        let taken = self.limits.messages.take();
        let msg = match decode(text) {
            Ok(msg) => msg,
            Err(error) => {
                if self.admitted(taken, None) {
                    self.reply(error);
                }
                return None;
            }
        };
        if self.battles.is_empty() && !matches!(msg, ClientMsg::Ping { .. }) {
            // A request (a `ping` aside) keeps a connection in no battle from idling out.
            self.idle_since = Some(Instant::now());
        }
        if !self.admitted(taken, Some(&msg)) || !self.admit_request(&msg) {
            return None;
        }
        let from = self.outbox.clone();
        if self.lobby.is_draining() {
            self.reply(ServerMsg::error(
                ErrorCode::ServerBusy,
                "the server is shutting down; reconnect in a moment".to_string(),
                msg.req(),
            ));
            return None;
        }
        match msg {
            ClientMsg::Hello { protocol, req, .. } => {
                if protocol == PROTOCOL_VERSION {
                    self.reply(ServerMsg::Welcome {
                        server: concat!("battle-server ", env!("CARGO_PKG_VERSION")).to_string(),
                        protocol: PROTOCOL_VERSION,
                        rulesets: self.lobby.rulesets().to_vec(),
                        req,
                    });
                } else {
                    self.reply(ServerMsg::error(
                        ErrorCode::UnsupportedProtocol,
                        format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
                        req,
                    ));
                }
            }
            ClientMsg::Ping { req } => self.reply(ServerMsg::Pong { req }),
            ClientMsg::List {
                finished,
                limit,
                cursor,
                req,
            } => {
                // Cluster-wide, or with the finished battles: read off this task.
                if finished && cursor.is_none() || self.lobby.cluster().is_some() {
                    let (lobby, outbox) = (self.lobby.clone(), self.outbox.clone());
                    let read = lobby_reads::list(lobby, outbox, cursor, limit, finished, req);
                    tokio::spawn(read.in_current_span());
                    return None;
                }
                let msg = match self.lobby.list(cursor.as_deref(), limit) {
                    Ok(page) => lobby_reads::battles(page, None, req),
                    Err((code, message)) => ServerMsg::error(code, message, req),
                };
                self.reply(msg);
            }
            ClientMsg::Replay { battle_id, req } => {
                let (lobby, outbox) = (self.lobby.clone(), self.outbox.clone());
                let read = lobby_reads::replay(lobby, outbox, battle_id, req);
                tokio::spawn(read.in_current_span());
            }
            ClientMsg::Create {
                ruleset,
                options,
                bots,
                private,
                pace_ms,
                grace_ms,
                seed,
                spectator_delay_ms,
                timer,
                req,
            } => {
                let request = CreateRequest {
                    spectator_delay_ms,
                    ruleset,
                    options,
                    bots,
                    private,
                    pace_ms,
                    grace_ms,
                    seed,
                    timer,
                };
                match self.lobby.place(&request, &self.outbox, req) {
                    Placed::Here => {}
                    Placed::Elsewhere => return None,
                    Placed::Refused((code, message)) => {
                        self.reply(ServerMsg::error(code, message, req));
                        return None;
                    }
                }
                match self.lobby.create(request, &self.creator) {
                    Ok((battle_id, ticket)) => {
                        // Sent once the battle is committed: a crash cannot lose a battle
                        // its creator was told about.
                        self.outbox
                            .offer_msg_at(&ServerMsg::Created { battle_id, req }, ticket);
                    }
                    Err((code, message)) => self.reply(ServerMsg::error(code, message, req)),
                }
            }
            ClientMsg::Join {
                battle_id,
                seat,
                setup,
                req,
            } => {
                let join = Command::Join {
                    from,
                    seat,
                    setup,
                    req,
                    answer: Seating::Joined,
                };
                return self.enter(battle_id, req, join);
            }
            ClientMsg::Rejoin {
                battle_id,
                token,
                req,
            } => return self.enter(battle_id, req, Command::Rejoin { from, token, req }),
            ClientMsg::Spectate { battle_id, req } => {
                return self.enter(battle_id, req, Command::Spectate { from, req })
            }
            ClientMsg::Act {
                battle_id,
                action,
                req,
            } => {
                let act = Command::Act {
                    from,
                    action,
                    req,
                    received: Instant::now(),
                };
                return self.within(battle_id, req, act, false);
            }
            ClientMsg::Resync { battle_id, req } => {
                return self.within(battle_id, req, Command::Resync { from, req }, false)
            }
            ClientMsg::Resign { battle_id, req } => {
                return self.within(battle_id, req, Command::Resign { from, req }, false)
            }
            ClientMsg::Leave { battle_id, req } => {
                return self.within(battle_id, req, Command::Leave { from, req }, true)
            }
            ClientMsg::Queue {
                ruleset,
                options,
                sample,
                setup,
                bot_after_ms,
                req,
            } => {
                let request = QueueRequest {
                    ruleset,
                    options,
                    sample,
                    setup,
                    bot_after_ms,
                };
                let matchmaker = self.lobby.matchmaker();
                if let Err((code, message)) =
                    matchmaker.queue(self.lobby.config(), request, from, req)
                {
                    self.reply(ServerMsg::error(code, message, req));
                }
            }
            ClientMsg::Unqueue { req } => {
                if let Err((code, message)) = self.lobby.matchmaker().unqueue(from, req) {
                    self.reply(ServerMsg::error(code, message, req));
                }
            }
        }
        None
    }

    /// Send a command that makes this connection part of a battle.
    fn enter(&mut self, battle_id: String, req: Option<u64>, command: Command) -> Option<Blocked> {
        let Some(handle) = self.lobby.handle(&battle_id) else {
            self.no_such_battle(&battle_id, req);
            return None;
        };
        let then = Then::Entered {
            battle_id,
            req,
            handle: handle.clone(),
        };
        self.offer(handle, command, then)
    }

    /// Send a command to a battle this connection is part of; `leaving` forgets the battle
    /// once the command is delivered.
    fn within(
        &mut self,
        battle_id: String,
        req: Option<u64>,
        command: Command,
        leaving: bool,
    ) -> Option<Blocked> {
        let handle = match self.battles.get(&battle_id) {
            Some(handle) => handle.clone(),
            None if self.lobby.knows(&battle_id) => {
                self.reply(ServerMsg::Error {
                    code: ErrorCode::NotInBattle,
                    message: "join, rejoin or spectate this battle first".into(),
                    battle_id: Some(battle_id),
                    req,
                    retry_after_ms: None,
                });
                return None;
            }
            None => {
                self.no_such_battle(&battle_id, req);
                return None;
            }
        };
        self.offer(
            handle,
            command,
            Then::Within {
                battle_id,
                req,
                leaving,
            },
        )
    }

    /// Queue `command` if the battle has room; otherwise hand it back to wait on.
    fn offer(&mut self, handle: BattleHandle, command: Command, then: Then) -> Option<Blocked> {
        match handle.try_offer(command) {
            Ok(()) => {
                self.delivered(then, true);
                None
            }
            Err(Offered::Gone) => {
                self.delivered(then, false);
                None
            }
            Err(Offered::Full(command)) => Some(Blocked {
                handle,
                command,
                then,
            }),
        }
    }

    /// Finish routing a command once it was delivered to its battle, or found it gone.
    fn delivered(&mut self, then: Then, delivered: bool) {
        match (then, delivered) {
            (
                Then::Entered {
                    battle_id, handle, ..
                },
                true,
            ) => {
                self.battles.insert(battle_id, handle);
                self.idle_since = None;
            }
            (
                Then::Within {
                    battle_id, leaving, ..
                },
                true,
            ) => {
                if leaving {
                    self.forget(&battle_id);
                }
            }
            (Then::Entered { battle_id, req, .. }, false) => self.no_such_battle(&battle_id, req),
            (Then::Within { battle_id, req, .. }, false) => {
                self.forget(&battle_id);
                self.no_such_battle(&battle_id, req);
            }
        }
    }

    /// Forget a battle this connection left (or that went away); in no battle any more, it
    /// starts to idle.
    fn forget(&mut self, battle_id: &str) {
        if self.battles.remove(battle_id).is_some() && self.battles.is_empty() {
            self.idle_since = Some(Instant::now());
        }
    }

    /// Learn of the battles someone else (the matchmaker) made this connection part of:
    /// from now on they are routed to, and told when the connection closes. With nothing
    /// posted, one relaxed load.
    #[inline]
    fn take_mail(&mut self) {
        let entered = self.outbox.mailbox().take();
        if entered.is_empty() {
            return;
        }
        for entered in entered {
            self.battles.insert(entered.battle_id, entered.handle);
        }
        self.idle_since = None;
    }

    /// A connection in no battle that waits in the matchmaker's queue is in use: its idle
    /// time starts again at every look while it waits (so from about when it stops waiting).
    fn waiting_in_queue(&mut self, now: Instant) {
        if self.idle_since.is_some() && self.outbox.mailbox().is_queued() {
            self.idle_since = Some(now);
        }
    }

    /// Forget the battles that ended and went away (their actors are gone) since the last
    /// look; in no battle any more, the connection starts to idle at `now`.
    fn forget_ended_battles(&mut self, now: Instant) {
        if self.battles.is_empty() {
            return;
        }
        self.battles.retain(|_, handle| !handle.is_closed());
        if self.battles.is_empty() {
            self.idle_since = Some(now);
        }
    }

    fn no_such_battle(&self, battle_id: &str, req: Option<u64>) {
        self.reply(ServerMsg::Error {
            code: ErrorCode::NoSuchBattle,
            message: format!("no battle {battle_id:?} (it may have ended and expired)"),
            battle_id: Some(battle_id.to_string()),
            req,
            retry_after_ms: None,
        });
    }
}

/// The battle a message names, if it names one.
fn battle_of(msg: &ClientMsg) -> Option<&str> {
    match msg {
        ClientMsg::Join { battle_id, .. }
        | ClientMsg::Rejoin { battle_id, .. }
        | ClientMsg::Spectate { battle_id, .. }
        | ClientMsg::Act { battle_id, .. }
        | ClientMsg::Resync { battle_id, .. }
        | ClientMsg::Resign { battle_id, .. }
        | ClientMsg::Leave { battle_id, .. }
        | ClientMsg::Replay { battle_id, .. } => Some(battle_id),
        ClientMsg::Hello { .. }
        | ClientMsg::List { .. }
        | ClientMsg::Create { .. }
        | ClientMsg::Queue { .. }
        | ClientMsg::Unqueue { .. }
        | ClientMsg::Ping { .. } => None,
    }
}
