//! A bounded flooder: one client sending one kind of message as fast as a rate allows, for a
//! set time, to see what a server's limits leave it of the server (and everyone else).
//!
//! Kinds: `ping` (the protocol's), `list`, `create` (private synergy battles), `act` (moves
//! in a battle of its own against the server's bot: `end_turn` whenever it may, refused
//! `not_your_turn` otherwise; a new battle when one ends, within the default create rate),
//! `ping-frame` (WebSocket pings).
//! `--rate` defaults to the server's default rate for the kind; `--connections N` floods
//! from N connections of this one address. Every connection stops after `--secs` (at most
//! ten minutes) or when the server closes it.
//!
//! Prints what was sent, answered, refused (`rate_limited`, by other codes) and the close
//! code, and with `--server-pid` the server's CPU seconds over the flood and its share of
//! one core. Exit code 0, or 2 when the flood could not be made.
//!
//! ```sh
//! cargo run -p battle-e2e --example flood -- --server ws://127.0.0.1:7878 --kind ping \
//!     --secs 20 --server-pid "$(pgrep -n battle-server)"
//! ```

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use battle_e2e::battle_protocol::{ClientMsg, ErrorCode, ServerMsg};
use battle_e2e::battle_server::config::{DEFAULT_CREATE_RATE, DEFAULT_MESSAGE_RATE};
use battle_e2e::Create;
use battle_load::procfs;
use clap::Parser;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// Flood a battle server with one kind of message at a fixed rate, for a bounded time.
#[derive(Debug, Parser)]
struct Args {
    /// The server's WebSocket URL.
    #[arg(long, default_value = "ws://127.0.0.1:7878")]
    server: String,
    /// What to send.
    #[arg(long, value_enum)]
    kind: Kind,
    /// Messages a second per connection (default: the server's default rate for the kind).
    #[arg(long)]
    rate: Option<f64>,
    /// How long to flood, in seconds (at most 600).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=600))]
    secs: u64,
    /// Connections flooding together (all from this address).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    connections: u64,
    /// The server's process id: its CPU time over the flood is reported.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
}

/// What a flooder sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Kind {
    Ping,
    List,
    Create,
    Act,
    PingFrame,
}

impl Kind {
    /// The server's default rate for this kind, per connection.
    fn default_rate(self) -> f64 {
        let rate = match self {
            Kind::Create => DEFAULT_CREATE_RATE,
            // A list is held to the lobby rate too (20 a second), as many as messages.
            _ => DEFAULT_MESSAGE_RATE,
        };
        f64::from(rate.per_sec)
    }
}

/// What one connection saw.
#[derive(Debug, Default, Clone)]
struct Tally {
    sent: u64,
    /// Answers other than refusals: pongs, pages, creations, patches answering a move.
    answered: u64,
    rate_limited: u64,
    /// Other refusals, by code.
    refused: BTreeMap<String, u64>,
    /// The close code the server sent, if it closed the connection.
    closed_with: Option<u16>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.sent += other.sent;
        self.answered += other.answered;
        self.rate_limited += other.rate_limited;
        for (code, n) in &other.refused {
            *self.refused.entry(code.clone()).or_default() += n;
        }
        self.closed_with = self.closed_with.or(other.closed_with);
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    match flood(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("flood: {err:#}");
            ExitCode::from(2)
        }
    }
}

