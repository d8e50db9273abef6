//! End to end: the built `battle-client` binary in `--plain` mode plays a whole synergy
//! battle against the bot on an in-process test server, driven by this script through its
//! stdin and stdout, while a second `battle-client watch --plain` follows the same battle to
//! its result. Every wait is bounded; a stuck process is killed and its transcript shown.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use battle_server::Config;

/// Longest wait for any single line.
const LINE_TIMEOUT: Duration = Duration::from_secs(15);
/// Longest a whole battle may take.
const BATTLE_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `battle-client` with its output lines arriving on a channel.
struct Proc {
    name: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    transcript: Vec<String>,
}

impl Proc {
    fn spawn(name: &'static str, args: &[&str]) -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_battle-client"))
            .args(args)
            .env_remove("BATTLE_SERVER")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the client binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            name,
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// The next output line, or `None` when the output ended.
    fn line(&mut self) -> Option<String> {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.fail(&format!("no output line within {LINE_TIMEOUT:?}"))
            }
        }
    }

    /// Read lines until one satisfies `want`; returns it.
    fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        loop {
            match self.line() {
                Some(line) if want(&line) => return line,
                Some(_) => {}
                None => self.fail(&format!("output ended before {what}")),
            }
        }
    }

    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is piped");
        writeln!(stdin, "{command}").expect("the client reads stdin");
        stdin.flush().expect("the client reads stdin");
    }

    /// Wait for the process to exit successfully.
    fn wait_success(&mut self) {
        let deadline = Instant::now() + LINE_TIMEOUT;
        loop {
            match self.child.try_wait().expect("try_wait") {
                Some(status) if status.success() => return,
                Some(status) => self.fail(&format!("exited with {status}")),
                None if Instant::now() > deadline => self.fail("did not exit"),
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    fn fail(&mut self, why: &str) -> ! {
        let _ = self.child.kill();
        panic!(
            "{}: {why}; transcript:\n{}",
            self.name,
            self.transcript.join("\n")
        );
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        // Never leave a client behind, whatever happened.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
    let result = loop {
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
    assert!(result.contains("final score"), "{result}");
    player.wait_success();
    let transcript = player.transcript.join("\n");
    assert!(
        transcript.contains("hp: Training Automaton 70 -> "),
        "{transcript}"
    );
    assert!(transcript.contains("turn: round 2"), "{transcript}");

    let watched = watcher.until("the watcher's result", |l| l.starts_with("result:"));
    assert_eq!(watched, result, "both see the same result");
    watcher.wait_success();
    let seen = watcher.transcript.join("\n");
    assert!(
        !seen.contains("your move:"),
        "a spectator is never prompted:\n{seen}"
    );
    assert!(seen.contains("log: "), "{seen}");

    runtime.block_on(server.shutdown());
}
