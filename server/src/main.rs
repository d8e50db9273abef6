//! `battle-server`: runs the battle server until Ctrl-C or SIGTERM, then drains it (every
//! battle is committed to the data directory and continues on the next start).

/// mimalloc: the view pipeline allocates and frees many small blocks per move; glibc's
/// small per-thread cache overflows under that churn.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use battle_server::config::Rate;
use battle_server::Config;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// Real-time WebSocket battle server for turn-based card and battle games.
///
/// Every flag can also be set through the environment variable shown. Logging follows
/// RUST_LOG (default: info).
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// How log lines are written on stderr: `text` (for people; coloured on a terminal
    /// only) or `json` (one JSON object per line, for log collectors).
    #[arg(long, env = "BATTLE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Address to listen on: HOST:PORT, where HOST is an IP address or a name such as
    /// localhost (port 0 picks a free port).
    #[arg(long, env = "BATTLE_LISTEN", default_value = "127.0.0.1:7878",
          value_parser = battle_server::config::parse_listen)]
    listen: SocketAddr,
    /// Delay before each bot or engine move when `create` gives no pace_ms.
    #[arg(long, env = "BATTLE_PACE_MS", default_value_t = 600)]
    pace_ms: u64,
    /// Seconds a finished battle stays listable.
    #[arg(long, env = "BATTLE_FINISHED_TTL_SECS", default_value_t = 300)]
    finished_ttl_secs: u64,
    /// Seconds a battle with nobody connected lives on.
    #[arg(long, env = "BATTLE_IDLE_TTL_SECS", default_value_t = 600)]
    idle_ttl_secs: u64,
    /// Most battles alive at once.
    #[arg(long, env = "BATTLE_MAX_BATTLES", default_value_t = 20_000)]
    max_battles: usize,
    /// Frames queued per connection before it counts as too slow and is closed.
    #[arg(long, env = "BATTLE_OUTBOX_CAPACITY", default_value_t = 256)]
    outbox_capacity: usize,
    /// Bytes queued per connection before it counts as too slow and is closed (1013); its
    /// queued frames are dropped at once.
    #[arg(long, env = "BATTLE_OUTBOX_MAX_BYTES", default_value_t = 4 * 1024 * 1024)]
    outbox_max_bytes: usize,
    /// Commands queued per battle.
    #[arg(long, env = "BATTLE_QUEUE", default_value_t = 256)]
    battle_queue: usize,
    /// Largest client frame accepted, in bytes.
    #[arg(long, env = "BATTLE_MAX_FRAME_BYTES", default_value_t = 65_536)]
    max_frame_bytes: usize,
    #[command(flatten)]
    cluster: battle_server::cluster::args::ClusterArgs,
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Where battles are kept (a SQLite database, created on the first run), so that a
    /// killed or restarted server brings every unfinished battle back; `none` keeps them in
    /// memory only.
    #[arg(
        long,
        env = "BATTLE_DATA_DIR",
        default_value = "./battle-data",
        global = true
    )]
    data_dir: String,
    /// Make every commit wait for the disk: battles then survive power loss too, not only a
    /// killed process, at the cost of one disk flush per group of commits.
    #[arg(long, env = "BATTLE_FSYNC")]
    fsync: bool,
    /// Seconds a seat's holder may be gone before the server's bot decides for it (until it
    /// comes back with rejoin), unless `create` sets grace_ms.
    #[arg(long, env = "BATTLE_DISCONNECT_GRACE_SECS", default_value_t = 60)]
    disconnect_grace_secs: u64,
    /// Hours a finished battle is kept for replays (0: none is kept). Kept in the data
    /// directory; with `--data-dir none`, in memory (the last 1,000 at most).
    #[arg(long, env = "BATTLE_REPLAY_RETENTION_HOURS", default_value_t = 168)]
    replay_retention_hours: u64,
    /// Most finished battles kept for replays; beyond it the oldest go first.
    #[arg(long, env = "BATTLE_MAX_REPLAYS", default_value_t = 10_000)]
    max_replays: usize,
    /// Most connections open at once (WebSocket handshakes included); beyond it a new one is
    /// refused with HTTP 503. Default: 50,000, or the open-file limit less 128 when lower
    /// (the server raises its soft limit to the hard one first).
    #[arg(long, env = "BATTLE_MAX_CONNECTIONS",
          default_value_t = battle_server::open_files::default_max_connections(),
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_connections: usize,
    /// Most connections open at once from one address (an IPv6 /64 counts as one address);
    /// beyond it a new one is refused with HTTP 503.
    #[arg(long, env = "BATTLE_MAX_CONNECTIONS_PER_IP", default_value_t = 8192,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_connections_per_ip: usize,
    /// Seconds a connection may stay in no battle without sending a request (`ping` aside)
    /// before it is closed with 1000 (0: never).
    #[arg(long, env = "BATTLE_IDLE_CONNECTION_SECS", default_value_t = 60)]
    idle_connection_secs: u64,
    /// Seconds between the pings the server sends every connection (0: no pings).
    #[arg(long, env = "BATTLE_PING_INTERVAL_SECS", default_value_t = 15)]
    ping_interval_secs: u64,
    /// Seconds after a ping within which something (a pong, a message) must arrive, else
    /// the connection is closed with 1011.
    #[arg(long, env = "BATTLE_PONG_TIMEOUT_SECS", default_value_t = 25,
          value_parser = clap::value_parser!(u64).range(1..))]
    pong_timeout_secs: u64,
    /// Battles one connection may have created that are not yet under way (started, with a
    /// person in them); beyond it `create` gets server_busy (0: no limit).
    #[arg(
        long,
        env = "BATTLE_MAX_OPEN_BATTLES_PER_CONNECTION",
        default_value_t = 64
    )]
    max_open_battles_per_connection: usize,
    /// Battles all connections from one client address may have created that are not yet
    /// under way; beyond it `create` gets server_busy (0: no limit).
    #[arg(long, env = "BATTLE_MAX_OPEN_BATTLES_PER_IP", default_value_t = 256)]
    max_open_battles_per_ip: usize,
    /// Seconds a battle that nobody ever joined or watched lives (at most the idle TTL).
    #[arg(long, env = "BATTLE_UNJOINED_TTL_SECS", default_value_t = 60)]
    unjoined_ttl_secs: u64,
    /// Messages (text, binary and ping frames) one connection may send a second, on average
    /// (0: no limit); beyond it they are refused with rate_limited. Sized for people; a load
    /// generator needs 0.
    #[arg(long, env = "BATTLE_RATE_PER_SEC",
          default_value_t = battle_server::config::DEFAULT_MESSAGE_RATE.per_sec)]
    rate_per_sec: u32,
    /// Messages one connection may send at once, above its rate.
    #[arg(long, env = "BATTLE_RATE_BURST",
          default_value_t = battle_server::config::DEFAULT_MESSAGE_RATE.burst)]
    rate_burst: u32,
    /// Messages all connections from one client address may send a second together (0: no
    /// limit). Behind a proxy every client shares its address: raise it there.
    #[arg(long, env = "BATTLE_IP_RATE_PER_SEC",
          default_value_t = battle_server::config::DEFAULT_IP_MESSAGE_RATE.per_sec)]
    ip_rate_per_sec: u32,
    /// Messages all connections from one address may send at once.
    #[arg(long, env = "BATTLE_IP_RATE_BURST",
          default_value_t = battle_server::config::DEFAULT_IP_MESSAGE_RATE.burst)]
    ip_rate_burst: u32,
    /// Lobby reads (hello, list, replay) one connection may send a second (0: no limit).
    #[arg(long, env = "BATTLE_LIST_RATE_PER_SEC", default_value_t = 20)]
    list_rate_per_sec: u32,
    /// Lobby reads one connection may send at once.
    #[arg(long, env = "BATTLE_LIST_RATE_BURST", default_value_t = 40)]
    list_rate_burst: u32,
    /// Creates (and queues) one connection may send a second (0: no limit).
    #[arg(long, env = "BATTLE_CREATE_RATE_PER_SEC",
          default_value_t = battle_server::config::DEFAULT_CREATE_RATE.per_sec)]
    create_rate_per_sec: u32,
    /// Creates one connection may send at once.
    #[arg(long, env = "BATTLE_CREATE_RATE_BURST",
          default_value_t = battle_server::config::DEFAULT_CREATE_RATE.burst)]
    create_rate_burst: u32,
    /// Creates all connections from one client address may send a second (0: no limit).
    #[arg(long, env = "BATTLE_IP_CREATE_RATE_PER_SEC",
          default_value_t = battle_server::config::DEFAULT_IP_CREATE_RATE.per_sec)]
    ip_create_rate_per_sec: u32,
    /// Creates all connections from one client address may send at once.
    #[arg(long, env = "BATTLE_IP_CREATE_RATE_BURST",
          default_value_t = battle_server::config::DEFAULT_IP_CREATE_RATE.burst)]
    ip_create_rate_burst: u32,
    /// Rate refusals within 10 seconds after which a connection is closed with 1008 (policy
    /// violation) (0: never closed for it).
    #[arg(long, env = "BATTLE_FLOOD_REFUSALS",
          default_value_t = battle_server::config::DEFAULT_FLOOD_REFUSALS)]
    flood_refusals: u32,
    /// Seconds a new connection has to send its request's head (its WebSocket opening
    /// handshake, or an HTTP request); then it is closed (silent, half-open and trickling
    /// sockets included). Idle kept-alive HTTP connections get as long.
    #[arg(long, env = "BATTLE_HANDSHAKE_TIMEOUT_SECS", default_value_t = 5,
          value_parser = clap::value_parser!(u64).range(1..))]
    handshake_timeout_secs: u64,
}

