//! One load slot: a fixed set of connections (the players and the spectators of one battle)
//! that play battle after battle until the run's deadline or battle budget is reached.
//!
//! Keeping the connections across battles models people who play again, keeps the number of
//! live connections at exactly `concurrency × (players + spectators)`, and avoids measuring
//! TCP set-up. After each battle every connection sends `leave`, so the server forgets it.

use std::borrow::Cow;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode, Req};
use futures::stream::{FuturesUnordered, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::sync::Notify;
use tokio::time::{Instant, Sleep};

use super::buffers::Text;
use super::drive::{drive, lags, End};
use super::frame::{Frame, Ops};
use super::link::Link;
use super::stats::{Samples, Stats};
use super::tally::{Battle, Outcome};
use super::target::Target;
use super::LoadConfig;
use crate::ClientError;

/// Pause before retrying a `create` the server refused as busy (or over its rate).
const BUSY_BACKOFF: Duration = Duration::from_millis(200);

/// What every slot shares.
pub struct Shared {
    /// The run's settings.
    pub config: LoadConfig,
    /// Where to connect.
    pub target: Target,
    /// Counters and histograms.
    pub stats: Stats,
    /// When the run stops: nothing waits past it.
    pub deadline: Instant,
    /// Battles claimed so far, against `config.battles`.
    pub tickets: AtomicU64,
    /// Slots whose connections are open.
    pub slots_ready: AtomicU64,
    /// Why the run stopped before its deadline, once a slot has found it cannot go on.
    halted: Mutex<Option<String>>,
    /// Wakes the run when `halted` is set.
    pub halt: Notify,
}

impl Shared {
    /// Everything the slots share, for a run that stops at `deadline`.
    pub fn new(config: LoadConfig, target: Target, deadline: Instant) -> Shared {
        Shared {
            config,
            target,
            stats: Stats::new(),
            deadline,
            tickets: AtomicU64::new(0),
            slots_ready: AtomicU64::new(0),
            halted: Mutex::new(None),
            halt: Notify::new(),
        }
    }

    fn claim_battle(&self) -> bool {
        let claimed = self.tickets.fetch_add(1, Ordering::Relaxed);
        self.config.battles.is_none_or(|limit| claimed < limit)
    }

    /// Give back a claimed battle the server did not create, so that `--battles N` still
    /// means N battles started.
    fn return_battle(&self) {
        self.tickets.fetch_sub(1, Ordering::Relaxed);
    }

    /// Stop the run early, for `why` (the first reason given is kept).
    fn stop_run(&self, why: String) {
        let mut halted = self
            .halted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if halted.is_none() {
            *halted = Some(why);
            // A stored permit: the run sees it even if it is not waiting at this moment.
            self.halt.notify_one();
        }
    }

    /// Why the run stopped early, if it did.
    pub fn halted(&self) -> Option<String> {
        self.halted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

/// A connection with its own `req` counter.
pub(super) struct Peer {
    link: Link,
    next_req: Req,
    /// Wakes a receive that waits too long. It is armed for the earliest moment the current
    /// receive could give up and re-armed only when it fires early: setting a timer per
    /// frame (and removing it when the frame comes first) costs more than the rare early
    /// wake-up.
    timer: Pin<Box<Sleep>>,
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

impl Peer {
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
    /// skipping leftovers of earlier battles. Returns the reply's type, battle and error code.
    async fn request(
        &mut self,
        shared: &Shared,
        build: impl FnOnce(Option<Req>) -> ClientMsg,
    ) -> Result<Reply, ()> {
        let req = self.req();
        if let Err(err) = self.send(&build(Some(req)), &shared.stats).await {
            shared.stats.error(client_error_key(&err));
            return Err(());
        }
        loop {
            match self.recv(shared).await {
                Recv::Text(text, _) => match Frame::decode(&text, &mut Ops::default()) {
                    Ok(frame) if frame.req == Some(req) => {
                        return Ok(Reply {
                            kind: frame.kind.into_owned(),
                            battle_id: frame.battle_id.map(Cow::into_owned),
                            code: frame.code,
                        })
                    }
                    Ok(_) => continue,
                    Err(_) => {
                        shared.stats.violation("undecodable_message");
                        continue;
                    }
                },
                Recv::Deadline => return Err(()),
                Recv::Stall => shared.stats.error("client:stall"),
                Recv::Failed(err) => shared.stats.error(client_error_key(&err)),
            }
            return Err(());
        }
    }
}

/// The answer to a set-up request.
struct Reply {
    kind: String,
    battle_id: Option<String>,
    code: Option<ErrorCode>,
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

/// Run one slot until the deadline or the battle budget. `index` seeds its bots.
pub async fn run(shared: Arc<Shared>, index: u64) {
    let mut rng =
        SmallRng::seed_from_u64(shared.config.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut peers = Vec::new();
    let mut ready = false;
    while Instant::now() < shared.deadline {
        if peers.is_empty() {
            let open = connect_all(&shared).await;
            // A slot that cannot connect counts as settled too, so the measured window opens.
            if !std::mem::replace(&mut ready, true) {
                shared.slots_ready.fetch_add(1, Ordering::Relaxed);
            }
            match open {
                Some(open) => peers = open,
                None => return,
            }
        }
        if !shared.claim_battle() {
            break;
        }
        let played = match create(&shared, &mut peers[0]).await {
            Ok(battle_id) => {
                let seed = rng.random();
                play_battle(&shared, &mut peers, &battle_id, seed).await
            }
            Err(played) => {
                shared.return_battle();
                played
            }
        };
        match played {
            Played::Completed => {}
            Played::Cut => break,
            Played::Broken => {
                // Some connection may be dead or hold a half-read battle: start afresh.
                shared
                    .stats
                    .connections
                    .fetch_sub(peers.len() as u64, Ordering::Relaxed);
                peers.clear();
                tokio::time::sleep_until((Instant::now() + BUSY_BACKOFF).min(shared.deadline))
                    .await;
            }
        }
    }
    shared
        .stats
        .connections
        .fetch_sub(peers.len() as u64, Ordering::Relaxed);
}

async fn connect_all(shared: &Shared) -> Option<Vec<Peer>> {
    let count = shared.config.players() + shared.config.spectators;
    let mut peers = Vec::with_capacity(count);
    for _ in 0..count {
        match tokio::time::timeout_at(shared.deadline, shared.target.connect()).await {
            Ok(Ok(link)) => peers.push(Peer {
                link,
                next_req: 0,
                timer: Box::pin(tokio::time::sleep_until(shared.deadline)),
            }),
            Ok(Err(err)) => {
                shared
                    .stats
                    .error(format!("{}_connect", client_error_key(&err)));
                shared
                    .stats
                    .connections
                    .fetch_sub(peers.len() as u64, Ordering::Relaxed);
                return None;
            }
            Err(_) => {
                shared
                    .stats
                    .connections
                    .fetch_sub(peers.len() as u64, Ordering::Relaxed);
                return None;
            }
        }
        Stats::add(&shared.stats.connections, 1);
        Stats::add(&shared.stats.connections_opened, 1);
    }
    Some(peers)
}

/// How a battle (or the attempt to create one) went for the slot.
enum Played {
    /// Played to the end by everyone.
    Completed,
    /// The deadline cut it off.
    Cut,
    /// An error: the slot's connections should be replaced.
    Broken,
}

/// Ask the server for a battle on `creator`'s connection, retrying while it is busy; the
/// battle's id, or how the slot should go on without one.
async fn create(shared: &Shared, creator: &mut Peer) -> Result<String, Played> {
    let config = &shared.config;
    loop {
        let reply = creator
            .request(shared, |req| ClientMsg::Create {
                ruleset: config.ruleset.clone(),
                options: Some(config.options.clone()),
                bots: Vec::new(),
                private: true,
                pace_ms: Some(config.pace_ms),
                grace_ms: None,
                seed: None,
                spectator_delay_ms: None,
                timer: None,
                req,
            })
            .await;
        match reply {
            Ok(Reply {
                kind,
                battle_id: Some(battle_id),
                ..
            }) if kind == "created" => return Ok(battle_id),
            Ok(Reply {
                code: Some(code @ (ErrorCode::ServerBusy | ErrorCode::RateLimited)),
                ..
            }) => {
                shared.stats.error(match code {
                    ErrorCode::RateLimited => "server:rate_limited",
                    _ => "server:server_busy",
                });
                tokio::time::sleep_until((Instant::now() + BUSY_BACKOFF).min(shared.deadline))
                    .await;
                if Instant::now() >= shared.deadline {
                    return Err(Played::Cut);
                }
            }
            Ok(other) => {
                // Refused before any battle of the run started: what the run asks for is
                // wrong (ruleset, options), and every retry would be refused the same way.
                if let Some(code) = other.code.filter(|&c| c != ErrorCode::Internal) {
                    if shared.stats.battles.counts().started == 0 {
                        shared.stop_run(format!(
                            "the server refused to create a {} battle (server:{code}) and no \
                             battle of the run had started: check --ruleset, --sample and \
                             --options",
                            config.ruleset
                        ));
                    }
                }
                return Err(refused(shared, &other));
            }
            Err(()) if Instant::now() >= shared.deadline => return Err(Played::Cut),
            Err(()) => return Err(Played::Broken),
        }
    }
}

/// Fill and play the battle `battle_id` the first peer created, and count its outcome.
async fn play_battle(shared: &Shared, peers: &mut [Peer], battle_id: &str, seed: u64) -> Played {
    let config = &shared.config;
    let stats = &shared.stats;
    // Counted from here on: whatever happens below, even the slot's abortion, counts it once.
    let battle = stats.battles.start();
    let players = config.players();
    // Spectators first, so that they see every change from the start on.
    for peer in peers.iter_mut().skip(players) {
        let id = battle_id.to_string();
        let reply = peer
            .request(shared, |req| ClientMsg::Spectate { battle_id: id, req })
            .await;
        if let Some(played) = check_entry(shared, reply) {
            return end(battle, played);
        }
    }
    for (&seat, peer) in config.seats.iter().zip(peers.iter_mut().take(players)) {
        let id = battle_id.to_string();
        let reply = peer
            .request(shared, |req| ClientMsg::Join {
                battle_id: id,
                seat: Some(seat),
                setup: None,
                req,
            })
            .await;
        if let Some(played) = check_entry(shared, reply) {
            return end(battle, played);
        }
    }

    let mut rng = SmallRng::seed_from_u64(seed);
    let mut drivers: FuturesUnordered<_> = peers
        .iter_mut()
        .enumerate()
        .map(|(i, peer)| {
            drive(
                shared,
                peer,
                battle_id,
                i < players,
                SmallRng::seed_from_u64(rng.random()),
            )
        })
        .collect();
    let mut records = Vec::new();
    let mut ending = End::Finished;
    while let Some(record) = drivers.next().await {
        if record.end != End::Finished {
            ending = record.end;
            if ending == End::Failed {
                break;
            }
        }
        records.push(record);
    }
    drop(drivers);

    let mut samples = Samples::default();
    for record in &mut records {
        samples.action.append(&mut record.latencies);
        // Each tick's lag stands on its own: battles cut off by the deadline count too.
        samples.tick_lag.append(&mut record.tick_lags);
    }
    if ending == End::Finished {
        lags(&records, &mut samples, stats);
    }
    stats.flush(&mut samples);
    match ending {
        End::Finished => {
            battle.end(Outcome::Completed);
            for peer in peers.iter_mut() {
                let req = peer.req();
                let leave = ClientMsg::Leave {
                    battle_id: battle_id.to_string(),
                    req: Some(req),
                };
                if peer.send(&leave, stats).await.is_err() {
                    return Played::Broken;
                }
            }
            Played::Completed
        }
        End::Deadline => end(battle, Played::Cut),
        End::Failed => end(battle, Played::Broken),
    }
}

/// Count a battle that did not complete: abandoned when the deadline cut it off, failed
/// when an error broke it.
fn end(battle: Battle<'_>, played: Played) -> Played {
    battle.end(match played {
        Played::Completed => Outcome::Completed,
        Played::Cut => Outcome::Abandoned,
        Played::Broken => Outcome::Failed,
    });
    played
}

/// Check the answer to `spectate` or `join`; `Some` when the battle cannot go on.
fn check_entry(shared: &Shared, reply: Result<Reply, ()>) -> Option<Played> {
    match reply {
        Ok(Reply { kind, .. }) if kind == "spectating" || kind == "joined" => None,
        Ok(other) => Some(refused(shared, &other)),
        Err(()) if Instant::now() >= shared.deadline => Some(Played::Cut),
        Err(()) => Some(Played::Broken),
    }
}

/// Count an unexpected answer to a set-up request.
fn refused(shared: &Shared, reply: &Reply) -> Played {
    match reply.code {
        Some(code) => shared.stats.error(format!("server:{code}")),
        None => shared.stats.violation("unexpected_reply"),
    }
    Played::Broken
}
