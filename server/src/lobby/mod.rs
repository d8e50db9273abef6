//! The lobby: the registry of live battles, and battle creation.
//!
//! Battles are found by id in a [`DashMap`]; each entry holds the battle's handle and the
//! summary its actor keeps up to date for `list`. An actor removes its own entry when the
//! battle expires.
//!
//! `list` answers in pages from an ordered index of the public battles (creation number →
//! id, see `index.rs`): a page costs a range walk of the index and one map lookup per
//! battle on it, never a pass over every battle.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use battle_protocol::{BattleSummary, ErrorCode, RulesetInfo, SampleInfo, Seat};
use battle_rules::{RulesetEntry, TimerSpec};
use dashmap::DashMap;
use rand::Rng;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::battle::{self, BattleHandle, BattleSetup};
use crate::cluster::Cluster;
use crate::config::Config;
use crate::connection::outbox::Outbox;
use crate::ids::ConnId;
use crate::matchmaker::{self, MatchmakerHandle};
use crate::metrics::Metrics;
use crate::poison::Locked;
use crate::quota::{Creator, Quotas};
use crate::store::{Created, Quarantined, Record, Store, Ticket};

mod census;
mod clustered;
mod finished;
mod index;
mod reads;
mod restore;

pub use clustered::Placed;

pub use index::Page;
use index::{Index, PageRequest};

pub use crate::refusal::Refusal;

/// Most finished battles `list` gives.
pub const FINISHED_LISTED: usize = 50;

/// The longest spectator delay `create` accepts: ten minutes.
pub const MAX_SPECTATOR_DELAY_MS: u64 = 600_000;

/// What `create` asks for.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct CreateRequest {
    pub ruleset: String,
    pub options: Option<Value>,
    pub bots: Vec<Seat>,
    pub private: bool,
    pub pace_ms: Option<u64>,
    /// How long a seat's holder may be gone before the bot decides for it.
    pub grace_ms: Option<u64>,
    /// A seed chosen by the creator (a reproducible battle).
    pub seed: Option<u64>,
    /// The turn timer asked for (`"off"` or its numbers; absent: the ruleset's default).
    pub timer: Option<Value>,
    /// How long after the players spectators see each change, in milliseconds.
    pub spectator_delay_ms: Option<u64>,
}

struct Entry {
    handle: BattleHandle,
    summary: BattleSummary,
    private: bool,
    /// The battle's creation number (see [`Index`]).
    created: u64,
    /// In a cluster: the epoch at which this node owns the battle.
    epoch: u64,
}

/// All live battles.
pub struct Lobby {
    battles: DashMap<String, Entry>,
    config: Config,
    /// The public battles in creation order, for `list`.
    index: Mutex<Index>,
    /// The rulesets on offer as `welcome` lists them.
    rulesets: Vec<RulesetInfo>,
    /// Where battles are kept (or nowhere).
    store: Store,
    /// Every open connection, to close them all when the server drains.
    connections: DashMap<ConnId, Outbox>,
    /// The server is shutting down: new requests are refused.
    draining: AtomicBool,
    /// How many open battles each connection and address may have created.
    quotas: Quotas,
    /// What the server counts, for `/metrics`.
    metrics: Arc<Metrics>,
    /// The way into the matchmaker, which creates battles here for players who queue.
    matchmaker: MatchmakerHandle,
    /// In cluster mode: this node's part of the cluster.
    cluster: Option<Arc<Cluster>>,
    /// The battles set aside because they cannot be restored (`restore.rs`).
    quarantined: Mutex<BTreeMap<String, Quarantined>>,
    /// In a cluster: how many battles are set aside in the whole cluster, as last read.
    quarantined_in_cluster: AtomicUsize,
    /// The tasks that run behind the connections: every battle's actor, the matchmaker and
    /// the cluster's loops.
    background: TaskTracker,
    /// Cancelled once the server has drained: every background task stops.
    stopping: CancellationToken,
}

