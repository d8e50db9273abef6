//! HTTP on the WebSocket port, over real sockets: `/health`, `/metrics` (every named series,
//! moving as battles are played), `/api/battles` (the records `list` gives, paged the same
//! way), the page, methods and unknown paths, and what a draining server answers.

use battle_e2e::battle_client::Connection;
use battle_e2e::battle_protocol::{ClientMsg, ErrorCode};
use battle_e2e::battle_server::Config;
use battle_e2e::http::{get, scrape, HttpConn};
use battle_e2e::{
    pvp_table, settle, start_server, start_server_with, watch_bots_play, Client, Create, PvpTable,
    NO_SUCH_CARD,
};
use serde_json::{json, Value};

#[tokio::test]
async fn health_tells_version_uptime_battles_and_connections() {
    let server = start_server().await;
    let answer = get(server.addr, "/health").await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let body = answer.json();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert!(body["uptime_secs"].is_u64(), "{body}");
    assert_eq!(body["battles"], 0);
    assert_eq!(body["connections"], 0);

    let mut client = Client::connect(&server, "player").await;
    client.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let body = get(server.addr, "/health").await.json();
    assert_eq!(body["battles"], 1, "{body}");
    assert_eq!(body["connections"], 1, "{body}");
    server.shutdown().await;
}

/// The series a dashboard is built from: each must be on the page from the start.
const NAMED: [&str; 18] = [
    "battle_battles",
    "battle_connections",
    "battle_players_connected",
    "battle_spectators",
    "battle_actions_accepted_total",
    "battle_actions_refused_total",
    "battle_action_latency_seconds_bucket",
    "battle_frames_sent_total",
    "battle_bytes_sent_total",
    "battle_outbox_overflows_total",
    "battle_battles_created_total",
    "battle_battles_finished_total",
    "battle_bot_moves_total",
    "battle_engine_steps_total",
    "battle_uptime_seconds",
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
    "process_open_fds",
];

