//! Random playouts over every ruleset (the catalog's and the test ruleset `blind`), so each
//! new game is checked for free.
//!
//! For each ruleset, each of its samples and each of 2,000 seeds, a battle is built (its
//! seats set up with the sample's setups on even seeds, the defaults on odd ones) and played
//! to the end by random actions of random seats among those that may act (awaited or not),
//! interleaved with engine steps and timeouts. Every step checks that:
//! - the battle ends within the entry's bound on steps, and never waits on nobody;
//! - every awaited seat has a prompt and something to do; a seat not awaited has no prompt;
//! - the view's `legal` list is the legal actions; the ruleset's random action, its AI's
//!   action and every whole legal action are admitted by the list (open entries by their
//!   JSON Schema, checked by `battle_protocol::choose` as a client checks them) and
//!   accepted; a legal action with an unknown member is refused;
//! - a refused action, timeout or setup leaves every view unchanged;
//! - a twin battle fed the same inputs shows every viewer the same views, and so does the
//!   battle replayed from the input log at the end;
//! - the log only grows;
//! - the one diff the server makes of each change for all viewers gives every viewer byte
//!   for byte the patch of its own views (every fourth seed);
//! - rulesets' own invariants hold and nothing hidden leaks (`invariants.rs`);
//! - every log line and the outcome are written for whoever reads them, name seats as they
//!   were named (a third of the seeds name the seats, another third give two seats the same
//!   name), and state every change of the counts the game reports with its before and
//!   after (`words.rs`).

#[path = "playout/invariants.rs"]
mod invariants;
#[path = "playout/words.rs"]
mod words;

use battle_protocol::choose;
use battle_protocol::BattleStatus;
use battle_rules::catalog::catalog;
use battle_rules::input_log::{replay, Input, InputLog};
use battle_rules::ruleset::{RuleError, Ruleset};
use battle_rules::view::{diff_json, envelope_view_all, Changes, ViewValue, Viewer, Viewers};
use battle_rules::{RulesetEntry, Sample};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Seeds per ruleset and sample.
const SEEDS: u64 = 2_000;

/// Seeds per sample for `id`: gambit's runs are hundreds of steps with a long log each (six
/// fights of up to 600 ticks), so it plays 1,000 per sample (2,000 in all). `PLAYOUT_SEEDS`
/// sets the count for every ruleset (to try more, or fewer while developing);
/// `PLAYOUT_ONLY` plays one ruleset.
fn seeds(id: &str) -> u64 {
    if let Some(n) = std::env::var("PLAYOUT_SEEDS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        return n;
    }
    match id {
        "gambit" => 1_000,
        _ => SEEDS,
    }
}
/// The shared diff is checked on every this many seeds (it triples a debug build's time).
const SHARED_DIFF_EVERY: u64 = 4;

/// Every ruleset to play: the catalog and the rulesets only tests use.
fn rulesets() -> Vec<RulesetEntry> {
    catalog()
        .iter()
        .cloned()
        .chain([battle_rules::blind::ENTRY])
        .collect()
}

/// Every viewer of a battle with `seats` seats: each seat, then a spectator.
fn viewers(seats: usize) -> Vec<Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
        .collect()
}

/// A battle and its twin, fed the same inputs, and the log of those inputs.
struct Pair {
    game: Box<dyn Ruleset>,
    twin: Box<dyn Ruleset>,
    log: InputLog,
    ctx: String,
}

/// What a refused input must leave as it was: every viewer's view, log length and legal
/// actions, and who is awaited.
#[derive(PartialEq)]
struct Fingerprint {
    view: ViewValue,
    logs: Vec<usize>,
    legal: Vec<Vec<Value>>,
    to_act: Vec<usize>,
}

fn fingerprint(game: &dyn Ruleset) -> Fingerprint {
    let seats = game.seat_count();
    Fingerprint {
        view: game.view_all(),
        logs: viewers(seats)
            .into_iter()
            .map(|v| game.log(v).len())
            .collect(),
        legal: (0..seats).map(|seat| game.legal_actions(seat)).collect(),
        to_act: game.to_act(),
    }
}

