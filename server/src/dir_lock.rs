//! The data directory's lock: one server owns its data directory alone.
//!
//! Before anything in the directory is read, the server takes an exclusive advisory lock
//! (`flock`) on the file [`LOCK_FILE`] in it and writes its process id there. The lock is
//! held as long as the [`DirLock`] lives (the process's life, for the binary) and the kernel
//! releases it when the process dies, however it dies: after `kill -9` the next start
//! takes it at once, with nothing to clean up by hand. A second server on the same
//! directory finds the lock taken and stops before it touches anything ([`LockError::Held`],
//! naming the holder's pid when the file says it).
//!
//! The lock is advisory: it keeps battle servers (and `battle-server quarantine`) apart,
//! not other programs; `sqlite3 ... ".backup"` still reads the database of a running server.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use fs4::FileExt;

/// The lock file inside the data directory.
pub const LOCK_FILE: &str = "lock";

/// Why the data directory could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error(
        "the data directory {dir} is in use by another battle-server{}: stop it first, or \
         give this one another --data-dir",
        holder(*.pid)
    )]
    Held {
        /// The directory, as given.
        dir: String,
        /// The holder's process id, when the lock file says it.
        pid: Option<u32>,
    },
    /// The directory or its lock file cannot be made or opened.
    #[error("cannot use the data directory {dir}: {source}")]
    Io {
        /// The directory, as given.
        dir: String,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// " (pid N)" when the holder is known.
fn holder(pid: Option<u32>) -> String {
    pid.map(|pid| format!(" (pid {pid})")).unwrap_or_default()
}

/// The held lock on a data directory; dropping it lets the directory go.
#[derive(Debug)]
pub struct DirLock {
    file: File,
    dir: PathBuf,
}

impl DirLock {
    /// Take `dir` (created if needed) for this process, or say who holds it.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let io = |source| LockError::Io {
            dir: dir.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join(LOCK_FILE))
            .map_err(io)?;
        match FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    dir: dir.display().to_string(),
                    pid: read_pid(&mut file),
                })
            }
            Err(fs4::TryLockError::Error(err)) => return Err(io(err)),
        }
        // Held: the pid for whoever finds it taken next.
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(DirLock {
            file,
            dir: dir.to_path_buf(),
        })
    }

    /// The directory held.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for DirLock {
    /// The pid goes before the lock does (nobody else can hold it meanwhile); the kernel
    /// releases the lock as the file closes.
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
    }
}

/// The pid the lock file holds, if it can be read.
fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_held_once_and_let_go_when_dropped() {
        let dir = std::env::temp_dir().join(format!("battle-dir-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = DirLock::acquire(&dir).expect("a fresh directory");
        assert_eq!(held.dir(), dir.as_path());
        let text = std::fs::read_to_string(dir.join(LOCK_FILE)).expect("the lock file");
        assert_eq!(text.trim(), std::process::id().to_string());
        // flock belongs to the open file: a second open in this process is refused too.
        match DirLock::acquire(&dir) {
            Err(err @ LockError::Held { pid, .. }) => {
                assert_eq!(pid, Some(std::process::id()));
                let sentence = err.to_string();
                assert!(sentence.contains(&dir.display().to_string()), "{sentence}");
                assert!(
                    sentence.contains(&format!("(pid {})", std::process::id())),
                    "{sentence}"
                );
            }
            other => panic!("a held directory is refused, not {other:?}"),
        }
        drop(held);
        let again = DirLock::acquire(&dir).expect("let go with the lock");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_holder_of_unknown_pid_is_still_named_as_in_use() {
        let err = LockError::Held {
            dir: "/srv/battles".into(),
            pid: None,
        };
        assert_eq!(
            err.to_string(),
            "the data directory /srv/battles is in use by another battle-server: stop it \
             first, or give this one another --data-dir"
        );
    }
}
