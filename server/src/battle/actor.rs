//! The battle actor: one task per battle, owning its ruleset, seats, audiences and input log.
//!
//! It runs one loop over its bounded command queue and its timers (bot and engine moves,
//! expiry) in the same `select!`. It never awaits a client: everything it says goes through
//! [`Outbox::offer`]. Every accepted move, from a person or a bot, passes through
//! [`BattleActor::submit`]: validate and apply, record, broadcast.

use std::sync::Arc;
use std::time::Duration;

use battle_protocol::{BattleStatus, BattleSummary, ErrorCode, Req, Seat, ServerMsg};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use super::audience::Audience;
use super::bot;
use super::command::Command;
use super::handle::BattleHandle;
use super::seats::Seats;
use crate::connection::outbox::{message_frame, ConnId, Outbox};
use crate::lobby::Lobby;
use battle_rules::input_log::{Input, InputLog};
use battle_rules::ruleset::{RuleError, Ruleset, Viewer};
use battle_rules::view::envelope;
use battle_rules::view::value::ViewValue;
use battle_rules::view::viewers::Viewers;
use battle_rules::view::Changes;

/// Everything a new battle starts from.
pub struct BattleSetup {
    pub battle_id: String,
    pub game: Box<dyn Ruleset>,
    /// The options the game was built with (kept for the input log).
    pub options: Value,
    /// The seed the game was built with.
    pub seed: u64,
    /// Seats the server plays (engine seats included).
    pub bots: Vec<Seat>,
    /// Delay before each bot move.
    pub pace: Duration,
}

/// The task that runs one battle. Built by [`prepare`], started by [`BattleActor::run`].
pub struct BattleActor {
    id: String,
    game: Box<dyn Ruleset>,
    status: BattleStatus,
    seats: Seats,
    /// One audience per seat (indexed by seat), then the spectators' audience last.
    audiences: Vec<Audience>,
    log: InputLog,
    bot_rng: ChaCha8Rng,
    pace: Duration,
    rx: mpsc::Receiver<Command>,
    lobby: Arc<Lobby>,
    /// When the next bot or engine move is due.
    step_at: Option<Instant>,
    /// When the battle goes away (finished, or nobody connected).
    expire_at: Option<Instant>,
    summary: BattleSummary,
    /// Seats, spectators or status changed since the lobby's summary was last updated.
    summary_dirty: bool,
}

/// Build a battle's actor and handle, and its first summary, without starting it: the
/// lobby registers the battle before the actor can change anything.
pub fn prepare(
    setup: BattleSetup,
    lobby: Arc<Lobby>,
) -> (BattleActor, BattleHandle, BattleSummary) {
    let (tx, rx) = mpsc::channel(lobby.config().battle_queue.max(1));
    let seat_count = setup.game.seat_count();
    let mut audiences: Vec<Audience> = (0..seat_count)
        .map(|seat| Audience::new(Viewer::Seat(seat)))
        .collect();
    audiences.push(Audience::new(Viewer::Spectator));
    let mut actor = BattleActor {
        log: InputLog {
            ruleset: setup.game.id().to_string(),
            options: setup.options,
            seed: setup.seed,
            inputs: Vec::new(),
        },
        id: setup.battle_id,
        status: BattleStatus::Waiting,
        seats: Seats::new(seat_count, &setup.bots),
        audiences,
        bot_rng: ChaCha8Rng::seed_from_u64(setup.seed ^ 0x5eed_b075),
        pace: setup.pace,
        rx,
        expire_at: Some(Instant::now() + lobby.config().idle_ttl),
        lobby,
        step_at: None,
        game: setup.game,
        summary: BattleSummary {
            battle_id: String::new(),
            ruleset: String::new(),
            status: BattleStatus::Waiting,
            seats: Vec::new(),
            spectators: 0,
        },
        summary_dirty: false,
    };
    if actor.seats.all_filled() {
        let before = actor.views_now();
        actor.status = BattleStatus::Playing;
        actor.after_change(None, before);
    }
    actor.summary = actor.build_summary();
    let summary = actor.summary.clone();
    (actor, BattleHandle::new(tx), summary)
}

