//! Open-battle quotas: a connection, and a client address, may have only so many battles
//! created and not yet under way; battles nobody joins expire quickly; creates have a rate
//! per connection and per address. A flood of creates from one client leaves room for
//! everyone else.
//!
//! Clients from "another address" connect from 127.0.0.2 (any 127.x address is loopback on
//! Linux).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use battle_e2e::battle_client::Connection;
use battle_e2e::battle_server::config::Rate;
use battle_e2e::battle_server::RunningServer;
use battle_e2e::{start_server_with, Client, Create, TIMEOUT};
use battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_server::Config;
use serde_json::Value;

/// A client whose connection comes from `127.0.0.<last>`.
async fn connect_from(server: &RunningServer, name: &str, last: u8) -> Client {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    let source = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)), 0);
    socket.bind(source).expect("bind a loopback source address");
    let stream = tokio::time::timeout(TIMEOUT, socket.connect(server.addr))
        .await
        .expect("connect in time")
        .expect("connect");
    let conn = Connection::connect_over(&server.url(), stream)
        .await
        .expect("handshake");
    // The helpers' client, over the connection from that address.
    let mut client = Client::connect(server, name).await;
    let unused = std::mem::replace(&mut client.conn, conn);
    let _ = unused.close().await;
    client
}

/// Send `create` for a PvE synergy battle; the reply.
async fn try_create(client: &mut Client) -> ServerMsg {
    let req = client.req();
    client.send(create_msg(Some(req))).await;
    client.expect_msg().await
}

fn create_msg(req: Option<u64>) -> ClientMsg {
    ClientMsg::Create {
        ruleset: "synergy".into(),
        options: None,
        bots: Vec::new(),
        private: false,
        pace_ms: Some(0),
        grace_ms: None,
        seed: None,
        spectator_delay_ms: None,
        timer: None,
        req,
    }
}

/// The refusal's message, which must carry `code`.
fn refused(reply: ServerMsg, code: ErrorCode) -> String {
    match reply {
        ServerMsg::Error {
            code: got, message, ..
        } => {
            assert_eq!(got, code, "{message}");
            message
        }
        other => panic!("expected error {code}, got {other:?}"),
    }
}

/// Create until the server accepts (a released quota is seen a moment after the battle got
/// under way), within a bounded number of tries.
async fn create_soon(client: &mut Client) -> String {
    for _ in 0..100 {
        match try_create(client).await {
            ServerMsg::Created { battle_id, .. } => return battle_id,
            ServerMsg::Error {
                code: ErrorCode::ServerBusy,
                ..
            } => tokio::time::sleep(Duration::from_millis(20)).await,
            other => panic!("{}: expected created, got {other:?}", client.name),
        }
    }
    panic!("{}: still refused after 2 s", client.name);
}

#[tokio::test]
async fn a_connection_holds_at_most_its_quota_of_open_battles() {
    let server = start_server_with(Config {
        max_open_battles_per_connection: 2,
        ..Config::for_tests()
    })
    .await;
    let mut host = Client::connect(&server, "host").await;
    let first = host.create(Create::synergy(Value::Null)).await;
    host.create(Create::synergy(Value::Null)).await;
    let message = refused(try_create(&mut host).await, ErrorCode::ServerBusy);
    assert!(
        message.contains("this connection") && message.contains('2'),
        "the refusal names the quota: {message}"
    );

    // Another connection has a quota of its own.
    let mut other = Client::connect(&server, "other").await;
    other.create(Create::synergy(Value::Null)).await;

    // Once a battle is under way (its player joined: it started), it no longer counts.
    let mut player = Client::connect(&server, "player").await;
    player.join(&first, None).await;
    create_soon(&mut host).await;
    refused(try_create(&mut host).await, ErrorCode::ServerBusy);
    server.shutdown().await;
}

#[tokio::test]
async fn battles_filled_by_bots_count_until_someone_watches() {
    let server = start_server_with(Config {
        max_open_battles_per_connection: 1,
        ..Config::for_tests()
    })
    .await;
    let mut host = Client::connect(&server, "host").await;
    let bots = host
        .create(Create::synergy(Value::Null).bots(vec![0, 1]).pace_ms(50))
        .await;
    refused(try_create(&mut host).await, ErrorCode::ServerBusy);
    let mut watcher = Client::connect(&server, "watcher").await;
    watcher.spectate(&bots).await;
    create_soon(&mut host).await;
    server.shutdown().await;
}

#[tokio::test]
async fn an_address_holds_at_most_its_quota_and_other_addresses_are_not_affected() {
    let server = start_server_with(Config {
        max_open_battles_per_connection: 10,
        max_open_battles_per_ip: 3,
        ..Config::for_tests()
    })
    .await;
    let mut a = connect_from(&server, "a", 1).await;
    let mut b = connect_from(&server, "b", 1).await;
    a.create(Create::synergy(Value::Null)).await;
    a.create(Create::synergy(Value::Null)).await;
    let third = b.create(Create::synergy(Value::Null)).await;
    let message = refused(try_create(&mut b).await, ErrorCode::ServerBusy);
    assert!(
        message.contains("127.0.0.1") && message.contains('3'),
        "the refusal names the address's quota: {message}"
    );
    refused(try_create(&mut a).await, ErrorCode::ServerBusy);

    let mut elsewhere = connect_from(&server, "elsewhere", 2).await;
    elsewhere.create(Create::synergy(Value::Null)).await;

    // A battle under way gives the address its room back.
    let mut player = connect_from(&server, "player", 2).await;
    player.join(&third, None).await;
    create_soon(&mut a).await;
    server.shutdown().await;
}

