//! Idle connections and keepalive: a connection in no battle that makes no request is
//! closed with 1000 after the idle time (`ping` messages do not count; other requests and
//! being in a battle do); the server pings every connection, closes one from which nothing
//! arrives after a ping with 1011, and keeps one that answers; the load generator answers
//! pings at full speed. Every timeout is configured small, every wait bounded.

use std::time::Duration;

use battle_e2e::battle_server::{Config, RunningServer};
use battle_e2e::{start_server_with, TIMEOUT};
use battle_load::{run_with, LoadConfig};
use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

type Ws = WebSocketStream<TcpStream>;

async fn connect(server: &RunningServer) -> Ws {
    let tcp = TcpStream::connect(server.addr).await.expect("tcp connect");
    let (ws, _) = tokio_tungstenite::client_async(server.url(), tcp)
        .await
        .expect("websocket handshake");
    ws
}

async fn send(ws: &mut Ws, json: &str) {
    ws.send(Message::text(json)).await.expect("send");
}

/// The next text message as JSON (pings are answered by the library on the way).
async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(TIMEOUT, ws.next())
            .await
            .expect("a message in time")
            .expect("the stream is open")
            .expect("a valid frame");
        if let Message::Text(text) = msg {
            return serde_json::from_str(&text).expect("JSON");
        }
    }
}

/// Read until the server's close frame: its code and reason, and how many pings came first.
async fn closed(ws: &mut Ws) -> (CloseCode, String, usize) {
    let mut pings = 0;
    loop {
        let msg = tokio::time::timeout(TIMEOUT, ws.next())
            .await
            .expect("the close comes in time")
            .expect("a close frame before the end")
            .expect("a valid frame");
        match msg {
            Message::Close(Some(frame)) => return (frame.code, frame.reason.to_string(), pings),
            Message::Close(None) => panic!("a close frame without a code"),
            Message::Ping(_) => pings += 1,
            _ => {}
        }
    }
}

/// Read (answering pings) for `lasting`, which must end with the connection open; how many
/// pings came.
async fn stays_open(ws: &mut Ws, lasting: Duration) -> usize {
    let until = Instant::now() + lasting;
    let mut pings = 0;
    loop {
        match tokio::time::timeout_at(until, ws.next()).await {
            Err(_) => return pings,
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(Message::Close(frame)))) => panic!("closed: {frame:?}"),
            Ok(Some(Ok(_))) => {}
            Ok(other) => panic!("the connection ended: {other:?}"),
        }
    }
}

