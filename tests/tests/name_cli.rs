//! End to end: `battle-client --name`.
//!
//! - Against a real server, a `--plain` player who gives `--name Ana` (after creating its
//!   battle, or queueing for one) is Ana in the battle's `names` list, as a spectator
//!   receives it, and on its own first line. A server that does not send `names` yet names
//!   nobody on the wire: there the tests check only that the player reads "Player 1".
//! - Against a scripted server that records what it receives and drops the connection once,
//!   every connection the client makes for the seat gives the name in `hello` before it
//!   joins or rejoins, and the view's `names` names the seat on screen.
//! - A name the server would change is refused before anything is sent, in one sentence;
//!   `--help` explains the option.
//!
//! Every wait is bounded.

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use battle_e2e::binary::client_binary;
use battle_e2e::terminal::{Proc, LINE_TIMEOUT};
use battle_server::{Config, RunningServer};
use battle_term::{ReconnectPolicy, SpectatorSession};
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

fn start_server(runtime: &tokio::runtime::Runtime) -> RunningServer {
    runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts")
}

/// Seat 0's name as the battle's view gives it to a spectator: `None` when the server sends
/// no `names` (one older than the envelope's `names` list).
fn seat0_name_seen_by_a_spectator(
    runtime: &tokio::runtime::Runtime,
    url: &str,
    battle_id: &str,
) -> Option<String> {
    runtime.block_on(async {
        let watcher = SpectatorSession::watch(url, battle_id, ReconnectPolicy::default())
            .await
            .expect("a spectator gets the battle");
        let view = watcher.feed().tracker().view().expect("a view").clone();
        watcher.quit().await;
        view.get("names").map(|names| {
            names[0]
                .as_str()
                .unwrap_or_else(|| panic!("names holds strings: {names}"))
                .to_owned()
        })
    })
}

/// The battle id in "battle ID (RULESET): you are NAME (seat 0)", and the NAME.
fn who_line(line: &str) -> (String, String) {
    let rest = line.strip_prefix("battle ").expect("a 'battle ...' line");
    let (battle_id, rest) = rest.split_once(' ').expect("an id, then more");
    let name = rest
        .split_once("you are ")
        .and_then(|(_, who)| who.strip_suffix(" (seat 0)"))
        .unwrap_or_else(|| panic!("not 'you are NAME (seat 0)': {line}"));
    (battle_id.to_owned(), name.to_owned())
}

/// Check what a player's first view says it is called against what the server's `names`
/// says: with `names`, both read "Ana"; without, the view falls back to "Player 1".
fn assert_named_ana(seen: Option<String>, on_screen: &str) {
    match seen {
        Some(name) => {
            assert_eq!(name, "Ana", "the server's names list names seat 0 Ana");
            assert_eq!(on_screen, "Ana", "the player's own screen reads the same");
        }
        // A server without `names`: its hello name is not on the wire; the scripted server
        // below checks what the client sends.
        None => assert_eq!(on_screen, "Player 1"),
    }
}

/// Run a `--plain` player with `args` and `--name Ana` against a real server, then check
/// its seat's name (seat 0) in the battle's `names` and on its first line.
fn named_ana_on_a_real_server(args: &[&str]) {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let url = server.url();
    let mut all = vec!["--server", url.as_str(), "--name", "Ana", "--plain"];
    all.splice(2..2, args.iter().copied());
    let mut player = Proc::spawn("player", &all);
    let rejoin = player.until("the rejoin command", |l| l.contains(" rejoin "));
    assert!(
        rejoin.ends_with(" --name Ana"),
        "the rejoin command keeps the name: {rejoin}"
    );
    let (battle_id, on_screen) = who_line(&player.until("the first view", |l| {
        l.starts_with("battle ") && l.contains("you are ")
    }));
    let seen = seat0_name_seen_by_a_spectator(&runtime, &url, &battle_id);
    assert_named_ana(seen, &on_screen);
    player.send("quit");
    player.wait_success();
}

#[test]
fn a_plain_player_named_ana_is_ana_in_the_battles_names() {
    named_ana_on_a_real_server(&["play", "--vs-bot"]);
}

