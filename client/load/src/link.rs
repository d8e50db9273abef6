//! `Link`: the load generator's own WebSocket connection.
//!
//! The handshake is tungstenite's; after it the link reads and writes WebSocket frames
//! itself ([`wire`](super::wire)) on the TCP stream. The load generator shares the cores of
//! the server it measures, and per frame tokio-tungstenite zeroes the free part of its read
//! buffer, splits a shared `BytesMut`, registers wakers through two proxies and touches a
//! few hundred bytes of per-connection state that are cold by the time the next frame comes.
//! Here a frame is read straight into a pooled buffer ([`buffers`](super::buffers)) that is
//! handed on as the message, and frames that arrive together are taken from one read.
//!
//! Everything else is as tungstenite does it on a client connection: pings are answered with
//! pongs, a close frame is answered with a close frame and ends the link, fragmented
//! messages are put together, binary messages are reported ([`ClientError::Binary`]), frames
//! it refuses are refused with the same errors, and client frames are masked with a random
//! mask.
//!
//! Receiving and sending are cancel safe: what was read or is still to be written stays in
//! the link.

use std::io;

use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::error::{CapacityError, Error, ProtocolError};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data};

use super::buffers::{self, Text};
use super::handshake;
use super::wire::{self, Header, BINARY, CLOSE, CONTINUATION, PING, PONG, TEXT};
use battle_client::{ClientError, MAX_MESSAGE_BYTES};

/// Free room a read asks for at least, beyond what the frame being read still needs.
const MIN_READ: usize = 1024;

/// One WebSocket connection of the load test.
#[derive(Debug)]
pub struct Link {
    stream: TcpStream,
    /// Bytes received and not yet taken, from the start of a frame. Holds no buffer between
    /// frames.
    unread: Vec<u8>,
    /// Bytes to write before anything else: a queued frame, or the rest of one.
    unsent: Vec<u8>,
    /// A message whose first fragments have come.
    fragments: Option<Fragments>,
    state: State,
}

/// Whether the link still carries messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Open,
    /// The server sent a close frame (and was answered).
    ClosedByServer,
    /// The stream ended or failed.
    Ended,
}

/// The fragments of one message so far.
#[derive(Debug)]
struct Fragments {
    /// Text (kept) or binary (only counted).
    text: bool,
    bytes: Vec<u8>,
    len: usize,
}

/// What the frame at the start of the unread bytes amounted to.
enum Step {
    /// A whole message for the caller (a text, or why there is none).
    Done(Result<Text, ClientError>),
    /// A frame taken with nothing to report (a ping, pong or fragment).
    Taken,
    /// The next frame is incomplete: this many unread bytes are needed at least.
    Need(usize),
}

/// The link's end when the server closed it, or after it ended.
fn closed(code: Option<u16>, reason: String) -> ClientError {
    ClientError::Closed { code, reason }
}

impl Link {
    /// Run the WebSocket handshake for `url` over an open TCP stream.
    pub async fn open(url: &str, stream: TcpStream) -> Result<Link, ClientError> {
        stream
            .set_nodelay(true)
            .map_err(|e| ClientError::WebSocket(e.into()))?;
        let (stream, unread) = handshake::client(url, stream).await?;
        Ok(Link {
            stream,
            unread,
            unsent: Vec::new(),
            fragments: None,
            state: State::Open,
        })
    }

    /// Queue one text frame holding `msg` as JSON, to go out with the next [`Link::flush`];
    /// returns the JSON's length.
    pub fn queue<T: Serialize>(&mut self, msg: &T) -> Result<usize, ClientError> {
        match self.state {
            State::Open => {}
            State::ClosedByServer => {
                return Err(Error::Protocol(ProtocolError::SendAfterClosing).into())
            }
            State::Ended => return Err(Error::AlreadyClosed.into()),
        }
        if self.unsent.capacity() == 0 {
            self.unsent = buffers::take();
        }
        let frame = wire::Frame::begin(&mut self.unsent);
        if let Err(err) = serde_json::to_writer(&mut self.unsent, msg) {
            frame.abandon(&mut self.unsent);
            return Err(ClientError::Encode(err));
        }
        let len = frame.payload_len(&self.unsent);
        frame.finish(&mut self.unsent, TEXT, rand::random());
        Ok(len)
    }

