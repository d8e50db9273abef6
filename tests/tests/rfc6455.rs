//! RFC 6455 to the letter, over raw TCP with frames and handshakes written by hand: close
//! codes and close reasons, a length with its top bit set, invalid UTF-8 in a fragmented
//! message (refused before its last fragment), malformed opening handshakes (answered in
//! HTTP), and sockets that never finish their handshake (closed within the timeout).

use std::time::{Duration, Instant};

use battle_e2e::battle_server::{Config, RunningServer};
use battle_e2e::{start_server, start_server_with, Client, TIMEOUT};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A valid opening handshake request, as RFC 6455 §1.3 shows it.
const HANDSHAKE: &str = "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n\
                         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                         Sec-WebSocket-Version: 13\r\n\r\n";

/// The handshake timeout of the servers that test it: short, so the tests are quick.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_millis(300);

/// Open a WebSocket by hand: the raw socket, past the server's `101` answer.
async fn open(server: &RunningServer) -> TcpStream {
    let mut socket = TcpStream::connect(server.addr).await.expect("tcp connect");
    socket
        .write_all(HANDSHAKE.as_bytes())
        .await
        .expect("write the handshake");
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    // Byte by byte, so that nothing after the answer's blank line is taken.
    while !answer.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(TIMEOUT, socket.read(&mut byte))
            .await
            .expect("the handshake is answered in time")
            .expect("read");
        assert_eq!(n, 1, "the server closed during the handshake: {answer:?}");
        answer.push(byte[0]);
    }
    let answer = String::from_utf8(answer).expect("an ASCII answer");
    assert!(answer.starts_with("HTTP/1.1 101 "), "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("\r\nsec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo=\r\n"),
        "{answer}"
    );
    socket
}

/// A masked client frame: `first` byte (FIN, opcode) and `payload`, any length.
fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x37, 0xFA, 0x21, 0x3D];
    let mut out = vec![first];
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= 0xFFFF => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// A close frame's body: `code`, then `reason`.
fn close_body(code: u16, reason: &[u8]) -> Vec<u8> {
    [&code.to_be_bytes()[..], reason].concat()
}

/// One frame the server sent: opcode and payload.
struct ServerFrame {
    opcode: u8,
    payload: Vec<u8>,
}

/// Read server frames (never masked) until `want` accepts one; fails if the connection ends
/// first or nothing comes in time.
async fn read_until(socket: &mut TcpStream, want: impl Fn(&ServerFrame) -> bool) -> ServerFrame {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let mut at = 0;
        while let Some((frame, len)) = parse_server_frame(&got[at..]) {
            at += len;
            if want(&frame) {
                return frame;
            }
        }
        let n = tokio::time::timeout(TIMEOUT, socket.read(&mut buf))
            .await
            .expect("the server answers in time")
            .expect("read");
        assert!(n > 0, "the connection ended before the frame looked for");
        got.extend_from_slice(&buf[..n]);
    }
}

/// The server frame at the start of `bytes` and its length, if it is all there.
fn parse_server_frame(bytes: &[u8]) -> Option<(ServerFrame, usize)> {
    let [first, second, ..] = *bytes else {
        return None;
    };
    assert_eq!(second & 0x80, 0, "server frames are not masked");
    let (len, head) = match second & 0x7F {
        126 => (
            usize::from(u16::from_be_bytes(bytes.get(2..4)?.try_into().ok()?)),
            4,
        ),
        127 => (
            u64::from_be_bytes(bytes.get(2..10)?.try_into().ok()?) as usize,
            10,
        ),
        short => (usize::from(short), 2),
    };
    let payload = bytes.get(head..head + len)?.to_vec();
    let frame = ServerFrame {
        opcode: first & 0x0F,
        payload,
    };
    Some((frame, head + len))
}

/// The code of the server's close frame (1005 when it has none).
async fn close_code(socket: &mut TcpStream) -> u16 {
    let close = read_until(socket, |f| f.opcode == 0x8).await;
    match close.payload[..] {
        [high, low, ..] => u16::from_be_bytes([high, low]),
        _ => 1005,
    }
}

/// Open a WebSocket, send `bytes`, and read the server's close code.
async fn close_code_after(server: &RunningServer, bytes: &[u8]) -> u16 {
    let mut socket = open(server).await;
    socket.write_all(bytes).await.expect("write");
    close_code(&mut socket).await
}

