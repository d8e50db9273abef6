//! The battle server library: battle actors, the lobby and the WebSocket edge, around the
//! rulesets and view pipeline of [`battle_rules`].
//!
//! The `battle-server` binary is a thin wrapper over [`start`]; end-to-end tests call it too,
//! on `127.0.0.1:0`.

pub mod admin;
pub mod battle;
pub mod cluster;
pub mod config;
pub mod connection;
pub mod dir_lock;
pub mod http;
pub mod ids;
pub mod lobby;
pub mod matchmaker;
pub mod metrics;
pub mod open_files;
pub mod poison;
pub mod quota;
pub mod rate;
pub mod refusal;
pub mod replay;
pub mod server;
pub mod start_error;
pub mod store;

/// The rulesets, the view pipeline and the input log (the pure part of the server).
pub use battle_rules as rules;

pub use config::Config;
pub use server::{start, RunningServer};
pub use start_error::StartError;
