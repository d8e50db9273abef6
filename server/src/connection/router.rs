//! The reader's routing: each message a connection sent, answered on the spot (lobby
//! requests, refusals over the rate limits) or sent to its battle (through the battle's
//! handle, wherever it runs), and the battles the connection is part of.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use battle_protocol::{ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};
use tokio::time::Instant;
use tracing::Instrument;

use super::decode::decode;
use super::lobby_reads;
use super::outbox::Outbox;
use crate::battle::{BattleHandle, Command, Offered, Seating};
use crate::config::Rate;
use crate::lobby::{CreateRequest, Lobby, Placed};
use crate::matchmaker::QueueRequest;
use crate::quota::Creator;
use crate::rate::{retry_after_ms, Limits};
use crate::refusal::Refusal;

/// A command for a battle whose queue was full, to be sent once there is room.
pub(super) struct Blocked {
    pub(super) handle: BattleHandle,
    pub(super) command: Command,
    pub(super) then: Then,
}

/// A message over one of its rates: which, and how long until it has a token.
pub(super) struct Over {
    what: &'static str,
    rate: Rate,
    wait: Duration,
}

/// What routing does once a command reached its battle (or found it gone).
pub(super) enum Then {
    /// The connection joined, rejoined or watches: remember the battle.
    Entered {
        battle_id: String,
        req: Option<u64>,
        handle: BattleHandle,
    },
    /// A command within a battle; `leaving` forgets the battle.
    Within {
        battle_id: String,
        req: Option<u64>,
        leaving: bool,
    },
}

pub(super) struct Router {
    pub(super) outbox: Outbox,
    pub(super) lobby: Arc<Lobby>,
    /// Battles this connection joined or watches.
    pub(super) battles: HashMap<String, BattleHandle>,
    /// While in no battle: since when (the connection opened, left its last battle, or
    /// made its last request other than `ping`). `None` while in a battle.
    pub(super) idle_since: Option<Instant>,
    /// This connection's token buckets.
    pub(super) limits: Limits,
    /// This connection's open battles and its address.
    pub(super) creator: Creator,
    /// Refused too often: the connection is to be closed with 1008.
    pub(super) flooding: bool,
}

impl Router {
    pub(super) fn reply(&self, msg: ServerMsg) {
        self.outbox.offer_msg(&msg);
    }

    /// Take a token for one message: from the connection's bucket, then from its
    /// address's (shared by every connection from there).
    pub(super) fn take_message(&self) -> Result<(), Over> {
        self.limits.messages.take().map_err(|wait| Over {
            what: "messages",
            rate: self.limits.messages.rate(),
            wait,
        })?;
        self.creator.take_message().map_err(|wait| Over {
            what: "messages from your address",
            rate: self.creator.message_rate(),
            wait,
        })
    }

    /// Whether a message got its token (`taken`, see [`Router::take_message`]); without
    /// one, answer `rate_limited` for `msg`: nothing else is done.
    pub(super) fn admitted(&mut self, taken: Result<(), Over>, msg: Option<&ClientMsg>) -> bool {
        match taken {
            Ok(()) => true,
            Err(over) => {
                self.rate_limited(over.what, over.rate, over.wait, msg);
                false
            }
        }
    }

    /// Check the bucket of an expensive request (lobby reads, creates); without a token,
    /// answer `rate_limited` and return false.
    fn admit_request(&mut self, msg: &ClientMsg) -> bool {
        let (what, taken, rate) = match msg {
            ClientMsg::Hello { .. } | ClientMsg::List { .. } | ClientMsg::Replay { .. } => (
                "lobby requests (hello, list, replay)",
                self.limits.lobby.take(),
                self.limits.lobby.rate(),
            ),
            // A queue may create a battle: it is held to the create rates.
            ClientMsg::Create { .. } | ClientMsg::Queue { .. } => {
                match self.limits.creates.take() {
                    Ok(()) => (
                        "creates from your address",
                        self.creator.take_create(),
                        self.creator.create_rate(),
                    ),
                    Err(wait) => ("creates", Err(wait), self.limits.creates.rate()),
                }
            }
            _ => return true,
        };
        match taken {
            Ok(()) => true,
            Err(wait) => {
                self.rate_limited(what, rate, wait, Some(msg));
                false
            }
        }
    }

