//! Engine micro-benchmark: random battles with no sockets, timing each step of the server's
//! per-move pipeline.
//!
//! For every move the battle actor builds the envelope view once for all its audiences (each
//! seat, and the spectators), calls `Ruleset::apply`, builds the view again, diffs the pair
//! once (each operation serialized once, tagged with the viewers who receive it), copies each
//! audience's operations into its `patch` frame, and drops both views. This example
//! replays that pipeline over random battles (random legal actions for every seat the engine
//! does not play), once one battle at a time and once with 1000 battles interleaved, and
//! reports battles per second and the cost of each step per move.
//!
//! ```text
//! cargo run --release -p battle-server --example engine_bench -- [BATTLES] [RULESET] [OPTIONS_JSON]
//! ```
//! Defaults: 2000 battles of `synergy` with `{"mode":"pvp"}`.

/// The server's allocator, so the figures are the server's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use battle_protocol::{BattleStatus, SeatInfo};
use battle_rules::ruleset::{Ruleset, Viewer, Viewers};
use battle_rules::view::{envelope_view_all, Changes};
use battle_server::battle::patch_frame;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Moves after which a battle counts as endless (a ruleset bug).
const MAX_MOVES: usize = 100_000;

/// Battles kept under way at once in the interleaved pipeline run (as in scenario S1).
const LIVE_BATTLES: usize = 1000;

/// Time spent in each step, over all battles.
#[derive(Default)]
struct Totals {
    apply: Duration,
    /// Building the views, before and after the move.
    view: Duration,
    /// The diff, its operations serialized once, and every audience's patch frame.
    diff: Duration,
    /// Dropping both views.
    drop: Duration,
    /// Moves (actions and engine steps) applied.
    moves: u64,
    /// Patches built (one per audience per move).
    patches: u64,
    /// Bytes of the serialized patches.
    patch_bytes: u64,
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let battles: u64 = match args.next().map(|a| a.parse()) {
        None => 2000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("usage: engine_bench [BATTLES] [RULESET] [OPTIONS_JSON]");
            return ExitCode::from(2);
        }
    };
    let ruleset = args.next().unwrap_or_else(|| "synergy".into());
    let options: Value = match args.next().map(|a| serde_json::from_str(&a)) {
        None => json!({"mode": "pvp"}),
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            eprintln!("OPTIONS_JSON is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(entry) = battle_rules::catalog::find(&ruleset) else {
        eprintln!("no ruleset {ruleset:?}");
        return ExitCode::from(2);
    };

    // Rules only: how fast the engine plays whole battles.
    let started = Instant::now();
    let mut rules_moves = 0u64;
    for seed in 0..battles {
        let mut game = match start_battle(entry.build, &options, seed) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("options refused: {e}");
                return ExitCode::from(2);
            }
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while step(&mut *game, &mut rng).is_some() {
            rules_moves += 1;
        }
    }
    let rules_secs = started.elapsed().as_secs_f64();

    // The full pipeline, once with one battle at a time (hot caches) and once with
    // `LIVE_BATTLES` battles played one move each in turn, as a server with that many live
    // battles does (each move then finds its battle's state cold in the cache).
    let mut hot = Totals::default();
    let started = Instant::now();
    pipeline(entry.build, &options, 0..battles, 1, &mut hot);
    let hot_secs = started.elapsed().as_secs_f64();
    let mut t = Totals::default();
    let started = Instant::now();
    pipeline(entry.build, &options, 0..battles, LIVE_BATTLES, &mut t);
    let full_secs = started.elapsed().as_secs_f64();

    let report = |name: &str, t: &Totals, secs: f64| {
        let per_move = |d: Duration| d.as_secs_f64() * 1e6 / t.moves.max(1) as f64;
        let total = t.apply + t.view + t.diff + t.drop;
        println!(
            "  {name:<22} {:>8.0} battles/s {:>9.0} moves/s | per move (µs): apply {:.2}  view {:.2}  diff→json {:.2}  drop {:.2}  = {:.2}",
            battles as f64 / secs,
            t.moves as f64 / secs,
            per_move(t.apply),
            per_move(t.view),
            per_move(t.diff),
            per_move(t.drop),
            per_move(total)
        );
    };
    println!("engine_bench: {battles} random {ruleset} battles, options {options}");
    println!(
        "  rules only             {:>8.0} battles/s {:>9.0} moves/s | {:.1} moves per battle",
        battles as f64 / rules_secs,
        rules_moves as f64 / rules_secs,
        rules_moves as f64 / battles as f64
    );
    report("pipeline, 1 live", &hot, hot_secs);
    report(&format!("pipeline, {LIVE_BATTLES} live"), &t, full_secs);
    println!(
        "  {} audiences per move, {:.0} bytes per patch on average",
        t.patches / t.moves.max(1),
        t.patch_bytes as f64 / t.patches.max(1) as f64
    );
    ExitCode::SUCCESS
}

