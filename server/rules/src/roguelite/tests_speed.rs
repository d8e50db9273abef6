//! Section 3 of the spec: base speeds, the variance with mean reversion from the battle's
//! generator, the speed statuses, and every row of the consecutive phase table at its
//! boundaries.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::speed::{phases_for, revert, roll, round, Side, PLAYER_SPEED};
use super::status::Kind;
use super::testkit::{against, fighter, run, through_enemy};

use Side::{Enemy as E, Player as P};

#[test]
fn s3_1_player_base_speed_is_50_and_enemies_have_their_own() {
    let g = run(1);
    assert_eq!(g.player.base_speed, PLAYER_SPEED);
    assert_eq!(PLAYER_SPEED, 50);
    let g = against("glass_mantis", 1);
    assert_eq!(g.enemy.base_speed, 68);
    let g = against("brass_juggernaut", 1);
    assert_eq!(g.enemy.base_speed, 24);
}

#[test]
fn s3_1_variance_rolls_from_a_fixed_seed() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut f = fighter(10, 0, 0);
    let mut offsets = Vec::new();
    let mut speeds = Vec::new();
    for _ in 0..12 {
        roll(&mut f, &mut rng);
        offsets.push(f.speed_offset);
        speeds.push(f.speed);
    }
    assert_eq!(offsets, [-4, -2, -2, -3, -2, 3, -5, 4, -5, 3, 2, -3]);
    assert_eq!(speeds, [48, 49, 49, 48, 49, 51, 47, 52, 47, 51, 51, 48]);
    // The same seed rolls the same speeds.
    let mut again = ChaCha8Rng::seed_from_u64(7);
    let mut g = fighter(10, 0, 0);
    roll(&mut g, &mut again);
    assert_eq!(g.speed, speeds[0]);
}

#[test]
fn s3_1_variance_stays_within_5_percent_and_reverts_to_the_mean() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut f = fighter(10, 0, 0);
    let mut after_high = Vec::new();
    for _ in 0..5_000 {
        let before = f.speed_offset;
        roll(&mut f, &mut rng);
        assert!((-5..=5).contains(&f.speed_offset));
        assert!((47..=52).contains(&f.speed), "50 +-5%: {}", f.speed);
        if before >= 4 {
            after_high.push(f.speed_offset);
            assert!(f.speed_offset <= 5 - before / 2);
        }
    }
    let mean = after_high.iter().sum::<i32>() as f64 / after_high.len() as f64;
    assert!(
        mean < 0.0,
        "after a high roll the next is lower on average: {mean}"
    );
    // The rule itself: pulled back by half the last offset.
    assert_eq!(revert(4, 5), 3);
    assert_eq!(revert(-4, -5), -3);
}

#[test]
fn s3_2_speed_statuses_per_stack() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut f = fighter(10, 0, 0);
    f.statuses.gain(Kind::Haste, 2, 3);
    roll(&mut f, &mut rng);
    assert_eq!(f.speed, 48 + 30, "Haste +15 per stack");
    let mut f = fighter(10, 0, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    f.statuses.gain(Kind::SuperFast, 1, 3);
    f.statuses.gain(Kind::Slow, 1, 3);
    roll(&mut f, &mut rng);
    assert_eq!(f.speed, 48 + 30 - 10, "Super Fast +30, Slow -10");
    let mut f = fighter(10, 0, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    f.statuses.gain(Kind::Stall, 3, 3);
    roll(&mut f, &mut rng);
    assert_eq!(f.speed, 48 - 45, "Stall -15 per stack");
    f.statuses.gain(Kind::Slow, 3, 3);
    roll(&mut f, &mut rng);
    assert_eq!(f.speed, 1, "never below 1");
}

#[test]
fn s3_3_difference_under_15_alternates() {
    assert_eq!(round(50, 50), [P, E], "a tie goes to the player");
    assert_eq!(round(64, 50), [P, E]);
    assert_eq!(round(50, 64), [E, P]);
    assert_eq!(phases_for(14), 1);
}

#[test]
fn s3_3_difference_15_to_24_gives_2_phases() {
    assert_eq!(round(65, 50), [P, P, E]);
    assert_eq!(round(50, 65), [E, E, P]);
    assert_eq!(round(74, 50), [P, P, E]);
    assert_eq!(round(50, 74), [E, E, P]);
    assert_eq!((phases_for(15), phases_for(24)), (2, 2));
}

#[test]
fn s3_3_difference_25_to_34_gives_3_phases() {
    assert_eq!(round(75, 50), [P, P, P, E]);
    assert_eq!(round(50, 75), [E, E, E, P]);
    assert_eq!(round(84, 50), [P, P, P, E]);
    assert_eq!((phases_for(25), phases_for(34)), (3, 3));
}

#[test]
fn s3_3_each_further_10_adds_a_phase() {
    assert_eq!((phases_for(35), phases_for(44)), (4, 4));
    assert_eq!((phases_for(45), phases_for(54)), (5, 5));
    assert_eq!((phases_for(55), phases_for(64)), (6, 6));
    assert_eq!(phases_for(205), 21);
    assert_eq!(round(50, 95), [E, E, E, E, E, P]);
}

#[test]
fn s3_3_the_queue_gives_the_faster_enemy_its_phases_in_a_row() {
    // The Glass Mantis (68) against a player Stalled twice (about 20): 3 or more in a row.
    let mut g = against("glass_mantis", 3);
    through_enemy(&mut g);
    g.player.statuses.gain(Kind::Stall, 2, 5);
    g.queue.truncate(1);
    g.end_player_phase();
    let enemy_run = g.queue.iter().take_while(|&&s| s == E).count();
    assert!(enemy_run >= 3, "{:?}", g.queue);
    assert_eq!(g.queue.last(), Some(&P));
    let mut phases = 0;
    while g.stage != super::state::Stage::PlayerPhase && g.finish.is_none() {
        if g.stage == super::state::Stage::EnemyStart {
            phases += 1;
        }
        g.enemy_step();
    }
    assert!(g.finish.is_some() || phases == enemy_run);
}

#[test]
fn the_log_gives_the_speeds_the_panel_shows() {
    use crate::view::Viewer;
    use rand::SeedableRng;
    let entry = crate::catalog::find("roguelite").expect("in the catalog");
    let mut game = (entry.build)(&serde_json::json!({}), 5).expect("options");
    game.setup_as(0, None, Some("Ana")).expect("setup");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut rounds = 0;
    for _ in 0..3000 {
        let view = game.view(Viewer::Spectator).to_value();
        let log = game.log(Viewer::Spectator);
        let round = view["round"].as_u64().unwrap_or(0);
        if let Some(line) = log
            .iter()
            .rev()
            .find(|l| l.starts_with(&format!("Round {round}: ")))
        {
            let (mine, theirs) = (&view["player"]["speed"], &view["enemy"]);
            let want = format!(
                "Round {round}: Ana's speed {mine}, {}'s {}:",
                theirs["name"].as_str().unwrap_or(""),
                theirs["speed"]
            );
            assert!(line.starts_with(&want), "{line} / {want}");
            rounds += 1;
        }
        if let Some(&seat) = game.to_act().first() {
            let action = game.random_action(seat, &mut rng).expect("an action");
            game.apply(seat, &action).expect("legal");
        } else if game.next_tick().is_some() {
            game.advance().expect("due");
        } else {
            break;
        }
    }
    assert!(rounds > 10, "{rounds}");
}