impl Lobby {
    /// An empty lobby keeping its battles in `store`, with its matchmaker's task started
    /// (within a tokio runtime). Its background tasks are spawned on `background` and stop
    /// when `stopping` is cancelled.
    pub fn new(
        config: Config,
        store: Store,
        cluster: Option<Arc<Cluster>>,
        background: TaskTracker,
        stopping: CancellationToken,
    ) -> Arc<Lobby> {
        let rulesets = config.rulesets.iter().map(|entry| info(entry)).collect();
        let quotas = Quotas::new(&config);
        let ids: Vec<&'static str> = config.rulesets.iter().map(|entry| entry.id).collect();
        let metrics = Metrics::new(&ids);
        let (matchmaker, starter) = matchmaker::channel();
        let lobby = Arc::new(Lobby {
            battles: DashMap::new(),
            config,
            index: Mutex::new(Index::default()),
            rulesets,
            store,
            connections: DashMap::new(),
            draining: AtomicBool::new(false),
            quotas,
            metrics,
            matchmaker,
            cluster,
            quarantined: Mutex::new(BTreeMap::new()),
            quarantined_in_cluster: AtomicUsize::new(0),
            background,
            stopping,
        });
        starter.start(&lobby);
        lobby
    }

    /// Run `task` in the background until it ends or the server has drained.
    pub(crate) fn spawn_background<F>(&self, task: F)
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.background
            .spawn(self.stopping.child_token().run_until_cancelled_owned(task));
    }

    /// Stop every background task (the server has drained) and wait, at most `grace`, for
    /// them to end.
    pub(crate) async fn stop_background(&self, grace: Duration) {
        self.stopping.cancel();
        self.background.close();
        let _ = tokio::time::timeout(grace, self.background.wait()).await;
    }

    /// The way into the matchmaker.
    pub fn matchmaker(&self) -> &MatchmakerHandle {
        &self.matchmaker
    }

    /// A connection opened.
    pub(crate) fn connected(&self, outbox: &Outbox) {
        self.connections.insert(outbox.id(), outbox.clone());
        self.metrics.connections_opened.increment(1);
    }

    /// A connection ended.
    pub(crate) fn disconnected(&self, conn: ConnId) {
        if let Some((_, outbox)) = self.connections.remove(&conn) {
            let (frames, bytes) = outbox.sent();
            self.metrics.connection_closed(frames, bytes);
        }
    }

    /// Frames and bytes the open connections have written so far.
    pub fn sent_by_open_connections(&self) -> (u64, u64) {
        self.connections
            .iter()
            .map(|entry| entry.value().sent())
            .fold((0, 0), |(frames, bytes), (f, b)| (frames + f, bytes + b))
    }

    /// What the server counts.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Call `f` with the summary of every live battle (private ones included), for the
    /// metrics.
    pub fn for_each_summary(&self, mut f: impl FnMut(&BattleSummary)) {
        for entry in self.battles.iter() {
            f(&entry.value().summary);
        }
    }

    /// Players waiting in the matchmaker.
    pub fn queued_players(&self) -> usize {
        self.matchmaker.waiting()
    }

    /// How many connections are open.
    pub fn connection_count(&self) -> usize {
        self.connections.len()
    }

    /// The most bytes any open connection has queued now (see [`Outbox::queued_bytes`]).
    pub fn most_queued_bytes(&self) -> usize {
        self.connections
            .iter()
            .map(|entry| entry.value().queued_bytes())
            .max()
            .unwrap_or(0)
    }

    /// From now on, refuse new requests (the server is shutting down).
    pub fn set_draining(&self) {
        self.draining.store(true, Ordering::Release);
    }

    /// Whether the server is shutting down.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// Close every connection with 1001 ("going away"), after what it is owed; how many.
    pub(crate) fn close_connections(&self) -> usize {
        use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
        let mut closed = 0;
        for entry in self.connections.iter() {
            entry.value().close(CloseCode::Away, "server shutting down");
            closed += 1;
        }
        closed
    }

    /// Where battles are kept.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The server's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The rulesets on offer, for `welcome`.
    pub fn rulesets(&self) -> &[RulesetInfo] {
        &self.rulesets
    }

    /// The open-battle quotas per connection and per address.
    pub fn quotas(&self) -> &Quotas {
        &self.quotas
    }

    /// Create a battle for `creator` and start its actor; returns the new battle's id and the
    /// ticket its creation is committed with (the reply waits for it). The battle counts
    /// against the creator's open-battle quotas until it is under way (`crate::quota`).
    pub fn create(
        self: &Arc<Self>,
        request: CreateRequest,
        creator: &Creator,
    ) -> Result<(String, Ticket), Refusal> {
        let entry = offered(&self.config, &request.ruleset)?;
        if !self.store.is_available() {
            return Err(Refusal::new(
                ErrorCode::StoreUnavailable,
                format!(
                    "no battle can be created now: {}; retry in a moment",
                    self.store.unavailable_reason()
                ),
            ));
        }
        if self.battles.len() >= self.config.max_battles {
            return Err(Refusal::new(
                ErrorCode::ServerBusy,
                format!(
                    "the server holds its limit of {} battles",
                    self.config.max_battles
                ),
            ));
        }
        let claim = self.quotas.claim(creator)?;
        let timer = timer_of(entry, request.timer.as_ref())
            .map_err(|why| Refusal::new(ErrorCode::BadOptions, why))?;
        let spectator_delay_ms = request.spectator_delay_ms.unwrap_or(0);
        if spectator_delay_ms > MAX_SPECTATOR_DELAY_MS {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                format!(
                    "spectator_delay_ms: at most {MAX_SPECTATOR_DELAY_MS} (ten minutes), \
                     not {spectator_delay_ms}"
                ),
            ));
        }
        let options = request.options.clone().unwrap_or(Value::Null);
        let seed: u64 = request.seed.unwrap_or_else(|| rand::rng().random());
        let game = (entry.build)(&options, seed).map_err(|err| {
            Refusal::new(
                ErrorCode::BadOptions,
                format!("{} options: {err}", entry.id),
            )
        })?;
        // The seat count is the battle's own: one ruleset builds battles of several sizes.
        let seats = game.seat_count();
        let mut bots = request.bots.clone();
        bots.sort_unstable();
        bots.dedup();
        if let Some(&seat) = bots.iter().find(|&&seat| seat >= seats) {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                format!(
                    "bots: seat {seat} does not exist (this battle has seats 0 to {})",
                    seats - 1
                ),
            ));
        }
        for seat in game.engine_seats() {
            if !bots.contains(&seat) {
                bots.push(seat);
            }
        }
        let battle_id = self.fresh_id();
        let pace_ms = request.pace_ms.unwrap_or(self.config.default_pace_ms);
        let grace_ms = request
            .grace_ms
            .unwrap_or(self.config.disconnect_grace.as_millis() as u64);
        let ticket = self.store.append(Record::Created(Box::new(Created {
            battle: battle_id.clone(),
            ruleset: entry.id.to_string(),
            version: entry.version,
            options: options.to_string(),
            seed,
            bots: bots.clone(),
            pace_ms,
            grace_ms,
            private: request.private,
            seeded: request.seed.is_some(),
            timer,
            spectator_delay_ms,
        })));
        let setup = BattleSetup {
            battle_id: battle_id.clone(),
            game,
            options,
            seed,
            bots,
            pace: Duration::from_millis(pace_ms),
            grace: Duration::from_millis(grace_ms),
            seeded: request.seed.is_some(),
            private: request.private,
            timer,
            spectator_delay: Duration::from_millis(spectator_delay_ms),
        };
        let (mut actor, handle, summary) = battle::prepare(setup, self.clone());
        actor.hold_claim(Box::new(claim));
        self.register(
            battle_id.clone(),
            actor,
            handle,
            summary,
            request.private,
            1,
        );
        self.metrics.ruleset(entry.id).battles_created.increment(1);
        tracing::info!(battle = %battle_id, ruleset = entry.id, "battle created");
        Ok((battle_id, ticket))
    }

    /// List a battle under `id` and start its actor.
    fn register(
        &self,
        id: String,
        actor: battle::BattleActor,
        handle: BattleHandle,
        summary: BattleSummary,
        private: bool,
        epoch: u64,
    ) {
        self.keep_summary(&id, &summary);
        {
            let mut index = self.index();
            let created = index.enlist(&id, private);
            // In the map before the index lock is let go: a page that lists the battle
            // finds it.
            self.battles.insert(
                id,
                Entry {
                    handle,
                    summary,
                    private,
                    created,
                    epoch,
                },
            );
        }
        self.spawn_background(Box::new(actor).run());
    }

    fn index(&self) -> MutexGuard<'_, Index> {
        // Nothing panics while holding the lock, and every change to the index is one
        // call on it: a poisoned lock still holds a usable value.
        self.index.locked()
    }

    /// The handle of a live battle. In a cluster, of any battle id: the battle is looked
    /// for wherever it runs when a command is sent (and answered `no_such_battle` if it
    /// runs nowhere).
    pub fn handle(&self, battle_id: &str) -> Option<BattleHandle> {
        if let Some(cluster) = &self.cluster {
            return Some(crate::cluster::route::Routed::handle(
                battle_id,
                cluster.clone(),
            ));
        }
        self.local_handle(battle_id)
    }

    /// The handle of a battle whose actor runs on this node.
    pub fn local_handle(&self, battle_id: &str) -> Option<BattleHandle> {
        self.battles
            .get(battle_id)
            .map(|entry| entry.handle.clone())
    }

    /// One page of the public battles, oldest first: at most `limit` of them (absent:
    /// [`ClientMsg::LIST_LIMIT_DEFAULT`]; more than [`ClientMsg::LIST_LIMIT_MAX`] is taken as
    /// the maximum; 0 is refused), created after the one `cursor` names (absent: from the
    /// first). Costs a walk of `limit` index entries and as many map lookups.
    ///
    /// [`ClientMsg::LIST_LIMIT_DEFAULT`]: battle_protocol::ClientMsg::LIST_LIMIT_DEFAULT
    /// [`ClientMsg::LIST_LIMIT_MAX`]: battle_protocol::ClientMsg::LIST_LIMIT_MAX
    pub fn list(&self, cursor: Option<&str>, limit: Option<u32>) -> Result<Page, Refusal> {
        let request = PageRequest::new(cursor, limit)?;
        let page = self.index().page(request);
        // A battle gone since the index was read is left out (the page is one shorter).
        let battles = page
            .ids
            .iter()
            .filter_map(|(created, id)| {
                let entry = self.battles.get(id)?;
                (entry.created == *created).then(|| entry.summary.clone())
            })
            .collect();
        Ok(Page {
            battles,
            total: page.total,
            next_cursor: page.next_cursor,
        })
    }

    /// How many battles are alive.
    pub fn len(&self) -> usize {
        self.battles.len()
    }

    /// Whether no battle is alive.
    pub fn is_empty(&self) -> bool {
        self.battles.is_empty()
    }

    pub(crate) fn set_summary(&self, battle_id: &str, summary: BattleSummary) {
        self.keep_summary(battle_id, &summary);
        if let Some(mut entry) = self.battles.get_mut(battle_id) {
            entry.summary = summary;
        }
    }

    /// In a cluster: the battle's `list` record for every node (fenced like its log).
    fn keep_summary(&self, battle_id: &str, summary: &BattleSummary) {
        self.store.keep_summary(battle_id, summary);
    }

    pub(crate) fn remove(&self, battle_id: &str) {
        if let Some((_, entry)) = self.battles.remove(battle_id) {
            if !entry.private {
                self.index().remove(entry.created);
            }
        }
        if let Some(cluster) = &self.cluster {
            // The battle's proxies for other nodes' connections go with it.
            cluster
                .proxies
                .retain(|(battle, _, _), _| battle != battle_id);
        }
    }

    /// A fresh battle id that no live battle has.
    fn fresh_id(&self) -> String {
        loop {
            let id = crate::ids::random_id(10);
            if !self.battles.contains_key(&id) && !self.is_quarantined(&id) {
                return id;
            }
        }
    }
}

