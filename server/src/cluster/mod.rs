//! Cluster mode: several server processes, on one machine or many, as one service on Redis.
//!
//! Without `--cluster-url` none of this runs: one process with its embedded store is the
//! default. With it:
//!
//! - **Nodes** register under a key whose time to live is the lease, renewed while they live
//!   ([`node`]); a node that stops renewing disappears by itself.
//! - **Every battle is owned by one node instance**, named with its epoch (the fencing
//!   token) in the battle's hash. Ownership changes only by one compare-and-set that raises
//!   the epoch ([`scripts`]). Every write the owner makes (log, lobby record, publications)
//!   goes through the [`committer`], whose batch script checks the owner and epoch in the
//!   same atomic step: a node that lost a battle can neither append to it nor send a change
//!   of it to anyone, and lets it go when its write is refused.
//! - **The log is in Redis**: the battle's creation and every record after it ([`log`]).
//!   Frames wait for their record's commit as on a single server.
//! - **Any node serves any client.** A command for a battle owned elsewhere goes to the
//!   owner's inbox stream ([`forward`], [`inbox`]); there a *proxy* stands for the remote
//!   connection. A change is published once per audience on the battle's channel and each
//!   node hands it to its own connections ([`follow`]); answers to one connection go to its
//!   node's channel. Pub/sub may drop a message: `seq` turns a loss into a resync.
//! - **Failover**: live nodes claim the battles of a dead instance, spread between them, and
//!   replay each from its log ([`watch`]); nodes with connections in a battle that moved take
//!   them back to the new owner, who sends each a snapshot.
//! - **One lobby**: `list`, finished battles and replays read Redis ([`directory`]).
//! - **One matchmaking queue**: the pools are lists in Redis, and players meet whichever
//!   node they are on; the node that takes them makes the battle and sends every other
//!   player's node a seat in it (`crate::matchmaker`, its `clustered` part).
//! - **Placement** sends a new battle to the node with the fewest battles; **draining** hands
//!   every battle to the others ([`drain`]).

pub mod args;
pub mod awaiting;
pub mod committer;
pub mod directory;
pub mod drain;
pub mod follow;
pub mod forward;
pub mod inbox;
pub mod keys;
pub mod link;
pub mod log;
pub mod node;
pub mod quarantine;
pub mod route;
pub mod scripts;
pub mod watch;
pub mod wire;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use dashmap::DashMap;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::mpsc;

use crate::connection::outbox::Outbox;
use crate::lobby::Lobby;
use crate::poison::Locked;
use crate::store::{Commits, Retention, Store};
use committer::Committer;
use link::StoreLink;
use scripts::Scripts;

pub use crate::config::ClusterConfig;

/// Why a node could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("--cluster-url {0:?} is not a Redis URL: {1}")]
    BadUrl(String, String),
    #[error("cannot reach Redis at {0}: {1} (is redis-server running there?)")]
    Unreachable(String, String),
    #[error(
        "node id {0:?} is in use by another live node; give this one another --node-id \
         (or stop the other)"
    )]
    IdInUse(String),
}

/// This node's part of the cluster.
pub struct Cluster {
    pub config: ClusterConfig,
    /// New at every start of the process.
    pub instance: String,
    /// `<node id>/<instance>`: how battles name this node as their owner.
    pub owner: String,
    client: redis::Client,
    /// Reads and small writes (registration, claims, lookups).
    pub(crate) conn: ConnectionManager,
    pub(crate) scripts: Arc<Scripts>,
    pub(crate) link: Arc<StoreLink>,
    pub(crate) lobby: Arc<OnceLock<Weak<Lobby>>>,
    /// Battles this node's connections are in that other nodes own.
    pub(crate) follows: follow::Follows,
    /// Who owns a battle, as last seen: battle → owner (`<node>/<instance>`).
    pub(crate) owners: DashMap<String, String>,
    /// Connections of other nodes in battles owned here: (battle, owner of the
    /// connection's node, its id) → proxy.
    pub(crate) proxies: DashMap<(String, String, u64), Outbox>,
    /// Set-up requests of this node's connections that other nodes have not answered yet.
    pub(crate) awaiting: awaiting::Awaiting,
    /// Node instances seen dead that still own battles (until the live nodes claimed them):
    /// nothing is sent on to them meanwhile.
    pub(crate) dead: DashMap<String, ()>,
    forward_tx: mpsc::UnboundedSender<forward::Forward>,
    forward_rx: std::sync::Mutex<Option<mpsc::UnboundedReceiver<forward::Forward>>>,
    /// Draining: no new battles, every battle handed to the others.
    draining: AtomicBool,
    /// Set when the node is asked to drain (the flag in Redis, or SIGTERM).
    pub(crate) drain_asked: tokio::sync::Notify,
    /// The live nodes as last read (at every renewal), for placement.
    pub(crate) nodes: std::sync::Mutex<Vec<node::NodeInfo>>,
    /// The newest entry of this node's inbox when it joined: it reads what comes after.
    pub(crate) inbox_start: String,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("owner", &self.owner)
            .finish_non_exhaustive()
    }
}

/// Connections to Redis give up on an answer after this long (and are made again).
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(3);

/// A connection manager for `client`.
async fn manager(client: &redis::Client, url: &str) -> Result<ConnectionManager, ClusterError> {
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(3)))
        .set_response_timeout(Some(RESPONSE_TIMEOUT))
        .set_number_of_retries(2)
        .set_max_delay(Duration::from_millis(500));
    match tokio::time::timeout(
        Duration::from_secs(5),
        client.get_connection_manager_with_config(config),
    )
    .await
    {
        Ok(Ok(conn)) => Ok(conn),
        Ok(Err(err)) => Err(ClusterError::Unreachable(url.to_string(), err.to_string())),
        Err(_) => Err(ClusterError::Unreachable(
            url.to_string(),
            "no answer within 5 seconds".into(),
        )),
    }
}