    /// Write out every queued byte.
    pub async fn flush(&mut self) -> Result<(), ClientError> {
        while !self.unsent.is_empty() {
            match self.stream.write(&self.unsent).await {
                Ok(0) => return Err(Error::Io(io::ErrorKind::WriteZero.into()).into()),
                Ok(n) => drop(self.unsent.drain(..n)),
                Err(err) => return Err(Error::Io(err).into()),
            }
        }
        buffers::give(std::mem::take(&mut self.unsent));
        Ok(())
    }

    /// The next text message. Pings are answered and pongs skipped; a close frame, or any
    /// receive after the link ended, is [`ClientError::Closed`], a binary message
    /// [`ClientError::Binary`]. A failure (a refused frame, the stream ending without a
    /// close frame) ends the link.
    ///
    /// Cancel safe: dropping the future before it completes loses no frame.
    pub async fn recv(&mut self) -> Result<Text, ClientError> {
        loop {
            if self.state != State::Open {
                return Err(closed(None, String::new()));
            }
            let need = match self.step() {
                Ok(Step::Done(message)) => return message,
                Ok(Step::Taken) => continue,
                Ok(Step::Need(need)) => need,
                Err(err) => {
                    self.state = State::Ended;
                    return Err(err.into());
                }
            };
            // Answers to pings go out before waiting for more.
            self.flush().await?;
            if self.unread.capacity() == 0 {
                self.unread = buffers::take();
            }
            let room = (need - self.unread.len()).max(MIN_READ);
            self.unread.reserve(room);
            match self.stream.read_buf(&mut self.unread).await {
                Ok(0) => {
                    self.state = State::Ended;
                    return Err(Error::Protocol(ProtocolError::ResetWithoutClosingHandshake).into());
                }
                Ok(_) => {}
                Err(err) => {
                    self.state = State::Ended;
                    return Err(Error::Io(err).into());
                }
            }
        }
    }

    /// Take the frame at the start of the unread bytes, if it is all there.
    fn step(&mut self) -> Result<Step, Error> {
        let Some(header) = wire::parse_header(&self.unread, MAX_MESSAGE_BYTES)? else {
            return Ok(Step::Need(self.unread.len() + 2));
        };
        if self.unread.len() < header.frame_len() {
            return Ok(Step::Need(header.frame_len()));
        }
        match header.opcode {
            TEXT | BINARY if self.fragments.is_some() => {
                let data = if header.opcode == TEXT {
                    Data::Text
                } else {
                    Data::Binary
                };
                Err(Error::Protocol(ProtocolError::ExpectedFragment(data)))
            }
            // The usual case: the frame's buffer becomes the message.
            TEXT if header.fin => {
                let mut bytes = self.split_frame(header.frame_len());
                bytes.drain(..header.header_len);
                Ok(Step::Done(Ok(Text::from_utf8(bytes)?)))
            }
            BINARY if header.fin => {
                self.consume(header.frame_len());
                Ok(Step::Done(Err(ClientError::Binary(header.payload_len))))
            }
            TEXT | BINARY => {
                let mut fragments = Fragments {
                    text: header.opcode == TEXT,
                    bytes: Vec::new(),
                    len: 0,
                };
                fragments.extend(self.payload(&header))?;
                self.fragments = Some(fragments);
                self.consume(header.frame_len());
                Ok(Step::Taken)
            }
            CONTINUATION => {
                let Some(fragments) = self.fragments.as_mut() else {
                    return Err(Error::Protocol(ProtocolError::UnexpectedContinueFrame));
                };
                let payload = &self.unread[header.header_len..header.frame_len()];
                fragments.extend(payload)?;
                self.consume(header.frame_len());
                if !header.fin {
                    return Ok(Step::Taken);
                }
                let fragments = self
                    .fragments
                    .take()
                    .expect("a continuation is only taken with fragments under way");
                Ok(Step::Done(if fragments.text {
                    Ok(Text::from_utf8(fragments.bytes)?)
                } else {
                    Err(ClientError::Binary(fragments.len))
                }))
            }
            PING => {
                let payload = self.payload(&header).to_vec();
                self.consume(header.frame_len());
                if self.unsent.capacity() == 0 {
                    self.unsent = buffers::take();
                }
                wire::write_frame(&mut self.unsent, PONG, &payload, rand::random());
                // As tungstenite does, the pong goes out before the next message is handed
                // on if the socket takes it at once (otherwise before the next wait).
                self.try_flush();
                Ok(Step::Taken)
            }
            PONG => {
                self.consume(header.frame_len());
                Ok(Step::Taken)
            }
            CLOSE => {
                let close = self.close_frame(&header)?;
                self.consume(header.frame_len());
                self.state = State::ClosedByServer;
                Ok(Step::Done(Err(close)))
            }
            other => unreachable!("parse_header refuses opcode {other}"),
        }
    }

