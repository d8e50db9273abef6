//! Listening for connections and running the server until it is shut down: opening the
//! store and restoring its battles first, and on the way out draining in order (stop
//! accepting, let in-flight requests finish, commit the log, close every connection with
//! 1001 "going away"). The accept loop admits each connection under the connection caps
//! (or refuses it with a 503 from a task of its own) and rides out accept errors with a
//! growing delay and one log line per episode.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::cluster::Cluster;
use crate::config::Config;
use crate::connection;
use crate::connection::accept_backoff::{classify, AcceptBackoff, Failure};
use crate::connection::limits::{self, Limits};
use crate::dir_lock::DirLock;
use crate::lobby::Lobby;
use crate::start_error::StartError;
use crate::store::{Loaded, Store};

/// How long in-flight requests get to reach their battles when the server drains.
const IN_FLIGHT_GRACE: Duration = Duration::from_millis(200);

/// How long connections get to take their last frames and the close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// A server accepting connections in the background.
pub struct RunningServer {
    /// The address it listens on (with the real port when port 0 was asked for).
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
    lobby: Arc<Lobby>,
    limits: Arc<Limits>,
    /// Folds the metrics' samples into their histograms every few seconds.
    upkeep: JoinHandle<()>,
    /// The data directory, held until the server has drained (or is dropped).
    dir_lock: Option<DirLock>,
}

impl RunningServer {
    /// The WebSocket URL clients connect to.
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Stop accepting connections.
    pub async fn shutdown(self) {
        self.stop_accepting().await;
    }

    /// Stop accepting connections; the data directory's lock, if any, is handed back.
    async fn stop_accepting(self) -> Option<DirLock> {
        self.upkeep.abort();
        let _ = self.stop.send(());
        let _ = self.task.await;
        self.dir_lock
    }

    /// The lobby: its battles, its store, its connections.
    pub fn lobby(&self) -> &Arc<Lobby> {
        &self.lobby
    }

    /// The connection caps, and the connections counted against them.
    pub fn limits(&self) -> &Arc<Limits> {
        &self.limits
    }

    /// Shut down cleanly: refuse new requests (and answer `/health` with 503), give those
    /// in flight time to reach their battles, stop accepting, commit the input log, then
    /// close every connection with 1001 ("going away") after the frames it was owed. A
    /// restarted server on the same data directory continues every battle.
    pub async fn drain(self) {
        let lobby = self.lobby.clone();
        if let Some(cluster) = lobby.cluster().cloned() {
            // Every battle goes to the other nodes first; this node's connections follow
            // them there until they are closed below.
            crate::cluster::drain::drain(&cluster).await;
        }
        lobby.set_draining();
        tokio::time::sleep(IN_FLIGHT_GRACE).await;
        // Let go only once everything is committed and the store is closed, below.
        let dir_lock = self.stop_accepting().await;
        // A cluster store out of reach is not waited for long: what it did not take was
        // never acknowledged to anyone.
        let _ = tokio::time::timeout(Duration::from_secs(5), lobby.store().flush()).await;
        let open = lobby.close_connections();
        let deadline = Instant::now() + CLOSE_GRACE;
        while lobby.connection_count() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        lobby.store().close().await;
        if let Some(cluster) = lobby.cluster() {
            cluster.leave().await;
        }
        drop(dir_lock);
        tracing::info!(connections = open, "drained");
    }

    /// In a cluster: resolves when this node is asked to drain (`battle-server drain`);
    /// never on a single server.
    pub async fn drain_asked(&self) {
        match self.lobby.cluster() {
            Some(cluster) => cluster.drain_asked.notified().await,
            None => std::future::pending().await,
        }
    }
}

/// Connections the kernel may hold for the server before it accepts them (it caps this at
/// `net.core.somaxconn`). A load test ramping up opens thousands of connections a second;
/// tokio's default of 1,024 overflowed then, and every dropped opening costs its client a
/// one-second SYN retry.
const LISTEN_BACKLOG: u32 = 4096;

