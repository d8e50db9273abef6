//! The load tester against an in-process server: a small bounded run plays every battle to
//! its end with no error and no protocol violation, in PvP, in PvE, and on the test ruleset
//! whose decisions are simultaneous and open (filled from their bounds).

use std::time::Duration;

use battle_e2e::battle_client::loadtest::{run_with, LoadConfig, Threshold};
use battle_e2e::battle_client::samples;
use battle_e2e::battle_server::{rules::blind, Config};
use battle_e2e::{start_server, start_server_with};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pvp_loadtest_completes_every_battle_cleanly() {
    let server = start_server().await;
    let mut config = LoadConfig::new(server.url());
    config.concurrency = 5;
    config.battles = Some(20);
    config.spectators = 2;
    config.duration = Duration::from_secs(60);
    config.thresholds = vec![
        "violations<1"
            .parse::<Threshold>()
            .expect("valid threshold"),
        "battles_completed>=20".parse().expect("valid threshold"),
        "p99<30s".parse().expect("valid threshold"),
    ];
    let report = run_with(config).await.expect("the load test runs");

    assert_eq!(report.battles_started, 20, "{report}");
    assert_eq!(report.battles_completed, 20, "{report}");
    assert_eq!(report.battles_abandoned, 0, "{report}");
    assert_eq!(report.error_total, 0, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    assert!(report.passed(), "{report}");
    // Every accepted action was timed, and each battle needs several of them.
    assert!(report.actions >= 20 * 4, "{report}");
    assert_eq!(report.latency.count, report.actions, "{report}");
    // Two spectators saw every change of every battle, aligned with the players.
    assert_eq!(report.lag_unaligned_battles, 0, "{report}");
    assert!(report.spectator_lag.count >= report.actions * 2, "{report}");
    assert_eq!(
        report.act_to_spectator.count,
        report.actions * 2,
        "{report}"
    );
    assert!(report.frames_in > report.actions * 4, "{report}");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON report");
    assert_eq!(json["battles_completed"], 20);
    assert_eq!(json["options"], json!({"mode": "pvp"}));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pve_loadtest_with_server_sampling() {
    let server = start_server().await;
    let mut config = LoadConfig::new(server.url());
    config.sample = "pve".into();
    config.options = json!({"mode": "pve"});
    config.seats = vec![0];
    config.spectators = 1;
    config.concurrency = 3;
    config.battles = Some(6);
    config.duration = Duration::from_secs(60);
    // The server runs in this very process: its /proc figures are ours.
    config.server_pid = Some(std::process::id());
    let report = run_with(config).await.expect("the load test runs");

    assert_eq!(report.battles_completed, 6, "{report}");
    assert_eq!(report.error_total, 0, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    assert!(report.actions >= 6, "{report}");
    let usage = report.server.as_ref().expect("sampled from /proc");
    assert!(usage.rss_peak_kib >= usage.rss_start_kib, "{report}");
    assert!(usage.cpu_secs_per_1000_actions.is_some(), "{report}");
    server.shutdown().await;
}

#[tokio::test]
async fn loadtest_refuses_remote_servers_and_stops_at_its_deadline() {
    let remote = LoadConfig::new("ws://192.0.2.1:7878");
    let err = run_with(remote).await.expect_err("not loopback");
    assert!(err.to_string().contains("--allow-remote"), "{err}");

    // A time bound ends a run whose battle budget is unlimited.
    let server = start_server().await;
    let mut config = LoadConfig::new(server.url());
    config.concurrency = 2;
    config.duration = Duration::from_millis(700);
    let started = std::time::Instant::now();
    let report = run_with(config).await.expect("the load test runs");
    assert!(started.elapsed() < Duration::from_secs(10), "{report}");
    assert!(report.battles_started >= 1, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    assert_eq!(report.error_total, 0, "{report}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_plays_the_sample_the_server_lists_with_open_simultaneous_decisions() {
    let mut server_config = Config::for_tests();
    server_config.rulesets.push(&blind::ENTRY);
    let server = start_server_with(server_config).await;
    let rulesets = samples::welcome(&server.url()).await.expect("welcome");
    let blind = samples::ruleset(&rulesets, "blind").expect("offered");
    let sample = samples::for_load(blind).expect("a sample");
    assert_eq!(sample.name, "duel");
    let mut config = LoadConfig::new(server.url());
    config.ruleset = "blind".into();
    config.sample = sample.name.clone();
    config.options = sample.options.clone();
    config.seats = samples::people_seats(sample);
    config.concurrency = 3;
    config.battles = Some(9);
    config.duration = Duration::from_secs(60);
    let report = run_with(config).await.expect("the load test runs");
    assert_eq!(report.battles_completed, 9, "{report}");
    assert_eq!(report.error_total, 0, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    // Five rounds, each a bid per seat (signals too, at random).
    assert!(report.actions >= 9 * 10, "{report}");
    server.shutdown().await;
}
