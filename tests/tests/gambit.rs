//! Gambit over real sockets: a duel between the server's bots watched by a spectator to its
//! end, tick by tick; and a player who pauses a running fight, edits a rule and resumes it.

use battle_e2e::battle_client::{Applied, ViewTracker};
use battle_e2e::battle_protocol::ServerMsg;
use battle_e2e::{start_server, watch_bots_play, Client, Create};
use serde_json::{json, Value};

#[tokio::test]
async fn a_duel_between_bots_is_watched_tick_by_tick_to_its_end() {
    let server = start_server().await;
    let duel = Create::of("gambit", json!({"mode": "pvp", "tick_ms": 0})).bots(vec![0, 1]);
    let watch = watch_bots_play(&server, duel, 25).await;
    let game = watch.game().expect("a finished duel has its view");
    assert_eq!(game["phase"], "over");
    assert!(game["tick"].as_u64().unwrap_or(0) > 0, "the fight ticked");
    let log = game["log"].as_array().expect("a log");
    assert!(
        log.iter()
            .any(|l| l.as_str().is_some_and(|l| l.starts_with("Tick 1: "))),
        "the spectator saw the first tick"
    );
    // The programs are public once the fight has started.
    assert!(game["teams"][1]["units"][0]["rules"].is_array());
    server.shutdown().await;
}

/// Apply messages until `done` holds for the view (bounded).
async fn until(client: &mut Client, tracker: &mut ViewTracker, done: impl Fn(&Value) -> bool) {
    for _ in 0..10_000 {
        if tracker.game().is_some_and(&done) {
            return;
        }
        let msg = client.expect_msg().await;
        if let ServerMsg::Error { .. } = msg {
            panic!("refused: {msg:?}");
        }
        match tracker.apply(&msg) {
            Ok(Applied::Patch { .. } | Applied::Snapshot { .. } | Applied::Ignored) => {}
            Err(e) => panic!("the view does not follow: {e}"),
        }
    }
    panic!(
        "the view never reached the awaited state: {:?}",
        tracker.view()
    );
}

#[tokio::test]
async fn a_player_pauses_edits_and_resumes_a_running_fight() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    // Slow enough ticks (20 ms) that the pause arrives mid-fight.
    let run = Create::of("gambit", json!({"mode": "pve", "tick_ms": 20})).pace_ms(20);
    let battle_id = player.create(run).await;
    let mut seated = player.join(&battle_id, Some(0)).await;
    let tracker = &mut seated.tracker;
    assert_eq!(tracker.game().expect("started")["phase"], "planning");
    assert_eq!(tracker.to_act(), vec![0]);
    player.act(&battle_id, json!({"kind": "start"})).await;
    until(&mut player, tracker, |g| g["tick"].as_u64() >= Some(2)).await;
    player.act(&battle_id, json!({"kind": "pause"})).await;
    until(&mut player, tracker, |g| g["phase"] == "paused").await;
    let paused_at = tracker.game().expect("a view")["tick"].clone();
    let rule = json!({"kind": "set_rule", "unit": "C", "slot": 1, "skill": "arc_bolt",
                      "conditions": ["always"], "target": "highest_hp"});
    assert!(
        tracker
            .legal_actions()
            .iter()
            .any(|entry| entry["kind"] == "set_rule"),
        "editing is legal while paused"
    );
    player.act(&battle_id, rule).await;
    until(&mut player, tracker, |g| {
        g["teams"][0]["units"][2]["rules"][0]["skill"] == "arc_bolt"
    })
    .await;
    assert_eq!(
        tracker.game().expect("a view")["tick"],
        paused_at,
        "a paused fight does not tick"
    );
    player.act(&battle_id, json!({"kind": "resume"})).await;
    until(&mut player, tracker, |g| {
        g["phase"] != "paused" && g["tick"].as_u64() > paused_at.as_u64()
    })
    .await;
    server.shutdown().await;
}
