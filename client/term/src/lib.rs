//! Playing and watching battles from a terminal.
//!
//! - [`PlayerSession`] and [`SpectatorSession`]: a seat (which can act) and a read-only
//!   spectator, both following their battle through a [`BattleFeed`] that applies snapshots
//!   and patches, resyncs after a `seq` gap and reconnects with backoff
//!   ([`ReconnectPolicy`]); [`player_name`]: the name a seat's holder gives the server on
//!   each connection ([`PlayerName`]);
//! - [`lobby`]: listing and creating battles; [`queue`] and [`waiting`]: waiting in the
//!   matchmaking queue until a battle is found;
//! - [`ui`]: the full-screen screens (synergy panel, generic panel), drawn from state alone;
//! - [`app`]: the full-screen loop; [`plain`]: line-per-event mode for scripts;
//! - [`keys`] and [`choice`]: what a key or typed line asks for, checked against `legal`;
//!   [`hand`]: hand numbers that stay put through a turn;
//!   [`picker`] and [`form`]: choosing a legal action and filling an open one with keys;
//! - [`presence`]: who holds and is connected to each seat, and the notices when that
//!   changes; [`outcome`]: the result told to each viewer in their own terms;
//! - [`clock`]: the turn clocks read as countdowns and banks;
//! - [`replay`]: finished battles listed, stepped through, printed and saved.
//!
//! Session logic never touches the terminal, so it is tested without one.

#![warn(missing_docs)]

pub mod app;
pub mod choice;
pub mod clock;
mod entry;
mod error;
pub mod feed;
pub mod form;
pub mod hand;
pub mod keys;
pub mod lobby;
pub mod outcome;
pub mod picker;
pub mod plain;
pub mod player_name;
pub mod presence;
pub mod queue;
pub mod reconnect;
pub mod replay;
pub mod session;
pub mod share;
pub mod ui;
pub mod waiting;

pub use error::SessionError;
pub use feed::{BattleFeed, Event};
pub use keys::Command;
pub use player_name::PlayerName;
pub use reconnect::{Link, ReconnectPolicy};
pub use session::{AnySession, PlayerSession, SpectatorSession};
