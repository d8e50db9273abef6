//! Battles that survive the server: a server with a data directory keeps every battle's
//! input log, so a drained (SIGTERM) or killed (`kill -9`) server, started again on the same
//! directory, brings every unfinished battle back where its clients last saw it; players take
//! their seats back with `rejoin` and their tokens, and the battles play on to their end.
//!
//! The in-process test drains a server started by the test itself. The process tests run a
//! real server process: this test binary started again in server mode (see
//! [`server_process`]), killed with SIGKILL or SIGTERM at a moment the test does not choose.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use battle_e2e::battle_client::{Applied, ClientError, ViewTracker};
use battle_e2e::battle_protocol::{BattleStatus, ErrorCode, ServerMsg};
use battle_e2e::*;
use serde_json::Value;

/// A fresh data directory for one test.
fn data_dir(name: &str) -> PathBuf {
    fresh_data_dir(&format!("durability-{name}"))
}

/// The battle log `tracker` holds (every viewer of these battles has one).
fn log_of(tracker: &ViewTracker) -> Vec<Value> {
    tracker
        .game()
        .and_then(|g| g["log"].as_array().cloned())
        .unwrap_or_default()
}

/// `before` (what a client had seen) is where `after` (the restored view) starts from.
fn assert_continues(who: &str, before: &ViewTracker, after: &ViewTracker) {
    let (old, new) = (log_of(before), log_of(after));
    assert!(
        new.len() >= old.len() && new[..old.len()] == old[..],
        "{who}: the restored battle lost what the client had seen:\nbefore: {old:?}\nafter:  {new:?}"
    );
}

