//! HTTP on the WebSocket port: every accepted connection starts as HTTP/1.1, served by hyper.
//!
//! A request that opens a WebSocket ([`upgrade`]) is answered `101 Switching Protocols`, and
//! the socket is handed back (with any bytes read past the request) to the WebSocket edge,
//! which speaks frames on it from then on. Any other request is plain HTTP ([`routes`]):
//! `/health`, `/metrics`, `/api/battles` and the web page ([`assets`]). A connection must send
//! each request's head within the handshake timeout (hyper's header read timeout), or it is
//! closed; an idle keep-alive connection is closed after the same time.

pub mod assets;
pub mod routes;
pub mod upgrade;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONNECTION, UPGRADE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::upgrade::OnUpgrade;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;

use crate::lobby::Lobby;
use crate::poison::Locked;
use crate::rate::Bucket;

/// A response body: the whole of it at once.
pub type Body = Full<Bytes>;

/// A socket whose opening handshake is done: the WebSocket edge takes it from here.
#[derive(Debug)]
pub struct Upgraded {
    /// The socket, ready for frames.
    pub stream: TcpStream,
    /// Bytes the client sent after its request that were already read (frames it sent
    /// without waiting for the answer): the first the frame reader reads.
    pub early: Bytes,
}

/// What a connection's plain HTTP requests are answered from.
#[derive(Clone)]
pub enum Site {
    /// The battle server: its pages and its lobby.
    Lobby(Arc<Lobby>),
    /// Only WebSockets (the echo server of the conformance suite): every other request is
    /// told so.
    WebSocketOnly,
}

/// Serve HTTP on `stream` until it closes, or until a request opens a WebSocket: then the
/// socket, for the WebSocket edge. `timeout` bounds the wait for each request's head.
pub async fn serve(stream: TcpStream, site: Site, timeout: Duration) -> Option<Upgraded> {
    let upgrade: Arc<Mutex<Option<OnUpgrade>>> = Arc::default();
    let bucket = Arc::new(match &site {
        Site::Lobby(lobby) => Bucket::new(lobby.config().list_rate),
        Site::WebSocketOnly => Bucket::new(crate::config::Rate::UNLIMITED),
    });
    let service = {
        let upgrade = upgrade.clone();
        service_fn(move |request: Request<Incoming>| {
            let (upgrade, site, bucket) = (upgrade.clone(), site.clone(), bucket.clone());
            async move { Ok::<_, Infallible>(answer(request, &site, &upgrade, &bucket).await) }
        })
    };
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(timeout)
        .keep_alive(true);
    let served = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades()
        .await;
    if let Err(err) = served {
        tracing::debug!(%err, "http connection ended");
    }
    let pending = upgrade.locked().take()?;
    let upgraded = match pending.await {
        Ok(upgraded) => upgraded,
        Err(err) => {
            tracing::debug!(%err, "the upgrade did not complete");
            return None;
        }
    };
    match upgraded.downcast::<TokioIo<TcpStream>>() {
        Ok(parts) => Some(Upgraded {
            stream: parts.io.into_inner(),
            early: parts.read_buf,
        }),
        Err(_) => {
            // The connection was served on a `TokioIo<TcpStream>` just above.
            tracing::error!("an upgraded connection is not the socket it was served on");
            None
        }
    }
}

/// Answer one request: open a WebSocket, refuse a malformed opening, or serve a page.
async fn answer(
    mut request: Request<Incoming>,
    site: &Site,
    upgrade: &Mutex<Option<OnUpgrade>>,
    bucket: &Bucket,
) -> Response<Body> {
    if upgrade::is_attempt(&request) {
        if let Site::Lobby(lobby) = site {
            lobby.metrics().http_request("upgrade");
            if lobby.is_draining() {
                return routes::closing(routes::text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is shutting down; reconnect in a moment",
                ));
            }
        }
        return match upgrade::check(&request) {
            Ok(accept) => {
                *upgrade.locked() = Some(hyper::upgrade::on(&mut request));
                upgrade::switching(accept)
            }
            Err(refused) => {
                let mut response = routes::closing(routes::text(refused.status, refused.reason));
                let headers = response.headers_mut();
                for (name, value) in refused.headers {
                    headers.insert(name, HeaderValue::from_static(value));
                }
                if headers.contains_key(UPGRADE) {
                    // A response naming a protocol to upgrade to names it as a connection
                    // option too (RFC 9110 §7.8).
                    headers.insert(CONNECTION, HeaderValue::from_static("Upgrade, close"));
                }
                response
            }
        };
    }
    match site {
        Site::Lobby(lobby) => routes::answer(&request, lobby, bucket).await,
        Site::WebSocketOnly => {
            let mut response = routes::text(
                StatusCode::UPGRADE_REQUIRED,
                "this endpoint speaks WebSocket only",
            );
            let headers = response.headers_mut();
            headers.insert(UPGRADE, HeaderValue::from_static("websocket"));
            headers.insert(CONNECTION, HeaderValue::from_static("Upgrade, close"));
            response
        }
    }
}
