//! Random playouts over every ruleset in the catalog, so each new game is checked for free.
//!
//! For each ruleset and each of 2,000 seeds a battle is played to the end by picking a random
//! legal action for a random seat among those the battle waits on. Every step checks that the
//! action is accepted, that seats not asked to act have no legal actions and are refused, that
//! the ruleset's own AI proposes only legal actions, that the log only grows, and that a second
//! battle built from the same seed and fed the same inputs shows identical views to every
//! viewer (replay determinism), and that the one diff the server makes of each change for
//! all viewers gives every viewer byte for byte the patch of its own views (every fourth
//! seed). Synergy battles are also checked for their invariants (HP,
//! energy, hand size, card conservation) and for leaks of hidden cards into any view.

use std::collections::HashSet;

use battle_protocol::BattleStatus;
use battle_rules::catalog::catalog;
use battle_rules::ruleset::{Ruleset, RulesetEntry, ViewValue, Viewer, Viewers};
use battle_rules::view::{diff_json, envelope_view_all, Changes};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// Seeds per ruleset and option set.
const SEEDS: u64 = 2_000;
/// The shared diff is checked on every this many seeds (it triples a debug build's time).
const SHARED_DIFF_EVERY: u64 = 4;
/// Steps after which any battle counts as not terminating.
const MAX_STEPS: usize = 20_000;
/// Synergy: 40 rounds of two turns, each at most 3 actions (the third play ends the turn).
const SYNERGY_MAX_STEPS: usize = 40 * 2 * 3;

/// The option sets to play for `entry`, chosen per seed.
fn options_for(entry: &RulesetEntry, seed: u64) -> Vec<Value> {
    if entry.id != "synergy" {
        return vec![Value::Null];
    }
    let pvp = if seed & 1 == 0 {
        json!({"mode": "pvp"})
    } else {
        // Small and large decks with duplicates: reshuffles every turn on one side.
        json!({
            "mode": "pvp",
            "deck": ["C008", "C008", "C004", "C007", "C001"],
            "opponent_deck": ["C001", "C002", "C003", "C004", "C005", "C006",
                              "C007", "C008", "C009", "C010", "C010", "C005"],
        })
    };
    let pve = if seed % 3 == 1 {
        json!({"deck": ["C005", "C010", "C005", "C010", "C001", "C002", "C003", "C004"]})
    } else {
        Value::Null
    };
    vec![pve, pvp]
}

/// Every viewer of a battle with `seats` seats: each seat, then a spectator.
fn viewers(seats: usize) -> Vec<Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
        .collect()
}

