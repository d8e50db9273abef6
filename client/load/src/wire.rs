//! WebSocket framing (RFC 6455, section 5) for the load generator's [`Link`](super::link::Link):
//! the header of a frame from the server, and masked frames from the client.
//!
//! Server frames are checked as tungstenite checks them on a client connection (no reserved
//! bits, no mask, known opcodes, control frames final and at most 125 bytes, a size limit),
//! and a failed check is the same `tungstenite::Error`, so the load test counts it under the
//! same error key as when tungstenite read the frames.

use tokio_tungstenite::tungstenite::error::{CapacityError, Error, ProtocolError};

/// Continues a fragmented message.
pub const CONTINUATION: u8 = 0x0;
/// A text message (or its first fragment).
pub const TEXT: u8 = 0x1;
/// A binary message (or its first fragment).
pub const BINARY: u8 = 0x2;
/// Closes the connection.
pub const CLOSE: u8 = 0x8;
/// Asks for a pong with the same payload.
pub const PING: u8 = 0x9;
/// Answers a ping.
pub const PONG: u8 = 0xA;

/// Longest payload of a control frame.
pub const MAX_CONTROL_PAYLOAD: usize = 125;

/// Longest header of a client frame: two bytes, eight of extended length, four of mask.
const MAX_HEADER: usize = 14;

/// The header of one server frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Whether this is the last frame of its message.
    pub fin: bool,
    /// What the frame is ([`TEXT`], [`PING`], ...).
    pub opcode: u8,
    /// Bytes of the header: where the payload starts.
    pub header_len: usize,
    /// Bytes of the payload.
    pub payload_len: usize,
}

impl Header {
    /// Bytes of the whole frame.
    pub fn frame_len(&self) -> usize {
        self.header_len + self.payload_len
    }
}

/// The header at the start of `bytes`, `Ok(None)` while it is incomplete, or why the frame
/// is refused. A payload longer than `max_payload` bytes is refused as tungstenite refuses
/// it, from the header alone.
pub fn parse_header(bytes: &[u8], max_payload: usize) -> Result<Option<Header>, Error> {
    let [first, second, ..] = *bytes else {
        return Ok(None);
    };
    let (length, mut header_len) = match second & 0x7f {
        126 => match bytes.get(2..4) {
            Some(&[a, b]) => (u64::from(u16::from_be_bytes([a, b])), 4),
            _ => return Ok(None),
        },
        127 => match bytes.get(2..10) {
            Some(ext) => (
                u64::from_be_bytes(ext.try_into().expect("`get(2..10)` gives eight bytes")),
                10,
            ),
            None => return Ok(None),
        },
        short => (u64::from(short), 2),
    };
    let masked = second & 0x80 != 0;
    if masked {
        header_len += 4;
    }
    if bytes.len() < header_len {
        return Ok(None);
    }
    let opcode = first & 0x0f;
    if !matches!(opcode, CONTINUATION | TEXT | BINARY | CLOSE | PING | PONG) {
        return Err(Error::Protocol(ProtocolError::InvalidOpcode(opcode)));
    }
    let payload_len = usize::try_from(length).unwrap_or(usize::MAX);
    if payload_len > max_payload {
        return Err(Error::Capacity(CapacityError::MessageTooLong {
            size: payload_len,
            max_size: max_payload,
        }));
    }
    if first & 0x70 != 0 {
        return Err(Error::Protocol(ProtocolError::NonZeroReservedBits));
    }
    if masked {
        return Err(Error::Protocol(ProtocolError::MaskedFrameFromServer));
    }
    let fin = first & 0x80 != 0;
    if opcode & 0x8 != 0 {
        if !fin {
            return Err(Error::Protocol(ProtocolError::FragmentedControlFrame));
        }
        if payload_len > MAX_CONTROL_PAYLOAD {
            return Err(Error::Protocol(ProtocolError::ControlFrameTooBig));
        }
    }
    Ok(Some(Header {
        fin,
        opcode,
        header_len,
        payload_len,
    }))
}