    /// The payload of the (complete) frame at the start of the unread bytes.
    fn payload(&self, header: &Header) -> &[u8] {
        &self.unread[header.header_len..header.frame_len()]
    }

    /// Read a close frame as tungstenite does (a code it does not allow becomes 1002,
    /// "Protocol violation"), answer it, and give the link's end.
    fn close_frame(&mut self, header: &Header) -> Result<ClientError, Error> {
        let payload = self.payload(header);
        let (code, reason) = match *payload {
            [] => (None, String::new()),
            [_] => return Err(Error::Protocol(ProtocolError::InvalidCloseSequence)),
            [a, b, ref reason @ ..] => {
                let reason = std::str::from_utf8(reason)?.to_owned();
                match u16::from_be_bytes([a, b]) {
                    code if CloseCode::from(code).is_allowed() => (Some(code), reason),
                    _ => (
                        Some(u16::from(CloseCode::Protocol)),
                        "Protocol violation".to_owned(),
                    ),
                }
            }
        };
        let mut reply = Vec::new();
        if let Some(code) = code {
            reply.extend_from_slice(&code.to_be_bytes());
            reply.extend_from_slice(reason.as_bytes());
        }
        if self.unsent.capacity() == 0 {
            self.unsent = buffers::take();
        }
        wire::write_frame(&mut self.unsent, CLOSE, &reply, rand::random());
        // The answer goes out if the socket takes it at once; the link is over either way.
        self.try_flush();
        Ok(closed(code, reason))
    }

    /// Write what the socket takes of the queued bytes without waiting (errors are left
    /// for the next [`Link::flush`] to meet).
    fn try_flush(&mut self) {
        if let Ok(n) = self.stream.try_write(&self.unsent) {
            self.unsent.drain(..n);
        }
    }

    /// Take the first `len` unread bytes out as a buffer of their own; the rest stays.
    fn split_frame(&mut self, len: usize) -> Vec<u8> {
        let mut frame = std::mem::take(&mut self.unread);
        if frame.len() > len {
            self.unread = buffers::take();
            self.unread.extend_from_slice(&frame[len..]);
            frame.truncate(len);
        }
        frame
    }

    /// Drop the first `len` unread bytes; the buffer goes back to the pool once empty.
    fn consume(&mut self, len: usize) {
        self.unread.drain(..len);
        if self.unread.is_empty() {
            buffers::give(std::mem::take(&mut self.unread));
        }
    }
}

