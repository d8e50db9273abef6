//! The battle actor: one task per battle, owning its ruleset, seats, audiences, clocks and
//! input log.
//!
//! It runs one loop over its bounded command queue and its timers (bot and engine moves,
//! decision clocks, the views held for spectators of a delayed battle, expiry) in the same
//! `select!`. It never awaits a client: everything it
//! says goes through an [`Outbox`]. Every input that changes the battle, a person's or a
//! bot's move, an engine step, a timeout, the seats' setups at the start, is recorded in the
//! input log and published from the view before it; moves all pass through
//! [`BattleActor::submit`]. Who joins, watches and leaves is handled in `membership.rs`.
//!
//! With a durable store, every record (an input, a seat taken or given back, the end) is
//! handed to the store, and everything the actor sends afterwards carries the record's
//! ticket: it leaves only once the store has committed it (see `crate::store`).

use std::sync::Arc;
use std::time::Duration;

use tracing::Instrument;

use battle_protocol::{
    BattleStatus, BattleSummary, ErrorCode, OutcomeInfo, Req, Seat, SeatInfo, ServerMsg,
};
use battle_rules::input_log::{Input, InputLog};
use battle_rules::ruleset::{RuleError, Ruleset, Viewer};
use battle_rules::view::value::Key;
use battle_rules::view::{envelope, Changes, ViewValue, Viewers};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use super::audience::Audience;
use super::clock::Clocks;
use super::command::Command;
use super::delay::SpectatorDelay;
use super::handle::BattleHandle;
use super::host::CreatorClaim;
use super::host::Host;
use super::seats::Seats;
use crate::connection::outbox::{message_frame, Outbox};
use crate::ids::ConnId;
use crate::metrics::RulesetMeters;
use crate::refusal::Refusal;
use crate::store::{unix_now_ms, Ended, Record, Ticket};

/// How long after its last change an audience with members on other nodes says which
/// `seq` it is at: a node that missed the last change (pub/sub may drop one) has its
/// connections resynced within this time.
const BEACON_AFTER: Duration = Duration::from_secs(1);

/// How long a battle whose cluster store is out of reach waits before it looks again.
pub(super) const STORE_RETRY: Duration = Duration::from_millis(250);

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
    /// How long a seat's holder may be gone before the bot decides for it.
    pub grace: Duration,
    /// The creator chose the seed (shown in `list`).
    pub seeded: bool,
    /// Not shown by `list` (nor its replay among the finished battles).
    pub private: bool,
    /// The turn timer (`None`: untimed).
    pub timer: Option<battle_rules::TimerSpec>,
    /// How long after the players spectators see each change (zero: at once).
    pub spectator_delay: Duration,
}