#[tokio::test]
async fn close_codes_no_endpoint_may_send_are_answered_with_1002() {
    let server = start_server().await;
    for code in [
        0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535,
    ] {
        let bytes = frame(0x88, &close_body(code, b""));
        assert_eq!(
            close_code_after(&server, &bytes).await,
            1002,
            "close code {code}"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn valid_close_codes_are_answered_with_1000() {
    let server = start_server().await;
    for code in [
        1000, 1001, 1003, 1007, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999,
    ] {
        let bytes = frame(0x88, &close_body(code, "au revoir é".as_bytes()));
        assert_eq!(
            close_code_after(&server, &bytes).await,
            1000,
            "close code {code}"
        );
    }
    assert_eq!(
        close_code_after(&server, &frame(0x88, b"")).await,
        1000,
        "an empty close frame"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_broken_close_body_is_answered_with_1007_or_1002() {
    let server = start_server().await;
    let not_utf8 = frame(0x88, &close_body(1000, &[b'o', b'k', 0xC3, 0x28]));
    assert_eq!(
        close_code_after(&server, &not_utf8).await,
        1007,
        "a reason that is not UTF-8"
    );
    assert_eq!(
        close_code_after(&server, &frame(0x88, &[0x03])).await,
        1002,
        "a 1-byte body"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_length_with_its_top_bit_set_is_answered_with_1002() {
    let server = start_server().await;
    for length in [1u64 << 63, u64::MAX] {
        let mut head = vec![0x81, 0x80 | 127];
        head.extend_from_slice(&length.to_be_bytes());
        head.extend_from_slice(&[1, 2, 3, 4]);
        assert_eq!(
            close_code_after(&server, &head).await,
            1002,
            "length {length:#x}"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn invalid_utf8_in_a_fragmented_text_is_refused_before_its_last_fragment() {
    let server = start_server().await;
    // The last fragment is never sent: the answer must come without it.
    let cases: [(&str, Vec<u8>); 2] = [
        ("an invalid byte", vec![b'"', 0xFF]),
        ("a broken sequence", vec![0xE2, 0x28, 0xA1]),
    ];
    for (what, bad) in cases {
        let mut socket = open(&server).await;
        let bytes = [
            frame(0x01, br#"{"type":"ping","#),
            frame(0x00, br#""pad":"#),
            frame(0x00, &bad),
        ]
        .concat();
        socket.write_all(&bytes).await.expect("write");
        assert_eq!(close_code(&mut socket).await, 1007, "{what}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_character_cut_between_fragments_is_fine() {
    let server = start_server().await;
    let mut socket = open(&server).await;
    let text = r#"{"type":"ping","req":41,"pad":"é😀"}"#.as_bytes();
    let e = text.iter().position(|&b| b == 0xC3).expect("é");
    let smile = e + 3;
    let bytes = [
        frame(0x01, &text[..e + 1]),
        frame(0x00, &text[e + 1..smile + 1]),
        frame(0x00, &text[smile + 1..smile + 3]),
        frame(0x80, &text[smile + 3..]),
    ]
    .concat();
    socket.write_all(&bytes).await.expect("write");
    let answer = read_until(&mut socket, |f| f.opcode == 0x1).await;
    let answer = String::from_utf8(answer.payload).expect("UTF-8");
    assert!(answer.contains(r#""req":41"#), "{answer}");
    server.shutdown().await;
}

/// Send `request` on a fresh TCP connection and read the whole answer, until the server
/// closes the connection.
async fn http_answer(server: &RunningServer, request: &str) -> String {
    let mut socket = TcpStream::connect(server.addr).await.expect("tcp connect");
    socket.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(TIMEOUT, socket.read_to_end(&mut answer)).await;
    read.expect("the server answers and closes in time")
        .expect("read");
    String::from_utf8(answer).expect("a text answer")
}

/// The answer's body (after the blank line).
fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

#[tokio::test]
async fn malformed_handshakes_are_answered_400_or_426() {
    let server = start_server().await;
    let valid = HANDSHAKE;
    let cases: Vec<(&str, String, u16)> = vec![
        (
            "no version",
            valid.replace("Sec-WebSocket-Version: 13\r\n", ""),
            426,
        ),
        (
            "version 8",
            valid.replace("Sec-WebSocket-Version: 13", "Sec-WebSocket-Version: 8"),
            426,
        ),
        (
            "no key",
            valid.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", ""),
            400,
        ),
        (
            "a key that is not 16 bytes",
            valid.replace("dGhlIHNhbXBsZSBub25jZQ==", "c2hvcnQ="),
            400,
        ),
        ("POST", valid.replace("GET /", "POST /"), 400),
        (
            "no Upgrade header",
            valid.replace("Upgrade: websocket\r\n", ""),
            400,
        ),
        (
            "no Connection: Upgrade",
            valid.replace("Connection: Upgrade", "Connection: keep-alive"),
            400,
        ),
        ("HTTP/1.0", valid.replace("HTTP/1.1", "HTTP/1.0"), 400),
        ("not HTTP", "hello there\r\n\r\n".to_string(), 400),
    ];
    for (what, request, status) in cases {
        let answer = http_answer(&server, &request).await;
        // An HTTP/1.0 request is answered in HTTP/1.0.
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} "))
                || answer.starts_with(&format!("HTTP/1.0 {status} ")),
            "{what}: {answer}"
        );
        // A request hyper cannot parse as HTTP gets its bare 400; every WebSocket opening
        // that is wrong is told why.
        if what != "not HTTP" {
            assert!(body(&answer).trim().len() > 10, "{what}: a body says why");
        }
        if status == 426 {
            // Header names are case-insensitive (hyper writes them in lower case).
            assert!(
                answer
                    .to_ascii_lowercase()
                    .contains("\r\nsec-websocket-version: 13\r\n"),
                "{what}: {answer}"
            );
        }
    }
    // The server still speaks WebSocket to everyone else.
    let mut client = Client::connect(&server, "after").await;
    client.assert_pong().await;
    server.shutdown().await;
}

/// A server whose handshake timeout is [`HANDSHAKE_TIMEOUT`].
async fn impatient_server() -> RunningServer {
    start_server_with(Config {
        handshake_timeout: HANDSHAKE_TIMEOUT,
        ..Config::for_tests()
    })
    .await
}

/// Read until the server ends the connection (a reset counts); what was read, and when the
/// end came.
async fn read_until_closed(socket: &mut tokio::net::tcp::OwnedReadHalf) -> (String, Instant) {
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let read = tokio::time::timeout(TIMEOUT, socket.read(&mut buf))
            .await
            .expect("the server closes the connection in time");
        match read {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let answer = String::from_utf8(answer).expect("a text answer");
    (answer, Instant::now())
}

#[tokio::test]
async fn a_silent_socket_is_closed_within_the_handshake_timeout() {
    let server = impatient_server().await;
    let start = Instant::now();
    let socket = TcpStream::connect(server.addr).await.expect("tcp connect");
    let (mut read, _write) = socket.into_split();
    let (answer, closed) = read_until_closed(&mut read).await;
    let waited = closed - start;
    assert!(
        waited >= HANDSHAKE_TIMEOUT - Duration::from_millis(50),
        "closed after {waited:?}, before the timeout"
    );
    assert!(answer.is_empty(), "{answer}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_trickling_handshake_is_closed_within_the_handshake_timeout() {
    let server = impatient_server().await;
    let socket = TcpStream::connect(server.addr).await.expect("tcp connect");
    let (mut read, mut write) = socket.into_split();
    // One byte every 50 ms: the whole request would take several seconds.
    let trickle = tokio::spawn(async move {
        let mut sent = 0;
        for byte in HANDSHAKE.bytes() {
            if write.write_all(&[byte]).await.is_err() {
                break;
            }
            sent += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        sent
    });
    let (answer, _) = read_until_closed(&mut read).await;
    assert!(answer.is_empty(), "{answer}");
    let sent = trickle.await.expect("the trickle ends");
    assert!(
        sent < HANDSHAKE.len(),
        "the connection was closed before its request was whole"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_handshake_timeout_does_not_touch_open_websockets() {
    let server = impatient_server().await;
    let mut client = Client::connect(&server, "patient").await;
    tokio::time::sleep(HANDSHAKE_TIMEOUT * 2).await;
    client.assert_pong().await;
    server.shutdown().await;
}