    /// Refuse `msg` (if it could be read) over `rate` with `rate_limited` and the time to
    /// wait, echoing its `req` and battle; a connection refused too often is flooding.
    fn rate_limited(&mut self, what: &str, rate: Rate, wait: Duration, msg: Option<&ClientMsg>) {
        let retry = retry_after_ms(wait);
        let mut refusal = ServerMsg::rate_limited(
            format!(
                "too many {what}: at most {} a second ({} at once); retry in {retry} ms",
                rate.per_sec, rate.burst
            ),
            retry,
            msg.and_then(ClientMsg::req),
        );
        if let ServerMsg::Error { battle_id, .. } = &mut refusal {
            *battle_id = msg.and_then(battle_of).map(str::to_string);
        }
        self.reply(refusal);
        self.flooding |= self.limits.refused();
    }

    /// Answer or forward one frame. Commands go to battles with `try_send`; `Some` when a
    /// battle's queue is full, for the caller to wait on and then report to
    /// [`Router::delivered`]. (Keeping the wait out of here keeps each connection's task
    /// small: a waiting send's state is large and almost never needed.)
    pub(super) fn route(&mut self, text: &str) -> Option<Blocked> {
        // Battles someone else put this connection in are routed to like its own.
        self.take_mail();
        // The token is taken first; the message is read even without one, for the refusal
        // to echo its `req`.
        let taken = self.take_message();
        let msg = match decode(text) {
            Ok(msg) => msg,
            Err(error) => {
                if self.admitted(taken, None) {
                    self.reply(error);
                }
                return None;
            }
        };
        if self.battles.is_empty() && !matches!(msg, ClientMsg::Ping { .. }) {
            // A request (a `ping` aside) keeps a connection in no battle from idling out.
            self.idle_since = Some(Instant::now());
        }
        if !self.admitted(taken, Some(&msg)) || !self.admit_request(&msg) {
            return None;
        }
        let from = self.outbox.clone();
        if self.lobby.is_draining() {
            self.reply(ServerMsg::error(
                ErrorCode::ServerBusy,
                "the server is shutting down; reconnect in a moment".to_string(),
                msg.req(),
            ));
            return None;
        }
        match msg {
            ClientMsg::Hello {
                protocol,
                name,
                req,
            } => {
                if protocol == PROTOCOL_VERSION {
                    // The seats this connection takes from now on are named by it.
                    let name = name.as_deref().and_then(battle_rules::words::clean_name);
                    self.outbox.set_name(name.as_deref());
                    self.reply(ServerMsg::Welcome {
                        server: concat!("battle-server ", env!("CARGO_PKG_VERSION")).to_string(),
                        protocol: PROTOCOL_VERSION,
                        rulesets: self.lobby.rulesets().to_vec(),
                        req,
                    });
                } else {
                    self.reply(ServerMsg::error(
                        ErrorCode::UnsupportedProtocol,
                        format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
                        req,
                    ));
                }
            }
            ClientMsg::Ping { req } => self.reply(ServerMsg::Pong { req }),
            ClientMsg::List {
                finished,
                limit,
                cursor,
                req,
            } => {
                // Cluster-wide, or with the finished battles: read off this task.
                if finished && cursor.is_none() || self.lobby.cluster().is_some() {
                    let (lobby, outbox) = (self.lobby.clone(), self.outbox.clone());
                    let read = lobby_reads::list(lobby, outbox, cursor, limit, finished, req);
                    tokio::spawn(read.in_current_span());
                    return None;
                }
                let msg = match self.lobby.list(cursor.as_deref(), limit) {
                    Ok(page) => lobby_reads::battles(page, None, req),
                    Err(Refusal { code, message }) => ServerMsg::error(code, message, req),
                };
                self.reply(msg);
            }
            ClientMsg::Replay { battle_id, req } => {
                let (lobby, outbox) = (self.lobby.clone(), self.outbox.clone());
                let read = lobby_reads::replay(lobby, outbox, battle_id, req);
                tokio::spawn(read.in_current_span());
            }
            ClientMsg::Create {
                ruleset,
                options,
                bots,
                private,
                pace_ms,
                grace_ms,
                seed,
                spectator_delay_ms,
                timer,
                req,
            } => {
                let request = CreateRequest {
                    spectator_delay_ms,
                    ruleset,
                    options,
                    bots,
                    private,
                    pace_ms,
                    grace_ms,
                    seed,
                    timer,
                };
                match self.lobby.place(&request, &self.outbox, req) {
                    Placed::Here => {}
                    Placed::Elsewhere => return None,
                    Placed::Refused(Refusal { code, message }) => {
                        self.reply(ServerMsg::error(code, message, req));
                        return None;
                    }
                }
                match self.lobby.create(request, &self.creator) {
                    Ok((battle_id, ticket)) => {
                        // Sent once the battle is committed: a crash cannot lose a battle
                        // its creator was told about.
                        self.outbox
                            .offer_msg_at(&ServerMsg::Created { battle_id, req }, ticket);
                    }
                    Err(Refusal { code, message }) => {
                        self.reply(ServerMsg::error(code, message, req))
                    }
                }
            }
            ClientMsg::Join {
                battle_id,
                seat,
                setup,
                req,
            } => {
                let join = Command::Join {
                    name: from.name(),
                    from,
                    seat,
                    setup,
                    req,
                    answer: Seating::Joined,
                };
                return self.enter(battle_id, req, join);
            }
            ClientMsg::Rejoin {
                battle_id,
                token,
                req,
            } => return self.enter(battle_id, req, Command::Rejoin { from, token, req }),
            ClientMsg::Spectate { battle_id, req } => {
                return self.enter(battle_id, req, Command::Spectate { from, req })
            }
            ClientMsg::Act {
                battle_id,
                action,
                req,
            } => {
                let act = Command::Act {
                    from,
                    action,
                    req,
                    received: Instant::now(),
                };
                return self.within(battle_id, req, act, false);
            }
            ClientMsg::Resync { battle_id, req } => {
                return self.within(battle_id, req, Command::Resync { from, req }, false)
            }
            ClientMsg::Resign { battle_id, req } => {
                return self.within(battle_id, req, Command::Resign { from, req }, false)
            }
            ClientMsg::Leave { battle_id, req } => {
                return self.within(battle_id, req, Command::Leave { from, req }, true)
            }
            ClientMsg::Queue {
                ruleset,
                options,
                sample,
                setup,
                bot_after_ms,
                req,
            } => {
                let request = QueueRequest {
                    ruleset,
                    options,
                    sample,
                    setup,
                    bot_after_ms,
                };
                let matchmaker = self.lobby.matchmaker();
                if let Err(Refusal { code, message }) =
                    matchmaker.queue(self.lobby.config(), request, from, req)
                {
                    self.reply(ServerMsg::error(code, message, req));
                }
            }
            ClientMsg::Unqueue { req } => {
                if let Err(Refusal { code, message }) = self.lobby.matchmaker().unqueue(from, req) {
                    self.reply(ServerMsg::error(code, message, req));
                }
            }
        }
        None
    }