/// Plays one battle to its end; panics with the ruleset, options and seed on any failure.
fn playout(entry: &RulesetEntry, options: &Value, seed: u64) {
    let ctx = format!("{} {options} seed {seed}", entry.id);
    let mut game = (entry.build)(options, seed).unwrap_or_else(|e| panic!("{ctx}: build: {e}"));
    let mut twin = (entry.build)(options, seed).unwrap_or_else(|e| panic!("{ctx}: build: {e}"));
    let seats = game.seat_count();
    assert_eq!(seats, entry.seats, "{ctx}: seat count");
    let viewers = viewers(seats);
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xA5);
    let limit = if entry.id == "synergy" {
        SYNERGY_MAX_STEPS
    } else {
        MAX_STEPS
    };
    let mut previous: Vec<Value> = Vec::new();
    let mut previous_all: Option<ViewValue> = None;
    for step in 0.. {
        assert!(step <= limit, "{ctx}: no outcome after {limit} steps");
        if seed % SHARED_DIFF_EVERY == 0 {
            let all = shared_view(game.as_ref(), &viewers);
            if let Some(before) = &previous_all {
                check_shared_diff(&ctx, step, before, &all, &viewers);
            }
            previous_all = Some(all);
        }
        let views: Vec<Value> = viewers.iter().map(|&v| seen_by(game.as_ref(), v)).collect();
        for (viewer, view) in viewers.iter().zip(&views) {
            assert_eq!(
                view,
                &seen_by(twin.as_ref(), *viewer),
                "{ctx} step {step}: the replayed battle shows {viewer:?} something else"
            );
        }
        check_log_grows(&ctx, step, previous.last(), views.last());
        if entry.id == "synergy" {
            let checked = previous
                .last()
                .and_then(|v| v["log"].as_array())
                .map_or(0, Vec::len);
            synergy_invariants(&ctx, step, &views, checked, game.as_ref());
        }
        let to_act = game.to_act();
        if game.outcome().is_some() {
            for seat in 0..seats {
                assert!(
                    game.legal_actions(seat).is_empty(),
                    "{ctx}: over but seat {seat} may act"
                );
            }
            return;
        }
        if to_act.is_empty() {
            assert!(
                game.next_tick().is_some(),
                "{ctx} step {step}: nobody to act, no engine step, no outcome"
            );
            game.advance()
                .unwrap_or_else(|e| panic!("{ctx}: advance: {e}"));
            twin.advance()
                .unwrap_or_else(|e| panic!("{ctx}: twin advance: {e}"));
            continue;
        }
        let seat = to_act[rng.random_range(0..to_act.len())];
        let legal = game.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "{ctx} step {step}: seat {seat} must act but has no action"
        );
        assert_eq!(
            game.legal_view(seat).to_value(),
            Value::Array(legal.clone()),
            "{ctx} step {step}: the view's legal actions are not the legal actions"
        );
        let action = legal[rng.random_range(0..legal.len())].clone();
        if let Some(ai) = game.ai_action(seat) {
            assert!(
                legal.contains(&ai),
                "{ctx} step {step}: AI proposes {ai}, not legal"
            );
        }
        for other in (0..seats).filter(|s| !to_act.contains(s)) {
            assert!(
                game.legal_actions(other).is_empty(),
                "{ctx} step {step}: seat {other} is not asked to act but has legal actions"
            );
            assert!(
                game.apply(other, &action).is_err(),
                "{ctx} step {step}: seat {other} acted out of turn"
            );
            assert!(
                game.ai_action(other).is_none(),
                "{ctx}: AI move for idle seat {other}"
            );
        }
        game.apply(seat, &action)
            .unwrap_or_else(|e| panic!("{ctx} step {step}: legal action {action} refused: {e}"));
        twin.apply(seat, &action)
            .unwrap_or_else(|e| panic!("{ctx} step {step}: replay refused {action}: {e}"));
        previous = views;
    }
}

/// The envelope view the server builds once for all of `viewers`.
fn shared_view(game: &dyn Ruleset, viewers: &[Viewer]) -> ViewValue {
    let status = if game.outcome().is_some() {
        BattleStatus::Finished
    } else {
        BattleStatus::Playing
    };
    envelope_view_all("b1", status, game, viewers.iter().copied().collect())
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

/// Every value under an "id" key anywhere in `value`.
fn ids<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "id" {
                    out.push(v);
                }
                ids(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| ids(v, out)),
        _ => {}
    }
}

/// `view` equals `spectator` except for the `hand` list of side `seat`. Log lines before
/// `new_from` were compared at an earlier step (and the log only grows), so only the length and
/// the new lines are compared.
fn same_but_own_hand(view: &Value, spectator: &Value, seat: usize, new_from: usize) -> bool {
    let (Some(view), Some(spectator)) = (view.as_object(), spectator.as_object()) else {
        return false;
    };
    view.len() == spectator.len()
        && view.iter().all(|(key, value)| {
            if key == "log" {
                let (Some(mine), Some(theirs)) = (value.as_array(), spectator[key].as_array())
                else {
                    return false;
                };
                let from = new_from.min(mine.len());
                return mine.len() == theirs.len() && mine[from..] == theirs[from..];
            }
            if key != "sides" {
                return spectator.get(key) == Some(value);
            }
            let (Some(mine), Some(theirs)) = (value.as_array(), spectator[key].as_array()) else {
                return false;
            };
            mine.len() == theirs.len()
                && mine.iter().zip(theirs).enumerate().all(|(i, (a, b))| {
                    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
                        return false;
                    };
                    let extra = usize::from(i == seat);
                    a.len() == b.len() + extra
                        && a.iter()
                            .all(|(k, v)| (i == seat && k == "hand") || b.get(k) == Some(v))
                })
        })
}

/// No key naming a pile holds a list (only counts are shown).
fn no_pile_lists(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(key, v)| {
            if key == "log" {
                return true; // a list of sentences, checked separately
            }
            let pile = matches!(
                key.as_str(),
                "draw" | "draw_pile" | "deck" | "discard" | "discard_pile" | "pile"
            );
            !(pile && v.is_array()) && no_pile_lists(v)
        }),
        Value::Array(items) => items.iter().all(no_pile_lists),
        _ => true,
    }
}