/// Each battle's actor reaches the lobby only through this: its settings, counters and
/// journal, and where it reports its summary and its end.
impl battle::Host for Lobby {
    fn config(&self) -> &Config {
        &self.config
    }

    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn store(&self) -> &Store {
        &self.store
    }

    fn node_id(&self) -> Option<&str> {
        self.cluster.as_deref().map(Cluster::node_id)
    }

    fn set_summary(&self, battle_id: &str, summary: BattleSummary) {
        Lobby::set_summary(self, battle_id, summary);
    }

    fn remove(&self, battle_id: &str) {
        Lobby::remove(self, battle_id);
    }

    fn remove_local(&self, battle_id: &str) {
        Lobby::remove_local(self, battle_id);
    }
}

/// The ruleset `id` among those `config` offers, or the `unknown_ruleset` refusal naming
/// them.
pub fn offered(config: &Config, id: &str) -> Result<&'static RulesetEntry, Refusal> {
    config.ruleset(id).ok_or_else(|| {
        let known: Vec<&str> = config.rulesets.iter().map(|e| e.id).collect();
        Refusal::new(
            ErrorCode::UnknownRuleset,
            format!("no ruleset {id:?}; this server has: {}", known.join(", ")),
        )
    })
}

/// The turn timer `create` asks for: absent, the ruleset's default; `"off"`, none; an object,
/// its numbers over the ruleset's default (or the standard clock for an untimed ruleset).
fn timer_of(entry: &RulesetEntry, asked: Option<&Value>) -> Result<Option<TimerSpec>, String> {
    let Some(asked) = asked else {
        return Ok(entry.timer);
    };
    if asked == "off" {
        return Ok(None);
    }
    let Value::Object(fields) = asked else {
        return Err(
            "timer: \"off\" or an object of bank_ms, increment_ms, cap_ms, forfeit_after".into(),
        );
    };
    let mut spec = serde_json::to_value(entry.timer.unwrap_or(TimerSpec::STANDARD))
        .expect("a timer spec serializes");
    for (key, value) in fields {
        spec[key.as_str()] = value.clone();
    }
    let spec: TimerSpec = serde_json::from_value(spec).map_err(|e| format!("timer: {e}"))?;
    spec.check()?;
    Ok(Some(spec))
}

/// How `welcome` lists `entry`: its samples with the battles they make (each sample is built
/// once, to read its seats).
fn info(entry: &RulesetEntry) -> RulesetInfo {
    let samples = entry
        .samples
        .iter()
        .filter_map(|sample| {
            let options: Value = serde_json::from_str(sample.options).ok()?;
            let game = (entry.build)(&options, 0).ok()?;
            Some(SampleInfo {
                name: sample.name.to_string(),
                about: sample.about.to_string(),
                seats: game.seat_count(),
                engine_seats: game.engine_seats(),
                options,
            })
        })
        .collect();
    RulesetInfo {
        id: entry.id.to_string(),
        version: entry.version,
        summary: entry.summary.to_string(),
        min_seats: *entry.seats.start(),
        max_seats: *entry.seats.end(),
        samples,
    }
}
