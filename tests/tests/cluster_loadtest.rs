//! The load tool against a cluster of two nodes (processes, on a real `redis-server`), one of
//! which is killed with SIGKILL mid-run: with `--reconnect`, every connection the dead node
//! held connects again through the other node and takes its place back (`rejoin` with its
//! seat's token, or `spectate`), the battles the dead node owned come back on the other, and
//! no battle fails for it.
//!
//! Needs `redis-server` (Debian's package: `apt-get install redis-server`).

use std::time::Duration;

use battle_e2e::cluster::{Node, Redis};
use battle_load::{run_with, LoadConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_reconnect_a_killed_node_fails_no_battle() {
    let redis = Redis::start("loadtest-kill");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let mut config = LoadConfig::new(n1.url.clone());
    // Players and creators on both nodes in turn, spectators the other way round: battles
    // owned by either node, with connections of both in most of them.
    config.servers = vec![n1.url.clone(), n2.url.clone()];
    config.spectator_servers = vec![n2.url.clone(), n1.url.clone()];
    config.reconnect = true;
    config.concurrency = 6;
    config.spectators = 1;
    config.duration = Duration::from_secs(20);
    let run = tokio::spawn(run_with(config));
    tokio::time::sleep(Duration::from_secs(6)).await;
    n1.kill();
    let report = run
        .await
        .expect("the run's task ends")
        .expect("the load test runs");

    assert!(report.reconnect, "{report}");
    assert!(
        report.reconnects >= 6,
        "about half the connections were on the node killed: {report}"
    );
    assert_eq!(report.battles_failed, 0, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    assert!(report.battles_completed >= 12, "{report}");
    assert!(report.failure.is_none(), "{report}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON report");
    assert_eq!(json["reconnects"], report.reconnects);
    assert_eq!(json["spectator_url"], format!("{},{}", n2.url, n1.url));
}
