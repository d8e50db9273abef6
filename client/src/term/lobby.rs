//! The lobby requests a terminal client makes outside any battle: list the open battles and
//! create a new one. Each uses a short connection of its own.

use std::time::Duration;

use battle_protocol::{BattleStatus, BattleSummary, ClientMsg, ServerMsg};
use serde_json::{json, Value};

use super::feed::connect;
use super::SessionError;
use crate::Connection;

/// How long a lobby request may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// Who sits opposite the creator of a new battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// The server plays the other seat (for synergy: the Training Automaton).
    Bot,
    /// Another person joins the other seat.
    Person,
}

/// What to create.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleSpec {
    /// A ruleset id the server offers, e.g. `synergy`.
    pub ruleset: String,
    /// Bot or person on the other seat.
    pub opponent: Opponent,
    /// Card ids for the creator's deck (synergy only); empty means the default deck.
    pub deck: Vec<String>,
    /// Delay before each bot move; `None` leaves it to the server.
    pub pace_ms: Option<u64>,
    /// Hide the battle from `list`.
    pub private: bool,
}

impl BattleSpec {
    /// The `create` message for this spec. Synergy has its own options (`mode`, `deck`);
    /// for other rulesets a bot opponent takes seat 1.
    pub fn to_create(&self, req: u64) -> ClientMsg {
        let (options, bots) = if self.ruleset == "synergy" {
            let mode = match self.opponent {
                Opponent::Bot => "pve",
                Opponent::Person => "pvp",
            };
            let mut options = json!({ "mode": mode });
            if !self.deck.is_empty() {
                options["deck"] = Value::from(self.deck.clone());
            }
            (Some(options), Vec::new())
        } else {
            let bots = match self.opponent {
                Opponent::Bot => vec![1],
                Opponent::Person => Vec::new(),
            };
            (None, bots)
        };
        ClientMsg::Create {
            ruleset: self.ruleset.clone(),
            options,
            bots,
            private: self.private,
            pace_ms: self.pace_ms,
            req: Some(req),
        }
    }
}

/// Create a battle; returns its id.
pub async fn create(url: &str, spec: &BattleSpec) -> Result<String, SessionError> {
    let mut conn = connect(url, ANSWER_TIMEOUT).await?;
    let answer = request(&mut conn, spec.to_create(1), 1).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    match answer? {
        ServerMsg::Created { battle_id, .. } => Ok(battle_id),
        other => Err(SessionError::Unexpected(format!("{other:?}"))),
    }
}

/// The server's public battles.
pub async fn list(url: &str) -> Result<Vec<BattleSummary>, SessionError> {
    let mut conn = connect(url, ANSWER_TIMEOUT).await?;
    let answer = request(&mut conn, ClientMsg::List { req: Some(1) }, 1).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    match answer? {
        ServerMsg::Battles { battles, .. } => Ok(battles),
        other => Err(SessionError::Unexpected(format!("{other:?}"))),
    }
}

/// Send `msg` and return the answer carrying `req` (an `error` becomes `Refused`).
async fn request(
    conn: &mut Connection,
    msg: ClientMsg,
    req: u64,
) -> Result<ServerMsg, SessionError> {
    conn.send(&msg).await?;
    let deadline = tokio::time::Instant::now() + ANSWER_TIMEOUT;
    loop {
        let msg = match tokio::time::timeout_at(deadline, conn.recv()).await {
            Ok(msg) => msg?,
            Err(_) => return Err(crate::ClientError::Timeout(ANSWER_TIMEOUT).into()),
        };
        match msg {
            ServerMsg::Error {
                code,
                message,
                req: Some(r),
                ..
            } if r == req => return Err(SessionError::Refused { code, message }),
            ServerMsg::Created { req: Some(r), .. } | ServerMsg::Battles { req: Some(r), .. }
                if r == req =>
            {
                return Ok(msg)
            }
            _ => {}
        }
    }
}

/// The battles as an aligned text table, one line per battle under a header; a single
/// sentence when there are none.
pub fn battles_table(battles: &[BattleSummary]) -> String {
    if battles.is_empty() {
        return "No open battles. Start one with: battle-client play --vs-bot\n".to_owned();
    }
    let mut out = format!(
        "{:<12} {:<10} {:<9} {:<24} {}\n",
        "BATTLE", "RULESET", "STATUS", "SEATS", "SPECTATORS"
    );
    for b in battles {
        let status = match b.status {
            BattleStatus::Waiting => "waiting",
            BattleStatus::Playing => "playing",
            BattleStatus::Finished => "finished",
        };
        let seats: Vec<String> = b
            .seats
            .iter()
            .map(|s| {
                let who = if s.bot {
                    "bot"
                } else if !s.taken {
                    "free"
                } else if s.connected {
                    "player"
                } else {
                    "away"
                };
                format!("{}:{who}", s.seat)
            })
            .collect();
        out.push_str(&format!(
            "{:<12} {:<10} {:<9} {:<24} {}\n",
            b.battle_id,
            b.ruleset,
            status,
            seats.join(" "),
            b.spectators
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::SeatInfo;

    #[test]
    fn synergy_spec_uses_mode_and_deck() {
        let spec = BattleSpec {
            ruleset: "synergy".into(),
            opponent: Opponent::Person,
            deck: vec!["C001".into(); 5],
            pace_ms: Some(0),
            private: false,
        };
        let v = serde_json::to_value(spec.to_create(3)).expect("serializable");
        assert_eq!(v["options"]["mode"], "pvp");
        assert_eq!(v["options"]["deck"][4], "C001");
        assert_eq!(v["pace_ms"], 0);
        assert!(v.get("bots").is_none());
    }

    #[test]
    fn table_lists_seats() {
        let b = BattleSummary {
            battle_id: "abc".into(),
            ruleset: "synergy".into(),
            status: BattleStatus::Waiting,
            seats: vec![
                SeatInfo {
                    seat: 0,
                    taken: false,
                    bot: false,
                    connected: false,
                },
                SeatInfo {
                    seat: 1,
                    taken: true,
                    bot: true,
                    connected: true,
                },
            ],
            spectators: 2,
        };
        let table = battles_table(&[b]);
        assert!(
            table.contains("abc          synergy    waiting   0:free 1:bot"),
            "{table}"
        );
        assert!(battles_table(&[]).starts_with("No open battles"));
    }
}
