//! Replays: a finished battle, asked for with `replay`, is every view its spectators saw,
//! step by step, for every ruleset; it outlives the battle and a restart of a server with a
//! data directory; `list` with `finished` shows recent public battles; a live battle, an
//! unknown one, or one past the retention is refused with its code; nothing in a replay is
//! more than spectators saw (no seed).

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use battle_e2e::battle_protocol::{BattleStatus, ClientMsg, ErrorCode, Replay, ServerMsg};
use battle_e2e::battle_server::store::Retention;
use battle_e2e::battle_server::Config;
use battle_e2e::*;
use serde_json::Value;

/// A spectator's view as a replay holds it: without `seats` and `clocks`.
fn comparable(view: &Value) -> Value {
    let mut view = view.clone();
    if let Some(members) = view.as_object_mut() {
        members.remove("seats");
        members.remove("clocks");
    }
    view
}

/// `views` without consecutive repeats (a change only to who is connected, or one that
/// spectators cannot see, repeats a view).
fn distinct(views: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(views.len());
    for view in views {
        if out.last() != Some(&view) {
            out.push(view);
        }
    }
    out
}

/// Ask for `battle_id`'s replay.
async fn replay(client: &mut Client, battle_id: &str) -> Result<Replay, (ErrorCode, String)> {
    let req = client.req();
    client
        .send(ClientMsg::Replay {
            battle_id: battle_id.to_string(),
            req: Some(req),
        })
        .await;
    match client.expect_msg().await {
        ServerMsg::Replay { replay, req: got } => {
            assert_eq!(got, Some(req), "the replay echoes req");
            Ok(*replay)
        }
        ServerMsg::Error {
            code,
            message,
            req: got,
            ..
        } => {
            assert_eq!(got, Some(req), "the error echoes req");
            Err((code, message))
        }
        other => panic!("expected a replay, got {other:?}"),
    }
}

/// `list` with `finished`: the finished battles' ids, newest first.
async fn finished_ids(client: &mut Client) -> Vec<String> {
    let req = client.req();
    client
        .send(ClientMsg::List {
            finished: true,
            limit: None,
            cursor: None,
            req: Some(req),
        })
        .await;
    match client.expect_msg().await {
        ServerMsg::Battles {
            finished: Some(finished),
            req: got,
            ..
        } => {
            assert_eq!(got, Some(req));
            finished.into_iter().map(|f| f.battle_id).collect()
        }
        other => panic!("expected battles with finished ones, got {other:?}"),
    }
}

/// Play `ruleset`'s first sample to its end, watched by a spectator from before the start:
/// a person takes seat 0 and goes at once (with no grace, the server's bot plays for it),
/// bots play the other seats. Returns the battle's id and the distinct views the spectator
/// saw once it started.
async fn play_watched(
    server: &battle_server::RunningServer,
    ruleset: &str,
) -> (String, Vec<Value>) {
    let mut player = Client::connect(server, "player").await;
    let rulesets = player.hello().await;
    let info = rulesets.iter().find(|r| r.id == ruleset).expect("offered");
    let sample = &info.samples[0];
    let bots: Vec<usize> = (1..sample.seats).collect();
    let battle_id = player
        .create(
            Create::of(ruleset, sample.options.clone())
                .bots(bots)
                .grace_ms(0),
        )
        .await;
    let mut spectator = Client::connect(server, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    player.join(&battle_id, Some(0)).await;
    player.close().await;
    let seen = RefCell::new(Vec::new());
    let collect = |s: &Seen<'_>| {
        let view = s.tracker.view().expect("a view");
        if view["status"] != "waiting" {
            seen.borrow_mut().push(comparable(view));
        }
    };
    let watching = Drive {
        act: false,
        resync_every: None,
        check: Some(&collect),
    };
    drive(&mut spectator, &mut watch, &watching).await;
    check_finished(&watch, "spectator");
    (battle_id, distinct(seen.into_inner()))
}

/// The replay's views, checked for what must never be in one.
fn views_of(replay: &Replay, seed: Option<u64>) -> Vec<Value> {
    let text = serde_json::to_string(replay).expect("a replay serializes");
    assert!(!text.contains("\"seed\""), "a replay carries no seed");
    if let Some(seed) = seed {
        assert!(
            !text.contains(&seed.to_string()),
            "the seed is nowhere in it"
        );
    }
    let views = replay.views().expect("every step applies");
    for view in &views {
        assert_eq!(view["seat"], Value::Null, "spectators' views only");
        assert_eq!(view["legal"], serde_json::json!([]));
    }
    distinct(views)
}

