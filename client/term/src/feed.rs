//! `BattleFeed`: the part every session shares. It owns the connection and the view tracker
//! for one battle, turns server messages into [`Event`]s, asks for a fresh snapshot after a
//! `seq` gap, and reconnects with backoff (re-entering the battle with the seat token or as
//! a spectator) when the connection drops: with several server addresses (the nodes of a
//! cluster), each try goes to the next address in turn.
//!
//! Every connection it makes gives the person's name first, when they gave one
//! ([`super::entry`]).
//!
//! The feed never draws anything: screens read [`BattleFeed::tracker`] after each event.

use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode, Req, ServerMsg};
use serde_json::Value;
use tokio::time::Instant;

use super::entry::{connect, enter, Entry, Seating};
use super::player_name::PlayerName;
use super::reconnect::{Link, ReconnectPolicy};
use super::SessionError;
use battle_client::{Applied, Connection, Servers, ViewTracker};

/// Something that happened to the battle or to the connection; after each one the caller
/// re-reads the view and redraws.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The view moved forward (a patch, or a snapshot standing in for one).
    Changed,
    /// A message was lost (a `seq` gap) or a patch did not fit: a `resync` was sent.
    Resyncing(String),
    /// The snapshot answering a `resync` replaced the view.
    Resynced,
    /// The server refused a request of ours.
    Refused {
        /// The stable error code.
        code: ErrorCode,
        /// The server's explanation, for people.
        message: String,
    },
    /// The connection changed state (dropped, reconnecting, back, given up).
    Link(Link),
    /// The server stopped sending us this battle (`replaced`, `expired` or `requested`).
    Left(String),
    /// Something odd that changed nothing, worth showing (an undecodable message).
    Notice(String),
}

#[derive(Debug, Clone, Copy)]
struct Retry {
    attempt: u32,
    at: Instant,
}

/// One battle followed over one (re-established as needed) connection.
#[derive(Debug)]
pub struct BattleFeed {
    servers: Servers,
    /// The position in `servers` of the address connected to (or being tried).
    at: usize,
    policy: ReconnectPolicy,
    conn: Option<Connection>,
    tracker: ViewTracker,
    reentry: Entry,
    /// The name given in `hello` on every connection, if the person gave one.
    name: Option<PlayerName>,
    next_req: Req,
    link: Link,
    retry: Option<Retry>,
    pending_act: Option<Req>,
    pending_resync: Option<Req>,
}

impl BattleFeed {
    /// Connect to the first of `servers` that answers, give `name` (if any) and enter
    /// `battle_id` as `entry` says. Returns the feed and, for a seat, the seat number and
    /// token.
    pub(crate) async fn open(
        servers: Servers,
        battle_id: &str,
        entry: Entry,
        name: Option<PlayerName>,
        policy: ReconnectPolicy,
    ) -> Result<(BattleFeed, Seating), SessionError> {
        let (at, mut conn) = servers.connect_first(policy.answer_timeout).await?;
        let mut tracker = ViewTracker::new(battle_id);
        let mut next_req = 1;
        let timeout = policy.answer_timeout;
        let seating = enter(
            &mut conn,
            &mut tracker,
            &entry,
            name.as_ref(),
            &mut next_req,
            timeout,
        )
        .await?;
        let reentry = match (&entry, &seating) {
            (Entry::Spectate, _) => Entry::Spectate,
            (_, Some((_, token))) => Entry::Rejoin(token.clone()),
            (_, None) => return Err(SessionError::Unexpected("no seat in the answer".into())),
        };
        let feed = BattleFeed {
            servers,
            at,
            policy,
            conn: Some(conn),
            tracker,
            reentry,
            name,
            next_req,
            link: Link::Connected,
            retry: None,
            pending_act: None,
            pending_resync: None,
        };
        Ok((feed, seating))
    }

    /// A feed for a seat taken on `conn` (to `servers`' address at position `at`) already
    /// (the matchmaker seated it): `tracker` holds the snapshot that followed, `token` takes
    /// the seat back after a reconnect (each new connection giving `name` first, when there
    /// is one), and the feed's requests are numbered from `next_req`.
    pub(crate) fn seated(
        (servers, at): (Servers, usize),
        conn: Connection,
        tracker: ViewTracker,
        token: &str,
        name: Option<PlayerName>,
        policy: ReconnectPolicy,
        next_req: Req,
    ) -> BattleFeed {
        BattleFeed {
            servers,
            at,
            policy,
            conn: Some(conn),
            tracker,
            reentry: Entry::Rejoin(token.to_owned()),
            name,
            next_req,
            link: Link::Connected,
            retry: None,
            pending_act: None,
            pending_resync: None,
        }
    }

