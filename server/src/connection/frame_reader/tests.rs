//! Tests of `FrameReader` against frames written by tungstenite's own client side.

use std::io::{Read, Write};

use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame as WsFrame;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocket};
use tokio_tungstenite::tungstenite::{Bytes, Message};

use super::*;

/// A write-only stream collecting what a client WebSocket sends.
#[derive(Default)]
struct Wire(Vec<u8>);

impl Read for Wire {
    fn read(&mut self, _buf: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::WouldBlock.into())
    }
}

impl Write for Wire {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The bytes a client sends for `messages`.
fn client_bytes(messages: Vec<Message>) -> Vec<u8> {
    let mut ws = WebSocket::from_raw_socket(Wire::default(), Role::Client, None);
    for message in messages {
        ws.send(message).expect("writing into a Vec cannot fail");
    }
    std::mem::take(&mut ws.get_mut().0)
}

#[derive(Debug, PartialEq, Eq)]
enum Got {
    Text(String),
    Binary(Vec<u8>),
    Ping(Vec<u8>),
    Close(Option<u16>),
}

/// Feed `bytes` in pieces of `step` bytes; what came out, and how the last feed ended.
fn read_in_steps(bytes: &[u8], step: usize) -> (Vec<Got>, Result<Fed, ReadError>) {
    let mut reader = FrameReader::new(100_000);
    let mut got = Vec::new();
    let mut last = Ok(Fed::Done);
    for piece in bytes.chunks(step.max(1)) {
        let mut piece = piece.to_vec();
        last = reader.feed(&mut piece, |msg| {
            got.push(match msg {
                Inbound::Text(t) => Got::Text(t.to_string()),
                Inbound::Binary(b) => Got::Binary(b.to_vec()),
                Inbound::Ping(p) => Got::Ping(p.to_vec()),
                Inbound::Close(code) => Got::Close(code),
            });
            ControlFlow::Continue(())
        });
        if !matches!(last, Ok(Fed::Done)) {
            break;
        }
    }
    (got, last)
}

#[test]
fn text_of_every_length_class_arrives_whole_however_it_is_cut() {
    let texts: Vec<String> = [0, 1, 125, 126, 300, 65_535, 65_536, 90_000]
        .iter()
        .map(|&n| "é".repeat(n / 2) + &"a".repeat(n % 2))
        .collect();
    let bytes = client_bytes(texts.iter().map(|t| Message::text(t.clone())).collect());
    let expected: Vec<Got> = texts.into_iter().map(Got::Text).collect();
    for step in [1, 2, 3, 7, 100, 4096, bytes.len()] {
        let (got, last) = read_in_steps(&bytes, step);
        assert_eq!(last, Ok(Fed::Done));
        assert_eq!(got, expected, "cut every {step} bytes");
    }
}

#[test]
fn fragmented_messages_are_gathered_with_pings_between() {
    let part = |data: &str, opcode: OpCode, fin: bool| {
        Message::Frame(WsFrame::message(Bytes::from(data.to_string()), opcode, fin))
    };
    let bytes = client_bytes(vec![
        part("hel", OpCode::Data(Data::Text), false),
        Message::Ping(Bytes::from_static(b"p1")),
        part("lo ", OpCode::Data(Data::Continue), false),
        part("there", OpCode::Data(Data::Continue), true),
        part("bin", OpCode::Data(Data::Binary), false),
        part("ary", OpCode::Data(Data::Continue), true),
        Message::Pong(Bytes::from_static(b"ignored")),
        Message::text("after"),
    ]);
    for step in [1, 5, bytes.len()] {
        let (got, last) = read_in_steps(&bytes, step);
        assert_eq!(last, Ok(Fed::Done));
        assert_eq!(
            got,
            vec![
                Got::Ping(b"p1".to_vec()),
                Got::Text("hello there".into()),
                Got::Binary(b"binary".to_vec()),
                Got::Text("after".into()),
            ]
        );
    }
}

#[test]
fn a_close_frame_ends_reading() {
    let bytes = [
        client_bytes(vec![Message::text("last"), Message::Close(None)]),
        client_bytes(vec![Message::text("never read")]),
    ]
    .concat();
    let (got, last) = read_in_steps(&bytes, bytes.len());
    assert_eq!(last, Ok(Fed::Closed));
    assert_eq!(got, vec![Got::Text("last".into()), Got::Close(None)]);
}

#[test]
fn pausing_keeps_the_rest_for_the_next_feed() {
    let mut bytes = client_bytes(vec![
        Message::text("one"),
        Message::text("two"),
        Message::text("three"),
    ]);
    let mut reader = FrameReader::new(1000);
    let mut got = Vec::new();
    let pause = |t: Inbound<'_>, got: &mut Vec<String>| {
        if let Inbound::Text(t) = t {
            got.push(t.to_string());
        }
        ControlFlow::Break(())
    };
    let fed = reader.feed(&mut bytes, |m| pause(m, &mut got));
    assert_eq!(fed, Ok(Fed::Paused));
    assert_eq!(got, vec!["one"]);
    assert_eq!(
        reader.feed(&mut [], |m| pause(m, &mut got)),
        Ok(Fed::Paused)
    );
    assert_eq!(
        reader.feed(&mut [], |m| pause(m, &mut got)),
        Ok(Fed::Paused)
    );
    assert_eq!(reader.feed(&mut [], |m| pause(m, &mut got)), Ok(Fed::Done));
    assert_eq!(got, vec!["one", "two", "three"]);
}

