//! Roguelite over real sockets: a person plays a whole run (the enemies' phases move by
//! themselves as engine steps) while a spectator watches, and a run played by the server's
//! bot is watched to its end. Nobody but the player's seat ever sees the hand.

use battle_e2e::battle_protocol::ServerMsg;
use battle_e2e::{check_finished, drive, settle, start_server, watch_bots_play};
use battle_e2e::{Client, Create, Drive, Seen};
use serde_json::json;

/// The check every spectator message passes: no hand in it, ever.
fn no_hand(seen: &Seen<'_>) {
    if let ServerMsg::Snapshot { .. } | ServerMsg::Patch { .. } = seen.msg {
        assert!(
            !seen.text.contains("\"hand\""),
            "{}: a spectator's frame carries the hand: {}",
            seen.who,
            seen.text
        );
    }
}

#[tokio::test]
async fn a_person_plays_a_run_to_its_end_while_a_spectator_watches() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let battle_id = player.create(Create::of("roguelite", json!({}))).await;
    let mut seated = player.join(&battle_id, Some(0)).await;
    let game = seated.tracker.game().expect("the run started").clone();
    assert!(
        game["player"]["hand"].is_array(),
        "the player sees its hand"
    );
    assert_eq!(
        (game["depth"].clone(), game["battle"].clone()),
        (json!(1), json!(1))
    );
    let mut spectator = Client::connect(&server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    assert!(
        watch.game().expect("a view")["player"]
            .get("hand")
            .is_none(),
        "the spectator's snapshot has no hand"
    );
    let checking = Drive {
        act: false,
        resync_every: Some(50),
        check: Some(&no_hand),
    };
    let playing = Drive {
        act: true,
        resync_every: Some(40),
        check: None,
    };
    let (report, watched) = tokio::join!(
        drive(&mut player, &mut seated.tracker, &playing),
        drive(&mut spectator, &mut watch, &checking),
    );
    check_finished(&seated.tracker, "player");
    check_finished(&watch, "spectator");
    assert!(
        report.acts > 0 && watched.changes > report.acts,
        "{report:?} {watched:?}"
    );
    settle(&mut spectator, &mut watch).await;
    assert_eq!(watch.game().expect("a view")["stage"], "over");
    server.shutdown().await;
}

#[tokio::test]
async fn a_run_of_the_bot_is_watched_to_its_end() {
    let server = start_server().await;
    let run = Create::of("roguelite", json!({})).bots(vec![0]);
    let watch = watch_bots_play(&server, run, 60).await;
    let game = watch.game().expect("a finished run has its view");
    assert_eq!(game["stage"], "over");
    assert!(
        game["player"].get("hand").is_none(),
        "a spectator sees no hand"
    );
    server.shutdown().await;
}
