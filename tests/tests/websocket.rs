//! The WebSocket layer itself (RFC 6455), below the JSON protocol: pings, fragments, closing,
//! frames that break the protocol, and many frames arriving in one read.

use battle_e2e::battle_server::RunningServer;
use battle_e2e::{start_server, TIMEOUT};
use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::WebSocketStream;

type Ws = WebSocketStream<TcpStream>;

async fn connect(server: &RunningServer) -> Ws {
    let tcp = TcpStream::connect(server.addr).await.expect("tcp connect");
    let (ws, _) = tokio_tungstenite::client_async(server.url(), tcp)
        .await
        .expect("websocket handshake");
    ws
}

/// The next message, within the time limit.
async fn next(ws: &mut Ws) -> Message {
    tokio::time::timeout(TIMEOUT, ws.next())
        .await
        .expect("an answer in time")
        .expect("the stream is open")
        .expect("a valid frame")
}

/// The `req` of the next text message, which must be a `pong`.
async fn next_pong_req(ws: &mut Ws) -> u64 {
    match next(ws).await {
        Message::Text(text) => {
            let msg: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(msg["type"], "pong", "{msg}");
            msg["req"].as_u64().expect("req echoed")
        }
        other => panic!("expected a pong message, got {other:?}"),
    }
}

#[tokio::test]
async fn pings_are_answered_and_fragments_are_gathered() {
    let server = start_server().await;
    let mut ws = connect(&server).await;
    ws.send(Message::Ping(Bytes::from_static(b"are you there")))
        .await
        .expect("send ping");
    match next(&mut ws).await {
        Message::Pong(payload) => assert_eq!(&payload[..], b"are you there"),
        other => panic!("expected a pong frame, got {other:?}"),
    }
    // `{"type":"ping","req":7}` in three fragments, with a WebSocket ping in between.
    let part = |text: &'static str, opcode, fin| {
        Message::Frame(Frame::message(
            Bytes::from_static(text.as_bytes()),
            opcode,
            fin,
        ))
    };
    for message in [
        part(r#"{"type":"#, OpCode::Data(Data::Text), false),
        Message::Ping(Bytes::from_static(b"between")),
        part(r#""ping","#, OpCode::Data(Data::Continue), false),
        part(r#""req":7}"#, OpCode::Data(Data::Continue), true),
    ] {
        ws.feed(message).await.expect("send");
    }
    ws.flush().await.expect("flush");
    assert!(matches!(next(&mut ws).await, Message::Pong(_)));
    assert_eq!(next_pong_req(&mut ws).await, 7);
    server.shutdown().await;
}

#[tokio::test]
async fn many_frames_in_one_write_are_answered_in_order() {
    let server = start_server().await;
    let mut ws = connect(&server).await;
    // Small frames and frames larger than one read, all queued before one flush.
    let pad = "x".repeat(9000);
    for req in 0..60u64 {
        let text = if req % 10 == 9 {
            format!(r#"{{"type":"ping","req":{req},"pad":"{pad}"}}"#)
        } else {
            format!(r#"{{"type":"ping","req":{req}}}"#)
        };
        ws.feed(Message::text(text)).await.expect("queue");
    }
    ws.flush().await.expect("flush");
    for req in 0..60u64 {
        match next(&mut ws).await {
            Message::Text(text) => {
                let msg: Value = serde_json::from_str(&text).expect("JSON");
                assert_eq!(msg["req"], req, "answers keep the order: {msg}");
                let kind = if req % 10 == 9 { "error" } else { "pong" };
                assert_eq!(msg["type"], kind, "{msg}");
            }
            other => panic!("expected a text answer, got {other:?}"),
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_close_frame_is_answered_with_a_close_frame() {
    let server = start_server().await;
    let mut ws = connect(&server).await;
    ws.send(Message::Close(None)).await.expect("send close");
    match next(&mut ws).await {
        Message::Close(Some(frame)) => assert_eq!(frame.code, CloseCode::Normal),
        other => panic!("expected a close frame, got {other:?}"),
    }
    server.shutdown().await;
}

/// Open a WebSocket and hand back its raw socket, to write frames no library would.
async fn raw_socket(server: &RunningServer) -> TcpStream {
    connect(server).await.into_inner()
}

/// A client frame built by hand: `first` byte, masked or not.
fn frame_bytes(first: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    assert!(payload.len() < 126, "short frames only");
    let mask = [9, 8, 7, 6];
    let mut out = vec![first, payload.len() as u8 | if masked { 0x80 } else { 0 }];
    if masked {
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// Send `bytes`, then read until the server's close frame; its close code.
async fn close_code_after(server: &RunningServer, bytes: &[u8]) -> u16 {
    let mut socket = raw_socket(server).await;
    socket.write_all(bytes).await.expect("write");
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let n = tokio::time::timeout(TIMEOUT, socket.read(&mut buf))
            .await
            .expect("the server answers in time")
            .expect("read");
        assert!(
            n > 0,
            "the connection ended without a close frame: {got:02x?}"
        );
        got.extend_from_slice(&buf[..n]);
        // Server frames here are short: opcode byte, length byte, payload.
        let mut at = 0;
        while got.len() >= at + 2 && got.len() >= at + 2 + usize::from(got[at + 1]) {
            let len = usize::from(got[at + 1]);
            if got[at] == 0x88 {
                return u16::from_be_bytes([got[at + 2], got[at + 3]]);
            }
            at += 2 + len;
        }
    }
}

#[tokio::test]
async fn frames_that_break_the_protocol_close_with_the_right_code() {
    let server = start_server().await;
    let ping = br#"{"type":"ping"}"#;
    assert_eq!(
        close_code_after(&server, &frame_bytes(0x81, ping, false)).await,
        1002,
        "an unmasked client frame"
    );
    assert_eq!(
        close_code_after(&server, &frame_bytes(0xC1, ping, true)).await,
        1002,
        "a reserved bit set"
    );
    assert_eq!(
        close_code_after(&server, &frame_bytes(0x83, ping, true)).await,
        1002,
        "an unknown opcode"
    );
    assert_eq!(
        close_code_after(&server, &frame_bytes(0x81, &[b'"', 0xC3, 0x28, b'"'], true)).await,
        1007,
        "text that is not UTF-8"
    );
    server.shutdown().await;
}