/// XOR `payload` with `mask`, the first byte with `mask[0]` (masking and unmasking alike).
pub fn apply_mask(payload: &mut [u8], mask: [u8; 4]) {
    let word = u64::from_ne_bytes([
        mask[0], mask[1], mask[2], mask[3], mask[0], mask[1], mask[2], mask[3],
    ]);
    let mut chunks = payload.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let bytes: [u8; 8] = (&*chunk)
            .try_into()
            .expect("`chunks_exact_mut(8)` gives eight bytes");
        chunk.copy_from_slice(&(u64::from_ne_bytes(bytes) ^ word).to_ne_bytes());
    }
    // A whole number of words went before, so the rest starts at `mask[0]` again.
    for (byte, m) in chunks.into_remainder().iter_mut().zip(mask.iter().cycle()) {
        *byte ^= m;
    }
}

/// A client frame being written at the end of a buffer: [`Frame::begin`] leaves room for
/// the longest header, the payload is appended, and [`Frame::finish`] writes the header
/// and masks the payload.
#[derive(Debug)]
pub struct Frame {
    /// Where the frame begins in the buffer.
    at: usize,
}

impl Frame {
    /// Begin a frame at the end of `out`.
    pub fn begin(out: &mut Vec<u8>) -> Frame {
        let at = out.len();
        out.extend_from_slice(&[0; MAX_HEADER]);
        Frame { at }
    }

    /// Bytes of payload appended so far.
    pub fn payload_len(&self, out: &[u8]) -> usize {
        out.len() - self.at - MAX_HEADER
    }

    /// Take the frame back out of `out`, leaving it as it was before [`Frame::begin`].
    pub fn abandon(self, out: &mut Vec<u8>) {
        out.truncate(self.at);
    }

    /// Make what was appended since [`Frame::begin`] the payload of one final frame of
    /// `opcode`, masked with `mask`; the frame then ends `out`.
    pub fn finish(self, out: &mut Vec<u8>, opcode: u8, mask: [u8; 4]) {
        let payload_at = self.at + MAX_HEADER;
        let len = out.len() - payload_at;
        let mut header = [0u8; MAX_HEADER];
        header[0] = 0x80 | opcode;
        let mut used = 2;
        if len < 126 {
            header[1] = 0x80 | len as u8;
        } else if let Ok(short) = u16::try_from(len) {
            header[1] = 0x80 | 126;
            header[2..4].copy_from_slice(&short.to_be_bytes());
            used = 4;
        } else {
            header[1] = 0x80 | 127;
            header[2..10].copy_from_slice(&(len as u64).to_be_bytes());
            used = 10;
        }
        header[used..used + 4].copy_from_slice(&mask);
        used += 4;
        apply_mask(&mut out[payload_at..], mask);
        // The header goes right before the payload; the unused room is taken out.
        let start = payload_at - used;
        out[start..payload_at].copy_from_slice(&header[..used]);
        out.drain(self.at..start);
    }
}

