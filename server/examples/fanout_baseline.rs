//! Bare WebSocket fan-out server and its load generator: the reference point for
//! `bench/run`'s scenario B.
//!
//! The server has no game logic. It runs one actor per room; each action from a player makes
//! the actor serialize one `patch` frame of about `--frame-bytes` bytes (900 by default, the
//! mean patch size of the real server) and hand the same shared bytes to every member of the
//! room. The load generator opens rooms of 2 players + 2 spectators over loopback, plays
//! them as fast as the server answers, and reports actions per second and the server's
//! CPU-seconds per 1,000 actions, so the real server's figures can be compared with what a
//! bare server reaches on the same machine in the same minute.
//!
//! ```text
//! cargo build --release -p battle-server --example fanout_baseline
//! target/release/examples/fanout_baseline serve [--listen 127.0.0.1:0] [--frame-bytes 900] &
//! target/release/examples/fanout_baseline load --url ws://127.0.0.1:PORT --server-pid PID \
//!     [--rooms 1000] [--secs 20] [--frame-bytes 900] [--ramp-per-sec 500] \
//!     [--actions-per-room N]
//! ```
//! With `--actions-per-room`, each room stops after that many actions and the run ends when
//! every room has (or at `--secs`): a fixed amount of work, for counting the server's
//! instructions per action (`bench/callgrind`); the window is then the whole run.
//! `serve` prints `fanout_baseline listening on ws://ADDR` once it accepts connections.
//! `load` prints one JSON object. Each room holds 4 connections on both sides, so both
//! processes need `ulimit -n` above 4 × rooms.
//!
//! Wire protocol: a connection's first text message is `join ROOM ROLE [FRAME_BYTES]`
//! (roles 0 and 1 play, 2 and up watch); the server answers it with `{"type":"joined"}`
//! so the client knows the room counts it before the first action. After that a player's
//! text message is an action, and every member receives a `patch` frame whose `next` names
//! the player to act next. Spectators' messages are ignored.

/// The server's allocator, so the figures are comparable with the real server's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use dashmap::DashMap;
use futures::stream::SplitSink;
use futures::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::error::{Error as WsError, ProtocolError};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::WebSocketStream;

const USAGE: &str = "usage: fanout_baseline serve [--listen ADDR] [--frame-bytes N]\n       \
    fanout_baseline load --url ws://HOST:PORT --server-pid PID [--rooms N] [--secs N] \
    [--frame-bytes N] [--ramp-per-sec N] [--actions-per-room N]";

/// Frames a connection may have queued before the server drops it as too slow.
const OUT_QUEUE: usize = 64;
/// Commands a room actor may have queued before senders wait.
const ROOM_QUEUE: usize = 256;
/// Largest frame a join may ask for.
const MAX_FRAME_BYTES: usize = 1 << 20;
/// Connections per room on the load side: players 0 and 1, spectators 2 and 3.
const ROOM_SIZE: u8 = 4;
/// Time the load generator gives rooms to finish their round after the window ends.
const GRACE: Duration = Duration::from_secs(1);
/// Clock ticks per second of `/proc/PID/stat`. `libc` is not a dependency of this package,
/// so `sysconf(_SC_CLK_TCK)` is not called; Linux reports 100 on every common architecture.
const CLK_TCK: f64 = 100.0;

