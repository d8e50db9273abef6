//! End to end: the built `battle-client` binary in `--plain` mode plays a whole synergy
//! battle against the bot on an in-process test server, driven by this script through its
//! stdin and stdout, while a second `battle-client watch --plain` follows the same battle to
//! its result. Every wait is bounded; a stuck process is killed and its transcript shown.

use std::time::Instant;

use battle_e2e::terminal::{Proc, BATTLE_TIMEOUT};
use battle_server::Config;

/// What the Training Automaton's seat is called: the name the server gives it, or the name
/// of its seat ("Player 2") when the server gives none.
const AUTOMATON: [&str; 2] = ["Training Automaton", "Player 2"];

#[test]
fn plain_client_plays_a_whole_battle_against_the_bot_and_a_watcher_follows() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts");
    let url = server.url();

    let mut player = Proc::spawn(
        "player",
        &[
            "--server",
            &url,
            "play",
            "--vs-bot",
            "--pace-ms",
            "0",
            "--plain",
        ],
    );
    let created = player.until("the battle id", |l| l.ends_with(" created"));
    let battle_id = created
        .strip_prefix("battle ")
        .and_then(|rest| rest.strip_suffix(" created"))
        .expect("'battle <id> created'")
        .to_owned();
    let watch_line = player.until("the watch command", |l| l.starts_with("others watch with:"));
    assert!(
        watch_line.ends_with(&format!("watch {battle_id}")),
        "{watch_line}"
    );
    let rejoin = player.until("the rejoin command", |l| l.contains(" rejoin "));
    assert!(
        rejoin.contains(&format!("rejoin {battle_id} --token ")),
        "{rejoin}"
    );

    // The watcher attaches before the first move, so it sees the battle unfold.
    let mut watcher = Proc::spawn(
        "watcher",
        &["--server", &url, "watch", &battle_id, "--plain"],
    );
    watcher.until("the watcher's first view", |l| {
        l.contains(&battle_id) && l.ends_with("watching as a spectator")
    });

    // Illegal choices are refused locally, in words.
    player.until("the first prompt", |l| l.starts_with("your move:"));
    player.send("play 99");
    player.until("a local refusal", |l| {
        l.starts_with("refused: there is no card 99")
    });
    player.send("help");
    player.until("the help", |l| l.starts_with("help: "));

    // Play the battle: at each prompt, the first thing it offers.
    let started = Instant::now();
    let mut moves = 0;
    let headline = loop {
        if started.elapsed() > BATTLE_TIMEOUT {
            player.fail("the battle did not end in time");
        }
        let Some(line) = player.line() else {
            player.fail("output ended before the result");
        };
        if line.starts_with("result:") {
            break line;
        }
        if line.starts_with("error:") {
            player.fail("the server refused a move the client offered");
        }
        if let Some(options) = line.strip_prefix("your move:") {
            let (_, offered) = options.split_once("you may: ").expect("a list of options");
            let first = offered.split(", ").next().expect("at least one option");
            player.send(first);
            moves += 1;
        }
    };
    assert!(moves >= 3, "a battle takes several moves, made {moves}");
    assert!(
        headline.starts_with("result: You won")
            || headline.starts_with("result: A draw")
            || AUTOMATON
                .iter()
                .any(|name| headline.starts_with("result: You lost") && headline.contains(name)),
        "the player is told the result in their own terms: {headline}"
    );
    let scores = player.until("the player's score lines", |l| {
        l.starts_with("result: Player 1:")
    });
    player.wait_success();
    let transcript = player.transcript.join("\n");
    assert!(
        AUTOMATON
            .iter()
            .any(|name| transcript.contains(&format!("hp: {name} 70 -> "))),
        "{transcript}"
    );
    assert!(transcript.contains("turn: round 2"), "{transcript}");

    watcher.until("the watcher's result", |l| l.starts_with("result:"));
    let watched = watcher.until("the watcher's score lines", |l| {
        l.starts_with("result: Player 1:")
    });
    assert_eq!(watched, scores, "both see the same scores");
    watcher.wait_success();
    let seen = watcher.transcript.join("\n");
    assert!(
        !seen.contains("your move:"),
        "a spectator is never prompted:\n{seen}"
    );
    assert!(seen.contains("log: "), "{seen}");

    runtime.block_on(server.shutdown());
}

#[test]
fn resign_in_plain_mode_ends_the_battle_with_the_other_side_winning() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts");
    let url = server.url();
    let mut player = Proc::spawn(
        "player",
        &[
            "--server",
            &url,
            "play",
            "--vs-bot",
            "--pace-ms",
            "0",
            "--plain",
        ],
    );
    player.until("the first prompt", |l| l.starts_with("your move:"));
    player.send("resign");
    player.until("the resignation", |l| l.starts_with("resigned:"));
    let headline = player.until("the result", |l| l.starts_with("result:"));
    assert!(
        headline == "result: You lost: you resigned."
            || AUTOMATON
                .iter()
                .any(|name| headline == format!("result: You lost: {name} won.")),
        "{headline}"
    );
    player.wait_success();
    runtime.block_on(server.shutdown());
}