    /// The battle's id.
    pub fn battle_id(&self) -> &str {
        self.tracker.battle_id()
    }

    /// The server URL the feed is connected to (or tries next).
    pub fn url(&self) -> &str {
        self.servers.get(self.at)
    }

    /// The name the feed gives the server on each connection, if the person gave one.
    pub fn name(&self) -> Option<&PlayerName> {
        self.name.as_ref()
    }

    /// Every server address the feed may use, in the order it tries them.
    pub fn servers(&self) -> &Servers {
        &self.servers
    }

    /// The view as currently known.
    pub fn tracker(&self) -> &ViewTracker {
        &self.tracker
    }

    /// The connection's state.
    pub fn link(&self) -> &Link {
        &self.link
    }

    /// True while an `act` of ours has not been answered (accepted or refused) yet.
    pub fn act_pending(&self) -> bool {
        self.pending_act.is_some()
    }

    /// Wait for the next event. After [`Link::Failed`] or [`Event::Left`] nothing more happens
    /// and the future never completes, so callers select it against their own input.
    ///
    /// Cancel safe: dropping the future loses no message, and an interrupted reconnect try
    /// is simply started again by the next call.
    pub async fn next_event(&mut self) -> Event {
        loop {
            let Some(conn) = self.conn.as_mut() else {
                return self.reconnect_step().await;
            };
            let msg = match conn.recv().await {
                Ok(msg) => msg,
                Err(e) if e.is_closed() || matches!(e, battle_client::ClientError::Timeout(_)) => {
                    return self.lost(e.to_string());
                }
                Err(e) => return Event::Notice(format!("ignored a message: {e}")),
            };
            if let Some(event) = self.handle(msg).await {
                return event;
            }
        }
    }

