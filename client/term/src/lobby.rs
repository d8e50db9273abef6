//! The lobby requests a terminal client makes outside any battle: list the open battles (and
//! the recently finished ones), create a new one, fetch a finished one's replay. Each uses a
//! short connection of its own; a listing follows `list`'s pages on it to the last one (or
//! to as many battles as asked for).

use std::time::Duration;

use battle_protocol::{
    BattleStatus, BattleSummary, ClientMsg, FinishedSummary, Replay, RulesetInfo, Seat, ServerMsg,
};
use serde_json::{json, Value};

use super::entry::connect;
use super::SessionError;
use battle_client::{samples, Connection};

/// How long a lobby request may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// Who sits opposite the creator of a new battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// The server plays the other seats: the ruleset's engine where a sample has one (for
    /// synergy, the Training Automaton), else the server's bots.
    Bot,
    /// People join the other seats.
    Person,
    /// The server plays every seat (its engine and its bots); the creator only watches.
    Bots,
}

/// What to create.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleSpec {
    /// A ruleset id the server offers, e.g. `synergy`.
    pub ruleset: String,
    /// Bots or people on the other seats.
    pub opponent: Opponent,
    /// The ruleset's sample to create, by name; `None` picks one for `opponent`.
    pub sample: Option<String>,
    /// `create` options replacing the sample's.
    pub options: Option<Value>,
    /// Delay before each bot move; `None` leaves it to the server.
    pub pace_ms: Option<u64>,
    /// Hide the battle from `list`.
    pub private: bool,
}

/// What a spec makes of a ruleset the server offers: the sample, the options and bots sent in
/// `create`, and the seats people play (the creator takes the first).
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The sample's name.
    pub sample: String,
    /// The options sent.
    pub options: Value,
    /// The seats the server's bots play (besides the ruleset's engine seats).
    pub bots: Vec<Seat>,
    /// The seats left to people, the creator's first.
    pub people: Vec<Seat>,
}

impl BattleSpec {
    /// Plan the battle from `ruleset` as the server lists it in `welcome`: the named sample,
    /// or for a bot opponent the first sample with an engine seat (the server's bots take the
    /// people's seats but the creator's when none has one), for people the first sample that
    /// leaves at least two seats to people.
    pub fn plan(&self, ruleset: &RulesetInfo) -> Result<Plan, String> {
        let sample = match (&self.sample, self.opponent) {
            (Some(name), _) => samples::named(ruleset, name)?,
            (None, Opponent::Bot | Opponent::Bots) => samples::against_bot(ruleset)
                .ok_or_else(|| format!("{} lists no sample", ruleset.id))?,
            (None, Opponent::Person) => samples::between_people(ruleset).ok_or_else(|| {
                format!(
                    "{} has no sample for two people; choose one with --sample",
                    ruleset.id
                )
            })?,
        };
        let people = samples::people_seats(sample);
        let bots = match self.opponent {
            Opponent::Bot => people.iter().skip(1).copied().collect(),
            Opponent::Bots => people.clone(),
            Opponent::Person => Vec::new(),
        };
        let people = match self.opponent {
            Opponent::Bot => people.into_iter().take(1).collect(),
            Opponent::Bots => Vec::new(),
            Opponent::Person => people,
        };
        Ok(Plan {
            sample: sample.name.clone(),
            options: self
                .options
                .clone()
                .unwrap_or_else(|| sample.options.clone()),
            bots,
            people,
        })
    }

    /// The `create` message for `plan`.
    pub fn to_create(&self, plan: &Plan, req: u64) -> ClientMsg {
        ClientMsg::Create {
            ruleset: self.ruleset.clone(),
            options: Some(plan.options.clone()),
            bots: plan.bots.clone(),
            private: self.private,
            pace_ms: self.pace_ms,
            grace_ms: None,
            seed: None,
            spectator_delay_ms: None,
            timer: None,
            req: Some(req),
        }
    }
}

