//! Client-side helpers for the battle server protocol (version 1).
//!
//! - [`Connection`]: a WebSocket connection that sends [`ClientMsg`]s and receives
//!   [`ServerMsg`]s, with small, deliberately sized buffers;
//! - [`ViewTracker`]: one viewer's copy of a battle view, built from a `snapshot` and kept
//!   current by `patch` messages, refusing gaps in `seq`;
//! - [`ClientError`]: what can go wrong on the connection;
//! - [`Servers`]: several server addresses (the nodes of a cluster), the first that answers
//!   used, the next one in turn after a connection drops; [`server_url`]: an address as
//!   people type it; [`is_refused`]: whether nobody listens there;
//! - [`samples`]: what a server offers (`welcome`'s rulesets and samples) and the defaults
//!   chosen from it; [`fill`]: open `legal` entries described in words and filled in.
//!
//! The terminal client (`battle-term`, the `battle-client` binary) and the load generator
//! (`battle-load`) are built on this crate.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use battle_client::{Connection, ViewTracker};
//! use battle_protocol::{ClientMsg, ServerMsg};
//!
//! let mut conn = Connection::connect("ws://127.0.0.1:7878").await?;
//! conn.send(&ClientMsg::Spectate { battle_id: "b1".into(), req: Some(1) }).await?;
//! let mut tracker = ViewTracker::new("b1");
//! while !tracker.is_over() {
//!     let msg = conn.recv().await?;
//!     if tracker.apply(&msg).is_err() {
//!         // A lost message: ask for a fresh snapshot.
//!         conn.send(&ClientMsg::Resync { battle_id: "b1".into(), req: None }).await?;
//!     }
//!     if let ServerMsg::Error { code, message, .. } = msg {
//!         eprintln!("refused: {code}: {message}");
//!     }
//! }
//! println!("{:?}", tracker.outcome());
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod address;
mod connection;
mod error;
pub mod fill;
pub mod samples;
mod servers;
mod tracker;

pub use address::{is_refused, server_url};

pub use connection::{
    decode, Connection, MAX_MESSAGE_BYTES, MAX_WRITE_BUFFER_BYTES, READ_BUFFER_BYTES,
};
pub use error::ClientError;
pub use servers::Servers;
pub use tracker::{Applied, TrackError, ViewTracker};

pub use battle_protocol::{ClientMsg, ServerMsg};
