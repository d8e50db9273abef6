//! Server settings, shared by the binary's flags and by tests that start a server in-process.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use battle_rules::catalog::catalog;
use battle_rules::RulesetEntry;

/// Everything a running server can be tuned with.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Delay before each engine or bot move when `create` gives no `pace_ms`.
    pub default_pace_ms: u64,
    /// How long a finished battle stays listable before it goes away.
    pub finished_ttl: Duration,
    /// How long a battle with no connected person lives before it goes away.
    pub idle_ttl: Duration,
    /// Most battles alive at once; `create` beyond it gets `server_busy`.
    pub max_battles: usize,
    /// Frames queued for one connection before it counts as too slow and is closed.
    pub outbox_capacity: usize,
    /// Bytes queued for one connection before it counts as too slow and is closed (each
    /// frame at its full length, shared or not).
    pub outbox_max_bytes: usize,
    /// Commands queued for one battle actor.
    pub battle_queue: usize,
    /// Largest client frame accepted, in bytes.
    pub max_frame_bytes: usize,
    /// The rulesets on offer: the catalog (tests add rulesets of their own).
    pub rulesets: Vec<&'static RulesetEntry>,
    /// How long a seat's holder may be gone before the server's bot decides for it (until
    /// it comes back), unless `create` sets `grace_ms`.
    pub disconnect_grace: Duration,
    /// Where battles are kept (`None`: in memory only, lost when the process ends).
    pub data_dir: Option<PathBuf>,
    /// Commits wait for the disk (survive power loss), not only for the operating system
    /// (survive a killed process).
    pub fsync: bool,
    /// How long finished battles are kept for replays, and how many.
    pub retention: Retention,
    /// Most connections open at once, WebSocket handshakes included; beyond it a connection
    /// is refused with HTTP 503.
    pub max_connections: usize,
    /// Most connections open at once from one address (an IPv6 /64 counts as one); beyond
    /// it a connection is refused with HTTP 503.
    pub max_connections_per_ip: usize,
    /// How long a connection may stay in no battle without a request (`ping` aside) before it
    /// is closed (zero: never).
    pub idle_connection: Duration,
    /// How often the server pings every connection (zero: never).
    pub ping_interval: Duration,
    /// How long after a ping a connection from which nothing arrives is closed.
    pub pong_timeout: Duration,
    /// Battles one connection may have created that are not yet under way (0: no limit).
    pub max_open_battles_per_connection: usize,
    /// Battles one client address may have created that are not yet under way (0: no limit).
    pub max_open_battles_per_ip: usize,
    /// How long a battle nobody ever joined or watched lives (at most the idle TTL).
    pub unjoined_ttl: Duration,
    /// Every message one connection sends (text, binary and ping frames).
    pub message_rate: Rate,
    /// Every message of all connections from one address together.
    pub ip_message_rate: Rate,
    /// One connection's lobby reads: `hello`, `list`, `replay`.
    pub list_rate: Rate,
    /// One connection's `create`s.
    pub create_rate: Rate,
    /// The `create`s of all connections from one address together.
    pub ip_create_rate: Rate,
    /// Rate refusals within ten seconds after which a connection is closed with 1008.
    pub flood_refusals: u32,
    /// How long a new connection has to send its request's head (the WebSocket opening
    /// handshake, or a plain HTTP request) before it is closed (silent, half-open and
    /// trickling sockets included); an idle kept-alive HTTP connection gets as long.
    pub handshake_timeout: Duration,
    /// Cluster mode: the node's Redis and identity (`None`: one process alone, with its
    /// embedded store).
    pub cluster: Option<ClusterConfig>,
}

/// A token bucket's size: `per_sec` tokens a second, at most `burst` saved up; a `per_sec`
/// of 0 means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Tokens added a second (0: no limit).
    pub per_sec: u32,
    /// Most tokens saved up: how many requests may come at once.
    pub burst: u32,
}

impl Rate {
    /// `per_sec` a second, `burst` at once.
    pub const fn new(per_sec: u32, burst: u32) -> Rate {
        Rate { per_sec, burst }
    }

    /// No limit.
    pub const UNLIMITED: Rate = Rate::new(0, 0);
}

/// Messages (text, binary and ping frames) one connection may send: 20 a second, 40 at
/// once. A person playing a turn-based game sends a few a second at the most (a move, a
/// resync, a keepalive); 20 a second is a thousandth of what the server handles on two
/// cores, so no single connection can take more than that share.
pub const DEFAULT_MESSAGE_RATE: Rate = Rate::new(20, 40);

/// Messages all connections from one address may send together: ten busy players behind
/// one address (a household, an office), 200 a second and 400 at once. Behind a proxy every
/// client shares the proxy's address: raise it there.
pub const DEFAULT_IP_MESSAGE_RATE: Rate = Rate::new(200, 400);

/// Creates one connection may send: two a second, ten at once (a person starts a battle
/// now and then; `queue` counts as one).
pub const DEFAULT_CREATE_RATE: Rate = Rate::new(2, 10);

/// Creates all connections from one address may send together: 10 a second, 50 at once.
pub const DEFAULT_IP_CREATE_RATE: Rate = Rate::new(10, 50);

