//! `autobahn_echo`: an echo server built on the battle server's own WebSocket edge, for the
//! Autobahn|Testsuite (`.ci/autobahn`).
//!
//! Every connection goes through the server's HTTP side and opening handshake
//! ([`battle_server::http::serve`]), its frame reader ([`FrameReader`]: the RFC 6455
//! checks and close codes) and its server frames ([`Frame`]); nothing of tungstenite's
//! message layer is used. Each text and binary message is echoed, each ping answered, a close
//! frame answered with the same code (1000 when it had none); a frame that breaks the
//! protocol is answered with the close code the battle server would send. After its close
//! frame the server ends the TCP connection, as RFC 6455 §7.1.1 asks of a server.
//!
//! Usage: `autobahn_echo [ADDR]` (default `127.0.0.1:0`); prints
//! `autobahn_echo listening on ws://ADDR` once it listens, then serves until killed.

use std::net::SocketAddr;
use std::ops::ControlFlow;
use std::time::Duration;

use anyhow::Context;
use battle_server::connection::frame::Frame;
use battle_server::connection::frame_reader::{Fed, FrameReader, Inbound};
use battle_server::http::{self, Site};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// Largest message echoed: the suite's sections 1-7 and 10 send up to 256 KiB.
const MAX_MESSAGE: usize = 16 << 20;

/// Time for the opening handshake, as the battle server's default.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the client gets to close its side after the server's close frame.
const LINGER: Duration = Duration::from_secs(2);

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let addr: SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".into())
        .parse()
        .context("the argument is an address such as 127.0.0.1:9001")?;
    let listener = TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    println!("autobahn_echo listening on ws://{}", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await.context("accept")?;
        tokio::spawn(async move {
            if let Err(err) = serve(stream).await {
                eprintln!("autobahn_echo: {err}");
            }
        });
    }
}

/// Echo one connection until it closes.
async fn serve(stream: TcpStream) -> anyhow::Result<()> {
    let _ = stream.set_nodelay(true);
    let Some(upgraded) = http::serve(stream, Site::WebSocketOnly, HANDSHAKE_TIMEOUT).await else {
        // Answered in HTTP already (or the client went away): nothing more to do.
        return Ok(());
    };
    let mut stream = upgraded.stream;
    let mut reader = FrameReader::new(MAX_MESSAGE);
    let mut buf = vec![0u8; 64 * 1024];
    // Frames sent right behind the request were read with it: they come first.
    let mut early = upgraded.early.to_vec();
    let close = loop {
        let n = if early.is_empty() {
            stream.read(&mut buf).await?
        } else {
            let n = early.len().min(buf.len());
            buf[..n].copy_from_slice(&early[..n]);
            early.drain(..n);
            n
        };
        if n == 0 {
            return Ok(());
        }
        let mut replies = Vec::new();
        let mut closed_with = None;
        let fed = reader.feed(&mut buf[..n], |inbound| {
            match inbound {
                Inbound::Text(text) => replies.push(Frame::text(text)),
                Inbound::Binary(bytes) => replies.push(Frame::binary(bytes)),
                Inbound::Ping(payload) => replies.push(Frame::pong(payload)),
                Inbound::Close(code) => closed_with = Some(code),
            }
            ControlFlow::Continue(())
        });
        // What came before a close or a broken frame is answered first.
        for frame in &replies {
            stream.write_all(frame.bytes()).await?;
        }
        match fed {
            Ok(Fed::Done | Fed::Paused) => {}
            Ok(Fed::Closed) => {
                let code = closed_with
                    .flatten()
                    .map_or(CloseCode::Normal, CloseCode::from);
                break Frame::close(code, "");
            }
            Err(err) => break Frame::close(err.close_code(), &err.to_string()),
        }
    };
    stream.write_all(close.bytes()).await?;
    // The server ends the TCP connection first; waiting for the client's end keeps a reset
    // from racing the close frame.
    stream.shutdown().await?;
    let _ = tokio::time::timeout(LINGER, async {
        while stream.read(&mut buf).await.is_ok_and(|n| n > 0) {}
    })
    .await;
    Ok(())
}
