//! What nodes send each other through Redis.
//!
//! - **Commands** for a battle another node owns go to the owner's inbox stream as
//!   [`InboxEntry`] (JSON): what a connection asked, which connection (its node and id), and
//!   for which battle. A stream keeps them in order and keeps them while the owner reads.
//! - **Notes** for one node's connections go to that node's channel as a [`Note`]: a short
//!   text header line, then (for frames) the WebSocket frames exactly as the owner built
//!   them, written to the connection as they are.
//! - **A battle's changes** go to the battle's channel, once per audience: the audience's
//!   viewer on a line of its own, then the frame ([`encode_change`]).
//! - **Moves**: a battle that changed owner is told on the cluster channel.
//! - **Matches**: a node whose matchmaker met another node's connection with others sends
//!   that node a `seat` in the battle it made (or `unmatched`, without one) through its
//!   inbox, as an [`InboxEntry`] too.

use battle_protocol::{Req, Seat};
use battle_rules::ruleset::Viewer;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::battle::Role;

/// A command forwarded to a battle's owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
pub enum Forwarded {
    Join {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<Value>,
        /// The name the connection gave in `hello`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
        /// Seated by the matchmaker: answered `matched`, not `joined`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        matched: bool,
    },
    Rejoin {
        token: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    Spectate {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    Act {
        action: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    Resync {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    Leave {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    Resign {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// The connection closed.
    Disconnected,
    /// The battle moved: take the connection back in as it was, with a snapshot only.
    Reattach { role: Role },
    /// Create a battle here (placed on this node by the one the client asked).
    Create {
        request: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// A draining node handed this battle over: load it.
    Take,
    /// The matchmaker of the entry's `from` node met this node's connection `conn` (waiting
    /// as wait `n` of node instance `to`) with others in the entry's battle, which `from`
    /// owns: seat the connection there in `seat`, with the setup and `req` it queued with.
    Seat {
        to: String,
        n: u64,
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
    /// Like [`Forwarded::Seat`], but `from` could make no battle for the match (`reason`, an
    /// error code): the connection's wait is over, unmatched.
    Unmatched {
        to: String,
        n: u64,
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        req: Option<Req>,
    },
}

/// One entry of a node's inbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InboxEntry {
    /// The node the connection is on (for `seat` and `unmatched`: the node that met it, its
    /// connection being on the node whose inbox this is).
    pub from: String,
    /// The connection's id on its node.
    pub conn: u64,
    /// The battle (empty for `create`).
    pub battle: String,
    #[serde(flatten)]
    pub cmd: Forwarded,
}

/// A note for one of a node's connections.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// Frames to write to the connection as they are.
    Frames {
        conn: u64,
        battle: String,
        bytes: Bytes,
    },
    /// The connection is now part of the battle as `viewer`, holding its audience's view at
    /// `seq` (the snapshot just sent); the audience's changes reach it from now on.
    /// `token_hash` for a seat.
    Admit {
        conn: u64,
        battle: String,
        viewer: Viewer,
        seq: u64,
        token_hash: Option<String>,
    },
    /// The connection is no longer part of the battle.
    Dismiss { conn: u64, battle: String },
    /// Close the connection with this code and reason.
    Close {
        conn: u64,
        battle: String,
        code: u16,
        reason: String,
    },
    /// The battle is not on the node the command went to: look its owner up again.
    NotHere { conn: u64, battle: String },
}

/// Why a message from another node could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unreadable cluster message: {0}")]
pub struct Unreadable(pub &'static str);

fn viewer_text(viewer: Viewer) -> String {
    match viewer {
        Viewer::Seat(seat) => seat.to_string(),
        Viewer::Spectator => "s".to_string(),
    }
}

fn parse_viewer(text: &str) -> Result<Viewer, Unreadable> {
    if text == "s" {
        return Ok(Viewer::Spectator);
    }
    text.parse()
        .map(Viewer::Seat)
        .map_err(|_| Unreadable("viewer"))
}

impl Note {
    /// The note as one message.
    pub fn encode(&self) -> Vec<u8> {
        let (head, body): (String, &[u8]) = match self {
            Note::Frames {
                conn,
                battle,
                bytes,
            } => (format!("f {conn} {battle}"), bytes),
            Note::Admit {
                conn,
                battle,
                viewer,
                seq,
                token_hash,
            } => {
                let hash = token_hash
                    .as_deref()
                    .map_or(String::new(), |h| format!(" {h}"));
                (
                    format!("a {conn} {battle} {} {seq}{hash}", viewer_text(*viewer)),
                    &[],
                )
            }
            Note::Dismiss { conn, battle } => (format!("d {conn} {battle}"), &[]),
            Note::Close {
                conn,
                battle,
                code,
                reason,
            } => (format!("c {conn} {battle} {code} {reason}"), &[]),
            Note::NotHere { conn, battle } => (format!("n {conn} {battle}"), &[]),
        };
        let mut out = Vec::with_capacity(head.len() + 1 + body.len());
        out.extend_from_slice(head.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(body);
        out
    }

    /// Read a note.
    pub fn decode(message: Bytes) -> Result<Note, Unreadable> {
        let end = message
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(Unreadable("no header line"))?;
        let head = std::str::from_utf8(&message[..end]).map_err(|_| Unreadable("header"))?;
        let mut parts = head.splitn(4, ' ');
        let kind = parts.next().unwrap_or_default();
        let conn: u64 = parts
            .next()
            .and_then(|c| c.parse().ok())
            .ok_or(Unreadable("connection"))?;
        let battle = parts
            .next()
            .filter(|b| !b.is_empty())
            .ok_or(Unreadable("battle"))?
            .to_string();
        let rest = parts.next().unwrap_or_default();
        Ok(match kind {
            "f" => Note::Frames {
                conn,
                battle,
                bytes: message.slice(end + 1..),
            },
            "a" => {
                let mut args = rest.split(' ');
                let viewer = parse_viewer(args.next().unwrap_or_default())?;
                let seq = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or(Unreadable("seq"))?;
                let token_hash = args.next().map(str::to_string);
                Note::Admit {
                    conn,
                    battle,
                    viewer,
                    seq,
                    token_hash,
                }
            }
            "d" => Note::Dismiss { conn, battle },
            "c" => {
                let (code, reason) = rest.split_once(' ').unwrap_or((rest, ""));
                Note::Close {
                    conn,
                    battle,
                    code: code.parse().map_err(|_| Unreadable("close code"))?,
                    reason: reason.to_string(),
                }
            }
            "n" => Note::NotHere { conn, battle },
            _ => return Err(Unreadable("kind")),
        })
    }
}

/// What comes on a battle's channel.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// One audience's change: its `seq` and the frame carrying it.
    Frame {
        viewer: Viewer,
        seq: u64,
        frame: Bytes,
    },
    /// A while after its last change, the seq an audience is at: a node whose connections
    /// hold an older one missed a change (pub/sub may drop), and has them resynced.
    Beacon { viewer: Viewer, seq: u64 },
}

/// One audience's change at `seq`, for the battle's channel.
pub fn encode_change(viewer: Viewer, seq: u64, frame: &[u8]) -> Vec<u8> {
    let head = format!("c {} {seq}", viewer_text(viewer));
    let mut out = Vec::with_capacity(head.len() + 1 + frame.len());
    out.extend_from_slice(head.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(frame);
    out
}

/// An audience's beacon: it is at `seq`.
pub fn encode_beacon(viewer: Viewer, seq: u64) -> Vec<u8> {
    format!("b {} {seq}\n", viewer_text(viewer)).into_bytes()
}

/// Read what came on a battle's channel.
pub fn decode_change(message: Bytes) -> Result<Change, Unreadable> {
    let end = message
        .iter()
        .position(|&b| b == b'\n')
        .ok_or(Unreadable("no header line"))?;
    let head = std::str::from_utf8(&message[..end]).map_err(|_| Unreadable("header"))?;
    let mut parts = head.split(' ');
    let kind = parts.next().unwrap_or_default();
    let viewer = parse_viewer(parts.next().unwrap_or_default())?;
    let seq = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or(Unreadable("seq"))?;
    match kind {
        "c" => Ok(Change::Frame {
            viewer,
            seq,
            frame: message.slice(end + 1..),
        }),
        "b" => Ok(Change::Beacon { viewer, seq }),
        _ => Err(Unreadable("kind")),
    }
}

/// The `seq` of a snapshot or patch frame the server built (`{"type":…,"battle_id":…,
/// "seq":N`, behind its WebSocket header); `None` for any other frame.
pub fn frame_seq(frame: &[u8]) -> Option<u64> {
    const KEY: &[u8] = b"\"seq\":";
    let head = &frame[..frame.len().min(160)];
    let at = head.windows(KEY.len()).position(|w| w == KEY)? + KEY.len();
    let digits: Vec<u8> = head[at..]
        .iter()
        .copied()
        .take_while(u8::is_ascii_digit)
        .collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// A battle that moved: `moved <battle> <owner>`.
pub fn encode_moved(battle: &str, owner: &str) -> String {
    format!("moved {battle} {owner}")
}

/// Read a move: the battle and its new owner.
pub fn decode_moved(message: &str) -> Option<(&str, &str)> {
    let rest = message.strip_prefix("moved ")?;
    rest.split_once(' ')
}

#[cfg(test)]
mod tests;
