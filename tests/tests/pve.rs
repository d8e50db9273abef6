//! A person against the Training Automaton, played to the end by the client bot.

use battle_e2e::battle_protocol::{BattleStatus, ErrorCode};
use battle_e2e::{check_finished, drive, start_server, Client, Drive};
use serde_json::{json, Value};

#[tokio::test]
async fn pve_battle_played_by_the_client_bot_reaches_an_outcome() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let battle_id = player.create_synergy(Value::Null, vec![]).await;
    let mut seated = player.join(&battle_id, Some(0)).await;
    assert_eq!(seated.seat, 0);

    let view = seated.tracker.view().expect("snapshot").clone();
    assert_eq!(view["ruleset"], "synergy");
    assert_eq!(
        view["game"]["mode"], "pve",
        "PvE is the default mode: {view}"
    );
    assert_eq!(
        seated.tracker.status(),
        Some(BattleStatus::Playing),
        "seat 1 is the engine's, so one person is enough to start: {view}"
    );
    assert!(
        view["game"]["sides"][0]["hand"].is_array(),
        "the player sees its own hand: {view}"
    );

    let report = drive(
        &mut player,
        &mut seated.tracker,
        &Drive {
            act: true,
            resync_every: Some(10),
            check: None,
        },
    )
    .await;
    check_finished(&seated.tracker, "player");
    assert!(report.acts > 0, "the player acted: {report:?}");
    assert!(
        report.changes >= report.acts,
        "every accepted act produced a patch: {report:?}"
    );
    assert!(report.resyncs_checked > 0, "{report:?}");
    let game = seated.tracker.game().expect("game");
    assert_eq!(game["state"], "gameOver", "{game}");
    assert!(game["round"].as_u64().unwrap_or(0) >= 1, "{game}");

    // The battle is over: acting is refused, and the connection stays usable.
    let req = player.act(&battle_id, json!({"kind": "end_turn"})).await;
    player.expect_error(ErrorCode::BattleOver, Some(req)).await;
    player.assert_pong().await;
    server.shutdown().await;
}
