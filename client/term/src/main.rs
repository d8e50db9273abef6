//! `battle-client`: play, watch and replay battles from a terminal, and load-test a server
//! (the `loadtest` command runs `battle-load`).

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Context;
use battle_client::Servers;
use battle_term::lobby::{self, BattleSpec, Opponent};
use battle_term::replay::{self, export, finished, text, viewer};
use battle_term::share::{is_refused, join_command, no_server_hint, server_url, watch_command};
use battle_term::{AnySession, PlayerName, PlayerSession, ReconnectPolicy, SpectatorSession};
use clap::{Args, Parser, Subcommand};

#[path = "cli/play.rs"]
mod play;
use play::{play, play_queued};

/// Terminal client for the battle server. Every flag can also be set through the environment
/// variable shown.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The server: ws://HOST:PORT, or just HOST:PORT (or a bare PORT on this machine).
    /// Several (the nodes of a cluster): repeat the flag or separate them with commas; the
    /// client uses the first that answers and, when its connection drops, tries the next in
    /// turn (taking its seat back there).
    #[arg(
        long,
        global = true,
        env = "BATTLE_SERVER",
        value_delimiter = ',',
        default_value = "ws://127.0.0.1:7878",
        value_parser = server_url
    )]
    server: Vec<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the server's open battles (and, with --finished, the recently finished ones).
    List(ListArgs),
    /// Show the rulesets the server offers, with their samples.
    Rulesets,
    /// Create a battle, take a seat and play it; or with --queue, wait for opponents.
    Play(PlayArgs),
    /// Take a seat in an existing battle.
    Join(JoinArgs),
    /// Take back your seat in a battle with its token.
    Rejoin(RejoinArgs),
    /// Watch a battle (read-only), or start one between the server's bots with --bots.
    Watch(WatchArgs),
    /// Step through a finished battle, from its start to its result.
    Replay(ReplayArgs),
    /// Save a finished battle's replay to a JSON file.
    Export(ExportArgs),
    /// Run many concurrent battles against the server and measure it.
    Loadtest(battle_load::LoadtestArgs),
}

/// How the battle is shown.
#[derive(Debug, Clone, Args)]
struct Display {
    /// No full-screen UI: one line per event, commands read from stdin (`play 2`, `end`,
    /// `help`, `quit`). Chosen by itself when stdout is not a terminal.
    #[arg(long, env = "BATTLE_PLAIN")]
    plain: bool,
}

#[derive(Debug, Args)]
struct PlayArgs {
    /// The ruleset to play.
    #[arg(long, env = "BATTLE_RULESET", default_value = "synergy")]
    ruleset: String,
    /// Play against the server (the default): the ruleset's engine where its sample has one,
    /// else the server's bots on the other seats.
    #[arg(long, env = "BATTLE_VS_BOT", conflicts_with = "pvp")]
    vs_bot: bool,
    /// Wait in the server's matchmaking queue for opponents who ask for the same ruleset and
    /// options (--sample or --options; neither: the ruleset's defaults), then play the battle
    /// found.
    #[arg(
        long,
        env = "BATTLE_QUEUE",
        conflicts_with_all = ["vs_bot", "pvp", "pace_ms", "private"]
    )]
    queue: bool,
    /// With --queue: play the server's bots after this many seconds without a match.
    #[arg(
        long,
        env = "BATTLE_BOT_AFTER",
        requires = "queue",
        value_name = "SECS"
    )]
    bot_after: Option<u64>,
    /// Leave the other seats to people (who join with the printed command).
    #[arg(long, env = "BATTLE_PVP")]
    pvp: bool,
    /// The ruleset's sample to create, by name, as the server lists it (`battle-client
    /// rulesets`); default: one that fits --vs-bot or --pvp.
    #[arg(long, env = "BATTLE_SAMPLE")]
    sample: Option<String>,
    /// Create options as JSON, replacing the sample's.
    #[arg(long, env = "BATTLE_OPTIONS")]
    options: Option<String>,
    #[command(flatten)]
    setup: SetupArgs,
    /// Delay before each bot move, in milliseconds (default: the server's).
    #[arg(long, env = "BATTLE_PLAY_PACE_MS")]
    pace_ms: Option<u64>,
    /// Keep the battle out of `list` (others join by id).
    #[arg(long, env = "BATTLE_PRIVATE")]
    private: bool,
    #[command(flatten)]
    who: Who,
    #[command(flatten)]
    display: Display,
}

