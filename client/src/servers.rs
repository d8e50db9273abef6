//! [`Servers`]: the addresses a client may use, in order. A client connects to the first one
//! that answers; a session whose connection drops tries the next one in turn, so that a
//! player whose node of a cluster died takes their seat back through another node.

use std::fmt;
use std::time::Duration;

use crate::{ClientError, Connection};

/// The server addresses a client may use (`ws://` URLs), in order; never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Servers {
    urls: Vec<String>,
}

impl Servers {
    /// `urls` in order; `None` when there is none.
    pub fn new(urls: Vec<String>) -> Option<Servers> {
        (!urls.is_empty()).then_some(Servers { urls })
    }

    /// Every address, in order.
    pub fn urls(&self) -> &[String] {
        &self.urls
    }

    /// The first address.
    pub fn first(&self) -> &str {
        &self.urls[0]
    }

    /// The address at position `at`, counting round: after the last comes the first again.
    pub fn get(&self, at: usize) -> &str {
        &self.urls[at % self.urls.len()]
    }

    /// The position after `at`, round robin.
    pub fn next(&self, at: usize) -> usize {
        (at + 1) % self.urls.len()
    }

    /// Connect to the first address that accepts a WebSocket connection within `timeout`;
    /// returns its position and the connection. When none does, the first address's error
    /// (nothing listening there reads as such).
    pub async fn connect_first(
        &self,
        timeout: Duration,
    ) -> Result<(usize, Connection), ClientError> {
        let mut first_error = None;
        for (at, url) in self.urls.iter().enumerate() {
            match connect(url, timeout).await {
                Ok(conn) => return Ok((at, conn)),
                Err(err) => {
                    first_error.get_or_insert(err);
                }
            }
        }
        Err(first_error.unwrap_or(ClientError::Timeout(timeout)))
    }

    /// The first address that answers (a connection is opened there and closed again), or
    /// the first address when none does: a command that talks to one server once goes
    /// there, and its own error says what is wrong. With one address, nothing is tried.
    pub async fn answering(&self, timeout: Duration) -> &str {
        if self.urls.len() > 1 {
            for url in &self.urls {
                if let Ok(conn) = connect(url, timeout).await {
                    let _ = tokio::time::timeout(timeout, conn.close()).await;
                    return url;
                }
            }
        }
        self.first()
    }
}

/// Open a connection to `url` within `timeout`.
async fn connect(url: &str, timeout: Duration) -> Result<Connection, ClientError> {
    match tokio::time::timeout(timeout, Connection::connect(url)).await {
        Ok(result) => result,
        Err(_) => Err(ClientError::Timeout(timeout)),
    }
}

/// The addresses as `--server` takes them back: separated by commas.
impl fmt::Display for Servers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.urls.join(","))
    }
}

impl From<&str> for Servers {
    fn from(url: &str) -> Servers {
        Servers {
            urls: vec![url.to_owned()],
        }
    }
}

impl From<&String> for Servers {
    fn from(url: &String) -> Servers {
        Servers::from(url.as_str())
    }
}

impl From<String> for Servers {
    fn from(url: String) -> Servers {
        Servers { urls: vec![url] }
    }
}

impl From<&Servers> for Servers {
    fn from(servers: &Servers) -> Servers {
        servers.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Servers {
        Servers::new(vec!["ws://a:1".into(), "ws://b:2".into()]).expect("two addresses")
    }

    #[test]
    fn addresses_go_round() {
        let servers = two();
        assert_eq!(servers.first(), "ws://a:1");
        assert_eq!(servers.get(3), "ws://b:2");
        assert_eq!(servers.next(0), 1);
        assert_eq!(servers.next(1), 0);
        assert_eq!(servers.to_string(), "ws://a:1,ws://b:2");
        assert_eq!(Servers::from("ws://c:3").next(0), 0, "one address: itself");
        assert!(Servers::new(Vec::new()).is_none());
    }

    /// A port nothing listens on (free a moment ago).
    fn dead_url() -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
        let port = listener.local_addr().expect("bound").port();
        format!("ws://127.0.0.1:{port}")
    }

    #[tokio::test]
    async fn nobody_answering_gives_the_first_address_and_its_error() {
        let (one, other) = (dead_url(), dead_url());
        let servers = Servers::new(vec![one.clone(), other]).expect("two addresses");
        assert_eq!(servers.answering(Duration::from_secs(2)).await, one);
        let err = servers
            .connect_first(Duration::from_secs(2))
            .await
            .expect_err("nobody listens");
        assert!(
            crate::is_refused(&err),
            "refused, as at the first address: {err}"
        );
    }

    #[tokio::test]
    async fn the_first_address_that_answers_is_taken() {
        let server = battle_server::start(battle_server::Config::for_tests())
            .await
            .expect("the test server starts");
        let servers = Servers::new(vec![dead_url(), server.url()]).expect("two addresses");
        assert_eq!(
            servers.answering(Duration::from_secs(2)).await,
            server.url()
        );
        let (at, _conn) = servers
            .connect_first(Duration::from_secs(2))
            .await
            .expect("the second address answers");
        assert_eq!(at, 1);
        server.shutdown().await;
    }
}
