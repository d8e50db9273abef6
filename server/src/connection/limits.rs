//! Connection caps: how many connections the server holds in all and from one address. Each
//! accepted connection holds a [`Slot`] until it ends (its WebSocket handshake included);
//! a connection over a cap gets a plain-HTTP 503 instead of the WebSocket upgrade, written
//! by a short task of its own so the accept loop never waits on it.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use super::http_refusal::HttpRefusal;
use crate::poison::Locked;

/// Most 503 refusals being written at once; a connection over a cap beyond them is closed
/// without an answer. Each refusal holds a file descriptor for up to a few seconds, and a
/// flood must not turn them into a way around the caps.
pub const REFUSALS_IN_FLIGHT: usize = 64;

/// The `Retry-After` of a refusal, in seconds.
pub const RETRY_AFTER_SECS: u32 = 5;

/// How long a refusal waits for the request it answers.
const REQUEST_WAIT: Duration = Duration::from_secs(1);

/// Most request bytes a refusal reads before it answers anyway.
const REQUEST_MAX: usize = 8 * 1024;

/// Why a connection is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Full {
    /// The server holds `limit` connections, `--max-connections`.
    #[error("the server holds {limit} connections, its limit; retry in a few seconds")]
    Server {
        /// The cap.
        limit: usize,
    },
    /// `limit` connections are open from the client's address, `--max-connections-per-ip`.
    #[error(
        "{limit} connections are open from your address, the most one address may hold; \
         close one or retry later"
    )]
    Address {
        /// The cap.
        limit: usize,
    },
}

impl Full {
    /// A stable name for logs and tests.
    pub fn code(&self) -> &'static str {
        match self {
            Full::Server { .. } => "too_many_connections",
            Full::Address { .. } => "too_many_connections_from_address",
        }
    }

    /// The 503 answer: the reason in the body, and `Retry-After`.
    pub fn refusal(&self) -> HttpRefusal {
        HttpRefusal {
            status: 503,
            reason: "Service Unavailable",
            headers: vec![("Retry-After", RETRY_AFTER_SECS.to_string())],
            body: format!("{}: {self}", self.code()),
        }
    }
}

/// The addresses a cap counts together: an IPv4 address; for IPv6 its /64 (what one site or
/// one host is usually given, so that one client cannot use a fresh address per connection);
/// an IPv4 address mapped into IPv6 as the IPv4 address.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(prefix))
            }
        },
    }
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    /// Open connections per [`address_key`]; an address with none has no entry.
    per_address: HashMap<IpAddr, usize>,
}

/// The connection caps and what is open against them. Shared by the accept loop (which
/// admits) and every connection's [`Slot`] (which gives its place back).
#[derive(Debug)]
pub struct Limits {
    max_total: usize,
    max_per_address: usize,
    counts: Mutex<Counts>,
    /// 503 refusals being written.
    refusing: AtomicUsize,
}

