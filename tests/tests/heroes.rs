//! Heroes over real sockets (offered by this test's server; not in the catalog yet): a game
//! between the server's bots, watched by a spectator to its end.

use battle_e2e::battle_server::rules::heroes;
use battle_e2e::battle_server::Config;
use battle_e2e::{start_server_with, watch_bots_play, Create};
use serde_json::json;

#[tokio::test]
async fn a_game_between_bots_is_watched_to_its_end() {
    let mut config = Config::for_tests();
    config.rulesets.push(&heroes::ENTRY);
    let server = start_server_with(config).await;
    let game = Create::of("heroes", json!({})).bots(vec![0, 1]);
    let watch = watch_bots_play(&server, game, 25).await;
    let view = watch.game().expect("a finished game has its view");
    assert_eq!(view["phase"], "over");
    for side in view["sides"].as_array().expect("sides") {
        assert!(side.get("hand").is_none(), "a spectator sees no hand");
    }
    server.shutdown().await;
}
