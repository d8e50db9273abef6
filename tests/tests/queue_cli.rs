//! End to end: `battle-client play --queue --plain` against a real server. Two players who
//! queue for the same sample meet (the first told it waits alone, the second that two wait),
//! each is told its battle and seat and how to come back, and they play as after `join`; one
//! who asks for bots after a wait plays them; one who quits while queued leaves the queue.

use battle_e2e::terminal::Proc;
use battle_server::{Config, RunningServer};

fn start_server(runtime: &tokio::runtime::Runtime) -> RunningServer {
    runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts")
}

/// "matched: battle ID, seat N": the battle and the seat.
fn matched(line: &str) -> (String, String) {
    let rest = line
        .strip_prefix("matched: battle ")
        .unwrap_or_else(|| panic!("not a matched line: {line}"));
    let (battle, seat) = rest
        .split_once(", seat ")
        .unwrap_or_else(|| panic!("no seat in: {line}"));
    (battle.to_owned(), seat.to_owned())
}

#[test]
fn two_queued_players_meet_and_play() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let url = server.url();
    let args = [
        "--server", &url, "play", "--queue", "--sample", "pvp", "--plain",
    ];
    let mut first = Proc::spawn("first", &args);
    first.until("the waiting line", |l| {
        l == "queued for synergy: waiting for an opponent (1 waiting)"
    });
    let mut second = Proc::spawn("second", &args);
    second.until("the waiting line", |l| {
        l == "queued for synergy: waiting for an opponent (2 waiting)"
    });
    let (battle0, seat0) = matched(&first.until("the match", |l| l.starts_with("matched: ")));
    let (battle1, seat1) = matched(&second.until("the match", |l| l.starts_with("matched: ")));
    assert_eq!(battle0, battle1, "one battle for both");
    assert_eq!(
        (seat0.as_str(), seat1.as_str()),
        ("0", "1"),
        "seats in arrival order"
    );
    let rejoin = first.until("the rejoin command", |l| l.starts_with("you hold seat 0"));
    assert!(rejoin.contains(" rejoin "), "{rejoin}");
    // Seat 0 plays first: its move goes to the battle the queue found.
    first.until("the first prompt", |l| l.starts_with("your move:"));
    first.send("end");
    second.until("its turn", |l| l.starts_with("your move:"));
    second.send("quit");
    second.wait_success();
    first.send("quit");
    first.wait_success();
    runtime.block_on(server.shutdown());
}

#[test]
fn bots_after_the_wait_and_quitting_while_queued() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let url = server.url();
    let mut player = Proc::spawn(
        "bots after a second",
        &[
            "--server",
            &url,
            "play",
            "--queue",
            "--sample",
            "pvp",
            "--bot-after",
            "1",
            "--plain",
        ],
    );
    player.until("the bots line", |l| {
        l == "without a match within 1 s, you play the server's bots"
    });
    let (_, seat) = matched(&player.until("the match", |l| l.starts_with("matched: ")));
    assert_eq!(seat, "0");
    player.until("the first prompt", |l| l.starts_with("your move:"));
    player.send("quit");
    player.wait_success();

    let mut leaver = Proc::spawn(
        "leaver",
        &[
            "--server", &url, "play", "--queue", "--sample", "pvp", "--plain",
        ],
    );
    leaver.until("the waiting line", |l| l.starts_with("queued for synergy"));
    leaver.send("quit");
    leaver.until("the goodbye", |l| l == "left the queue");
    leaver.wait_success();
    // Nobody waits: the next player is alone.
    let mut next = Proc::spawn(
        "next",
        &[
            "--server", &url, "play", "--queue", "--sample", "pvp", "--plain",
        ],
    );
    next.until("the waiting line", |l| {
        l == "queued for synergy: waiting for an opponent (1 waiting)"
    });
    next.send("quit");
    next.wait_success();
    runtime.block_on(server.shutdown());
}