/// Create a battle as `spec` says, from the rulesets the server offers; returns its id and
/// the plan it was made from.
pub async fn create(url: &str, spec: &BattleSpec) -> Result<(String, Plan), SessionError> {
    let rulesets = samples::welcome(url).await?;
    let ruleset = samples::ruleset(&rulesets, &spec.ruleset).map_err(SessionError::Invalid)?;
    let plan = spec.plan(ruleset).map_err(SessionError::Invalid)?;
    let mut conn = connect(url, ANSWER_TIMEOUT).await?;
    let answer = request(&mut conn, spec.to_create(&plan, 1), 1).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    match answer? {
        ServerMsg::Created { battle_id, .. } => Ok((battle_id, plan)),
        other => Err(SessionError::Unexpected(format!("{other:?}"))),
    }
}

/// The join setup from `--deck` (a deck of card ids) or `--setup` (any JSON), not both.
pub fn setup_from(deck: &[String], setup: Option<&str>) -> Result<Option<Value>, String> {
    match (deck.is_empty(), setup) {
        (true, None) => Ok(None),
        (false, None) => Ok(Some(json!({ "deck": deck }))),
        (true, Some(text)) => serde_json::from_str(text)
            .map(Some)
            .map_err(|err| format!("--setup is not JSON: {err}")),
        (false, Some(_)) => Err("give --deck or --setup, not both".to_owned()),
    }
}

/// Most pages one listing asks for: far more than a server holds (200 battles a page), so
/// only a server that never gives a last page stops it.
const MAX_PAGES: usize = 10_000;

/// What a listing found.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing {
    /// The public battles, oldest first (at most as many as asked for).
    pub battles: Vec<BattleSummary>,
    /// How many public battles the server had when the last page was read.
    pub total: usize,
    /// The recently finished battles, newest first, when asked for (`None` from a server
    /// that did not send them).
    pub finished: Option<Vec<FinishedSummary>>,
}

/// The server's public battles, every page of them.
pub async fn list(url: &str) -> Result<Vec<BattleSummary>, SessionError> {
    Ok(list_battles(url, false, None).await?.battles)
}

/// The server's public battles (every page) and its recently finished ones, newest first
/// (`None` from a server that did not send them).
pub async fn list_with_finished(
    url: &str,
) -> Result<(Vec<BattleSummary>, Option<Vec<FinishedSummary>>), SessionError> {
    let listing = list_battles(url, true, None).await?;
    Ok((listing.battles, listing.finished))
}

/// The server's public battles, page after page on one connection until the last page or
/// until `most` battles are read; with `finished`, the recently finished ones too (they come
/// with the first page).
pub async fn list_battles(
    url: &str,
    finished: bool,
    most: Option<usize>,
) -> Result<Listing, SessionError> {
    let mut conn = connect(url, ANSWER_TIMEOUT).await?;
    let listing = follow_pages(&mut conn, finished, most).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    listing
}

async fn follow_pages(
    conn: &mut Connection,
    finished: bool,
    most: Option<usize>,
) -> Result<Listing, SessionError> {
    let most = most.unwrap_or(usize::MAX);
    let mut listing = Listing {
        battles: Vec::new(),
        total: 0,
        finished: None,
    };
    let mut cursor: Option<String> = None;
    for page in 1..=MAX_PAGES {
        let req = page as u64;
        let left = most.saturating_sub(listing.battles.len());
        let limit = u32::try_from(left)
            .unwrap_or(u32::MAX)
            .clamp(1, ClientMsg::LIST_LIMIT_MAX);
        let msg = ClientMsg::List {
            finished: finished && cursor.is_none(),
            limit: Some(limit),
            cursor: cursor.clone(),
            req: Some(req),
        };
        let (battles, total, next_cursor, recent) = match request(conn, msg, req).await? {
            ServerMsg::Battles {
                battles,
                total,
                next_cursor,
                finished,
                ..
            } => (battles, total, next_cursor, finished),
            other => return Err(SessionError::Unexpected(format!("{other:?}"))),
        };
        listing.battles.extend(battles);
        listing.total = total;
        if cursor.is_none() {
            listing.finished = recent;
        }
        listing.battles.truncate(most);
        match next_cursor {
            Some(next) if listing.battles.len() < most && Some(&next) != cursor.as_ref() => {
                cursor = Some(next);
            }
            _ => break,
        }
    }
    Ok(listing)
}

