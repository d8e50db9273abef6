//! Rate limits per connection and per address: every message (WebSocket pings included),
//! lobby reads and creates each have a token bucket, and all connections from one address
//! share one for messages and one for creates. Over it a request is refused with
//! `rate_limited` and the time to wait, and nothing is done; a connection that keeps flooding
//! is closed with 1008. A client within its rate is never refused, and people playing with
//! the default limits (sized for them) never meet them.

use std::time::{Duration, Instant};

use battle_e2e::battle_client::ClientError;
use battle_e2e::battle_server::config::Rate;
use battle_e2e::follower::Follower;
use battle_e2e::{pvp_table, start_server_with, Client, Create, PvpTable, TIMEOUT};
use battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_server::Config;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The `retry_after_ms` of a `rate_limited` error echoing `req`.
fn retry_after(msg: &ServerMsg, req: Option<u64>) -> u64 {
    match msg {
        ServerMsg::Error {
            code: ErrorCode::RateLimited,
            retry_after_ms: Some(ms),
            req: got,
            message,
            ..
        } => {
            assert_eq!(*got, req, "the refusal echoes req ({message})");
            assert!(!message.is_empty());
            *ms
        }
        other => panic!("expected rate_limited with retry_after_ms, got {other:?}"),
    }
}

#[tokio::test]
async fn a_flood_is_refused_with_rate_limited_then_closed_with_1008() {
    let server = start_server_with(Config {
        message_rate: Rate::new(20, 10),
        flood_refusals: 5,
        ..Config::for_tests()
    })
    .await;
    let mut flooder = Client::connect(&server, "flooder").await;
    let started = Instant::now();
    const SENT: u64 = 40;
    for req in 1..=SENT {
        // The server may close the connection before the last ones are written.
        let _ = flooder.conn.send(&ClientMsg::Ping { req: Some(req) }).await;
    }
    let (mut pongs, mut refusals) = (0u64, 0u64);
    let close = loop {
        match tokio::time::timeout(TIMEOUT, flooder.conn.recv()).await {
            Ok(Ok(ServerMsg::Pong { .. })) => {
                assert_eq!(refusals, 0, "nothing is answered between refusals");
                pongs += 1;
            }
            Ok(Ok(msg)) => {
                let ms = retry_after(&msg, Some(pongs + refusals + 1));
                assert!(
                    (1..=50).contains(&ms),
                    "one token every 50 ms: wait {ms} ms"
                );
                refusals += 1;
            }
            Ok(Err(ClientError::Closed { code, reason })) => break (code, reason),
            other => panic!("expected pong, rate_limited or a close frame, got {other:?}"),
        }
        assert!(pongs + refusals <= SENT, "more answers than requests");
    };
    let earned = 10 + (20.0 * started.elapsed().as_secs_f64()).ceil() as u64;
    assert!(
        (10..=earned).contains(&pongs),
        "the burst of 10, then 20 a second, was answered: {pongs}"
    );
    assert_eq!(refusals, 6, "five refusals allowed, the sixth closes");
    assert_eq!(close.0, Some(1008), "policy violation ({})", close.1);
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_within_its_rate_is_never_refused() {
    let server = start_server_with(Config {
        message_rate: Rate::new(50, 5),
        flood_refusals: 1,
        ..Config::for_tests()
    })
    .await;
    let mut client = Client::connect(&server, "steady").await;
    // 25 a second for a second and a bit, under a rate of 50.
    for _ in 0..30 {
        client.assert_pong().await;
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    server.shutdown().await;
}

/// The server's defaults (sized for people), on an ephemeral port without pacing.
fn default_limits() -> Config {
    Config {
        listen: Config::for_tests().listen,
        default_pace_ms: 0,
        ..Config::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn normal_play_with_the_default_limits_is_never_refused() {
    let server = start_server_with(default_limits()).await;
    let PvpTable {
        p0,
        seat0,
        p1,
        seat1,
        spectator,
        watch,
        ..
    } = pvp_table(&server).await;
    let mut players = [
        Follower::new(p0, seat0.tracker, true),
        Follower::new(p1, seat1.tracker, true),
    ];
    let mut watcher = Follower::new(spectator, watch, false);
    // People: a move after a moment's thought, a spectator's resync now and then. Any
    // refusal but the game's own fails the followers.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut last_resync = Instant::now();
    while !players.iter().all(|p| p.tracker.is_over()) {
        assert!(Instant::now() < deadline, "the battle did not end in time");
        for player in players.iter_mut() {
            if player.pending.is_none() && player.tracker.my_turn() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            player.maybe_act().await;
            player.step(Duration::from_millis(10)).await;
        }
        while watcher.step(Duration::from_millis(1)).await {}
        if last_resync.elapsed() > Duration::from_millis(500) {
            last_resync = Instant::now();
            let battle = watcher.battle();
            watcher
                .client
                .send(ClientMsg::Resync {
                    battle_id: battle,
                    req: None,
                })
                .await;
        }
    }
    // A lobby visit: greeting, a few lists, a battle of one's own.
    let mut visitor = Client::connect(&server, "visitor").await;
    visitor.hello().await;
    for _ in 0..5 {
        visitor.list().await;
    }
    let battle = visitor.create(Create::synergy(Value::Null)).await;
    visitor.join(&battle, None).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_flood_at_twice_the_default_rate_is_refused_then_closed_with_1008() {
    let server = start_server_with(default_limits()).await;
    let rate = battle_server::config::DEFAULT_MESSAGE_RATE;
    let mut flooder = Client::connect(&server, "flooder").await;
    let started = Instant::now();
    let every = Duration::from_secs(1) / (2 * rate.per_sec);
    let (mut sent, mut pongs, mut refusals) = (0u64, 0u64, 0u64);
    let mut next = Instant::now();
    let close = loop {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "a flood at twice the rate is closed well within a minute"
        );
        tokio::select! {
            () = tokio::time::sleep_until(next.into()) => {
                sent += 1;
                let _ = flooder.conn.send(&ClientMsg::Ping { req: Some(sent) }).await;
                next += every;
            }
            got = flooder.conn.recv() => match got {
                Ok(ServerMsg::Pong { .. }) => pongs += 1,
                Ok(msg) => {
                    retry_after(&msg, match &msg {
                        ServerMsg::Error { req, .. } => *req,
                        _ => None,
                    });
                    refusals += 1;
                }
                Err(ClientError::Closed { code, reason }) => break (code, reason),
                Err(other) => panic!("expected pong, rate_limited or a close: {other}"),
            },
        }
    };
    let elapsed = started.elapsed().as_secs_f64();
    let earned = u64::from(rate.burst) + (f64::from(rate.per_sec) * elapsed).ceil() as u64;
    assert!(
        pongs <= earned,
        "{pongs} answered in {elapsed:.1} s: at most the burst, then the rate ({earned})"
    );
    let allowed = battle_server::config::DEFAULT_FLOOD_REFUSALS;
    assert!(
        refusals > u64::from(allowed),
        "refused first: {refusals} refusals"
    );
    assert_eq!(
        close.0,
        Some(1008),
        "then closed as a policy violation ({})",
        close.1
    );
    server.shutdown().await;
}

#[tokio::test]
async fn an_address_shares_one_message_rate_across_its_connections() {
    let server = start_server_with(Config {
        message_rate: Rate::UNLIMITED,
        ip_message_rate: Rate::new(20, 20),
        flood_refusals: 0,
        ..Config::for_tests()
    })
    .await;
    let mut clients = Vec::new();
    for n in 0..4 {
        clients.push(Client::connect(&server, &format!("connection {n}")).await);
    }
    let started = Instant::now();
    for client in &mut clients {
        for req in 1..=10 {
            client.send(ClientMsg::Ping { req: Some(req) }).await;
        }
    }
    let (mut pongs, mut refused) = (0u64, 0u64);
    for client in &mut clients {
        for _ in 0..10 {
            match client.expect_msg().await {
                ServerMsg::Pong { .. } => pongs += 1,
                ServerMsg::Error {
                    code: ErrorCode::RateLimited,
                    message,
                    ..
                } => {
                    assert!(message.contains("from your address"), "{message}");
                    refused += 1;
                }
                other => panic!("expected pong or rate_limited, got {other:?}"),
            }
        }
    }
    let earned = 20 + (20.0 * started.elapsed().as_secs_f64()).ceil() as u64;
    assert!(
        (20..=earned).contains(&pongs),
        "40 pings from one address, 20 at once: {pongs} answered"
    );
    assert_eq!(pongs + refused, 40);
    server.shutdown().await;
}

#[tokio::test]
async fn lobby_reads_have_their_own_stricter_rate() {
    let server = start_server_with(Config {
        list_rate: Rate::new(2, 3),
        ..Config::for_tests()
    })
    .await;
    let mut client = Client::connect(&server, "lister").await;
    client.hello().await;
    client.list().await;
    client.list().await;
    let req = client.req();
    client
        .send(ClientMsg::List {
            finished: false,
            limit: None,
            cursor: None,
            req: Some(req),
        })
        .await;
    let refusal = client.expect_msg().await;
    let ms = retry_after(&refusal, Some(req));
    assert!((1..=500).contains(&ms), "two a second: wait {ms} ms");
    // Other requests are not held back by it.
    client.assert_pong().await;
    client.create(Create::synergy(Value::Null)).await;
    tokio::time::sleep(Duration::from_millis(ms)).await;
    client.list().await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_refused_create_does_nothing_and_waiting_as_told_is_enough() {
    let server = start_server_with(Config {
        create_rate: Rate::new(2, 1),
        ..Config::for_tests()
    })
    .await;
    let mut host = Client::connect(&server, "host").await;
    let first = host.create(Create::synergy(Value::Null)).await;
    let req = host.req();
    host.send(Create::synergy(Value::Null).message(Some(req)))
        .await;
    let ms = retry_after(&host.expect_msg().await, Some(req));
    assert!((1..=500).contains(&ms), "two a second: wait {ms} ms");
    let listed: Vec<String> = host.list().await.into_iter().map(|b| b.battle_id).collect();
    assert_eq!(listed, vec![first], "the refused create made no battle");
    tokio::time::sleep(Duration::from_millis(ms)).await;
    host.create(Create::synergy(Value::Null)).await;
    server.shutdown().await;
}

/// A masked client ping frame with an empty payload.
const PING_FRAME: [u8; 6] = [0x89, 0x80, 1, 2, 3, 4];

#[tokio::test]
async fn a_ping_frame_flood_is_limited_and_closed_with_1008() {
    let server = start_server_with(Config {
        message_rate: Rate::new(100, 50),
        flood_refusals: 20,
        ..Config::for_tests()
    })
    .await;
    let tcp = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("tcp connect");
    let (ws, _) = tokio_tungstenite::client_async(server.url(), tcp)
        .await
        .expect("websocket handshake");
    let mut socket = ws.into_inner();
    // Twelve times the burst, and still within one read of the server's (4 KiB): it closes
    // with nothing left unread, so the kernel ends the connection with a FIN, not a reset
    // that could overtake the close frame.
    const PINGS: usize = 600;
    let started = Instant::now();
    socket
        .write_all(&PING_FRAME.repeat(PINGS))
        .await
        .expect("write the pings");

    // Server frames here are short (a two-byte header): pongs, then the close frame.
    let (mut got, mut buf, mut at, mut pongs) = (Vec::new(), [0u8; 4096], 0, 0usize);
    let close_code = 'read: loop {
        let n = tokio::time::timeout(TIMEOUT, socket.read(&mut buf))
            .await
            .expect("the server answers in time")
            .expect("read");
        assert!(n > 0, "the connection ended without a close frame");
        got.extend_from_slice(&buf[..n]);
        while got.len() >= at + 2 && got.len() >= at + 2 + usize::from(got[at + 1]) {
            match got[at] {
                0x8A => pongs += 1,
                0x88 => break 'read u16::from_be_bytes([got[at + 2], got[at + 3]]),
                other => panic!("unexpected frame {other:#04x}"),
            }
            at += 2 + usize::from(got[at + 1]);
        }
    };
    let elapsed = started.elapsed().as_secs_f64();
    let allowed = 51 + (100.0 * elapsed).ceil() as usize;
    assert!(
        (50..=allowed).contains(&pongs),
        "{pongs} pongs for {PINGS} pings: the burst of 50, then 100 a second ({elapsed:.3} s)"
    );
    assert_eq!(close_code, 1008, "a ping flood is a policy violation");
    server.shutdown().await;
}
