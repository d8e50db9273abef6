//! Plain HTTP/1.1 against a test server, written by hand on a TCP socket so that tests see
//! exactly what the server sends (status line, headers, body), and a reader of the
//! Prometheus text format for `/metrics`.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::TIMEOUT;

/// One HTTP response.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// Header names in lower case, with their values.
    pub headers: BTreeMap<String, String>,
    /// The body.
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("a text body")
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    /// A header's value (name in lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

/// An HTTP connection kept alive between requests.
pub struct HttpConn {
    socket: TcpStream,
    /// Bytes read past the last response.
    buffered: Vec<u8>,
}

impl HttpConn {
    /// Open a connection to `addr`.
    pub async fn open(addr: SocketAddr) -> HttpConn {
        let socket = TcpStream::connect(addr).await.expect("tcp connect");
        HttpConn {
            socket,
            buffered: Vec::new(),
        }
    }

    /// Send `method path` and read its response (the connection stays open).
    pub async fn request(&mut self, method: &str, path: &str) -> Answer {
        let request = format!("{method} {path} HTTP/1.1\r\nHost: test\r\n\r\n");
        self.send_raw(request.as_bytes()).await;
        self.read_answer(method == "HEAD").await
    }

    /// Write raw bytes.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.socket.write_all(bytes).await.expect("write");
    }

    /// Read one response (no body after a `HEAD`).
    pub async fn read_answer(&mut self, head_only: bool) -> Answer {
        tokio::time::timeout(TIMEOUT, self.read_answer_inner(head_only))
            .await
            .expect("an HTTP answer in time")
    }

    async fn read_answer_inner(&mut self, head_only: bool) -> Answer {
        let end = loop {
            if let Some(at) = find(&self.buffered, b"\r\n\r\n") {
                break at;
            }
            self.fill().await;
        };
        let head = String::from_utf8(self.buffered[..end].to_vec()).expect("an ASCII head");
        self.buffered.drain(..end + 4);
        let mut lines = head.split("\r\n");
        let status_line = lines.next().expect("a status line");
        let status: u16 = status_line
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status in {status_line:?}"));
        let headers: BTreeMap<String, String> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
            .collect();
        let length: usize = if head_only || status == 101 {
            0
        } else {
            headers
                .get("content-length")
                .map(|n| n.parse().expect("a length"))
                .expect("the server sends Content-Length")
        };
        while self.buffered.len() < length {
            self.fill().await;
        }
        let body = self.buffered.drain(..length).collect();
        Answer {
            status,
            headers,
            body,
        }
    }

    /// Whether the server closed the connection (reads to its end, within the timeout).
    pub async fn is_closed_by_server(&mut self) -> bool {
        let mut buf = [0u8; 1024];
        matches!(
            tokio::time::timeout(TIMEOUT, self.socket.read(&mut buf)).await,
            Ok(Ok(0) | Err(_))
        )
    }

    async fn fill(&mut self) {
        let mut buf = [0u8; 8192];
        let n = self.socket.read(&mut buf).await.expect("read");
        assert!(n > 0, "the server closed the connection mid-answer");
        self.buffered.extend_from_slice(&buf[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `GET path` on a fresh connection.
pub async fn get(addr: SocketAddr, path: &str) -> Answer {
    HttpConn::open(addr).await.request("GET", path).await
}

/// The samples of a Prometheus text page: each series (name and labels) with its value.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    series: Vec<(String, BTreeMap<String, String>, f64)>,
}

impl Samples {
    /// Read a page; panics on a line that is neither a comment nor a sample.
    pub fn parse(text: &str) -> Samples {
        let mut series = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .rsplit_once(' ')
                .unwrap_or_else(|| panic!("not a sample: {line:?}"));
            let value: f64 = value
                .parse()
                .unwrap_or_else(|_| panic!("not a number in {line:?}"));
            let (name, labels) = match key.split_once('{') {
                Some((name, rest)) => {
                    let inner = rest.strip_suffix('}').expect("labels end with }");
                    let labels = inner
                        .split(',')
                        .filter(|pair| !pair.is_empty())
                        .map(|pair| {
                            let (k, v) = pair.split_once('=').expect("label=value");
                            (k.to_string(), v.trim_matches('"').to_string())
                        })
                        .collect();
                    (name.to_string(), labels)
                }
                None => (key.to_string(), BTreeMap::new()),
            };
            series.push((name, labels, value));
        }
        Samples { series }
    }

    /// The value of the series `name` whose labels include `labels`, summed over the
    /// series that match (0 when none does).
    pub fn value(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.series
            .iter()
            .filter(|(n, l, _)| {
                n == name
                    && labels
                        .iter()
                        .all(|(k, v)| l.get(*k).is_some_and(|got| got == v))
            })
            .map(|(_, _, v)| v)
            .sum()
    }

    /// Whether any series is named `name`.
    pub fn has(&self, name: &str) -> bool {
        self.series.iter().any(|(n, _, _)| n == name)
    }
}

/// `GET /metrics`, read.
pub async fn scrape(addr: SocketAddr) -> Samples {
    let answer = get(addr, "/metrics").await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(
        answer
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/plain; version=0.0.4")),
        "the Prometheus text format: {:?}",
        answer.headers
    );
    Samples::parse(&answer.text())
}