/// A finished battle's replay. A battle the server does not keep (expired, or never there)
/// is refused with `no_such_battle`, one still being played with `not_finished`.
pub async fn replay(url: &str, battle_id: &str) -> Result<Replay, SessionError> {
    let msg = ClientMsg::Replay {
        battle_id: battle_id.to_owned(),
        req: Some(1),
    };
    match one_request(url, msg).await? {
        ServerMsg::Replay { replay, .. } => Ok(*replay),
        other => Err(SessionError::Unexpected(format!("{other:?}"))),
    }
}

/// Connect, send `msg` (with `req` 1), return its answer and close.
async fn one_request(url: &str, msg: ClientMsg) -> Result<ServerMsg, SessionError> {
    let mut conn = connect(url, ANSWER_TIMEOUT).await?;
    let answer = request(&mut conn, msg, 1).await;
    let _ = tokio::time::timeout(Duration::from_secs(1), conn.close()).await;
    answer
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
            Err(_) => return Err(battle_client::ClientError::Timeout(ANSWER_TIMEOUT).into()),
        };
        match msg {
            ServerMsg::Error {
                code,
                message,
                req: Some(r),
                ..
            } if r == req => return Err(SessionError::Refused { code, message }),
            ServerMsg::Created { req: Some(r), .. }
            | ServerMsg::Battles { req: Some(r), .. }
            | ServerMsg::Replay { req: Some(r), .. }
                if r == req =>
            {
                return Ok(msg)
            }
            _ => {}
        }
    }
}