impl Cluster {
    /// Reach Redis, register this node (refused while another live node holds its id),
    /// start the committer; the node's cluster and its store.
    pub async fn connect(
        config: ClusterConfig,
        retention: Retention,
    ) -> Result<(Arc<Cluster>, Store), ClusterError> {
        let client = redis::Client::open(config.url.as_str())
            .map_err(|err| ClusterError::BadUrl(config.url.clone(), err.to_string()))?;
        let conn = manager(&client, &config.url).await?;
        let instance = crate::ids::random_id(8);
        let owner = format!("{}/{instance}", config.node_id);
        let scripts = Arc::new(Scripts::new());
        let inbox_start = inbox::newest(&mut conn.clone(), &config.node_id)
            .await
            .map_err(|err| ClusterError::Unreachable(config.url.clone(), err.to_string()))?;
        node::register(&conn, &scripts, &config, &instance).await?;
        let commits = Arc::new(Commits::default());
        let available = Arc::new(AtomicBool::new(true));
        let lobby: Arc<OnceLock<Weak<Lobby>>> = Arc::default();
        let committer = Committer::new(
            manager(&client, &config.url).await?,
            scripts.clone(),
            owner.clone(),
            commits.clone(),
            available.clone(),
            lobby.clone(),
        );
        let (tx, rx) = mpsc::unbounded_channel();
        let task = tokio::spawn(committer.run(rx));
        let link = Arc::new(StoreLink::new(tx, commits, available, retention, task));
        let store = Store::with_journal(link.clone(), retention);
        let (forward_tx, forward_rx) = mpsc::unbounded_channel();
        let cluster = Arc::new(Cluster {
            follows: follow::Follows::default(),
            owners: DashMap::new(),
            proxies: DashMap::new(),
            awaiting: awaiting::Awaiting::default(),
            dead: DashMap::new(),
            forward_tx,
            forward_rx: std::sync::Mutex::new(Some(forward_rx)),
            draining: AtomicBool::new(false),
            drain_asked: tokio::sync::Notify::new(),
            nodes: std::sync::Mutex::new(Vec::new()),
            inbox_start,
            config,
            instance,
            owner,
            client,
            conn,
            scripts,
            link,
            lobby,
        });
        tracing::info!(node = %cluster.config.node_id, instance = %cluster.instance, "joined the cluster");
        Ok((cluster, store))
    }

    /// Start this node's cluster tasks (lease renewal, its inbox, the changes it follows,
    /// failover) for `lobby`; returns once its pub/sub connection listens (answers for its
    /// connections could be missed before that), or after a few seconds in any case.
    pub async fn start(self: &Arc<Self>, lobby: &Arc<Lobby>) {
        let _ = self.lobby.set(Arc::downgrade(lobby));
        if let Some(rx) = self.forward_rx.locked().take() {
            lobby.spawn_background(forward::run(self.clone(), rx));
        }
        lobby.spawn_background(node::renew(self.clone()));
        lobby.spawn_background(inbox::run(self.clone()));
        lobby.spawn_background(follow::listen(self.clone()));
        lobby.spawn_background(watch::run(self.clone()));
        let listening = self.follows.listening();
        if tokio::time::timeout(Duration::from_secs(5), listening)
            .await
            .is_err()
        {
            tracing::warn!("the pub/sub connection is not up yet; serving anyway");
        }
    }

    /// The lobby, while the server runs.
    pub(crate) fn lobby(&self) -> Option<Arc<Lobby>> {
        self.lobby.get().and_then(Weak::upgrade)
    }

    /// A new connection to Redis of its own (for blocking reads and pub/sub).
    pub(crate) fn client(&self) -> &redis::Client {
        &self.client
    }

    /// This node's id.
    pub fn node_id(&self) -> &str {
        &self.config.node_id
    }

    /// Hand a command to the forwarder (see [`forward`]).
    pub(crate) fn forward(&self, forward: forward::Forward) {
        let _ = self.forward_tx.send(forward);
    }

    /// Whether the node drains (takes no new battles).
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// From now on the node takes no new battles.
    pub(crate) fn set_draining(&self) {
        self.draining.store(true, Ordering::Release);
    }

    /// Where a new battle goes when this node owns `own` battles: the live, non-draining
    /// node that owns the fewest (as an owner name, `<node id>/<instance>`), if it owns fewer by more than
    /// [`drain::PLACEMENT_SLACK`] (or any other node at all while this one drains); `None`:
    /// here.
    pub(crate) fn placement(&self, own: u64) -> Option<String> {
        let nodes = self.nodes.locked();
        let best = nodes
            .iter()
            .filter(|n| !n.draining && n.id != self.config.node_id)
            .min_by_key(|n| n.battles)?;
        (self.is_draining() || best.battles + drain::PLACEMENT_SLACK < own)
            .then(|| format!("{}/{}", best.id, best.instance))
    }

    /// Leave the cluster (a drained node): its registration goes.
    pub async fn leave(&self) {
        let mut conn = self.conn.clone();
        let _: redis::RedisResult<i64> = self
            .scripts
            .deregister
            .prepare_invoke()
            .arg(self.node_id())
            .arg(&self.instance)
            .invoke_async(&mut conn)
            .await;
        let _: redis::RedisResult<()> = redis::cmd("DEL")
            .arg(keys::drain(self.node_id()))
            .query_async(&mut conn)
            .await;
    }

    /// The node id of an owner (`<node>/<instance>`).
    pub fn node_of(owner: &str) -> &str {
        owner.split_once('/').map_or(owner, |(node, _)| node)
    }
}
