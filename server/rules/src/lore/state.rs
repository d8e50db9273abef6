//! The whole game and its flow: both sides' zones (deck, hand, discard, inkwell; the cards
//! in play), the bag, whose turn it is, and the turn's steps (spec "Turn Structure Flow",
//! "Setup System", "Game State Checks"): the shuffle, the opening hands and the mulligans,
//! the Beginning phase (Ready, Set, Draw), the Main phase, the End of Turn phase, and the
//! game state checks run after every step, action and resolution. The moves are in
//! `moves.rs`, the bag in `bag.rs`.

use battle_protocol::Seat;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ruleset::{Outcome, OutcomeReason};
use crate::words::{self, Names};

use super::bag::Pending;
use super::cards::{Card, Kind, When};

/// Cards in an opening hand (spec).
pub const OPENING_HAND: usize = 7;
/// Lore that wins the game (spec).
pub const WIN_LORE: u32 = 20;

/// A card in a deck, hand, discard or inkwell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// Its instance id (unique in the battle).
    pub id: u32,
    /// Its card.
    pub card: &'static Card,
}

/// How long a modifier lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// "This turn": ends in the End of Turn phase.
    ThisTurn,
    /// "Until the start of your next turn": ends in that seat's Ready step.
    StartOfTurn(Seat),
}

/// A temporary change to a card in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modifier {
    /// Strength added.
    pub strength: u32,
    /// Willpower added.
    pub willpower: u32,
    /// When it ends.
    pub until: Until,
}

/// A character, item or location in play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InPlay {
    /// Its instance id.
    pub id: u32,
    /// Its card.
    pub card: &'static Card,
    /// Who owns it.
    pub owner: Seat,
    /// Exerted (turned sideways) rather than ready.
    pub exerted: bool,
    /// A character played since its owner's last Set step: it can neither quest nor challenge.
    pub drying: bool,
    /// Damage counters on it.
    pub damage: u32,
    /// Temporary changes.
    pub mods: Vec<Modifier>,
}

impl InPlay {
    /// Whether it is a character.
    pub fn is_character(&self) -> bool {
        matches!(self.card.kind, Kind::Character { .. })
    }

    /// Its strength now (characters; 0 for others).
    pub fn strength(&self) -> u32 {
        let base = match self.card.kind {
            Kind::Character { strength, .. } => strength,
            _ => 0,
        };
        base + self.mods.iter().map(|m| m.strength).sum::<u32>()
    }

    /// Its willpower now (characters and locations).
    pub fn willpower(&self) -> Option<u32> {
        let base = match self.card.kind {
            Kind::Character { willpower, .. } | Kind::Location { willpower, .. } => willpower,
            Kind::Action(_) | Kind::Item => return None,
        };
        Some(base + self.mods.iter().map(|m| m.willpower).sum::<u32>())
    }

    /// Willpower it has left before it is banished (0 for what has no willpower).
    pub fn health_left(&self) -> u32 {
        self.willpower().unwrap_or(0).saturating_sub(self.damage)
    }

    /// The lore it gains by questing (a character) or each Set step (a location).
    pub fn lore(&self) -> u32 {
        match self.card.kind {
            Kind::Character { lore, .. } | Kind::Location { lore, .. } => lore,
            Kind::Action(_) | Kind::Item => 0,
        }
    }

    /// A ready, dry character: it may quest or challenge.
    pub fn can_act(&self) -> bool {
        self.is_character() && !self.exerted && !self.drying
    }
}

/// One player's side.
#[derive(Debug, Clone)]
pub struct Side {
    /// Draw pile, top last.
    pub deck: Vec<Held>,
    /// Hand.
    pub hand: Vec<Held>,
    /// Discard pile, newest last.
    pub discard: Vec<Held>,
    /// The inkwell's facedown cards.
    pub inkwell: Vec<Held>,
    /// How many of them are ready.
    pub ink_ready: u32,
    /// Lore.
    pub lore: u32,
    /// A card went into the inkwell this turn.
    pub inked: bool,
    /// The mulligan is done.
    pub mulliganed: bool,
    /// Tried to draw from an empty deck since the last game state check.
    pub drew_from_empty: bool,
    /// Own turns begun so far.
    pub turns: u32,
}

