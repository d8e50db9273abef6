//! The load tester against an in-process server: a small bounded run plays every battle to
//! its end with no error and no protocol violation, in PvP, in PvE, and on the test ruleset
//! whose decisions are simultaneous and open (filled from their bounds). And its contract
//! with operators: exit code 2 when the run itself fails (nobody listens, the server refuses
//! the options), 1 when a threshold fails, 0 when all hold; battles that add up; progress
//! JSON lines while it runs.

use std::process::ExitCode;
use std::time::Duration;

use battle_e2e::battle_client::samples;
use battle_e2e::battle_server::{rules::blind, Config};
use battle_e2e::{start_server, start_server_with};
use battle_load::{
    run, run_with, LoadConfig, LoadtestArgs, ProgressLine, ProgressSink, Status, Threshold,
};
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
    assert_eq!(report.battles_failed, 0, "{report}");
    assert_eq!(report.status(), Status::Passed, "{report}");
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
    assert!(json["latency"]["p95_ms"].as_f64().is_some(), "{json}");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gambit_runs_tick_at_their_pace_and_the_tick_lag_is_measured() {
    let server = start_server_with(Config::for_tests()).await;
    let mut config = LoadConfig::new(server.url());
    config.ruleset = "gambit".into();
    config.sample = "run".into();
    config.options = serde_json::json!({"mode": "pve", "tick_ms": 20});
    config.seats = vec![0];
    config.spectators = 2;
    config.concurrency = 4;
    config.pace_ms = 20;
    config.duration = Duration::from_millis(1500);
    let report = run_with(config).await.expect("the load test runs");
    assert_eq!(report.error_total, 0, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    assert!(report.ticks > 0, "the fights ticked: {report}");
    assert!(
        report.tick_lag.count > 0,
        "spectators measured each tick against its due time: {report}"
    );
    // Ticks come every 20 ms: at most 75 per battle in 1.5 s (plus what a planning phase
    // takes away), so the pace was kept rather than run as fast as possible.
    assert!(report.ticks <= 4 * 80, "{report}");
    server.shutdown().await;
}

/// Six battles of `ruleset`'s `sample`, the load tool on `seats`, three at a time: every one
/// played to its end, every random legal action accepted, every patch applied.
async fn plays_six_to_the_end(ruleset: &str, sample: &str, seats: Vec<usize>) {
    let server = start_server_with(Config::for_tests()).await;
    let mut config = LoadConfig::new(server.url());
    config.ruleset = ruleset.into();
    config.sample = sample.into();
    config.options = serde_json::json!({});
    config.seats = seats;
    config.concurrency = 3;
    config.battles = Some(6);
    config.duration = Duration::from_secs(60);
    let report = run_with(config).await.expect("the load test runs");
    assert_eq!(report.battles_completed, 6, "{ruleset}: {report}");
    assert_eq!(
        report.error_total, 0,
        "{ruleset}: every random legal action is accepted: {report}"
    );
    assert_eq!(report.violation_total, 0, "{ruleset}: {report}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heroes_games_are_played_to_the_end_by_the_load_tool() {
    plays_six_to_the_end("heroes", "duel", vec![0, 1]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roguelite_runs_are_played_to_the_end_by_the_load_tool() {
    plays_six_to_the_end("roguelite", "run", vec![0]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lore_games_are_played_to_the_end_by_the_load_tool() {
    plays_six_to_the_end("lore", "duel", vec![0, 1]).await;
}

/// A `ws://` URL on a loopback port where nothing listens (bound a moment ago, then freed).
fn dead_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    let port = listener.local_addr().expect("bound").port();
    drop(listener);
    format!("ws://127.0.0.1:{port}")
}

fn flags(list: &[&str]) -> LoadtestArgs {
    LoadtestArgs::from_flags(list).expect("valid flags")
}

#[tokio::test]
async fn no_server_is_a_failed_run_with_exit_code_2() {
    let url = dead_url();
    let code = run(
        std::slice::from_ref(&url),
        flags(&["-c", "2", "-d", "5s", "--quiet"]),
    )
    .await
    .expect("a failed run is an exit code, not an error");
    assert_eq!(code, ExitCode::from(2));

    // The library entry, which skips the `welcome` check: no connection opens, so the
    // report says the run failed (at once: every connection is refused).
    let mut config = LoadConfig::new(&url);
    config.concurrency = 2;
    config.duration = Duration::from_secs(5);
    let report = run_with(config).await.expect("the run goes and fails");
    assert_eq!(report.status(), Status::RunFailed, "{report}");
    assert_eq!(report.status().code(), 2);
    assert_eq!(report.connections_opened, 0, "{report}");
    let why = report.failure.as_deref().expect("a failure");
    assert!(
        why.contains("cargo run --release -p battle-server"),
        "{why}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_code_1_for_a_failed_threshold_and_0_when_all_hold() {
    let server = start_server().await;
    let url = [server.url()];
    let bounded = ["-c", "2", "-n", "4", "-s", "1", "-d", "20s", "--quiet"];
    let with = |gates: &[&str]| {
        let mut list = bounded.to_vec();
        for gate in gates {
            list.extend(["--threshold", gate]);
        }
        flags(&list)
    };
    let failed = run(&url, with(&["p99<0.000001ms", "violations<1"]))
        .await
        .expect("runs");
    assert_eq!(failed, ExitCode::from(1));
    let failed = run(&url, with(&["actions_per_sec>1e12"]))
        .await
        .expect("runs");
    assert_eq!(failed, ExitCode::from(1));
    let held = run(
        &url,
        with(&["p95<30s", "p99<30s", "violations<1", "battles_completed>=4"]),
    )
    .await
    .expect("runs");
    assert_eq!(held, ExitCode::SUCCESS);

    // Options the server refuses start no battle: the run fails at once, whatever the gates.
    let refused = run(
        &url,
        flags(&[
            "-c",
            "2",
            "-d",
            "20s",
            "--quiet",
            "--options",
            r#"{"mode":"nonsense"}"#,
        ]),
    )
    .await
    .expect("runs");
    assert_eq!(refused, ExitCode::from(2));
    server.shutdown().await;
}

/// `started = completed + abandoned + failed`, in the JSON report.
fn assert_battles_add_up(json: &serde_json::Value) {
    let count = |key: &str| {
        json[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key} in {json}"))
    };
    assert_eq!(
        count("battles_started"),
        count("battles_completed") + count("battles_abandoned") + count("battles_failed"),
        "{json}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_battle_is_accounted_for() {
    let server = start_server().await;
    // Cut off by the deadline: think time keeps battles running when it comes.
    let mut config = LoadConfig::new(server.url());
    config.concurrency = 3;
    config.spectators = 1;
    config.think = Duration::from_millis(30);
    config.duration = Duration::from_millis(1500);
    let report = run_with(config).await.expect("the load test runs");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON report");
    assert_battles_add_up(&json);
    assert!(report.battles_started >= 1, "{report}");
    assert!(
        report.peak_battles >= 1 && report.peak_battles <= 3,
        "{report}"
    );

    // Broken by errors: a stall limit of a few milliseconds breaks battles (and their
    // connections) here and there; whatever broke, every battle is counted once.
    let mut config = LoadConfig::new(server.url());
    config.concurrency = 3;
    config.spectators = 1;
    config.stall_timeout = Duration::from_millis(3);
    config.duration = Duration::from_millis(1500);
    let report = run_with(config).await.expect("the load test runs");
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON report");
    assert_battles_add_up(&json);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_json_lines_while_the_run_goes() {
    let server = start_server().await;
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut config = LoadConfig::new(server.url());
    config.concurrency = 2;
    config.spectators = 1;
    config.think = Duration::from_millis(10);
    config.duration = Duration::from_millis(1200);
    config.progress_json = Some(Duration::from_millis(200));
    config.progress_sink = ProgressSink::Channel(sender);
    let report = run_with(config).await.expect("the load test runs");

    let lines: Vec<String> = receiver.try_iter().collect();
    assert!(
        !lines.is_empty(),
        "no progress line in a run of 1.2 s\n{report}"
    );
    let mut previous: Option<ProgressLine> = None;
    for line in &lines {
        assert!(!line.contains('\n'), "{line}");
        let json: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        for key in [
            "elapsed_s",
            "battles_started",
            "battles_completed",
            "battles_abandoned",
            "actions",
            "actions_per_sec",
            "p50_ms",
            "p99_ms",
            "errors",
        ] {
            assert!(json.get(key).is_some(), "{key} missing from {line}");
        }
        let progress: ProgressLine = serde_json::from_str(line).expect("a progress line");
        if let Some(before) = &previous {
            assert!(progress.elapsed_s > before.elapsed_s, "{lines:?}");
            assert!(
                progress.battles_started >= before.battles_started,
                "{lines:?}"
            );
            assert!(progress.actions >= before.actions, "{lines:?}");
        }
        assert!(
            progress.battles_started <= report.battles_started,
            "{line}\n{report}"
        );
        previous = Some(progress);
    }
    // The lines stop with the run: every sender is gone once it returned.
    assert!(receiver.recv().is_err(), "the monitor still holds the sink");
    server.shutdown().await;
}