#[tokio::test]
async fn a_replay_is_what_a_spectator_saw_in_every_ruleset() {
    let server = start_server().await;
    let mut asker = Client::connect(&server, "asker").await;
    let rulesets: Vec<String> = asker.hello().await.into_iter().map(|r| r.id).collect();
    for ruleset in rulesets {
        let (battle_id, seen) = play_watched(&server, &ruleset).await;
        let replay = replay(&mut asker, &battle_id)
            .await
            .unwrap_or_else(|e| panic!("{ruleset}: replay refused: {e:?}"));
        assert_eq!(
            (replay.ruleset.as_str(), replay.battle_id.as_str()),
            (ruleset.as_str(), battle_id.as_str())
        );
        let views = views_of(&replay, None);
        assert!(
            seen.len() > 1,
            "{ruleset}: the battle took more than one step"
        );
        if views != seen {
            let at = views.iter().zip(&seen).position(|(a, b)| a != b);
            panic!(
                "{ruleset}: the replay ({} views) differs from what the spectator saw ({} \
                 views), first at {at:?}: {}",
                views.len(),
                seen.len(),
                at.map(
                    |i| serde_json::to_string(&battle_protocol::json_patch::diff(
                        &seen[i], &views[i]
                    ))
                    .unwrap_or_default()
                )
                .unwrap_or_default()
            );
        }
        assert_eq!(
            replay.outcome.winners,
            views.last().expect("views")["outcome"]["winners"]
                .as_array()
                .expect("winners")
                .iter()
                .map(|w| w.as_u64().expect("a seat") as usize)
                .collect::<Vec<_>>()
        );
        assert_eq!(
            finished_ids(&mut asker).await.first(),
            Some(&battle_id),
            "{ruleset}: the newest finished battle is listed first"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn live_unknown_and_private_battles() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    let live = host
        .create_synergy(serde_json::json!({"mode": "pvp"}), vec![])
        .await;
    let (code, message) = replay(&mut host, &live).await.expect_err("still live");
    assert_eq!(code, ErrorCode::NotFinished, "{message}");
    let (code, _) = replay(&mut host, "nosuchbattle")
        .await
        .expect_err("unknown");
    assert_eq!(code, ErrorCode::NoSuchBattle);

    // A private battle, played by bots: not listed among the finished, replayed by id.
    let private = host
        .create(
            Create::synergy(serde_json::json!({"mode": "pvp"}))
                .bots(vec![0, 1])
                .seed(987_654_321)
                .private(),
        )
        .await;
    let replay_of_private = loop {
        match replay(&mut host, &private).await {
            Ok(replay) => break replay,
            Err((ErrorCode::NotFinished, _)) => tokio::time::sleep(Duration::from_millis(20)).await,
            Err(other) => panic!("unexpected refusal {other:?}"),
        }
    };
    assert!(replay_of_private.seeded, "a seeded battle says so");
    views_of(&replay_of_private, Some(987_654_321));
    assert!(!finished_ids(&mut host).await.contains(&private));
    server.shutdown().await;
}

/// A fresh data directory for one test.
fn data_dir(name: &str) -> PathBuf {
    fresh_data_dir(&format!("replay-{name}"))
}

#[tokio::test]
async fn replays_outlive_a_restart_and_respect_the_retention() {
    let dir = data_dir("restart");
    let config = durable(&dir);
    let server = start_server_with(config.clone()).await;
    let (battle_id, seen) = play_watched(&server, "synergy").await;
    let mut asker = Client::connect(&server, "asker").await;
    let before = replay(&mut asker, &battle_id).await.expect("kept");
    assert_eq!(views_of(&before, None), seen);
    drop(asker);
    server.drain().await;

    let again = start_server_with(config.clone()).await;
    let mut asker = Client::connect(&again, "asker").await;
    let after = replay(&mut asker, &battle_id)
        .await
        .expect("kept across a restart");
    assert_eq!(after, before, "the same replay after a restart");
    assert_eq!(finished_ids(&mut asker).await, vec![battle_id.clone()]);
    drop(asker);
    again.drain().await;

    // A server that keeps no replays drops what it finds past its retention.
    let keep_none = Config {
        retention: Retention {
            keep_for: Duration::ZERO,
            most: 0,
        },
        ..config
    };
    let third = start_server_with(keep_none).await;
    let mut asker = Client::connect(&third, "asker").await;
    let (code, _) = replay(&mut asker, &battle_id)
        .await
        .expect_err("past the retention");
    assert_eq!(code, ErrorCode::NoSuchBattle);
    assert!(finished_ids(&mut asker).await.is_empty());
    drop(asker);
    third.drain().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_delayed_battle_is_replayed_once_its_spectators_saw_the_end() {
    let server = start_server().await;
    let mut host = Client::connect(&server, "host").await;
    let battle_id = host
        .create(
            Create::synergy(serde_json::json!({"mode": "pvp"}))
                .bots(vec![0, 1])
                .spectator_delay_ms(3_000),
        )
        .await;
    // `list` is not delayed: it shows the end as it happens.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while host
        .list()
        .await
        .iter()
        .any(|b| b.battle_id == battle_id && b.status != BattleStatus::Finished)
    {
        assert!(tokio::time::Instant::now() < deadline, "the bots finish");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (code, message) = replay(&mut host, &battle_id)
        .await
        .expect_err("its spectators have not seen the end yet");
    assert_eq!(code, ErrorCode::NotFinished, "{message}");
    assert!(!finished_ids(&mut host).await.contains(&battle_id));
    let replay = loop {
        match replay(&mut host, &battle_id).await {
            Ok(replay) => break replay,
            Err((ErrorCode::NotFinished, _)) => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "shown one delay later"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(other) => panic!("unexpected refusal {other:?}"),
        }
    };
    assert_eq!(
        views_of(&replay, None).last().expect("views")["status"],
        "finished"
    );
    assert!(finished_ids(&mut host).await.contains(&battle_id));
    server.shutdown().await;
}