/// The rulesets a server offers, each with its samples (and the battle each makes), as text.
pub fn rulesets_table(rulesets: &[RulesetInfo]) -> String {
    let mut out = String::new();
    for r in rulesets {
        let seats = if r.min_seats == r.max_seats {
            r.min_seats.to_string()
        } else {
            format!("{} to {}", r.min_seats, r.max_seats)
        };
        out.push_str(&format!(
            "{} (version {}, {seats} seats)\n  {}\n",
            r.id, r.version, r.summary
        ));
        for s in &r.samples {
            let engine = if s.engine_seats.is_empty() {
                String::new()
            } else {
                let seats: Vec<String> = s.engine_seats.iter().map(Seat::to_string).collect();
                format!(", the server plays seat {}", seats.join(", "))
            };
            out.push_str(&format!(
                "  --sample {:<8} {} ({} seats{engine}) options {}\n",
                s.name, s.about, s.seats, s.options
            ));
        }
    }
    out
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

/// The line under a listing cut short by a limit: how many more battles the server has;
/// empty when every battle is shown.
pub fn more_line(listing: &Listing) -> String {
    let shown = listing.battles.len();
    if shown == 0 || listing.total <= shown {
        return String::new();
    }
    format!(
        "... and {} more ({} open battles in all; `battle-client list` without --limit shows \
         every one)\n",
        listing.total - shown,
        listing.total
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use battle_protocol::SeatInfo;

    fn ruleset(samples: Vec<(&str, usize, Vec<Seat>)>) -> RulesetInfo {
        RulesetInfo {
            id: "game".into(),
            version: 1,
            summary: String::new(),
            min_seats: 1,
            max_seats: 3,
            samples: samples
                .into_iter()
                .map(|(name, seats, engine_seats)| battle_protocol::SampleInfo {
                    name: name.into(),
                    about: String::new(),
                    options: json!({ "sample": name }),
                    seats,
                    engine_seats,
                })
                .collect(),
        }
    }

    fn spec(opponent: Opponent, sample: Option<&str>) -> BattleSpec {
        BattleSpec {
            ruleset: "game".into(),
            opponent,
            sample: sample.map(Into::into),
            options: None,
            pace_ms: Some(0),
            private: false,
        }
    }

    #[test]
    fn plans_follow_the_samples_the_server_lists() {
        let synergy = ruleset(vec![("pve", 2, vec![1]), ("pvp", 2, vec![])]);
        let plan = spec(Opponent::Bot, None).plan(&synergy).expect("a sample");
        assert_eq!(
            (plan.sample.as_str(), plan.bots.clone(), plan.people.clone()),
            ("pve", vec![], vec![0])
        );
        let plan = spec(Opponent::Person, None)
            .plan(&synergy)
            .expect("a sample");
        assert_eq!(
            (plan.sample.as_str(), plan.people.clone()),
            ("pvp", vec![0, 1])
        );
        let v = serde_json::to_value(spec(Opponent::Person, None).to_create(&plan, 3))
            .expect("serializable");
        assert_eq!(v["options"], json!({"sample": "pvp"}));
        assert_eq!(v["pace_ms"], 0);
        assert!(v.get("bots").is_none());
        // Without an engine seat, the server's bots take the other seats.
        let duel = ruleset(vec![("duel", 3, vec![])]);
        let plan = spec(Opponent::Bot, None).plan(&duel).expect("a sample");
        assert_eq!((plan.bots, plan.people), (vec![1, 2], vec![0]));
        let solo = ruleset(vec![("solo", 1, vec![])]);
        assert!(spec(Opponent::Person, None).plan(&solo).is_err());
        let err = spec(Opponent::Bot, Some("nope"))
            .plan(&solo)
            .expect_err("unknown");
        assert!(err.contains("its samples are solo"), "{err}");
        let mut custom = spec(Opponent::Bot, Some("solo"));
        custom.options = Some(json!({"rounds": 2}));
        assert_eq!(
            custom.plan(&solo).expect("a sample").options,
            json!({"rounds": 2})
        );
    }

    #[test]
    fn setups_come_from_a_deck_or_json() {
        assert_eq!(setup_from(&[], None), Ok(None));
        let deck = vec!["C001".to_string(); 5];
        assert_eq!(setup_from(&deck, None), Ok(Some(json!({"deck": deck}))));
        assert_eq!(
            setup_from(&[], Some(r#"{"hand": [1, 2]}"#)),
            Ok(Some(json!({"hand": [1, 2]})))
        );
        assert!(setup_from(&[], Some("{oops")).is_err());
        assert!(setup_from(&deck, Some("{}")).is_err());
    }

    #[test]
    fn table_lists_seats() {
        let b = BattleSummary {
            seeded: false,
            node: None,
            battle_id: "abc".into(),
            ruleset: "synergy".into(),
            status: BattleStatus::Waiting,
            seats: vec![
                SeatInfo {
                    seat: 0,
                    taken: false,
                    bot: false,
                    connected: false,
                    name: None,
                },
                SeatInfo {
                    seat: 1,
                    taken: true,
                    bot: true,
                    connected: true,
                    name: None,
                },
            ],
            spectators: 2,
        };
        let table = battles_table(std::slice::from_ref(&b));
        assert!(
            table.contains("abc          synergy    waiting   0:free 1:bot"),
            "{table}"
        );
        assert!(battles_table(&[]).starts_with("No open battles"));
        let mut listing = Listing {
            battles: vec![b],
            total: 1,
            finished: None,
        };
        assert_eq!(more_line(&listing), "", "everything is shown");
        listing.total = 250;
        assert!(
            more_line(&listing).starts_with("... and 249 more (250 open battles in all;"),
            "{}",
            more_line(&listing)
        );
    }
}
