//! How long a cluster takes to make a dead node's battles playable again.
//!
//! On the Redis at `--cluster-url`, this starts node A, creates `--battles` synergy PvP
//! battles through it (A owns them all: no other node lives yet to place them on), then
//! starts node B and seats both players of every battle through B (their `join` goes to A's
//! inbox; their changes come back through Redis). The players play with `--think-ms`
//! between moves. `--kill-after` later A is killed with SIGKILL. For each battle still in
//! progress then, the playable-again time runs from the kill to the arrival of the first
//! answer (the patch carrying the act's `req`) to a move sent after the kill: B must notice
//! that A's lease ran out, claim the battle, replay its log from Redis and give its players a
//! snapshot, after which they move again at once (no think time after the kill). Moves sent
//! before that went to A's inbox and are lost; the snapshot tells the players to move again.
//!
//! Prints p50/p99/max of the playable-again times (and of the takeover snapshot's arrival),
//! how many battles came back, and the lease. Bounded: `--wait-secs` after the kill at most.
//! Exit code 0 when every battle in progress at the kill came back, 1 otherwise, 2 when the
//! measurement could not be made.
//!
//! ```sh
//! redis-server deploy/redis.conf --port 6390 --dir /tmp/r &
//! cargo run --release -p battle-e2e --example cluster_failover -- \
//!     --cluster-url redis://127.0.0.1:6390 --battles 1000 --lease-ms 5000
//! ```

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use anyhow::{bail, Context};
use battle_e2e::battle_client::{fill, Applied, Connection, ViewTracker};
use battle_e2e::battle_protocol::{ClientMsg, Req, ServerMsg};
use battle_e2e::cluster::{server_binary, Node};
use clap::Parser;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::Instant;

/// Measure how long a killed node's battles take to be playable again on another node.
#[derive(Debug, Parser)]
struct Args {
    /// The Redis the two nodes share, e.g. redis://127.0.0.1:6390.
    #[arg(long)]
    cluster_url: String,
    /// Battles the node that is killed owns.
    #[arg(long, default_value_t = 1000)]
    battles: usize,
    /// The nodes' lease in milliseconds (the server's default: 5000).
    #[arg(long, default_value_t = 5000)]
    lease_ms: u64,
    /// Seconds of play between the moment every battle is under way and the kill.
    #[arg(long, default_value_t = 10)]
    kill_after_secs: u64,
    /// Each player's pause before a move until the kill, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Longest wait after the kill for the battles to come back, in seconds.
    #[arg(long, default_value_t = 60)]
    wait_secs: u64,
    /// Print the result as one JSON object instead of a few lines of text.
    #[arg(long)]
    json: bool,
    /// The `battle-server` binary the nodes run (default: this profile's, built first).
    #[arg(long)]
    server_binary: Option<std::path::PathBuf>,
}

/// Longest wait for one answer while setting up.
const ANSWER: Duration = Duration::from_secs(30);

/// Joins under way at once while seating the players.
const JOINING: usize = 64;

/// How long a player waits before moving again after a refusal (after the kill, when
/// there is no think time).
const RETRY_AFTER: Duration = Duration::from_millis(50);

/// What every player shares.
struct Shared {
    think: Duration,
    /// When the node was killed: just before the signal, and once it was reaped.
    killed: OnceLock<(Instant, Instant)>,
    /// Refusals the players got, by error code.
    refusals: Mutex<std::collections::BTreeMap<String, u64>>,
}

impl Shared {
    fn refused(&self, code: String) {
        *self
            .refusals
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(code)
            .or_insert(0) += 1;
    }
}

/// One battle's figures.
#[derive(Default)]
struct Watch {
    /// The answer to the first move sent after the kill.
    back: Mutex<Option<Instant>>,
    /// The first snapshot after the kill (the battle taken over).
    taken_over: Mutex<Option<Instant>>,
    /// The battle ended with a move made before the kill (its answer may have come after
    /// it): it was not in progress then.
    over_before_kill: AtomicBool,
    /// How each player's part ended, when it did (for a battle that did not come back).
    ends: Mutex<Vec<String>>,
}

impl Watch {
    fn ended(&self, why: String) {
        self.ends
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(why);
    }
}

