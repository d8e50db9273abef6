//! End to end: `battle-client play` with a setup the server refuses leaves no battle behind.
//! The client creates the battle on one connection and takes its seat on another; when the
//! seat is refused for its setup, the server removes the battle at once (nobody else is in
//! it), so the lobby never lists a battle waiting for a player who has gone.

use std::process::Command;

use battle_e2e::binary::client_binary;
use battle_server::Config;

#[test]
fn a_refused_setup_leaves_no_waiting_battle_in_the_lobby() {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let server = runtime
        .block_on(battle_server::start(Config::for_tests()))
        .expect("the test server starts");
    let address = server.url();
    let out = Command::new(client_binary())
        .args([
            "--server",
            &address,
            "play",
            "--deck",
            "C001,NOPE",
            "--plain",
        ])
        .env_remove("BATTLE_SERVER")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the client binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the setup is refused: {err}");
    assert!(err.contains("setup for seat 0 refused"), "{err}");
    assert!(err.contains("removed"), "the player is told: {err}");
    assert_eq!(
        server.lobby().len(),
        0,
        "no battle is left waiting for a player who has gone"
    );
    let page = server.lobby().list(None, None).expect("a page");
    assert_eq!(page.total, 0);
    runtime.block_on(server.shutdown());
}