/// What to do instead of running a server.
#[derive(Debug, Clone, clap::Subcommand)]
enum Cmd {
    /// Ask a node of the cluster (--cluster-url) to drain: it takes no new battles, hands
    /// each of its battles to the other nodes, closes its connections (1001) and stops.
    Drain {
        /// The node's id.
        #[arg(value_parser = battle_server::cluster::args::parse_node_id)]
        node_id: String,
    },
    /// The battles set aside because they could not be restored (records unreadable, a
    /// ruleset version this build lacks, a log the rules refuse): list them, retry one, or
    /// drop one. Works on --data-dir (retry and drop only while no server holds it), or
    /// with --cluster-url on the cluster's Redis.
    Quarantine {
        #[command(subcommand)]
        action: QuarantineCmd,
    },
}

/// What `quarantine` does.
#[derive(Debug, Clone, clap::Subcommand)]
enum QuarantineCmd {
    /// List the battles set aside, with why and since when.
    List,
    /// Replay a battle with this build: if it replays, it leaves quarantine and the next
    /// start (in a cluster, a live node) restores it; if not, it stays set aside.
    Retry {
        /// The battle's id.
        battle_id: String,
    },
    /// Delete a battle set aside, for good.
    Drop {
        /// The battle's id.
        battle_id: String,
    },
}