/// Rate refusals within ten seconds after which a connection is closed with 1008: a person
/// at the default rates is never refused at all, and a client refused more than once a
/// second on average (anything sent steadily at twice a rate, creates included) is
/// flooding.
pub const DEFAULT_FLOOD_REFUSALS: u32 = 10;

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 7878)),
            default_pace_ms: 600,
            finished_ttl: Duration::from_secs(300),
            idle_ttl: Duration::from_secs(600),
            max_battles: 20_000,
            outbox_capacity: 256,
            outbox_max_bytes: 4 * 1024 * 1024,
            battle_queue: 256,
            max_frame_bytes: 64 * 1024,
            rulesets: catalog().iter().collect(),
            data_dir: None,
            fsync: false,
            retention: Retention::default(),
            disconnect_grace: Duration::from_secs(60),
            max_connections: crate::open_files::default_max_connections(),
            max_connections_per_ip: 8192,
            idle_connection: Duration::from_secs(60),
            ping_interval: Duration::from_secs(15),
            pong_timeout: Duration::from_secs(25),
            max_open_battles_per_connection: 64,
            max_open_battles_per_ip: 256,
            unjoined_ttl: Duration::from_secs(60),
            message_rate: DEFAULT_MESSAGE_RATE,
            ip_message_rate: DEFAULT_IP_MESSAGE_RATE,
            list_rate: Rate::new(20, 40),
            create_rate: DEFAULT_CREATE_RATE,
            ip_create_rate: DEFAULT_IP_CREATE_RATE,
            flood_refusals: DEFAULT_FLOOD_REFUSALS,
            handshake_timeout: Duration::from_secs(5),
            cluster: None,
        }
    }
}

impl Config {
    /// The ruleset with this id, among those on offer.
    pub fn ruleset(&self, id: &str) -> Option<&'static RulesetEntry> {
        self.rulesets.iter().copied().find(|entry| entry.id == id)
    }

    /// Settings for tests: an ephemeral loopback port, no pacing, battles in memory only,
    /// and rates for clients that play at machine speed (the defaults are sized for people;
    /// tests of the limits set them).
    pub fn for_tests() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            default_pace_ms: 0,
            ..Config::default().at_machine_speed()
        }
    }

    /// These settings with the per-connection and per-address rates of clients that play
    /// at machine speed (load generators, tests): no message or create rate (lobby reads
    /// and the flood limit stay).
    pub fn at_machine_speed(self) -> Self {
        Config {
            message_rate: Rate::UNLIMITED,
            ip_message_rate: Rate::UNLIMITED,
            create_rate: Rate::UNLIMITED,
            ip_create_rate: Rate::UNLIMITED,
            ..self
        }
    }
}

/// Read a listen address: `HOST:PORT` with an IP address or a host name (`localhost:7878`,
/// `0.0.0.0:7878`, `[::1]:7878`), or a bare `PORT` for 127.0.0.1. A name that resolves to
/// several addresses gives the first IPv4 one (else the first).
pub fn parse_listen(text: &str) -> Result<SocketAddr, ListenError> {
    use std::net::ToSocketAddrs;
    let text = text.trim();
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(ListenError::NotHostPort(text.to_string()));
    };
    if port.parse::<u16>().is_err() {
        return Err(ListenError::NotAPort(port.to_string()));
    }
    let addrs: Vec<SocketAddr> = (host, 0)
        .to_socket_addrs()
        .map_err(|err| ListenError::Unresolved {
            host: host.to_string(),
            reason: err.to_string(),
        })?
        .collect();
    let port: u16 = port.parse().expect("checked just above");
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or_else(|| addrs.first())
        .map(|a| SocketAddr::new(a.ip(), port))
        .ok_or_else(|| ListenError::NoAddress(host.to_string()))
}

/// Why a listen address cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListenError {
    #[error("\"{0}\" is not HOST:PORT (for example 127.0.0.1:7878 or localhost:7878)")]
    NotHostPort(String),
    #[error("\"{0}\" is not a port number (0 to 65535)")]
    NotAPort(String),
    #[error("cannot resolve the host name \"{host}\": {reason}")]
    Unresolved { host: String, reason: String },
    #[error("the host name \"{0}\" has no address")]
    NoAddress(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_take_names_ips_and_bare_ports() {
        assert_eq!(
            parse_listen("localhost:7878"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 7878)))
        );
        assert_eq!(
            parse_listen("0.0.0.0:80"),
            Ok(SocketAddr::from(([0, 0, 0, 0], 80)))
        );
        assert_eq!(parse_listen("[::1]:9").map(|a| a.port()), Ok(9));
        assert_eq!(
            parse_listen("7000"),
            Ok(SocketAddr::from(([127, 0, 0, 1], 7000)))
        );
        assert!(parse_listen("localhost")
            .unwrap_err()
            .to_string()
            .contains("is not HOST:PORT"));
        assert!(parse_listen("localhost:99999")
            .unwrap_err()
            .to_string()
            .contains("not a port number"));
    }
}

/// How long finished battles are kept for replays, and how many at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// A battle is dropped this long after it ended (zero: none is kept).
    pub keep_for: Duration,
    /// The most kept; beyond it the oldest go first.
    pub most: usize,
}

impl Default for Retention {
    /// A week, and at most 10,000 battles.
    fn default() -> Self {
        Retention {
            keep_for: Duration::from_secs(7 * 24 * 3600),
            most: 10_000,
        }
    }
}

impl Retention {
    /// Whether battles are kept at all.
    pub fn keeps(&self) -> bool {
        !self.keep_for.is_zero() && self.most > 0
    }

    /// Battles that ended before this (Unix milliseconds) are past the retention.
    pub fn cutoff(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(u64::try_from(self.keep_for.as_millis()).unwrap_or(u64::MAX))
    }
}

/// How a node joins a cluster.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// Redis, e.g. `redis://127.0.0.1:6379`.
    pub url: String,
    /// This node's id: stable across restarts (two live nodes may not share it).
    pub node_id: String,
    /// How other nodes and clients name this node (its WebSocket URL).
    pub public_url: String,
    /// How long a node's lease lasts without renewal; its battles move this long after it
    /// stopped.
    pub lease: Duration,
    /// For tests: drop every this many of the battle changes this node receives (0: none).
    pub drop_changes: u32,
}