#[test]
fn a_queued_player_named_ana_is_ana_in_the_battle_found() {
    // One seat for people: matched at once.
    named_ana_on_a_real_server(&["play", "--queue", "--sample", "pve"]);
}

/// The scripted server's answers, one JSON text.
fn text(value: Value) -> Message {
    Message::text(value.to_string())
}

/// The name the scripted tests give, which a shell needs quoted.
const NAME: &str = "Zoë Ana";

/// A waiting battle `b1` as seat 0 sees it, seats named as a server with `names` does.
fn waiting_view() -> Value {
    json!({
        "battle_id": "b1", "ruleset": "synergy", "status": "waiting", "seat": 0,
        "seats": ["connected", "free"], "names": [NAME, "Player 2"],
        "to_act": [], "legal": [], "outcome": null, "game": null
    })
}

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Accept one connection and answer it as a server would: `welcome` to `hello`, `joined`
/// and a snapshot to `join` or `rejoin`, `queued`, `matched` and a snapshot to `queue`,
/// `left` to `leave`. Records every message received
/// (as JSON) on `seen`; returns the connection once the entry was answered (or it ended).
async fn serve_one(listener: &TcpListener, seen: &mpsc::Sender<Value>, seq: u64) -> Socket {
    let (tcp, _) = listener.accept().await.expect("the client connects");
    let mut ws = tokio_tungstenite::accept_async(tcp)
        .await
        .expect("a WebSocket handshake");
    answer(&mut ws, seen, seq).await;
    ws
}

/// Answer `ws` as [`serve_one`] says until an entry was answered or the connection ended.
async fn answer(ws: &mut Socket, seen: &mpsc::Sender<Value>, seq: u64) {
    while let Some(Ok(frame)) = ws.next().await {
        let Message::Text(body) = frame else { continue };
        let msg: Value = serde_json::from_str(body.as_str()).expect("the client sends JSON");
        seen.send(msg.clone())
            .expect("the test reads what was seen");
        let req = msg["req"].clone();
        match msg["type"].as_str() {
            Some("hello") => {
                let welcome = json!({"type": "welcome", "server": "scripted", "protocol": 1,
                    "rulesets": [], "req": req});
                ws.send(text(welcome)).await.expect("send welcome");
            }
            Some(entry @ ("join" | "rejoin" | "queue")) => {
                if entry == "queue" {
                    let queued = json!({"type": "queued", "ruleset": "synergy", "waiting": 1,
                        "req": req});
                    ws.send(text(queued)).await.expect("send queued");
                }
                let answer = if entry == "queue" {
                    "matched"
                } else {
                    "joined"
                };
                let joined = json!({"type": answer, "battle_id": "b1", "seat": 0,
                    "token": "tok-1", "req": req});
                ws.send(text(joined)).await.expect("send the seat");
                let snapshot = json!({"type": "snapshot", "battle_id": "b1", "seq": seq,
                    "view": waiting_view()});
                ws.send(text(snapshot)).await.expect("send the snapshot");
                return;
            }
            Some("leave") => {
                let left = json!({"type": "left", "battle_id": "b1", "reason": "requested",
                    "req": req});
                ws.send(text(left)).await.expect("send left");
            }
            _ => {}
        }
    }
}

/// The next message the scripted server received, within the line timeout.
fn next_seen(seen: &mpsc::Receiver<Value>, what: &str) -> Value {
    seen.recv_timeout(LINE_TIMEOUT)
        .unwrap_or_else(|_| panic!("the client sent no {what}"))
}

