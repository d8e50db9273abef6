//! Refusing a connection in plain HTTP, before any WebSocket exists: a status line, a few
//! headers and a one-line body saying why, then the connection closes.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Longest a refusal may take to write: a peer that does not read is not waited for.
const WRITE_LIMIT: Duration = Duration::from_secs(2);

/// A refusal to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRefusal {
    /// The status code, e.g. 503.
    pub status: u16,
    /// Its reason phrase, e.g. `"Service Unavailable"`.
    pub reason: &'static str,
    /// Headers beyond `Content-Type`, `Content-Length` and `Connection` (e.g.
    /// `Sec-WebSocket-Version` with 426, `Retry-After` with 503).
    pub headers: Vec<(&'static str, String)>,
    /// Why, in one sentence for people (sent as `text/plain`).
    pub body: String,
}

impl HttpRefusal {
    /// The whole response as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let body = format!("{}\n", self.body);
        // A response naming a protocol to upgrade to names it as a connection option too
        // (RFC 9110 §7.8).
        let upgrade = self
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("Upgrade"));
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
             Connection: {}\r\n",
            self.status,
            self.reason,
            body.len(),
            if upgrade { "Upgrade, close" } else { "close" },
        );
        for (name, value) in &self.headers {
            out.push_str(name);
            out.push_str(": ");
            out.push_str(value);
            out.push_str("\r\n");
        }
        out.push_str("\r\n");
        out.push_str(&body);
        out.into_bytes()
    }

    /// Write the refusal to `stream` (within [`WRITE_LIMIT`]) and close it.
    pub async fn send(&self, mut stream: TcpStream) {
        let bytes = self.to_bytes();
        let _ = tokio::time::timeout(WRITE_LIMIT, async {
            stream.write_all(&bytes).await?;
            stream.shutdown().await
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_a_whole_http_response() {
        let refusal = HttpRefusal {
            status: 426,
            reason: "Upgrade Required",
            headers: vec![("Sec-WebSocket-Version", "13".into())],
            body: "this endpoint speaks WebSocket version 13".into(),
        };
        let text = String::from_utf8(refusal.to_bytes()).expect("ASCII");
        assert!(text.starts_with("HTTP/1.1 426 Upgrade Required\r\n"));
        assert!(text.contains("\r\nSec-WebSocket-Version: 13\r\n"));
        assert!(text.contains("Content-Length: 42\r\n"), "{text}");
        assert!(text.contains("\r\nConnection: close\r\n"), "{text}");
        assert!(text.ends_with("\r\n\r\nthis endpoint speaks WebSocket version 13\n"));
    }

    #[test]
    fn a_refusal_naming_an_upgrade_names_it_in_connection_too() {
        let refusal = HttpRefusal {
            status: 426,
            reason: "Upgrade Required",
            headers: vec![("Upgrade", "websocket".into())],
            body: "use WebSocket".into(),
        };
        let text = String::from_utf8(refusal.to_bytes()).expect("ASCII");
        assert!(
            text.contains("\r\nConnection: Upgrade, close\r\n"),
            "{text}"
        );
    }
}