/// WebSocket buffers sized for small frames, on both sides. tungstenite's default 128 KiB
/// read buffer per connection costs throughput and memory at thousands of connections.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&Flags::parse(&args[1..], &["listen", "frame-bytes"])),
        Some("load") => load(&Flags::parse(
            &args[1..],
            &[
                "url",
                "server-pid",
                "rooms",
                "secs",
                "frame-bytes",
                "ramp-per-sec",
                "actions-per-room",
            ],
        )),
        _ => usage("missing or unknown subcommand"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fanout_baseline: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Reports a malformed command line and exits with status 2.
fn usage(problem: &str) -> ! {
    eprintln!("fanout_baseline: {problem}\n{USAGE}");
    std::process::exit(2)
}

/// `--name value` pairs of the command line.
struct Flags(Vec<(String, String)>);

impl Flags {
    /// Splits `args` into pairs, rejecting any flag outside `known`.
    fn parse(args: &[String], known: &[&str]) -> Self {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let name = match flag.strip_prefix("--") {
                Some(name) if known.contains(&name) => name,
                _ => usage(&format!("unexpected argument `{flag}`")),
            };
            let Some(value) = it.next() else {
                usage(&format!("{flag} needs a value"))
            };
            pairs.push((name.to_owned(), value.clone()));
        }
        Self(pairs)
    }

    /// The value of `--name`, or `default` when absent; `None` as default makes it required.
    fn get<T: FromStr>(&self, name: &str, default: Option<T>) -> T {
        match self.0.iter().rev().find(|(n, _)| n == name) {
            Some((_, v)) => v
                .parse()
                .unwrap_or_else(|_| usage(&format!("bad value for --{name}: `{v}`"))),
            None => default.unwrap_or_else(|| usage(&format!("--{name} is required"))),
        }
    }
}

/// What a connection tells its room's actor.
enum RoomCmd {
    /// A new member and the queue of its outgoing frames.
    Join { id: u64, tx: mpsc::Sender<Message> },
    /// Player `role` acted.
    Act { role: u8 },
    /// The connection `id` ended.
    Leave { id: u64 },
}

/// State shared by all connections of the server.
struct Server {
    rooms: DashMap<u64, mpsc::Sender<RoomCmd>>,
    next_id: AtomicU64,
    frame_bytes: usize,
    errors: AtomicU64,
}

fn serve(flags: &Flags) -> anyhow::Result<()> {
    let listen: SocketAddr = flags.get("listen", Some(SocketAddr::from(([127, 0, 0, 1], 0))));
    let frame_bytes: usize = flags.get("frame-bytes", Some(900));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("building the runtime")?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(listen)
            .await
            .with_context(|| format!("binding {listen}"))?;
        println!(
            "fanout_baseline listening on ws://{}",
            listener.local_addr()?
        );
        std::io::Write::flush(&mut std::io::stdout())?;
        let server = Arc::new(Server {
            rooms: DashMap::new(),
            next_id: AtomicU64::new(0),
            frame_bytes: frame_bytes.min(MAX_FRAME_BYTES),
            errors: AtomicU64::new(0),
        });
        let accept = async {
            loop {
                match listener.accept().await {
                    Ok((tcp, _)) => {
                        let server = Arc::clone(&server);
                        tokio::spawn(async move {
                            if serve_connection(tcp, &server).await.is_err() {
                                server.errors.fetch_add(1, Ordering::Relaxed);
                            }
                        });
                    }
                    // Out of file descriptors, most likely: wait for some to close.
                    Err(_) => {
                        server.errors.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                }
            }
        };
        tokio::select! {
            () = accept => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        eprintln!(
            "fanout_baseline: {} connection errors",
            server.errors.load(Ordering::Relaxed)
        );
        Ok(())
    })
}

/// Runs one client connection from handshake to close.
async fn serve_connection(tcp: TcpStream, server: &Arc<Server>) -> anyhow::Result<()> {
    tcp.set_nodelay(true)?;
    let ws = tokio_tungstenite::accept_async_with_config(tcp, Some(ws_config())).await?;
    let (sink, mut stream) = ws.split();
    let join = next_text(&mut stream).await?;
    let (room, role, frame_bytes) = parse_join(&join).context("bad join message")?;
    let (tx, rx) = mpsc::channel(OUT_QUEUE);
    let id = server.next_id.fetch_add(1, Ordering::Relaxed);
    let room_tx = join_room(server, room, frame_bytes, RoomCmd::Join { id, tx }).await;
    let mut writer = tokio::spawn(write_frames(sink, rx));
    let result = loop {
        tokio::select! {
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(_))) if role < 2 => {
                    if room_tx.send(RoomCmd::Act { role }).await.is_err() {
                        break Ok(());
                    }
                }
                Some(Ok(Message::Close(_))) | None => break Ok(()),
                Some(Ok(_)) => {}
                Some(Err(e)) if client_left(&e) => break Ok(()),
                Some(Err(e)) => break Err(e.into()),
            },
            // The writer ends when the socket fails or the room dropped this member.
            _ = &mut writer => break Ok(()),
        }
    };
    // The actor is gone if the send fails, which is all `Leave` would achieve.
    let _ = room_tx.send(RoomCmd::Leave { id }).await;
    writer.abort();
    result
}

