//! The seats of one battle: who holds each, by which secret token, and over which connection.
//!
//! A seat keeps only its token's hash (SHA-256): the store saves the same hash, so a
//! restored battle knows its players by their tokens without any token ever being written.

use battle_protocol::{ErrorCode, Seat, SeatInfo};
use battle_rules::words::Names;
use rand::Rng;
use serde_json::Value;
use sha2::{Digest, Sha256};

use tokio::time::Instant;

use crate::connection::outbox::Outbox;
use crate::ids::ConnId;
use crate::refusal::Refusal;
use crate::store::SavedSeat;

/// A seat token's hash, as seats and the store keep it: lowercase hex SHA-256.
pub fn token_hash(token: &str) -> String {
    use std::fmt::Write;
    let digest = Sha256::digest(token.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        // Writing into a String cannot fail.
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// One seat.
#[derive(Debug, Default)]
struct Slot {
    /// Played by the server.
    bot: bool,
    /// The hash of the holder's secret token; `None` while the seat is free (always `None`
    /// for bots).
    token: Option<String>,
    /// The holder's connection while it is attached.
    conn: Option<Outbox>,
    /// What the holder brought with `join`, kept until the battle starts.
    setup: Option<Value>,
    /// Since when a person's seat has had no connection (it was held before).
    gone_since: Option<Instant>,
    /// The name its holder gave in `hello`.
    name: Option<String>,
    /// The ruleset's name for an engine seat.
    bot_name: Option<&'static str>,
}

impl Slot {
    /// The seat as `list` shows it, named `name`.
    fn info(&self, seat: Seat, name: Option<String>) -> SeatInfo {
        SeatInfo {
            seat,
            taken: self.bot || self.token.is_some(),
            bot: self.bot,
            connected: self.bot || self.conn.is_some(),
            name,
        }
    }
}

/// Every seat of a battle.
#[derive(Debug)]
pub struct Seats {
    slots: Vec<Slot>,
}

/// A refused seat request: the code and the sentence for the client.
pub type SeatRefusal = Refusal;

impl Seats {
    /// `count` seats, of which `bots` are played by the server.
    pub fn new(count: usize, bots: &[Seat]) -> Seats {
        let slots = (0..count)
            .map(|seat| Slot {
                bot: bots.contains(&seat),
                ..Slot::default()
            })
            .collect();
        Seats { slots }
    }

    /// Seats as the store saved them: `count` seats, `bots` played by the server, and the
    /// seats people held (with the setups they brought, while the battle had not started).
    pub fn restored(count: usize, bots: &[Seat], held: &[SavedSeat]) -> Seats {
        let mut seats = Seats::new(count, bots);
        let now = Instant::now();
        for saved in held {
            if let Some(slot) = seats.slots.get_mut(saved.seat) {
                slot.token = Some(saved.token_hash.clone());
                // Nobody is connected after a restart: the grace starts now.
                slot.gone_since = Some(now);
                slot.setup = saved
                    .setup
                    .as_deref()
                    .and_then(|text| serde_json::from_str(text).ok());
            }
        }
        seats
    }

    /// The token hash of `seat`, if a person holds it.
    pub fn token_hash(&self, seat: Seat) -> Option<&str> {
        self.slots.get(seat).and_then(|slot| slot.token.as_deref())
    }

    /// Whether the server plays `seat`.
    pub fn is_bot(&self, seat: Seat) -> bool {
        self.slots.get(seat).is_some_and(|slot| slot.bot)
    }

    /// Hand out `wanted` (or the first free person's seat) with a fresh 128-bit token.
    pub fn take(&mut self, wanted: Option<Seat>) -> Result<(Seat, String), SeatRefusal> {
        let seat = match wanted {
            Some(seat) => {
                let Some(slot) = self.slots.get(seat) else {
                    return Err(Refusal::new(
                        ErrorCode::BadSeat,
                        format!("this battle has seats 0 to {}", self.slots.len() - 1),
                    ));
                };
                if slot.bot {
                    return Err(Refusal::new(
                        ErrorCode::BadSeat,
                        format!("seat {seat} is played by the server"),
                    ));
                }
                if slot.token.is_some() {
                    return Err(Refusal::new(
                        ErrorCode::SeatTaken,
                        format!("seat {seat} is already taken"),
                    ));
                }
                seat
            }
            None => self
                .slots
                .iter()
                .position(|slot| !slot.bot && slot.token.is_none())
                .ok_or_else(|| Refusal::new(ErrorCode::NoFreeSeat, "every seat is taken"))?,
        };
        let token = format!("{:032x}", rand::rng().random::<u128>());
        self.slots[seat].token = Some(token_hash(&token));
        Ok((seat, token))
    }

    /// Give a seat back (only while the battle waits for players), with its setup and name.
    pub fn release(&mut self, seat: Seat) {
        if let Some(slot) = self.slots.get_mut(seat) {
            slot.token = None;
            slot.conn = None;
            slot.setup = None;
            slot.gone_since = None;
            slot.name = None;
        }
    }

    /// Name `seat` after its holder's `hello` name (`None`: it gave none).
    pub fn set_name(&mut self, seat: Seat, name: Option<String>) {
        if let Some(slot) = self.slots.get_mut(seat) {
            slot.name = name;
        }
    }

    /// Name engine seat `seat` as the ruleset does (shown in `list`, never recorded: the
    /// ruleset names it again itself).
    pub fn set_bot_name(&mut self, seat: Seat, name: &'static str) {
        if let Some(slot) = self.slots.get_mut(seat) {
            slot.bot_name = Some(name);
        }
    }

    /// The name `seat`'s holder gave, if any.
    pub fn name(&self, seat: Seat) -> Option<&str> {
        self.slots.get(seat).and_then(|slot| slot.name.as_deref())
    }

    /// Keep what the holder of `seat` brought, until the battle starts.
    pub fn keep_setup(&mut self, seat: Seat, setup: Option<Value>) {
        if let Some(slot) = self.slots.get_mut(seat) {
            slot.setup = setup;
        }
    }

    /// Hand over what the holder of `seat` brought (once: the battle starts with it).
    pub fn take_setup(&mut self, seat: Seat) -> Option<Value> {
        self.slots.get_mut(seat).and_then(|slot| slot.setup.take())
    }

    /// The connection attached to `seat`, if any.
    pub fn conn(&self, seat: Seat) -> Option<&Outbox> {
        self.slots.get(seat).and_then(|slot| slot.conn.as_ref())
    }

    /// How many seats there are.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// The seat this token belongs to, its hash compared without early exit.
    pub fn find_token(&self, token: &str) -> Option<Seat> {
        let hash = token_hash(token);
        self.slots.iter().position(|slot| {
            slot.token
                .as_deref()
                .is_some_and(|held| constant_time_eq(held.as_bytes(), hash.as_bytes()))
        })
    }

    /// Attach `conn` to `seat`, returning the connection it replaces.
    pub fn attach(&mut self, seat: Seat, conn: Outbox) -> Option<Outbox> {
        let slot = self.slots.get_mut(seat)?;
        slot.gone_since = None;
        slot.conn.replace(conn)
    }

    /// Whether the server plays `seat` now: a bot's seat, or a person's whose connection has
    /// been gone for `grace` or longer (until it comes back).
    pub fn covered(&self, seat: Seat, now: Instant, grace: std::time::Duration) -> bool {
        self.slots.get(seat).is_some_and(|slot| {
            slot.bot || slot.gone_since.is_some_and(|since| since + grace <= now)
        })
    }

    /// When the server starts playing `seat` if its holder stays away (`None`: it is
    /// connected, free, or a bot's).
    pub fn covered_from(&self, seat: Seat, grace: std::time::Duration) -> Option<Instant> {
        self.slots
            .get(seat)
            .and_then(|slot| slot.gone_since)
            .map(|since| since + grace)
    }

    /// The seat `conn` is attached to.
    pub fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.slots
            .iter()
            .position(|slot| slot.conn.as_ref().is_some_and(|c| c.id() == conn))
    }

    /// Detach `conn` from its seat (the seat stays held), returning the seat; the seat's
    /// grace time starts.
    pub fn detach(&mut self, conn: ConnId) -> Option<Seat> {
        let seat = self.seat_of(conn)?;
        self.slots[seat].conn = None;
        self.slots[seat].gone_since = Some(Instant::now());
        Some(seat)
    }

    /// Every seat held by a person or a bot.
    pub fn all_filled(&self) -> bool {
        self.slots
            .iter()
            .all(|slot| slot.bot || slot.token.is_some())
    }

    /// Whether any person's connection is attached.
    pub fn any_connected(&self) -> bool {
        self.slots.iter().any(|slot| slot.conn.is_some())
    }

    /// The seats as shown by `list`, each named as the battle's texts name it when it was
    /// given a name (see [`Names`]).
    pub fn infos(&self) -> Vec<SeatInfo> {
        let names = self.names();
        self.slots
            .iter()
            .enumerate()
            .map(|(seat, slot)| slot.info(seat, Self::shown_name(names.as_ref(), seat)))
            .collect()
    }

    /// Whether `infos` still describes the seats (without building them again: the actor
    /// asks after every command; names are resolved only when some seat has one).
    pub fn shown_as(&self, infos: &[SeatInfo]) -> bool {
        let names = self.names();
        infos.len() == self.slots.len()
            && self
                .slots
                .iter()
                .zip(infos)
                .enumerate()
                .all(|(seat, (slot, info))| {
                    info.taken == (slot.bot || slot.token.is_some())
                        && info.bot == slot.bot
                        && info.connected == (slot.bot || slot.conn.is_some())
                        && info.name == Self::shown_name(names.as_ref(), seat)
                })
    }

    /// The seats' names as the battle's texts give them, when some seat was named.
    fn names(&self) -> Option<Names> {
        let given = |slot: &Slot| slot.name.clone().or(slot.bot_name.map(str::to_owned));
        self.slots
            .iter()
            .any(|slot| slot.name.is_some() || slot.bot_name.is_some())
            .then(|| Names::new(self.slots.iter().map(given).collect()))
    }

    /// The name `list` shows for `seat`: its name in `names` if it was given one.
    fn shown_name(names: Option<&Names>, seat: Seat) -> Option<String> {
        names
            .filter(|names| names.given(seat).is_some())
            .map(|names| names.of(seat))
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_assigns_free_person_seats_in_order() {
        let mut seats = Seats::new(3, &[1]);
        let (first, token) = seats.take(None).expect("seat 0 is free");
        assert_eq!(first, 0);
        assert_eq!(token.len(), 32);
        assert_eq!(seats.take(None).expect("seat 2 is free").0, 2);
        assert_eq!(seats.take(None).unwrap_err().code, ErrorCode::NoFreeSeat);
        assert!(seats.all_filled());
    }

    #[test]
    fn take_refuses_taken_bot_and_missing_seats() {
        let mut seats = Seats::new(2, &[1]);
        seats.take(Some(0)).expect("seat 0 is free");
        assert_eq!(seats.take(Some(0)).unwrap_err().code, ErrorCode::SeatTaken);
        assert_eq!(seats.take(Some(1)).unwrap_err().code, ErrorCode::BadSeat);
        assert_eq!(seats.take(Some(7)).unwrap_err().code, ErrorCode::BadSeat);
    }

    #[test]
    fn tokens_find_their_seat_only() {
        let mut seats = Seats::new(2, &[]);
        let (_, t0) = seats.take(None).expect("free");
        let (_, t1) = seats.take(None).expect("free");
        assert_ne!(t0, t1);
        assert_eq!(seats.find_token(&t1), Some(1));
        assert_eq!(seats.find_token("nope"), None);
        assert_eq!(seats.find_token(&t0[..31]), None);
    }

    #[test]
    fn seats_keep_token_hashes_and_restored_seats_know_their_tokens() {
        let mut seats = Seats::new(2, &[]);
        let (seat, token) = seats.take(None).expect("free");
        let hash = seats.token_hash(seat).expect("held").to_owned();
        assert_eq!(hash, token_hash(&token));
        assert_ne!(hash, token, "the token itself is not kept");
        assert_eq!(hash.len(), 64);
        let saved = [SavedSeat {
            seat: 1,
            token_hash: hash,
            setup: Some("{\"deck\":[\"C001\"]}".into()),
        }];
        let mut restored = Seats::restored(2, &[], &saved);
        assert_eq!(restored.find_token(&token), Some(1));
        assert_eq!(
            restored.take_setup(1),
            Some(serde_json::json!({"deck": ["C001"]}))
        );
        assert!(!restored.all_filled(), "seat 0 is still free");
    }

    #[test]
    fn a_seat_gone_past_its_grace_is_played_by_the_server_until_it_comes_back() {
        let grace = std::time::Duration::from_secs(60);
        let mut seats = Seats::new(2, &[1]);
        seats.take(Some(0)).expect("free");
        let (conn, _tap) = Outbox::detached(4);
        seats.attach(0, conn.clone());
        let now = Instant::now();
        assert!(seats.covered(1, now, grace), "a bot's seat");
        assert!(!seats.covered(0, now, grace), "connected");
        assert_eq!(seats.covered_from(0, grace), None);
        seats.detach(conn.id());
        let from = seats.covered_from(0, grace).expect("gone");
        assert!(!seats.covered(0, from - std::time::Duration::from_millis(1), grace));
        assert!(seats.covered(0, from, grace), "after the grace");
        let (back, _tap) = Outbox::detached(4);
        seats.attach(0, back);
        assert!(
            !seats.covered(0, from, grace),
            "back: the person plays again"
        );
    }

    #[test]
    fn seats_are_listed_by_the_names_the_battle_gives_them() {
        let mut seats = Seats::new(3, &[2]);
        assert!(seats.infos().iter().all(|info| info.name.is_none()));
        seats.set_bot_name(2, "Training Automaton");
        seats.take(Some(0)).expect("free");
        seats.set_name(0, Some("ada".into()));
        let infos = seats.infos();
        let names: Vec<Option<&str>> = infos.iter().map(|i| i.name.as_deref()).collect();
        assert_eq!(names, [Some("ada"), None, Some("Training Automaton")]);
        assert!(seats.shown_as(&infos));
        seats.take(Some(1)).expect("free");
        seats.set_name(1, Some("Ada".into()));
        assert!(!seats.shown_as(&infos), "a new name is a change");
        let names: Vec<Option<String>> = seats.infos().into_iter().map(|i| i.name).collect();
        assert_eq!(
            names,
            [
                Some("ada (Player 1)".to_owned()),
                Some("Ada (Player 2)".to_owned()),
                Some("Training Automaton".to_owned())
            ],
            "two seats never read alike"
        );
        assert_eq!(seats.name(1), Some("Ada"), "what the input log records");
        seats.release(1);
        assert_eq!(seats.name(1), None);
        assert_eq!(seats.infos()[0].name.as_deref(), Some("ada"));
    }

    #[test]
    fn attach_detach_and_replace() {
        let mut seats = Seats::new(2, &[]);
        seats.take(Some(0)).expect("free");
        let (a, _rx_a) = Outbox::detached(4);
        let (b, _rx_b) = Outbox::detached(4);
        assert!(seats.attach(0, a.clone()).is_none());
        assert_eq!(seats.seat_of(a.id()), Some(0));
        let old = seats.attach(0, b.clone()).expect("a was attached");
        assert_eq!(old.id(), a.id());
        assert_eq!(seats.seat_of(a.id()), None);
        assert_eq!(seats.detach(b.id()), Some(0));
        assert!(!seats.any_connected());
        assert!(seats.infos()[0].taken && !seats.infos()[0].connected);
    }
}
