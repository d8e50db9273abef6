//! The WebSocket opening handshake (RFC 6455 §4.2) as an HTTP exchange: which requests ask
//! for a WebSocket, whether such a request is well formed, and the `101 Switching Protocols`
//! answer (or the refusal saying what is wrong).
//!
//! hyper reads and parses the request; this file only judges its method, version and
//! headers. A request that carries none of the WebSocket headers is not an attempt at all:
//! it is plain HTTP (the page, `/health`, ...).

use hyper::header::{HeaderMap, HeaderValue, CONNECTION, SEC_WEBSOCKET_ACCEPT, SEC_WEBSOCKET_KEY};
use hyper::header::{SEC_WEBSOCKET_VERSION, UPGRADE};
use hyper::{Method, Request, StatusCode, Version};
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;

/// The one WebSocket version this server speaks.
pub const WEBSOCKET_VERSION: &str = "13";

/// A refused opening handshake: the status, extra headers and a sentence saying why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// 400, or 426 for a version this server does not speak.
    pub status: StatusCode,
    /// Headers to add (the version spoken, with 426).
    pub headers: Vec<(&'static str, &'static str)>,
    /// Why, for people.
    pub reason: &'static str,
}

/// Whether `request` tries to open a WebSocket: it names the protocol in `Upgrade`, or
/// carries a WebSocket key or version. (A browser asking for the page carries none.)
pub fn is_attempt<B>(request: &Request<B>) -> bool {
    let headers = request.headers();
    headers.contains_key(SEC_WEBSOCKET_KEY)
        || headers.contains_key(SEC_WEBSOCKET_VERSION)
        || headers
            .get_all(UPGRADE)
            .iter()
            .any(|value| has_token(value, "websocket"))
}

/// Check an opening handshake; on success, the `Sec-WebSocket-Accept` value to answer
/// with.
pub fn check<B>(request: &Request<B>) -> Result<HeaderValue, Refused> {
    let bad = |reason| Refused {
        status: StatusCode::BAD_REQUEST,
        headers: Vec::new(),
        reason,
    };
    if request.method() != Method::GET {
        return Err(bad("a WebSocket opening handshake is a GET request"));
    }
    if request.version() < Version::HTTP_11 {
        return Err(bad("a WebSocket opening handshake needs HTTP/1.1 or later"));
    }
    let headers = request.headers();
    if !any_token(headers, CONNECTION, "upgrade") {
        return Err(bad(
            "the request has no \"Connection: Upgrade\" header: a WebSocket opening \
             handshake asks to upgrade the connection",
        ));
    }
    if !any_token(headers, UPGRADE, "websocket") {
        return Err(bad(
            "the request has no \"Upgrade: websocket\" header: a WebSocket opening \
             handshake names the protocol it upgrades to",
        ));
    }
    let version = headers.get(SEC_WEBSOCKET_VERSION);
    if version.is_none_or(|v| v.as_bytes() != WEBSOCKET_VERSION.as_bytes()) {
        return Err(Refused {
            status: StatusCode::UPGRADE_REQUIRED,
            headers: vec![
                ("Upgrade", "websocket"),
                ("Sec-WebSocket-Version", WEBSOCKET_VERSION),
            ],
            reason: "this server speaks WebSocket version 13 only (send \
                     Sec-WebSocket-Version: 13)",
        });
    }
    let mut keys = headers.get_all(SEC_WEBSOCKET_KEY).iter();
    let key = match (keys.next(), keys.next()) {
        (Some(key), None) => key,
        (None, _) => return Err(bad("the request has no Sec-WebSocket-Key header")),
        (Some(_), Some(_)) => return Err(bad("the request has more than one Sec-WebSocket-Key")),
    };
    if !is_nonce(key.as_bytes()) {
        return Err(bad(
            "Sec-WebSocket-Key must be 16 bytes in base64 (24 characters)",
        ));
    }
    let accept = derive_accept_key(key.as_bytes());
    Ok(HeaderValue::from_str(&accept).expect("base64 text is a valid header value"))
}