impl BattleActor {
    /// Run until the battle expires.
    ///
    /// The actor lives in a box: an `async fn` taking it by value would hold it twice in its
    /// future (once as the argument, once as the running state) for the battle's whole life.
    pub async fn run(mut self: Box<Self>) {
        loop {
            let wake = match (self.step_at, self.expire_at) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
                () = sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                    if self.on_timer() {
                        break;
                    }
                }
            }
            self.sync_summary();
        }
        self.farewell();
    }

    fn handle(&mut self, command: Command) {
        // Every command but a move can change who is seated or watching.
        self.summary_dirty |= !matches!(command, Command::Act { .. });
        match command {
            Command::Join { from, seat, req } => self.join(from, seat, req),
            Command::Rejoin { from, token, req } => self.rejoin(from, &token, req),
            Command::Spectate { from, req } => self.spectate(from, req),
            Command::Act { from, action, req } => self.act(&from, action, req),
            Command::Resync { from, req } => self.resync(&from, req),
            Command::Leave { from, req } => self.leave(&from, req),
            Command::Disconnected { from } => {
                self.forget(from.id());
            }
        }
    }

    fn join(&mut self, from: Outbox, wanted: Option<Seat>, req: Option<Req>) {
        if self.status == BattleStatus::Finished {
            return self.refuse(&from, ErrorCode::BattleOver, "the battle is over", req);
        }
        if let Some(seat) = self.seats.seat_of(from.id()) {
            let text = format!("this connection already holds seat {seat} of this battle");
            return self.refuse(&from, ErrorCode::SeatTaken, &text, req);
        }
        let (seat, token) = match self.seats.take(wanted) {
            Ok(taken) => taken,
            Err((code, message)) => return self.refuse(&from, code, &message, req),
        };
        self.audience_mut(Viewer::Spectator).remove(from.id());
        self.seats.attach(seat, from.clone());
        if self.status == BattleStatus::Waiting && self.seats.all_filled() {
            let before = self.views_now();
            self.status = BattleStatus::Playing;
            tracing::info!(battle = %self.id, "battle starts");
            self.after_change(None, before);
        }
        let reply = ServerMsg::Joined {
            battle_id: self.id.clone(),
            seat,
            token,
            req,
        };
        self.admit(Viewer::Seat(seat), from, &reply);
    }

    fn rejoin(&mut self, from: Outbox, token: &str, req: Option<Req>) {
        let Some(seat) = self.seats.find_token(token) else {
            return self.refuse(
                &from,
                ErrorCode::BadToken,
                "that token holds no seat here",
                req,
            );
        };
        if let Some(other) = self.seats.seat_of(from.id()).filter(|&other| other != seat) {
            let text = format!("this connection already holds seat {other} of this battle");
            return self.refuse(&from, ErrorCode::SeatTaken, &text, req);
        }
        self.audience_mut(Viewer::Spectator).remove(from.id());
        if let Some(old) = self.seats.attach(seat, from.clone()) {
            if old.id() != from.id() {
                self.audience_mut(Viewer::Seat(seat)).remove(old.id());
                old.offer_msg(&ServerMsg::Left {
                    battle_id: self.id.clone(),
                    reason: "replaced".into(),
                    req: None,
                });
            }
        }
        let reply = ServerMsg::Joined {
            battle_id: self.id.clone(),
            seat,
            token: token.to_string(),
            req,
        };
        self.admit(Viewer::Seat(seat), from, &reply);
    }

    fn spectate(&mut self, from: Outbox, req: Option<Req>) {
        if let Some(seat) = self.seats.seat_of(from.id()) {
            let text = format!("this connection holds seat {seat}; leave it to watch instead");
            return self.refuse(&from, ErrorCode::SeatTaken, &text, req);
        }
        let reply = ServerMsg::Spectating {
            battle_id: self.id.clone(),
            req,
        };
        self.admit(Viewer::Spectator, from, &reply);
    }

    /// Add `from` to an audience and send it `reply` (the answer that admits it) followed by
    /// the current view, both in one write.
    fn admit(&mut self, viewer: Viewer, from: Outbox, reply: &ServerMsg) {
        let index = self.audience_index(viewer);
        let (id, status, game) = (&self.id, self.status, &*self.game);
        let audience = &mut self.audiences[index];
        audience.add(from.clone());
        // Built for this viewer alone; the snapshot leaves out what is marked for others.
        let view = envelope::build_all(id, status, game, Viewers::of(viewer));
        let ahead = Some(message_frame(reply));
        audience.send_snapshot(id, &from, ahead, None, game.log(viewer), &view);
        if status != BattleStatus::Finished {
            // Someone is here: the idle countdown stops (a finished battle keeps its own).
            self.expire_at = None;
        }
    }

    fn act(&mut self, from: &Outbox, action: Value, req: Option<Req>) {
        let Some(seat) = self.seats.seat_of(from.id()) else {
            return if self.audience(Viewer::Spectator).contains(from.id()) {
                self.refuse(
                    from,
                    ErrorCode::SpectatorsCannotAct,
                    "spectators cannot act",
                    req,
                )
            } else {
                self.refuse(
                    from,
                    ErrorCode::NotInBattle,
                    "you hold no seat in this battle",
                    req,
                )
            };
        };
        if let Err((code, message)) = self.submit(seat, action, req) {
            self.refuse(from, code, &message, req);
        }
    }

    /// The one path every move takes, a person's or a bot's: validate and apply, record in
    /// the input log, broadcast. On refusal nothing has changed.
    fn submit(
        &mut self,
        seat: Seat,
        action: Value,
        req: Option<Req>,
    ) -> Result<(), (ErrorCode, String)> {
        match self.status {
            BattleStatus::Waiting => {
                return Err((
                    ErrorCode::NotStarted,
                    "the battle waits for every seat to fill".into(),
                ))
            }
            BattleStatus::Finished => {
                return Err((ErrorCode::BattleOver, "the battle is over".into()))
            }
            BattleStatus::Playing => {}
        }
        let before = self.views_now();
        self.game
            .apply(seat, &action)
            .map_err(|err: RuleError| (err.code(), err.to_string()))?;
        self.log.inputs.push(Input::act(seat, &action));
        self.after_change(Some((seat, req)), before);
        Ok(())
    }

    /// The view of the battle as the members of every watched audience hold it now, built
    /// for all of them at once, with the set of viewers it was built for (`None` when nobody
    /// watches); taken just before a change, which is then sent as the patch from it.
    /// Building it again costs less than keeping every audience's last view between
    /// changes, which would also have to be walked cold from memory when a thousand battles
    /// take turns; building it once for all audiences costs less than once per audience.
    fn views_now(&self) -> Option<(Viewers, ViewValue)> {
        let watching = self.watching();
        (!watching.is_empty()).then(|| {
            (
                watching,
                envelope::build_all(&self.id, self.status, &*self.game, watching),
            )
        })
    }

    /// The viewers of the audiences someone watches through.
    fn watching(&self) -> Viewers {
        self.audiences
            .iter()
            .filter(|audience| !audience.is_empty())
            .map(Audience::viewer)
            .collect()
    }

    /// After the game changed: settle the status, broadcast, and plan the next bot move.
    /// `before` is [`BattleActor::views_now`] from just before the change.
    fn after_change(
        &mut self,
        acted: Option<(Seat, Option<Req>)>,
        before: Option<(Viewers, ViewValue)>,
    ) {
        if self.status == BattleStatus::Playing && self.game.outcome().is_some() {
            self.status = BattleStatus::Finished;
            self.summary_dirty = true;
            self.expire_at = Some(Instant::now() + self.lobby.config().finished_ttl);
            tracing::info!(battle = %self.id, inputs = self.log.inputs.len(), "battle finished");
        }
        self.publish(acted, before);
        self.plan_step();
    }

    /// Send every audience its share of the change from `before`: the view is built and
    /// diffed once for all watched audiences ([`Changes`]).
    fn publish(
        &mut self,
        acted: Option<(Seat, Option<Req>)>,
        before: Option<(Viewers, ViewValue)>,
    ) {
        let watching = self.watching();
        let (id, status, game) = (&self.id, self.status, &*self.game);
        let view = if watching.is_empty() {
            ViewValue::Null
        } else {
            envelope::build_all(id, status, game, watching)
        };
        // Audiences that were not watched before the change get a snapshot instead.
        let change = before.map(|(was, old)| (was, Changes::between(&old, &view, was & watching)));
        let mut dropped: Vec<ConnId> = Vec::new();
        for audience in &mut self.audiences {
            let viewer = audience.viewer();
            let req = match (acted, viewer) {
                (Some((seat, req)), Viewer::Seat(mine)) if seat == mine => req,
                _ => None,
            };
            let log = game.log(viewer);
            let change = change
                .as_ref()
                .filter(|(was, _)| was.contains(viewer))
                .map(|(_, change)| change);
            dropped.extend(audience.publish(id, req, log, change, &view));
        }
        for conn in dropped {
            tracing::warn!(battle = %self.id, conn = conn.0, "dropping a connection that cannot keep up");
            self.forget(conn);
        }
    }

    fn plan_step(&mut self) {
        self.step_at = None;
        if self.status != BattleStatus::Playing {
            return;
        }
        let now = Instant::now();
        if let Some(ms) = self.game.next_tick() {
            let delay = if self.pace.is_zero() {
                Duration::ZERO
            } else {
                Duration::from_millis(ms)
            };
            self.step_at = Some(now + delay);
        } else if self
            .game
            .to_act()
            .iter()
            .any(|&seat| self.seats.is_bot(seat))
        {
            self.step_at = Some(now + self.pace);
        }
    }

    /// A timer fired. Returns true when the battle has expired.
    fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if self.step_at.is_some_and(|at| at <= now) {
            self.step();
        }
        self.expire_at.is_some_and(|at| at <= now)
    }

    /// One engine step or one bot move.
    fn step(&mut self) {
        self.step_at = None;
        if self.game.next_tick().is_some() {
            let before = self.views_now();
            match self.game.advance() {
                Ok(()) => {
                    self.log.inputs.push(Input::Advance);
                    self.after_change(None, before);
                }
                Err(err) => tracing::error!(battle = %self.id, %err, "engine step refused"),
            }
            return;
        }
        let Some(seat) = self
            .game
            .to_act()
            .into_iter()
            .find(|&seat| self.seats.is_bot(seat))
        else {
            return;
        };
        let Some(action) = bot::choose(&*self.game, seat, &mut self.bot_rng) else {
            tracing::error!(battle = %self.id, seat, "bot seat must act but has no legal action");
            return;
        };
        if let Err((code, message)) = self.submit(seat, action, None) {
            // The ruleset's AI chose an action its own rules refuse: a ruleset bug. Fall back
            // to a random legal action so the battle goes on.
            tracing::error!(battle = %self.id, seat, %code, %message, "bot move refused");
            let mut legal = self.game.legal_actions(seat);
            if legal.is_empty() {
                return;
            }
            let fallback = legal.swap_remove(0);
            if let Err((code, message)) = self.submit(seat, fallback, None) {
                tracing::error!(battle = %self.id, seat, %code, %message, "legal action refused");
            }
        }
    }

    fn resync(&mut self, from: &Outbox, req: Option<Req>) {
        let viewer = match self.seats.seat_of(from.id()) {
            Some(seat) => Viewer::Seat(seat),
            None if self.audience(Viewer::Spectator).contains(from.id()) => Viewer::Spectator,
            None => {
                return self.refuse(
                    from,
                    ErrorCode::NotInBattle,
                    "you are not in this battle",
                    req,
                )
            }
        };
        let index = self.audience_index(viewer);
        let (id, status, game) = (&self.id, self.status, &*self.game);
        // Built for this viewer alone; the snapshot leaves out what is marked for others.
        let view = envelope::build_all(id, status, game, Viewers::of(viewer));
        self.audiences[index].send_snapshot(id, from, None, req, game.log(viewer), &view);
    }

    fn leave(&mut self, from: &Outbox, req: Option<Req>) {
        let seat = self.seats.seat_of(from.id());
        if !self.forget(from.id()) {
            return self.refuse(
                from,
                ErrorCode::NotInBattle,
                "you are not in this battle",
                req,
            );
        }
        if let (Some(seat), BattleStatus::Waiting) = (seat, self.status) {
            // Before the battle starts, leaving gives the seat back.
            self.seats.release(seat);
        }
        from.offer_msg(&ServerMsg::Left {
            battle_id: self.id.clone(),
            reason: "requested".into(),
            req,
        });
    }

    /// Remove a connection from its seat or the spectators; whether it was there.
    fn forget(&mut self, conn: ConnId) -> bool {
        let mut found = false;
        if let Some(seat) = self.seats.detach(conn) {
            self.audience_mut(Viewer::Seat(seat)).remove(conn);
            found = true;
        }
        found |= self.audience_mut(Viewer::Spectator).remove(conn);
        self.summary_dirty |= found;
        if found
            && self.status != BattleStatus::Finished
            && !self.seats.any_connected()
            && self.audience(Viewer::Spectator).is_empty()
        {
            self.expire_at = Some(Instant::now() + self.lobby.config().idle_ttl);
        }
        found
    }

    fn refuse(&self, to: &Outbox, code: ErrorCode, message: &str, req: Option<Req>) {
        to.offer_msg(&ServerMsg::Error {
            code,
            message: message.to_string(),
            battle_id: Some(self.id.clone()),
            req,
        });
    }

    fn build_summary(&self) -> BattleSummary {
        BattleSummary {
            battle_id: self.id.clone(),
            ruleset: self.game.id().to_string(),
            status: self.status,
            seats: self.seats.infos(),
            spectators: self.audience(Viewer::Spectator).len(),
        }
    }

    /// Publish the summary to the lobby when it changed.
    fn sync_summary(&mut self) {
        if !std::mem::take(&mut self.summary_dirty) {
            return;
        }
        let summary = self.build_summary();
        if summary != self.summary {
            self.lobby.set_summary(&self.id, summary.clone());
            self.summary = summary;
        }
    }

    /// The battle expires: tell whoever is still here, and leave the lobby.
    fn farewell(&mut self) {
        self.lobby.remove(&self.id);
        let bye = ServerMsg::Left {
            battle_id: self.id.clone(),
            reason: "expired".into(),
            req: None,
        };
        for audience in &mut self.audiences {
            for member in audience.drain() {
                member.offer_msg(&bye);
            }
        }
        tracing::info!(battle = %self.id, "battle expired");
    }

    fn audience_index(&self, viewer: Viewer) -> usize {
        match viewer {
            Viewer::Seat(seat) => seat,
            Viewer::Spectator => self.audiences.len() - 1,
        }
    }

    fn audience(&self, viewer: Viewer) -> &Audience {
        &self.audiences[self.audience_index(viewer)]
    }

    fn audience_mut(&mut self, viewer: Viewer) -> &mut Audience {
        let index = self.audience_index(viewer);
        &mut self.audiences[index]
    }
}
