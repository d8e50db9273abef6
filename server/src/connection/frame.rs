//! `Frame`: one server-to-client WebSocket frame, ready for the socket.
//!
//! A frame is its header (2 to 10 bytes, kept inline) and its payload, kept apart: the
//! payload of a change is serialized once per audience and shared by every member's frame
//! (cloning a frame copies the header and bumps a reference count), and the socket takes
//! header and payload in one vectored write. Server frames are never masked (RFC 6455 §5.1).

use std::io::IoSlice;

use bytes::Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Utf8Bytes;

/// Opcode of a text frame, with the FIN bit.
const TEXT: u8 = 0x81;
/// Opcode of a close frame, with the FIN bit.
const CLOSE: u8 = 0x88;
/// Opcode of a pong frame, with the FIN bit.
const PONG: u8 = 0x8A;

/// Longest close reason: a control frame's payload is at most 125 bytes, 2 of them the code.
const MAX_CLOSE_REASON: usize = 123;

/// One complete frame: header and payload.
#[derive(Debug, Clone)]
pub struct Frame {
    head: [u8; 10],
    head_len: u8,
    payload: Bytes,
}

impl Frame {
    fn new(first: u8, payload: Bytes) -> Frame {
        let mut head = [0u8; 10];
        head[0] = first;
        let len = payload.len();
        let head_len = if len < 126 {
            // Fits: checked just above.
            head[1] = len as u8;
            2
        } else if let Ok(len) = u16::try_from(len) {
            head[1] = 126;
            head[2..4].copy_from_slice(&len.to_be_bytes());
            4
        } else {
            head[1] = 127;
            head[2..10].copy_from_slice(&(len as u64).to_be_bytes());
            10
        };
        Frame {
            head,
            head_len,
            payload,
        }
    }

    /// A text frame carrying `text` (shared, not copied).
    pub fn text(text: impl Into<Utf8Bytes>) -> Frame {
        Frame::new(TEXT, Bytes::from(text.into()))
    }

    /// A close frame with `code` and `reason` (cut to fit a control frame, at a character
    /// boundary).
    pub fn close(code: CloseCode, reason: &str) -> Frame {
        let mut end = reason.len().min(MAX_CLOSE_REASON);
        while !reason.is_char_boundary(end) {
            end -= 1;
        }
        let mut body = Vec::with_capacity(2 + end);
        body.extend_from_slice(&u16::from(code).to_be_bytes());
        body.extend_from_slice(&reason.as_bytes()[..end]);
        Frame::new(CLOSE, Bytes::from(body))
    }

    /// A pong answering a ping with `payload` (at most 125 bytes: the reader refuses longer
    /// control frames).
    pub fn pong(payload: &[u8]) -> Frame {
        Frame::new(PONG, Bytes::copy_from_slice(payload))
    }

    /// Bytes on the wire.
    pub fn len(&self) -> usize {
        usize::from(self.head_len) + self.payload.len()
    }

    /// Whether the frame has no bytes (never: every frame has a header).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The payload (UTF-8 text for text frames).
    pub fn payload(&self) -> &Bytes {
        &self.payload
    }

    /// Whether this is a text frame.
    pub fn is_text(&self) -> bool {
        self.head[0] == TEXT
    }

    /// The bytes from `offset` on, as at most two slices (header rest, payload rest).
    pub fn slices_from(&self, offset: usize) -> [IoSlice<'_>; 2] {
        let head = &self.head[..usize::from(self.head_len)];
        let payload: &[u8] = &self.payload;
        if offset < head.len() {
            [IoSlice::new(&head[offset..]), IoSlice::new(payload)]
        } else {
            [
                IoSlice::new(&[]),
                IoSlice::new(&payload[offset - head.len()..]),
            ]
        }
    }

    /// The whole frame as one byte vector (for tests and rare paths).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        out.extend_from_slice(&self.head[..usize::from(self.head_len)]);
        out.extend_from_slice(&self.payload);
        out
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
            let frame = Frame::text(text.clone());
            let bytes = frame.to_vec();
            assert_eq!(bytes.len(), frame.len());
            let (header, payload) = parse(&bytes);
            assert!(header.is_final);
            assert_eq!(header.opcode, OpCode::Data(Data::Text));
            assert_eq!(header.mask, None, "server frames are not masked");
            assert_eq!(payload, text.as_bytes());
        }
    }

    #[test]
    fn slices_from_any_offset_cover_the_rest() {
        let frame = Frame::text("y".repeat(300));
        let whole = frame.to_vec();
        for offset in 0..whole.len() {
            let rest: Vec<u8> = frame
                .slices_from(offset)
                .iter()
                .flat_map(|s| s.iter().copied())
                .collect();
            assert_eq!(rest, &whole[offset..]);
        }
    }

    #[test]
    fn close_frames_carry_code_and_a_cut_reason() {
        let frame = Frame::close(CloseCode::Again, &"é".repeat(100));
        let (header, payload) = parse(&frame.to_vec());
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
    fn pong_echoes_the_payload() {
        let (header, payload) = parse(&Frame::pong(b"abc").to_vec());
        assert_eq!(header.opcode, OpCode::Control(Control::Pong));
        assert_eq!(payload, b"abc");
    }
}