    /// Send a command that makes this connection part of a battle.
    fn enter(&mut self, battle_id: String, req: Option<u64>, command: Command) -> Option<Blocked> {
        let Some(handle) = self.lobby.handle(&battle_id) else {
            self.no_such_battle(&battle_id, req);
            return None;
        };
        let then = Then::Entered {
            battle_id,
            req,
            handle: handle.clone(),
        };
        self.offer(handle, command, then)
    }

    /// Send a command to a battle this connection is part of; `leaving` forgets the battle
    /// once the command is delivered.
    fn within(
        &mut self,
        battle_id: String,
        req: Option<u64>,
        command: Command,
        leaving: bool,
    ) -> Option<Blocked> {
        let handle = match self.battles.get(&battle_id) {
            Some(handle) => handle.clone(),
            None if self.lobby.knows(&battle_id) => {
                self.reply(ServerMsg::Error {
                    code: ErrorCode::NotInBattle,
                    message: "join, rejoin or spectate this battle first".into(),
                    battle_id: Some(battle_id),
                    req,
                    retry_after_ms: None,
                });
                return None;
            }
            None => {
                self.no_such_battle(&battle_id, req);
                return None;
            }
        };
        self.offer(
            handle,
            command,
            Then::Within {
                battle_id,
                req,
                leaving,
            },
        )
    }