impl Limits {
    /// Caps of `max_total` connections in all and `max_per_address` per address (each at
    /// least 1).
    pub fn new(max_total: usize, max_per_address: usize) -> Arc<Limits> {
        Arc::new(Limits {
            max_total: max_total.max(1),
            max_per_address: max_per_address.max(1),
            counts: Mutex::new(Counts::default()),
            refusing: AtomicUsize::new(0),
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        // Nothing panics while holding the lock: a poisoned lock still holds good counts.
        self.counts.locked()
    }

    /// Take a place for a connection from `peer`, or say which cap is full.
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Slot, Full> {
        let key = address_key(peer);
        let mut counts = self.counts();
        if counts.total >= self.max_total {
            return Err(Full::Server {
                limit: self.max_total,
            });
        }
        let from_address = counts.per_address.entry(key).or_insert(0);
        if *from_address >= self.max_per_address {
            return Err(Full::Address {
                limit: self.max_per_address,
            });
        }
        *from_address += 1;
        counts.total += 1;
        Ok(Slot {
            limits: self.clone(),
            key,
        })
    }

    /// Connections holding a place, in all.
    pub fn open(&self) -> usize {
        self.counts().total
    }

    /// Connections holding a place from `peer`'s address.
    pub fn open_from(&self, peer: IpAddr) -> usize {
        let counts = self.counts();
        counts
            .per_address
            .get(&address_key(peer))
            .copied()
            .unwrap_or(0)
    }

    fn release(&self, key: IpAddr) {
        let mut counts = self.counts();
        counts.total = counts.total.saturating_sub(1);
        if let Some(from_address) = counts.per_address.get_mut(&key) {
            *from_address -= 1;
            if *from_address == 0 {
                counts.per_address.remove(&key);
            }
        }
    }

    /// Room to write one more refusal, unless [`REFUSALS_IN_FLIGHT`] are being written.
    pub fn refusal_permit(self: &Arc<Self>) -> Option<RefusalPermit> {
        let taken = self.refusing.fetch_add(1, Ordering::AcqRel);
        if taken >= REFUSALS_IN_FLIGHT {
            self.refusing.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(RefusalPermit {
            limits: self.clone(),
        })
    }
}

/// One connection's place under the caps, given back when dropped.
#[derive(Debug)]
pub struct Slot {
    limits: Arc<Limits>,
    key: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.limits.release(self.key);
    }
}

/// One refusal being written, counted against [`REFUSALS_IN_FLIGHT`] until dropped.
#[derive(Debug)]
pub struct RefusalPermit {
    limits: Arc<Limits>,
}

impl Drop for RefusalPermit {
    fn drop(&mut self) {
        self.limits.refusing.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Answer a connection over a cap with its 503 and close it. The request is read first
/// (within [`REQUEST_WAIT`], [`REQUEST_MAX`] bytes at most): a socket closed with unread
/// bytes is reset, and the reset can destroy the answer before the client reads it.
pub async fn refuse(mut stream: TcpStream, full: Full, permit: RefusalPermit) {
    let _ = tokio::time::timeout(REQUEST_WAIT, read_request(&mut stream)).await;
    full.refusal().send(stream).await;
    drop(permit);
}

/// Read until the blank line that ends a request's head, the end of the stream, or
/// [`REQUEST_MAX`] bytes.
async fn read_request(stream: &mut TcpStream) {
    let mut chunk = [0u8; 1024];
    let mut end = HeadEnd::default();
    let mut read = 0;
    while read < REQUEST_MAX {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                read += n;
                if end.feed(&chunk[..n]) {
                    return;
                }
            }
        }
    }
}

/// Finds `\r\n\r\n` in bytes fed in pieces.
#[derive(Debug, Default)]
struct HeadEnd {
    /// How much of `\r\n\r\n` the bytes so far end with.
    matched: usize,
}

impl HeadEnd {
    /// Feed more bytes; whether the head has ended.
    fn feed(&mut self, bytes: &[u8]) -> bool {
        const END: &[u8; 4] = b"\r\n\r\n";
        for &byte in bytes {
            self.matched = if byte == END[self.matched] {
                self.matched + 1
            } else if byte == b'\r' {
                1
            } else {
                0
            };
            if self.matched == END.len() {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
    }

    #[test]
    fn each_address_has_its_own_cap_and_all_share_the_total() {
        let limits = Limits::new(5, 2);
        let a1 = limits.admit(v4(1)).expect("first from .1");
        let _a2 = limits.admit(v4(1)).expect("second from .1");
        assert_eq!(
            limits.admit(v4(1)).unwrap_err(),
            Full::Address { limit: 2 },
            "a third from .1 is over the address cap"
        );
        let _b1 = limits.admit(v4(2)).expect("another address has room");
        let _b2 = limits.admit(v4(2)).expect("another address has room");
        let _c1 = limits.admit(v4(3)).expect("the fifth in all");
        assert_eq!(limits.admit(v4(4)).unwrap_err(), Full::Server { limit: 5 });
        assert_eq!((limits.open(), limits.open_from(v4(1))), (5, 2));
        drop(a1);
        assert_eq!((limits.open(), limits.open_from(v4(1))), (4, 1));
        let _a3 = limits
            .admit(v4(1))
            .expect("a slot given back is free again");
    }

    #[test]
    fn an_address_with_nothing_open_is_forgotten() {
        let limits = Limits::new(10, 10);
        drop(limits.admit(v4(9)).expect("room"));
        assert!(limits.counts().per_address.is_empty());
        assert_eq!(limits.open(), 0);
    }

    #[test]
    fn ipv6_addresses_count_per_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("address");
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().expect("address");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("address");
        assert_eq!(address_key(a), address_key(b));
        assert_ne!(address_key(a), address_key(c));
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().expect("address");
        assert_eq!(address_key(mapped), IpAddr::V4(Ipv4Addr::new(10, 1, 2, 3)));
        let limits = Limits::new(10, 1);
        let _held = limits.admit(a).expect("room");
        assert!(limits.admit(b).is_err(), "same /64");
        assert!(limits.admit(c).is_ok(), "another /64");
    }

    #[test]
    fn refusals_in_flight_are_bounded() {
        let limits = Limits::new(1, 1);
        let permits: Vec<_> = (0..REFUSALS_IN_FLIGHT)
            .map(|_| limits.refusal_permit().expect("room"))
            .collect();
        assert!(limits.refusal_permit().is_none());
        drop(permits);
        assert!(limits.refusal_permit().is_some());
    }

    #[test]
    fn a_refusal_says_why_and_when_to_retry() {
        let text =
            String::from_utf8(Full::Address { limit: 50 }.refusal().to_bytes()).expect("ASCII");
        assert!(text.starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
        assert!(text.contains("\r\nRetry-After: 5\r\n"), "{text}");
        assert!(text.contains("too_many_connections_from_address: 50 connections"));
    }

    #[test]
    fn the_end_of_a_request_head_is_found_across_pieces() {
        let mut end = HeadEnd::default();
        assert!(!end.feed(b"GET / HTTP/1.1\r\nHost: x\r"));
        assert!(!end.feed(b"\n\r"));
        assert!(end.feed(b"\n"));
        let mut end = HeadEnd::default();
        assert!(!end.feed(b"a\r\n\r\r\nb"));
        assert!(end.feed(b"\r\n\r\n"));
    }
}
