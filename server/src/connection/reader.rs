//! The dumb reader: decodes each frame and routes it to the lobby or to a battle.

use std::collections::HashMap;
use std::sync::Arc;

use battle_protocol::{ClientMsg, ErrorCode, ServerMsg, PROTOCOL_VERSION};
use futures::stream::SplitStream;
use futures::StreamExt;
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

use super::decode::decode;
use super::outbox::Outbox;
use crate::battle::{BattleHandle, Command, Offered};
use crate::lobby::{CreateRequest, Lobby};

type Stream = SplitStream<WebSocketStream<TcpStream>>;

/// Read frames until the client leaves or the writer stops; then tell every battle this
/// connection was part of that it is gone.
pub async fn run(
    mut stream: Stream,
    outbox: Outbox,
    lobby: Arc<Lobby>,
    mut writer: JoinHandle<()>,
) {
    let mut router = Router {
        outbox,
        lobby,
        battles: HashMap::new(),
    };
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = &mut writer => break,
        };
        match frame {
            Some(Ok(Message::Text(text))) => {
                if let Some(blocked) = router.route(&text) {
                    // The battle's queue is full: wait for room (back-pressure on this client
                    // only), then finish routing.
                    // Boxed, so the rarely needed waiting state is not part of every
                    // connection's task.
                    let send = Box::pin(blocked.handle.send(blocked.command));
                    let delivered = send.await.is_ok();
                    router.delivered(blocked.then, delivered);
                }
            }
            Some(Ok(Message::Binary(_))) => {
                router.reply(ServerMsg::error(
                    ErrorCode::UnsupportedFrame,
                    "binary frames are not part of the protocol; send JSON text frames",
                    None,
                ));
            }
            Some(Ok(Message::Close(_))) | None => break,
            Some(Ok(_)) => {} // ping/pong are answered by the WebSocket layer
            Some(Err(WsError::Capacity(err))) => {
                // The WebSocket layer cannot carry on after an oversized frame: explain, then
                // close with 1009 ("message too big").
                router.reply(ServerMsg::error(
                    ErrorCode::UnsupportedFrame,
                    format!("frame refused: {err}; the connection closes"),
                    None,
                ));
                router.outbox.close(CloseCode::Size, "frame too large");
                let _ = (&mut writer).await;
                break;
            }
            Some(Err(err)) => {
                tracing::debug!(conn = router.outbox.id().0, %err, "read failed");
                break;
            }
        }
    }
    for handle in router.battles.values() {
        // A full battle queue must not keep a dead connection's reader alive; the battle
        // also notices the closed outbox on its next broadcast.
        let _ = handle.try_send(Command::Disconnected {
            from: router.outbox.clone(),
        });
    }
}

/// A command for a battle whose queue was full, to be sent once there is room.
struct Blocked {
    handle: BattleHandle,
    command: Command,
    then: Then,
}

/// What routing does once a command reached its battle (or found it gone).
enum Then {
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

struct Router {
    outbox: Outbox,
    lobby: Arc<Lobby>,
    /// Battles this connection joined or watches.
    battles: HashMap<String, BattleHandle>,
}

impl Router {
    fn reply(&self, msg: ServerMsg) {
        self.outbox.offer_msg(&msg);
    }

    /// Answer or forward one frame. Commands go to battles with `try_send`; `Some` when a
    /// battle's queue is full, for the caller to wait on and then report to
    /// [`Router::delivered`]. (Keeping the wait out of here keeps each connection's task
    /// small: a waiting send's state is large and almost never needed.)
    fn route(&mut self, text: &str) -> Option<Blocked> {
        let msg = match decode(text) {
            Ok(msg) => msg,
            Err(error) => {
                self.reply(error);
                return None;
            }
        };
        let from = self.outbox.clone();
        match msg {
            ClientMsg::Hello { protocol, req, .. } => {
                if protocol == PROTOCOL_VERSION {
                    self.reply(ServerMsg::Welcome {
                        server: concat!("battle-server ", env!("CARGO_PKG_VERSION")).to_string(),
                        protocol: PROTOCOL_VERSION,
                        rulesets: Lobby::rulesets(),
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
            ClientMsg::List { req } => self.reply(ServerMsg::Battles {
                battles: self.lobby.list(),
                req,
            }),
            ClientMsg::Create {
                ruleset,
                options,
                bots,
                private,
                pace_ms,
                req,
            } => {
                let request = CreateRequest {
                    ruleset,
                    options,
                    bots,
                    private,
                    pace_ms,
                };
                match self.lobby.create(request) {
                    Ok(battle_id) => self.reply(ServerMsg::Created { battle_id, req }),
                    Err((code, message)) => self.reply(ServerMsg::error(code, message, req)),
                }
            }
            ClientMsg::Join {
                battle_id,
                seat,
                req,
            } => return self.enter(battle_id, req, Command::Join { from, seat, req }),
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
            } => return self.within(battle_id, req, Command::Act { from, action, req }, false),
            ClientMsg::Resync { battle_id, req } => {
                return self.within(battle_id, req, Command::Resync { from, req }, false)
            }
            ClientMsg::Leave { battle_id, req } => {
                return self.within(battle_id, req, Command::Leave { from, req }, true)
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
            None if self.lobby.handle(&battle_id).is_some() => {
                self.reply(ServerMsg::Error {
                    code: ErrorCode::NotInBattle,
                    message: "join, rejoin or spectate this battle first".into(),
                    battle_id: Some(battle_id),
                    req,
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
    fn delivered(&mut self, then: Then, delivered: bool) {
        match (then, delivered) {
            (
                Then::Entered {
                    battle_id, handle, ..
                },
                true,
            ) => {
                self.battles.insert(battle_id, handle);
            }
            (
                Then::Within {
                    battle_id, leaving, ..
                },
                true,
            ) => {
                if leaving {
                    self.battles.remove(&battle_id);
                }
            }
            (Then::Entered { battle_id, req, .. }, false) => self.no_such_battle(&battle_id, req),
            (Then::Within { battle_id, req, .. }, false) => {
                self.battles.remove(&battle_id);
                self.no_such_battle(&battle_id, req);
            }
        }
    }

    fn no_such_battle(&self, battle_id: &str, req: Option<u64>) {
        self.reply(ServerMsg::Error {
            code: ErrorCode::NoSuchBattle,
            message: format!("no battle {battle_id:?} (it may have ended and expired)"),
            battle_id: Some(battle_id.to_string()),
            req,
        });
    }
}