    /// Queue `command` if the battle has room; otherwise hand it back to wait on.
    fn offer(&mut self, handle: BattleHandle, command: Command, then: Then) -> Option<Blocked> {
        match handle.try_offer(command) {
            Ok(()) => {
                self.delivered(then, true);
                None
            }
            Err(Offered::Gone) => {
                self.delivered(then, false);
                None
            }
            Err(Offered::Full(command)) => Some(Blocked {
                handle,
                command,
                then,
            }),
        }
    }

    /// Finish routing a command once it was delivered to its battle, or found it gone.
    pub(super) fn delivered(&mut self, then: Then, delivered: bool) {
        match (then, delivered) {
            (
                Then::Entered {
                    battle_id, handle, ..
                },
                true,
            ) => {
                self.battles.insert(battle_id, handle);
                self.idle_since = None;
            }
            (
                Then::Within {
                    battle_id, leaving, ..
                },
                true,
            ) => {
                if leaving {
                    self.forget(&battle_id);
                }
            }
            (Then::Entered { battle_id, req, .. }, false) => self.no_such_battle(&battle_id, req),
            (Then::Within { battle_id, req, .. }, false) => {
                self.forget(&battle_id);
                self.no_such_battle(&battle_id, req);
            }
        }
    }

    /// Forget a battle this connection left (or that went away); in no battle any more, it
    /// starts to idle.
    fn forget(&mut self, battle_id: &str) {
        if self.battles.remove(battle_id).is_some() && self.battles.is_empty() {
            self.idle_since = Some(Instant::now());
        }
    }

    /// Learn of the battles someone else (the matchmaker) made this connection part of:
    /// from now on they are routed to, and told when the connection closes. With nothing
    /// posted, one relaxed load.
    #[inline]
    pub(super) fn take_mail(&mut self) {
        let entered = self.outbox.mailbox().take();
        if entered.is_empty() {
            return;
        }
        for entered in entered {
            self.battles.insert(entered.battle_id, entered.handle);
        }
        self.idle_since = None;
    }

    /// A connection in no battle that waits in the matchmaker's queue is in use: its idle
    /// time starts again at every look while it waits (so from about when it stops waiting).
    pub(super) fn waiting_in_queue(&mut self, now: Instant) {
        if self.idle_since.is_some() && self.outbox.mailbox().is_queued() {
            self.idle_since = Some(now);
        }
    }

    /// Forget the battles that ended and went away (their actors are gone) since the last
    /// look; in no battle any more, the connection starts to idle at `now`.
    pub(super) fn forget_ended_battles(&mut self, now: Instant) {
        if self.battles.is_empty() {
            return;
        }
        self.battles.retain(|_, handle| !handle.is_closed());
        if self.battles.is_empty() {
            self.idle_since = Some(now);
        }
    }

    fn no_such_battle(&self, battle_id: &str, req: Option<u64>) {
        self.reply(ServerMsg::Error {
            code: ErrorCode::NoSuchBattle,
            message: format!("no battle {battle_id:?} (it may have ended and expired)"),
            battle_id: Some(battle_id.to_string()),
            req,
            retry_after_ms: None,
        });
    }
}

/// The battle a message names, if it names one.
fn battle_of(msg: &ClientMsg) -> Option<&str> {
    match msg {
        ClientMsg::Join { battle_id, .. }
        | ClientMsg::Rejoin { battle_id, .. }
        | ClientMsg::Spectate { battle_id, .. }
        | ClientMsg::Act { battle_id, .. }
        | ClientMsg::Resync { battle_id, .. }
        | ClientMsg::Resign { battle_id, .. }
        | ClientMsg::Leave { battle_id, .. }
        | ClientMsg::Replay { battle_id, .. } => Some(battle_id),
        ClientMsg::Hello { .. }
        | ClientMsg::List { .. }
        | ClientMsg::Create { .. }
        | ClientMsg::Queue { .. }
        | ClientMsg::Unqueue { .. }
        | ClientMsg::Ping { .. } => None,
    }
}