#[tokio::test]
async fn unjoined_battles_expire_after_the_unjoined_ttl_and_free_their_quota() {
    let server = start_server_with(Config {
        unjoined_ttl: Duration::from_millis(300),
        max_open_battles_per_connection: 2,
        ..Config::for_tests()
    })
    .await;
    let mut host = Client::connect(&server, "host").await;
    let created = Instant::now();
    let nobody = host.create(Create::synergy(Value::Null)).await;
    let watched = host.create(Create::synergy(Value::Null)).await;
    let mut watcher = Client::connect(&server, "watcher").await;
    watcher.spectate(&watched).await;

    let mut gone = false;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if !host.list().await.iter().any(|b| b.battle_id == nobody) {
            gone = true;
            break;
        }
    }
    assert!(
        gone,
        "a battle nobody joined is gone within 2 s (ttl 300 ms)"
    );
    assert!(
        created.elapsed() >= Duration::from_millis(300),
        "not before its ttl"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        host.list().await.iter().any(|b| b.battle_id == watched),
        "a watched battle lives on (the idle ttl is ten minutes)"
    );
    // The expired battle gave its place back: one more create is accepted (the watched
    // battle still waits for a player, so it still counts).
    host.create(Create::synergy(Value::Null)).await;
    refused(try_create(&mut host).await, ErrorCode::ServerBusy);
    server.shutdown().await;
}

#[tokio::test]
async fn a_create_flood_leaves_room_for_everyone_else() {
    // Room for 300 battles; without quotas, the flood below (3 × 300 creates) fills it.
    let server = start_server_with(Config {
        max_battles: 300,
        max_open_battles_per_ip: 100,
        ..Config::for_tests()
    })
    .await;
    const FLOODERS: usize = 3;
    const CREATES: u64 = 300;
    let url = server.url();
    let floods = (0..FLOODERS).map(|i| {
        let url = url.clone();
        async move {
            let mut flooder = Client::connect_url(&url, &format!("flooder{i}")).await;
            // Every create sent at once, then every answer read.
            for req in 0..CREATES {
                flooder.send(create_msg(Some(req))).await;
            }
            let (mut created, mut busy) = (0u64, 0u64);
            for _ in 0..CREATES {
                match flooder.expect_msg().await {
                    ServerMsg::Created { .. } => created += 1,
                    ServerMsg::Error {
                        code: ErrorCode::ServerBusy,
                        ..
                    } => busy += 1,
                    other => panic!("flooder{i}: unexpected {other:?}"),
                }
            }
            (created, busy)
        }
    });
    let results = futures::future::join_all(floods).await;
    let created: u64 = results.iter().map(|(created, _)| created).sum();
    let busy: u64 = results.iter().map(|(_, busy)| busy).sum();
    assert!(
        created <= 100,
        "the flooders' address holds at most its quota: {created} created"
    );
    assert_eq!(created + busy, FLOODERS as u64 * CREATES);
    for (created, _) in &results {
        assert!(
            *created <= 64,
            "each connection holds at most its own quota"
        );
    }

    // Someone else, from another address, creates and plays as usual.
    let mut other = connect_from(&server, "other", 2).await;
    let battle = other.create(Create::synergy(Value::Null)).await;
    other.join(&battle, None).await;
    // From the flooders' own address, a new connection is refused: their flood spent the
    // address's quota (and only that).
    let mut neighbour = Client::connect(&server, "neighbour").await;
    refused(try_create(&mut neighbour).await, ErrorCode::ServerBusy);
    server.shutdown().await;
}

#[tokio::test]
async fn creates_have_a_rate_per_connection_and_per_address() {
    let server = start_server_with(Config {
        create_rate: Rate::new(1, 2),
        ip_create_rate: Rate::new(1, 3),
        ..Config::for_tests()
    })
    .await;
    let mut a = connect_from(&server, "a", 1).await;
    let mut b = connect_from(&server, "b", 1).await;
    a.create(Create::synergy(Value::Null)).await;
    a.create(Create::synergy(Value::Null)).await;
    let reply = try_create(&mut a).await;
    let retry = match &reply {
        ServerMsg::Error {
            code: ErrorCode::RateLimited,
            retry_after_ms: Some(ms),
            ..
        } => *ms,
        other => panic!("expected rate_limited with retry_after_ms, got {other:?}"),
    };
    assert!(
        (1..=1000).contains(&retry),
        "one create a second: {retry} ms"
    );
    let message = refused(reply, ErrorCode::RateLimited);
    assert!(message.contains("creates"), "{message}");

    b.create(Create::synergy(Value::Null)).await;
    let message = refused(try_create(&mut b).await, ErrorCode::RateLimited);
    assert!(
        message.contains("your address"),
        "the address's bucket is spent: {message}"
    );
    let mut elsewhere = connect_from(&server, "elsewhere", 2).await;
    elsewhere.create(Create::synergy(Value::Null)).await;

    // Waiting as told is enough (with a moment more: the address's bucket, checked just
    // after the connection's, emptied a few microseconds later).
    tokio::time::sleep(Duration::from_millis(retry + 20)).await;
    a.create(Create::synergy(Value::Null)).await;
    server.shutdown().await;
}