/// Play `moves` moves of the PvP table's battle: each act waits for its answer (the patch
/// carrying its `req`), then both players' views are settled.
async fn play_moves(table: &mut PvpTable, moves: usize) {
    for _ in 0..moves {
        let (actor, tracker) = if table.seat0.tracker.my_turn() {
            (&mut table.p0, &mut table.seat0.tracker)
        } else {
            (&mut table.p1, &mut table.seat1.tracker)
        };
        let Some(entry) = tracker.legal_actions().first().cloned() else {
            return;
        };
        let req = actor.act(&table.battle_id, fill_first(&entry)).await;
        loop {
            let msg = actor.expect_msg().await;
            let answered = matches!(&msg,
                ServerMsg::Patch { req: got, .. } | ServerMsg::Snapshot { req: got, .. }
                    if *got == Some(req));
            tracker
                .apply(&msg)
                .unwrap_or_else(|e| panic!("{}: cannot apply {msg:?}: {e}", actor.name));
            if answered {
                break;
            }
        }
        settle(&mut table.p0, &mut table.seat0.tracker).await;
        settle(&mut table.p1, &mut table.seat1.tracker).await;
        if table.seat0.tracker.is_over() {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drained_server_restarts_with_its_battles_where_they_were() {
    let dir = data_dir("drain");
    let server = start_server_with(durable(&dir)).await;
    let mut table = pvp_table(&server).await;
    play_moves(&mut table, 4).await;
    let battle = table.battle_id.clone();
    let tokens = (table.seat0.token.clone(), table.seat1.token.clone());
    server.drain().await;
    // Every client gets what it was owed, then is told the server goes away (1001).
    for (client, tracker) in [
        (&mut table.p0, &mut table.seat0.tracker),
        (&mut table.p1, &mut table.seat1.tracker),
        (&mut table.spectator, &mut table.watch),
    ] {
        expect_going_away(client, tracker).await;
    }
    let before = (table.seat0.tracker.clone(), table.seat1.tracker.clone());

    let server = start_server_with(durable(&dir)).await;
    let mut p0 = Client::connect(&server, "p0 again").await;
    let mut p1 = Client::connect(&server, "p1 again").await;
    let mut seat0 = p0.rejoin(&battle, &tokens.0).await;
    let mut seat1 = p1.rejoin(&battle, &tokens.1).await;
    assert_continues("p0", &before.0, &seat0.tracker);
    assert_continues("p1", &before.1, &seat1.tracker);
    assert_eq!(
        public_game(&seat0.tracker),
        public_game(&before.0),
        "a drained server told its clients everything, and nothing moved while it was down"
    );
    let mut watcher = Client::connect(&server, "spectator again").await;
    let mut watch = watcher.spectate(&battle).await;
    let (play, look) = (Drive::player(), Drive::watcher());
    let (r0, r1, rw) = tokio::join!(
        drive(&mut p0, &mut seat0.tracker, &play),
        drive(&mut p1, &mut seat1.tracker, &play),
        drive(&mut watcher, &mut watch, &look),
    );
    assert!(r0.acts + r1.acts > 0 && rw.changes > 0);
    check_finished(&watch, "spectator");
    server.drain().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// `client` is closed with code 1001, after the battle frames still on their way (applied to
/// `tracker`).
async fn expect_going_away(client: &mut Client, tracker: &mut ViewTracker) {
    let who = client.name.clone();
    for _ in 0..MAX_MESSAGES {
        match tokio::time::timeout(TIMEOUT, client.conn.recv_text()).await {
            Err(_) => panic!("{who}: nothing within {TIMEOUT:?} while waiting for the close"),
            Ok(Ok(text)) => {
                let msg = battle_client::decode(text).expect("a server message");
                tracker
                    .apply(&msg)
                    .unwrap_or_else(|e| panic!("{who}: cannot apply {msg:?}: {e}"));
            }
            Ok(Err(ClientError::Closed { code, .. })) => {
                assert_eq!(code, Some(1001), "{who}: closed with {code:?}, not 1001");
                return;
            }
            Ok(Err(other)) => panic!("{who}: expected a close frame, got {other}"),
        }
    }
    panic!("{who}: no close frame");
}

/// Set in a child process: run [`server_process`] on this data directory.
const CHILD_DATA: &str = "BATTLE_DURABILITY_CHILD_DATA";

/// What the child prints once it listens, before the URL.
const LISTENING: &str = "durability server listening on ";

/// Not a test of its own: in a child process started by the process tests (this test binary
/// again, with [`CHILD_DATA`] set), run a server on that data directory until SIGTERM (then
/// drain it, as the server binary does) or SIGKILL.
#[test]
fn server_process() {
    let Ok(dir) = std::env::var(CHILD_DATA) else {
        return;
    };
    // The server's warnings and errors, on the test's stderr.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let server = start_server_with(durable(Path::new(&dir))).await;
        println!("{LISTENING}{}", server.url());
        battle_server::server::stop_signal()
            .await
            .expect("signal handlers install");
        server.drain().await;
    });
}

/// A server process on `dir` and its URL.
struct ServerProcess {
    child: Child,
    url: String,
}

impl Drop for ServerProcess {
    /// A test that fails leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ServerProcess {
    fn start(dir: &Path) -> ServerProcess {
        let mut child = Command::new(std::env::current_exe().expect("the test binary"))
            .args([
                "--exact",
                "server_process",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(CHILD_DATA, dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server process starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                // The harness may have printed the test's name on the same line.
                if let Some((_, url)) = line.split_once(LISTENING) {
                    let _ = tx.send(url.trim().to_owned());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server process listens within 30 s");
        ServerProcess { child, url }
    }

    /// Send `signal` (`KILL` or `TERM`) and wait for the process; whether it exited with 0.
    fn stop(&mut self, signal: &str) -> bool {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} failed");
        self.child.wait().expect("the process ends").success()
    }
}

/// One client of the first server: what it holds and how it ended.
struct Follower {
    client: Client,
    tracker: ViewTracker,
    /// The seat token, for a player.
    token: Option<String>,
    /// The close code the server sent, if it sent a close frame.
    closed_with: Option<u16>,
}

/// Follow a battle until the connection breaks: apply every frame; a player acts (its first
/// legal action, after `think`) whenever its decision is awaited.
async fn follow(mut f: Follower, think: Duration) -> Follower {
    let battle = f.tracker.battle_id().to_owned();
    let mut pending = None;
    loop {
        if f.token.is_some() && pending.is_none() && f.tracker.my_turn() && !f.tracker.is_over() {
            tokio::time::sleep(think).await;
            let Some(entry) = f.tracker.legal_actions().first().cloned() else {
                panic!("{}: awaited with nothing legal", f.client.name);
            };
            let action = fill_first(&entry);
            let req = f.client.req();
            let msg = battle_protocol::ClientMsg::Act {
                battle_id: battle.clone(),
                action,
                req: Some(req),
            };
            if f.client.conn.send(&msg).await.is_err() {
                return f;
            }
            pending = Some(req);
        }
        let text = match f.client.conn.recv_text().await {
            Ok(text) => text,
            Err(ClientError::Closed { code, .. }) => {
                f.closed_with = code;
                return f;
            }
            Err(_) => return f,
        };
        let msg = battle_client::decode(text).expect("a server message");
        match &msg {
            // A draining server refuses what arrives after the signal; the move is made
            // again after the restart.
            ServerMsg::Error {
                code: ErrorCode::ServerBusy,
                req,
                ..
            } if *req == pending => {
                pending = None;
                continue;
            }
            ServerMsg::Error { req, message, .. } => {
                panic!("{}: refused ({req:?}): {message}", f.client.name)
            }
            ServerMsg::Patch { req, .. } | ServerMsg::Snapshot { req, .. }
                if req.is_some() && *req == pending =>
            {
                pending = None;
            }
            _ => {}
        }
        match f.tracker.apply(&msg) {
            Ok(Applied::Patch { .. } | Applied::Snapshot { .. }) => {}
            other => panic!("{}: cannot apply {msg:?}: {other:?}", f.client.name),
        }
    }
}

/// Start `battles` battles on `server`: two of three PvP (two people), the rest against the
/// engine's bot; every fourth with a spectator. Returns every client, seated and settled.
async fn open_battles(url: &str, battles: usize) -> Vec<Follower> {
    let mut followers = Vec::new();
    for b in 0..battles {
        let pvp = b % 3 != 2;
        let name = |who: &str| format!("battle {b} {who}");
        let mut p0 = Client::connect_url(url, &name("p0")).await;
        let options = if pvp { "pvp" } else { "pve" };
        let battle = p0
            .create(Create::synergy(serde_json::json!({ "mode": options })))
            .await;
        let seated = p0.join(&battle, Some(0)).await;
        followers.push(Follower {
            client: p0,
            tracker: seated.tracker,
            token: Some(seated.token),
            closed_with: None,
        });
        if pvp {
            let mut p1 = Client::connect_url(url, &name("p1")).await;
            let seated = p1.join(&battle, Some(1)).await;
            followers.push(Follower {
                client: p1,
                tracker: seated.tracker,
                token: Some(seated.token),
                closed_with: None,
            });
        }
        if b % 4 == 0 {
            let mut watcher = Client::connect_url(url, &name("spectator")).await;
            let tracker = watcher.spectate(&battle).await;
            followers.push(Follower {
                client: watcher,
                tracker,
                token: None,
                closed_with: None,
            });
        }
    }
    followers
}

/// 200 live battles; the server process is stopped with `signal` at a moment chosen from
/// the clock; a new process on the same data directory brings every battle back where its
/// clients last saw it (or further), every player takes its seat back with its token, and
/// every battle plays on to its end.
async fn battles_survive(signal: &str) {
    let dir = data_dir(&format!("process-{signal}"));
    let mut first = ServerProcess::start(&dir);
    let followers = open_battles(&first.url, 200).await;
    let think = Duration::from_millis(4);
    let tasks: Vec<_> = followers
        .into_iter()
        .map(|f| tokio::spawn(follow(f, think)))
        .collect();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let wait = Duration::from_millis(300 + u64::from(nanos % 700));
    eprintln!("stopping the server with SIG{signal} after {wait:?}");
    tokio::time::sleep(wait).await;
    let clean = first.stop(signal);
    let mut before = Vec::new();
    for task in tasks {
        before.push(
            tokio::time::timeout(TIMEOUT, task)
                .await
                .expect("clients notice")
                .expect("no panic"),
        );
    }
    if signal == "TERM" {
        assert!(clean, "a drained server exits with 0");
        for f in &before {
            assert_eq!(
                f.closed_with,
                Some(1001),
                "{}: closed with 1001",
                f.client.name
            );
        }
    }
    let live = before.iter().filter(|f| !f.tracker.is_over()).count();
    eprintln!("{live} of {} clients were mid-battle", before.len());
    assert!(
        live > 0,
        "the stop came after every battle ended: nothing was tested"
    );

    let mut second = ServerProcess::start(&dir);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for f in before {
        let url = second.url.clone();
        tasks.push(async move {
            let name = format!("{} again", f.client.name);
            let battle = f.tracker.battle_id().to_owned();
            let mut client = Client::connect_url(&url, &name).await;
            let mut tracker = match &f.token {
                Some(token) => client.rejoin(&battle, token).await.tracker,
                None => client.spectate(&battle).await,
            };
            assert_continues(&name, &f.tracker, &tracker);
            if tracker.status() != Some(BattleStatus::Finished) {
                let how = if f.token.is_some() {
                    Drive::player()
                } else {
                    Drive::watcher()
                };
                let driven = tokio::time::timeout(
                    Duration::from_secs(8),
                    drive(&mut client, &mut tracker, &how),
                )
                .await;
                assert!(
                    driven.is_ok(),
                    "{name}: the battle stalls; last view: {:?}",
                    tracker.view()
                );
            }
            check_finished(&tracker, &name);
        });
    }
    // Every battle plays on to its end (each future panics otherwise).
    futures::future::join_all(tasks).await;
    eprintln!(
        "every battle ended {:?} after the restart",
        started.elapsed()
    );
    second.stop("TERM");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn battles_survive_kill_9() {
    battles_survive("KILL").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn battles_survive_sigterm_with_clean_close_frames() {
    battles_survive("TERM").await;
}