impl QuarantineCmd {
    fn action(&self) -> battle_server::admin::Action {
        use battle_server::admin::Action;
        match self {
            QuarantineCmd::List => Action::List,
            QuarantineCmd::Retry { battle_id } => Action::Retry(battle_id.clone()),
            QuarantineCmd::Drop { battle_id } => Action::Drop(battle_id.clone()),
        }
    }
}

/// The form of the log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// Logs go to stderr, so stdout carries only the listening line; colour only on a terminal,
/// never into a file or a pipe. Spans (`conn`, `battle`) give every event its connection's
/// id and peer, or its battle's id.
fn init_logging(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .init(),
    }
}

impl From<Args> for Config {
    fn from(args: Args) -> Config {
        let data_dir = (args.data_dir != "none").then(|| PathBuf::from(&args.data_dir));
        Config {
            cluster: args.cluster.config(),
            listen: args.listen,
            default_pace_ms: args.pace_ms,
            finished_ttl: Duration::from_secs(args.finished_ttl_secs),
            idle_ttl: Duration::from_secs(args.idle_ttl_secs),
            max_battles: args.max_battles,
            outbox_capacity: args.outbox_capacity,
            outbox_max_bytes: args.outbox_max_bytes,
            battle_queue: args.battle_queue,
            max_frame_bytes: args.max_frame_bytes,
            data_dir,
            fsync: args.fsync,
            disconnect_grace: Duration::from_secs(args.disconnect_grace_secs),
            retention: battle_server::store::Retention {
                keep_for: Duration::from_secs(args.replay_retention_hours.saturating_mul(3600)),
                most: args.max_replays,
            },
            max_connections: args.max_connections,
            max_connections_per_ip: args.max_connections_per_ip,
            idle_connection: Duration::from_secs(args.idle_connection_secs),
            ping_interval: Duration::from_secs(args.ping_interval_secs),
            pong_timeout: Duration::from_secs(args.pong_timeout_secs),
            max_open_battles_per_connection: args.max_open_battles_per_connection,
            max_open_battles_per_ip: args.max_open_battles_per_ip,
            unjoined_ttl: Duration::from_secs(args.unjoined_ttl_secs),
            message_rate: Rate::new(args.rate_per_sec, args.rate_burst),
            ip_message_rate: Rate::new(args.ip_rate_per_sec, args.ip_rate_burst),
            list_rate: Rate::new(args.list_rate_per_sec, args.list_rate_burst),
            create_rate: Rate::new(args.create_rate_per_sec, args.create_rate_burst),
            ip_create_rate: Rate::new(args.ip_create_rate_per_sec, args.ip_create_rate_burst),
            flood_refusals: args.flood_refusals,
            handshake_timeout: Duration::from_secs(args.handshake_timeout_secs),
            ..Config::default()
        }
    }
}