/// Whether `e` only says that the client went away without a closing handshake, which is
/// how a load generator ends its connections, not a server error.
fn client_left(e: &WsError) -> bool {
    match e {
        WsError::ConnectionClosed | WsError::AlreadyClosed => true,
        WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => true,
        WsError::Io(io) => io.kind() == std::io::ErrorKind::ConnectionReset,
        _ => false,
    }
}

/// Hands `join` to the room's actor, starting the actor if the room does not exist, and
/// returns the actor's command queue.
async fn join_room(
    server: &Arc<Server>,
    room: u64,
    frame_bytes: Option<usize>,
    join: RoomCmd,
) -> mpsc::Sender<RoomCmd> {
    let mut cmd = join;
    loop {
        let tx = server
            .rooms
            .entry(room)
            .or_insert_with(|| {
                let (tx, rx) = mpsc::channel(ROOM_QUEUE);
                let bytes = frame_bytes.unwrap_or(server.frame_bytes);
                tokio::spawn(run_room(Arc::clone(server), room, bytes, tx.clone(), rx));
                tx
            })
            .clone();
        match tx.send(cmd).await {
            Ok(()) => return tx,
            // The actor ended between the lookup and the send: drop its entry and retry.
            Err(mpsc::error::SendError(back)) => {
                server.rooms.remove_if(&room, |_, s| s.same_channel(&tx));
                cmd = back;
            }
        }
    }
}

