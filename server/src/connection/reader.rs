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
use crate::battle::{BattleHandle, Command};
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
            Some(Ok(Message::Text(text))) => router.route(&text).await,
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

    async fn route(&mut self, text: &str) {
        let msg = match decode(text) {
            Ok(msg) => msg,
            Err(error) => return self.reply(error),
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
            } => {
                self.enter(battle_id, req, Command::Join { from, seat, req })
                    .await
            }
            ClientMsg::Rejoin {
                battle_id,
                token,
                req,
            } => {
                self.enter(battle_id, req, Command::Rejoin { from, token, req })
                    .await
            }
            ClientMsg::Spectate { battle_id, req } => {
                self.enter(battle_id, req, Command::Spectate { from, req })
                    .await
            }
            ClientMsg::Act {
                battle_id,
                action,
                req,
            } => {
                self.within(battle_id, req, Command::Act { from, action, req })
                    .await;
            }
            ClientMsg::Resync { battle_id, req } => {
                self.within(battle_id, req, Command::Resync { from, req })
                    .await;
            }
            ClientMsg::Leave { battle_id, req } => {
                let left = self
                    .within(battle_id.clone(), req, Command::Leave { from, req })
                    .await;
                if left {
                    self.battles.remove(&battle_id);
                }
            }
        }
    }

    /// Send a command that makes this connection part of a battle.
    async fn enter(&mut self, battle_id: String, req: Option<u64>, command: Command) {
        let Some(handle) = self.lobby.handle(&battle_id) else {
            return self.no_such_battle(&battle_id, req);
        };
        if handle.send(command).await.is_ok() {
            self.battles.insert(battle_id, handle);
        } else {
            self.no_such_battle(&battle_id, req);
        }
    }

    /// Send a command to a battle this connection is part of; whether it was delivered.
    async fn within(&mut self, battle_id: String, req: Option<u64>, command: Command) -> bool {
        let handle = match self.battles.get(&battle_id) {
            Some(handle) => handle.clone(),
            None if self.lobby.handle(&battle_id).is_some() => {
                self.reply(ServerMsg::Error {
                    code: ErrorCode::NotInBattle,
                    message: "join, rejoin or spectate this battle first".into(),
                    battle_id: Some(battle_id),
                    req,
                });
                return false;
            }
            None => {
                self.no_such_battle(&battle_id, req);
                return false;
            }
        };
        if handle.send(command).await.is_ok() {
            true
        } else {
            self.battles.remove(&battle_id);
            self.no_such_battle(&battle_id, req);
            false
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
