//! The `battle-server` binary as an operator starts it: `--listen` takes a host name, stdout
//! carries only the listening line, and the logs go to stderr without colour codes when
//! stderr is not a terminal (a file or a pipe).

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn listens_on_a_host_name_and_logs_plainly_to_stderr() {
    let data = std::env::temp_dir().join(format!("battle-binary-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_battle-server"))
        .args(["--listen", "localhost:0", "--data-dir"])
        .arg(&data)
        .env("RUST_LOG", "info")
        .env_remove("BATTLE_LISTEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stdout).read_line(&mut first);
        let _ = tx.send(first);
    });
    let first = rx.recv_timeout(Duration::from_secs(20));
    // Stop it whatever happened, then read what it logged.
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&data);
    let mut logs = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut logs)
        .expect("stderr is text");
    let first = first.expect("the listening line within 20 s");
    assert!(
        first.starts_with("battle-server listening on ws://127.0.0.1:"),
        "localhost resolves to 127.0.0.1: {first:?}"
    );
    assert!(logs.contains("INFO"), "the logs go to stderr: {logs:?}");
    assert!(
        !logs.contains('\u{1b}'),
        "no colour codes outside a terminal: {logs:?}"
    );
}
