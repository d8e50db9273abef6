//! One connection of the load test ([`Peer`]): its link, its `req` counter, receiving within
//! the stall timeout and the run's deadline, set-up requests waited for by their `req`; and,
//! with `--reconnect`, opening it again on the next server in turn after it failed and taking
//! its place in its battle back there: `rejoin` with the seat's token, or `spectate` again.

use std::borrow::Cow;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode, Req};
use tokio::time::{Instant, Sleep};

use super::buffers::Text;
use super::frame::{Frame, Ops};
use super::link::Link;
use super::slot::Shared;
use super::stats::Stats;
use super::target::Role;
use battle_client::ClientError;

/// How long a re-entry waits for its answer before asking again. The first ask may have
/// gone to the inbox of a node that died (the battle still named it as its owner until
/// another node took it over): such an ask is never answered.
const REENTRY_WAIT: Duration = Duration::from_secs(1);

/// Pause after every server of a role refused a new connection, before the next round.
const RECONNECT_PAUSE: Duration = Duration::from_millis(100);

/// Refusals a re-entry takes (each a second apart) before it gives up: a battle changing
/// hands is answered within a few leases, one that is gone never is.
const MAX_REENTRY_REFUSALS: u32 = 30;

/// A connection with its own `req` counter.
pub(super) struct Peer {
    link: Link,
    next_req: Req,
    /// Wakes a receive that waits too long. It is armed for the earliest moment the current
    /// receive could give up and re-armed only when it fires early: setting a timer per
    /// frame (and removing it when the frame comes first) costs more than the rare early
    /// wake-up.
    timer: Pin<Box<Sleep>>,
    /// Which servers it connects to.
    role: Role,
    /// The position of its server in the role's list.
    at: usize,
    /// The seat's token, once joined: what takes the seat back after a reconnect.
    pub(super) token: Option<String>,
}

/// What one receive gave.
pub(super) enum Recv {
    /// A text frame and when it arrived.
    Text(Text, Instant),
    /// The run's deadline passed.
    Deadline,
    /// Nothing arrived within the stall timeout.
    Stall,
    /// The connection failed.
    Failed(ClientError),
}

/// The answer to a set-up request.
pub(super) struct Reply {
    pub(super) kind: String,
    pub(super) battle_id: Option<String>,
    pub(super) code: Option<ErrorCode>,
    pub(super) token: Option<String>,
}

impl Peer {
    /// Open a connection of `role` to the next server in turn (with `--reconnect`, to the
    /// others in turn when that one refuses). `None`, the error counted, when none could be
    /// opened (or the deadline came first).
    pub(super) async fn open(shared: &Shared, role: Role) -> Option<Peer> {
        let targets = &shared.targets;
        let first = targets.pick(role);
        let tries = if shared.config.reconnect {
            targets.count(role)
        } else {
            1
        };
        let mut failed = None;
        for i in 0..tries {
            let at = (first + i) % targets.count(role);
            match tokio::time::timeout_at(shared.deadline, targets.connect(role, at)).await {
                Ok(Ok(link)) => {
                    Stats::add(&shared.stats.connections, 1);
                    Stats::add(&shared.stats.connections_opened, 1);
                    return Some(Peer {
                        link,
                        next_req: 0,
                        timer: Box::pin(tokio::time::sleep_until(shared.deadline)),
                        role,
                        at,
                        token: None,
                    });
                }
                Ok(Err(err)) => failed = Some(err),
                Err(_) => return None,
            }
        }
        if let Some(err) = failed {
            shared
                .stats
                .error(format!("{}_connect", client_error_key(&err)));
        }
        None
    }

    pub(super) fn req(&mut self) -> Req {
        self.next_req += 1;
        self.next_req
    }

    pub(super) async fn send(&mut self, msg: &ClientMsg, stats: &Stats) -> Result<(), ClientError> {
        let len = self.link.queue(msg)?;
        Stats::add(&stats.frames_out, 1);
        Stats::add(&stats.bytes_out, len as u64);
        self.link.flush().await
    }

