//! The server's layers, held: every `crate::` path in a top-level module of `server/src`
//! names a module of its own layer or of a layer below it.
//!
//! The layers, bottom first, are stated in `ARCHITECTURE.md` ("Layers"); this test reads the
//! sources (no build of the crate needed beyond this file) and fails on an import that points
//! up. `.ci/layers` runs it on its own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may name modules of its own layer and of the layers
/// below; never one above.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "settings, ids, time, counters",
        &[
            "config",
            "ids",
            "rate",
            "poison",
            "dir_lock",
            "open_files",
            "metrics",
            "refusal",
        ],
    ),
    ("the store behind its journal", &["store", "replay"]),
    ("the battle actor", &["battle"]),
    (
        "the registry of battles, the matchmaker, quotas",
        &["quota", "lobby", "matchmaker"],
    ),
    ("the edge: connections and HTTP", &["connection", "http"]),
    ("cluster mode: the seams over Redis", &["cluster"]),
    ("wiring", &["server", "start_error", "admin"]),
];

/// Imports that still point up, by the file holding them and the module they name. Each one
/// is a seam still to cut; the list only shrinks (an entry that no longer occurs fails too).
const STILL_UP: &[(&str, &str)] = &[
    ("src/battle/actor.rs", "connection"),
    ("src/battle/audience.rs", "connection"),
    ("src/battle/audience/tests.rs", "connection"),
    ("src/battle/command.rs", "connection"),
    ("src/battle/delay.rs", "connection"),
    ("src/battle/membership.rs", "connection"),
    ("src/battle/seats.rs", "connection"),
    ("src/connection/remote.rs", "cluster"),
    ("src/http/routes.rs", "cluster"),
    ("src/lobby/clustered.rs", "cluster"),
    ("src/lobby/clustered.rs", "connection"),
    ("src/lobby/mod.rs", "cluster"),
    ("src/lobby/mod.rs", "connection"),
    ("src/lobby/reads.rs", "cluster"),
    ("src/matchmaker/clustered/meet.rs", "cluster"),
    ("src/matchmaker/clustered/meet.rs", "connection"),
    ("src/matchmaker/clustered/mod.rs", "cluster"),
    ("src/matchmaker/clustered/mod.rs", "connection"),
    ("src/matchmaker/command.rs", "cluster"),
    ("src/matchmaker/command.rs", "connection"),
    ("src/matchmaker/handle.rs", "cluster"),
    ("src/matchmaker/handle.rs", "connection"),
    ("src/matchmaker/seating.rs", "connection"),
    ("src/matchmaker/task.rs", "connection"),
];

/// The top-level modules named by `crate::` paths in `source` (comments left out).
fn named_modules(source: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for line in source.lines() {
        let code = match line.find("//") {
            // `//` inside a string (a URL) is rare in these files and never before `crate::`.
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // `battle_server::crate::` never occurs; `mycrate::` is not ours
            }
            if let Some(group) = rest.strip_prefix('{') {
                named.extend(group_heads(group));
            } else {
                let ident: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !ident.is_empty() {
                    named.insert(ident);
                }
            }
        }
    }
    named
}

/// The first segment of each path in a `{a::b, c, d::{e, f}}` group (`group` starts after
/// the opening brace; a group spanning lines is read up to the end of its line).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_start = true;
    let mut ident = String::new();
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            c if depth == 0 && at_start && (c.is_alphanumeric() || c == '_') => ident.push(c),
            _ => {
                if !ident.is_empty() {
                    heads.push(std::mem::take(&mut ident));
                    at_start = false;
                }
            }
        }
    }
    if !ident.is_empty() {
        heads.push(ident);
    }
    heads
}

fn rust_files(path: &Path, into: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .expect("a source directory is readable")
            .map(|e| e.expect("a directory entry is readable").path())
            .collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, into);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        into.push(path.to_path_buf());
    }
}

#[test]
fn imports_point_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(n, (_, modules))| modules.iter().map(move |m| (*m, n)))
        .collect();
    let mut problems = Vec::new();
    let mut up = BTreeSet::new();
    let mut entries: Vec<_> = std::fs::read_dir(&src)
        .expect("server/src is readable")
        .map(|e| e.expect("a directory entry is readable").path())
        .collect();
    entries.sort();
    for entry in entries {
        let name = entry
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("module names are UTF-8")
            .to_string();
        if name == "lib" || name == "main" {
            continue; // the crate root re-exports; the binary sits above everything
        }
        let Some(&layer) = layer_of.get(name.as_str()) else {
            problems.push(format!(
                "top-level module `{name}` is in no layer of LAYERS"
            ));
            continue;
        };
        let mut files = Vec::new();
        rust_files(&entry, &mut files);
        for file in files {
            let source = std::fs::read_to_string(&file).expect("a source file is readable");
            let relative = file
                .strip_prefix(src.parent().expect("src has a parent"))
                .expect("under the crate")
                .to_string_lossy()
                .replace('\\', "/");
            for named in named_modules(&source) {
                let Some(&target) = layer_of.get(named.as_str()) else {
                    continue; // `crate::rules` and other re-exports of the crate root
                };
                if target > layer {
                    up.insert((relative.clone(), named));
                }
            }
        }
    }
    let allowed: BTreeSet<(String, String)> = STILL_UP
        .iter()
        .map(|(f, m)| (f.to_string(), m.to_string()))
        .collect();
    for (file, named) in up.difference(&allowed) {
        let (below, above) = (
            LAYERS[layer_of[file
                .trim_start_matches("src/")
                .split(['/', '.'])
                .next()
                .expect("a path")]]
            .0,
            LAYERS[layer_of[named.as_str()]].0,
        );
        problems.push(format!(
            "{file} names `crate::{named}`: \"{below}\" may not import from \"{above}\", a layer above it"
        ));
    }
    for (file, named) in allowed.difference(&up) {
        problems.push(format!(
            "STILL_UP lists {file} → {named}, which no longer points up: take it off the list"
        ));
    }
    assert!(
        problems.is_empty(),
        "the module graph breaks the layers:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn the_reader_sees_groups_and_paths() {
    let named = named_modules(
        "use crate::store::{Commits, Ticket};\nuse crate::{battle::X, lobby::{a, b}, quota};\n\
         let x = crate::metrics::names::Y; // crate::http in a comment\n",
    );
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    assert_eq!(named, ["battle", "lobby", "metrics", "quota", "store"]);
}