/// The task that runs one battle. Built by [`prepare`], started by [`BattleActor::run`].
pub struct BattleActor {
    pub(super) id: String,
    pub(super) game: Box<dyn Ruleset>,
    pub(super) status: BattleStatus,
    pub(super) seats: Seats,
    /// Who held and was connected to each seat in the views last published: the envelope's
    /// `seats` as every audience holds it now.
    pub(super) shown_seats: Vec<SeatInfo>,
    /// One audience per seat (indexed by seat), then the spectators' audience last.
    pub(super) audiences: Vec<Audience>,
    pub(super) log: InputLog,
    /// The ticket of the last record handed to the store: whatever the actor sends leaves
    /// once it is committed (0: nothing to wait for).
    pub(super) ticket: Ticket,
    pub(super) bot_rng: ChaCha8Rng,
    pub(super) pace: Duration,
    /// How long a seat's holder may be gone before the bot decides for it.
    pub(super) grace: Duration,
    /// The creator chose the seed.
    seeded: bool,
    /// Not shown by `list`.
    private: bool,
    rx: mpsc::Receiver<Command>,
    pub(super) host: Arc<dyn Host>,
    /// When the next bot or engine move is due.
    pub(super) step_at: Option<Instant>,
    /// When the engine step just taken was due: the next one is due one tick after it (not
    /// one tick after it was processed), so a battle that ticks keeps its cadence.
    pub(super) cadence: Option<Instant>,
    /// Each person's decision deadline (none without a turn limit).
    pub(super) clocks: Clocks,
    /// When the battle goes away (finished, or nobody connected).
    pub(super) expire_at: Option<Instant>,
    summary: BattleSummary,
    /// Seats, spectators or status changed since the lobby's summary was last updated.
    pub(super) summary_dirty: bool,
    /// The spectators' views held back for the battle's spectator delay (`None`: no delay,
    /// spectators get every change at once like the players).
    pub(super) spectator_delay: Option<SpectatorDelay>,
    /// Counts the battle against its creator's open-battle quotas until it is under way.
    claim: Option<Box<dyn CreatorClaim>>,
    /// Removed at once ([`BattleActor::withdraw`]): the actor stops.
    withdrawn: bool,
    /// The counters of this battle's ruleset (moves, steps, the end).
    pub(super) meters: Arc<RulesetMeters>,
    /// In a cluster: the ticket of the last publication, so that a change with no record of
    /// its own is fenced first (see [`BattleActor::fence`]).
    published: Ticket,
    /// In a cluster whose store is out of reach: bots, engine steps and clocks wait until
    /// then (and look again).
    pub(super) paused_until: Option<Instant>,
    /// In a cluster, when the audiences with members on other nodes say which `seq` they
    /// are at (a while after their last change; see [`BEACON_AFTER`]).
    pub(super) beacon_at: Option<Instant>,
}

/// Build a battle's actor and handle, and its first summary, without starting it: the
/// lobby registers the battle before the actor can change anything.
pub fn prepare(
    setup: BattleSetup,
    host: Arc<dyn Host>,
) -> (BattleActor, BattleHandle, BattleSummary) {
    let (tx, rx) = mpsc::channel(host.config().battle_queue.max(1));
    let mut actor = build(setup, host, rx, Seats::new);
    actor.start_when_seated();
    actor.hold_for_spectators();
    actor.summary = actor.build_summary();
    let summary = actor.summary.clone();
    (actor, BattleHandle::new(tx), summary)
}

/// The actor for `setup` with its seats (from `seats`), before anything happened.
pub(super) fn build(
    setup: BattleSetup,
    host: Arc<dyn Host>,
    rx: mpsc::Receiver<Command>,
    seats: impl FnOnce(usize, &[Seat]) -> Seats,
) -> BattleActor {
    let seat_count = setup.game.seat_count();
    let meters = host.metrics().ruleset(setup.game.id());
    let mut audiences: Vec<Audience> = (0..seat_count)
        .map(|seat| Audience::new(Viewer::Seat(seat)))
        .collect();
    audiences.push(Audience::new(Viewer::Spectator));
    let mut actor = BattleActor {
        log: InputLog::new(&*setup.game, setup.options, setup.seed),
        ticket: 0,
        id: setup.battle_id,
        status: BattleStatus::Waiting,
        seats: seats(seat_count, &setup.bots),
        shown_seats: Vec::new(),
        audiences,
        bot_rng: ChaCha8Rng::seed_from_u64(setup.seed ^ 0x5eed_b075),
        pace: setup.pace,
        grace: setup.grace,
        seeded: setup.seeded,
        private: setup.private,
        rx,
        // A battle nobody has joined yet goes away after the unjoined TTL (a restored one
        // gets the idle TTL in `resume`).
        expire_at: Some(Instant::now() + host.config().unjoined_ttl.min(host.config().idle_ttl)),
        clocks: Clocks::new(seat_count, setup.timer),
        spectator_delay: SpectatorDelay::new(setup.spectator_delay),
        host,
        step_at: None,
        cadence: None,
        game: setup.game,
        summary: BattleSummary {
            battle_id: String::new(),
            ruleset: String::new(),
            status: BattleStatus::Waiting,
            seats: Vec::new(),
            spectators: 0,
            seeded: setup.seeded,
            node: None,
        },
        summary_dirty: false,
        claim: None,
        withdrawn: false,
        meters,
        published: 0,
        paused_until: None,
        beacon_at: None,
    };
    for seat in 0..seat_count {
        if let Some(name) = actor.game.bot_name(seat) {
            actor.seats.set_bot_name(seat, name);
        }
    }
    actor.shown_seats = actor.seats.infos();
    actor
}