    /// The next text frame, or why none came before `deadline` / the stall timeout.
    pub(super) async fn recv(&mut self, shared: &Shared) -> Recv {
        let until = (Instant::now() + shared.config.stall_timeout).min(shared.deadline);
        self.recv_until(shared, until).await
    }

    /// The next text frame, or why none came before `until` ([`Recv::Deadline`] when `until`
    /// is the run's deadline, else [`Recv::Stall`]).
    async fn recv_until(&mut self, shared: &Shared, until: Instant) -> Recv {
        let until = until.min(shared.deadline);
        if self.timer.deadline() > until {
            self.timer.as_mut().reset(until);
        }
        loop {
            let text = tokio::select! {
                biased;
                received = self.link.recv() => match received {
                    Err(ClientError::Binary(_)) => {
                        shared.stats.violation("binary_frame");
                        continue;
                    }
                    Err(err) => return Recv::Failed(err),
                    Ok(text) => text,
                },
                () = &mut self.timer => {
                    if Instant::now() < until {
                        // Armed by an earlier receive: wait on, up to this receive's own limit.
                        self.timer.as_mut().reset(until);
                        continue;
                    }
                    return if until == shared.deadline { Recv::Deadline } else { Recv::Stall };
                }
            };
            let at = Instant::now();
            Stats::add(&shared.stats.frames_in, 1);
            Stats::add(&shared.stats.bytes_in, text.len() as u64);
            return Recv::Text(text, at);
        }
    }

    /// Send a request built around a fresh `req` and wait for the message carrying it,
    /// skipping leftovers of earlier battles. With `--reconnect`, a connection that fails
    /// on the way is opened again (on the next server) and the request sent once more, and
    /// so is a request answered `node_lost`.
    pub(super) async fn request(
        &mut self,
        shared: &Shared,
        build: impl Fn(Option<Req>) -> ClientMsg,
    ) -> Result<Reply, ()> {
        let mut retried = !shared.config.reconnect;
        loop {
            let failed = match self.ask(shared, &build).await {
                Asked::Reply(reply)
                    if reply.code == Some(ErrorCode::NodeLost)
                        && !std::mem::replace(&mut retried, true) =>
                {
                    // The node that held it died first (a cluster): counted, and asked
                    // once more here, where it goes to a live node.
                    shared.stats.error("server:node_lost");
                    continue;
                }
                Asked::Reply(reply) => return Ok(reply),
                Asked::Failed(err) => err,
                Asked::Gone => return Err(()),
            };
            shared.stats.error(client_error_key(&failed));
            if std::mem::replace(&mut retried, true) || !self.reconnect(shared).await {
                return Err(());
            }
        }
    }

    /// One send of a set-up request and the wait for its answer.
    async fn ask(&mut self, shared: &Shared, build: impl Fn(Option<Req>) -> ClientMsg) -> Asked {
        let req = self.req();
        if let Err(err) = self.send(&build(Some(req)), &shared.stats).await {
            return Asked::Failed(err);
        }
        loop {
            match self.recv(shared).await {
                Recv::Text(text, _) => match Frame::decode(&text, &mut Ops::default()) {
                    Ok(frame) if frame.req == Some(req) => {
                        return Asked::Reply(Reply {
                            kind: frame.kind.into_owned(),
                            battle_id: frame.battle_id.map(Cow::into_owned),
                            code: frame.code,
                            token: frame.token.map(Cow::into_owned),
                        })
                    }
                    Ok(_) => continue,
                    Err(_) => {
                        shared.stats.violation("undecodable_message");
                        continue;
                    }
                },
                Recv::Deadline => return Asked::Gone,
                Recv::Stall => {
                    shared.stats.error("client:stall");
                    return Asked::Gone;
                }
                Recv::Failed(err) => return Asked::Failed(err),
            }
        }
    }