/// The actor of one room: owns the members' queues and broadcasts one frame per action.
async fn run_room(
    server: Arc<Server>,
    room: u64,
    frame_bytes: usize,
    me: mpsc::Sender<RoomCmd>,
    mut rx: mpsc::Receiver<RoomCmd>,
) {
    let mut members: Vec<(u64, mpsc::Sender<Message>)> = Vec::with_capacity(ROOM_SIZE.into());
    let mut seq: u64 = 0;
    let pad = "x".repeat(frame_bytes);
    let joined = Message::Text(Utf8Bytes::from_static(r#"{"type":"joined"}"#));
    while let Some(cmd) = rx.recv().await {
        match cmd {
            RoomCmd::Join { id, tx } => {
                if tx.try_send(joined.clone()).is_ok() {
                    members.push((id, tx));
                }
            }
            RoomCmd::Act { role } => {
                seq += 1;
                let frame = Message::Text(patch_frame(room, seq, 1 - role.min(1), &pad).into());
                // A member whose queue is full is dropped: its writer drains and closes.
                members.retain(|(_, tx)| tx.try_send(frame.clone()).is_ok());
            }
            RoomCmd::Leave { id } => members.retain(|(member, _)| *member != id),
        }
        if members.is_empty() {
            break;
        }
    }
    server.rooms.remove_if(&room, |_, s| s.same_channel(&me));
}

/// The `patch` frame of action `seq`, padded to about `pad.len()` bytes in all.
fn patch_frame(room: u64, seq: u64, next: u8, pad: &str) -> String {
    let head = format!(
        r#"{{"type":"patch","room":{room},"seq":{seq},"next":{next},"ops":[{{"op":"replace","path":"/pad","value":""#
    );
    let tail = r#""}]}"#;
    let fill = pad.len().saturating_sub(head.len() + tail.len());
    let mut frame = head;
    frame.reserve(fill + tail.len());
    frame.push_str(&pad[..fill]);
    frame.push_str(tail);
    frame
}

/// Parses `join ROOM ROLE [FRAME_BYTES]`.
fn parse_join(text: &str) -> Option<(u64, u8, Option<usize>)> {
    let mut words = text.split_ascii_whitespace();
    if words.next()? != "join" {
        return None;
    }
    let room = words.next()?.parse().ok()?;
    let role = words.next()?.parse().ok()?;
    let frame_bytes = match words.next() {
        Some(w) => Some(w.parse::<usize>().ok()?.min(MAX_FRAME_BYTES)),
        None => None,
    };
    Some((room, role, frame_bytes))
}

/// Writes the queued frames, flushing once per batch, until the queue closes or the socket fails.
async fn write_frames(
    mut sink: SplitSink<WebSocketStream<TcpStream>, Message>,
    mut rx: mpsc::Receiver<Message>,
) {
    while let Some(msg) = rx.recv().await {
        if sink.feed(msg).await.is_err() {
            return;
        }
        while let Ok(msg) = rx.try_recv() {
            if sink.feed(msg).await.is_err() {
                return;
            }
        }
        if sink.flush().await.is_err() {
            return;
        }
    }
    // Dropped by the room (too slow) or the room ended: say goodbye, best effort.
    let _ = sink.close().await;
}

/// The next text message of a connection, skipping control frames.
async fn next_text<S>(stream: &mut S) -> anyhow::Result<Utf8Bytes>
where
    S: futures::Stream<Item = Result<Message, WsError>> + Unpin,
{
    loop {
        match stream.next().await {
            Some(Ok(Message::Text(text))) => return Ok(text),
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {}
            Some(Ok(Message::Binary(_))) => bail!("unexpected binary message"),
            Some(Ok(Message::Close(_))) | None => bail!("connection closed"),
            Some(Err(e)) => return Err(e.into()),
        }
    }
}

/// Counters shared by the room tasks of the load generator.
#[derive(Default)]
struct Counters {
    actions: AtomicU64,
    joined_rooms: AtomicU64,
    errors: AtomicU64,
}

/// What every room task needs to know.
struct LoadPlan {
    url: String,
    server: SocketAddr,
    frame_bytes: usize,
    deadline: Instant,
    /// Actions after which a room stops (0: none, play until the deadline).
    actions_per_room: u64,
}

fn load(flags: &Flags) -> anyhow::Result<()> {
    let url: String = flags.get("url", None);
    let server_pid: u32 = flags.get("server-pid", None);
    let rooms: u64 = flags.get("rooms", Some(1000));
    let secs: u64 = flags.get("secs", Some(20));
    let frame_bytes: usize = flags.get("frame-bytes", Some(900));
    let ramp_per_sec: u64 = flags.get("ramp-per-sec", Some(500));
    let actions_per_room: u64 = flags.get("actions-per-room", Some(0));
    if rooms == 0 || secs == 0 || ramp_per_sec == 0 {
        usage("--rooms, --secs and --ramp-per-sec must be positive");
    }
    let Some(host) = url.strip_prefix("ws://") else {
        usage("--url must start with ws://")
    };
    let host = host.split('/').next().unwrap_or(host).to_owned();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("building the runtime")?;
    runtime.block_on(async move {
        let server = tokio::net::lookup_host(&host)
            .await
            .with_context(|| format!("resolving {host}"))?
            .next()
            .with_context(|| format!("{host} resolves to no address"))?;
        // The server's memory before any room: what the rooms add is measured from here.
        let rss_start_kib = rss_kib(server_pid)?;
        let start = Instant::now();
        let end = start + Duration::from_secs(secs);
        let plan = Arc::new(LoadPlan {
            url,
            server,
            frame_bytes,
            deadline: end,
            actions_per_room,
        });
        let counters = Arc::new(Counters::default());

        // Rooms in order, at most `ramp_per_sec` started per second; room ids are unique
        // to this run so rooms of an earlier run still closing cannot collide.
        let ramp = {
            let (plan, counters) = (Arc::clone(&plan), Arc::clone(&counters));
            tokio::spawn(async move {
                let base = u64::from(std::process::id()) << 32;
                let mut tasks = Vec::new();
                for i in 0..rooms {
                    tokio::time::sleep_until(
                        start + Duration::from_secs_f64(i as f64 / ramp_per_sec as f64),
                    )
                    .await;
                    if Instant::now() >= plan.deadline {
                        break;
                    }
                    let source = Ipv4Addr::new(127, 0, 0, 1 + (i % 4) as u8);
                    let (plan, counters) = (Arc::clone(&plan), Arc::clone(&counters));
                    tasks.push(tokio::spawn(async move {
                        if play_room(base + i, source, &plan, &counters).await.is_err() {
                            counters.errors.fetch_add(1, Ordering::Relaxed);
                        }
                    }));
                }
                tasks
            })
        };

        // With a fixed amount of work, everything from the first room on counts.
        let initial = Snapshot::take(server_pid, &counters)?;
        // The window opens once every room is playing, or 5 s after the ramp should have ended.
        let latest = start + Duration::from_secs_f64(rooms as f64 / ramp_per_sec as f64 + 5.0);
        while counters.joined_rooms.load(Ordering::Relaxed) < rooms
            && Instant::now() < latest.min(end)
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let (window_start, before, after, end, tasks) = if actions_per_room == 0 {
            let window_start = Instant::now().min(end);
            let before = Snapshot::take(server_pid, &counters)?;
            tokio::time::sleep_until(end).await;
            let after = Snapshot::take(server_pid, &counters)?;
            let tasks = ramp.await.context("the ramp task failed")?;
            (window_start, before, after, end, tasks)
        } else {
            // A fixed amount of work: the window is the whole run, until every room is done.
            let before = initial;
            let mut tasks = ramp.await.context("the ramp task failed")?;
            for task in &mut tasks {
                let _ = tokio::time::timeout_at(end, task).await;
            }
            let after = Snapshot::take(server_pid, &counters)?;
            (start, before, after, Instant::now(), Vec::new())
        };
        let window_secs = (end - window_start).as_secs_f64();

        let aborts: Vec<_> = tasks.iter().map(|t| t.abort_handle()).collect();
        let _ = tokio::time::timeout(GRACE, futures::future::join_all(tasks)).await;
        aborts.iter().for_each(|a| a.abort());

        let actions = after.actions - before.actions;
        let per_1000 = |cpu: f64| cpu / actions as f64 * 1000.0;
        let server_cpu = after.server_cpu - before.server_cpu;
        let report = serde_json::json!({
            "rooms": rooms,
            "window_secs": window_secs,
            "actions": actions,
            "actions_per_sec": actions as f64 / window_secs,
            "server_cpu_secs_per_1000_actions": per_1000(server_cpu),
            "server_cpu_cores": server_cpu / window_secs,
            "server_rss_kib": after.server_rss_kib,
            "server_rss_per_room_kib":
                after.server_rss_kib.saturating_sub(rss_start_kib) as f64 / rooms as f64,
            "client_cpu_secs_per_1000_actions": per_1000(after.client_cpu - before.client_cpu),
            "errors": counters.errors.load(Ordering::Relaxed),
        });
        println!("{report}");
        Ok(())
    })
}

/// Plays one room: joins its 4 connections, then acts and reads the 4 broadcasts until the
/// deadline.
async fn play_room(
    room: u64,
    source: Ipv4Addr,
    plan: &LoadPlan,
    counters: &Counters,
) -> anyhow::Result<()> {
    let mut conns = Vec::with_capacity(ROOM_SIZE.into());
    for _ in 0..ROOM_SIZE {
        let socket = TcpSocket::new_v4()?;
        socket.bind((source, 0).into())?;
        let tcp = socket.connect(plan.server).await?;
        tcp.set_nodelay(true)?;
        let (ws, _) =
            tokio_tungstenite::client_async_with_config(plan.url.as_str(), tcp, Some(ws_config()))
                .await?;
        conns.push(ws);
    }
    for (role, ws) in conns.iter_mut().enumerate() {
        ws.send(Message::text(format!(
            "join {room} {role} {}",
            plan.frame_bytes
        )))
        .await?;
    }
    for ws in &mut conns {
        next_text(ws).await?;
    }
    counters.joined_rooms.fetch_add(1, Ordering::Relaxed);

    let act = Message::Text(Utf8Bytes::from_static("act"));
    let (mut seq, mut next) = (0u64, 0usize);
    let mut played = 0u64;
    while Instant::now() < plan.deadline
        && (plan.actions_per_room == 0 || played < plan.actions_per_room)
    {
        played += 1;
        conns[next].send(act.clone()).await?;
        let mut told = None;
        for ws in &mut conns {
            let frame = next_text(ws).await?;
            let frame = frame.as_bytes();
            if number_after(frame, b"\"seq\":") != Some(seq + 1) {
                bail!("room {room}: expected seq {}", seq + 1);
            }
            let n = number_after(frame, b"\"next\":").context("frame without next")?;
            if told.is_some_and(|t| t != n) || n > 1 {
                bail!("room {room}: members disagree on who acts next");
            }
            told = Some(n);
        }
        seq += 1;
        next = told.context("no frame read")? as usize;
        counters.actions.fetch_add(1, Ordering::Relaxed);
    }
    // Say goodbye without waiting for the server's answer; the deadline has passed.
    for ws in &mut conns {
        let _ = ws.send(Message::Close(None)).await;
    }
    Ok(())
}

/// The unsigned number right after the first `key` in `frame`: a byte search, as the frame's
/// head is fixed and a JSON parse would cost the generator more than the server's send.
fn number_after(frame: &[u8], key: &[u8]) -> Option<u64> {
    let at = frame.windows(key.len()).position(|w| w == key)? + key.len();
    let digits = frame[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    std::str::from_utf8(&frame[at..at + digits])
        .ok()?
        .parse()
        .ok()
}

/// Counters and process figures at one instant.
struct Snapshot {
    actions: u64,
    server_cpu: f64,
    server_rss_kib: u64,
    client_cpu: f64,
}

impl Snapshot {
    fn take(server_pid: u32, counters: &Counters) -> anyhow::Result<Self> {
        Ok(Self {
            actions: counters.actions.load(Ordering::Relaxed),
            server_cpu: cpu_secs(&format!("/proc/{server_pid}/stat"))?,
            server_rss_kib: rss_kib(server_pid)?,
            client_cpu: cpu_secs("/proc/self/stat")?,
        })
    }
}

/// User + system CPU-seconds of a process, from fields 14 and 15 of its `stat` file.
fn cpu_secs(path: &str) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    // The command name (field 2) may hold spaces; the fields after its `)` start at field 3.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, r)| r)
        .context("malformed stat")?;
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let ticks = |field: usize| -> anyhow::Result<u64> {
        Ok(fields.get(field - 3).context("short stat")?.parse()?)
    };
    Ok((ticks(14)? + ticks(15)?) as f64 / CLK_TCK)
}

/// Resident set size of a process (`VmRSS`, KiB).
fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .context("no VmRSS")?;
    let kib = line
        .split_ascii_whitespace()
        .nth(1)
        .context("malformed VmRSS")?;
    Ok(kib.parse()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_messages_parse_or_are_refused() {
        assert_eq!(parse_join("join 7 1"), Some((7, 1, None)));
        assert_eq!(parse_join("join 7 3 900"), Some((7, 3, Some(900))));
        assert_eq!(
            parse_join("join 7 0 99999999"),
            Some((7, 0, Some(MAX_FRAME_BYTES)))
        );
        for bad in [
            "",
            "join",
            "join x 1",
            "join 7",
            "leave 7 1",
            "join 7 1 big",
        ] {
            assert_eq!(parse_join(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn patch_frames_are_json_of_the_asked_size() {
        let pad = "x".repeat(900);
        let frame = patch_frame(12, 345, 1, &pad);
        assert_eq!(frame.len(), 900);
        let value: serde_json::Value = serde_json::from_str(&frame).expect("valid JSON");
        assert_eq!(value["seq"], 345);
        assert_eq!(value["next"], 1);
        // A size smaller than the head still gives a whole frame.
        let short = patch_frame(12, 345, 0, "");
        assert!(serde_json::from_str::<serde_json::Value>(&short).is_ok());
    }

    #[test]
    fn numbers_are_read_after_their_key() {
        let frame = patch_frame(3, 41, 0, &"x".repeat(200));
        assert_eq!(number_after(frame.as_bytes(), b"\"seq\":"), Some(41));
        assert_eq!(number_after(frame.as_bytes(), b"\"next\":"), Some(0));
        assert_eq!(number_after(frame.as_bytes(), b"\"absent\":"), None);
        assert_eq!(number_after(b"{\"seq\":}", b"\"seq\":"), None);
    }
}
