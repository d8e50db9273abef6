//! The lobby lists only battles someone may still play: a battle whose creator's own seat is
//! refused for its setup (created on one connection, joined from another, as the terminal
//! client's `play` does) is removed at once, while one with someone else in it stays; and
//! `/health` counts live and finished battles apart.

use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::http::get;
use battle_e2e::{start_server, Client, Create};
use serde_json::json;

/// `join` `battle` seat `seat` with a setup synergy refuses; the refusal's sentence.
async fn join_refused(client: &mut Client, battle: &str, seat: usize) -> String {
    let req = client.req();
    client
        .send(ClientMsg::Join {
            battle_id: battle.to_string(),
            seat: Some(seat),
            setup: Some(json!({"deck": ["NOPE"]})),
            req: Some(req),
        })
        .await;
    client.expect_error(ErrorCode::BadSetup, Some(req)).await
}

#[tokio::test]
async fn a_battle_whose_creators_setup_is_refused_is_removed_at_once() {
    let server = start_server().await;
    let mut creating = Client::connect(&server, "creating connection").await;
    let battle = creating
        .create(Create::synergy(json!({"mode": "pvp"})))
        .await;
    creating.close().await;
    let mut seat = Client::connect(&server, "seat connection").await;
    let said = join_refused(&mut seat, &battle, 0).await;
    assert!(said.contains("setup for seat 0 refused"), "{said}");
    assert!(said.contains("removed"), "the player is told: {said}");

    let mut visitor = Client::connect(&server, "visitor").await;
    assert!(
        visitor.list().await.is_empty(),
        "never left public as waiting"
    );
    let health = get(server.addr, "/health").await.json();
    assert_eq!(
        (health["battles"].as_u64(), health["finished"].as_u64()),
        (Some(0), Some(0)),
        "{health}"
    );
    let req = visitor.req();
    visitor
        .send(ClientMsg::Spectate {
            battle_id: battle.clone(),
            req: Some(req),
        })
        .await;
    visitor
        .expect_error(ErrorCode::NoSuchBattle, Some(req))
        .await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_refused_setup_leaves_a_battle_someone_else_is_in() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    let battle = host.create(Create::synergy(json!({"mode": "pvp"}))).await;
    host.join(&battle, Some(0)).await;
    // From the same address, but the host holds a seat: the battle is someone's.
    let mut guest = Client::connect(&server, "guest").await;
    let said = join_refused(&mut guest, &battle, 1).await;
    assert!(!said.contains("removed"), "{said}");
    let listed: Vec<String> = guest
        .list()
        .await
        .into_iter()
        .map(|b| b.battle_id)
        .collect();
    assert_eq!(listed, vec![battle.clone()]);
    // The guest may try again with a setup that fits.
    guest.join(&battle, Some(1)).await;

    // A watched battle nobody sits in stays too.
    let mut owner = Client::connect(&server, "owner").await;
    let watched = owner.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let mut watcher = Client::connect(&server, "watcher").await;
    watcher.spectate(&watched).await;
    let said = join_refused(&mut owner, &watched, 0).await;
    assert!(!said.contains("removed"), "{said}");
    assert_eq!(server.lobby().len(), 2);
    server.shutdown().await;
}

#[tokio::test]
async fn health_counts_live_and_finished_battles_apart() {
    let server = start_server().await;
    let mut player = Client::connect(&server, "player").await;
    let live = player.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let ended = player
        .create(Create::synergy(json!({"mode": "pve"})).bots(vec![1]))
        .await;
    let mut seated = player.join(&ended, Some(0)).await;
    let req = player.req();
    player
        .send(ClientMsg::Resign {
            battle_id: ended.clone(),
            req: Some(req),
        })
        .await;
    loop {
        let msg = player.expect_msg().await;
        seated.tracker.apply(&msg).expect("applies");
        if let ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. } = &msg {
            if *got == Some(req) {
                break;
            }
        }
    }
    assert!(seated.tracker.is_over());
    let health = get(server.addr, "/health").await.json();
    assert_eq!(health["battles"], 1, "only {live} is live: {health}");
    assert_eq!(health["finished"], 1, "{ended} ended: {health}");
    assert_eq!(health["store"], "memory", "{health}");
    assert_eq!(health["quarantined"], 0, "{health}");
    server.shutdown().await;
}