/// Run the client with `args` and `--name` [`NAME`] against a scripted server that drops
/// its first connection once the seat is taken: both connections must give the name in
/// `hello` before anything else, the first then sending `entry` (`join` or `queue`), the
/// second `rejoin` with the seat's token.
fn named_on_every_connection(args: &[&str], entry: &str) {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let listener = runtime
        .block_on(TcpListener::bind("127.0.0.1:0"))
        .expect("bind the scripted server");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    let (tx, seen) = mpsc::channel();
    let script = runtime.spawn(async move {
        // The first connection takes the seat, then is dropped by the server; the second
        // takes the seat back and stays until the client leaves.
        drop(serve_one(&listener, &tx, 1).await);
        let mut kept = serve_one(&listener, &tx, 2).await;
        answer(&mut kept, &tx, 3).await;
    });
    let mut all = vec!["--server", url.as_str(), "--name", NAME, "--plain"];
    all.splice(2..2, args.iter().copied());
    let mut player = Proc::spawn("player", &all);
    let hello = next_seen(&seen, "hello");
    assert_eq!(
        (&hello["type"], &hello["name"], &hello["protocol"]),
        (&json!("hello"), &json!(NAME), &json!(1)),
        "{hello}"
    );
    let first = next_seen(&seen, entry);
    assert_eq!(first["type"], entry, "{first}");
    assert_ne!(first["req"], hello["req"], "each request its own number");
    let rejoin_line = player.until("the rejoin command", |l| l.contains(" rejoin "));
    assert!(
        rejoin_line.ends_with(" --token tok-1 --name 'Zoë Ana'"),
        "{rejoin_line}"
    );
    let (_, on_screen) = who_line(&player.until("the first view", |l| l.contains("you are ")));
    assert_eq!(on_screen, NAME, "the view's names list names the seat");

    // The server dropped the first connection: the client comes back, named again.
    let hello = next_seen(&seen, "hello on the reconnection");
    assert_eq!(
        (&hello["type"], &hello["name"]),
        (&json!("hello"), &json!(NAME)),
        "{hello}"
    );
    let rejoin = next_seen(&seen, "rejoin");
    assert_eq!(
        (&rejoin["type"], &rejoin["token"]),
        (&json!("rejoin"), &json!("tok-1")),
        "{rejoin}"
    );
    player.until("the reconnection", |l| l == "connection: connected");
    player.send("quit");
    player.wait_success();
    let leave = next_seen(&seen, "leave");
    assert_eq!(leave["type"], "leave", "{leave}");
    script.abort();
}

#[test]
fn a_joining_player_gives_its_name_on_every_connection() {
    named_on_every_connection(&["join", "b1"], "join");
}

#[test]
fn a_queued_player_gives_its_name_on_every_connection() {
    named_on_every_connection(&["play", "--queue"], "queue");
}

/// Run the client to its end with `args` (and `env`), stdin closed; its exit code and
/// stderr.
fn run_to_end(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = Command::new(client_binary());
    command
        .args(args)
        .env_remove("BATTLE_SERVER")
        .env_remove("BATTLE_NAME")
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client binary starts");
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output = finished
        .recv_timeout(Duration::from_secs(30))
        .expect("the client exits by itself")
        .expect("the client's output");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_name_the_server_would_change_is_refused_before_connecting() {
    // Nothing listens here: a refusal that came after connecting would say so instead.
    let nowhere = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        format!("ws://{}", listener.local_addr().expect("an address"))
    };
    /// The arguments, the environment, and the sentence the client answers with.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case<'_>; 4] = [
        (
            &["join", "b1", "--name", " Ana"],
            &[],
            "the name starts or ends with a space, which the server would cut off",
        ),
        (
            &["play", "--name", "Ana the Unbelievably Bold"],
            &[],
            "the name has 25 characters, and the server keeps at most 24",
        ),
        (
            &["rejoin", "b1", "--token", "t", "--name", ""],
            &[],
            "the name is empty: give at least one letter, digit or sign",
        ),
        (
            &["play", "--queue"],
            &[("BATTLE_NAME", "Ana\tB")],
            "the name holds a control character",
        ),
    ];
    for (args, env, sentence) in cases {
        let mut all = vec!["--server", nowhere.as_str()];
        all.extend_from_slice(args);
        let (code, stderr) = run_to_end(&all, env);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("error: ") && first.contains(sentence),
            "{args:?}: the sentence is on the error line: {stderr}"
        );
        assert!(!stderr.contains("no battle server"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_help_of_each_seat_command_explains_the_name() {
    for command in ["play", "join", "rejoin"] {
        let output = Command::new(client_binary())
            .args([command, "--help"])
            .env_remove("BATTLE_NAME")
            .output()
            .expect("the client binary runs");
        assert!(output.status.success(), "{command} --help");
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(help.contains("--name <NAME>"), "{command}: {help}");
        assert!(help.contains("BATTLE_NAME"), "{command}: {help}");
        assert!(help.contains("1 to 24 characters"), "{command}: {help}");
    }
}
