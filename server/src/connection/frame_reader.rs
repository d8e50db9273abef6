//! `FrameReader`: turns the bytes a client sends into WebSocket messages (RFC 6455 §5).
//!
//! Headers are read by tungstenite's own parser ([`FrameHeader::parse`]); the checks on them
//! are this reader's. Frames are unmasked in place in the buffer the socket was read into,
//! so a whole text message in one read is handed on without a copy. Only an incomplete frame
//! at the end of a read is carried over, and only a message split into several frames is
//! gathered; neither keeps memory once it is done with. No extension is negotiated, so any
//! reserved bit is an error, as are unmasked client frames, unknown opcodes and fragmented
//! or oversized control frames.
//!
//! The checks follow RFC 6455 to the letter: a close frame's code must be one an endpoint
//! may send ([`close_code_is_valid`]) and its reason UTF-8; a 64-bit length must have its
//! most significant bit clear; a fragmented text message fails as soon as its bytes cannot
//! be UTF-8 any more, not only at its last fragment.

use std::io::Cursor;
use std::ops::ControlFlow;

use thiserror::Error;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;

/// Carried-over bytes above this are given back once the frame they held is done.
const KEEP_CARRY_BYTES: usize = 4096;

/// One thing the client sent.
#[derive(Debug, PartialEq, Eq)]
pub enum Inbound<'a> {
    /// A whole text message.
    Text(&'a str),
    /// A whole binary message (not part of the protocol).
    Binary(&'a [u8]),
    /// A ping, to be answered with a pong carrying the same bytes.
    Ping(&'a [u8]),
    /// A close frame: the client is leaving. Its code (checked with
    /// [`close_code_is_valid`]), `None` when the frame had no body.
    Close(Option<u16>),
}

/// Why the connection cannot go on; each maps to the close code it is closed with.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ReadError {
    /// The bytes break the WebSocket protocol.
    #[error("WebSocket protocol error: {0}")]
    Protocol(&'static str),
    /// A frame or message larger than allowed.
    #[error("a {len}-byte message is larger than the {max} bytes allowed")]
    TooBig {
        /// The size announced (or reached so far).
        len: u64,
        /// The limit.
        max: usize,
    },
    /// A text message that is not UTF-8.
    #[error("a text message is not valid UTF-8")]
    NotUtf8,
    /// A close frame with a code no endpoint may send (RFC 6455 §7.4).
    #[error("close code {0} is not one an endpoint may send")]
    BadCloseCode(u16),
    /// A close frame whose reason is not UTF-8.
    #[error("a close frame's reason is not valid UTF-8")]
    CloseReasonNotUtf8,
}

impl ReadError {
    /// The close code this error closes the connection with.
    pub fn close_code(&self) -> CloseCode {
        match self {
            ReadError::Protocol(_) | ReadError::BadCloseCode(_) => CloseCode::Protocol,
            ReadError::TooBig { .. } => CloseCode::Size,
            ReadError::NotUtf8 | ReadError::CloseReasonNotUtf8 => CloseCode::Invalid,
        }
    }
}

/// Whether a client may send `code` in a close frame (RFC 6455 §7.4 and the IANA registry):
/// the codes defined for endpoints to send (1000-1003, 1007-1011), those registered since
/// (1012 service restart, 1013 try again later, 1014 bad gateway), and the ranges for
/// libraries and applications (3000-4999). Never 1004 (reserved), 1005, 1006 or 1015 (only
/// ever reported locally), nor anything unassigned (below 1000, 1016-2999, 5000 and up).
pub fn close_code_is_valid(code: u16) -> bool {
    matches!(code, 1000..=1003 | 1007..=1014 | 3000..=4999)
}

/// The code of a close frame's body, `None` for an empty body; the body must be empty or a
/// valid code followed by a UTF-8 reason.
fn close_code(body: &[u8]) -> Result<Option<u16>, ReadError> {
    match *body {
        [] => Ok(None),
        [_] => Err(ReadError::Protocol("a close frame with a 1-byte body")),
        [high, low, ref reason @ ..] => {
            let code = u16::from_be_bytes([high, low]);
            if !close_code_is_valid(code) {
                return Err(ReadError::BadCloseCode(code));
            }
            std::str::from_utf8(reason).map_err(|_| ReadError::CloseReasonNotUtf8)?;
            Ok(Some(code))
        }
    }
}

/// How a call to [`FrameReader::feed`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fed {
    /// Every whole frame was handed on; the rest (if any) is carried over.
    Done,
    /// The handler asked to pause: feed an empty buffer later to go on from there.
    Paused,
    /// The client sent a close frame; nothing after it is read.
    Closed,
}

/// A fragmented message being gathered.
#[derive(Debug)]
struct Gathering {
    text: bool,
    bytes: Vec<u8>,
    /// For text: how many of `bytes` are known to be whole, valid UTF-8 characters.
    checked: usize,
}

impl Gathering {
    /// Check the text gathered so far, as far as it goes: an error once the bytes cannot
    /// become UTF-8 whatever follows; a character cut at the end waits for the next
    /// fragment. Each byte is checked here once (a cut character's first bytes at most
    /// twice); the whole message is checked once more when its last fragment arrives.
    fn check_text(&mut self) -> Result<(), ReadError> {
        if !self.text {
            return Ok(());
        }
        match std::str::from_utf8(&self.bytes[self.checked..]) {
            Ok(_) => self.checked = self.bytes.len(),
            Err(err) if err.error_len().is_none() => self.checked += err.valid_up_to(),
            Err(_) => return Err(ReadError::NotUtf8),
        }
        Ok(())
    }
}

/// Parses one connection's incoming frames.
#[derive(Debug)]
pub struct FrameReader {
    max_message: usize,
    carry: Vec<u8>,
    gathering: Option<Gathering>,
}

/// A parsed frame header.
struct Header {
    fin: bool,
    opcode: u8,
    mask: [u8; 4],
    /// Header length in bytes, mask included.
    len: usize,
    payload: u64,
}

impl FrameReader {
    /// A reader accepting messages of up to `max_message` bytes.
    pub fn new(max_message: usize) -> FrameReader {
        FrameReader {
            max_message,
            carry: Vec::new(),
            gathering: None,
        }
    }

    /// Parse the frames in `data` (after any carried-over bytes), calling `on` for each
    /// message, ping and close. `on` may break to pause; the unparsed rest is then kept for
    /// the next call, which may pass an empty `data`.
    pub fn feed<F>(&mut self, data: &mut [u8], mut on: F) -> Result<Fed, ReadError>
    where
        F: FnMut(Inbound<'_>) -> ControlFlow<()>,
    {
        if self.carry.is_empty() {
            let (used, fed) = self.parse(data, &mut on)?;
            self.carry.extend_from_slice(&data[used..]);
            return Ok(fed);
        }
        self.carry.extend_from_slice(data);
        let mut carry = std::mem::take(&mut self.carry);
        let (used, fed) = self.parse(&mut carry, &mut on)?;
        carry.drain(..used);
        if carry.is_empty() && carry.capacity() > KEEP_CARRY_BYTES {
            carry = Vec::new();
        }
        self.carry = carry;
        Ok(fed)
    }

    fn parse<F>(&mut self, buf: &mut [u8], on: &mut F) -> Result<(usize, Fed), ReadError>
    where
        F: FnMut(Inbound<'_>) -> ControlFlow<()>,
    {
        let mut at = 0;
        loop {
            let Some(header) = self.header(&buf[at..])? else {
                return Ok((at, Fed::Done));
            };
            // Below max_message (checked in `header`), so it fits in usize.
            let end = at + header.len + header.payload as usize;
            if buf.len() < end {
                return Ok((at, Fed::Done));
            }
            let payload = &mut buf[at + header.len..end];
            unmask(payload, header.mask);
            at = end;
            let flow = match header.opcode {
                0x0 => {
                    let Some(gathering) = self.gathering.as_mut() else {
                        return Err(ReadError::Protocol("a continuation frame with no message"));
                    };
                    gathering.bytes.extend_from_slice(payload);
                    if !header.fin {
                        gathering.check_text()?;
                        continue;
                    }
                    let Gathering { text, bytes, .. } =
                        self.gathering.take().expect("checked just above");
                    if text {
                        let text = std::str::from_utf8(&bytes).map_err(|_| ReadError::NotUtf8)?;
                        on(Inbound::Text(text))
                    } else {
                        on(Inbound::Binary(&bytes))
                    }
                }
                0x1 | 0x2 => {
                    if self.gathering.is_some() {
                        return Err(ReadError::Protocol(
                            "a new message began before the last one ended",
                        ));
                    }
                    let text = header.opcode == 0x1;
                    if !header.fin {
                        let mut gathering = Gathering {
                            text,
                            bytes: payload.to_vec(),
                            checked: 0,
                        };
                        gathering.check_text()?;
                        self.gathering = Some(gathering);
                        continue;
                    }
                    if text {
                        let text = std::str::from_utf8(payload).map_err(|_| ReadError::NotUtf8)?;
                        on(Inbound::Text(text))
                    } else {
                        on(Inbound::Binary(payload))
                    }
                }
                0x8 => {
                    let code = close_code(payload)?;
                    let _ = on(Inbound::Close(code));
                    return Ok((at, Fed::Closed));
                }
                0x9 => on(Inbound::Ping(payload)),
                0xA => ControlFlow::Continue(()), // an unsolicited pong needs no answer
                _ => return Err(ReadError::Protocol("an unknown opcode")),
            };
            if flow.is_break() {
                return Ok((at, Fed::Paused));
            }
        }
    }

    /// The header at the start of `buf`, `None` if it is not all there yet.
    fn header(&self, buf: &[u8]) -> Result<Option<Header>, ReadError> {
        let mut cursor = Cursor::new(buf);
        let (head, payload) = match FrameHeader::parse(&mut cursor) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return Ok(None),
            // Reading from a slice cannot fail and a short one is `None`: the one error left
            // is a reserved opcode.
            Err(_) => return Err(ReadError::Protocol("an unknown opcode")),
        };
        if head.rsv1 || head.rsv2 || head.rsv3 {
            return Err(ReadError::Protocol(
                "reserved bits set (no extension was agreed)",
            ));
        }
        let Some(mask) = head.mask else {
            return Err(ReadError::Protocol("client frames must be masked"));
        };
        if payload >> 63 != 0 {
            return Err(ReadError::Protocol(
                "a 64-bit payload length with its most significant bit set",
            ));
        }
        let fin = head.is_final;
        let opcode = u8::from(head.opcode);
        if opcode >= 0x8 && (!fin || payload > 125) {
            return Err(ReadError::Protocol(
                "control frames must be whole and at most 125 bytes",
            ));
        }
        let gathered = self.gathering.as_ref().map_or(0, |g| g.bytes.len() as u64);
        let total = if opcode == 0x0 {
            // A 64-bit length may be anything: the sum must not wrap below the limit.
            gathered.saturating_add(payload)
        } else {
            payload
        };
        if total > self.max_message as u64 {
            return Err(ReadError::TooBig {
                len: total,
                max: self.max_message,
            });
        }
        Ok(Some(Header {
            fin,
            opcode,
            mask,
            // At most 14 bytes.
            len: cursor.position() as usize,
            payload,
        }))
    }
}

/// Undo a client's masking (XOR with the 4-byte key, repeated), eight bytes at a time.
fn unmask(payload: &mut [u8], mask: [u8; 4]) {
    let wide = u64::from_ne_bytes([
        mask[0], mask[1], mask[2], mask[3], mask[0], mask[1], mask[2], mask[3],
    ]);
    let mut chunks = payload.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let bytes: &mut [u8; 8] = chunk.try_into().expect("chunks of exactly 8 bytes");
        *bytes = (u64::from_ne_bytes(*bytes) ^ wide).to_ne_bytes();
    }
    for (i, byte) in chunks.into_remainder().iter_mut().enumerate() {
        *byte ^= mask[i & 3];
    }
}

#[cfg(test)]
mod tests;
