//! Battles go away by themselves: finished ones after the finished TTL, abandoned ones after
//! the idle TTL; whoever is still attached is told `left {reason: "expired"}`.

use std::time::Duration;

use battle_e2e::{drive, start_server_with, Client, Create, Drive};
use battle_protocol::{BattleStatus, ErrorCode, ServerMsg};
use battle_server::Config;
use serde_json::Value;

/// Poll `list` until `battle_id` is gone, within a bounded number of tries.
async fn wait_until_unlisted(client: &mut Client, battle_id: &str) {
    for _ in 0..100 {
        if !client.list().await.iter().any(|b| b.battle_id == battle_id) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("battle {battle_id} was still listed after 2 s");
}

#[tokio::test]
async fn finished_battle_stays_listed_then_expires_and_tells_its_watchers() {
    let config = Config {
        finished_ttl: Duration::from_millis(400),
        ..Config::for_tests()
    };
    let server = start_server_with(config).await;
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host.create(Create::synergy(Value::Null).pace_ms(0)).await;
    let mut player = Client::connect(&server, "player").await;
    let mut seat = player.join(&battle_id, None).await;
    drive(&mut player, &mut seat.tracker, &Drive::player()).await;

    let listed = host.list().await;
    let entry = listed
        .iter()
        .find(|b| b.battle_id == battle_id)
        .expect("a finished battle stays listed for the finished TTL");
    assert_eq!(entry.status, BattleStatus::Finished);

    // The player is still attached when the battle expires: it is told so.
    match player.expect_msg().await {
        ServerMsg::Left {
            battle_id: id,
            reason,
            ..
        } => {
            assert_eq!(
                (id.as_str(), reason.as_str()),
                (battle_id.as_str(), "expired")
            );
        }
        other => panic!("expected left/expired, got {other:?}"),
    }
    wait_until_unlisted(&mut host, &battle_id).await;
    let mut late = Client::connect(&server, "late").await;
    let req = late.req();
    late.send(battle_protocol::ClientMsg::Spectate {
        battle_id: battle_id.clone(),
        req: Some(req),
    })
    .await;
    late.expect_error(ErrorCode::NoSuchBattle, Some(req)).await;
    server.shutdown().await;
}

#[tokio::test]
async fn abandoned_battle_expires_after_the_idle_ttl() {
    let config = Config {
        idle_ttl: Duration::from_millis(300),
        ..Config::for_tests()
    };
    let server = start_server_with(config).await;
    let mut host = Client::connect(&server, "host").await;
    // Created but never joined.
    let never_joined = host.create(Create::synergy(Value::Null)).await;
    // Joined, then the player walks away mid-battle.
    let joined = host.create(Create::synergy(Value::Null)).await;
    let mut player = Client::connect(&server, "player").await;
    player.join(&joined, None).await;
    player.close().await;
    wait_until_unlisted(&mut host, &never_joined).await;
    wait_until_unlisted(&mut host, &joined).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_watched_battle_does_not_go_idle() {
    let config = Config {
        idle_ttl: Duration::from_millis(200),
        ..Config::for_tests()
    };
    let server = start_server_with(config).await;
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host.create(Create::synergy(Value::Null)).await;
    let mut watcher = Client::connect(&server, "watcher").await;
    watcher.spectate(&battle_id).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(
        host.list().await.iter().any(|b| b.battle_id == battle_id),
        "a battle with a spectator attached must stay alive"
    );
    watcher.assert_pong().await;
    server.shutdown().await;
}