async fn flood(args: &Args) -> anyhow::Result<()> {
    let rate = args.rate.unwrap_or_else(|| args.kind.default_rate());
    if !(rate > 0.0 && rate.is_finite()) {
        bail!("--rate must be a positive number of messages a second");
    }
    let before = args.server_pid.and_then(procfs::sample);
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.secs);
    let mut tasks = Vec::new();
    for _ in 0..args.connections {
        let url = args.server.clone();
        let kind = args.kind;
        tasks.push(tokio::spawn(async move {
            one(&url, kind, rate, deadline).await
        }));
    }
    let mut total = Tally::default();
    let mut closed = 0;
    for task in tasks {
        let tally = task.await.context("a flooding connection panicked")??;
        closed += u64::from(tally.closed_with.is_some());
        total.add(&tally);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = match (before, args.server_pid.and_then(procfs::sample)) {
        (Some(a), Some(b)) => Some((b.cpu_secs - a.cpu_secs).max(0.0)),
        _ => None,
    };
    if args.json {
        let out = json!({
            "kind": format!("{:?}", args.kind).to_lowercase(),
            "rate_per_connection": rate,
            "connections": args.connections,
            "secs": elapsed,
            "sent": total.sent,
            "answered": total.answered,
            "rate_limited": total.rate_limited,
            "refused": total.refused,
            "closed_with": total.closed_with,
            "connections_closed": closed,
            "server_cpu_secs": cpu,
            "server_cpu_share": cpu.map(|c| c / elapsed),
        });
        println!("{out}");
    } else {
        println!(
            "{:?} at {rate}/s on {} connection(s) for {elapsed:.1} s: sent {}, answered {}, \
             rate_limited {}, other refusals {:?}, {closed} closed by the server{}",
            args.kind,
            args.connections,
            total.sent,
            total.answered,
            total.rate_limited,
            total.refused,
            total
                .closed_with
                .map_or(String::new(), |code| format!(" (close code {code})")),
        );
        if let Some(cpu) = cpu {
            println!(
                "server CPU over the flood: {cpu:.2} s, {:.2}% of one core",
                cpu * 100.0 / elapsed
            );
        }
    }
    Ok(())
}