/// Who holds the seat.
#[derive(Debug, Clone, Args)]
struct Who {
    /// The name others know you by: on their screens, in the battle's log and in its result
    /// (default: "Player N", N your seat from 1). 1 to 24 characters, without a space at
    /// either end or control characters. Given to the server on every connection the
    /// client makes for the seat, reconnections included.
    #[arg(long, env = "BATTLE_NAME", value_parser = PlayerName::parse)]
    name: Option<PlayerName>,
}

/// What you bring to your seat.
#[derive(Debug, Clone, Args)]
struct SetupArgs {
    /// Your deck as comma-separated card ids (synergy: 5 to 12 of C001..C010): the setup
    /// `{"deck": [...]}`.
    #[arg(long, env = "BATTLE_DECK", value_delimiter = ',')]
    deck: Vec<String>,
    /// What you bring to your seat, as JSON (see the ruleset's rules document), e.g.
    /// '{"hand": [1, 5, 9]}'.
    #[arg(long, env = "BATTLE_SETUP")]
    setup: Option<String>,
}

impl SetupArgs {
    /// The join setup, or why the flags cannot make one.
    fn value(&self) -> anyhow::Result<Option<serde_json::Value>> {
        lobby::setup_from(&self.deck, self.setup.as_deref()).map_err(anyhow::Error::msg)
    }
}

#[derive(Debug, Args)]
struct ListArgs {
    /// Also show recently finished battles, whose replays can be watched.
    #[arg(long)]
    finished: bool,
    /// Show at most this many open battles, the oldest first (default: every one, read
    /// page by page).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
}

#[derive(Debug, Args)]
struct ReplayArgs {
    /// The finished battle's id (from `list --finished`).
    battle_id: String,
    /// No full-screen UI: print the replay as text (each step's log lines, then the
    /// result). Chosen by itself when stdout is not a terminal.
    #[arg(long, env = "BATTLE_PLAIN")]
    plain: bool,
}

#[derive(Debug, Args)]
struct ExportArgs {
    /// The finished battle's id (from `list --finished`).
    battle_id: String,
    /// The file to write (default: <battle-id>.replay.json).
    #[arg(long, short)]
    output: Option<std::path::PathBuf>,
    /// Overwrite the file if it exists.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Args)]
struct JoinArgs {
    /// The battle's id (from `list` or from the person who created it).
    battle_id: String,
    /// The seat to take (default: the first free one).
    #[arg(long, env = "BATTLE_SEAT")]
    seat: Option<usize>,
    #[command(flatten)]
    setup: SetupArgs,
    #[command(flatten)]
    who: Who,
    #[command(flatten)]
    display: Display,
}

#[derive(Debug, Args)]
struct RejoinArgs {
    /// The battle's id.
    battle_id: String,
    /// The seat token printed when you joined.
    #[arg(long, env = "BATTLE_TOKEN")]
    token: String,
    #[command(flatten)]
    who: Who,
    #[command(flatten)]
    display: Display,
}

#[derive(Debug, Args)]
struct WatchArgs {
    /// The battle's id (from `list`, or printed by whoever created it).
    #[arg(required_unless_present = "bots")]
    battle_id: Option<String>,
    /// Create a battle in which the server's bots play every seat, and watch it.
    #[arg(long, conflicts_with = "battle_id")]
    bots: bool,
    /// With --bots: the ruleset.
    #[arg(
        long,
        env = "BATTLE_RULESET",
        default_value = "synergy",
        requires = "bots"
    )]
    ruleset: String,
    /// With --bots: the ruleset's sample, by name (`battle-client rulesets`).
    #[arg(long, requires = "bots")]
    sample: Option<String>,
    /// With --bots: delay before each bot move, in milliseconds (default: the server's).
    #[arg(long, requires = "bots")]
    pace_ms: Option<u64>,
    #[command(flatten)]
    display: Display,
}

