//! A battle whose replay fails in a cluster failover is set aside like on a single server,
//! and never holds up the others: node A owns three battles whose players are on node B; one
//! battle's record is damaged in Redis (a ruleset version this build does not have); A is
//! killed with SIGKILL. B takes all three over: the damaged one is set aside (its players are
//! told `left {reason: "quarantined"}`, `/health` counts it, `battle-server quarantine list
//! --cluster-url` names it with its reason), the other two play on to their end. Then it is
//! dropped for good with `quarantine drop`.
//!
//! Needs `redis-server` and `redis-cli` (Debian's `redis-server` package).

use std::process::Command;
use std::time::Duration;

use battle_e2e::battle_protocol::ServerMsg;
use battle_e2e::cluster::{Node, Redis};
use battle_e2e::follower::{advance, play_out, Follower};
use battle_e2e::http::get;
use battle_e2e::process::run_command;
use battle_e2e::{Client, Create};
use serde_json::json;

/// `redis-cli` on `redis`'s port with `args`; its output, trimmed.
fn redis_cli(redis: &Redis, args: &[&str]) -> String {
    let port = redis.url().rsplit(':').next().expect("a port").to_string();
    let out = Command::new("redis-cli")
        .args(["-p", &port, "--raw"])
        .args(args)
        .output()
        .expect("redis-cli runs (Debian's redis-server package has it)");
    assert!(out.status.success(), "redis-cli {args:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The next `left` the follower's connection gets (other messages are applied or skipped).
async fn told_left(follower: &mut Follower) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let msg = tokio::time::timeout_at(deadline, follower.client.expect_msg())
            .await
            .expect("the players of a battle set aside are told");
        if let ServerMsg::Left { reason, .. } = msg {
            return reason;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_failover_replay_sets_one_battle_aside_and_the_others_play_on() {
    let redis = Redis::start("quarantine");
    let mut a = Node::start(&redis, "qa", &[]);
    // Created while A is alone: A owns them all.
    let mut creator = Client::connect_url(&a.url, "creator").await;
    let mut battles = Vec::new();
    for _ in 0..3 {
        battles.push(
            creator
                .create(Create::synergy(json!({"mode": "pvp"})))
                .await,
        );
    }
    let b = Node::start(&redis, "qb", &[]);
    let mut tables = Vec::new();
    for battle in &battles {
        let mut p0 = Client::connect_url(&b.url, "p0").await;
        let seat0 = p0.join(battle, Some(0)).await;
        let mut p1 = Client::connect_url(&b.url, "p1").await;
        let seat1 = p1.join(battle, Some(1)).await;
        let mut p0 = Follower::new(p0, seat0.tracker, true);
        let mut p1 = Follower::new(p1, seat1.tracker, true);
        assert!(advance(&mut [&mut p0, &mut p1], 3).await > 0);
        tables.push((p0, p1));
    }

    // Battle 0's record names a ruleset version this build does not have.
    let key = format!("bs:b:{{{}}}", battles[0]);
    let created = redis_cli(&redis, &["HGET", &key, "created"]);
    let mut damaged: serde_json::Value = serde_json::from_str(&created).expect("JSON");
    damaged["version"] = json!(damaged["version"].as_u64().expect("a version") + 100);
    redis_cli(&redis, &["HSET", &key, "created", &damaged.to_string()]);
    a.kill();

    let (mut q0, mut q1) = tables.remove(0);
    assert_eq!(told_left(&mut q0).await, "quarantined");
    assert_eq!(told_left(&mut q1).await, "quarantined");
    for (p0, p1) in &mut tables {
        play_out(&mut [p0, p1], &mut []).await;
        assert!(p0.tracker.is_over() && p1.tracker.is_over());
    }
    let url = redis.url();
    let (status, out, err) = run_command(&["--cluster-url", &url, "quarantine", "list"]);
    assert!(status.success(), "{err}");
    assert!(
        out.starts_with("1 battle is set aside") && out.contains(&battles[0]),
        "{out}"
    );
    assert!(out.contains("version"), "the reason is named: {out}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let health = get(b.addr, "/health").await.json();
        if health["quarantined"] == 1 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{health}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    let (status, out, err) =
        run_command(&["--cluster-url", &url, "quarantine", "drop", &battles[0]]);
    assert!(status.success(), "{err}");
    assert!(out.contains("dropped for good"), "{out}");
    assert_eq!(redis_cli(&redis, &["EXISTS", &key]), "0");
    let (_, out, _) = run_command(&["--cluster-url", &url, "quarantine", "list"]);
    assert!(out.starts_with("no battle is set aside"), "{out}");
}