/// One battle under way in [`pipeline`].
struct Live {
    game: Box<dyn Ruleset>,
    rng: ChaCha8Rng,
    id: String,
    viewers: Vec<Viewer>,
    seqs: Vec<u64>,
    /// Log lines each viewer's frames have carried so far.
    log_lens: Vec<usize>,
}

type Build = fn(&Value, u64) -> Result<Box<dyn Ruleset>, battle_rules::ruleset::OptionsError>;

/// Play the battles of `seeds` through the whole per-move pipeline, `live` at a time, one
/// move per battle in turn.
fn pipeline(
    build: Build,
    options: &Value,
    mut seeds: std::ops::Range<u64>,
    live: usize,
    t: &mut Totals,
) {
    let start = |seed: u64| -> Option<Live> {
        let game = start_battle(build, options, seed).ok()?;
        let viewers: Vec<Viewer> = (0..game.seat_count())
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .collect();
        let id = format!("b{seed:09}");
        Some(Live {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seqs: vec![1; viewers.len()],
            log_lens: viewers.iter().map(|&v| game.log(v).len()).collect(),
            game,
            id,
            viewers,
        })
    };
    let mut table: Vec<Live> = seeds.by_ref().take(live).filter_map(start).collect();
    let mut moves_left = MAX_MOVES as u64 * (seeds.end + 1);
    while !table.is_empty() && moves_left > 0 {
        moves_left -= 1;
        let mut i = 0;
        while i < table.len() {
            let b = &mut table[i];
            if b.game.outcome().is_some() {
                // Finished: a new battle takes the place.
                match seeds.next().and_then(start) {
                    Some(next) => table[i] = next,
                    None => {
                        table.swap_remove(i);
                    }
                }
                continue;
            }
            let watching: Viewers = b.viewers.iter().copied().collect();
            let a = Instant::now();
            // As the actor does: who holds each seat, taken from the seats at every build.
            let seats: Vec<SeatInfo> = (0..b.game.seat_count())
                .map(|seat| SeatInfo {
                    seat,
                    taken: true,
                    bot: false,
                    connected: true,
                    name: None,
                })
                .collect();
            let before =
                envelope_view_all(&b.id, BattleStatus::Playing, &seats, &*b.game, watching);
            let m = Instant::now();
            t.view += m - a;
            if step(&mut *b.game, &mut b.rng).is_none() {
                // Stuck: the battle is dropped (the playout harness reports such rulesets).
                table.swap_remove(i);
                continue;
            }
            t.apply += m.elapsed();
            t.moves += 1;
            let status = if b.game.outcome().is_some() {
                BattleStatus::Finished
            } else {
                BattleStatus::Playing
            };
            let a = Instant::now();
            let view = envelope_view_all(&b.id, status, &seats, &*b.game, watching);
            let m = Instant::now();
            // As the actor and its audiences do: one diff, then each audience's operations
            // and new log lines copied into its frame.
            let changes = Changes::between(&before, &view, watching);
            for (v, &viewer) in b.viewers.iter().enumerate() {
                b.seqs[v] += 1;
                let log = b.game.log(viewer);
                let lines = (b.log_lens[v], &log[b.log_lens[v]..]);
                let text = patch_frame(&b.id, b.seqs[v], None, (&changes, viewer), lines)
                    .unwrap_or_default();
                b.log_lens[v] = log.len();
                t.patches += 1;
                t.patch_bytes += text.len() as u64;
                black_box(text);
            }
            let d = Instant::now();
            drop(changes);
            drop(before);
            drop(view);
            let e = Instant::now();
            t.view += m - a;
            t.diff += d - m;
            t.drop += e - d;
            i += 1;
        }
    }
}

/// A battle built from `options` and `seed`, every seat set up with the ruleset's default,
/// as the server starts one whose seats are all taken.
fn start_battle(build: Build, options: &Value, seed: u64) -> Result<Box<dyn Ruleset>, String> {
    let mut game = build(options, seed).map_err(|e| e.to_string())?;
    for seat in 0..game.seat_count() {
        game.setup(seat, None).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// Play one move: an engine step when the ruleset wants one, else a random legal action of
/// the first seat to act. `None` once the battle is over (or stuck).
fn step(game: &mut dyn Ruleset, rng: &mut ChaCha8Rng) -> Option<()> {
    if game.outcome().is_some() {
        return None;
    }
    if game.next_tick().is_some() {
        return game.advance().ok();
    }
    let seat = *game.to_act().first()?;
    let engine = game.engine_seats().contains(&seat);
    let action = if engine {
        game.ai_action(seat)?
    } else {
        // The ruleset's own random play: open decisions (a programmed rule) filled within
        // their bounds.
        game.random_action(seat, rng)?
    };
    game.apply(seat, &action).ok()
}
