//! Cluster mode over real sockets, with a real `redis-server` and nodes as processes:
//! playing and watching across nodes, the cluster-wide lobby, a node killed with SIGKILL
//! (every battle comes back and is played to its end, nothing seen is lost), a node paused
//! past its lease (it lets its battles go, and every node serves the same game), a killed
//! node that starts again, Redis restarted mid-play, dropped changes ending in a resync,
//! draining, and bad settings at start.
//!
//! Needs `redis-server` (Debian's package: `apt-get install redis-server`); `.ci/run`
//! installs it.

use std::time::Duration;

use battle_e2e::battle_protocol::{BattleStatus, ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::cluster::{Node, Redis};
use battle_e2e::follower::{play_out, Follower};
use battle_e2e::{fill_first, Client, Create};
use serde_json::{json, Value};

/// A PvP synergy battle created on `host`'s node, with `p0` and `p1` seated (each from its
/// own node) and the followers for both.
async fn pvp(host: &Node, p0_on: &Node, p1_on: &Node) -> (String, Follower, Follower) {
    let mut creator = Client::connect_url(&host.url, "creator").await;
    let battle = creator
        .create(Create::synergy(json!({"mode": "pvp"})))
        .await;
    let mut p0 = Client::connect_url(&p0_on.url, "p0").await;
    let seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect_url(&p1_on.url, "p1").await;
    let seat1 = p1.join(&battle, Some(1)).await;
    (
        battle,
        Follower::new(p0, seat0.tracker, true),
        Follower::new(p1, seat1.tracker, true),
    )
}

/// A spectator of `battle` connected to `node`, following it.
async fn watcher(node: &Node, name: &str, battle: &str) -> Follower {
    let mut spectator = Client::connect_url(&node.url, name).await;
    let watch = spectator.spectate(battle).await;
    Follower::new(spectator, watch, false)
}

#[tokio::test]
async fn players_and_spectators_on_different_nodes_play_one_battle() {
    let redis = Redis::start("cross");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let (battle, mut p0, mut p1) = pvp(&n1, &n1, &n2).await;
    let mut watcher = watcher(&n2, "spectator", &battle).await;
    play_out(&mut [&mut p0, &mut p1], &mut [&mut watcher]).await;
    assert_eq!(
        p0.tracker.outcome(),
        watcher.tracker.outcome(),
        "one game for everyone"
    );
    assert_eq!(p1.tracker.outcome(), watcher.tracker.outcome());
    assert_eq!(
        p0.tracker.game().and_then(|g| g.get("log")),
        watcher.tracker.game().and_then(|g| g.get("log")),
        "the same log on both nodes"
    );
    assert_eq!(watcher.tracker.status(), Some(BattleStatus::Finished));
}

/// Follow every follower until each has seen `lines` log lines (bounded).
async fn until_log(followers: &mut [&mut Follower], lines: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while followers
        .iter()
        .any(|f| f.seen_log < lines && !f.tracker.is_over())
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no progress: {:?}",
            followers
                .iter()
                .map(|f| (f.client.name.clone(), f.seen_log, f.tracker.seq()))
                .collect::<Vec<_>>()
        );
        for follower in followers.iter_mut() {
            follower.maybe_act().await;
            follower.step(Duration::from_millis(20)).await;
        }
    }
}

#[tokio::test]
async fn a_killed_owner_s_battles_come_back_on_the_others_and_are_played_to_the_end() {
    let redis = Redis::start("kill");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let n3 = Node::start(&redis, "n3", &[]);
    let mut tables = Vec::new();
    for _ in 0..3 {
        let (battle, p0, p1) = pvp(&n1, &n2, &n3).await;
        tables.push((p0, p1, watcher(&n3, "spectator", &battle).await));
    }
    for (p0, p1, watcher) in &mut tables {
        until_log(&mut [p0, p1, watcher], 6).await;
    }
    n1.kill();
    for (p0, p1, watcher) in &mut tables {
        play_out(&mut [p0, p1], &mut [watcher]).await;
        assert_eq!(p0.tracker.outcome(), watcher.tracker.outcome());
        assert_eq!(p1.tracker.outcome(), watcher.tracker.outcome());
        assert_eq!(
            p0.tracker.game().and_then(|g| g.get("log")),
            watcher.tracker.game().and_then(|g| g.get("log")),
        );
    }
    // Every battle now runs on a live node.
    let listed = battle_e2e::http::get(n2.addr, "/api/battles").await.json();
    for battle in listed["battles"].as_array().expect("battles") {
        let node = battle["node"]
            .as_str()
            .expect("every record names its node");
        assert!(node == "n2" || node == "n3", "{battle}");
    }
}

