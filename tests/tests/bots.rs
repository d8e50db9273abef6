//! Bot-versus-bot battles, watched by a spectator.

use battle_e2e::{check_finished, drive, start_server, watch_bots_play, Client, Create, Drive};
use serde_json::Value;

#[tokio::test]
async fn bot_vs_bot_watched_by_a_spectator_to_the_end() {
    let server = start_server().await;
    let bots = Create::synergy(Value::Null).bots(vec![0, 1]).pace_ms(0);
    let watch = watch_bots_play(&server, bots, 5).await;
    let game = watch.game().expect("game");
    assert_eq!(game["state"], "gameOver", "{game}");
    assert!(
        game["log"].as_array().is_some_and(|log| log.len() > 2),
        "a played battle has a log: {game}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn paced_bot_vs_bot_spectator_sees_the_moves_as_patches() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    // A small pace so the spectator is surely attached before the battle ends.
    let battle_id = host
        .create(Create::synergy(Value::Null).bots(vec![0, 1]).pace_ms(2))
        .await;
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    assert!(
        !watch.is_over(),
        "with a 2 ms pace the battle cannot be over yet: {:?}",
        watch.view()
    );
    let report = drive(
        &mut spectator,
        &mut watch,
        &Drive {
            act: false,
            resync_every: Some(3),
            check: None,
        },
    )
    .await;
    check_finished(&watch, "spectator");
    assert!(
        report.changes >= 5,
        "the spectator followed the moves one patch at a time: {report:?}"
    );
    assert!(report.resyncs_checked >= 2, "{report:?}");
    server.shutdown().await;
}
