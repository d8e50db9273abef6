//! End to end: the `battle-client` binary's replay commands as people meet them. `list
//! --finished` keeps the open battles' table and adds the finished ones (or a sentence when
//! there are none); `replay` and `export` of a battle the server does not keep say so in one
//! sentence, exit with code 2 and write no file.

use std::process::{Command, Output};

use battle_e2e::binary::client_binary;
use battle_server::{Config, RunningServer};

fn run_client(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(client_binary())
        .args(args)
        .current_dir(dir)
        .env_remove("BATTLE_SERVER")
        .env_remove("BATTLE_PLAIN")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the client binary runs")
}

fn start_server(runtime: &tokio::runtime::Runtime) -> RunningServer {
    runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts")
}

/// A fresh, empty directory to run the client in.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("replay-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn list_finished_adds_the_finished_battles_to_the_open_ones() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let url = server.url();
    let dir = scratch("list");
    let out = run_client(&["--server", &url, "list", "--finished"], &dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.starts_with("No open battles."), "{text}");
    assert!(
        text.contains("No finished battles are kept by this server right now."),
        "a fresh server has none:\n{text}"
    );
    let plain = run_client(&["--server", &url, "list"], &dir);
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        "No open battles. Start one with: battle-client play --vs-bot\n",
        "plain list is unchanged"
    );
    let _ = std::fs::remove_dir_all(&dir);
    runtime.block_on(server.shutdown());
}

#[test]
fn a_battle_the_server_does_not_keep_is_one_sentence() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = start_server(&runtime);
    let url = server.url();
    let dir = scratch("refused");
    for args in [
        vec!["--server", url.as_str(), "replay", "nosuchid"],
        vec!["--server", url.as_str(), "replay", "nosuchid", "--plain"],
        vec!["--server", url.as_str(), "export", "nosuchid"],
    ] {
        let out = run_client(&args, &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err.trim(),
            "error: no finished battle nosuchid is kept by this server: it may have expired, \
             or never existed",
            "{args:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(
        std::fs::read_dir(&dir)
            .expect("the scratch directory")
            .next()
            .is_none(),
        "no file written for a refused export"
    );
    let _ = std::fs::remove_dir_all(&dir);
    runtime.block_on(server.shutdown());
}
