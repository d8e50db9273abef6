//! End to end: the `battle-client` binary as a newcomer meets it. No server: one clear
//! sentence with the command that starts one, and exit code 2. A user error: a sentence,
//! never a backtrace. Addresses without a scheme, card ids in any case, a battle between the
//! server's bots to watch, and a PvP table where each player is told when the other arrives,
//! leaves, comes back, and when their own seat is taken over from another connection.

use std::process::{Command, Output};

use battle_e2e::binary::client_binary;
use battle_e2e::terminal::Proc;
use battle_server::{Config, RunningServer};

/// Run the client to its end with `args` (and a backtrace asked for, as a developer's shell
/// may have it), with nothing on stdin.
fn run_client(args: &[&str]) -> Output {
    Command::new(client_binary())
        .args(args)
        .env_remove("BATTLE_SERVER")
        .env("RUST_BACKTRACE", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the client binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn start_server(runtime: &tokio::runtime::Runtime) -> RunningServer {
    runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts")
}

/// `host:port` of the server, without the scheme, as people type it.
fn bare(server: &RunningServer) -> String {
    server
        .url()
        .trim_start_matches("ws://")
        .trim_end_matches('/')
        .to_owned()
}

#[test]
fn no_server_is_one_clear_sentence_with_the_command_to_start_one() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let address = format!("127.0.0.1:{port}");
    for args in [
        vec!["--server", address.as_str(), "list"],
        vec!["--server", address.as_str(), "play", "--plain"],
        vec!["--server", address.as_str(), "watch", "b1", "--plain"],
    ] {
        let out = run_client(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err.trim(),
            format!(
                "error: no battle server answers at ws://{address}. Start one with `cargo run \
                 --release -p battle-server` (add `-- --listen HOST:PORT` for another \
                 address), or point --server at a running one"
            ),
            "{args:?}"
        );
    }
}

#[test]
fn user_errors_are_sentences_never_backtraces() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let address = bare(&server);
    let out = run_client(&["--server", &address, "watch", "nosuchid", "--plain"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: watching battle nosuchid: "),
        "{err}"
    );
    assert!(err.contains("no_such_battle"), "{err}");
    assert!(
        !err.contains("backtrace"),
        "no backtrace for a user error:\n{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    let out = run_client(&["--server", "ftp://x", "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a WebSocket address"),
        "{}",
        stderr(&out)
    );
    runtime.block_on(server.shutdown());
}

#[test]
fn card_ids_are_accepted_in_any_case() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let address = bare(&server);
    let mut player = Proc::spawn(
        "lowercase deck",
        &[
            "--server",
            &address,
            "play",
            "--vs-bot",
            "--deck",
            "c001,c002,c003,C004,c005",
            "--plain",
        ],
    );
    player.until("the first prompt", |l| l.starts_with("your move:"));
    player.send("quit");
    player.wait_success();
    runtime.block_on(server.shutdown());
}

#[test]
fn watch_bots_creates_a_battle_between_bots_and_shows_it_to_the_end() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let address = bare(&server);
    let mut watcher = Proc::spawn(
        "bots",
        &[
            "--server",
            &address,
            "watch",
            "--bots",
            "--pace-ms",
            "0",
            "--plain",
        ],
    );
    let created = watcher.until("the created line", |l| l.starts_with("battle "));
    assert!(
        created.contains("the server's bots play every seat"),
        "{created}"
    );
    watcher.until("the result", |l| l.starts_with("result: "));
    watcher.wait_success();
    let seen = watcher.transcript.join("\n");
    assert!(!seen.contains("your move"), "{seen}");
    assert!(seen.contains("log: "), "{seen}");
    runtime.block_on(server.shutdown());
}

#[test]
fn players_are_told_when_the_opponent_arrives_leaves_and_returns() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let address = bare(&server);
    let mut first = Proc::spawn(
        "seat 0",
        &["--server", &address, "play", "--pvp", "--plain"],
    );
    let join = first.until("the join command", |l| l.starts_with("others join with: "));
    let join: Vec<String> = join
        .trim_start_matches("others join with: battle-client ")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    first.until("the waiting line", |l| {
        l == "waiting: the battle starts when every seat is taken; waiting for Player 2"
    });

    // The printed commands name the server themselves.
    let mut args: Vec<&str> = join.iter().map(String::as_str).collect();
    args.push("--plain");
    let mut second = Proc::spawn("seat 1", &args);
    let rejoin = second.until("the rejoin command", |l| l.contains(" rejoin "));
    let rejoin: Vec<String> = rejoin
        .split_once("battle-client ")
        .map(|(_, command)| command)
        .expect("the rejoin command")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    first.until("the arrival", |l| l == "notice: Player 2 joined");
    first.until("the start", |l| {
        l == "notice: every seat is taken: the battle starts"
    });

    second.send("quit");
    second.wait_success();
    first.until("the departure", |l| {
        l == "notice: Player 2 left (disconnected); their seat waits for them to come back"
    });

    let mut args: Vec<&str> = rejoin.iter().map(String::as_str).collect();
    args.push("--plain");
    let mut back = Proc::spawn("seat 1 again", &args);
    back.until("the view", |l| l.contains("you are Player 2 (seat 1)"));
    first.until("the return", |l| l == "notice: Player 2 is back");

    // The same token from yet another place takes the seat over: the window it came from
    // is told, and stops playing.
    let mut elsewhere = Proc::spawn("seat 1 elsewhere", &args);
    elsewhere.until("the view", |l| l.contains("you are Player 2 (seat 1)"));
    back.until("the takeover", |l| {
        l == "left: your seat was taken over by another connection"
    });
    first.send("quit");
    first.wait_success();
    elsewhere.send("quit");
    elsewhere.wait_success();
    runtime.block_on(server.shutdown());
}
