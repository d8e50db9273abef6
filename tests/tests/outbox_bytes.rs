//! The memory-amplification attack on `list`: a client that asks for page after page of a
//! crowded lobby and never reads. Each request is a few dozen bytes and each answer tens of
//! kilobytes; the server must hold no more for it than its outbox byte bound (plus the one
//! frame offered while nothing was queued), then close it (1013) and free what it queued,
//! while everyone else is still answered.

use std::time::Duration;

use battle_e2e::battle_client::Connection;
use battle_e2e::battle_protocol::{ClientMsg, ServerMsg};
use battle_e2e::battle_server::{Config, RunningServer};
use battle_e2e::{create_in_lobby, start_server_with, Client, TIMEOUT};

/// The byte bound under test: far below what the attack asks for.
const OUTBOX_MAX_BYTES: usize = 256 * 1024;

/// Battles listed: ten full pages.
const BATTLES: usize = 2_000;

/// `list` requests the attacker sends at most (about 11 MB of answers asked for).
const REQUESTS: usize = 300;

/// A WebSocket whose TCP receive buffer is tiny, so what the server sends backs up at once
/// when nobody reads.
async fn stalled_connection(server: &RunningServer) -> Connection {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
    let tcp = socket.connect(server.addr).await.expect("tcp connect");
    Connection::connect_over(&server.url(), tcp)
        .await
        .expect("websocket handshake")
}

/// The largest page, as a frame on the wire (its text and at most a 10-byte header).
async fn page_frame_bytes(client: &mut Client) -> usize {
    let req = client.req();
    client
        .send(ClientMsg::List {
            finished: false,
            limit: Some(ClientMsg::LIST_LIMIT_MAX),
            cursor: None,
            req: Some(req),
        })
        .await;
    let (text, msg) = client.expect_frame().await;
    assert!(
        matches!(msg, ServerMsg::Battles { ref battles, .. } if battles.len() == 200),
        "a full page: {msg:?}"
    );
    text.len() + 10
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_lists_and_never_reads_is_held_to_the_byte_bound() {
    let config = Config {
        outbox_max_bytes: OUTBOX_MAX_BYTES,
        ..Config::for_tests()
    };
    let server = start_server_with(config).await;
    for _ in 0..BATTLES {
        create_in_lobby(&server, false);
    }
    let mut bystander = Client::connect(&server, "bystander").await;
    let page = page_frame_bytes(&mut bystander).await;
    // A little room for a `req` with more digits than the measured page's.
    let bound = OUTBOX_MAX_BYTES + page + 64;
    assert!(
        REQUESTS * page > 40 * OUTBOX_MAX_BYTES,
        "the attack asks for far more than the bound ({} bytes)",
        REQUESTS * page
    );

    let mut attacker = stalled_connection(&server).await;
    let mut most_seen = 0;
    let mut sent = 0;
    for n in 0..REQUESTS {
        let list = ClientMsg::List {
            finished: false,
            limit: Some(ClientMsg::LIST_LIMIT_MAX),
            cursor: None,
            req: Some(n as u64),
        };
        if attacker.send(&list).await.is_err() {
            // The server closed the connection: its sends fail from here on.
            break;
        }
        sent += 1;
        let queued = server.lobby().most_queued_bytes();
        most_seen = most_seen.max(queued);
        assert!(
            queued <= bound,
            "after {sent} requests a connection holds {queued} bytes, over the bound {bound}"
        );
        if n % 50 == 0 {
            // Give the server's reader time to route what was sent, so the queue fills.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    eprintln!("the attacker sent {sent} requests; the most a connection held: {most_seen} bytes");

    // Everyone else is still answered, at once.
    bystander.assert_pong().await;
    let listed = bystander.list_page(None, Some(10)).await;
    assert_eq!((listed.battles.len(), listed.total), (10, BATTLES));

    // The server let the attacker go: it counts only the bystander as connected, and holds
    // nothing queued for anyone.
    for _ in 0..100 {
        if server.lobby().connection_count() == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        server.lobby().connection_count(),
        1,
        "the attacker's connection was closed"
    );
    assert_eq!(server.lobby().most_queued_bytes(), 0);

    // What reached the attacker ends the stream: a close frame says 1013, if it got through.
    let mut received = 0;
    let code = loop {
        match attacker.recv_timeout(TIMEOUT).await {
            Ok(_) if received < REQUESTS => received += 1,
            Ok(_) => panic!("the attacker got more answers than it asked for"),
            Err(err) if err.is_closed() => {
                break match err {
                    battle_client::ClientError::Closed { code, .. } => code,
                    _ => None,
                }
            }
            Err(err) => panic!("the attacker's stream did not end: {err}"),
        }
    };
    assert!(
        received < REQUESTS,
        "the attacker was closed before it got every page"
    );
    assert!(matches!(code, None | Some(1013)), "closed with {code:?}");
    server.shutdown().await;
}