#[tokio::test]
async fn a_node_paused_past_its_lease_lets_its_battles_go_and_every_node_serves_one_game() {
    let redis = Redis::start("pause");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let (battle, mut p0, mut p1) = pvp(&n1, &n1, &n2).await;
    let mut watchers = Vec::new();
    for (node, name) in [(&n1, "spectator on n1"), (&n2, "spectator on n2")] {
        watchers.push(watcher(node, name, &battle).await);
    }
    {
        let [w1, w2] = &mut watchers[..] else {
            unreachable!("two watchers")
        };
        until_log(&mut [&mut p0, &mut p1, w1, w2], 6).await;
    }
    n1.signal("STOP");
    // Well past the lease: n2 takes the battle over meanwhile.
    tokio::time::sleep(Duration::from_millis(
        3 * battle_e2e::cluster::TEST_LEASE_MS,
    ))
    .await;
    let owner: Value = battle_e2e::http::get(n2.addr, "/api/battles").await.json();
    let record = owner["battles"]
        .as_array()
        .and_then(|b| b.iter().find(|r| r["battle_id"] == battle.as_str()))
        .cloned()
        .expect("the battle is listed");
    assert_eq!(
        record["node"], "n2",
        "taken over while n1 was paused: {record}"
    );
    n1.signal("CONT");
    let [w1, w2] = &mut watchers[..] else {
        unreachable!("two watchers")
    };
    play_out(&mut [&mut p0, &mut p1], &mut [w1, w2]).await;
    for follower in [&p1, &*w1, &*w2] {
        assert_eq!(p0.tracker.outcome(), follower.tracker.outcome());
        assert_eq!(
            p0.tracker.game().and_then(|g| g.get("log")),
            follower.tracker.game().and_then(|g| g.get("log")),
            "{}: one game on every node",
            follower.client.name
        );
    }
    // n1 owns nothing any more.
    let nodes = battle_e2e::http::get(n1.addr, "/metrics").await.text();
    let samples = battle_e2e::http::Samples::parse(&nodes);
    assert_eq!(samples.value("battle_cluster_owned_battles", &[]), 0.0);
}

#[tokio::test]
async fn a_request_left_with_a_node_that_dies_is_answered_node_lost_and_can_be_made_again() {
    let redis = Redis::start("lost");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut creator = Client::connect_url(&n1.url, "creator").await;
    let battle = creator
        .create(Create::synergy(json!({"mode": "pvp"})))
        .await;
    // n1 owns the battle; stopped, it cannot answer what n2 sends on to it.
    n1.signal("STOP");
    let mut spectator = Client::connect_url(&n2.url, "spectator").await;
    spectator
        .send(ClientMsg::Spectate {
            battle_id: battle.clone(),
            req: Some(5),
        })
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    n1.kill();
    let message = spectator.expect_error(ErrorCode::NodeLost, Some(5)).await;
    assert!(message.contains("ask"), "says what to do: {message}");
    // Asked again, the request goes to the battle's new owner.
    let watch = spectator.spectate(&battle).await;
    assert_eq!(watch.battle_id(), battle);
}

#[tokio::test]
async fn changes_dropped_on_their_way_to_a_node_end_in_a_resync_never_a_wrong_view() {
    let redis = Redis::start("drop");
    let n1 = Node::start(&redis, "n1", &[]);
    // n2 drops every third change it receives from the other nodes.
    let n2 = Node::start(&redis, "n2", &["--drop-changes", "3"]);
    let mut host = Client::connect_url(&n1.url, "host").await;
    let battle = host
        .create(
            Create::synergy(json!({"mode": "pvp"}))
                .bots(vec![0, 1])
                .pace_ms(20),
        )
        .await;
    let mut watchers = Vec::new();
    for (node, name) in [(&n1, "on n1"), (&n2, "on n2 (dropping)")] {
        watchers.push(watcher(node, name, &battle).await);
    }
    let [local, dropping] = &mut watchers[..] else {
        unreachable!("two watchers")
    };
    play_out(&mut [], &mut [local, dropping]).await;
    assert!(
        dropping.resyncs > 0,
        "changes were dropped, so the spectator on n2 resynced"
    );
    assert_eq!(local.resyncs, 0, "nothing was dropped on n1");
    assert_eq!(
        local.tracker.view().map(|v| &v["game"]),
        dropping.tracker.view().map(|v| &v["game"]),
        "after its resyncs the spectator on n2 holds the same view"
    );
}