/// A masked frame built by hand (for what no conforming client writes).
fn raw_frame(first: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mask = [0x12, 0x34, 0x56, 0x78];
    let mut out = vec![first];
    let flag = if masked { 0x80 } else { 0 };
    match payload.len() {
        n if n < 126 => out.push(flag | n as u8),
        n if n <= 0xFFFF => {
            out.push(flag | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(flag | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    if masked {
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

fn first_error(bytes: &[u8]) -> ReadError {
    match read_in_steps(bytes, bytes.len()).1 {
        Err(err) => err,
        Ok(fed) => panic!("expected an error, the reader said {fed:?}"),
    }
}

#[test]
fn broken_frames_are_refused_with_the_right_close_code() {
    let cases: Vec<(Vec<u8>, CloseCode)> = vec![
        (raw_frame(0x81, b"plain", false), CloseCode::Protocol),
        (raw_frame(0xC1, b"rsv1", true), CloseCode::Protocol),
        (raw_frame(0x83, b"opcode 3", true), CloseCode::Protocol),
        (
            raw_frame(0x09, b"unfinished ping", true),
            CloseCode::Protocol,
        ),
        (raw_frame(0x89, &[0; 126], true), CloseCode::Protocol),
        (raw_frame(0x80, b"no start", true), CloseCode::Protocol),
        (raw_frame(0x88, &[3], true), CloseCode::Protocol),
        (raw_frame(0x81, &[0xFF, 0xFE], true), CloseCode::Invalid),
        (
            [
                raw_frame(0x01, b"start", true),
                raw_frame(0x81, b"again", true),
            ]
            .concat(),
            CloseCode::Protocol,
        ),
    ];
    for (bytes, code) in cases {
        assert_eq!(first_error(&bytes).close_code(), code, "{bytes:02x?}");
    }
}

#[test]
fn oversized_messages_are_refused_from_their_header() {
    let mut reader = FrameReader::new(1000);
    // Only the header of a 5000-byte frame: refused before its payload arrives.
    let mut head = raw_frame(0x81, &[b'x'; 5000], true)[..8].to_vec();
    let err = reader
        .feed(&mut head, |_| ControlFlow::Continue(()))
        .expect_err("too big");
    assert_eq!(
        err,
        ReadError::TooBig {
            len: 5000,
            max: 1000
        }
    );
    assert_eq!(err.close_code(), CloseCode::Size);
    // Fragments count together.
    let bytes = [
        raw_frame(0x01, &[b'x'; 600], true),
        raw_frame(0x80, &[b'x'; 600], true),
    ]
    .concat();
    assert!(matches!(
        FrameReader::new(1000).feed(&mut bytes.clone(), |_| ControlFlow::Continue(())),
        Err(ReadError::TooBig { len: 1200, .. })
    ));
}

#[test]
fn unmasking_matches_byte_by_byte_xor() {
    let mask = [1, 2, 3, 4];
    for len in 0..40 {
        let original: Vec<u8> = (0..len as u8).collect();
        let mut fast = original.clone();
        unmask(&mut fast, mask);
        let slow: Vec<u8> = original
            .iter()
            .enumerate()
            .map(|(i, b)| b ^ mask[i % 4])
            .collect();
        assert_eq!(fast, slow);
    }
}

/// The frames of one read, fed whole: what came out and how the feed ended.
fn read_all(bytes: &[u8]) -> (Vec<Got>, Result<Fed, ReadError>) {
    read_in_steps(bytes, bytes.len())
}

/// A close frame's body: `code` and `reason`.
fn close_body(code: u16, reason: &[u8]) -> Vec<u8> {
    [&code.to_be_bytes()[..], reason].concat()
}

#[test]
fn close_codes_no_endpoint_may_send_are_protocol_errors() {
    for code in [
        0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535,
    ] {
        let bytes = raw_frame(0x88, &close_body(code, b""), true);
        let err = first_error(&bytes);
        assert_eq!(err, ReadError::BadCloseCode(code));
        assert_eq!(err.close_code(), CloseCode::Protocol, "code {code}");
        assert!(!close_code_is_valid(code), "code {code}");
    }
}

#[test]
fn valid_close_codes_end_reading_and_are_handed_on() {
    for code in [
        1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000,
        4999,
    ] {
        let bytes = raw_frame(0x88, &close_body(code, "bye é".as_bytes()), true);
        let (got, last) = read_all(&bytes);
        assert_eq!(last, Ok(Fed::Closed), "code {code}");
        assert_eq!(got, vec![Got::Close(Some(code))]);
        assert!(close_code_is_valid(code), "code {code}");
    }
    let (got, last) = read_all(&raw_frame(0x88, b"", true));
    assert_eq!((got, last), (vec![Got::Close(None)], Ok(Fed::Closed)));
}

#[test]
fn a_close_reason_that_is_not_utf8_is_1007_and_a_1_byte_body_is_1002() {
    let bytes = raw_frame(0x88, &close_body(1000, &[b'o', 0xC3, 0x28]), true);
    let err = first_error(&bytes);
    assert_eq!(err, ReadError::CloseReasonNotUtf8);
    assert_eq!(err.close_code(), CloseCode::Invalid);
    let err = first_error(&raw_frame(0x88, &[0x03], true));
    assert_eq!(err.close_code(), CloseCode::Protocol);
}

#[test]
fn a_64_bit_length_with_its_top_bit_set_is_a_protocol_error_not_too_big() {
    for length in [1u64 << 63, u64::MAX] {
        // The header alone: refused from the length.
        let mut head = vec![0x81, 0xFF];
        head.extend_from_slice(&length.to_be_bytes());
        head.extend_from_slice(&[1, 2, 3, 4]);
        let err = FrameReader::new(1000)
            .feed(&mut head, |_| ControlFlow::Continue(()))
            .expect_err("refused");
        assert!(matches!(err, ReadError::Protocol(_)), "{err:?}");
        assert_eq!(err.close_code(), CloseCode::Protocol);
    }
    // Without the top bit, a huge length is only too big.
    let mut head = vec![0x81, 0xFF];
    head.extend_from_slice(&(u64::MAX >> 1).to_be_bytes());
    head.extend_from_slice(&[1, 2, 3, 4]);
    let err = FrameReader::new(1000)
        .feed(&mut head, |_| ControlFlow::Continue(()))
        .expect_err("refused");
    assert_eq!(err.close_code(), CloseCode::Size);
}

/// Feed `fragments` one at a time; the index of the fragment whose feed failed, and the error.
fn failing_fragment(fragments: &[Vec<u8>]) -> Option<(usize, ReadError)> {
    let mut reader = FrameReader::new(100_000);
    for (i, fragment) in fragments.iter().enumerate() {
        let mut bytes = fragment.clone();
        if let Err(err) = reader.feed(&mut bytes, |_| ControlFlow::Continue(())) {
            return Some((i, err));
        }
    }
    None
}

#[test]
fn invalid_utf8_in_a_fragmented_text_fails_at_the_fragment_that_makes_it_certain() {
    let cases: Vec<(Vec<Vec<u8>>, usize)> = vec![
        // In the middle fragment, final fragment never needed.
        (
            vec![
                raw_frame(0x01, b"valid", true),
                raw_frame(0x00, &[b'a', 0xFF, b'b'], true),
                raw_frame(0x80, b"end", true),
            ],
            1,
        ),
        // In the first fragment.
        (
            vec![
                raw_frame(0x01, &[0xC0, 0x80], true),
                raw_frame(0x80, b"end", true),
            ],
            0,
        ),
        // A sequence begun in one fragment and broken by the next.
        (
            vec![
                raw_frame(0x01, &[b'x', 0xE2, 0x82], true),
                raw_frame(0x00, &[0x28, b'y'], true),
                raw_frame(0x80, b"end", true),
            ],
            1,
        ),
        // A code point past U+10FFFF is certain from its second byte.
        (
            vec![
                raw_frame(0x01, &[0xF4], true),
                raw_frame(0x00, &[0x90], true),
                raw_frame(0x80, &[0x80, 0x80], true),
            ],
            1,
        ),
        // Cut at the end of the last fragment: known only then.
        (
            vec![
                raw_frame(0x01, b"ok", true),
                raw_frame(0x80, &[0xE2, 0x82], true),
            ],
            1,
        ),
    ];
    for (fragments, at) in cases {
        let (i, err) = failing_fragment(&fragments).expect("refused");
        assert_eq!((i, &err), (at, &ReadError::NotUtf8), "{fragments:02x?}");
        assert_eq!(err.close_code(), CloseCode::Invalid);
    }
}

#[test]
fn characters_cut_between_fragments_are_fine() {
    let smile = "😀".as_bytes();
    let bytes = [
        raw_frame(0x01, &[b'a', 0xC3], true),
        raw_frame(0x00, &[0xA9, b'b', smile[0]], true),
        raw_frame(0x00, &smile[1..2], true),
        raw_frame(0x00, &[], true),
        raw_frame(0x80, &smile[2..], true),
    ]
    .concat();
    for step in [1, 3, bytes.len()] {
        let (got, last) = read_in_steps(&bytes, step);
        assert_eq!(last, Ok(Fed::Done));
        assert_eq!(
            got,
            vec![Got::Text("aéb😀".into())],
            "cut every {step} bytes"
        );
    }
    // Binary messages are not checked.
    let bytes = [
        raw_frame(0x02, &[0xFF], true),
        raw_frame(0x80, &[0xFE], true),
    ]
    .concat();
    let (got, last) = read_all(&bytes);
    assert_eq!(last, Ok(Fed::Done));
    assert_eq!(got, vec![Got::Binary(vec![0xFF, 0xFE])]);
}
