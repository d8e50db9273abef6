//! `battle-server`: runs the battle server until Ctrl-C or SIGTERM, then drains it (every
//! battle is committed to the data directory and continues on the next start).

/// mimalloc: the view pipeline allocates and frees many small blocks per move; glibc's
/// small per-thread cache overflows under that churn.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
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
    /// Commands queued per battle.
    #[arg(long, env = "BATTLE_QUEUE", default_value_t = 256)]
    battle_queue: usize,
    /// Largest client frame accepted, in bytes.
    #[arg(long, env = "BATTLE_MAX_FRAME_BYTES", default_value_t = 65_536)]
    max_frame_bytes: usize,
    /// Where battles are kept (a SQLite database, created on the first run), so that a
    /// killed or restarted server brings every unfinished battle back; `none` keeps them in
    /// memory only.
    #[arg(long, env = "BATTLE_DATA_DIR", default_value = "./battle-data")]
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
    /// Seconds a new connection has to complete its WebSocket opening handshake; then it is
    /// answered 408 and closed (silent, half-open and trickling sockets included).
    #[arg(long, env = "BATTLE_HANDSHAKE_TIMEOUT_SECS", default_value_t = 5,
          value_parser = clap::value_parser!(u64).range(1..))]
    handshake_timeout_secs: u64,
}

impl From<Args> for Config {
    fn from(args: Args) -> Config {
        Config {
            listen: args.listen,
            default_pace_ms: args.pace_ms,
            finished_ttl: Duration::from_secs(args.finished_ttl_secs),
            idle_ttl: Duration::from_secs(args.idle_ttl_secs),
            max_battles: args.max_battles,
            outbox_capacity: args.outbox_capacity,
            battle_queue: args.battle_queue,
            max_frame_bytes: args.max_frame_bytes,
            data_dir: (args.data_dir != "none").then(|| PathBuf::from(&args.data_dir)),
            fsync: args.fsync,
            disconnect_grace: Duration::from_secs(args.disconnect_grace_secs),
            retention: battle_server::store::Retention {
                keep_for: Duration::from_secs(args.replay_retention_hours.saturating_mul(3600)),
                most: args.max_replays,
            },
            handshake_timeout: Duration::from_secs(args.handshake_timeout_secs),
            ..Config::default()
        }
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Logs go to stderr, so stdout carries only the listening line; colour only on a
    // terminal, never into a file or a pipe.
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let config = Config::from(Args::parse());
    let server = battle_server::start(config.clone())
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    println!("battle-server listening on {}", server.url());
    battle_server::server::stop_signal()
        .await
        .context("waiting for Ctrl-C or SIGTERM")?;
    tracing::info!("shutting down: committing every battle and closing connections");
    server.drain().await;
    Ok(())
}
