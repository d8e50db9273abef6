//! `Frame`: one server-to-client WebSocket frame, ready for the socket; `FrameBuf` builds one.
//!
//! A frame is one shared buffer holding its header (2 to 10 bytes) and its payload, so the
//! socket takes it in one plain `send`, and cloning it (for every member of an audience: the
//! header depends only on the payload's length) only bumps a reference count. Hot paths
//! serialize straight into a [`FrameBuf`], which keeps room for the header in front of the
//! payload, so the payload is never copied. Server frames are never masked (RFC 6455 §5.1).

use bytes::Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// Opcode of a text frame, with the FIN bit.
const TEXT: u8 = 0x81;
/// Opcode of a binary frame, with the FIN bit.
const BINARY: u8 = 0x82;
/// Opcode of a close frame, with the FIN bit.
const CLOSE: u8 = 0x88;
/// Opcode of a pong frame, with the FIN bit.
const PONG: u8 = 0x8A;
/// Opcode of a ping frame, with the FIN bit.
const PING: u8 = 0x89;

/// Room kept in front of a payload for the longest header.
const HEAD_ROOM: usize = 10;

/// Longest close reason: a control frame's payload is at most 125 bytes, 2 of them the code.
const MAX_CLOSE_REASON: usize = 123;

/// One complete frame: header and payload in one shared buffer.
#[derive(Debug, Clone)]
pub struct Frame {
    bytes: Bytes,
}

/// A frame being built: append the payload to [`FrameBuf::out`], then [`FrameBuf::text`].
#[derive(Debug)]
pub struct FrameBuf {
    buf: Vec<u8>,
}

impl FrameBuf {
    /// An empty payload with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> FrameBuf {
        let mut buf = Vec::with_capacity(HEAD_ROOM + capacity);
        buf.resize(HEAD_ROOM, 0);
        FrameBuf { buf }
    }

    /// The buffer to append the payload to. Only append to it, or remove what was
    /// appended: the bytes it starts with are the header's room.
    pub fn out(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// The payload written so far.
    pub fn payload(&self) -> &[u8] {
        &self.buf[HEAD_ROOM..]
    }

    /// The finished text frame. The payload must be UTF-8 (it is JSON written from strings).
    pub fn text(self) -> Frame {
        Frame::with_head(TEXT, self.buf)
    }
}

impl Frame {
    /// Write the header for the payload at `buf[HEAD_ROOM..]` just in front of it.
    fn with_head(first: u8, mut buf: Vec<u8>) -> Frame {
        let len = buf.len() - HEAD_ROOM;
        let start = if len < 126 {
            // Fits: checked just above.
            buf[HEAD_ROOM - 1] = len as u8;
            HEAD_ROOM - 2
        } else if let Ok(len) = u16::try_from(len) {
            buf[HEAD_ROOM - 3] = 126;
            buf[HEAD_ROOM - 2..HEAD_ROOM].copy_from_slice(&len.to_be_bytes());
            HEAD_ROOM - 4
        } else {
            buf[1] = 127;
            buf[2..HEAD_ROOM].copy_from_slice(&(len as u64).to_be_bytes());
            0
        };
        buf[start] = first;
        Frame {
            bytes: Bytes::from(buf).slice(start..),
        }
    }

    fn copied(first: u8, payload: &[u8]) -> Frame {
        let mut buf = FrameBuf::with_capacity(payload.len());
        buf.out().extend_from_slice(payload);
        Frame::with_head(first, buf.buf)
    }

    /// Frames exactly as they go on the wire, built by another node of a cluster (one or
    /// several, written one after the other).
    pub fn from_wire(bytes: Bytes) -> Frame {
        Frame { bytes }
    }

    /// A text frame carrying a copy of `text`.
    pub fn text(text: &str) -> Frame {
        Frame::copied(TEXT, text.as_bytes())
    }

    /// A binary frame carrying a copy of `payload` (never sent by the battle server; the
    /// Autobahn echo example echoes binary messages with it).
    pub fn binary(payload: &[u8]) -> Frame {
        Frame::copied(BINARY, payload)
    }