impl BattleActor {
    /// In a cluster: before sending a change that no record of its own precedes, hand the
    /// store a fence, so that it leaves only while this node still owns the battle.
    pub(super) fn fence(&mut self) {
        if self.host.node_id().is_none() {
            return;
        }
        if self.ticket == self.published {
            let battle = self.id.clone();
            self.keep(Record::Fence { battle });
        }
        self.published = self.ticket;
    }

    /// While the store takes no writes (a full or read-only disk, a cluster's Redis out of
    /// reach): the refusal for a request that would need one. Nothing is changed then.
    pub(super) fn unwritable(&self) -> Option<Refusal> {
        let store = self.host.store();
        (!store.is_available()).then(|| {
            Refusal::new(
                ErrorCode::StoreUnavailable,
                format!(
                    "the battle's log cannot be written now: {}; nothing was changed, retry \
                     in a moment",
                    store.unavailable_reason()
                ),
            )
        })
    }

    /// Hand `record` to the store; what is sent from now on waits for it.
    pub(super) fn keep(&mut self, record: Record) {
        let ticket = self.host.store().append(record);
        if ticket != 0 {
            self.ticket = ticket;
        }
    }

    /// Record an accepted input in the input log, and in the store.
    pub(super) fn log_input(&mut self, input: Input) {
        if self.host.store().is_durable() {
            let record = Record::Input {
                battle: self.id.clone(),
                n: self.log.inputs.len(),
                input: input.clone(),
            };
            self.keep(record);
        }
        self.log.inputs.push(input);
    }

    /// Run until the battle expires.
    ///
    /// The actor lives in a box: an `async fn` taking it by value would hold it twice in its
    /// future (once as the argument, once as the running state) for the battle's whole life.
    pub async fn run(self: Box<Self>) {
        // One span for the battle's whole life: every event of the actor carries its id.
        let span = tracing::info_span!("battle", battle = %self.id);
        self.run_loop().instrument(span).await;
    }