/// Where the game is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The players alter their hands, the starting player first.
    Mulligan,
    /// Beginning phase, Set step: its triggers are in the bag; the Draw step comes next.
    Set,
    /// Main phase: the active player's moves.
    Main,
    /// End of Turn phase: its triggers are in the bag; "this turn" effects end next.
    End,
    /// The game is over.
    Over,
}

/// A lore game.
#[derive(Debug, Clone)]
pub struct Lore {
    pub(super) sides: [Side; 2],
    /// Cards in play, both players', in the order they came into play.
    pub(super) play: Vec<InPlay>,
    /// Triggered abilities waiting to resolve, in the order they triggered.
    pub(super) bag: Vec<Pending>,
    pub(super) phase: Phase,
    pub(super) active: Seat,
    pub(super) first: Seat,
    /// Turns begun in the game (1 is the starting player's first).
    pub(super) turn: u32,
    pub(super) rng: ChaCha8Rng,
    pub(super) next_id: u32,
    pub(super) log: Vec<String>,
    pub(super) finish: Option<Outcome>,
    /// How the log names the seats.
    pub(super) names: Names,
}

impl Lore {
    /// What the log calls `seat`: its name.
    pub(super) fn player(&self, seat: Seat) -> String {
        self.names.of(seat)
    }

    /// What the log calls a card in play: "Ana's Ember Knight".
    pub(super) fn called(&self, card: &InPlay) -> String {
        words::owned(&self.names.of(card.owner), card.card.name)
    }