/// The exit status of a server that could not start, or a command that failed: the cause
/// is said in one sentence on stderr.
const FAILED: u8 = 2;

/// Say `err` in one sentence on stderr; the failure's exit status.
fn failed(err: impl std::fmt::Display) -> ExitCode {
    eprintln!("battle-server: {err}");
    ExitCode::from(FAILED)
}

#[tokio::main]
async fn main() -> ExitCode {
    // Before the flags are read: the default connection cap follows the limit.
    let open_files = battle_server::open_files::raise_soft_limit();
    let args = Args::parse();
    init_logging(args.log_format);
    match args.command.clone() {
        Some(Cmd::Drain { node_id }) => return drain(&args, &node_id).await,
        Some(Cmd::Quarantine { action }) => return quarantine(args, action.action()).await,
        None => {}
    }
    let config = Config::from(args);
    tracing::info!(
        max_connections = config.max_connections,
        max_connections_per_ip = config.max_connections_per_ip,
        open_files = open_files.unwrap_or(0),
        "connection limits"
    );
    let server = match battle_server::start(config).await {
        Ok(server) => server,
        Err(err) => return failed(err),
    };
    println!("battle-server listening on {}", server.url());
    tokio::select! {
        stopped = battle_server::server::stop_signal() => {
            if let Err(err) = stopped {
                return failed(format!("cannot wait for Ctrl-C or SIGTERM: {err}"));
            }
        }
        () = server.drain_asked() => {}
    }
    tracing::info!("shutting down: committing every battle and closing connections");
    server.drain().await;
    ExitCode::SUCCESS
}

/// `battle-server drain NODE_ID`.
async fn drain(args: &Args, node_id: &str) -> ExitCode {
    let Some(url) = args.cluster.cluster_url.as_deref() else {
        return failed("drain needs --cluster-url (or BATTLE_CLUSTER_URL): the cluster's Redis");
    };
    match battle_server::cluster::node::ask_to_drain(url, node_id).await {
        Ok(()) => {
            println!("node {node_id} is asked to drain; it hands its battles over and stops");
            ExitCode::SUCCESS
        }
        Err(err) => failed(err),
    }
}

/// `battle-server quarantine list|retry|drop`, on the data directory or the cluster.
async fn quarantine(args: Args, action: battle_server::admin::Action) -> ExitCode {
    let url = args.cluster.cluster_url.clone();
    let config = Config::from(args);
    let done = match (&url, &config.data_dir) {
        (Some(url), _) => battle_server::admin::on_cluster(url, &action, &config).await,
        (None, Some(dir)) => battle_server::admin::on_directory(dir, &action, &config),
        (None, None) => {
            return failed(
                "quarantine needs a data directory (--data-dir) or a cluster (--cluster-url)",
            )
        }
    };
    match done {
        Ok(text) => {
            print!("{}", text.trim_end_matches('\n'));
            println!();
            ExitCode::SUCCESS
        }
        Err(err) => failed(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_format_is_text_unless_json_is_asked_for() {
        let args = Args::try_parse_from(["battle-server"]).expect("defaults");
        assert_eq!(args.log_format, LogFormat::Text);
        let args = Args::try_parse_from(["battle-server", "--log-format", "json"]).expect("json");
        assert_eq!(args.log_format, LogFormat::Json);
        assert!(Args::try_parse_from(["battle-server", "--log-format", "xml"]).is_err());
    }

    #[test]
    fn quarantine_takes_list_retry_and_drop() {
        let args =
            Args::try_parse_from(["battle-server", "quarantine", "retry", "abc"]).expect("retry");
        let Some(Cmd::Quarantine { action }) = args.command else {
            panic!("a quarantine command");
        };
        assert_eq!(
            action.action(),
            battle_server::admin::Action::Retry("abc".into())
        );
        assert!(Args::try_parse_from(["battle-server", "quarantine", "drop"]).is_err());
    }
}
