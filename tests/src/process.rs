//! `battle-server` as a process of its own, for the tests of what only a real process
//! shows: the exit status and the sentence of a server that cannot start, the data
//! directory's lock (held by one process, released by the kernel when it is killed), and
//! the operator's subcommands. The binary is this build's ([`crate::cluster::server_binary`]).

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::cluster::{server_binary, server_command};
use crate::follower::Follower;
use crate::{Client, Create};

/// The rates of clients that play at machine speed, with nothing to meet (the defaults are
/// sized for people).
pub const MACHINE_RATES: &[&str] = &[
    "--rate-per-sec",
    "0",
    "--ip-rate-per-sec",
    "0",
    "--create-rate-per-sec",
    "0",
    "--ip-create-rate-per-sec",
    "0",
];

/// The flags for a server that tests drive at machine speed: no pacing, and
/// [`MACHINE_RATES`].
pub fn machine_speed() -> Vec<&'static str> {
    let mut flags = vec!["--pace-ms", "0"];
    flags.extend_from_slice(MACHINE_RATES);
    flags
}

/// [`MACHINE_RATES`]' flags that the `battle-server` at `binary` knows (a build from before
/// a flag, given with `--server-binary`, is not handed it), asked once per binary.
pub fn machine_rates_for(binary: &Path) -> Vec<String> {
    static KNOWN: Mutex<Vec<(std::path::PathBuf, Vec<String>)>> = Mutex::new(Vec::new());
    let mut known = KNOWN.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, flags)) = known.iter().find(|(b, _)| b == binary) {
        return flags.clone();
    }
    let help = Command::new(binary)
        .arg("--help")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default();
    let flags: Vec<String> = MACHINE_RATES
        .chunks(2)
        .filter(|pair| help.contains(pair[0]))
        .flatten()
        .map(|s| s.to_string())
        .collect();
    known.push((binary.to_path_buf(), flags.clone()));
    flags
}

/// A running `battle-server` process; killed (SIGKILL) when dropped.
pub struct ServerProcess {
    child: Option<Child>,
    /// Its WebSocket URL.
    pub url: String,
    /// Its address, for HTTP.
    pub addr: SocketAddr,
    /// What it wrote on stderr so far.
    stderr: Arc<Mutex<String>>,
}

/// A `battle-server` that did not start: how it ended and what it said.
#[derive(Debug)]
pub struct Refused {
    pub status: ExitStatus,
    pub stderr: String,
}

impl ServerProcess {
    /// Start `battle-server --listen 127.0.0.1:0 --data-dir DIR` with `extra` flags; panics
    /// (with what it said) if it does not start listening within 30 s.
    pub fn start(dir: &Path, extra: &[&str]) -> ServerProcess {
        ServerProcess::try_start(dir, extra).unwrap_or_else(|refused| {
            panic!(
                "the server did not start ({}): {}",
                refused.status, refused.stderr
            )
        })
    }

    /// [`ServerProcess::start`], or how it ended when it did not start.
    pub fn try_start(dir: &Path, extra: &[&str]) -> Result<ServerProcess, Refused> {
        let mut args = vec!["--listen", "127.0.0.1:0", "--data-dir"];
        let dir = dir.display().to_string();
        args.push(&dir);
        args.extend_from_slice(extra);
        ServerProcess::try_with(&args)
    }

    /// `battle-server ARGS` (nothing added), or how it ended when it did not start.
    pub fn try_with(args: &[&str]) -> Result<ServerProcess, Refused> {
        let mut child = server_command(&server_binary(), args)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the battle-server binary runs");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("piped");
        let kept = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                // Seen live too, as a test's own output.
                eprint!("{text}");
                kept.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push_str(&text);
            }
        });
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            // Keep reading so that it never blocks on a full pipe.
            for _ in lines {}
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        let line = loop {
            if let Ok(line) = rx.recv_timeout(Duration::from_millis(20)) {
                break line;
            }
            if let Some(status) = child.try_wait().expect("wait works") {
                // Let the stderr reader catch up with the last words.
                std::thread::sleep(Duration::from_millis(100));
                let stderr = stderr.lock().unwrap_or_else(|p| p.into_inner()).clone();
                return Err(Refused { status, stderr });
            }
            assert!(
                Instant::now() < deadline,
                "the server neither listened nor stopped within 30 s"
            );
        };
        let url = line
            .strip_prefix("battle-server listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim()
            .to_string();
        let addr = url
            .trim_start_matches("ws://")
            .parse()
            .expect("a socket address");
        Ok(ServerProcess {
            child: Some(child),
            url,
            addr,
            stderr,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// What it wrote on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Kill it with SIGKILL and wait for it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM (it drains), and wait at most `limit`; its exit status.
    pub fn terminate(&mut self, limit: Duration) -> ExitStatus {
        let mut child = self.child.take().expect("a running server");
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -TERM");
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = child.try_wait().expect("wait works") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not drain in time"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What `battle-server ARGS` printed and how it ended (a subcommand such as `quarantine`).
pub fn run_command(args: &[&str]) -> (ExitStatus, String, String) {
    let output = Command::new(server_binary())
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("the battle-server binary runs");
    (
        output.status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A PvP synergy battle on the server at `url`, both seats taken by players named after
/// `name`: the two players (following the battle, acting for their seats) and their tokens.
pub async fn pvp_battle(url: &str, name: &str) -> (Follower, Follower, [String; 2]) {
    let mut p0 = Client::connect_url(url, &format!("{name} p0")).await;
    let battle = p0.create(Create::synergy(json!({"mode": "pvp"}))).await;
    let seat0 = p0.join(&battle, Some(0)).await;
    let mut p1 = Client::connect_url(url, &format!("{name} p1")).await;
    let seat1 = p1.join(&battle, Some(1)).await;
    let tokens = [seat0.token, seat1.token];
    (
        Follower::new(p0, seat0.tracker, true),
        Follower::new(p1, seat1.tracker, true),
        tokens,
    )
}

/// Take seat `token` of `battle` back on the server at `url` under `name`, following it.
pub async fn rejoin(url: &str, name: &str, battle: &str, token: &str) -> Follower {
    let mut client = Client::connect_url(url, name).await;
    let seated = client.rejoin(battle, token).await;
    Follower::new(client, seated.tracker, true)
}