    /// A close frame with `code` and `reason` (cut to fit a control frame, at a character
    /// boundary).
    pub fn close(code: CloseCode, reason: &str) -> Frame {
        let mut end = reason.len().min(MAX_CLOSE_REASON);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        let mut buf = FrameBuf::with_capacity(2 + end);
        buf.out().extend_from_slice(&u16::from(code).to_be_bytes());
        buf.out().extend_from_slice(&reason.as_bytes()[..end]);
        Frame::with_head(CLOSE, buf.buf)
    }

    /// A pong answering a ping with `payload` (at most 125 bytes: the reader refuses longer
    /// control frames).
    pub fn pong(payload: &[u8]) -> Frame {
        Frame::copied(PONG, payload)
    }

    /// A ping with `payload` (at most 125 bytes), for the keepalive.
    pub fn ping(payload: &[u8]) -> Frame {
        Frame::copied(PING, payload)
    }

    /// The whole frame, as it goes on the wire.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Bytes on the wire.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the frame has no bytes (never: every frame has a header).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Whether this is a text frame.
    pub fn is_text(&self) -> bool {
        self.bytes[0] == TEXT
    }

    /// The payload (UTF-8 text for text frames), shared with the frame.
    pub fn payload(&self) -> Bytes {
        let head = match self.bytes[1] {
            126 => 4,
            127 => 10,
            _ => 2,
        };
        self.bytes.slice(head..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{Control, Data, OpCode};
    use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;

    fn parse(bytes: &[u8]) -> (FrameHeader, Vec<u8>) {
        let mut cursor = Cursor::new(bytes);
        let (header, len) = FrameHeader::parse(&mut cursor)
            .expect("a valid header")
            .expect("a whole header");
        let start = cursor.position() as usize;
        assert_eq!(start + len as usize, bytes.len(), "payload fills the frame");
        (header, bytes[start..].to_vec())
    }

    #[test]
    fn text_frames_of_every_length_class_parse_back() {
        for len in [0, 1, 125, 126, 127, 65_535, 65_536, 70_000] {
            let text = "x".repeat(len);
            let mut built = FrameBuf::with_capacity(16);
            built.out().extend_from_slice(text.as_bytes());
            assert_eq!(built.payload(), text.as_bytes());
            for frame in [Frame::text(&text), built.text()] {
                let (header, payload) = parse(frame.bytes());
                assert!(header.is_final);
                assert_eq!(header.opcode, OpCode::Data(Data::Text));
                assert_eq!(header.mask, None, "server frames are not masked");
                assert_eq!(payload, text.as_bytes());
                assert_eq!(&frame.payload()[..], text.as_bytes());
                assert!(frame.is_text());
            }
        }
    }

    #[test]
    fn close_frames_carry_code_and_a_cut_reason() {
        let frame = Frame::close(CloseCode::Again, &"é".repeat(100));
        let (header, payload) = parse(frame.bytes());
        assert_eq!(header.opcode, OpCode::Control(Control::Close));
        assert!(payload.len() <= 125);
        assert_eq!(u16::from_be_bytes([payload[0], payload[1]]), 1013);
        assert!(
            std::str::from_utf8(&payload[2..]).is_ok(),
            "cut at a boundary"
        );
        assert!(!frame.is_text());
    }

    #[test]
    fn binary_frames_carry_their_payload() {
        let (header, payload) = parse(Frame::binary(&[0, 0xFF, 7]).bytes());
        assert_eq!(header.opcode, OpCode::Data(Data::Binary));
        assert_eq!(payload, [0, 0xFF, 7]);
    }

    #[test]
    fn pong_echoes_the_payload() {
        let (header, payload) = parse(Frame::pong(b"abc").bytes());
        assert_eq!(header.opcode, OpCode::Control(Control::Pong));
        assert_eq!(payload, b"abc");
    }

    #[test]
    fn a_ping_is_a_final_control_frame() {
        let (header, payload) = parse(Frame::ping(&[]).bytes());
        assert_eq!(header.opcode, OpCode::Control(Control::Ping));
        assert!(header.is_final);
        assert!(payload.is_empty());
    }
}