/// Append one final client frame of `opcode` with `payload`, masked with `mask`.
pub fn write_frame(out: &mut Vec<u8>, opcode: u8, payload: &[u8], mask: [u8; 4]) {
    let frame = Frame::begin(out);
    out.extend_from_slice(payload);
    frame.finish(out, opcode, mask);
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;

    const MAX: usize = 1 << 20;

    /// A server frame's bytes as tungstenite writes them.
    pub(crate) fn server_frame(opcode: u8, fin: bool, payload: &[u8]) -> Vec<u8> {
        let mut out = vec![if fin { 0x80 } else { 0 } | opcode];
        match payload.len() {
            n if n < 126 => out.push(n as u8),
            n if n <= 0xffff => {
                out.push(126);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                out.push(127);
                out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        out.extend_from_slice(payload);
        out
    }

    #[test]
    fn parses_every_length_form() {
        for len in [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000] {
            let payload = vec![b'x'; len];
            let bytes = server_frame(TEXT, true, &payload);
            let header = parse_header(&bytes, MAX).expect("valid").expect("complete");
            assert_eq!(header.payload_len, len);
            assert_eq!(header.frame_len(), bytes.len());
            assert!(header.fin);
            assert_eq!(header.opcode, TEXT);
            // Any cut of the header is incomplete, not an error.
            for cut in 0..header.header_len {
                assert_eq!(parse_header(&bytes[..cut], MAX).expect("valid"), None);
            }
        }
    }

    #[test]
    fn refuses_what_tungstenite_refuses() {
        let refused = |bytes: &[u8]| parse_header(bytes, MAX).expect_err("refused");
        assert!(matches!(
            refused(&[0x83, 0]),
            Error::Protocol(ProtocolError::InvalidOpcode(3))
        ));
        assert!(matches!(
            refused(&[0x8b, 0]),
            Error::Protocol(ProtocolError::InvalidOpcode(11))
        ));
        assert!(matches!(
            refused(&[0xc1, 0]),
            Error::Protocol(ProtocolError::NonZeroReservedBits)
        ));
        assert!(matches!(
            refused(&[0x81, 0x81, 1, 2, 3, 4, 5]),
            Error::Protocol(ProtocolError::MaskedFrameFromServer)
        ));
        assert!(matches!(
            refused(&[0x09, 0]),
            Error::Protocol(ProtocolError::FragmentedControlFrame)
        ));
        assert!(matches!(
            refused(&[0x89, 126, 0, 126]),
            Error::Protocol(ProtocolError::ControlFrameTooBig)
        ));
        assert!(matches!(
            parse_header(&[0x81, 127, 0, 0, 0, 0, 0, 0x20, 0, 1], MAX).expect_err("too long"),
            Error::Capacity(CapacityError::MessageTooLong {
                size: 0x20_0001,
                max_size: MAX
            })
        ));
        // A fragment and control frames within limits are fine.
        assert!(parse_header(&[0x01, 0], MAX).expect("valid").is_some());
        assert!(parse_header(&[0x89, 125], MAX).expect("valid").is_some());
    }

    #[test]
    fn masking_twice_gives_the_payload_back() {
        for len in 0..40 {
            let payload: Vec<u8> = (0..len).map(|i| i as u8 ^ 0x5a).collect();
            let mut masked = payload.clone();
            let mask = [0x12, 0x34, 0x56, 0x78];
            apply_mask(&mut masked, mask);
            for (i, (m, p)) in masked.iter().zip(&payload).enumerate() {
                assert_eq!(*m, p ^ mask[i % 4]);
            }
            apply_mask(&mut masked, mask);
            assert_eq!(masked, payload);
        }
    }

    /// Client frames of every length form read back through tungstenite's own parser as
    /// the masked frames they are meant to be, after whatever was in the buffer before.
    #[test]
    fn written_frames_parse_in_tungstenite() {
        for len in [0, 5, 125, 126, 4000, 65535, 65536, 100_000] {
            let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let mask = [9, 8, 7, 6];
            let mut out = b"before".to_vec();
            write_frame(&mut out, TEXT, &payload, mask);
            let mut cursor = std::io::Cursor::new(&out[6..]);
            let (header, length) = FrameHeader::parse(&mut cursor)
                .expect("valid header")
                .expect("complete header");
            assert_eq!(&out[..6], b"before");
            assert!(header.is_final);
            assert_eq!(header.mask, Some(mask));
            assert_eq!(length, len as u64);
            let at = 6 + cursor.position() as usize;
            assert_eq!(out.len(), at + len);
            let unmasked: Vec<u8> = out[at..]
                .iter()
                .enumerate()
                .map(|(i, b)| b ^ mask[i % 4])
                .collect();
            assert_eq!(unmasked, payload, "{len}");
        }
    }
}