impl Pair {
    /// Apply `input` to both battles (and the log) or to neither: a refused input changes
    /// nothing. Returns whether it was accepted.
    fn input(&mut self, input: Input, step: usize) -> bool {
        let ctx = &self.ctx;
        let before = fingerprint(&*self.game);
        match input.apply_to(&mut *self.game) {
            Ok(()) => {
                input
                    .apply_to(&mut *self.twin)
                    .unwrap_or_else(|e| panic!("{ctx} step {step}: twin refused {input:?}: {e}"));
                self.log.inputs.push(input);
                true
            }
            Err(_) => {
                assert!(
                    before == fingerprint(&*self.game),
                    "{ctx} step {step}: refused {input:?} changed the battle"
                );
                false
            }
        }
    }
}

/// Every viewer's view with its log, as JSON.
fn all_views(game: &dyn Ruleset) -> Vec<Value> {
    viewers(game.seat_count())
        .into_iter()
        .map(|v| seen_by(game, v))
        .collect()
}

/// Plays one battle to its end; panics with the ruleset, sample and seed on any failure.
fn playout(entry: &RulesetEntry, sample: &Sample, seed: u64, all: &[RulesetEntry]) {
    let ctx = format!("{} sample {} seed {seed}", entry.id, sample.name);
    let options: Value = serde_json::from_str(sample.options)
        .unwrap_or_else(|e| panic!("{ctx}: the sample's options are not JSON: {e}"));
    let build = || (entry.build)(&options, seed).unwrap_or_else(|e| panic!("{ctx}: build: {e}"));
    let mut pair = Pair {
        game: build(),
        twin: build(),
        log: InputLog::new(&*build(), options.clone(), seed),
        ctx: ctx.clone(),
    };
    let seats = pair.game.seat_count();
    assert!(entry.seats.contains(&seats), "{ctx}: {seats} seats");
    waiting_battles_refuse_play(&ctx, &mut *pair.game);
    // A third of the seeds name the seats, a third give two of them the same name; the
    // engine's seats keep the ruleset's names.
    let engine = pair.game.engine_seats();
    let given = |seat: usize| match seed % 3 {
        _ if engine.contains(&seat) => None,
        0 => ["Ana", "Ben"].get(seat).copied(),
        2 => ["ada", "Ada"].get(seat).copied(),
        _ => None,
    };
    let named = (0..seats).any(|seat| given(seat).is_some());
    for seat in 0..seats {
        let setup = sample
            .setups
            .get(seat)
            .filter(|_| seed % 2 == 0)
            .map(|text| serde_json::from_str::<Value>(text).expect("sample setups are JSON"));
        // A setup the ruleset refuses changes nothing.
        let refused = pair
            .game
            .check_setup(seat, Some(&json!({"$unknown": true})));
        assert!(
            refused.is_err(),
            "{ctx}: a setup with an unknown member was accepted"
        );
        pair.game
            .check_setup(seat, setup.as_ref())
            .unwrap_or_else(|e| panic!("{ctx}: sample setup for seat {seat} refused: {e}"));
        assert!(
            pair.input(Input::setup_as(seat, setup.as_ref(), given(seat)), 0),
            "{ctx}: setup"
        );
    }
    let names = pair.game.names().expect("started").clone();
    for seat in 0..seats {
        if let Some(name) = given(seat) {
            assert!(names.of(seat).starts_with(name), "{ctx}: {names:?}");
        }
    }
    assert!(
        pair.game.started(),
        "{ctx}: every seat is set up but no battle"
    );
    let viewers = viewers(seats);
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xA5);
    let mut previous: Vec<Value> = Vec::new();
    let mut previous_all: Option<ViewValue> = None;
    let mut previous_counts: Option<words::Counts> = None;
    // Accepted inputs so far; the loop also counts refused timeouts.
    let mut inputs = 0;
    for step in 0.. {
        assert!(
            inputs <= entry.max_steps && step <= 4 * entry.max_steps + 100,
            "{ctx}: no outcome after {} steps",
            entry.max_steps
        );
        let game = &*pair.game;
        if seed % SHARED_DIFF_EVERY == 0 {
            let all = shared_view(game, &viewers);
            if let Some(before) = &previous_all {
                check_shared_diff(&ctx, step, before, &all, &viewers);
            }
            previous_all = Some(all);
        }
        let views = all_views(game);
        assert!(
            views == all_views(&*pair.twin),
            "{ctx} step {step}: the twin battle shows a viewer something else"
        );
        check_log_grows(&ctx, step, previous.last(), views.last());
        check_words(
            &ctx,
            step,
            entry.id,
            named,
            &previous,
            &views,
            &mut previous_counts,
        );
        invariants::check(entry.id, &ctx, step, &views, previous.last(), game);
        if let Some(outcome) = game.outcome() {
            check_over(&ctx, game, &mut rng);
            words::check_line(&ctx, &outcome.summary, named);
            let log = game.log(Viewer::Spectator).join("\n");
            for seat in (0..seats).filter(|&seat| given(seat).is_some()) {
                let name = names.of(seat);
                assert!(
                    log.contains(&name) || outcome.summary.contains(&name),
                    "{ctx}: {name} is never named"
                );
            }
            break;
        }
        let awaited = game.to_act();
        let may_act: Vec<usize> = (0..seats)
            .filter(|&s| !game.legal_actions(s).is_empty())
            .collect();
        check_decisions(&ctx, step, game, &awaited, &mut rng);
        let tick = game.next_tick().is_some();
        assert!(
            !awaited.is_empty() || tick,
            "{ctx} step {step}: nobody awaited, no engine step, no outcome"
        );
        if tick && (may_act.is_empty() || rng.random_ratio(3, 4)) {
            assert!(
                pair.input(Input::Advance, step),
                "{ctx} step {step}: advance refused"
            );
            inputs += 1;
        } else if !awaited.is_empty() && rng.random_ratio(1, 25) {
            // A timeout: decided by the ruleset, or refused without a change.
            let seat = awaited[rng.random_range(0..awaited.len())];
            inputs += usize::from(pair.input(Input::Timeout { seat }, step));
        } else {
            let seat = if !awaited.is_empty() && rng.random_ratio(3, 4) {
                awaited[rng.random_range(0..awaited.len())]
            } else {
                may_act[rng.random_range(0..may_act.len())]
            };
            let action = pair
                .game
                .random_action(seat, &mut rng)
                .unwrap_or_else(|| panic!("{ctx} step {step}: seat {seat} may act but draws none"));
            let bogus = json!({"kind": "$nope"});
            assert!(
                !pair.input(Input::act(seat, &bogus), step),
                "{ctx}: {bogus} accepted"
            );
            for idle in (0..seats).filter(|s| !may_act.contains(s)) {
                let refused = !pair.input(Input::act(idle, &action), step);
                assert!(
                    refused,
                    "{ctx} step {step}: seat {idle} acted with nothing to do"
                );
            }
            let accepted = pair.input(Input::act(seat, &action), step);
            assert!(
                accepted,
                "{ctx} step {step}: seat {seat}'s random {action} refused"
            );
            inputs += 1;
        }
        previous = views;
    }
    let replayed = replay(&pair.log, all).unwrap_or_else(|e| panic!("{ctx}: replay: {e}"));
    assert!(
        all_views(&*replayed) == all_views(&*pair.game),
        "{ctx}: the battle replayed from its input log shows a viewer something else"
    );
}

