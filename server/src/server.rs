//! Listening for connections and running the server until it is shut down: opening the
//! store and restoring its battles first, and on the way out draining in order (stop
//! accepting, let in-flight requests finish, commit the log, close every connection with
//! 1001 "going away"). The accept loop admits each connection under the connection caps
//! (or refuses it with a 503 from a task of its own) and rides out accept errors with a
//! growing delay and one log line per episode.
//!
//! Shutdown is one [`CancellationToken`]: every task the server starts (the accept loop,
//! each connection, the refusals, the metrics' upkeep) is spawned on one [`TaskTracker`] and
//! watches the token; [`run`] cancels, drains and returns once the tracker says every task
//! has stopped.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

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
    /// Cancelled to stop accepting (and the metrics' upkeep).
    accepting: CancellationToken,
    /// Cancelled once the WebSockets were told to close: connections still speaking HTTP
    /// are dropped then.
    closing: CancellationToken,
    /// The accept loop, every connection, the refusals and the upkeep.
    tasks: TaskTracker,
    /// The accept loop alone: once it has ended, the listening socket is closed.
    accept: tokio::task::JoinHandle<()>,
    lobby: Arc<Lobby>,
    limits: Arc<Limits>,
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
        let _ = self.stop_accepting().await;
    }

    /// Stop accepting connections; the data directory's lock, if any, is handed back.
    async fn stop_accepting(self) -> Stopped {
        self.accepting.cancel();
        self.tasks.close();
        let _ = self.accept.await;
        Stopped {
            dir_lock: self.dir_lock,
            tasks: self.tasks,
            closing: self.closing,
        }
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
        let Stopped {
            dir_lock,
            tasks,
            closing,
        } = self.stop_accepting().await;
        // A cluster store out of reach is not waited for long: what it did not take was
        // never acknowledged to anyone.
        let _ = tokio::time::timeout(Duration::from_secs(5), lobby.store().flush()).await;
        let open = lobby.close_connections();
        closing.cancel();
        // Every connection's task ends once its last frames and the close frame are out.
        let _ = tokio::time::timeout(CLOSE_GRACE, tasks.wait()).await;
        // Nobody is left to play: the battles' actors, the matchmaker and the cluster's
        // loops stop (what they kept is committed as the store closes).
        lobby.stop_background(CLOSE_GRACE).await;
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

/// What is left of a server that stopped accepting: what draining still needs.
struct Stopped {
    dir_lock: Option<DirLock>,
    tasks: TaskTracker,
    closing: CancellationToken,
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
    // Before anything in the directory is read (the listening socket included): it is this
    // server's alone.
    let dir_lock = match &config.data_dir {
        Some(dir) => Some(DirLock::acquire(dir)?),
        None => None,
    };
    let listener = listen(config.listen).map_err(|source| StartError::Listen {
        addr: config.listen,
        source,
    })?;
    start_locked(listener, config, dir_lock).await
}

/// [`start`] on a socket already listening (`config.listen` is not used).
pub async fn start_on(listener: TcpListener, config: Config) -> Result<RunningServer, StartError> {
    let dir_lock = match &config.data_dir {
        Some(dir) => Some(DirLock::acquire(dir)?),
        None => None,
    };
    start_locked(listener, config, dir_lock).await
}

async fn start_locked(
    listener: TcpListener,
    mut config: Config,
    dir_lock: Option<DirLock>,
) -> Result<RunningServer, StartError> {
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
    let lobby = Lobby::new(
        config,
        store,
        cluster.clone(),
        TaskTracker::new(),
        CancellationToken::new(),
    );
    if let Some(cluster) = &cluster {
        cluster.start(&lobby).await;
    }
    lobby.restore_all(loaded);
    let accepting = CancellationToken::new();
    let closing = CancellationToken::new();
    let tasks = TaskTracker::new();
    let accept = tasks.spawn(accept_loop(
        listener,
        lobby.clone(),
        limits.clone(),
        Stop {
            accepting: accepting.clone(),
            closing: closing.clone(),
        },
        tasks.clone(),
    ));
    tasks.spawn(upkeep(lobby.clone(), accepting.clone()));
    tracing::info!(%addr, "listening");
    Ok(RunningServer {
        addr,
        accepting,
        closing,
        tasks,
        accept,
        lobby,
        limits,
        dir_lock,
    })
}

/// Serve on `listener` with `config` until `shutdown` is cancelled (or, in a cluster, until
/// the node is asked to drain), then drain: returns once every connection has been closed,
/// every battle committed and the data directory let go.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: CancellationToken,
) -> Result<(), StartError> {
    let server = start_on(listener, config).await?;
    tokio::select! {
        () = shutdown.cancelled() => {}
        () = server.drain_asked() => {}
    }
    tracing::info!("shutting down: committing every battle and closing connections");
    server.drain().await;
    Ok(())
}