/// The load generator's CPU is taken from the server it measures, and per received value it
/// allocates and frees a node or a string: mimalloc serves those from per-thread free lists
/// for less than glibc's allocator spends on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit code of a run that failed (a user error or no server): 2, as for bad arguments.
const FAILED: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let server = cli.server.join(", ");
    match start(cli) {
        Ok(code) => code,
        // Whoever reads our output has gone (`battle-client watch --plain | head`): stop
        // quietly, as line tools do.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // A sentence, never a backtrace: these are the person's errors or the network's.
            if is_refused(err.as_ref()) {
                eprintln!("error: {}", no_server_hint(&server));
            } else {
                eprintln!("error: {err:#}");
            }
            ExitCode::from(FAILED)
        }
    }
}

fn start(cli: Cli) -> anyhow::Result<ExitCode> {
    // The load generator runs on one thread: it shares the machine with the server it
    // measures, and one busy core for the generator leaves the others to the server. One
    // thread also spares the cross-thread wake-ups and work stealing of the default runtime.
    let runtime = match cli.command {
        Command::Loadtest(_) => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    }
    .enable_all()
    .build()
    .context("starting the async runtime")?;
    runtime.block_on(run(cli))
}

/// Whether `err` comes from writing to a closed pipe.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let policy = ReconnectPolicy::default();
    let command = match cli.command {
        Command::Loadtest(args) => return battle_load::run(&cli.server, args).await,
        command => command,
    };
    let servers = Servers::new(cli.server).context("no --server given")?;
    // What commands to copy name as --server: every address.
    let flag = servers.to_string();
    let flag = flag.as_str();
    // Where a command that talks to one server once goes: the first that answers.
    let server = servers.answering(policy.answer_timeout).await;
    match command {
        Command::Loadtest(_) => unreachable!("a load test returned above"),
        Command::List(args) => {
            let listing =
                lobby::list_battles(server, args.finished, args.limit.map(|n| n as usize))
                    .await
                    .context("listing battles")?;
            print!("{}", lobby::battles_table(&listing.battles));
            print!("{}", lobby::more_line(&listing));
            if args.finished {
                println!();
                let now = battle_term::clock::now_ms();
                print!(
                    "{}",
                    finished::finished_table(listing.finished.as_deref(), flag, now)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay(args) => {
            let replay = fetch_replay(server, flag, &args.battle_id).await?;
            let views = replay
                .views()
                .with_context(|| format!("the replay of battle {} is damaged", args.battle_id))?;
            let now = battle_term::clock::now_ms();
            if args.plain || !std::io::stdout().is_terminal() {
                for line in text::replay_lines(&replay, &views, now) {
                    println!("{line}");
                }
            } else {
                viewer::run(&replay, &views, replay::intro(&replay, now)).await?;
                // The screen is gone: the result stays on the terminal.
                for line in text::result(&replay, &views) {
                    println!("{line}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Export(args) => {
            let replay = fetch_replay(server, flag, &args.battle_id).await?;
            let path = args
                .output
                .unwrap_or_else(|| export::default_path(&args.battle_id));
            let written = export::export(&replay, &path, args.force)?;
            println!(
                "wrote the replay of battle {} to {}: {} steps, {} bytes",
                args.battle_id,
                written.path.display(),
                written.steps,
                written.bytes
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Rulesets => {
            let rulesets = battle_client::samples::welcome(server)
                .await
                .context("asking the server for its rulesets")?;
            print!("{}", lobby::rulesets_table(&rulesets));
            Ok(ExitCode::SUCCESS)
        }
        Command::Play(args) if args.queue => play_queued(&servers, args, policy).await,
        Command::Play(args) => {
            let setup = args.setup.value()?;
            let options = match &args.options {
                Some(text) => Some(serde_json::from_str(text).context("--options is not JSON")?),
                None => None,
            };
            let spec = BattleSpec {
                ruleset: args.ruleset,
                opponent: if args.pvp {
                    Opponent::Person
                } else {
                    Opponent::Bot
                },
                sample: args.sample,
                options,
                pace_ms: args.pace_ms,
                private: args.private,
            };
            let (battle_id, plan) = lobby::create(server, &spec)
                .await
                .context("creating a battle")?;
            let mine = plan.people.first().copied().unwrap_or(0);
            let name = args.who.name;
            let player = PlayerSession::join(&servers, &battle_id, Some(mine), setup, name, policy)
                .await
                .with_context(|| format!("taking seat {mine}"))?;
            println!("battle {battle_id} created");
            println!("ruleset {}, sample {}", spec.ruleset, plan.sample);
            let mut invite: Vec<String> = plan
                .people
                .iter()
                .skip(1)
                .map(|&seat| format!("others join with: {}", join_command(flag, &battle_id, seat)))
                .collect();
            invite.push(format!(
                "others watch with: {}",
                watch_command(flag, &battle_id)
            ));
            for line in &invite {
                println!("{line}");
            }
            play(flag, AnySession::Player(player), args.display, invite).await
        }
        Command::Join(args) => {
            let setup = args.setup.value()?;
            let (id, seat, name) = (&args.battle_id, args.seat, args.who.name);
            let player = PlayerSession::join(&servers, id, seat, setup, name, policy)
                .await
                .with_context(|| format!("joining battle {id}"))?;
            play(flag, AnySession::Player(player), args.display, Vec::new()).await
        }
        Command::Rejoin(args) => {
            let (id, token, name) = (&args.battle_id, &args.token, args.who.name);
            let player = PlayerSession::rejoin(&servers, id, token, name, policy)
                .await
                .with_context(|| format!("rejoining battle {}", args.battle_id))?;
            play(flag, AnySession::Player(player), args.display, Vec::new()).await
        }
        Command::Watch(args) => {
            let battle_id = match args.battle_id {
                Some(id) => id,
                None => {
                    let spec = BattleSpec {
                        ruleset: args.ruleset,
                        opponent: Opponent::Bots,
                        sample: args.sample,
                        options: None,
                        pace_ms: args.pace_ms,
                        private: false,
                    };
                    let (battle_id, plan) = lobby::create(server, &spec)
                        .await
                        .context("creating a battle between bots")?;
                    println!(
                        "battle {battle_id} created: {} sample {}, the server's bots play \
                         every seat",
                        spec.ruleset, plan.sample
                    );
                    battle_id
                }
            };
            let watcher = SpectatorSession::watch(&servers, &battle_id, policy)
                .await
                .with_context(|| format!("watching battle {battle_id}"))?;
            println!("watching battle {battle_id} (read-only)");
            play(
                flag,
                AnySession::Spectator(watcher),
                args.display,
                Vec::new(),
            )
            .await
        }
    }
}

/// Ask `server` for the replay of `battle_id`; a refusal people can act on becomes a sentence
/// saying what to do (its commands with `flag` as their --server).
async fn fetch_replay(
    server: &str,
    flag: &str,
    battle_id: &str,
) -> anyhow::Result<battle_protocol::Replay> {
    lobby::replay(server, battle_id).await.map_err(|err| {
        match replay::refusal(&err, flag, battle_id) {
            Some(sentence) => anyhow::Error::msg(sentence),
            None => anyhow::Error::new(err)
                .context(format!("asking for the replay of battle {battle_id}")),
        }
    })
}
