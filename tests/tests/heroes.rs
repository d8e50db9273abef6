//! Heroes over real sockets: a game between the server's bots watched by a spectator to its
//! end, and a person against the server's bot, with a spectator, to the end.

use battle_e2e::{
    check_finished, drive, settle, start_server, watch_bots_play, Client, Create, Drive,
};
use serde_json::json;

#[tokio::test]
async fn a_person_plays_the_bot_to_the_end_while_a_spectator_watches() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let battle_id = player
        .create(Create::of("heroes", json!({})).bots(vec![1]))
        .await;
    let mut seated = player
        .join_with(&battle_id, Some(0), Some(json!({"class": "mage"})))
        .await;
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    let view = seated.tracker.game().expect("the game started").clone();
    assert!(
        view["sides"][0]["hand"].is_array(),
        "the player sees its hand"
    );
    assert!(view["sides"][1].get("hand").is_none(), "not the bot's");
    let report = drive(
        &mut player,
        &mut seated.tracker,
        &Drive {
            act: true,
            resync_every: Some(20),
            check: None,
        },
    )
    .await;
    check_finished(&seated.tracker, "player");
    assert!(report.acts > 0, "{report:?}");
    settle(&mut spectator, &mut watch).await;
    check_finished(&watch, "spectator");
    assert_eq!(watch.game().expect("a view")["phase"], "over");
    server.shutdown().await;
}

#[tokio::test]
async fn a_game_between_bots_is_watched_to_its_end() {
    let server = start_server().await;
    let game = Create::of("heroes", json!({})).bots(vec![0, 1]);
    let watch = watch_bots_play(&server, game, 25).await;
    let view = watch.game().expect("a finished game has its view");
    assert_eq!(view["phase"], "over");
    for side in view["sides"].as_array().expect("sides") {
        assert!(side.get("hand").is_none(), "a spectator sees no hand");
    }
    server.shutdown().await;
}
