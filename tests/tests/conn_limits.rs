//! The connection caps: a flood of connections from one address is held to the per-address
//! cap and every connection over it is refused with HTTP 503 (a body saying why, and
//! `Retry-After`) before any WebSocket exists; the total cap refuses every address alike
//! and counts connections still in their handshake; places given back are free again.
//! Loopback has a whole /8, so the tests connect from 127.0.0.1, .2 and .3.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use battle_e2e::battle_server::{Config, RunningServer};
use battle_e2e::{start_server_with, TIMEOUT};
use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

type Ws = WebSocketStream<TcpStream>;

/// A WebSocket opening request, as a client sends it.
const UPGRADE: &str = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n\
                       Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                       Sec-WebSocket-Version: 13\r\n\r\n";

fn loopback(last: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
}

/// A TCP connection to `server` from the address `from`.
async fn tcp_from(from: IpAddr, server: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::new(from, 0))
        .expect("bind a loopback address");
    tokio::time::timeout(TIMEOUT, socket.connect(server))
        .await
        .expect("connect in time")
        .expect("connect")
}

/// A WebSocket to `server` from `from`, which must be accepted.
async fn ws_from(from: IpAddr, server: &RunningServer) -> Ws {
    let tcp = tcp_from(from, server.addr).await;
    let (ws, _) = tokio::time::timeout(TIMEOUT, tokio_tungstenite::client_async(server.url(), tcp))
        .await
        .expect("a handshake in time")
        .expect("the upgrade is accepted");
    ws
}

/// Ask for the upgrade over `tcp` (unless `ask` is false) and read the whole answer,
/// which must be a refusal: the server closes the connection after it.
async fn refusal(mut tcp: TcpStream, ask: bool) -> String {
    if ask {
        tcp.write_all(UPGRADE.as_bytes())
            .await
            .expect("send the request");
    }
    let mut answer = Vec::new();
    tokio::time::timeout(TIMEOUT, tcp.read_to_end(&mut answer))
        .await
        .expect("the refusal and the close come in time")
        .expect("read the refusal");
    String::from_utf8(answer).expect("a plain-text answer")
}

/// The answer must be a 503 naming `code`, with `Retry-After`.
fn assert_503(answer: &str, code: &str) {
    assert!(
        answer.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
        "{answer}"
    );
    assert!(answer.contains("\r\nRetry-After: "), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).expect("a body");
    assert!(body.starts_with(code), "the body says why: {body}");
}

/// The WebSocket still works: a `ping` message gets its `pong`.
async fn assert_alive(ws: &mut Ws) {
    ws.send(Message::text(r#"{"type":"ping","req":1}"#))
        .await
        .expect("send ping");
    let answer = tokio::time::timeout(TIMEOUT, ws.next())
        .await
        .expect("an answer in time")
        .expect("the stream is open")
        .expect("a valid frame");
    assert!(
        answer.to_text().expect("text").contains(r#""type":"pong""#),
        "{answer:?}"
    );
}

/// Wait (bounded) until the server counts `open` connections.
async fn until_open(server: &RunningServer, open: usize) {
    for _ in 0..500 {
        if server.limits().open() == open {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "the server counts {} connections, not {open}",
        server.limits().open()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_one_address_is_capped_and_refused_with_503() {
    const CAP: usize = 50;
    const FLOOD: usize = 5_000;
    /// Refusals asked for at once (within what the server writes at once).
    const AT_ONCE: usize = 32;
    let server = start_server_with(Config {
        max_connections_per_ip: CAP,
        ..Config::for_tests()
    })
    .await;
    let flooder = loopback(1);
    let mut held = Vec::new();
    for _ in 0..CAP {
        held.push(ws_from(flooder, &server).await);
    }
    assert_eq!(server.limits().open_from(flooder), CAP);

    let mut refused = 0;
    for _ in 0..FLOOD.div_ceil(AT_ONCE) {
        let batch: Vec<_> = (0..AT_ONCE)
            .map(|_| {
                let addr = server.addr;
                tokio::spawn(async move { refusal(tcp_from(flooder, addr).await, true).await })
            })
            .collect();
        for answer in batch {
            let answer = answer.await.expect("the task runs");
            assert_503(&answer, "too_many_connections_from_address");
            refused += 1;
        }
        assert!(server.limits().open_from(flooder) <= CAP);
    }
    assert!(refused >= FLOOD);
    assert_eq!(
        server.limits().open_from(flooder),
        CAP,
        "the flood holds no more"
    );

    // Another address is not held back, and the held connections still work.
    let mut other = ws_from(loopback(2), &server).await;
    assert_alive(&mut other).await;
    assert_alive(&mut held[0]).await;

    // A place given back is free again.
    drop(held.pop());
    until_open(&server, CAP).await;
    let mut again = ws_from(flooder, &server).await;
    assert_alive(&mut again).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_total_cap_refuses_every_address_and_counts_handshakes() {
    const CAP: usize = 20;
    let server = start_server_with(Config {
        max_connections: CAP,
        max_connections_per_ip: 1_000,
        ..Config::for_tests()
    })
    .await;
    // Half the places held by WebSockets, half by TCP connections that never speak (still
    // in their opening handshake).
    let mut sockets = Vec::new();
    for _ in 0..CAP / 2 {
        sockets.push(ws_from(loopback(1), &server).await);
    }
    let mut silent = Vec::new();
    for _ in 0..CAP / 2 {
        silent.push(tcp_from(loopback(2), server.addr).await);
    }
    until_open(&server, CAP).await;

    // Any address is refused now, even one that asks for nothing (answered after a short
    // wait for its request).
    let answer = refusal(tcp_from(loopback(3), server.addr).await, true).await;
    assert_503(&answer, "too_many_connections");
    assert!(!answer.contains("from_address"), "{answer}");
    let answer = refusal(tcp_from(loopback(1), server.addr).await, false).await;
    assert_503(&answer, "too_many_connections");
    assert_eq!(server.limits().open(), CAP);

    // The silent connections go: their places are free again.
    drop(silent);
    until_open(&server, CAP / 2).await;
    let mut newcomer = ws_from(loopback(3), &server).await;
    assert_alive(&mut newcomer).await;
    assert_alive(&mut sockets[0]).await;
    server.shutdown().await;
}
