//! Waiting in the server's matchmaking queue: [`Queue::enter`] gives the person's name in
//! `hello` (when they gave one), sends `queue` and reads the `queued` answer; [`Queue::next`] waits for the `matched` seat and the snapshot after it,
//! which become a [`PlayerSession`] on the same connection (the seat is held by it), played
//! as after `join`; [`Queue::leave`] sends `unqueue` and closes.
//!
//! Nothing here touches the terminal: the waiting screens are in [`super::waiting`].

use std::time::Duration;

use battle_protocol::{ClientMsg, Req, Seat, ServerMsg};
use serde_json::Value;
use tokio::time::Instant;

use super::entry::{greet, recv_before, refusal_of};
use super::feed::BattleFeed;
use super::player_name::PlayerName;
use super::reconnect::ReconnectPolicy;
use super::session::PlayerSession;
use super::SessionError;
use battle_client::{Connection, Servers, ViewTracker};

/// What to queue for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueueSpec {
    /// A ruleset id the server offers.
    pub ruleset: String,
    /// One of the ruleset's samples, by name, standing for its options.
    pub sample: Option<String>,
    /// The battle's options (not with `sample`; neither: the ruleset's defaults).
    pub options: Option<Value>,
    /// What you bring to your seat.
    pub setup: Option<Value>,
    /// Play the server's bots after this long without a match.
    pub bot_after: Option<Duration>,
    /// The name to play under, given in `hello` before queueing and on every reconnection
    /// to the battle found (`None`: the server's "Player N").
    pub name: Option<PlayerName>,
}

impl QueueSpec {
    /// The `queue` message for this spec, with `req`.
    pub fn to_queue(&self, req: Req) -> ClientMsg {
        ClientMsg::Queue {
            ruleset: self.ruleset.clone(),
            options: self.options.clone(),
            sample: self.sample.clone(),
            setup: self.setup.clone(),
            bot_after_ms: self.bot_after.map(|wait| wait.as_millis() as u64),
            req: Some(req),
        }
    }
}

/// What a wait in the queue came to.
#[derive(Debug)]
pub enum Waited {
    /// A battle was found: the seat, followed on the queue's connection.
    Matched(Box<PlayerSession>),
    /// The server took us out of the queue, for this reason (`server_busy`: it found a match
    /// but could not make the battle).
    Unqueued(String),
}

/// A connection waiting in the queue.
#[derive(Debug)]
pub struct Queue {
    servers: Servers,
    /// The position in `servers` of the address queued at.
    at: usize,
    policy: ReconnectPolicy,
    /// `None` once the connection became a session's.
    conn: Option<Connection>,
    /// The `queue`'s `req`, which `matched` echoes.
    req: Req,
    /// The name given in `hello`, given again on the battle's reconnections.
    name: Option<PlayerName>,
    ruleset: String,
    waiting: usize,
    /// The seat `matched` gave, while its snapshot is awaited.
    seat: Option<(String, Seat, String)>,
}

impl Queue {
    /// Connect to the first of `servers` that answers and queue as `spec` says; returns once
    /// the server answered `queued` (a refusal is [`SessionError::Refused`]). The battle
    /// found is followed through the same addresses.
    pub async fn enter(
        servers: impl Into<Servers>,
        spec: &QueueSpec,
        policy: ReconnectPolicy,
    ) -> Result<Queue, SessionError> {
        let servers = servers.into();
        let (at, mut conn) = servers.connect_first(policy.answer_timeout).await?;
        let mut req = 1;
        if let Some(name) = &spec.name {
            greet(&mut conn, name, req, policy.answer_timeout).await?;
            req += 1;
        }
        conn.send(&spec.to_queue(req)).await?;
        let deadline = Instant::now() + policy.answer_timeout;
        loop {
            let msg = recv_before(&mut conn, deadline, policy.answer_timeout).await?;
            if let Some(refused) = refusal_of(&msg, req) {
                return Err(refused);
            }
            match msg {
                ServerMsg::Queued {
                    ruleset,
                    waiting,
                    req: Some(r),
                } if r == req => {
                    return Ok(Queue {
                        servers,
                        at,
                        policy,
                        conn: Some(conn),
                        req,
                        name: spec.name.clone(),
                        ruleset,
                        waiting,
                        seat: None,
                    })
                }
                _ => {}
            }
        }
    }

    /// The ruleset queued for.
    pub fn ruleset(&self) -> &str {
        &self.ruleset
    }

    /// How many waited in the pool when we joined it, us included.
    pub fn waiting(&self) -> usize {
        self.waiting
    }

    /// Wait for the match. Cancel safe: dropping the future loses nothing. Once it has
    /// returned [`Waited::Matched`] the queue is spent (its connection is the session's).
    pub async fn next(&mut self) -> Result<Waited, SessionError> {
        loop {
            let Some(conn) = self.conn.as_mut() else {
                return Err(SessionError::NotConnected);
            };
            let msg = conn.recv().await?;
            match msg {
                ServerMsg::Matched {
                    battle_id,
                    seat,
                    token,
                    req,
                } if req == Some(self.req) => self.seat = Some((battle_id, seat, token)),
                ServerMsg::Snapshot { ref battle_id, .. }
                    if self.seat.as_ref().is_some_and(|(id, ..)| id == battle_id) =>
                {
                    let (battle_id, seat, token) = self.seat.take().expect("checked just above");
                    let mut tracker = ViewTracker::new(&battle_id);
                    tracker
                        .apply(&msg)
                        .map_err(|e| SessionError::Unexpected(e.to_string()))?;
                    let conn = self.conn.take().expect("checked at the top of the loop");
                    let feed = BattleFeed::seated(
                        (self.servers.clone(), self.at),
                        conn,
                        tracker,
                        &token,
                        self.name.clone(),
                        self.policy,
                        self.req + 1,
                    );
                    return Ok(Waited::Matched(Box::new(PlayerSession::seated(
                        feed, seat, token,
                    ))));
                }
                ServerMsg::Unqueued { reason, .. } => {
                    self.close().await;
                    return Ok(Waited::Unqueued(reason));
                }
                ServerMsg::Error {
                    code,
                    message,
                    req: Some(r),
                    ..
                } if r == self.req => return Err(SessionError::Refused { code, message }),
                _ => {}
            }
        }
    }

    /// Leave the queue (`unqueue`, waiting at most a second for its answer) and close the
    /// connection.
    pub async fn leave(mut self) {
        let req = self.req + 1;
        if let Some(conn) = self.conn.as_mut() {
            if conn
                .send(&ClientMsg::Unqueue { req: Some(req) })
                .await
                .is_ok()
            {
                let deadline = Instant::now() + Duration::from_secs(1);
                while let Ok(Ok(msg)) = tokio::time::timeout_at(deadline, conn.recv()).await {
                    if matches!(msg, ServerMsg::Unqueued { req: Some(r), .. } if r == req)
                        || matches!(msg, ServerMsg::Error { req: Some(r), .. } if r == req)
                    {
                        break;
                    }
                }
            }
        }
        self.close().await;
    }

    async fn close(&mut self) {
        if let Some(conn) = self.conn.take() {
            let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
        }
    }
}