impl Fragments {
    /// Add one frame's payload, within the message size limit.
    fn extend(&mut self, payload: &[u8]) -> Result<(), Error> {
        let size = self.len + payload.len();
        if size > MAX_MESSAGE_BYTES {
            return Err(Error::Capacity(CapacityError::MessageTooLong {
                size,
                max_size: MAX_MESSAGE_BYTES,
            }));
        }
        if self.text {
            self.bytes.extend_from_slice(payload);
        }
        self.len = size;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::wire::tests::server_frame;
    use super::*;
    use futures::{SinkExt, StreamExt};
    use std::future::Future;
    use std::time::Duration;
    use tokio::net::TcpListener;
    use tokio::task::JoinHandle;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::WebSocketStream;

    type Server = WebSocketStream<TcpStream>;

    /// A link to a tungstenite server on a loopback port, which `serve` then runs. The
    /// server can also write raw bytes with `ws.get_mut()`.
    async fn pair<F, Fut, T>(serve: F) -> (Link, JoinHandle<T>)
    where
        F: FnOnce(Server) -> Fut + Send + 'static,
        Fut: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        let server = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.expect("accept");
            let ws = tokio_tungstenite::accept_async(tcp)
                .await
                .expect("handshake");
            serve(ws).await
        });
        let stream = TcpStream::connect(addr).await.expect("connect");
        let link = Link::open(&format!("ws://{addr}"), stream)
            .await
            .expect("handshake");
        (link, server)
    }

    /// Write raw bytes to the client.
    async fn raw(ws: &mut Server, bytes: &[u8]) {
        ws.get_mut().write_all(bytes).await.expect("raw write");
    }

    async fn text(link: &mut Link) -> String {
        link.recv().await.expect("a text message").to_string()
    }

    /// Texts of every size come through whole, also several in one read and one split
    /// byte by byte; pings are answered with their payload, pongs skipped.
    #[tokio::test]
    async fn receives_texts_and_answers_pings() {
        let big = "x".repeat(3 * buffers::BUFFER_BYTES + 17);
        let huge = "y".repeat(70_000);
        let (mut link, server) = pair({
            let (big, huge) = (big.clone(), huge.clone());
            move |mut ws| async move {
                ws.send(Message::text("one")).await.expect("send");
                ws.send(Message::text(big)).await.expect("send");
                ws.send(Message::text(huge)).await.expect("send");
                let mut together = server_frame(TEXT, true, b"a");
                together.extend(server_frame(PONG, true, b"p"));
                together.extend(server_frame(PING, true, b"ping!"));
                together.extend(server_frame(TEXT, true, "é".as_bytes()));
                raw(&mut ws, &together).await;
                let pong = match ws.next().await.expect("a frame").expect("valid") {
                    Message::Pong(payload) => payload,
                    other => panic!("unexpected {other:?}"),
                };
                for byte in server_frame(TEXT, true, "split".as_bytes()) {
                    raw(&mut ws, &[byte]).await;
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                pong
            }
        })
        .await;
        assert_eq!(text(&mut link).await, "one");
        assert_eq!(text(&mut link).await, big);
        assert_eq!(text(&mut link).await, huge);
        assert_eq!(text(&mut link).await, "a");
        assert_eq!(text(&mut link).await, "é");
        assert_eq!(text(&mut link).await, "split");
        assert_eq!(&server.await.expect("server")[..], b"ping!");
    }

    /// Fragments (with a ping between them, and a character cut in two) make one message;
    /// binary messages, whole or fragmented, are reported and the link goes on.
    #[tokio::test]
    async fn puts_fragments_together_and_reports_binary() {
        let (mut link, server) = pair(|mut ws| async move {
            let word = "wörld".as_bytes();
            let mut frames = server_frame(TEXT, false, b"hel");
            frames.extend(server_frame(PING, true, b""));
            frames.extend(server_frame(CONTINUATION, false, b"lo "));
            frames.extend(server_frame(CONTINUATION, false, &word[..2]));
            frames.extend(server_frame(CONTINUATION, true, &word[2..]));
            frames.extend(server_frame(BINARY, true, &[1, 2, 3]));
            frames.extend(server_frame(BINARY, false, &[1, 2]));
            frames.extend(server_frame(CONTINUATION, true, &[3, 4, 5]));
            frames.extend(server_frame(TEXT, true, b"after"));
            raw(&mut ws, &frames).await;
            ws.next().await
        })
        .await;
        assert_eq!(text(&mut link).await, "hello wörld");
        assert!(matches!(link.recv().await, Err(ClientError::Binary(3))));
        assert!(matches!(link.recv().await, Err(ClientError::Binary(5))));
        assert_eq!(text(&mut link).await, "after");
        drop(link);
        // The pong went out before the link waited for more.
        assert!(matches!(
            server.await.expect("server"),
            Some(Ok(Message::Pong(_)))
        ));
    }

    /// Frames the server may not send fail the link, as they fail tungstenite's.
    #[tokio::test]
    async fn refuses_bad_frames() {
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (
                server_frame(CONTINUATION, true, b"x"),
                "UnexpectedContinueFrame",
            ),
            (vec![0x81, 0x81, 1, 2, 3, 4, b'x'], "MaskedFrameFromServer"),
            (server_frame(TEXT, true, &[0xff, 0xfe]), "Utf8"),
            (
                [
                    server_frame(TEXT, false, b"a"),
                    server_frame(TEXT, true, b"b"),
                ]
                .concat(),
                "ExpectedFragment",
            ),
            (vec![0x83, 0], "InvalidOpcode"),
        ];
        for (bytes, want) in cases {
            let (mut link, _server) = pair(move |mut ws| async move {
                raw(&mut ws, &bytes).await;
                // Keep the connection open until the client is done.
                ws.next().await
            })
            .await;
            let err = link.recv().await.expect_err(want);
            assert!(format!("{err:?}").contains(want), "{want}: {err:?}");
            assert!(matches!(
                link.recv().await,
                Err(ClientError::Closed { code: None, .. })
            ));
        }
    }

    /// A close frame ends the link with its code and reason and is answered; a code a
    /// server may not send reads as 1002. The end of the stream without one is an error.
    #[tokio::test]
    async fn reports_close_and_answers_it() {
        let (mut link, server) = pair(|mut ws| async move {
            let mut payload = 1000u16.to_be_bytes().to_vec();
            payload.extend_from_slice(b"bye");
            raw(&mut ws, &server_frame(CLOSE, true, &payload)).await;
            ws.next().await
        })
        .await;
        match link.recv().await {
            Err(ClientError::Closed { code, reason }) => {
                assert_eq!((code, reason.as_str()), (Some(1000), "bye"));
            }
            other => panic!("{other:?}"),
        }
        assert!(link.queue(&"late").is_err());
        let reply = server.await.expect("server");
        assert!(
            matches!(&reply, Some(Ok(Message::Close(Some(f)))) if u16::from(f.code) == 1000),
            "{reply:?}"
        );

        let (mut link, _server) = pair(|mut ws| async move {
            raw(&mut ws, &server_frame(CLOSE, true, &1005u16.to_be_bytes())).await;
            ws.next().await
        })
        .await;
        match link.recv().await {
            Err(ClientError::Closed { code, reason }) => {
                assert_eq!((code, reason.as_str()), (Some(1002), "Protocol violation"));
            }
            other => panic!("{other:?}"),
        }

        let (mut link, _server) = pair(|ws| async move { drop(ws) }).await;
        let err = link.recv().await.expect_err("reset");
        assert!(
            format!("{err:?}").contains("ResetWithoutClosingHandshake"),
            "{err:?}"
        );
        assert!(matches!(
            link.recv().await,
            Err(ClientError::Closed { code: None, .. })
        ));
    }

    /// Sent frames are masked frames tungstenite's server accepts, at every length form.
    #[tokio::test]
    async fn sends_frames_the_server_accepts() {
        let texts: Vec<String> = [3, 125, 126, 5000, 65_536, 100_000]
            .iter()
            .map(|&n| "z".repeat(n))
            .collect();
        let count = texts.len();
        let (mut link, server) = pair(move |mut ws| async move {
            let mut got = Vec::new();
            while got.len() < count {
                match ws.next().await.expect("a frame").expect("a valid frame") {
                    Message::Text(t) => got.push(t.as_str().to_owned()),
                    other => panic!("unexpected {other:?}"),
                }
            }
            got
        })
        .await;
        for text in &texts {
            let len = link.queue(text).expect("encodes");
            assert_eq!(len, text.len() + 2);
            link.flush().await.expect("sent");
        }
        let got = server.await.expect("server");
        let want: Vec<String> = texts.iter().map(|t| format!("\"{t}\"")).collect();
        assert_eq!(got, want);
    }

    /// A receive dropped half-way through a frame loses nothing: the next one returns it.
    #[tokio::test]
    async fn receiving_is_cancel_safe() {
        let (mut link, server) = pair(|mut ws| async move {
            let frame = server_frame(TEXT, true, "x".repeat(3000).as_bytes());
            raw(&mut ws, &frame[..1000]).await;
            tokio::time::sleep(Duration::from_millis(200)).await;
            raw(&mut ws, &frame[1000..]).await;
            ws.next().await
        })
        .await;
        let early = tokio::time::timeout(Duration::from_millis(50), link.recv()).await;
        assert!(early.is_err(), "the frame is not complete yet");
        assert_eq!(text(&mut link).await.len(), 3000);
        drop(link);
        drop(server);
    }
}