fn earliest(slot: &Mutex<Option<Instant>>, at: Instant) {
    let mut held = slot.lock().unwrap_or_else(|p| p.into_inner());
    if held.is_none_or(|t| at < t) {
        *held = Some(at);
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("cluster_failover: cannot start the runtime: {err}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(measure(&args)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(err) => {
            eprintln!("cluster_failover: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Every node flag beyond the lease: no cap on battles created and not yet under way (the
/// battles are all created before anyone joins), finished battles kept a while.
const NODE_FLAGS: [&str; 6] = [
    "--max-open-battles-per-connection",
    "0",
    "--max-open-battles-per-ip",
    "0",
    "--finished-ttl-secs",
    "60",
];

/// The whole measurement; whether every battle in progress at the kill came back.
async fn measure(args: &Args) -> anyhow::Result<bool> {
    if args.battles == 0 {
        bail!("--battles must be at least 1");
    }
    let binary = args.server_binary.clone().unwrap_or_else(server_binary);
    let node = |id: &str| {
        Node::start_binary(
            binary.clone(),
            &args.cluster_url,
            id,
            args.lease_ms,
            &NODE_FLAGS,
        )
    };
    let mut a = node("failover-a");
    let battles = create_all(&a.url, args.battles).await?;
    eprintln!("created {} battles on node A ({})", battles.len(), a.url);
    let b = node("failover-b");
    let shared = Arc::new(Shared {
        think: Duration::from_millis(args.think_ms),
        killed: OnceLock::new(),
        refusals: Mutex::default(),
    });
    let watches: Vec<Arc<Watch>> = battles.iter().map(|_| Arc::default()).collect();
    let mut players = seat_all(&b.url, &battles, &watches, &shared).await?;
    eprintln!(
        "{} players seated through node B ({}); playing {} s before the kill",
        players.len(),
        b.url,
        args.kill_after_secs
    );
    tokio::time::sleep(Duration::from_secs(args.kill_after_secs)).await;
    let before = Instant::now();
    a.kill();
    let killed = Instant::now();
    let _ = shared.killed.set((before, killed));
    eprintln!("node A killed");
    let live = || -> Vec<&Arc<Watch>> {
        watches
            .iter()
            .filter(|w| !w.over_before_kill.load(Ordering::Acquire))
            .collect()
    };
    let bound = killed + Duration::from_secs(args.wait_secs);
    while Instant::now() < bound && !live().iter().all(|w| back(w).is_some()) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    players.abort_all();
    drop(b);
    let live = live();
    let ms = |at: Instant| at.saturating_duration_since(before).as_secs_f64() * 1000.0;
    let playable: Vec<f64> = live.iter().filter_map(|w| back(w)).map(ms).collect();
    // The battles that did not come back (the first ten): what their players saw.
    let missing: Vec<Value> = battles
        .iter()
        .zip(&watches)
        .filter(|(_, w)| !w.over_before_kill.load(Ordering::Acquire) && back(w).is_none())
        .take(10)
        .map(|(battle, w)| {
            let taken = w
                .taken_over
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .is_some();
            let ends = w.ends.lock().unwrap_or_else(|p| p.into_inner()).clone();
            json!({"battle": battle, "snapshot_after_kill": taken, "players_ended": ends})
        })
        .collect();
    let taken: Vec<f64> = live
        .iter()
        .filter_map(|w| *w.taken_over.lock().unwrap_or_else(|p| p.into_inner()))
        .map(ms)
        .collect();
    let result = json!({
        "battles": battles.len(),
        "in_progress_at_kill": live.len(),
        "came_back": playable.len(),
        "not_back": missing,
        "refusals": *shared.refusals.lock().unwrap_or_else(|p| p.into_inner()),
        "lease_ms": args.lease_ms,
        "kill_after_secs": args.kill_after_secs,
        "think_ms": args.think_ms,
        "playable_again_ms": summary(playable.clone()),
        "taken_over_ms": summary(taken),
    });
    if args.json {
        println!("{result}");
    } else {
        print_result(&result);
    }
    Ok(playable.len() == live.len())
}

fn back(watch: &Watch) -> Option<Instant> {
    *watch.back.lock().unwrap_or_else(|p| p.into_inner())
}

/// p50, p99, max and mean (nearest rank) of `values`, in milliseconds.
fn summary(mut values: Vec<f64>) -> Value {
    if values.is_empty() {
        return Value::Null;
    }
    values.sort_by(f64::total_cmp);
    let rank =
        |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    json!({
        "count": values.len(),
        "p50": rank(0.50),
        "p99": rank(0.99),
        "max": values[values.len() - 1],
        "mean": mean,
        "min": values[0],
    })
}

fn print_result(result: &Value) {
    println!(
        "battles: {} created on node A, {} in progress at the kill, {} came back on node B",
        result["battles"], result["in_progress_at_kill"], result["came_back"]
    );
    println!("lease: {} ms", result["lease_ms"]);
    for (name, key) in [
        ("playable again (first move answered)", "playable_again_ms"),
        ("taken over (first snapshot)", "taken_over_ms"),
    ] {
        let s = &result[key];
        println!(
            "{name}: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms (min {:.0}, {} battles)",
            s["p50"].as_f64().unwrap_or(f64::NAN),
            s["p99"].as_f64().unwrap_or(f64::NAN),
            s["max"].as_f64().unwrap_or(f64::NAN),
            s["min"].as_f64().unwrap_or(f64::NAN),
            s["count"]
        );
    }
}

/// Create `count` private synergy PvP battles through `url`, on a few connections at once;
/// their ids.
async fn create_all(url: &str, count: usize) -> anyhow::Result<Vec<String>> {
    const CREATORS: usize = 4;
    let mut creators = JoinSet::new();
    for i in 0..CREATORS {
        let share = count / CREATORS + usize::from(i < count % CREATORS);
        let url = url.to_string();
        creators.spawn(async move { create_some(&url, share).await });
    }
    let mut ids = Vec::with_capacity(count);
    while let Some(made) = creators.join_next().await {
        ids.extend(made.context("a creator's task")??);
    }
    Ok(ids)
}

/// `count` battles created on one connection, the requests sent ahead of their answers.
async fn create_some(url: &str, count: usize) -> anyhow::Result<Vec<String>> {
    let mut conn = Connection::connect(url)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let create = |req: Req| ClientMsg::Create {
        ruleset: "synergy".into(),
        options: Some(json!({"mode": "pvp"})),
        bots: Vec::new(),
        private: true,
        pace_ms: Some(0),
        grace_ms: None,
        seed: None,
        spectator_delay_ms: None,
        timer: None,
        req: Some(req),
    };
    let mut ids = Vec::with_capacity(count);
    let mut asked = 0;
    while ids.len() < count {
        // At most 64 asked and not answered.
        while asked < count && asked - ids.len() < 64 {
            asked += 1;
            conn.send(&create(asked as Req)).await?;
        }
        match tokio::time::timeout(ANSWER, conn.recv()).await {
            Err(_) => bail!("no answer to a create within {ANSWER:?}"),
            Ok(msg) => match msg? {
                ServerMsg::Created { battle_id, .. } => ids.push(battle_id),
                ServerMsg::Error { code, message, .. } => {
                    bail!("a create was refused: {code}: {message}")
                }
                _ => {}
            },
        }
    }
    let _ = conn.close().await;
    Ok(ids)
}

/// Seat both players of every battle through `url` and start them playing; the players'
/// tasks.
async fn seat_all(
    url: &str,
    battles: &[String],
    watches: &[Arc<Watch>],
    shared: &Arc<Shared>,
) -> anyhow::Result<JoinSet<()>> {
    let gate = Arc::new(Semaphore::new(JOINING));
    let seated = AtomicU64::new(0);
    let mut joining = JoinSet::new();
    for (i, battle) in battles.iter().enumerate() {
        for seat in 0..2 {
            let permit = gate
                .clone()
                .acquire_owned()
                .await
                .context("the join gate")?;
            let (url, battle) = (url.to_string(), battle.clone());
            joining.spawn(async move {
                let joined = join(&url, &battle, seat).await;
                drop(permit);
                joined.map(|player| (i, player))
            });
        }
    }
    let mut players = JoinSet::new();
    while let Some(joined) = joining.join_next().await {
        let (i, (conn, tracker)) = joined.context("a joining task")??;
        let rng = SmallRng::seed_from_u64(seated.fetch_add(1, Ordering::Relaxed));
        players.spawn(play(conn, tracker, shared.clone(), watches[i].clone(), rng));
    }
    Ok(players)
}

/// Connect to `url`, take `seat` in `battle` and read the snapshot that follows.
async fn join(url: &str, battle: &str, seat: usize) -> anyhow::Result<(Connection, ViewTracker)> {
    let mut conn = Connection::connect(url)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    conn.send(&ClientMsg::Join {
        battle_id: battle.to_string(),
        seat: Some(seat),
        setup: None,
        req: Some(1),
    })
    .await?;
    let mut tracker = ViewTracker::new(battle);
    loop {
        let msg = tokio::time::timeout(ANSWER, conn.recv())
            .await
            .with_context(|| format!("no snapshot of {battle} within {ANSWER:?}"))??;
        if let ServerMsg::Error { code, message, .. } = &msg {
            bail!("joining {battle}: {code}: {message}");
        }
        if let Ok(Applied::Snapshot { .. }) = tracker.apply(&msg) {
            return Ok((conn, tracker));
        }
    }
}

/// Play one seat until the battle ends (or the task is stopped): a random legal move when
/// the seat is awaited, after the think time until the kill and at once after it.
async fn play(
    mut conn: Connection,
    mut tracker: ViewTracker,
    shared: Arc<Shared>,
    watch: Arc<Watch>,
    mut rng: SmallRng,
) {
    let battle = tracker.battle_id().to_string();
    let mut next_req: Req = 1;
    // The move awaiting its answer, and when it was sent.
    let mut pending: Option<(Req, Instant)> = None;
    // The last move was refused: the next waits a little, as a person would, rather than
    // being sent straight back.
    let mut refused = false;
    loop {
        if tracker.is_over() {
            if back(&watch).is_none() {
                // Over before the kill, or by the answer to a move made before it.
                watch.over_before_kill.store(true, Ordering::Release);
            }
            return;
        }
        if pending.is_none() && tracker.my_turn() {
            let legal = tracker.legal_actions();
            let action = match legal.len() {
                0 => None,
                n => fill::random_fill(&legal[rng.random_range(0..n)], &mut rng),
            };
            if let Some(action) = action {
                if shared.killed.get().is_none() {
                    tokio::time::sleep(shared.think).await;
                } else if std::mem::take(&mut refused) {
                    tokio::time::sleep(RETRY_AFTER).await;
                }
                next_req += 1;
                let act = ClientMsg::Act {
                    battle_id: battle.clone(),
                    action,
                    req: Some(next_req),
                };
                if let Err(err) = conn.send(&act).await {
                    watch.ended(format!("sending a move: {err}"));
                    return;
                }
                pending = Some((next_req, Instant::now()));
            }
        }
        let msg = match conn.recv().await {
            Ok(msg) => msg,
            Err(err) => {
                watch.ended(format!("receiving: {err}"));
                return;
            }
        };
        let at = Instant::now();
        if let ServerMsg::Error { req, code, .. } = &msg {
            shared.refused(code.to_string());
            // Refused (the turn moved on meanwhile): look at the view again.
            if req.is_some() && *req == pending.map(|(r, _)| r) {
                pending = None;
                refused = true;
            }
            continue;
        }
        let killed = shared.killed.get().copied();
        match tracker.apply(&msg) {
            Ok(Applied::Snapshot { req, .. }) => {
                if killed.is_some() {
                    earliest(&watch.taken_over, at);
                }
                answered(&watch, &mut pending, req, killed, at);
                // A snapshot in place of an answer: the move may have been lost with the
                // node that died, and the snapshot says whose turn it is now.
                pending = None;
            }
            Ok(Applied::Patch { req, .. }) => answered(&watch, &mut pending, req, killed, at),
            Ok(_) => {}
            Err(_) => {
                pending = None;
                next_req += 1;
                let resync = ClientMsg::Resync {
                    battle_id: battle.clone(),
                    req: Some(next_req),
                };
                if let Err(err) = conn.send(&resync).await {
                    watch.ended(format!("asking for a resync: {err}"));
                    return;
                }
            }
        }
    }
}

/// A change carrying `req` arrived at `at`: if it answers the pending move, the move is
/// done, and the battle is back if the move was sent after the kill.
fn answered(
    watch: &Watch,
    pending: &mut Option<(Req, Instant)>,
    req: Option<Req>,
    killed: Option<(Instant, Instant)>,
    at: Instant,
) {
    let Some((want, sent)) = *pending else { return };
    if req != Some(want) {
        return;
    }
    *pending = None;
    if killed.is_some_and(|(_, reaped)| sent >= reaped) {
        earliest(&watch.back, at);
    }
}
