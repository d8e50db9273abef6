//! End to end against a cluster: two `battle-server` nodes (processes, on a real
//! `redis-server`) and the built `battle-client` binary in `--plain` mode, given both nodes'
//! addresses. It creates its battle against the bot through the first node, which owns it
//! and holds the connection; that node is killed with SIGKILL mid-battle. The client moves
//! on to the other node, takes its seat back with its token once that node has taken the
//! battle over, and plays it to the end. Needs `redis-server` (Debian's package).

use std::time::Instant;

use battle_e2e::cluster::{Node, Redis};
use battle_e2e::terminal::{Proc, BATTLE_TIMEOUT};

#[test]
fn a_player_whose_node_dies_rejoins_through_the_other_node_and_plays_to_the_end() {
    let redis = Redis::start("client-failover");
    let mut n1 = Node::start(&redis, "n1", &[]);
    let n2 = Node::start(&redis, "n2", &[]);
    let servers = format!("{},{}", n1.url, n2.url);
    let mut player = Proc::spawn(
        "player",
        &[
            "--server",
            &servers,
            "play",
            "--vs-bot",
            "--pace-ms",
            "0",
            "--plain",
        ],
    );
    let rejoin = player.until("the rejoin command", |l| l.contains(" rejoin "));
    assert!(
        rejoin.contains(&format!("--server {servers} rejoin ")),
        "the command to come back names both nodes: {rejoin}"
    );

    let started = Instant::now();
    let mut moves = 0;
    let mut killed = false;
    let mut back = false;
    loop {
        if started.elapsed() > BATTLE_TIMEOUT {
            player.fail("the battle did not end in time");
        }
        let Some(line) = player.line() else {
            player.fail("output ended before the result");
        };
        if line.starts_with("result:") {
            break;
        }
        if line.starts_with("connection: connected") {
            assert!(killed, "reconnected without a reason: {line}");
            back = true;
        }
        if line.starts_with("connection: disconnected") {
            player.fail("the client gave up reconnecting");
        }
        let Some(options) = line.strip_prefix("your move:") else {
            continue;
        };
        if moves == 2 && !killed {
            // Mid-battle, while the battle waits for us: the node that owns it and holds
            // our connection dies. The prompt comes again once we are back.
            n1.kill();
            killed = true;
            continue;
        }
        let (_, offered) = options.split_once("you may: ").expect("a list of options");
        let first = offered.split(", ").next().expect("at least one option");
        player.send(first);
        moves += 1;
    }
    assert!(
        killed && back,
        "the node was killed and the client came back"
    );
    assert!(moves >= 3, "moves were made after the failover: {moves}");
    let transcript = player.transcript.join("\n");
    assert!(
        transcript.contains("connection: connection lost; reconnecting (try 1 of"),
        "{transcript}"
    );
    player.wait_success();
}