    async fn run_loop(mut self: Box<Self>) {
        loop {
            let held = self
                .spectator_delay
                .as_ref()
                .and_then(SpectatorDelay::next_due);
            let wake = [
                self.step_at,
                self.clocks.next(),
                self.expire_at,
                held,
                self.beacon_at,
            ]
            .into_iter()
            .flatten()
            .min()
            // While the cluster store is out of reach nothing happens by itself.
            .map(|at| self.paused_until.map_or(at, |paused| at.max(paused)));
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(Command::LetGo { reply }) => {
                        let _ = reply.send(self.let_go());
                        return;
                    }
                    Some(command) => {
                        self.handle(command);
                        if self.withdrawn {
                            break;
                        }
                    }
                    None => break,
                },
                () = sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {
                    if self.on_timer() {
                        break;
                    }
                }
            }
            self.sync_presence();
            self.sync_summary();
        }
        self.farewell();
    }

    fn handle(&mut self, command: Command) {
        // Every command but a move can change who is seated or watching.
        self.summary_dirty |= !matches!(command, Command::Act { .. });
        match command {
            Command::Join {
                from,
                seat,
                setup,
                name,
                req,
                answer,
            } => self.join(from, seat, setup, name, req, answer),
            Command::Rejoin { from, token, req } => self.rejoin(from, &token, req),
            Command::Spectate { from, req } => self.spectate(from, req),
            Command::Act {
                from,
                action,
                req,
                received,
            } => self.act(&from, action, req, received),
            Command::Resync { from, req } => self.resync(&from, req),
            Command::Leave { from, req } => self.leave(&from, req),
            Command::Resign { from, req } => self.resign(&from, req),
            Command::Disconnected { from } => {
                self.forget(from.id());
            }
            Command::Reattach { from, role } => self.reattach(from, role),
            // Taken by the run loop: the actor stops there.
            Command::LetGo { .. } => {}
        }
    }

    /// Once every seat is held, set each up in seat order (recording each setup) and start
    /// the battle. Its first view goes out as a snapshot: the whole game appears at once.
    pub(super) fn start_when_seated(&mut self) {
        if self.status != BattleStatus::Waiting || !self.seats.all_filled() {
            return;
        }
        for seat in 0..self.seats.len() {
            let setup = self.seats.take_setup(seat);
            let name = self.seats.name(seat).map(str::to_owned);
            if let Err(err) = self.game.setup_as(seat, setup.as_ref(), name.as_deref()) {
                // `join` checked this setup against the same waiting battle: a ruleset bug.
                // The seat is given back so that the battle can still fill.
                tracing::error!(battle = %self.id, seat, %err, "setup refused at the start");
                if let Some(holder) = self.seats.conn(seat).cloned() {
                    self.audience_mut(Viewer::Seat(seat)).remove(holder.id());
                    self.refuse(&holder, err.code(), &err.to_string(), None);
                }
                self.seats.release(seat);
                let battle = self.id.clone();
                self.keep(Record::SeatFreed { battle, seat });
                return;
            }
            self.log_input(Input::setup_as(seat, setup.as_ref(), name.as_deref()));
        }
        self.status = BattleStatus::Playing;
        self.summary_dirty = true;
        tracing::info!(battle = %self.id, "battle starts");
        self.after_change(None, None);
    }

    fn act(&mut self, from: &Outbox, action: Value, req: Option<Req>, received: Instant) {
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
        match self.submit(seat, action, req) {
            Ok(()) => {
                self.clocks.decided(seat);
                self.meters.actions_accepted.increment(1);
                let latency = received.elapsed().as_secs_f64();
                self.host.metrics().action_latency.record(latency);
            }
            Err(Refusal { code, message }) => {
                self.host.metrics().refused(code);
                self.refuse(from, code, &message, req)
            }
        }
    }

    /// The seat `from` holds gives up: the battle ends, the other seats win. Recorded in the
    /// input log like a move; the patch that ends the battle answers it.
    fn resign(&mut self, from: &Outbox, req: Option<Req>) {
        let Some(seat) = self.seats.seat_of(from.id()) else {
            return self.refuse(
                from,
                ErrorCode::NotInBattle,
                "you hold no seat in this battle",
                req,
            );
        };
        match self.status {
            BattleStatus::Waiting => {
                return self.refuse(
                    from,
                    ErrorCode::NotStarted,
                    "the battle has not started",
                    req,
                )
            }
            BattleStatus::Finished => {
                return self.refuse(from, ErrorCode::BattleOver, "the battle is over", req)
            }
            BattleStatus::Playing => {}
        }
        if let Some(Refusal { code, message }) = self.unwritable() {
            return self.refuse(from, code, &message, req);
        }
        let before = self.views_now();
        if let Err(err) = self.game.resign(seat) {
            return self.refuse(from, err.code(), &err.to_string(), req);
        }
        self.log_input(Input::Resign { seat });
        tracing::info!(seat, "seat resigned");
        self.after_change(Some((seat, req)), before);
    }

    /// The one path every move takes, a person's or a bot's: validate and apply, record in
    /// the input log, broadcast. On refusal nothing has changed.
    pub(super) fn submit(
        &mut self,
        seat: Seat,
        action: Value,
        req: Option<Req>,
    ) -> Result<(), Refusal> {
        if let Some(refusal) = self.unwritable() {
            return Err(refusal);
        }
        match self.status {
            BattleStatus::Waiting => {
                return Err(Refusal::new(
                    ErrorCode::NotStarted,
                    "the battle waits for every seat to fill",
                ))
            }
            BattleStatus::Finished => {
                return Err(Refusal::new(ErrorCode::BattleOver, "the battle is over"))
            }
            BattleStatus::Playing => {}
        }
        let before = self.views_now();
        self.submit_from(seat, action, req, before)
    }

    /// [`BattleActor::submit`] from `before`, the view as audiences hold it (taken before
    /// anything changed, the clocks included), for a playing battle.
    pub(super) fn submit_from(
        &mut self,
        seat: Seat,
        action: Value,
        req: Option<Req>,
        before: Option<(Viewers, ViewValue)>,
    ) -> Result<(), Refusal> {
        self.game
            .apply(seat, &action)
            .map_err(|err: RuleError| Refusal::new(err.code(), err.to_string()))?;
        self.log_input(Input::act(seat, &action));
        self.after_change(Some((seat, req)), before);
        Ok(())
    }

    /// The view of the battle as the members of every watched audience hold it now, built
    /// for all of them at once, with the set of viewers it was built for (`None` when nobody
    /// watches); taken just before a change, which is then sent as the patch from it.
    /// Building it again costs less than keeping every audience's last view between
    /// changes, which would also have to be walked cold from memory when a thousand battles
    /// take turns (measured: keeping the last published view saves 14 % of a move's
    /// instructions but no CPU time, and costs 12 KiB a battle); building it once for all
    /// audiences costs less than once per audience. With a spectator delay it is built for
    /// the spectators too (as the view after the change is), though they are not sent its
    /// diff.
    pub(super) fn views_now(&self) -> Option<(Viewers, ViewValue)> {
        let watching = self.watching();
        (!watching.is_empty()).then(|| (watching, self.envelope(self.built_for(watching))))
    }

    /// The view envelope for `watching`, with the turn clocks (`clocks`, last: the actor
    /// keeps them, not the ruleset).
    pub(super) fn envelope(&self, watching: Viewers) -> ViewValue {
        let mut view = envelope::build_all(
            &self.id,
            self.status,
            &self.shown_seats,
            &*self.game,
            watching,
        );
        if let ViewValue::Object(pairs) = &mut view {
            pairs.push((Key::Borrowed("clocks"), self.clocks.view()));
        }
        view
    }

    /// The viewers of the audiences someone watches through and that are sent each change
    /// at once: with a spectator delay, not the spectators' (see `delay.rs`).
    fn watching(&self) -> Viewers {
        let watching: Viewers = self
            .audiences
            .iter()
            .filter(|audience| !audience.is_empty())
            .map(Audience::viewer)
            .collect();
        if self.spectator_delay.is_some() {
            watching & !Viewers::SPECTATORS
        } else {
            watching
        }
    }

    /// Who the view is built for when `watching` are sent each change: with a spectator
    /// delay, the spectators too, whether anyone watches or not (their view is held).
    fn built_for(&self, watching: Viewers) -> Viewers {
        if self.spectator_delay.is_some() {
            watching | Viewers::SPECTATORS
        } else {
            watching
        }
    }

    /// After the game changed: settle the status, broadcast, and plan the next bot move and
    /// the clocks. `before` is [`BattleActor::views_now`] from just before the change
    /// (`None`: every audience gets a snapshot); `acted` the seat that moved, if one did.
    pub(super) fn after_change(
        &mut self,
        acted: Option<(Seat, Option<Req>)>,
        before: Option<(Viewers, ViewValue)>,
    ) {
        if self.status == BattleStatus::Playing && self.game.outcome().is_some() {
            self.status = BattleStatus::Finished;
            self.summary_dirty = true;
            self.expire_at = Some(Instant::now() + self.host.config().finished_ttl);
            let ended = self.ended();
            self.keep(Record::Finished(Arc::new(ended)));
            self.meters.battles_finished.increment(1);
            tracing::info!(inputs = self.log.inputs.len(), "battle finished");
        }
        // The clocks are part of the view: settled before it is published.
        self.plan_clocks(acted.map(|(seat, _)| seat));
        self.publish(acted, before);
        self.plan_step();
    }

    /// The finished battle as kept for its replay.
    fn ended(&self) -> Ended {
        // Called once the battle has an outcome; a draw with no words otherwise.
        let outcome = self.game.outcome().map_or_else(
            || OutcomeInfo {
                summary: String::new(),
                winners: Vec::new(),
                reason: Default::default(),
            },
            |o| OutcomeInfo {
                summary: o.summary,
                winners: o.winners,
                reason: o.reason,
            },
        );
        Ended {
            battle: self.id.clone(),
            ruleset: self.log.ruleset.clone(),
            version: self.log.version,
            options: self.log.options.to_string(),
            seed: self.log.seed,
            seats: self.seats.len(),
            bots: (0..self.seats.len())
                .filter(|&seat| self.seats.is_bot(seat))
                .collect(),
            private: self.private,
            seeded: self.seeded,
            outcome,
            // With a spectator delay, the end is shown to spectators one delay from now: the
            // replay waits for it (nobody learns the result from it sooner).
            ended_at: unix_now_ms().saturating_add(
                self.spectator_delay
                    .as_ref()
                    .map_or(0, |d| d.delay().as_millis() as u64),
            ),
            inputs: self.log.inputs.clone(),
        }
    }

    /// Send every audience its share of the change from `before`: the view is built and
    /// diffed once for all watched audiences ([`Changes`]). With a spectator delay the
    /// spectators' view is held instead, to go out one delay later.
    fn publish(
        &mut self,
        acted: Option<(Seat, Option<Req>)>,
        before: Option<(Viewers, ViewValue)>,
    ) {
        self.fence();
        let watching = self.watching();
        if !self.seats.shown_as(&self.shown_seats) {
            self.shown_seats = self.seats.infos();
        }
        let built = self.built_for(watching);
        let view = if built.is_empty() {
            ViewValue::Null
        } else {
            self.envelope(built)
        };
        let held_back = self.spectator_delay.is_some();
        let (id, game) = (&self.id, &*self.game);
        // Audiences that were not watched before the change get a snapshot instead.
        let change = before.map(|(was, old)| (was, Changes::between(&old, &view, was & watching)));
        let mut dropped: Vec<ConnId> = Vec::new();
        for audience in &mut self.audiences {
            let viewer = audience.viewer();
            if held_back && viewer == Viewer::Spectator {
                continue;
            }
            let req = match (acted, viewer) {
                (Some((seat, req)), Viewer::Seat(mine)) if seat == mine => req,
                _ => None,
            };
            let log = game.log(viewer);
            let change = change
                .as_ref()
                .filter(|(was, _)| was.contains(viewer))
                .map(|(_, change)| change);
            dropped.extend(audience.publish(id, req, log, change, &view, self.ticket));
        }
        for conn in dropped {
            let seat = self.seats.seat_of(conn);
            // Closed (gone, or closed with 1013 because its queue was full: the outbox
            // logs that at debug level with its backlog).
            tracing::debug!(conn = conn.0, ?seat, "dropping a closed connection");
            self.forget(conn);
        }
        if held_back {
            self.hold_view(&view);
        }
        self.plan_beacon();
    }

    /// After a change other nodes' connections get: the beacon is due a while later.
    pub(super) fn plan_beacon(&mut self) {
        if self.audiences.iter().any(Audience::has_remote) {
            self.beacon_at = Some(Instant::now() + BEACON_AFTER);
        }
    }

    /// When someone took a seat, left it or came back since the views were last published,
    /// publish the change: the other players see their opponent arrive, go and return.
    pub(super) fn sync_presence(&mut self) {
        if !self.seats.shown_as(&self.shown_seats) {
            let before = self.views_now();
            self.publish(None, before);
        }
    }

    pub(super) fn refuse(&self, to: &Outbox, code: ErrorCode, message: &str, req: Option<Req>) {
        let error = ServerMsg::Error {
            code,
            message: message.to_string(),
            battle_id: Some(self.id.clone()),
            req,
            retry_after_ms: None,
        };
        if code == ErrorCode::StoreUnavailable {
            // Frames held for a commit that cannot happen now must not hold this answer.
            to.offer_ahead_of_held(message_frame(&error));
            return;
        }
        to.offer_msg_at(&error, self.ticket);
    }

    /// Plan the next bot or engine move and the clocks, as after a change.
    pub(super) fn replan(&mut self) {
        self.plan_step();
        self.plan_clocks(None);
    }

    /// The summary as it stands, kept as the one the lobby holds.
    pub(super) fn summary_now(&mut self) -> BattleSummary {
        self.summary = self.build_summary();
        self.summary.clone()
    }

    fn build_summary(&self) -> BattleSummary {
        BattleSummary {
            battle_id: self.id.clone(),
            ruleset: self.game.id().to_string(),
            status: self.status,
            seats: self.seats.infos(),
            spectators: self.audience(Viewer::Spectator).len(),
            seeded: self.seeded,
            node: self.host.node_id().map(str::to_string),
        }
    }

    /// Count the battle against its creator's open-battle quotas until it is under way.
    pub(crate) fn hold_claim(&mut self, claim: Box<dyn CreatorClaim>) {
        self.claim = Some(claim);
    }

    /// Whether `from` comes from the address that created this battle (known only while it
    /// is not yet under way).
    pub(super) fn created_by(&self, from: &Outbox) -> bool {
        match (&self.claim, from.peer_ip()) {
            (Some(claim), Some(ip)) => claim.created_from(ip),
            _ => false,
        }
    }

    /// Remove the battle at once, for `why`: out of the lobby and the store before anything
    /// else is said, its actor stopping after the command at hand.
    pub(super) fn withdraw(&mut self, why: &str) {
        self.leave_lobby();
        self.withdrawn = true;
        tracing::info!(why, "battle removed");
    }

    /// Publish the summary to the lobby when it changed.
    fn sync_summary(&mut self) {
        if !std::mem::take(&mut self.summary_dirty) {
            return;
        }
        let summary = self.build_summary();
        if self.claim.is_some() && super::host::under_way(&summary) {
            self.claim = None;
        }
        if summary != self.summary {
            self.host.set_summary(&self.id, summary.clone());
            self.summary = summary;
        }
    }

    /// Out of the lobby, and out of the store.
    fn leave_lobby(&mut self) {
        self.forget_held();
        self.host.remove(&self.id);
        let battle = self.id.clone();
        self.keep(Record::Removed { battle });
    }

    /// The battle expires: tell whoever is still here, and leave the lobby.
    fn farewell(&mut self) {
        if !self.withdrawn {
            self.leave_lobby();
        }
        let bye = ServerMsg::Left {
            battle_id: self.id.clone(),
            reason: "expired".into(),
            req: None,
        };
        for audience in &mut self.audiences {
            for member in audience.drain() {
                member.offer_msg_at(&bye, self.ticket);
                // Another node's connection: its node stops following the battle for it.
                member.note_dismissed();
            }
        }
        if !self.withdrawn {
            tracing::info!("battle expired");
        }
    }

    pub(super) fn audience_index(&self, viewer: Viewer) -> usize {
        match viewer {
            Viewer::Seat(seat) => seat,
            Viewer::Spectator => self.audiences.len() - 1,
        }
    }

    pub(super) fn audience(&self, viewer: Viewer) -> &Audience {
        &self.audiences[self.audience_index(viewer)]
    }

    pub(super) fn audience_mut(&mut self, viewer: Viewer) -> &mut Audience {
        let index = self.audience_index(viewer);
        &mut self.audiences[index]
    }
}
