//! The matchmaker's task: it owns the pools, and runs one loop over its bounded command queue,
//! the waiters' deadlines for playing the server's bots, and a periodic sweep of closed
//! connections, in the same `select!`.
//!
//! When players meet (or one's wait for people is over) it creates their battle in the lobby
//! (public, the server's defaults, the bots on the seats nobody came for), posts the battle to
//! each player's mailbox, so that its reader routes to it from then on, and sends each player
//! in with `Command::Join` answered by `matched`. It never awaits a client or a battle: a
//! battle whose queue is full gets the rest of its players from a task of its own.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use battle_protocol::{ErrorCode, Req, Seat, ServerMsg};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use super::command::Command;
use super::pool::{AlreadyQueued, PoolKey, Pools};
use super::seating;
use crate::connection::outbox::Outbox;
use crate::lobby::Lobby;
use crate::quota::Creator;

/// How often closed connections are swept out of the pools (a connection that closes while
/// it waits is normally forgotten at once; this catches the one whose goodbye found the
/// matchmaker's queue full).
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// One player waiting in a pool.
#[derive(Debug)]
struct Waiter {
    from: Outbox,
    /// The battle's seats for people, in order.
    people: Vec<Seat>,
    setup: Option<Value>,
    /// The `queue`'s `req`, echoed on `matched`.
    req: Option<Req>,
}

impl Waiter {
    fn alive(&self) -> bool {
        !self.from.is_closed()
    }
}

/// The task that matches players. Built and started by `super::start`.
pub(super) struct Matchmaker {
    pools: Pools<Waiter>,
    rx: mpsc::Receiver<Command>,
    /// The lobby creates the battles (weak: the lobby holds this task's handle).
    lobby: Weak<Lobby>,
    /// What the battles it makes count against (`Quotas::matchmaker`).
    creator: Creator,
    /// How many players wait, for the metrics.
    waiting: Arc<AtomicUsize>,
}

impl Matchmaker {
    pub(super) fn new(
        rx: mpsc::Receiver<Command>,
        lobby: Weak<Lobby>,
        creator: Creator,
        waiting: Arc<AtomicUsize>,
    ) -> Self {
        Matchmaker {
            pools: Pools::default(),
            rx,
            lobby,
            creator,
            waiting,
        }
    }

    /// Run until every handle is gone (the lobby went away).
    pub(super) async fn run(mut self) {
        let mut sweep_at = Instant::now() + SWEEP_EVERY;
        loop {
            let due = self.pools.next_deadline();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
                () = sleep_until(due.unwrap_or_else(Instant::now)), if due.is_some() => {
                    self.bots_due(Instant::now());
                }
                () = sleep_until(sweep_at) => {
                    if !self.pools.is_empty() {
                        let gone = self.pools.sweep(Waiter::alive);
                        let waiting = self.pools.len();
                        tracing::debug!(gone, waiting, "closed connections swept from the queue");
                    }
                    sweep_at = Instant::now() + SWEEP_EVERY;
                }
            }
            self.waiting.store(self.pools.len(), Ordering::Relaxed);
        }
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Queue { from, checked, req } => {
                if from.is_closed() {
                    return;
                }
                let until = checked.bot_after.map(|wait| Instant::now() + wait);
                let size = checked.people.len();
                let key = checked.key.clone();
                let waiter = Waiter {
                    from: from.clone(),
                    people: checked.people,
                    setup: checked.setup,
                    req,
                };
                match self
                    .pools
                    .queue(from.id(), checked.key, size, until, waiter, Waiter::alive)
                {
                    Err(AlreadyQueued) => {
                        let why = "this connection already waits in the queue; unqueue first";
                        from.offer_msg(&ServerMsg::error(ErrorCode::AlreadyQueued, why, req));
                    }
                    Ok(queued) => {
                        from.mailbox().set_queued(true);
                        from.offer_msg(&ServerMsg::Queued {
                            ruleset: key.ruleset.clone(),
                            waiting: queued.waiting,
                            req,
                        });
                        if let Some(players) = queued.matched {
                            self.start(&key, players);
                        }
                    }
                }
            }
            Command::Unqueue { from, req } => match self.pools.remove(from.id()) {
                Some(_) => {
                    from.mailbox().set_queued(false);
                    from.offer_msg(&ServerMsg::Unqueued {
                        reason: "requested".into(),
                        req,
                    });
                }
                None => {
                    let why = "this connection does not wait in the queue";
                    from.offer_msg(&ServerMsg::error(ErrorCode::NotQueued, why, req));
                }
            },
            Command::Gone { conn } => {
                self.pools.remove(conn);
            }
            // Only a node of a cluster hears from other nodes.
            Command::FromNode(_) => {}
        }
    }

    /// Every waiter whose wait for people is over gets a battle against the server's bots.
    fn bots_due(&mut self, now: Instant) {
        for (key, waiter) in self.pools.due(now) {
            if waiter.alive() {
                self.start(&key, vec![waiter]);
            } else {
                waiter.from.mailbox().set_queued(false);
            }
        }
    }

    /// Create the battle of `key` for `players` (in seat order; the server's bots on the
    /// seats for people beyond them) and send each player in.
    fn start(&self, key: &PoolKey, players: Vec<Waiter>) {
        let Some(lobby) = self.lobby.upgrade() else {
            return;
        };
        if lobby.is_draining() {
            // The server shuts down: no new battle, and its connections are about to close.
            return self.refuse_all(players, ErrorCode::ServerBusy);
        }
        let people = players[0].people.clone();
        let (battle_id, handle) =
            match seating::create(&lobby, &self.creator, key, &people, players.len()) {
                Ok(created) => created,
                Err(code) => return self.refuse_all(players, code),
            };
        let count = players.len();
        lobby.metrics().players_matched.increment(count as u64);
        tracing::info!(battle = %battle_id, ruleset = %key.ruleset, players = count, "matched");
        let mut commands = Vec::with_capacity(players.len() + 1);
        for (player, &seat) in players.into_iter().zip(&people) {
            seating::seat(
                &battle_id,
                &handle,
                player.from,
                seat,
                player.setup,
                player.req,
                &mut commands,
            );
        }
        seating::deliver(handle, commands);
    }

    /// Players who met but get no battle (`code` says why): out of the queue, told
    /// `unqueued` with the code as the reason and their `queue`'s `req`.
    fn refuse_all(&self, players: Vec<Waiter>, code: ErrorCode) {
        for player in players {
            player.from.mailbox().set_queued(false);
            player.from.offer_msg(&ServerMsg::Unqueued {
                reason: code.as_str().to_string(),
                req: player.req,
            });
        }
    }
}
