//! Synergy plays exactly as it did before the typed ruleset platform: the views of 80 seeded
//! battles (every viewer, every step, logs and legal actions included) hash to the value the
//! hand-written views and parsers produced for the same seeds and moves.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use crate::catalog::find;
use crate::view::Viewer;

/// FNV-1a over the dump of seeds 0..40 in PvP (pool decks) and in PvE (seat 0 with an
/// 8-card deck). The code before the typed platform wrote 0x986d_44f3_7fa7_85b9; cards then
/// gained their `text` and the result its `breakdown`, and the dump with those two removed
/// was checked equal line for line to the one before (0xbd84_fbb5_074d_7272). Then the log
/// and the outcome were reworded (amounts with their before and after, seats named as
/// `Names` names them: the PvE player is "Player 1"), and the dump without the log, the
/// names and the summaries was checked equal to the one before.
const BEFORE: u64 = 0x23c8_1287_23f2_d69c;

fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[test]
fn same_seed_and_moves_give_the_same_views_as_before() {
    let deck = json!({"deck": ["C005", "C010", "C005", "C010", "C001", "C002", "C003", "C004"]});
    let mut hash = 0xcbf2_9ce4_8422_2325;
    let mut lines = 0;
    for (mode, options, setup) in [
        ("pvp", json!({"mode": "pvp"}), None),
        ("pve", json!(null), Some(&deck)),
    ] {
        for seed in 0..40u64 {
            let entry = find("synergy").expect("in the catalog");
            let mut game = (entry.build)(&options, seed).expect("valid options");
            game.setup(0, setup).expect("valid setup");
            game.setup(1, None).expect("valid setup");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for step in 0..400 {
                for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
                    let mut view = game.view(viewer).to_value();
                    view["log"] = json!(game.log(viewer));
                    let line = format!("{mode} {seed} {step} {viewer:?} {view}\n");
                    hash = fnv(hash, line.as_bytes());
                    lines += 1;
                }
                let Some(&seat) = game.to_act().first() else {
                    break;
                };
                let legal = game.legal_actions(seat);
                let line = format!("legal {}\n", serde_json::Value::from(legal.clone()));
                hash = fnv(hash, line.as_bytes());
                lines += 1;
                let action = &legal[rng.random_range(0..legal.len())];
                game.apply(seat, action)
                    .expect("legal actions are accepted");
            }
        }
    }
    assert_eq!(lines, 14_924);
    assert_eq!(hash, BEFORE, "synergy's views changed");
}