/// Bind `addr` for listening, with [`LISTEN_BACKLOG`].
fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server can take its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Take the data directory (see [`crate::dir_lock`]), open the store and restore its
/// battles, bind `config.listen` and accept connections in a background task. Every failure
/// says its own cause ([`StartError`]).
pub async fn start(config: Config) -> Result<RunningServer, StartError> {
    let mut config = config;
    // Before anything in the directory is read: it is this server's alone.
    let dir_lock = match &config.data_dir {
        Some(dir) => Some(DirLock::acquire(dir)?),
        None => None,
    };
    let listener = listen(config.listen).map_err(|source| StartError::Listen {
        addr: config.listen,
        source,
    })?;
    let addr = listener.local_addr().map_err(|source| StartError::Listen {
        addr: config.listen,
        source,
    })?;
    let mut cluster = None;
    let (store, loaded) = match (&mut config.cluster, &config.data_dir) {
        (Some(settings), _) => {
            if settings.public_url.is_empty() {
                settings.public_url = format!("ws://{addr}");
            }
            if settings.node_id.is_empty() {
                let dir = config.data_dir.as_deref();
                settings.node_id = crate::cluster::args::node_id(None, dir).map_err(|source| {
                    StartError::NodeId {
                        dir: dir.map_or_else(String::new, |d| d.display().to_string()),
                        source,
                    }
                })?;
            }
            let (joined, store) = Cluster::connect(settings.clone(), config.retention).await?;
            cluster = Some(joined);
            (store, Loaded::default())
        }
        (None, Some(dir)) => {
            Store::open(dir, config.fsync, config.retention).map_err(|source| {
                StartError::Store {
                    dir: dir.display().to_string(),
                    source,
                }
            })?
        }
        (None, None) => (Store::none(config.retention), Loaded::default()),
    };
    let limits = Limits::new(config.max_connections, config.max_connections_per_ip);
    let lobby = Lobby::new(config, store, cluster.clone());
    if let Some(cluster) = &cluster {
        cluster.start(&lobby).await;
    }
    lobby.restore_all(loaded);
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(accept_loop(
        listener,
        lobby.clone(),
        limits.clone(),
        stopped,
    ));
    let upkeep = tokio::spawn(upkeep(lobby.clone()));
    tracing::info!(%addr, "listening");
    Ok(RunningServer {
        addr,
        stop,
        task,
        lobby,
        limits,
        upkeep,
        dir_lock,
    })
}

/// How often the metrics' recorded samples are folded into their histograms.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Fold the metrics' samples into their histograms every [`UPKEEP_EVERY`], so that they do
/// not pile up while nobody reads `/metrics`.
async fn upkeep(lobby: Arc<Lobby>) {
    let mut every = tokio::time::interval(UPKEEP_EVERY);
    loop {
        every.tick().await;
        lobby.metrics().upkeep();
    }
}

/// Accept connections until `stopped`: each is admitted under the caps and served, or
/// refused. An accept that fails for want of resources (file descriptors, say) waits a
/// growing delay before the next; the log gets one line as such an episode starts and one
/// as it ends.
async fn accept_loop(
    listener: TcpListener,
    lobby: Arc<Lobby>,
    limits: Arc<Limits>,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut backoff = AcceptBackoff::default();
    loop {
        let accepted = tokio::select! {
            _ = &mut stopped => return,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, peer)) => {
                if let Some(recovered) = backoff.succeeded(tokio::time::Instant::now()) {
                    tracing::info!(
                        failed = recovered.failed,
                        ms = recovered.lasted.as_millis() as u64,
                        "accepting connections works again"
                    );
                }
                admit(stream, peer, &lobby, &limits);
            }
            Err(err) => match classify(&err) {
                Failure::Connection => {
                    tracing::debug!(%err, "a connection went before it was accepted")
                }
                Failure::Resources => {
                    let (delay, started) = backoff.failed(tokio::time::Instant::now());
                    if started {
                        tracing::warn!(
                            %err,
                            "accepting connections fails; retrying with a growing delay \
                             (one line when it works again)"
                        );
                    }
                    tokio::select! {
                        _ = &mut stopped => return,
                        () = tokio::time::sleep(delay) => {}
                    }
                }
            },
        }
    }
}

/// Serve `stream` while it holds a place under the caps, or refuse it with a 503 from a task
/// of its own (or, with too many refusals being written already, close it at once).
fn admit(stream: TcpStream, peer: SocketAddr, lobby: &Arc<Lobby>, limits: &Arc<Limits>) {
    match limits.admit(peer.ip()) {
        Ok(slot) => {
            let lobby = lobby.clone();
            tokio::spawn(async move {
                connection::serve(stream, lobby).await;
                drop(slot);
            });
        }
        Err(full) => {
            tracing::debug!(%peer, refused = full.code(), "connection refused");
            if let Some(permit) = limits.refusal_permit() {
                tokio::spawn(limits::refuse(stream, full, permit));
            }
        }
    }
}

/// Wait for Ctrl-C (SIGINT) or, on Unix, SIGTERM: the signals that drain the server.
pub async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate())?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result?,
            _ = term.recv() => {}
        }
        Ok(())
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await
}
