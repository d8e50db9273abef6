//! The workspace's binaries of this build's profile (`battle-server`, and the terminal
//! client `battle-client`), each built once per test process: they are not targets of the
//! tests' crate, so cargo does not build them for its tests.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The `battle-server` binary.
pub fn server_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| build("battle-server", "battle-server"))
        .clone()
}

/// The `battle-client` binary (the terminal client, package `battle-term`).
pub fn client_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| build("battle-term", "battle-client"))
        .clone()
}

/// Build `bin` of `package` in the profile of the running test binary and return its path.
fn build(package: &str, bin: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>")
        .to_path_buf();
    let release = profile_dir.file_name().is_some_and(|n| n == "release");
    let mut build = Command::new(env!("CARGO"));
    build.args(["build", "-p", package, "--bin", bin]);
    if release {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(
        status.success(),
        "cargo build -p {package} --bin {bin} failed"
    );
    profile_dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX))
}
