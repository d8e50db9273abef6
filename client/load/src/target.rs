//! Where the load goes: the servers' addresses (loopback unless allowed otherwise), which
//! connections go to which ([`Targets`]: players and creators spread over `--server` in
//! turn, spectators over `--spectator-server` when given), and the local source addresses
//! connections are spread over.
//!
//! One source address gives about 28,000 ephemeral ports towards one server port; spreading
//! connections over `127.0.0.1 .. 127.0.0.N` multiplies that, for runs with many connections
//! or much connection churn.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Context};
use tokio::net::TcpSocket;

use super::link::Link;
use battle_client::ClientError;

/// The server under load and how to reach it.
#[derive(Debug)]
pub struct Target {
    /// The WebSocket URL, as given.
    pub url: String,
    /// The resolved server address.
    pub addr: SocketAddr,
    /// Source addresses to bind, used in turn; empty means "let the kernel choose".
    sources: Vec<IpAddr>,
    next: AtomicUsize,
}

/// The `host:port` part of a `ws://` URL (default port 80).
pub fn host_port(url: &str) -> anyhow::Result<(String, u16)> {
    let rest = url
        .strip_prefix("ws://")
        .with_context(|| format!("{url:?}: the load test speaks plain ws:// URLs only"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.is_empty() {
        bail!("{url:?} names no host");
    }
    // `[::1]:7878` or `host:7878` or `host`.
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let (host, after) = v6
            .split_once(']')
            .with_context(|| format!("{url:?}: unclosed ["))?;
        (host.to_string(), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host.to_string(), Some(port)),
            None => (authority.to_string(), None),
        }
    };
    let port = match port {
        Some(port) => port
            .parse()
            .with_context(|| format!("{url:?}: bad port {port:?}"))?,
        None => 80,
    };
    Ok((host, port))
}

impl Target {
    /// Resolve `url`. Unless `allow_remote`, every address it resolves to must be loopback:
    /// a load test is not to be pointed at someone else's server by a typo.
    pub async fn resolve(
        url: &str,
        allow_remote: bool,
        source_addrs: u8,
    ) -> anyhow::Result<Target> {
        let (host, port) = host_port(url)?;
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
            .await
            .with_context(|| format!("cannot resolve {host:?}"))?
            .collect();
        let Some(&addr) = addrs.iter().find(|a| a.is_ipv4()).or(addrs.first()) else {
            bail!("{host:?} resolves to no address");
        };
        if !allow_remote && !addrs.iter().all(|a| a.ip().is_loopback()) {
            bail!(
                "{url} is not a loopback address; pass --allow-remote to load-test another machine"
            );
        }
        let sources = if source_addrs > 1 {
            if !addr.ip().is_loopback() || !addr.is_ipv4() {
                bail!("--source-addrs spreads over 127.0.0.x and needs an IPv4 loopback server");
            }
            (1..=source_addrs)
                .map(|i| IpAddr::V4(Ipv4Addr::new(127, 0, 0, i)))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Target {
            url: url.to_string(),
            addr,
            sources,
            next: AtomicUsize::new(0),
        })
    }

    /// Open one WebSocket connection, from the next source address in turn.
    pub async fn connect(&self) -> Result<Link, ClientError> {
        let io = |e: std::io::Error| ClientError::WebSocket(e.into());
        let socket = if self.addr.is_ipv4() {
            TcpSocket::new_v4()
        } else {
            TcpSocket::new_v6()
        }
        .map_err(io)?;
        if !self.sources.is_empty() {
            let i = self.next.fetch_add(1, Ordering::Relaxed) % self.sources.len();
            socket
                .bind(SocketAddr::new(self.sources[i], 0))
                .map_err(io)?;
        }
        let stream = socket.connect(self.addr).await.map_err(io)?;
        Link::open(&self.url, stream).await
    }
}

/// Every server a run connects to, and which connection goes where.
#[derive(Debug)]
pub struct Targets {
    /// Players and creators, in turn.
    players: Vec<Target>,
    /// Spectators, in turn; empty: they go where the players go.
    spectators: Vec<Target>,
    next_player: AtomicUsize,
    next_spectator: AtomicUsize,
}

/// Which list of servers a connection takes its server from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A player (the first of a slot also creates its battles).
    Player,
    /// A spectator.
    Spectator,
}

