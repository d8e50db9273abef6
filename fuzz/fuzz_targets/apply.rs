//! Every ruleset's `apply` on arbitrary actions: a battle of a sample, every seat set up,
//! then moves chosen by the input: legal ones (random, from a seeded generator), arbitrary
//! JSON, and legal actions with one field changed. It never panics, an action refused leaves
//! every view unchanged, and a legal action is never refused.

#![no_main]

use battle_server::rules::catalog::catalog;
use battle_server::rules::ruleset::{Ruleset, Viewer};
use libfuzzer_sys::fuzz_target;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Every viewer's view, to check that a refusal changed nothing.
fn views(game: &dyn Ruleset) -> Vec<battle_server::rules::view::ViewValue> {
    let mut all = vec![game.view(Viewer::Spectator)];
    all.extend((0..game.seat_count()).map(|seat| game.view(Viewer::Seat(seat))));
    all
}

/// `action` with one of its members (or itself) replaced by something made of `byte`.
fn mutate(action: &Value, byte: u8) -> Value {
    let odd = match byte % 6 {
        0 => Value::Null,
        1 => Value::from(i64::from(byte) - 128),
        2 => Value::from(u64::MAX),
        3 => Value::from("zz"),
        4 => Value::from(vec![Value::from(byte), Value::from(byte)]),
        _ => Value::from(-1.5),
    };
    let mut changed = action.clone();
    if let Value::Object(members) = &mut changed {
        let keys: Vec<String> = members.keys().cloned().collect();
        if let Some(key) = keys.get(usize::from(byte / 6) % keys.len().max(1)) {
            members.insert(key.clone(), odd);
            return changed;
        }
    }
    odd
}

fuzz_target!(|data: &[u8]| {
    let [which, sample, seed, rest @ ..] = data else {
        return;
    };
    let rulesets = catalog();
    let entry = &rulesets[usize::from(*which) % rulesets.len()];
    let sample = &entry.samples[usize::from(*sample) % entry.samples.len()];
    let options: Value = serde_json::from_str(sample.options).expect("samples are JSON");
    let Ok(mut game) = (entry.build)(&options, u64::from(*seed)) else {
        return;
    };
    for seat in 0..game.seat_count() {
        game.setup(seat, None).expect("the default setup is accepted");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(*seed));
    let mut bytes = rest.iter().copied();
    while let Some(kind) = bytes.next() {
        if game.outcome().is_some() {
            return;
        }
        if game.next_tick().is_some() && kind % 4 == 0 {
            game.advance().expect("an engine step due is taken");
            continue;
        }
        let Some(&seat) = game.to_act().first() else {
            if game.next_tick().is_some() {
                game.advance().expect("an engine step due is taken");
            }
            continue;
        };
        let seat = if kind % 7 == 6 { (seat + 1) % game.seat_count() } else { seat };
        let legal = game.random_action(seat, &mut rng);
        let action = match (kind % 3, &legal) {
            (0, Some(legal)) => {
                let action = legal.clone();
                game.apply(seat, &action)
                    .unwrap_or_else(|err| panic!("{}: legal {action} refused: {err}", entry.id));
                continue;
            }
            (1, Some(legal)) => mutate(legal, bytes.next().unwrap_or(0)),
            _ => {
                let len = usize::from(bytes.next().unwrap_or(0) % 64);
                let text: Vec<u8> = bytes.by_ref().take(len).collect();
                match serde_json::from_slice::<Value>(&text) {
                    Ok(value) => value,
                    Err(_) => continue,
                }
            }
        };
        let before = views(&*game);
        if game.apply(seat, &action).is_err() {
            assert_eq!(views(&*game), before, "{}: a refused {action} changed the battle", entry.id);
        }
    }
});
