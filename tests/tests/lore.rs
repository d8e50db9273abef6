//! Lore over real sockets: a person against the server's bot to the end with a spectator,
//! and a game between bots watched to its end. Hands and the inkwells' facedown cards never
//! reach a spectator; the person sees its own.

use battle_e2e::battle_protocol::ServerMsg;
use battle_e2e::{check_finished, drive, settle, start_server, watch_bots_play};
use battle_e2e::{Client, Create, Drive, Seen};
use serde_json::json;

/// The check every spectator message passes: no hand and no inkwell contents in it, ever.
fn nothing_hidden(seen: &Seen<'_>) {
    if let ServerMsg::Snapshot { .. } | ServerMsg::Patch { .. } = seen.msg {
        for hidden in ["\"hand\"", "\"inkwell\""] {
            assert!(
                !seen.text.contains(hidden),
                "{}: a spectator's frame carries {hidden}: {}",
                seen.who,
                seen.text
            );
        }
    }
}

#[tokio::test]
async fn a_person_plays_the_bot_to_the_end_while_a_spectator_watches() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let battle_id = player
        .create(Create::of("lore", json!({})).bots(vec![1]))
        .await;
    let mut seated = player
        .join_with(
            &battle_id,
            Some(0),
            Some(json!({"ready_deck": "tidewater"})),
        )
        .await;
    let game = seated.tracker.game().expect("the game started").clone();
    assert_eq!(
        game["sides"][0]["hand"].as_array().map(Vec::len),
        Some(7),
        "the player sees its opening hand of 7"
    );
    assert!(game["sides"][1].get("hand").is_none(), "not the bot's");
    assert!(
        game["sides"][1].get("inkwell").is_none(),
        "nor the bot's inkwell"
    );
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    let checking = Drive {
        act: false,
        resync_every: Some(40),
        check: Some(&nothing_hidden),
    };
    let playing = Drive {
        act: true,
        resync_every: Some(30),
        check: None,
    };
    let (report, _) = tokio::join!(
        drive(&mut player, &mut seated.tracker, &playing),
        drive(&mut spectator, &mut watch, &checking),
    );
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
    let game = Create::of("lore", json!({})).bots(vec![0, 1]);
    let watch = watch_bots_play(&server, game, 25).await;
    let view = watch.game().expect("a finished game has its view");
    assert_eq!(view["phase"], "over");
    for side in view["sides"].as_array().expect("sides") {
        assert!(side.get("hand").is_none(), "a spectator sees no hand");
        assert!(side.get("inkwell").is_none(), "nor an inkwell's cards");
    }
    server.shutdown().await;
}