/// Before every seat is set up, nobody may act and there is no game to see.
fn waiting_battles_refuse_play(ctx: &str, game: &mut dyn Ruleset) {
    assert!(
        !game.started() && game.to_act().is_empty(),
        "{ctx}: plays before its setups"
    );
    assert_eq!(
        game.view_all(),
        ViewValue::Null,
        "{ctx}: a view before the start"
    );
    for seat in 0..game.seat_count() {
        assert!(
            game.legal_actions(seat).is_empty(),
            "{ctx}: legal before the start"
        );
        assert_eq!(
            game.apply(seat, &json!({})),
            Err(RuleError::NotStarted),
            "{ctx}"
        );
    }
}

/// Once the battle is over, nobody may do anything.
fn check_over(ctx: &str, game: &dyn Ruleset, rng: &mut ChaCha8Rng) {
    assert!(game.to_act().is_empty(), "{ctx}: over but awaits a seat");
    for seat in 0..game.seat_count() {
        assert!(
            game.legal_actions(seat).is_empty(),
            "{ctx}: over but seat {seat} may act"
        );
        assert!(
            game.random_action(seat, rng).is_none(),
            "{ctx}: over but draws an action"
        );
        assert_eq!(
            game.prompt_view(seat),
            ViewValue::Null,
            "{ctx}: over but prompts"
        );
    }
}

