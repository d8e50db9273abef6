//! One load slot: a fixed set of connections (the players and the spectators of one battle)
//! that play battle after battle until the run's deadline or battle budget is reached.
//!
//! Keeping the connections across battles models people who play again, keeps the number of
//! live connections at exactly `concurrency × (players + spectators)`, and avoids measuring
//! TCP set-up. After each battle every connection sends `leave`, so the server forgets it.
//! Players (the first of them creating the battles) and spectators take their servers in
//! turn from their lists (module `target`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode};
use futures::stream::{FuturesUnordered, StreamExt};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::sync::Notify;
use tokio::time::Instant;

use super::drive::{drive, lags, End};
use super::peer::{Peer, Reply};
use super::stats::{Samples, Stats};
use super::tally::{Battle, Outcome};
use super::target::{Role, Targets};
use super::LoadConfig;

/// Pause before retrying a `create` the server refused as busy (or over its rate).
const BUSY_BACKOFF: Duration = Duration::from_millis(200);

/// What every slot shares.
pub struct Shared {
    /// The run's settings.
    pub config: LoadConfig,
    /// Where connections go.
    pub targets: Targets,
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
    pub fn new(config: LoadConfig, targets: Targets, deadline: Instant) -> Shared {
        Shared {
            config,
            targets,
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

    /// The server refused something over its rate limits: the run stops (see
    /// [`super::status::over_rates`]).
    pub fn over_rates(&self) {
        self.stop_run(super::status::over_rates(self.config.url()));
    }

    /// Why the run stopped early, if it did.
    pub fn halted(&self) -> Option<String> {
        self.halted
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
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

/// The slot's connections: its players first, then its spectators.
async fn connect_all(shared: &Shared) -> Option<Vec<Peer>> {
    let players = shared.config.players();
    let count = players + shared.config.spectators;
    let mut peers = Vec::with_capacity(count);
    for i in 0..count {
        let role = if i < players {
            Role::Player
        } else {
            Role::Spectator
        };
        match Peer::open(shared, role).await {
            Some(peer) => peers.push(peer),
            None => {
                shared
                    .stats
                    .connections
                    .fetch_sub(peers.len() as u64, Ordering::Relaxed);
                return None;
            }
        }
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
                if code == ErrorCode::RateLimited {
                    shared.over_rates();
                    return Err(Played::Cut);
                }
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
        let reply = peer
            .request(shared, |req| ClientMsg::Spectate {
                battle_id: battle_id.to_string(),
                req,
            })
            .await;
        if let Err(played) = check_entry(shared, reply) {
            return end(battle, played);
        }
    }
    for (&seat, peer) in config.seats.iter().zip(peers.iter_mut().take(players)) {
        let reply = peer
            .request(shared, |req| ClientMsg::Join {
                battle_id: battle_id.to_string(),
                seat: Some(seat),
                setup: None,
                req,
            })
            .await;
        match check_entry(shared, reply) {
            Ok(token) => peer.token = token,
            Err(played) => return end(battle, played),
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

/// Check the answer to `spectate` or `join`: the seat's token for `joined`, or how the
/// slot goes on when the battle cannot.
fn check_entry(shared: &Shared, reply: Result<Reply, ()>) -> Result<Option<String>, Played> {
    match reply {
        Ok(Reply { kind, token, .. }) if kind == "spectating" || kind == "joined" => Ok(token),
        Ok(other) => Err(refused(shared, &other)),
        Err(()) if Instant::now() >= shared.deadline => Err(Played::Cut),
        Err(()) => Err(Played::Broken),
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