/// The answer that opens the WebSocket.
pub fn switching(accept: HeaderValue) -> hyper::Response<http_body_util::Full<bytes::Bytes>> {
    let mut response = hyper::Response::new(http_body_util::Full::default());
    *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = response.headers_mut();
    headers.insert(UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(CONNECTION, HeaderValue::from_static("Upgrade"));
    headers.insert(SEC_WEBSOCKET_ACCEPT, accept);
    response
}

/// Whether the comma-separated `value` lists `token` (case-insensitive).
fn has_token(value: &HeaderValue, token: &str) -> bool {
    value
        .to_str()
        .map(|text| {
            text.split(',')
                .any(|part| part.trim().eq_ignore_ascii_case(token))
        })
        .unwrap_or(false)
}

/// Whether any `name` header lists `token`.
fn any_token(headers: &HeaderMap, name: hyper::header::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .any(|value| has_token(value, token))
}

/// Whether `key` is 16 bytes in base64: 22 characters of the alphabet, then `==` (the last
/// character before the padding carries 2 bits, so only some letters may stand there).
fn is_nonce(key: &[u8]) -> bool {
    const LAST: &[u8] = b"AQgw";
    let is_base64 = |b: &u8| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/';
    key.len() == 24
        && key[..22].iter().all(is_base64)
        && LAST.contains(&key[21])
        && &key[22..] == b"=="
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(edit: impl FnOnce(&mut hyper::http::request::Builder)) -> Request<()> {
        let mut builder = Request::get("/")
            .header("Host", "example")
            .header("Upgrade", "websocket")
            .header("Connection", "keep-alive, Upgrade")
            .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
            .header("Sec-WebSocket-Version", "13");
        edit(&mut builder);
        builder.body(()).expect("a valid request")
    }

    #[test]
    fn a_valid_handshake_gets_the_accept_key_of_rfc_6455() {
        let accept = check(&request(|_| {})).expect("accepted");
        assert_eq!(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
        let response = switching(accept);
        assert_eq!(response.status(), StatusCode::SWITCHING_PROTOCOLS);
        assert_eq!(response.headers()["upgrade"], "websocket");
    }

    #[test]
    fn a_page_request_is_no_attempt() {
        let page = Request::get("/").body(()).expect("valid");
        assert!(!is_attempt(&page));
        assert!(is_attempt(&request(|_| {})));
        let key_only = Request::get("/")
            .header("Sec-WebSocket-Key", "x")
            .body(())
            .expect("valid");
        assert!(is_attempt(&key_only));
    }

    #[test]
    fn each_defect_gets_its_status() {
        let status = |r: Request<()>| check(&r).map(|_| ()).unwrap_err().status;
        let post = Request::post("/")
            .header("Upgrade", "websocket")
            .body(())
            .expect("valid");
        assert_eq!(status(post), StatusCode::BAD_REQUEST);
        let old = request(|b| {
            *b = std::mem::take(b).version(Version::HTTP_10);
        });
        assert_eq!(status(old), StatusCode::BAD_REQUEST);
        let no_version = Request::get("/")
            .header("Upgrade", "websocket")
            .header("Connection", "Upgrade")
            .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
            .body(())
            .expect("valid");
        assert_eq!(status(no_version), StatusCode::UPGRADE_REQUIRED);
        let version_8 = request(|b| {
            b.headers_mut()
                .expect("builder ok")
                .insert(SEC_WEBSOCKET_VERSION, HeaderValue::from_static("8"));
        });
        assert_eq!(status(version_8), StatusCode::UPGRADE_REQUIRED);
        let short = request(|b| {
            b.headers_mut()
                .expect("builder ok")
                .insert(SEC_WEBSOCKET_KEY, HeaderValue::from_static("c2hvcnQ="));
        });
        assert_eq!(status(short), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn nonces_are_16_bytes_of_base64() {
        assert!(is_nonce(b"dGhlIHNhbXBsZSBub25jZQ=="));
        assert!(is_nonce(b"AAAAAAAAAAAAAAAAAAAAAA=="));
        assert!(
            !is_nonce(b"dGhlIHNhbXBsZSBub25jZR=="),
            "stray bits in the last letter"
        );
        assert!(!is_nonce(b"dGhlIHNhbXBsZSBub25jZQ="));
        assert!(!is_nonce(b"dGhlIHNhbX!sZSBub25jZQ=="));
    }
}
