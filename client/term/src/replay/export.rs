//! Writing a replay to a file as pretty JSON (the `Replay` exactly as the server sent it),
//! never over an existing file unless asked to.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use battle_protocol::Replay;

/// Why a replay was not written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The file is there already and overwriting was not asked for.
    #[error("{} exists already; add --force to overwrite it, or choose another file with --output", .0.display())]
    Exists(PathBuf),
    /// The file could not be written.
    #[error("writing {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
}

/// What was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The file.
    pub path: PathBuf,
    /// Its size.
    pub bytes: usize,
    /// The replay's steps after the start.
    pub steps: usize,
}

/// The file a replay goes to when none is named: `<battle-id>.replay.json` in the current
/// directory (any character of the id that could leave it, such as `/`, becomes `_`).
pub fn default_path(battle_id: &str) -> PathBuf {
    let safe: String = battle_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    PathBuf::from(format!("{safe}.replay.json"))
}

/// Write `replay` to `path` as pretty JSON, ending with a newline. An existing file is
/// refused unless `force`.
pub fn export(replay: &Replay, path: &Path, force: bool) -> Result<Exported, ExportError> {
    // A Replay is strings, numbers and JSON values: it always serializes.
    let mut text = serde_json::to_string_pretty(replay).expect("a replay always serializes");
    text.push('\n');
    let mut options = OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        // Checked and created in one step: nothing written in between is overwritten.
        options.create_new(true);
    }
    let io_error = |source: io::Error| {
        if source.kind() == io::ErrorKind::AlreadyExists {
            ExportError::Exists(path.to_owned())
        } else {
            ExportError::Io {
                path: path.to_owned(),
                source,
            }
        }
    };
    let mut file = options.open(path).map_err(io_error)?;
    file.write_all(text.as_bytes()).map_err(io_error)?;
    Ok(Exported {
        path: path.to_owned(),
        bytes: text.len(),
        steps: replay.steps.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn replay() -> Replay {
        serde_json::from_value(json!({
            "battle_id": "b1", "ruleset": "synergy", "version": 3, "seats": 2, "bots": [1],
            "outcome": {"summary": "Seat 0 wins", "winners": [0]}, "ended_at": 1,
            "start": {"game": {"log": []}},
            "steps": [[{"op": "add", "path": "/game/log/0", "value": "a"}]]
        }))
        .expect("a replay")
    }

    /// A fresh directory under the system's temporary one.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "battle-client-export-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    #[test]
    fn the_default_file_is_named_after_the_battle() {
        assert_eq!(
            default_path("kg4fme4qk7"),
            PathBuf::from("kg4fme4qk7.replay.json")
        );
        assert_eq!(default_path("../x"), PathBuf::from("___x.replay.json"));
    }

    #[test]
    fn a_replay_is_written_once_and_reads_back_the_same() {
        let dir = scratch("once");
        let path = dir.join("b1.replay.json");
        let written = export(&replay(), &path, false).expect("written");
        assert_eq!(written.steps, 1);
        let text = std::fs::read_to_string(&path).expect("readable");
        assert_eq!(written.bytes, text.len());
        assert!(text.contains("\n  \"battle_id\": \"b1\""), "pretty: {text}");
        let back: Replay = serde_json::from_str(&text).expect("a replay");
        assert_eq!(back, replay());
        let refused = export(&replay(), &path, false).expect_err("the file exists");
        assert!(matches!(refused, ExportError::Exists(_)), "{refused}");
        assert!(refused.to_string().contains("--force"), "{refused}");
        std::fs::write(&path, "something else, longer than nothing at all").expect("write");
        export(&replay(), &path, true).expect("overwritten with --force");
        let back: Replay = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable"))
            .expect("a whole replay, nothing of the old file left");
        assert_eq!(back, replay());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unwritable_place_is_an_io_error() {
        let dir = scratch("nowhere");
        let err = export(&replay(), &dir.join("no/such/dir/x.json"), false)
            .expect_err("no such directory");
        assert!(matches!(err, ExportError::Io { .. }), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