/// How often the metrics' recorded samples are folded into their histograms.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Fold the metrics' samples into their histograms every [`UPKEEP_EVERY`], so that they do
/// not pile up while nobody reads `/metrics`.
async fn upkeep(lobby: Arc<Lobby>, stop: CancellationToken) {
    let mut every = tokio::time::interval(UPKEEP_EVERY);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = every.tick() => lobby.metrics().upkeep(),
        }
    }
}

/// The accept loop's two tokens: stop accepting; drop connections still speaking HTTP.
struct Stop {
    accepting: CancellationToken,
    closing: CancellationToken,
}

/// Accept connections until `stop.accepting` is cancelled: each is admitted under the caps and served, or
/// refused. An accept that fails for want of resources (file descriptors, say) waits a
/// growing delay before the next; the log gets one line as such an episode starts and one
/// as it ends.
async fn accept_loop(
    listener: TcpListener,
    lobby: Arc<Lobby>,
    limits: Arc<Limits>,
    stop: Stop,
    tasks: TaskTracker,
) {
    let mut backoff = AcceptBackoff::default();
    loop {
        let accepted = tokio::select! {
            () = stop.accepting.cancelled() => return,
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
                admit(stream, peer, &lobby, &limits, &tasks, &stop.closing);
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
                        () = stop.accepting.cancelled() => return,
                        () = tokio::time::sleep(delay) => {}
                    }
                }
            },
        }
    }
}

/// Serve `stream` while it holds a place under the caps, or refuse it with a 503 from a task
/// of its own (or, with too many refusals being written already, close it at once).
fn admit(
    stream: TcpStream,
    peer: SocketAddr,
    lobby: &Arc<Lobby>,
    limits: &Arc<Limits>,
    tasks: &TaskTracker,
    closing: &CancellationToken,
) {
    match limits.admit(peer.ip()) {
        Ok(slot) => {
            let lobby = lobby.clone();
            let closing = closing.clone();
            tasks.spawn(async move {
                connection::serve(stream, lobby, closing).await;
                drop(slot);
            });
        }
        Err(full) => {
            tracing::debug!(%peer, refused = full.code(), "connection refused");
            if let Some(permit) = limits.refusal_permit() {
                tasks.spawn(limits::refuse(stream, full, permit));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn run_drains_and_returns_once_cancelled() {
        let listener = listen("127.0.0.1:0".parse().expect("an address")).expect("a free port");
        let addr = listener.local_addr().expect("bound");
        let shutdown = CancellationToken::new();
        let running = tokio::spawn(run(listener, Config::for_tests(), shutdown.clone()));
        // A connection open while it drains is closed, and does not hold `run` up.
        let mut open = None;
        for _ in 0..100 {
            match TcpStream::connect(addr).await {
                Ok(stream) => {
                    open = Some(stream);
                    break;
                }
                Err(_) => tokio::task::yield_now().await,
            }
        }
        assert!(open.is_some(), "the server accepts");
        shutdown.cancel();
        let ended = tokio::time::timeout(Duration::from_secs(10), running)
            .await
            .expect("run returns once drained")
            .expect("run does not panic");
        assert!(ended.is_ok(), "{ended:?}");
        assert!(
            TcpStream::connect(addr).await.is_err(),
            "nothing listens once run returned"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn draining_stops_every_battle_actor() {
        let listener = listen("127.0.0.1:0".parse().expect("an address")).expect("a free port");
        let server = start_on(listener, Config::for_tests())
            .await
            .expect("the server starts");
        let lobby = server.lobby().clone();
        let request = crate::lobby::CreateRequest {
            ruleset: lobby.config().rulesets[0].id.to_string(),
            ..Default::default()
        };
        let creator = lobby.quotas().matchmaker();
        let (battle, _ticket) = lobby
            .create(request, &creator)
            .expect("a battle is created");
        let handle = lobby.local_handle(&battle).expect("the battle runs here");
        assert!(
            !handle.is_closed(),
            "its actor runs while the server serves"
        );
        server.drain().await;
        assert!(
            handle.is_closed(),
            "its actor has stopped once the server drained"
        );
    }
}