const CARD_NAMES: [&str; 10] = [
    "Ember Strike",
    "Thorn Jab",
    "Cog Shot",
    "Null Pierce",
    "Bark Guard",
    "Clockwork Guard",
    "Spark Cycle",
    "Ashen Focus",
    "Void Echo",
    "Ember Strike+",
];

fn num(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} must be a number in {v}"))
}

/// Synergy invariants and leak checks on the views [seat 0, seat 1, spectator].
/// Log lines before `new_lines_from` were checked at an earlier step.
fn synergy_invariants(
    ctx: &str,
    step: usize,
    views: &[Value],
    new_lines_from: usize,
    game: &dyn Ruleset,
) {
    let ctx = format!("{ctx} step {step}");
    let spectator = &views[2];
    for (i, side) in spectator["sides"]
        .as_array()
        .expect("sides")
        .iter()
        .enumerate()
    {
        assert!(
            num(side, "hp") <= num(side, "max_hp"),
            "{ctx}: side {i} HP above max"
        );
        assert!(num(side, "energy") <= 3, "{ctx}: side {i} energy above 3");
        assert!(num(side, "hand_count") <= 8, "{ctx}: side {i} hand above 8");
        let held = num(side, "hand_count") + num(side, "draw_count") + num(side, "discard_count");
        assert_eq!(
            held,
            num(side, "deck_size"),
            "{ctx}: side {i} lost or gained cards"
        );
        assert!(side.get("hand").is_none(), "{ctx}: spectator sees hand {i}");
    }
    let mut spectator_ids = Vec::new();
    ids(spectator, &mut spectator_ids);
    assert!(
        spectator_ids.is_empty(),
        "{ctx}: spectator sees card ids {spectator_ids:?}"
    );
    let mut all_hand_ids = HashSet::new();
    for seat in 0..2 {
        let view = &views[seat];
        let own = view["sides"][seat]["hand"]
            .as_array()
            .expect("own hand is shown");
        assert_eq!(
            own.len() as u64,
            num(&view["sides"][seat], "hand_count"),
            "{ctx}"
        );
        assert!(
            view["sides"][1 - seat].get("hand").is_none(),
            "{ctx}: seat {seat} sees the other hand"
        );
        let own_ids: Vec<&Value> = own.iter().map(|c| &c["id"]).collect();
        let mut seen = Vec::new();
        ids(view, &mut seen);
        for id in seen {
            assert!(
                own_ids.contains(&id),
                "{ctx}: seat {seat}'s view shows foreign card id {id}"
            );
            assert!(
                all_hand_ids.insert(id.as_u64()),
                "{ctx}: card id {id} in two hands"
            );
        }
        assert!(
            same_but_own_hand(view, spectator, seat, new_lines_from),
            "{ctx}: seat {seat} sees more than its own hand beyond the spectator view"
        );
    }
    for view in views {
        assert!(no_pile_lists(view), "{ctx}: a view lists a pile's cards");
    }
    let log = spectator["log"].as_array().expect("log");
    for line in log[new_lines_from.min(log.len())..]
        .iter()
        .filter_map(Value::as_str)
    {
        if line.contains(" draws ") && !line.contains(" plays ") || line.contains(" shuffles ") {
            assert!(
                !CARD_NAMES.iter().any(|name| line.contains(name)),
                "{ctx}: log names a hidden card: {line}"
            );
        }
    }
    let active = spectator["active"].as_u64().map(|a| a as usize);
    assert_eq!(
        game.to_act(),
        active.into_iter().collect::<Vec<_>>(),
        "{ctx}: to_act"
    );
    if spectator["state"] == "gameOver" {
        assert!(
            spectator["result"].is_object() && game.outcome().is_some(),
            "{ctx}"
        );
    } else {
        assert!(
            spectator["result"].is_null() && game.outcome().is_none(),
            "{ctx}"
        );
    }
}

#[test]
fn random_playouts_of_every_ruleset() {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8) as u64;
    for entry in catalog() {
        std::thread::scope(|scope| {
            for t in 0..threads {
                scope.spawn(move || {
                    for seed in (t..SEEDS).step_by(threads as usize) {
                        for options in options_for(entry, seed) {
                            playout(entry, &options, seed);
                        }
                    }
                });
            }
        });
    }
}