/// Prompts, legal lists and the actions the ruleset draws or its AI picks, for every seat.
fn check_decisions(
    ctx: &str,
    step: usize,
    game: &dyn Ruleset,
    awaited: &[usize],
    rng: &mut ChaCha8Rng,
) {
    for seat in 0..game.seat_count() {
        let ctx = format!("{ctx} step {step} seat {seat}");
        let legal = game.legal_actions(seat);
        assert_eq!(
            game.legal_view(seat).to_value(),
            Value::Array(legal.clone()),
            "{ctx}: the view's legal actions are not the legal actions"
        );
        let prompt = game.prompt_view(seat).to_value();
        if awaited.contains(&seat) {
            assert!(!legal.is_empty(), "{ctx}: awaited with nothing to do");
            assert!(
                prompt["decision"].is_string() && prompt["text"].is_string(),
                "{ctx}: awaited without a prompt: {prompt}"
            );
        } else {
            assert!(
                prompt.is_null(),
                "{ctx}: not awaited but prompted: {prompt}"
            );
        }
        let admitted = |action: &Value| legal.iter().any(|entry| choose::admits(entry, action));
        let accepted = |action: &Value| game.boxed_clone().apply(seat, action).is_ok();
        if let Some(action) = game.random_action(seat, rng) {
            assert!(
                admitted(&action),
                "{ctx}: random {action} is not in {legal:?}"
            );
        }
        if let Some(action) = game.ai_action(seat) {
            assert!(
                admitted(&action) && accepted(&action),
                "{ctx}: AI's {action} refused"
            );
        }
        for action in legal.iter().filter(|entry| !choose::is_open(entry)) {
            assert!(accepted(action), "{ctx}: legal {action} refused");
            let mut extra = action.clone();
            if let Some(map) = extra.as_object_mut() {
                map.insert("$unknown".into(), json!(1));
                let refused = game.boxed_clone().apply(seat, &extra);
                assert!(
                    matches!(refused, Err(RuleError::BadAction(_))),
                    "{ctx}: {extra} was not refused as malformed: {refused:?}"
                );
            }
        }
    }
}

/// The envelope view the server builds once for all of `viewers`.
fn shared_view(game: &dyn Ruleset, viewers: &[Viewer]) -> ViewValue {
    let status = if game.outcome().is_some() {
        BattleStatus::Finished
    } else {
        BattleStatus::Playing
    };
    let seats: Vec<battle_protocol::SeatInfo> = (0..game.seat_count())
        .map(|seat| battle_protocol::SeatInfo {
            seat,
            taken: true,
            bot: false,
            connected: true,
            name: None,
        })
        .collect();
    envelope_view_all(
        "b1",
        status,
        &seats,
        game,
        viewers.iter().copied().collect(),
    )
}

