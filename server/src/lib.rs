//! The battle server library: rulesets, battle actors, the lobby and the WebSocket edge.
//!
//! The `battle-server` binary is a thin wrapper over [`start`]; end-to-end tests call it too,
//! on `127.0.0.1:0`.

pub mod battle;
pub mod config;
pub mod connection;
pub mod lobby;
pub mod rules;
pub mod ruleset;
pub mod server;
pub mod view_value;
pub mod viewers;

pub use config::Config;
pub use server::{start, RunningServer};