impl Targets {
    /// Resolve every URL (see [`Target::resolve`]); `spectators` may be empty.
    pub async fn resolve(
        players: &[String],
        spectators: &[String],
        allow_remote: bool,
        source_addrs: u8,
    ) -> anyhow::Result<Targets> {
        if players.is_empty() {
            bail!("no server to load-test");
        }
        let mut resolved = Vec::with_capacity(players.len());
        for url in players {
            resolved.push(Target::resolve(url, allow_remote, source_addrs).await?);
        }
        let mut watching = Vec::with_capacity(spectators.len());
        for url in spectators {
            watching.push(Target::resolve(url, allow_remote, source_addrs).await?);
        }
        Ok(Targets {
            players: resolved,
            spectators: watching,
            next_player: AtomicUsize::new(0),
            next_spectator: AtomicUsize::new(0),
        })
    }

    fn list(&self, role: Role) -> &[Target] {
        match role {
            Role::Spectator if !self.spectators.is_empty() => &self.spectators,
            _ => &self.players,
        }
    }

    /// How many servers connections of `role` are spread over.
    pub fn count(&self, role: Role) -> usize {
        self.list(role).len()
    }

    /// The position of the server the next new connection of `role` goes to (in turn).
    pub fn pick(&self, role: Role) -> usize {
        let next = match role {
            Role::Spectator if !self.spectators.is_empty() => &self.next_spectator,
            _ => &self.next_player,
        };
        next.fetch_add(1, Ordering::Relaxed) % self.count(role)
    }

    /// Open one connection of `role` to the server at position `at` of its list.
    pub async fn connect(&self, role: Role, at: usize) -> Result<Link, ClientError> {
        let list = self.list(role);
        list[at % list.len()].connect().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_urls() {
        assert_eq!(
            host_port("ws://127.0.0.1:7878").expect("ok"),
            ("127.0.0.1".into(), 7878)
        );
        assert_eq!(
            host_port("ws://localhost/x?y").expect("ok"),
            ("localhost".into(), 80)
        );
        assert_eq!(host_port("ws://[::1]:9/").expect("ok"), ("::1".into(), 9));
        assert!(host_port("wss://example.com").is_err());
        assert!(host_port("ws://").is_err());
        assert!(host_port("ws://h:port").is_err());
    }

    #[tokio::test]
    async fn refuses_remote_servers_unless_allowed() {
        let err = Target::resolve("ws://192.0.2.1:7878", false, 1)
            .await
            .expect_err("a documentation address is not loopback");
        assert!(err.to_string().contains("--allow-remote"), "{err}");
        assert!(Target::resolve("ws://192.0.2.1:7878", true, 1)
            .await
            .is_ok());
        let local = Target::resolve("ws://127.0.0.1:7878", false, 4)
            .await
            .expect("loopback");
        assert_eq!(local.sources.len(), 4);
        assert_eq!(local.sources[3], IpAddr::V4(Ipv4Addr::new(127, 0, 0, 4)));
    }

    #[tokio::test]
    async fn connections_take_their_servers_in_turn() {
        let urls = |ports: &[u16]| -> Vec<String> {
            ports
                .iter()
                .map(|p| format!("ws://127.0.0.1:{p}"))
                .collect()
        };
        let both = Targets::resolve(&urls(&[1, 2]), &[], false, 1)
            .await
            .expect("loopback");
        let picked: Vec<usize> = (0..3).map(|_| both.pick(Role::Player)).collect();
        assert_eq!(picked, [0, 1, 0]);
        assert_eq!(
            both.count(Role::Spectator),
            2,
            "spectators go where players go"
        );
        let apart = Targets::resolve(&urls(&[1, 2]), &urls(&[3]), false, 1)
            .await
            .expect("loopback");
        assert_eq!(apart.count(Role::Spectator), 1);
        assert_eq!(apart.pick(Role::Spectator), 0);
        assert_eq!(apart.list(Role::Spectator)[0].addr.port(), 3);
        assert!(Targets::resolve(&[], &[], false, 1).await.is_err());
        assert!(
            Targets::resolve(&urls(&[1]), &["ws://192.0.2.1:1".into()], false, 1)
                .await
                .is_err()
        );
    }
}
