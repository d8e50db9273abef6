//! `battle-server --log-format json`: the real binary, a bot battle played over a socket,
//! stopped with SIGTERM; every line it wrote on stderr is one JSON object with a level, a
//! timestamp and a message, and its events carry their battle's or connection's fields.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use battle_e2e::{check_finished, drive, Client, Create, Drive};
use serde_json::Value;

/// The `battle-server` binary of this build's profile, built first (it is not a target of
/// this crate, so cargo does not build it for the tests on its own).
fn server_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    // target/<profile>/deps/json_logs-…: the binary sits in target/<profile>.
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let release = profile_dir
        .file_name()
        .is_some_and(|name| name == "release");
    let mut build = Command::new(env!("CARGO"));
    build.args(["build", "-p", "battle-server", "--bin", "battle-server"]);
    if release {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "cargo build -p battle-server failed");
    profile_dir.join(format!("battle-server{}", std::env::consts::EXE_SUFFIX))
}

/// The value at `key` in the event's own fields or in any of its spans.
fn field<'a>(event: &'a Value, key: &str) -> Option<&'a Value> {
    event["fields"].get(key).or_else(|| {
        event["spans"]
            .as_array()?
            .iter()
            .find_map(|span| span.get(key))
    })
}

#[tokio::test]
async fn json_logs_parse_line_by_line_and_carry_battle_and_connection_fields() {
    let mut child = Command::new(server_binary())
        .args([
            "--log-format",
            "json",
            "--data-dir",
            "none",
            "--listen",
            "127.0.0.1:0",
        ])
        // Connection events are at debug level.
        .env("RUST_LOG", "info,battle_server::connection=debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the listening line");
    let url = line
        .trim()
        .strip_prefix("battle-server listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_string();

    let mut host = Client::connect_url(&url, "host").await;
    let battle_id = host
        .create(Create::synergy(Value::Null).bots(vec![0, 1]).pace_ms(0))
        .await;
    let mut spectator = Client::connect_url(&url, "spectator").await;
    let mut watch = spectator.spectate(&battle_id).await;
    let watching = Drive {
        act: false,
        resync_every: None,
        check: None,
    };
    drive(&mut spectator, &mut watch, &watching).await;
    check_finished(&watch, "spectator");
    spectator.close().await;

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -TERM failed");
    let stderr = child.stderr.take().expect("stderr");
    let lines: Vec<String> = BufReader::new(stderr)
        .lines()
        .map(|line| line.expect("stderr is text"))
        .collect();
    let exit = child.wait().expect("the server exits");
    assert!(exit.success(), "SIGTERM ends the server with 0: {exit:?}");
    drop(host);

    let events: Vec<Value> = lines
        .iter()
        .map(|line| {
            serde_json::from_str::<Value>(line)
                .unwrap_or_else(|err| panic!("not a JSON line ({err}): {line:?}"))
        })
        .collect();
    assert!(!events.is_empty(), "the server logged something");
    for event in &events {
        assert!(event.is_object(), "one object per line: {event}");
        assert!(event["level"].is_string(), "a level: {event}");
        assert!(event["timestamp"].is_string(), "a timestamp: {event}");
        assert!(event["fields"]["message"].is_string(), "a message: {event}");
        assert!(
            !event.to_string().contains('\u{1b}'),
            "no ANSI escape in a JSON line: {event}"
        );
    }
    let message = |event: &Value| event["fields"]["message"].as_str().map(str::to_string);
    let battle_events: Vec<&Value> = events
        .iter()
        .filter(|event| {
            matches!(
                message(event).as_deref(),
                Some("battle starts" | "battle finished")
            )
        })
        .collect();
    assert!(!battle_events.is_empty(), "battle events: {lines:#?}");
    for event in &battle_events {
        assert_eq!(
            field(event, "battle").and_then(Value::as_str),
            Some(battle_id.as_str()),
            "a battle event carries its battle id: {event}"
        );
    }
    let finished = battle_events
        .iter()
        .find(|event| message(event).as_deref() == Some("battle finished"))
        .expect("the battle finished");
    assert!(
        finished["spans"]
            .as_array()
            .is_some_and(|spans| spans.iter().any(|span| span["name"] == "battle")),
        "the battle actor's events run in its span: {finished}"
    );
    let opened: Vec<&Value> = events
        .iter()
        .filter(|event| message(event).as_deref() == Some("connection open"))
        .collect();
    assert!(opened.len() >= 2, "both connections logged: {lines:#?}");
    for event in opened {
        assert!(
            field(event, "conn").is_some_and(Value::is_u64),
            "a connection event carries its id: {event}"
        );
        let peer = field(event, "peer").and_then(Value::as_str).unwrap_or("");
        assert!(
            peer.starts_with("127.0.0.1:"),
            "a connection event carries its peer: {event}"
        );
    }
    let created = events
        .iter()
        .find(|event| message(event).as_deref() == Some("battle created"))
        .expect("battle created");
    assert!(
        field(created, "conn").is_some() && field(created, "battle").is_some(),
        "a request's event carries its connection and its battle: {created}"
    );
}