#[tokio::test]
async fn every_node_lists_every_battle_and_replays_any_finished_one() {
    let redis = Redis::start("lobby");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut made = Vec::new();
    for (node, count) in [(&n1, 3), (&n2, 2)] {
        let mut host = Client::connect_url(&node.url, "host").await;
        for _ in 0..count {
            made.push(host.create(Create::synergy(json!({"mode": "pvp"}))).await);
        }
    }
    for node in [&n1, &n2] {
        let mut client = Client::connect_url(&node.url, "lister").await;
        // Pages of two, followed to the end, give all five in creation order.
        let mut cursor = None;
        let mut listed = Vec::new();
        for _ in 0..10 {
            let page = client.list_page(cursor.take(), Some(2)).await;
            assert_eq!(page.total, 5);
            listed.extend(page.battles);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let ids: Vec<&str> = listed.iter().map(|b| b.battle_id.as_str()).collect();
        assert_eq!(ids, made.iter().map(String::as_str).collect::<Vec<_>>());
        for summary in &listed {
            assert!(
                matches!(summary.node.as_deref(), Some("n1" | "n2")),
                "{summary:?}"
            );
        }
    }
    // A battle finished on n1 is replayed from n2.
    let mut host = Client::connect_url(&n1.url, "host").await;
    let battle = host
        .create(Create::synergy(json!({"mode": "pvp"})).bots(vec![0, 1]))
        .await;
    let mut watcher = watcher(&n1, "spectator", &battle).await;
    play_out(&mut [], &mut [&mut watcher]).await;
    let mut other = Client::connect_url(&n2.url, "replayer").await;
    let req = other.req();
    other
        .send(ClientMsg::Replay {
            battle_id: battle.clone(),
            req: Some(req),
        })
        .await;
    match other.expect_msg().await {
        ServerMsg::Replay { replay, .. } => {
            assert_eq!(replay.battle_id, battle);
            assert!(!replay.steps.is_empty());
        }
        other => panic!("expected the replay, got {other:?}"),
    }
    let finished = battle_e2e::http::get(n2.addr, "/api/battles?finished=true")
        .await
        .json();
    assert!(
        finished["finished"]
            .as_array()
            .is_some_and(|f| f.iter().any(|r| r["battle_id"] == battle.as_str())),
        "{finished}"
    );
    let nodes = battle_e2e::http::get(n2.addr, "/api/nodes").await.json();
    let ids: Vec<&str> = nodes["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    assert_eq!(ids, ["n1", "n2"]);
}

/// The record of `battle` in `node`'s `/api/battles`.
async fn record(node: &Node, battle: &str) -> Value {
    let listed = battle_e2e::http::get(node.addr, "/api/battles")
        .await
        .json();
    listed["battles"]
        .as_array()
        .and_then(|b| b.iter().find(|r| r["battle_id"] == battle))
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn a_killed_node_started_again_joins_the_cluster_and_serves() {
    let redis = Redis::start("restart");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let (battle, mut p0, mut p1) = pvp(&n1, &n2, &n2).await;
    until_log(&mut [&mut p0, &mut p1], 4).await;
    n1.kill();
    // Taken over by n2 within the lease.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while record(&n2, &battle).await["node"] != "n2" {
        assert!(tokio::time::Instant::now() < deadline, "not taken over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    n1.restart();
    let nodes = battle_e2e::http::get(n1.addr, "/api/nodes").await.json();
    let ids: Vec<&str> = nodes["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    assert_eq!(ids, ["n1", "n2"], "the restarted node is back");
    // It serves: a spectator on it watches the battle n2 owns, and a new battle is made.
    let mut watcher = watcher(&n1, "spectator on n1", &battle).await;
    play_out(&mut [&mut p0, &mut p1], &mut [&mut watcher]).await;
    assert_eq!(p0.tracker.outcome(), watcher.tracker.outcome());
    let mut host = Client::connect_url(&n1.url, "host").await;
    let fresh = host.create(Create::synergy(json!({"mode": "pvp"}))).await;
    assert!(
        record(&n2, &fresh).await.is_object(),
        "listed on the other node"
    );
}

#[tokio::test]
async fn with_redis_gone_moves_are_refused_and_the_cluster_recovers_when_it_returns() {
    let mut redis = Redis::start("redis-restart");
    let n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let (battle, mut p0, mut p1) = pvp(&n1, &n1, &n2).await;
    until_log(&mut [&mut p0, &mut p1], 4).await;
    redis.kill();
    // A move now cannot be kept: refused with store_unavailable, never acknowledged.
    let mut sent = Vec::new();
    let mut refused = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !refused {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no move was refused while Redis was gone"
        );
        let mover = if p0.tracker.my_turn() {
            &mut p0
        } else {
            &mut p1
        };
        let Some(entry) = mover.tracker.legal_actions().first().cloned() else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        sent.push(mover.client.act(&battle, fill_first(&entry)).await);
        let answer = tokio::time::timeout(Duration::from_secs(5), mover.client.expect_msg()).await;
        match answer {
            Ok(ServerMsg::Error {
                code: ErrorCode::StoreUnavailable,
                ..
            }) => {
                refused = true;
            }
            Ok(ServerMsg::Patch { req: Some(req), .. }) if sent.contains(&req) => {
                panic!("a move was acknowledged while Redis was gone")
            }
            _ => {}
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    redis.restart();
    // Back: the battle goes on to its end, on whichever node owns it now.
    let mut spectator = Client::connect_url(&n2.url, "spectator").await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let watch = loop {
        assert!(tokio::time::Instant::now() < deadline, "not back");
        let req = spectator.req();
        spectator
            .send(ClientMsg::Spectate {
                battle_id: battle.clone(),
                req: Some(req),
            })
            .await;
        // While the nodes reconnect an answer may be refused (store_unavailable): asked again.
        let answer = tokio::time::timeout(Duration::from_secs(3), spectator.expect_msg()).await;
        if let Ok(ServerMsg::Spectating { .. }) = answer {
            break spectator.expect_snapshot(&battle).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let mut watcher = Follower::new(spectator, watch, false);
    p0.pending = None;
    p1.pending = None;
    play_out(&mut [&mut p0, &mut p1], &mut [&mut watcher]).await;
    assert_eq!(p0.tracker.outcome(), watcher.tracker.outcome());
    assert_eq!(p1.tracker.outcome(), watcher.tracker.outcome());
}

#[tokio::test]
async fn a_draining_node_hands_its_battles_over_and_stops() {
    let redis = Redis::start("drain");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let mut n2 = Node::start(&redis, "n2", &[]);
    let n3 = Node::start(&redis, "n3", &[]);
    let mut tables = Vec::new();
    for _ in 0..3 {
        let (battle, p0, p1) = pvp(&n1, &n3, &n3).await;
        tables.push((battle, p0, p1));
    }
    for (_, p0, p1) in &mut tables {
        until_log(&mut [p0, p1], 4).await;
    }
    // SIGTERM in cluster mode drains: every battle goes to another node, exit 0.
    let status = n1.terminate(Duration::from_secs(20));
    assert!(status.success(), "a drained node exits 0: {status:?}");
    for (battle, _, _) in &tables {
        let node = record(&n3, battle).await["node"].clone();
        assert!(node == "n2" || node == "n3", "{battle} is on {node}");
    }
    // `battle-server drain n2` asks n2 to drain from anywhere: it stops too.
    let asked = std::process::Command::new(battle_e2e::cluster::server_binary())
        .args(["--cluster-url", &redis.url(), "drain", "n2"])
        .status()
        .expect("the binary runs");
    assert!(asked.success());
    let status = n2.wait(Duration::from_secs(20));
    assert!(status.success(), "n2 drained and stopped: {status:?}");
    for (battle, p0, p1) in &mut tables {
        play_out(&mut [p0, p1], &mut []).await;
        assert_eq!(record(&n3, battle).await["node"], "n3");
    }
}

/// Run the binary with `args` until it stops (within 20 s): its exit status and stderr.
fn run_to_end(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = std::process::Command::new(battle_e2e::cluster::server_binary())
        .args(args)
        .args(["--listen", "127.0.0.1:0", "--data-dir", "none"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            let mut stderr = String::new();
            use std::io::Read;
            let _ = child
                .stderr
                .take()
                .expect("piped")
                .read_to_string(&mut stderr);
            return (status, stderr);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?}: still running after 20 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test]
async fn bad_cluster_settings_are_refused_at_start_with_a_clear_error() {
    let (status, stderr) = run_to_end(&["--cluster-url", "redis://127.0.0.1:1"]);
    assert!(!status.success());
    assert!(stderr.contains("cannot reach Redis"), "{stderr}");
    let (status, stderr) = run_to_end(&["--cluster-url", "not a url"]);
    assert!(!status.success());
    assert!(stderr.contains("is not a Redis URL"), "{stderr}");
    let redis = Redis::start("same-id");
    let _n1 = Node::start(&redis, "n1", &[]);
    let (status, stderr) = run_to_end(&[
        "--cluster-url",
        &redis.url(),
        "--node-id",
        "n1",
        "--lease-ms",
        "1000",
    ]);
    assert!(!status.success(), "a second n1 is refused");
    assert!(stderr.contains("in use"), "{stderr}");
}
