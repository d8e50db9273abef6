//! The terminal client, the `battle-client` binary, as a process for the tests of its
//! command lines: a spawned client whose output lines are read with a bound on every wait,
//! and killed whatever happens.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::binary::client_binary;

/// Longest wait for any single line.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(15);
/// Longest a whole battle may take.
pub const BATTLE_TIMEOUT: Duration = Duration::from_secs(60);

/// A running `battle-client` with its output lines arriving on a channel.
pub struct Proc {
    name: &'static str,
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    pub transcript: Vec<String>,
}

impl Proc {
    pub fn spawn(name: &'static str, args: &[&str]) -> Proc {
        let mut child = Command::new(client_binary())
            .args(args)
            .env_remove("BATTLE_SERVER")
            .env_remove("BATTLE_NAME")
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
    pub fn line(&mut self) -> Option<String> {
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
    pub fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        loop {
            match self.line() {
                Some(line) if want(&line) => return line,
                Some(_) => {}
                None => self.fail(&format!("output ended before {what}")),
            }
        }
    }

    pub fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is piped");
        writeln!(stdin, "{command}").expect("the client reads stdin");
        stdin.flush().expect("the client reads stdin");
    }

    /// Wait for the process to exit successfully.
    pub fn wait_success(&mut self) {
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

    pub fn fail(&mut self, why: &str) -> ! {
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