#[tokio::test]
async fn metrics_name_every_series_and_move_as_battles_are_played() {
    let server = start_server().await;
    let before = scrape(server.addr).await;
    for name in NAMED {
        if name != "battle_action_latency_seconds_bucket" {
            assert!(before.has(name), "{name} is on the page from the start");
        }
    }

    // A PvP table with a spectator; seat 0 makes one refused and one accepted move.
    let PvpTable {
        battle_id,
        mut p0,
        mut seat0,
        mut p1,
        mut seat1,
        mut spectator,
        mut watch,
    } = pvp_table(&server).await;
    let playing = scrape(server.addr).await;
    let synergy = [("ruleset", "synergy")];
    assert_eq!(
        playing.value(
            "battle_battles",
            &[("ruleset", "synergy"), ("status", "playing")]
        ),
        1.0
    );
    assert_eq!(playing.value("battle_connections", &[]), 3.0);
    assert_eq!(playing.value("battle_players_connected", &[]), 2.0);
    assert_eq!(playing.value("battle_spectators", &[]), 1.0);

    let req = p0
        .act(
            &battle_id,
            json!({"kind": "play_card", "card": NO_SUCH_CARD}),
        )
        .await;
    p0.expect_error(ErrorCode::IllegalAction, Some(req)).await;
    let action = seat0.tracker.legal_actions()[0].clone();
    p0.act(&battle_id, action).await;
    settle(&mut p0, &mut seat0.tracker).await;
    settle(&mut p1, &mut seat1.tracker).await;
    settle(&mut spectator, &mut watch).await;

    // A battle between the server's bots, watched to its end.
    watch_bots_play(
        &server,
        Create::synergy(json!({"mode": "pvp"})).bots(vec![0, 1]),
        1_000,
    )
    .await;

    let after = scrape(server.addr).await;
    for name in NAMED {
        assert!(after.has(name), "{name} is on the page");
    }
    let grew = |name: &str, labels: &[(&str, &str)], by: f64| {
        let (was, now) = (before.value(name, labels), after.value(name, labels));
        assert!(
            now >= was + by,
            "{name}{labels:?} grew by {} (from {was}), not by {by} or more",
            now - was
        );
    };
    grew("battle_actions_accepted_total", &synergy, 1.0);
    grew(
        "battle_actions_refused_total",
        &[("code", "illegal_action")],
        1.0,
    );
    grew("battle_action_latency_seconds_count", &[], 1.0);
    grew("battle_battles_created_total", &synergy, 2.0);
    grew("battle_battles_finished_total", &synergy, 1.0);
    grew("battle_bot_moves_total", &synergy, 2.0);
    grew("battle_frames_sent_total", &[], 10.0);
    grew("battle_bytes_sent_total", &[], 1_000.0);
    grew("battle_connections_opened_total", &[], 5.0);
    assert_eq!(
        after.value(
            "battle_battles",
            &[("ruleset", "synergy"), ("status", "finished")]
        ),
        1.0,
        "the bots' battle is over and still listed"
    );
    assert!(after.value("process_resident_memory_bytes", &[]) > 0.0);
    let latency_buckets = after.value("battle_action_latency_seconds_bucket", &[("le", "+Inf")]);
    assert_eq!(
        latency_buckets,
        after.value("battle_action_latency_seconds_count", &[]),
        "every latency sample falls in the +Inf bucket"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_connection_dropped_for_lagging_is_counted() {
    let server = start_server_with(Config {
        outbox_capacity: 4,
        ..Config::for_tests()
    })
    .await;
    // A spectator with a tiny receive buffer that never reads, of battles the bots play at
    // full speed: its socket fills, then its queue, and the server closes it with 1013.
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
    let tcp = socket.connect(server.addr).await.expect("tcp connect");
    let mut stalled = Connection::connect_over(&server.url(), tcp)
        .await
        .expect("websocket handshake");
    let mut host = Client::connect(&server, "host").await;
    let deadline = tokio::time::Instant::now() + battle_e2e::TIMEOUT;
    loop {
        let battle_id = host
            .create(Create::synergy(json!({"mode": "pvp"})).bots(vec![0, 1]))
            .await;
        // Sending fails once the server has closed the connection.
        let _ = stalled
            .send(&ClientMsg::Spectate {
                battle_id,
                req: None,
            })
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        if scrape(server.addr)
            .await
            .value("battle_outbox_overflows_total", &[])
            >= 1.0
        {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no overflow counted while a spectator did not read"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn api_battles_gives_the_records_of_list_in_the_same_pages() {
    let server = start_server().await;
    let mut client = Client::connect(&server, "host").await;
    for _ in 0..5 {
        client.create(Create::synergy(json!({"mode": "pvp"}))).await;
    }
    client
        .create(Create::synergy(json!({"mode": "pvp"})).private())
        .await;
    let listed: Vec<Value> = client
        .list()
        .await
        .iter()
        .map(|summary| serde_json::to_value(summary).expect("a summary serializes"))
        .collect();
    assert_eq!(listed.len(), 5, "the private battle is not listed");

    let whole = get(server.addr, "/api/battles").await;
    assert_eq!(whole.status, 200);
    assert_eq!(whole.header("content-type"), Some("application/json"));
    let whole = whole.json();
    assert_eq!(whole["total"], 5);
    assert_eq!(whole["battles"].as_array().expect("an array"), &listed);
    assert!(
        whole.get("next_cursor").is_none(),
        "one page holds them all"
    );

    // Pages of two, followed by their cursors, give the same records in the same order.
    let mut paged = Vec::new();
    let mut path = "/api/battles?limit=2".to_string();
    for _ in 0..10 {
        let page = get(server.addr, &path).await.json();
        assert_eq!(page["total"], 5);
        let battles = page["battles"].as_array().expect("an array");
        assert!(battles.len() <= 2);
        paged.extend(battles.iter().cloned());
        match page["next_cursor"].as_str() {
            Some(cursor) => path = format!("/api/battles?limit=2&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(paged, listed);

    let finished = get(server.addr, "/api/battles?finished=true").await.json();
    assert!(finished["finished"].is_array(), "{finished}");

    for bad in [
        "/api/battles?limit=0",
        "/api/battles?limit=lots",
        "/api/battles?cursor=x",
    ] {
        let answer = get(server.addr, bad).await;
        assert_eq!(answer.status, 400, "{bad}");
        assert_eq!(answer.json()["code"], "bad_message", "{bad}");
        assert!(answer.json()["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    }
    server.shutdown().await;
}

#[tokio::test]
async fn the_page_is_served_and_other_requests_are_told_what_went_wrong() {
    let server = start_server().await;
    let mut conn = HttpConn::open(server.addr).await;
    let page = conn.request("GET", "/").await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(page.text().to_ascii_lowercase().contains("<!doctype html>"));
    // One keep-alive connection serves several requests.
    let head = conn.request("HEAD", "/health").await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    let missing = conn.request("GET", "/no/such/page").await;
    assert_eq!(missing.status, 404);
    let post = conn.request("POST", "/health").await;
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    // The WebSocket endpoint still answers on the same port.
    let mut client = Client::connect(&server, "after").await;
    client.assert_pong().await;
    server.shutdown().await;
}

#[tokio::test]
async fn metrics_and_api_reads_share_the_lobby_read_rate() {
    let server = start_server_with(Config {
        list_rate: battle_server::config::Rate::new(1, 2),
        ..Config::for_tests()
    })
    .await;
    let mut conn = HttpConn::open(server.addr).await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(conn.request("GET", "/api/battles").await);
    }
    assert_eq!(statuses[0].status, 200);
    let refused = statuses
        .iter()
        .find(|answer| answer.status == 429)
        .expect("a burst of 2 lets 4 quick reads not all through");
    let retry: u64 = refused
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .expect("seconds");
    assert!(retry >= 1);
    // Health is never rate limited.
    assert_eq!(conn.request("GET", "/health").await.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn a_draining_server_answers_health_with_503_and_refuses_new_websockets() {
    let server = start_server().await;
    // Connections opened before the drain: one HTTP keep-alive, one not yet upgraded.
    let mut health = HttpConn::open(server.addr).await;
    assert_eq!(health.request("GET", "/health").await.status, 200);
    let mut late = HttpConn::open(server.addr).await;
    let mut client = Client::connect(&server, "player").await;
    client.assert_pong().await;

    let drained = tokio::spawn(server.drain());
    // The drain refuses requests at once and waits a moment for those in flight.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let answer = health.request("GET", "/health").await;
    assert_eq!(answer.status, 503);
    assert_eq!(answer.json()["status"], "draining");

    late.send_raw(
        b"GET / HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    .await;
    let refused = late.read_answer(false).await;
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert!(late.is_closed_by_server().await);
    drained.await.expect("the drain ends");
}