/// The server diffs a change once for every viewer: each viewer's share must be exactly the
/// diff of that viewer's own views (so it holds nothing the viewer may not see).
fn check_shared_diff(
    ctx: &str,
    step: usize,
    before: &ViewValue,
    after: &ViewValue,
    viewers: &[Viewer],
) {
    let watching: Viewers = viewers.iter().copied().collect();
    let changes = Changes::between(before, after, watching);
    for &viewer in viewers {
        let mut shared = b"[".to_vec();
        changes.write_for(viewer, &mut shared);
        shared.push(b']');
        let mut own = Vec::new();
        diff_json(&before.project(viewer), &after.project(viewer), &mut own);
        assert!(
            shared == own,
            "{ctx} step {step}: {viewer:?}'s share of the shared diff is {} instead of {}",
            String::from_utf8_lossy(&shared),
            String::from_utf8_lossy(&own)
        );
    }
}

/// The ruleset's part of the view exactly as `viewer` receives it: [`Ruleset::view`] with
/// [`Ruleset::log`] placed under `log`, as the server does.
fn seen_by(game: &dyn Ruleset, viewer: Viewer) -> Value {
    let mut view = game.view(viewer).to_value();
    let log = game.log(viewer);
    if let Value::Object(map) = &mut view {
        assert!(
            log.is_empty() || !map.contains_key("log"),
            "a ruleset with a log() must leave `log` out of its view"
        );
        map.entry("log")
            .or_insert_with(|| log.iter().cloned().map(Value::String).collect());
    }
    view
}

/// The lines each viewer received since `before` are written for whoever reads them, and
/// the spectator's lines state every change of the counts its view reports.
fn check_words(
    ctx: &str,
    step: usize,
    id: &str,
    named: bool,
    before: &[Value],
    now: &[Value],
    counts: &mut Option<words::Counts>,
) {
    let lines = |view: Option<&Value>| -> Vec<String> {
        view.and_then(|v| v["log"].as_array())
            .map(|log| {
                log.iter()
                    .filter_map(|l| l.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let ctx = format!("{ctx} step {step}");
    let mut new_lines = Vec::new();
    for (i, view) in now.iter().enumerate() {
        let all = lines(Some(view));
        let seen = lines(before.get(i)).len();
        for line in &all[seen.min(all.len())..] {
            words::check_line(&ctx, line, named);
        }
        // The spectator's view is last.
        new_lines = all[seen.min(all.len())..].to_vec();
    }
    let spectator = now.last().expect("a spectator");
    let now_counts = words::counts(id, spectator);
    if let Some(before) = counts {
        words::check_counts(&ctx, before, &now_counts, &new_lines);
    }
    *counts = Some(now_counts);
}

/// The log (where a view has one) only grows: what was there stays as it was.
fn check_log_grows(ctx: &str, step: usize, before: Option<&Value>, now: Option<&Value>) {
    let (Some(Value::Array(before)), Some(Value::Array(now))) = (
        before.and_then(|v| v.get("log")),
        now.and_then(|v| v.get("log")),
    ) else {
        return;
    };
    assert!(
        now.len() >= before.len() && now[..before.len()] == before[..],
        "{ctx} step {step}: the log was rewritten"
    );
}

#[test]
fn random_playouts_of_every_ruleset() {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8) as u64;
    let all = rulesets();
    let only = std::env::var("PLAYOUT_ONLY").ok();
    for entry in &all {
        if only.as_deref().is_some_and(|id| id != entry.id) {
            continue;
        }
        assert!(!entry.samples.is_empty(), "{} has no sample", entry.id);
        let seeds = seeds(entry.id);
        for sample in entry.samples {
            let all = &all;
            std::thread::scope(|scope| {
                for t in 0..threads {
                    scope.spawn(move || {
                        for seed in (t..seeds).step_by(threads as usize) {
                            playout(entry, sample, seed, all);
                        }
                    });
                }
            });
        }
    }
}