    /// Tell the server we leave the battle (a seat stays ours for `rejoin`) and close the
    /// connection. Waits at most a second for the server's goodbye.
    pub async fn leave(mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        let req = self.next_req;
        let leave = ClientMsg::Leave {
            battle_id: self.tracker.battle_id().to_owned(),
            req: Some(req),
        };
        if conn.send(&leave).await.is_ok() {
            let deadline = Instant::now() + Duration::from_secs(1);
            while let Ok(Ok(msg)) = tokio::time::timeout_at(deadline, conn.recv()).await {
                if matches!(msg, ServerMsg::Left { req: Some(r), .. } if r == req) {
                    break;
                }
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    }

    /// Send an action for our seat. Only [`PlayerSession`](super::PlayerSession) calls this.
    pub(crate) async fn send_act(&mut self, action: Value) -> Result<Req, SessionError> {
        let req = self.take_req();
        let msg = ClientMsg::Act {
            battle_id: self.tracker.battle_id().to_owned(),
            action,
            req: Some(req),
        };
        self.send(&msg).await?;
        self.pending_act = Some(req);
        Ok(req)
    }

    /// Give up the battle for our seat. Only [`PlayerSession`](super::PlayerSession) calls
    /// this.
    pub(crate) async fn send_resign(&mut self) -> Result<Req, SessionError> {
        let req = self.take_req();
        let msg = ClientMsg::Resign {
            battle_id: self.tracker.battle_id().to_owned(),
            req: Some(req),
        };
        self.send(&msg).await?;
        self.pending_act = Some(req);
        Ok(req)
    }

    /// Send one message; a failed send marks the connection as lost.
    async fn send(&mut self, msg: &ClientMsg) -> Result<(), SessionError> {
        let Some(conn) = self.conn.as_mut() else {
            return Err(SessionError::NotConnected);
        };
        if let Err(e) = conn.send(msg).await {
            let _ = self.lost(e.to_string());
            return Err(SessionError::Connection(e));
        }
        Ok(())
    }

    /// Ask the server for a fresh snapshot of the battle now; [`Event::Resynced`] follows
    /// when it has replaced the view.
    pub async fn resync(&mut self) -> Result<(), SessionError> {
        let req = self.take_req();
        let msg = ClientMsg::Resync {
            battle_id: self.tracker.battle_id().to_owned(),
            req: Some(req),
        };
        self.send(&msg).await?;
        self.pending_resync = Some(req);
        Ok(())
    }

    /// After the feed gave up (or the seat was taken over from another connection), start
    /// reconnecting again from the first try; `false` while connected or already retrying.
    pub fn retry_now(&mut self) -> bool {
        if !matches!(self.link, Link::Failed(_)) {
            return false;
        }
        self.retry = Some(Retry {
            attempt: 1,
            at: Instant::now(),
        });
        self.link = Link::Reconnecting {
            attempt: 1,
            of: self.policy.attempts.max(1),
        };
        true
    }

    /// Drop the connection as if the network had failed: the next [`BattleFeed::next_event`]
    /// starts reconnecting. For tests and for a "reconnect now" key.
    pub fn drop_connection(&mut self) -> Event {
        self.lost("connection dropped on purpose".to_owned())
    }

    fn take_req(&mut self) -> Req {
        let req = self.next_req;
        self.next_req += 1;
        req
    }

    /// The connection is gone: schedule the first reconnect try.
    fn lost(&mut self, why: String) -> Event {
        self.conn = None;
        self.pending_act = None;
        self.pending_resync = None;
        if self.policy.attempts == 0 {
            return self.fail(why);
        }
        self.retry = Some(Retry {
            attempt: 1,
            at: Instant::now() + self.policy.delay(1),
        });
        self.link = Link::Reconnecting {
            attempt: 1,
            of: self.policy.attempts,
        };
        Event::Link(self.link.clone())
    }

    fn fail(&mut self, why: String) -> Event {
        self.conn = None;
        self.retry = None;
        self.link = Link::Failed(why);
        Event::Link(self.link.clone())
    }

    /// One reconnect try (after its delay); never completes once the feed has failed.
    async fn reconnect_step(&mut self) -> Event {
        let Some(retry) = self.retry else {
            return std::future::pending().await;
        };
        tokio::time::sleep_until(retry.at).await;
        let timeout = self.policy.answer_timeout;
        // Each try goes to the next address: the one that dropped us may be gone for good
        // (a node of a cluster that died), and another one serves the same battle.
        self.at = self.servers.next(self.at);
        let url = self.servers.get(self.at);
        let attempt = async {
            let mut conn = connect(url, timeout).await?;
            let (tracker, entry, name) = (&mut self.tracker, &self.reentry, self.name.as_ref());
            enter(&mut conn, tracker, entry, name, &mut self.next_req, timeout).await?;
            Ok::<_, SessionError>(conn)
        };
        match attempt.await {
            Ok(conn) => {
                self.conn = Some(conn);
                self.retry = None;
                self.link = Link::Connected;
                Event::Link(Link::Connected)
            }
            Err(e) if !e.is_transient() => self.fail(e.to_string()),
            Err(e) if retry.attempt >= self.policy.attempts => {
                self.fail(format!("gave up after {} tries: {e}", retry.attempt))
            }
            Err(_) => {
                let attempt = retry.attempt + 1;
                self.retry = Some(Retry {
                    attempt,
                    at: Instant::now() + self.policy.delay(attempt),
                });
                self.link = Link::Reconnecting {
                    attempt,
                    of: self.policy.attempts,
                };
                Event::Link(self.link.clone())
            }
        }
    }

    /// Apply one message; `None` when it changed nothing worth reporting.
    async fn handle(&mut self, msg: ServerMsg) -> Option<Event> {
        match &msg {
            ServerMsg::Error {
                code, message, req, ..
            } => {
                if req.is_some() && *req == self.pending_act {
                    self.pending_act = None;
                }
                return Some(Event::Refused {
                    code: *code,
                    message: message.clone(),
                });
            }
            ServerMsg::Left {
                battle_id, reason, ..
            } if battle_id == self.tracker.battle_id() => {
                let why = match reason.as_str() {
                    "replaced" => "the seat was taken back from another connection".to_owned(),
                    "expired" => "the battle is gone from the server".to_owned(),
                    other => format!("left the battle ({other})"),
                };
                self.fail(why);
                return Some(Event::Left(reason.clone()));
            }
            _ => {}
        }
        match self.tracker.apply(&msg) {
            Ok(Applied::Ignored) => None,
            Ok(Applied::Snapshot { req, .. }) => {
                if req.is_some() && req == self.pending_act {
                    self.pending_act = None;
                }
                if req.is_some() && req == self.pending_resync {
                    self.pending_resync = None;
                    return Some(Event::Resynced);
                }
                Some(Event::Changed)
            }
            Ok(Applied::Patch { req, .. }) => {
                if req.is_some() && req == self.pending_act {
                    self.pending_act = None;
                }
                Some(Event::Changed)
            }
            Err(e) => {
                if self.pending_resync.is_some() {
                    // A resync is on its way; its snapshot will replace the view.
                    return None;
                }
                let req = self.take_req();
                let resync = ClientMsg::Resync {
                    battle_id: self.tracker.battle_id().to_owned(),
                    req: Some(req),
                };
                let conn = self.conn.as_mut()?;
                if let Err(send) = conn.send(&resync).await {
                    return Some(self.lost(send.to_string()));
                }
                self.pending_resync = Some(req);
                Some(Event::Resyncing(e.to_string()))
            }
        }
    }
}