/// One flooding connection until `deadline` or its close.
async fn one(url: &str, kind: Kind, rate: f64, deadline: Instant) -> anyhow::Result<Tally> {
    let (ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .with_context(|| format!("cannot connect to {url}"))?;
    let (mut sink, mut stream) = ws.split();
    let mut tally = Tally::default();
    let every = Duration::from_secs_f64(1.0 / rate);
    let mut next = Instant::now();
    // `act`: the battle it moves in (made before the flood's clock matters).
    let mut battle: Option<String> = None;
    let mut last_create = None;
    let mut req = 0u64;
    if kind == Kind::Act {
        match new_battle(&mut sink, &mut stream, &mut last_create).await? {
            Made::Battle(id) => battle = Some(id),
            Made::Closed(code) => {
                tally.closed_with = Some(code);
                return Ok(tally);
            }
        }
        // Its creation and its join were two of its messages: the rate holds them too.
        next += every * 2;
    }
    loop {
        tokio::select! {
            () = tokio::time::sleep_until(next) => {
                if Instant::now() >= deadline {
                    break;
                }
                next += every;
                req += 1;
                let message = match kind {
                    Kind::PingFrame => Message::Ping(Vec::new().into()),
                    _ => Message::text(request(kind, battle.as_deref(), req)),
                };
                if sink.send(message).await.is_err() {
                    break;
                }
                tally.sent += 1;
            }
            got = stream.next() => match got {
                Some(Ok(Message::Text(text))) => {
                    let msg: ServerMsg = serde_json::from_str(&text).context("a server message")?;
                    match msg {
                        ServerMsg::Error { code: ErrorCode::RateLimited, .. } => {
                            tally.rate_limited += 1
                        }
                        ServerMsg::Error { code: ErrorCode::BattleOver, .. } if kind == Kind::Act => {
                            // Its battle ended: another one (the creation counts as an
                            // answer; it and the join take two of the rate's messages).
                            match new_battle(&mut sink, &mut stream, &mut last_create).await? {
                                Made::Battle(id) => battle = Some(id),
                                Made::Closed(code) => {
                                    tally.closed_with = Some(code);
                                    break;
                                }
                            }
                            tally.answered += 1;
                            next += every * 2;
                        }
                        ServerMsg::Error { code, .. } => {
                            *tally.refused.entry(code.to_string()).or_default() += 1
                        }
                        ServerMsg::Patch { req: Some(_), .. }
                        | ServerMsg::Pong { .. }
                        | ServerMsg::Battles { .. }
                        | ServerMsg::Created { .. } => tally.answered += 1,
                        _ => {}
                    }
                }
                Some(Ok(Message::Pong(_))) => tally.answered += 1,
                Some(Ok(Message::Close(frame))) => {
                    tally.closed_with = Some(frame.map_or(1005, |f| u16::from(f.code)));
                    break;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
        }
    }
    Ok(tally)
}

/// The request a flooder of `kind` sends, numbered `req`.
fn request(kind: Kind, battle: Option<&str>, req: u64) -> String {
    let msg = match kind {
        Kind::Ping | Kind::PingFrame => ClientMsg::Ping { req: Some(req) },
        Kind::List => ClientMsg::List {
            finished: false,
            limit: None,
            cursor: None,
            req: Some(req),
        },
        Kind::Create => Create::synergy(Value::Null).private().message(Some(req)),
        Kind::Act => ClientMsg::Act {
            battle_id: battle.unwrap_or_default().to_string(),
            action: json!({"kind": "end_turn"}),
            req: Some(req),
        },
    };
    serde_json::to_string(&msg).expect("a client message serializes")
}

type Sink = futures::stream::SplitSink<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    Message,
>;
type Stream = futures::stream::SplitStream<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
>;

/// What making the flooder a new battle came to.
enum Made {
    /// Its id: the flooder holds seat 0.
    Battle(String),
    /// The server closed the connection, with this code.
    Closed(u16),
}

/// Create a private synergy battle against the server's bot (no pacing) and take seat 0,
/// no sooner than the default create rate allows after the one before (`last`).
async fn new_battle(
    sink: &mut Sink,
    stream: &mut Stream,
    last: &mut Option<Instant>,
) -> anyhow::Result<Made> {
    let spacing = Duration::from_secs(1) / DEFAULT_CREATE_RATE.per_sec;
    if let Some(at) = *last {
        tokio::time::sleep_until(at + spacing).await;
    }
    *last = Some(Instant::now());
    let create = json!({"type": "create", "ruleset": "synergy", "options": {"mode": "pve"},
                        "private": true, "pace_ms": 0, "req": 0});
    let battle = match ask(sink, stream, &create).await? {
        Got::Msg(ServerMsg::Created { battle_id, .. }) => battle_id,
        Got::Closed(code) => return Ok(Made::Closed(code)),
        Got::Msg(other) => bail!("the flooder's battle was refused: {other:?}"),
    };
    let join = json!({"type": "join", "battle_id": battle, "seat": 0, "req": 0});
    match ask(sink, stream, &join).await? {
        Got::Msg(ServerMsg::Joined { .. }) => Ok(Made::Battle(battle)),
        Got::Closed(code) => Ok(Made::Closed(code)),
        Got::Msg(other) => bail!("the flooder's seat was refused: {other:?}"),
    }
}

/// A message from the server, or its close.
enum Got {
    Msg(ServerMsg),
    /// The close code (1005 when the close frame gave none).
    Closed(u16),
}

/// Send `request` (its `req` 0) and return its answer; over a rate (under a flood of moves
/// the message bucket is empty), wait as told and ask again.
async fn ask(sink: &mut Sink, stream: &mut Stream, request: &Value) -> anyhow::Result<Got> {
    for _ in 0..100 {
        if sink.send(Message::text(request.to_string())).await.is_err() {
            // Closed under it: the close frame says why.
            return next_msg(stream).await;
        }
        loop {
            match next_msg(stream).await? {
                Got::Msg(ServerMsg::Error {
                    code: ErrorCode::RateLimited,
                    retry_after_ms: Some(ms),
                    req: Some(0),
                    ..
                }) => {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    break;
                }
                got @ (Got::Closed(_)
                | Got::Msg(
                    ServerMsg::Created { req: Some(0), .. }
                    | ServerMsg::Joined { req: Some(0), .. }
                    | ServerMsg::Error { req: Some(0), .. },
                )) => return Ok(got),
                Got::Msg(_) => {}
            }
        }
    }
    bail!("refused over the rates 100 times in a row")
}

/// The next message, or the server's close.
async fn next_msg(stream: &mut Stream) -> anyhow::Result<Got> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return Ok(Got::Msg(
                    serde_json::from_str(&text).context("a server message")?,
                ))
            }
            Ok(Some(Ok(Message::Close(frame)))) => {
                return Ok(Got::Closed(frame.map_or(1005, |f| u16::from(f.code))))
            }
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(err))) => bail!("the connection failed: {err}"),
            Ok(None) => bail!("the server closed the connection"),
            Err(_) => bail!("no answer within 10 s"),
        }
    }
}
