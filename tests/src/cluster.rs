//! Clusters for the tests: a real `redis-server` on a free loopback port in a temporary
//! directory (with the repository's `deploy/redis.conf`), and `battle-server` nodes as
//! processes of their own (so that a test can kill one with SIGKILL, or pause it with
//! SIGSTOP). Everything started is stopped when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub use crate::binary::server_binary;

/// The lease the tests' nodes use: short, so that failovers happen within a test's time.
pub const TEST_LEASE_MS: u64 = 1_000;

/// Kill `child` with SIGKILL, if it runs, and wait for it.
fn reap(child: &mut Option<Child>) {
    if let Some(mut child) = child.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// A free loopback port (the kernel's choice, let go at once).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("its address").port()
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the repository")
        .to_path_buf()
}

/// A `redis-server` of the test's own.
pub struct Redis {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
}

impl Redis {
    /// Start one on a free port in a fresh temporary directory.
    pub fn start(name: &str) -> Redis {
        let dir = std::env::temp_dir().join(format!(
            "battle-redis-{name}-{}-{}",
            std::process::id(),
            free_port()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let mut redis = Redis {
            child: None,
            port: free_port(),
            dir,
        };
        redis.launch();
        redis
    }

    fn launch(&mut self) {
        let child = Command::new("redis-server")
            .arg(root().join("deploy/redis.conf"))
            .args(["--port", &self.port.to_string()])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| {
                panic!(
                    "cannot start redis-server ({err}): the cluster tests need Redis; install \
                     it with `apt-get install redis-server` (Debian's package)"
                )
            });
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.answers() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer on port {} within 10 s",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether it answers PING.
    fn answers(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
        if stream.write_all(b"PING\r\n").is_err() {
            return false;
        }
        let mut answer = [0u8; 7];
        stream.read_exact(&mut answer).is_ok() && &answer == b"+PONG\r\n"
    }

    /// Its URL, for `--cluster-url`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kill it (SIGKILL): what it had written to its append-only file stays.
    pub fn kill(&mut self) {
        reap(&mut self.child);
    }

    /// Start it again on the same port and directory (it reads its append-only file back).
    pub fn restart(&mut self) {
        self.kill();
        self.launch();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `binary` with `args`, its log level from `BATTLE_NODE_LOG` (default `warn`), nothing on
/// stdin and its stdout (the listening line) piped.
pub fn server_command(binary: &Path, args: &[impl AsRef<std::ffi::OsStr>]) -> Command {
    let mut command = Command::new(binary);
    command
        .args(args)
        .env(
            "RUST_LOG",
            std::env::var("BATTLE_NODE_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped());
    command
}

/// One node: a `battle-server` process in cluster mode.
pub struct Node {
    child: Option<Child>,
    /// Its node id.
    pub id: String,
    /// Its WebSocket URL.
    pub url: String,
    /// Its address, for HTTP.
    pub addr: std::net::SocketAddr,
    args: Vec<String>,
    /// The `battle-server` it runs.
    binary: PathBuf,
}

impl Node {
    /// Start node `id` on `redis` with the test lease, no pacing, the rates of clients at
    /// machine speed and no data directory; `extra` flags after those.
    pub fn start(redis: &Redis, id: &str, extra: &[&str]) -> Node {
        Node::start_on(&redis.url(), id, TEST_LEASE_MS, extra)
    }

    /// Start node `id` on the Redis at `cluster_url` with a lease of `lease_ms`, no pacing
    /// and no data directory; `extra` flags after those.
    pub fn start_on(cluster_url: &str, id: &str, lease_ms: u64, extra: &[&str]) -> Node {
        Node::start_binary(server_binary(), cluster_url, id, lease_ms, extra)
    }

    /// [`Node::start_on`] with the `battle-server` at `binary` (a build of its own).
    pub fn start_binary(
        binary: PathBuf,
        cluster_url: &str,
        id: &str,
        lease_ms: u64,
        extra: &[&str],
    ) -> Node {
        let mut args: Vec<String> = [
            "--cluster-url",
            cluster_url,
            "--node-id",
            id,
            "--lease-ms",
            &lease_ms.to_string(),
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            "none",
            "--pace-ms",
            "0",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Tests and measures play at machine speed; the defaults are sized for people.
        args.extend(crate::process::machine_rates_for(&binary));
        args.extend(extra.iter().map(|s| s.to_string()));
        let mut node = Node {
            child: None,
            id: id.to_string(),
            url: String::new(),
            addr: "127.0.0.1:0".parse().expect("an address"),
            args,
            binary,
        };
        node.launch();
        node
    }

    fn launch(&mut self) {
        let mut child = server_command(&self.binary, &self.args)
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the battle-server binary runs");
        let stdout = child.stdout.take().expect("piped");
        let mut lines = BufReader::new(stdout).lines();
        let line = lines
            .next()
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("node {} said nothing and stopped", self.id));
        let url = line
            .strip_prefix("battle-server listening on ")
            .unwrap_or_else(|| panic!("node {}: unexpected first line {line:?}", self.id))
            .trim()
            .to_string();
        // Keep reading (and dropping) its stdout so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        self.addr = url
            .trim_start_matches("ws://")
            .parse()
            .expect("a socket address");
        self.url = url;
        self.child = Some(child);
    }

    /// The process id.
    pub fn pid(&self) -> i32 {
        self.child.as_ref().map_or(0, |c| c.id() as i32)
    }

    /// Send a signal.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} {}", self.pid());
    }

    /// Kill it with SIGKILL and wait for it.
    pub fn kill(&mut self) {
        reap(&mut self.child);
    }

    /// Start it again with the same flags (a new process, same node id).
    pub fn restart(&mut self) {
        self.kill();
        self.launch();
    }

    /// Send SIGTERM and wait (at most `limit`) for it to end; its exit status.
    pub fn terminate(&mut self, limit: Duration) -> ExitStatus {
        self.signal("TERM");
        self.wait(limit)
    }

    /// Wait (at most `limit`) for it to end by itself; its exit status.
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let mut child = self.child.take().expect("a running node");
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = child.try_wait().expect("wait works") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "node {} did not end in time",
                self.id
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(child) = &self.child {
            // A node a test paused (SIGSTOP) is let run first, for a clean end.
            let _ = Command::new("kill")
                .args(["-CONT", &child.id().to_string()])
                .status();
        }
        self.kill();
    }
}
