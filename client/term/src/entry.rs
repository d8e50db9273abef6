//! How a connection enters a battle: `hello` with the person's name when they gave one,
//! then `join`, `rejoin` or `spectate`, and the snapshot that follows. A session does this on
//! its first connection and again on every reconnection, so the seat keeps its name.

use std::time::Duration;

use battle_protocol::{ClientMsg, Req, Seat, ServerMsg};
use tokio::time::Instant;

use super::player_name::PlayerName;
use super::SessionError;
use battle_client::{Connection, ViewTracker};

/// How a session enters (and re-enters) its battle.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    /// `join`, on the given seat or the first free one, bringing a setup (or the default).
    Join(Option<Seat>, Option<serde_json::Value>),
    /// `rejoin` with a seat token.
    Rejoin(String),
    /// `spectate`.
    Spectate,
}

/// The answer to an entry: the seat and token for `join`/`rejoin`, nothing for `spectate`.
pub(crate) type Seating = Option<(Seat, String)>;

/// Open a connection within `timeout`.
pub(crate) async fn connect(url: &str, timeout: Duration) -> Result<Connection, SessionError> {
    match tokio::time::timeout(timeout, Connection::connect(url)).await {
        Ok(result) => Ok(result?),
        Err(_) => Err(battle_client::ClientError::Timeout(timeout).into()),
    }
}

/// On a fresh connection: give `name` in `hello` (when there is one), then send the entry
/// request and wait (each within `timeout`) for its answer and the snapshot after it, which
/// replaces `tracker`'s view. The requests are numbered from `next_req`, which is left at
/// the number after the last one used.
pub(crate) async fn enter(
    conn: &mut Connection,
    tracker: &mut ViewTracker,
    entry: &Entry,
    name: Option<&PlayerName>,
    next_req: &mut Req,
    timeout: Duration,
) -> Result<Seating, SessionError> {
    if let Some(name) = name {
        let req = take(next_req);
        greet(conn, name, req, timeout).await?;
    }
    let req = take(next_req);
    let battle_id = tracker.battle_id().to_owned();
    let msg = match entry {
        Entry::Join(seat, setup) => ClientMsg::Join {
            battle_id: battle_id.clone(),
            seat: *seat,
            setup: setup.clone(),
            req: Some(req),
        },
        Entry::Rejoin(token) => ClientMsg::Rejoin {
            battle_id: battle_id.clone(),
            token: token.clone(),
            req: Some(req),
        },
        Entry::Spectate => ClientMsg::Spectate {
            battle_id: battle_id.clone(),
            req: Some(req),
        },
    };
    conn.send(&msg).await?;
    let deadline = Instant::now() + timeout;
    let mut answered: Option<Seating> = None;
    loop {
        let msg = recv_before(conn, deadline, timeout).await?;
        if let Some(refused) = refusal_of(&msg, req) {
            return Err(refused);
        }
        match msg {
            ServerMsg::Joined {
                seat,
                token,
                req: Some(r),
                ..
            } if r == req => answered = Some(Some((seat, token))),
            ServerMsg::Spectating { req: Some(r), .. } if r == req => answered = Some(None),
            ServerMsg::Snapshot {
                battle_id: ref id, ..
            } if *id == battle_id && answered.is_some() => {
                tracker
                    .apply(&msg)
                    .map_err(|e| SessionError::Unexpected(e.to_string()))?;
                return Ok(answered.flatten());
            }
            _ => {}
        }
    }
}

/// Send `hello` with `name` and `req` on a fresh connection and wait (within `timeout`) for
/// the server's `welcome`: from then on, a seat the connection takes is named by it.
pub(crate) async fn greet(
    conn: &mut Connection,
    name: &PlayerName,
    req: Req,
    timeout: Duration,
) -> Result<(), SessionError> {
    conn.send(&ClientMsg::Hello {
        protocol: battle_protocol::PROTOCOL_VERSION,
        name: Some(name.as_str().to_owned()),
        req: Some(req),
    })
    .await?;
    let deadline = Instant::now() + timeout;
    loop {
        let msg = recv_before(conn, deadline, timeout).await?;
        if let Some(refused) = refusal_of(&msg, req) {
            return Err(refused);
        }
        if matches!(msg, ServerMsg::Welcome { req: Some(r), .. } if r == req) {
            return Ok(());
        }
    }
}

/// The next message on `conn` if it comes before `deadline`, set `timeout` after the request
/// it answers (which the error names).
pub(crate) async fn recv_before(
    conn: &mut Connection,
    deadline: Instant,
    timeout: Duration,
) -> Result<ServerMsg, SessionError> {
    match tokio::time::timeout_at(deadline, conn.recv()).await {
        Ok(msg) => Ok(msg?),
        Err(_) => Err(battle_client::ClientError::Timeout(timeout).into()),
    }
}

/// `msg` as the server's refusal of our request `req`, when it is one.
pub(crate) fn refusal_of(msg: &ServerMsg, req: Req) -> Option<SessionError> {
    match msg {
        ServerMsg::Error {
            code,
            message,
            req: Some(r),
            ..
        } if *r == req => Some(SessionError::Refused {
            code: *code,
            message: message.clone(),
        }),
        _ => None,
    }
}

/// The request number `next_req` holds, moving it on by one.
fn take(next_req: &mut Req) -> Req {
    let req = *next_req;
    *next_req += 1;
    req
}