    /// Replace the link with a new connection to the next server of the peer's role in
    /// turn, trying them round until one accepts (or the deadline comes: `false`). Counted
    /// as a reconnect.
    pub(super) async fn reconnect(&mut self, shared: &Shared) -> bool {
        let targets = &shared.targets;
        let count = targets.count(self.role);
        let mut refused = 0;
        while Instant::now() < shared.deadline {
            self.at = (self.at + 1) % count;
            match tokio::time::timeout_at(shared.deadline, targets.connect(self.role, self.at))
                .await
            {
                Ok(Ok(link)) => {
                    self.link = link;
                    Stats::add(&shared.stats.connections_opened, 1);
                    shared.stats.reconnects.fetch_add(1, Ordering::Relaxed);
                    return true;
                }
                Ok(Err(_)) => {
                    refused += 1;
                    if refused % count == 0 {
                        let pause = Instant::now() + RECONNECT_PAUSE;
                        tokio::time::sleep_until(pause.min(shared.deadline)).await;
                    }
                }
                Err(_) => return false,
            }
        }
        false
    }

    /// After the link failed in `battle_id`: connect again (the next server in turn) and
    /// take the peer's place back, `rejoin` with its token for a seat, `spectate` for a
    /// spectator. The snapshot that follows the answer is left for the caller to read.
    /// `false` when the deadline came first or the server refused for good.
    pub(super) async fn reenter(&mut self, shared: &Shared, battle_id: &str) -> bool {
        let mut refusals = 0;
        'connect: while self.reconnect(shared).await {
            while Instant::now() < shared.deadline {
                let req = self.req();
                let msg = match &self.token {
                    Some(token) => ClientMsg::Rejoin {
                        battle_id: battle_id.to_string(),
                        token: token.clone(),
                        req: Some(req),
                    },
                    None => ClientMsg::Spectate {
                        battle_id: battle_id.to_string(),
                        req: Some(req),
                    },
                };
                if self.send(&msg, &shared.stats).await.is_err() {
                    continue 'connect;
                }
                let wait = Instant::now() + REENTRY_WAIT;
                loop {
                    let text = match self.recv_until(shared, wait).await {
                        Recv::Text(text, _) => text,
                        Recv::Deadline => return false,
                        // No answer: ask again (the ask may be lost with a dead node).
                        Recv::Stall => break,
                        Recv::Failed(_) => continue 'connect,
                    };
                    let Ok(frame) = Frame::decode(&text, &mut Ops::default()) else {
                        shared.stats.violation("undecodable_message");
                        continue;
                    };
                    if frame.battle_id.as_deref() != Some(battle_id) {
                        continue;
                    }
                    match (frame.kind.as_ref(), frame.code) {
                        ("joined" | "spectating", _) => return true,
                        ("error", Some(code)) if frame.req == Some(req) => {
                            shared.stats.error(format!("server:{code}"));
                            refusals += 1;
                            if !retryable(code) || refusals > MAX_REENTRY_REFUSALS {
                                return false;
                            }
                            // The battle is changing hands: wait, then ask again.
                            tokio::time::sleep_until(wait).await;
                            break;
                        }
                        _ => {}
                    }
                }
            }
            return false;
        }
        false
    }
}

/// How one send of a set-up request went.
enum Asked {
    Reply(Reply),
    /// The connection failed.
    Failed(ClientError),
    /// The deadline came, or the connection stalled (counted).
    Gone,
}

/// Refusals of a re-entry that a moving battle gives for a while (its new owner is still
/// taking it over, or the store is catching up).
fn retryable(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::NoSuchBattle
            | ErrorCode::ServerBusy
            | ErrorCode::RateLimited
            | ErrorCode::StoreUnavailable
            | ErrorCode::NodeLost
            | ErrorCode::Internal
    )
}

pub(super) fn client_error_key(err: &ClientError) -> &'static str {
    match err {
        ClientError::Closed { .. } => "client:closed",
        ClientError::Timeout(_) => "client:stall",
        ClientError::WebSocket(_) => "client:websocket",
        ClientError::Decode { .. } | ClientError::Binary(_) => "client:bad_frame",
        ClientError::Encode(_) => "client:encode",
        ClientError::Refused(_) => "client:refused",
    }
}

pub(super) fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}