/// A `ping` message is answered: the connection works.
async fn assert_pong(ws: &mut Ws) {
    send(ws, r#"{"type":"ping","req":99}"#).await;
    let answer = next_json(ws).await;
    assert_eq!(answer["type"], "pong", "{answer}");
}

fn idle_after(idle: Duration) -> Config {
    Config {
        idle_connection: idle,
        ..Config::for_tests()
    }
}

#[tokio::test]
async fn a_websocket_that_joins_nothing_is_closed_when_idle() {
    let idle = Duration::from_millis(300);
    let server = start_server_with(idle_after(idle)).await;
    let opened = Instant::now();
    let mut ws = connect(&server).await;
    let (code, reason, _) = closed(&mut ws).await;
    assert_eq!(code, CloseCode::Normal);
    assert!(reason.starts_with("idle"), "{reason}");
    assert!(opened.elapsed() >= idle, "not before the idle time");
    server.shutdown().await;
}

#[tokio::test]
async fn requests_and_battles_keep_a_connection_but_ping_messages_do_not() {
    let idle = Duration::from_millis(400);
    let server = start_server_with(idle_after(idle)).await;
    let mut lister = connect(&server).await;
    let mut pinger = connect(&server).await;
    let mut watcher = connect(&server).await;
    let mut leaver = connect(&server).await;

    send(
        &mut watcher,
        r#"{"type":"create","ruleset":"synergy","options":{"mode":"pvp"}}"#,
    )
    .await;
    let created = next_json(&mut watcher).await;
    let battle_id = created["battle_id"].as_str().expect("created").to_string();
    for ws in [&mut watcher, &mut leaver] {
        send(
            ws,
            &format!(r#"{{"type":"spectate","battle_id":"{battle_id}"}}"#),
        )
        .await;
        assert_eq!(next_json(ws).await["type"], "spectating");
        assert_eq!(next_json(ws).await["type"], "snapshot");
    }
    send(
        &mut leaver,
        &format!(r#"{{"type":"leave","battle_id":"{battle_id}","req":5}}"#),
    )
    .await;
    assert_eq!(next_json(&mut leaver).await["type"], "left");
    let left = Instant::now();

    // For three idle times: the lister lists, the pinger sends `ping` messages, the watcher
    // watches without a word.
    let until = Instant::now() + idle * 3;
    let mut pinger_closed = None;
    while Instant::now() < until {
        send(&mut lister, r#"{"type":"list"}"#).await;
        assert_eq!(next_json(&mut lister).await["type"], "battles");
        if pinger_closed.is_none() {
            send(&mut pinger, r#"{"type":"ping"}"#).await;
            match tokio::time::timeout(TIMEOUT, pinger.next()).await {
                Ok(Some(Ok(Message::Text(_)))) => {}
                Ok(Some(Ok(Message::Close(Some(frame))))) => pinger_closed = Some(frame),
                other => panic!("the pinger got {other:?}"),
            }
        }
        tokio::time::sleep(idle / 4).await;
    }
    let frame = pinger_closed.expect("`ping` messages do not keep a connection in no battle");
    assert_eq!(frame.code, CloseCode::Normal);
    assert!(frame.reason.starts_with("idle"), "{}", frame.reason);

    let (code, reason, _) = closed(&mut leaver).await;
    assert_eq!(
        (code, reason.starts_with("idle")),
        (CloseCode::Normal, true)
    );
    assert!(left.elapsed() >= idle, "idle from the moment it left");

    assert_pong(&mut lister).await;
    assert_pong(&mut watcher).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_that_does_not_answer_pings_is_closed_with_1011() {
    let server = start_server_with(Config {
        ping_interval: Duration::from_millis(200),
        pong_timeout: Duration::from_millis(300),
        idle_connection: Duration::ZERO,
        ..Config::for_tests()
    })
    .await;
    // The socket under the WebSocket, read by hand: nothing answers the pings.
    let mut tcp = connect(&server).await.into_inner();
    let mut bytes = Vec::new();
    tokio::time::timeout(TIMEOUT, tcp.read_to_end(&mut bytes))
        .await
        .expect("the server ends the connection in time")
        .expect("read");
    let frames = server_frames(&bytes);
    let (close, pings) = frames.split_last().expect("frames");
    assert!(!pings.is_empty(), "pinged before it was closed: {frames:?}");
    assert!(pings.iter().all(|(opcode, _)| *opcode == 0x9), "{frames:?}");
    assert_eq!(close.0, 0x8, "a close frame last: {frames:?}");
    let code = u16::from_be_bytes([close.1[0], close.1[1]]);
    let reason = std::str::from_utf8(&close.1[2..]).expect("UTF-8");
    assert_eq!(code, 1011, "{reason}");
    assert!(reason.starts_with("keepalive"), "{reason}");
    server.shutdown().await;
}

/// Split unmasked server frames (payloads under 126 bytes) into opcodes and payloads.
fn server_frames(mut bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut frames = Vec::new();
    while let [first, len, rest @ ..] = bytes {
        let len = usize::from(*len);
        assert!(len < 126 && rest.len() >= len, "a short control frame");
        frames.push((first & 0x0f, rest[..len].to_vec()));
        bytes = &rest[len..];
    }
    assert!(bytes.is_empty(), "whole frames");
    frames
}

#[tokio::test]
async fn a_client_that_answers_pings_stays() {
    let server = start_server_with(Config {
        ping_interval: Duration::from_millis(100),
        pong_timeout: Duration::from_millis(300),
        idle_connection: Duration::ZERO,
        ..Config::for_tests()
    })
    .await;
    let mut ws = connect(&server).await;
    let pings = stays_open(&mut ws, Duration::from_millis(1_500)).await;
    assert!(pings >= 3, "pinged every interval: {pings}");
    assert_pong(&mut ws).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_generator_answers_pings() {
    let server = start_server_with(Config {
        ping_interval: Duration::from_millis(20),
        pong_timeout: Duration::from_millis(1_000),
        ..Config::for_tests()
    })
    .await;
    let mut config = LoadConfig::new(server.url());
    config.concurrency = 4;
    config.battles = Some(12);
    config.spectators = 1;
    config.duration = Duration::from_secs(60);
    let report = run_with(config).await.expect("the load test runs");
    assert_eq!(report.battles_completed, 12, "{report}");
    assert_eq!(report.error_total, 0, "{report}");
    assert_eq!(report.violation_total, 0, "{report}");
    server.shutdown().await;
}