    /// A new game with these decks (in list order): each shuffled with the battle's seeded
    /// generator, the starting player chosen at random and announced, 7 cards each, lore at
    /// 0; the starting player alters its hand first.
    pub fn new(decks: [Vec<&'static Card>; 2], seed: u64, names: Names) -> Lore {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut next_id = 1;
        let sides = decks.map(|cards| {
            let mut deck: Vec<Held> = cards
                .into_iter()
                .map(|card| {
                    let held = Held { id: next_id, card };
                    next_id += 1;
                    held
                })
                .collect();
            deck.shuffle(&mut rng);
            Side {
                deck,
                hand: Vec::new(),
                discard: Vec::new(),
                inkwell: Vec::new(),
                ink_ready: 0,
                lore: 0,
                inked: false,
                mulliganed: false,
                drew_from_empty: false,
                turns: 0,
            }
        });
        let first = rng.random_range(0..2);
        let mut game = Lore {
            sides,
            play: Vec::new(),
            bag: Vec::new(),
            phase: Phase::Mulligan,
            active: first,
            first,
            turn: 0,
            rng,
            next_id,
            log: vec![format!(
                "{} is chosen at random to go first. {} and {} draw {OPENING_HAND} cards each.",
                names.of(first),
                names.of(0),
                names.of(1)
            )],
            finish: None,
            names,
        };
        for seat in [first, 1 - first] {
            game.draw(seat, OPENING_HAND);
        }
        game
    }

    /// The seats whose decision the game awaits: the mulliganing player; the player who
    /// chooses the bag's next resolution; else the active player in the Main phase.
    pub fn awaited(&self) -> Vec<Seat> {
        match self.phase {
            Phase::Over => Vec::new(),
            Phase::Mulligan => vec![self.mulligan_seat()],
            _ if !self.bag.is_empty() => vec![self.chooser()],
            Phase::Main => vec![self.active],
            // Set and End wait only while the bag holds triggers.
            Phase::Set | Phase::End => Vec::new(),
        }
    }

    /// Who alters its hand now: the starting player, then the other.
    pub(super) fn mulligan_seat(&self) -> Seat {
        if self.sides[self.first].mulliganed {
            1 - self.first
        } else {
            self.first
        }
    }

    /// `seat` puts `back` on the bottom of its deck (in that order, the first deepest),
    /// draws back to 7, then shuffles its deck if it put any back. After both, the starting
    /// player's first turn begins.
    pub(super) fn mulligan(&mut self, seat: Seat, back: &[u32]) {
        let side = &mut self.sides[seat];
        let mut returned = Vec::with_capacity(back.len());
        for id in back {
            if let Some(i) = side.hand.iter().position(|h| h.id == *id) {
                returned.push(side.hand.remove(i));
            }
        }
        returned.reverse();
        side.deck.splice(0..0, returned);
        side.mulliganed = true;
        self.draw(seat, back.len());
        if !back.is_empty() {
            self.sides[seat].deck.shuffle(&mut self.rng);
        }
        self.log.push(if back.is_empty() {
            format!("{} keeps the opening hand.", self.player(seat))
        } else {
            format!(
                "{} puts {} on the bottom of the deck, draws as many and shuffles.",
                self.player(seat),
                words::count(back.len() as u32, "card")
            )
        });
        if self.sides.iter().all(|s| s.mulliganed) {
            self.begin_turn(self.first);
        }
    }

    /// Draw `n` cards for `seat` (top of the deck); drawing from an empty deck is marked for
    /// the next game state check.
    pub(super) fn draw(&mut self, seat: Seat, n: usize) {
        let side = &mut self.sides[seat];
        for _ in 0..n {
            match side.deck.pop() {
                Some(card) => side.hand.push(card),
                None => side.drew_from_empty = true,
            }
        }
    }

    /// A new turn for `seat`: the Beginning phase's Ready step (ready every card and the
    /// ink; "until the start of your next turn" effects end) and Set step (characters are
    /// dry; lore from locations; start-of-turn triggers into the bag), with a game state
    /// check after each. The Draw step follows once the bag is empty (`run`).
    pub(super) fn begin_turn(&mut self, seat: Seat) {
        self.active = seat;
        self.turn += 1;
        let side = &mut self.sides[seat];
        side.turns += 1;
        side.inked = false;
        let ink = self.sides[seat].inkwell.len();
        self.log.push(format!(
            "Turn {}: {}'s turn; {} ink ready.",
            self.turn,
            self.player(seat),
            ink
        ));
        // Ready step.
        self.sides[seat].ink_ready = self.sides[seat].inkwell.len() as u32;
        for card in self.play.iter_mut() {
            if card.owner == seat {
                card.exerted = false;
            }
            card.mods.retain(|m| m.until != Until::StartOfTurn(seat));
        }
        self.check();
        if self.finish.is_some() {
            return;
        }
        // Set step.
        let mut gained = 0;
        for card in self.play.iter_mut().filter(|c| c.owner == seat) {
            card.drying = false;
            if matches!(card.card.kind, Kind::Location { .. }) {
                gained += card.lore();
            }
        }
        if gained > 0 {
            let before = self.sides[seat].lore;
            self.sides[seat].lore += gained;
            self.log.push(format!(
                "{}'s locations: {} for {}.",
                self.player(seat),
                words::gain(i64::from(before), i64::from(before + gained), "lore"),
                self.player(seat)
            ));
        }
        let sources: Vec<(u32, &'static Card)> = self
            .play
            .iter()
            .filter(|c| c.owner == seat)
            .map(|c| (c.id, c.card))
            .collect();
        for (id, card) in sources {
            self.trigger(seat, id, card, When::StartOfTurn);
        }
        self.phase = Phase::Set;
        self.check();
    }

    /// The Draw step: the active player draws 1, except on the game's first turn.
    fn draw_step(&mut self) {
        if self.turn > 1 {
            self.draw(self.active, 1);
        }
    }

    /// Pass turn: the End of Turn phase begins; end-of-turn triggers go into the bag.
    pub(super) fn end_turn(&mut self) {
        let seat = self.active;
        self.log
            .push(format!("{} passes the turn.", self.player(seat)));
        self.phase = Phase::End;
        let sources: Vec<(u32, &'static Card)> = self
            .play
            .iter()
            .filter(|c| c.owner == seat)
            .map(|c| (c.id, c.card))
            .collect();
        for (id, card) in sources {
            self.trigger(seat, id, card, When::EndOfTurn);
        }
    }

    /// Moves the game on as far as it goes without a decision: after the Set step's bag,
    /// the Draw step and the Main phase; after the End of Turn phase's bag, "this turn"
    /// effects end and the next player's turn begins. Stops while the bag holds triggers.
    pub(super) fn run(&mut self) {
        loop {
            if self.finish.is_some() {
                self.phase = Phase::Over;
                return;
            }
            if !self.bag.is_empty() {
                return;
            }
            match self.phase {
                Phase::Set => {
                    self.draw_step();
                    self.phase = Phase::Main;
                    self.check();
                }
                Phase::End => {
                    for card in self.play.iter_mut() {
                        card.mods.retain(|m| m.until != Until::ThisTurn);
                    }
                    self.check();
                    if self.finish.is_none() && self.bag.is_empty() {
                        self.begin_turn(1 - self.active);
                    }
                }
                Phase::Mulligan | Phase::Main | Phase::Over => return,
            }
        }
    }

    /// The game state check (spec): characters and locations with damage at or above their
    /// willpower are banished (their triggers go into the bag); a player at 20 lore wins; a
    /// player who drew from an empty deck loses.
    pub(super) fn check(&mut self) {
        if self.finish.is_some() {
            return;
        }
        let doomed: Vec<u32> = self
            .play
            .iter()
            .filter(|c| c.willpower().is_some_and(|w| c.damage >= w))
            .map(|c| c.id)
            .collect();
        if !doomed.is_empty() {
            self.banish(&doomed);
        }
        let won = [0, 1].map(|s| self.sides[s].lore >= WIN_LORE);
        let lost = [0, 1].map(|s| self.sides[s].drew_from_empty);
        let end = match (won, lost) {
            ([true, true], _) => Some(Outcome::new(
                Vec::new(),
                OutcomeReason::Score,
                "Both players end the game at once: a draw.",
            )),
            ([false, false], [true, true]) => Some(Outcome::new(
                Vec::new(),
                OutcomeReason::Limit,
                "Both players end the game at once: a draw.",
            )),
            ([true, false], _) | ([false, true], _) => {
                let w = usize::from(won[1]);
                Some(Outcome::new(
                    vec![w],
                    OutcomeReason::Score,
                    format!(
                        "{} wins with {} lore to {}'s {}.",
                        self.player(w),
                        self.sides[w].lore,
                        self.player(1 - w),
                        self.sides[1 - w].lore
                    ),
                ))
            }
            (_, [true, false]) | (_, [false, true]) => {
                let w = usize::from(lost[0]);
                Some(Outcome::new(
                    vec![w],
                    OutcomeReason::Limit,
                    format!(
                        "{} wins: {} had to draw from an empty deck.",
                        self.player(w),
                        self.player(1 - w)
                    ),
                ))
            }
            ([false, false], [false, false]) => None,
        };
        if let Some(outcome) = end {
            self.log.push(outcome.summary.clone());
            self.phase = Phase::Over;
            self.finish = Some(outcome);
        }
    }

    /// Banish these cards at once: each goes to its owner's discard; its "when banished"
    /// triggers, and the "whenever another of your characters is banished" triggers of its
    /// owner's cards in play before the banishment (those banished with it included), go
    /// into the bag.
    fn banish(&mut self, ids: &[u32]) {
        let watchers: Vec<(Seat, u32, &'static Card)> =
            self.play.iter().map(|c| (c.owner, c.id, c.card)).collect();
        for id in ids {
            let Some(i) = self.play.iter().position(|c| c.id == *id) else {
                continue;
            };
            let gone = self.play.remove(i);
            self.log.push(format!(
                "{} is banished ({} damage, {} willpower).",
                self.called(&gone),
                gone.damage,
                gone.willpower().unwrap_or(0)
            ));
            self.sides[gone.owner].discard.push(Held {
                id: gone.id,
                card: gone.card,
            });
            self.trigger(gone.owner, gone.id, gone.card, When::Banished);
            if gone.is_character() {
                for &(owner, wid, card) in &watchers {
                    if owner == gone.owner && wid != gone.id {
                        self.trigger(owner, wid, card, When::OtherCharacterBanished);
                    }
                }
            }
        }
    }

    /// A fresh instance id.
    pub(super) fn fresh_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// The card in play with this id.
    pub(super) fn in_play(&self, id: u32) -> Option<&InPlay> {
        self.play.iter().find(|c| c.id == id)
    }

    /// The card in play with this id, to change.
    pub(super) fn in_play_mut(&mut self, id: u32) -> Option<&mut InPlay> {
        self.play.iter_mut().find(|c| c.id == id)
    }
}
