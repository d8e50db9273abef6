//! The whole battle: both sides (hero, deck, hand, discard, upgrades), the minions in play,
//! the market, the round and whose turn it is, and the flow of a game: the die roll and the
//! winner's choice of who goes first, the simultaneous mulligan, upkeep, the main phase and
//! combat, the end phase, and the end. Actions are checked and applied in `play.rs`.

use std::collections::BTreeMap;

use battle_protocol::Seat;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ruleset::{Outcome, OutcomeReason};
use crate::words::{self, Names};

use super::cards::{AbilitySlot, Card};
use super::classes::{deck_of, Class};
use super::combat::Minion;
use super::hero::Hero;
use super::items::Effect as ItemEffect;
use super::market::Market;

/// Opening hand (spec); the second player draws one more.
pub const OPENING_HAND: usize = 4;
/// Most cards a mulligan puts back (spec).
pub const MULLIGAN_MAX: usize = 3;
/// The game is called a draw after this many rounds (decision: a bound for endless games).
pub const ROUND_LIMIT: u32 = 40;

/// A card instance in a deck, hand or discard pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// Its instance id (unique in the battle).
    pub id: u32,
    /// Its card.
    pub card: &'static Card,
}

/// One player's side.
#[derive(Debug, Clone)]
pub struct Side {
    /// The hero.
    pub hero: Hero,
    /// Draw pile, top last.
    pub deck: Vec<Held>,
    /// Hand.
    pub hand: Vec<Held>,
    /// Discard pile, newest last.
    pub discard: Vec<Held>,
    /// Upgrades on the hero power, Attack and Defensive Ability slots.
    pub upgrades: [Option<&'static Card>; 3],
    /// Spells cast this turn (for Channeled).
    pub spells_this_turn: u32,
    /// Its own turns started so far.
    pub turns: u32,
    /// Mulligan done.
    pub mulliganed: bool,
    /// The once-per-game active relic was used.
    pub relic_used: bool,
    /// Cards drawn so far (the log says how many each action drew).
    pub drawn: u32,
}

/// The index of an ability slot in [`Side::upgrades`].
pub fn ability_index(slot: AbilitySlot) -> usize {
    match slot {
        AbilitySlot::HeroPower => 0,
        AbilitySlot::Attack => 1,
        AbilitySlot::Defense => 2,
    }
}

/// A combat in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Combat {
    /// The attacking minions, in declaration order.
    pub attackers: Vec<u32>,
    /// Declared blocks (blocker, attacker), once the defender has declared.
    pub blocks: Option<Vec<(u32, u32)>>,
    /// Damage plans of attackers with several blockers, once given.
    pub plans: BTreeMap<u32, (Vec<u32>, Vec<u32>)>,
    /// The defender has been asked about its Defensive Ability.
    pub defended: bool,
}

/// Where the game is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// The die roll's winner chooses who goes first.
    Choosing(Seat),
    /// Both players choose what to put back, at the same time.
    Mulligan,
    /// The active player acts.
    Main,
    /// Attackers are declared: the defender blocks, then the attacker orders gangs, then
    /// the defender may use its Defensive Ability.
    Combat(Combat),
    /// A spell, Attack or relic is about to hit the defending hero, who may answer one hit
    /// with its Defensive Ability first (the hits wait in `Heroes::pending`).
    Incoming,
    /// The game is over.
    Over,
}

/// A heroes game.
#[derive(Debug, Clone)]
pub struct Heroes {
    pub(super) sides: [Side; 2],
    pub(super) minions: Vec<Minion>,
    /// Which card each minion in play is.
    pub(super) minion_cards: BTreeMap<u32, &'static Card>,
    pub(super) market: Market,
    /// Round (a round is both players' turns).
    pub(super) round: u32,
    pub(super) active: Seat,
    pub(super) first: Seat,
    pub(super) phase: Phase,
    pub(super) rng: ChaCha8Rng,
    pub(super) next_id: u32,
    pub(super) log: Vec<String>,
    /// The rolls of the die for first player.
    pub(super) rolls: [u32; 2],
    pub(super) finish: Option<Outcome>,
    /// Hits on the defending hero waiting for its answer (phase `Incoming`).
    pub(super) pending: Vec<u32>,
    /// How the log names the seats.
    pub(super) names: Names,
}

impl Heroes {
    /// A new game for these classes with their ready decks.
    pub fn new(classes: [&'static Class; 2], seed: u64) -> Heroes {
        Heroes::with_decks(classes, [None, None], seed, Names::defaults(2))
    }

    /// A new game for these classes and decks (`None`: the class's ready deck): decks
    /// shuffled, the die rolled (ties rolled again), the winner about to choose who goes
    /// first.
    pub fn with_decks(
        classes: [&'static Class; 2],
        decks: [Option<Vec<&'static Card>>; 2],
        seed: u64,
        names: Names,
    ) -> Heroes {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut next_id = 1;
        let mut decks = decks.into_iter();
        let mut sides = classes.map(|class| {
            let cards: Vec<&'static Card> = decks.next().flatten().unwrap_or_else(|| {
                deck_of(class)
                    .into_iter()
                    .filter_map(super::cards::find)
                    .collect()
            });
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
                hero: Hero::new(class, 1),
                deck,
                hand: Vec::new(),
                discard: Vec::new(),
                upgrades: [None; 3],
                spells_this_turn: 0,
                turns: 0,
                mulliganed: false,
                relic_used: false,
                drawn: 0,
            }
        });
        let rolls = loop {
            let rolls = [rng.random_range(1..=20), rng.random_range(1..=20)];
            if rolls[0] != rolls[1] {
                break rolls;
            }
        };
        let winner = usize::from(rolls[1] > rolls[0]);
        let market = Market::new(&mut rng);
        for side in &mut sides {
            side.hero.mana = 0;
            side.hero.max_mana = 0;
        }
        Heroes {
            sides,
            minions: Vec::new(),
            minion_cards: BTreeMap::new(),
            market,
            round: 1,
            active: winner,
            first: winner,
            phase: Phase::Choosing(winner),
            rng,
            next_id,
            log: vec![format!(
                "{} ({}) against {} ({}). The die: {} rolls {}, {} rolls {}: {} chooses who \
                 goes first.",
                names.of(0),
                classes[0].name,
                names.of(1),
                classes[1].name,
                names.of(0),
                rolls[0],
                names.of(1),
                rolls[1],
                names.of(winner)
            )],
            rolls,
            finish: None,
            pending: Vec::new(),
            names,
        }
    }

    /// The seats whose decision the game awaits.
    pub fn awaited(&self) -> Vec<Seat> {
        match &self.phase {
            Phase::Choosing(seat) => vec![*seat],
            Phase::Mulligan => (0..2).filter(|&s| !self.sides[s].mulliganed).collect(),
            Phase::Main => vec![self.active],
            Phase::Combat(combat) => vec![self.combat_decider(combat)],
            Phase::Incoming => vec![1 - self.active],
            Phase::Over => Vec::new(),
        }
    }

    /// Who decides next in a combat: the defender blocks, the attacker orders its gangs,
    /// the defender may defend.
    pub(super) fn combat_decider(&self, combat: &Combat) -> Seat {
        match &combat.blocks {
            Some(blocks) if self.unordered(combat, blocks).is_some() => self.active,
            _ => 1 - self.active,
        }
    }

    /// The first attacker with several blockers and no damage plan yet.
    pub(super) fn unordered(&self, combat: &Combat, blocks: &[(u32, u32)]) -> Option<u32> {
        let gangs = super::combat::gangs(blocks);
        combat
            .attackers
            .iter()
            .copied()
            .find(|a| gangs.get(a).is_some_and(|g| g.len() > 1) && !combat.plans.contains_key(a))
    }

    /// The winner of the roll sets who goes first: deal the opening hands (the second player
    /// draws one more) and start the mulligan; the second player starts with 2 mana.
    pub(super) fn set_first(&mut self, first: Seat) {
        self.first = first;
        self.active = first;
        for seat in [first, 1 - first] {
            let extra = usize::from(seat != first);
            self.draw(seat, OPENING_HAND + extra);
            let mana = if seat == first { 1 } else { 2 };
            self.sides[seat].hero.mana = mana;
            self.sides[seat].hero.max_mana = mana;
        }
        let chooser = match self.phase {
            Phase::Choosing(seat) => seat,
            _ => first,
        };
        self.log.push(format!(
            "{} chooses: {} goes first with 1 mana, {} second with 2 mana and one more card. \
             Each may put back up to {MULLIGAN_MAX} cards.",
            self.names.of(chooser),
            self.names.of(first),
            self.names.of(1 - first)
        ));
        self.phase = Phase::Mulligan;
    }

    /// `seat` puts `back` into its deck, shuffles, and draws as many.
    pub(super) fn mulligan(&mut self, seat: Seat, back: &[u32]) {
        let side = &mut self.sides[seat];
        let (returned, kept): (Vec<Held>, Vec<Held>) =
            side.hand.drain(..).partition(|h| back.contains(&h.id));
        side.hand = kept;
        side.deck.extend(returned);
        side.deck.shuffle(&mut self.rng);
        side.mulliganed = true;
        self.draw(seat, back.len());
        self.log.push(if back.is_empty() {
            format!("{} keeps the opening hand.", self.names.of(seat))
        } else {
            format!(
                "{} puts back {} and draws as many.",
                self.names.of(seat),
                words::count(back.len() as u32, "card")
            )
        });
        if self.sides.iter().all(|s| s.mulliganed) {
            self.start_turn();
        }
    }

    /// Draw `n` cards for `seat`; an empty deck takes the discard pile, shuffled (spec: no
    /// deck-out loss); with both empty the draw stops.
    pub(super) fn draw(&mut self, seat: Seat, n: usize) {
        for _ in 0..n {
            let side = &mut self.sides[seat];
            if side.deck.is_empty() {
                if side.discard.is_empty() {
                    return;
                }
                side.deck.append(&mut side.discard);
                side.deck.shuffle(&mut self.rng);
                self.log.push(format!(
                    "{} shuffles the discard pile into a new deck.",
                    self.names.of(seat)
                ));
            }
            let side = &mut self.sides[seat];
            if let Some(card) = side.deck.pop() {
                side.hand.push(card);
                side.drawn += 1;
            }
        }
    }

    /// Upkeep of the active player (spec): untap, +1 max mana (not on a player's first turn:
    /// its starting mana is that turn's, decision) and refill, draw 1, start-of-turn effects.
    pub(super) fn start_turn(&mut self) {
        let seat = self.active;
        self.phase = Phase::Main;
        for m in self.minions.iter_mut().filter(|m| m.owner == seat) {
            m.tapped = false;
            m.sick = false;
        }
        let before = self.snapshot();
        let side = &mut self.sides[seat];
        side.turns += 1;
        side.spells_this_turn = 0;
        if side.turns > 1 {
            side.hero.upkeep();
        } else {
            side.hero.used = Default::default();
        }
        self.draw(seat, 1);
        self.start_of_turn_effects(seat);
        let what = format!(
            "Round {}: {}'s turn, {} mana",
            self.round,
            self.names.of(seat),
            self.sides[seat].hero.mana
        );
        self.note(what, &before);
        self.check_end();
    }

    /// Equipment acting at the start of its owner's turn.
    fn start_of_turn_effects(&mut self, seat: Seat) {
        let turns = self.sides[seat].turns;
        for effect in self.sides[seat].hero.effects() {
            match effect {
                ItemEffect::PulseEnemyMinions(n) => {
                    for m in self.minions.iter_mut().filter(|m| m.owner != seat) {
                        m.damage += n;
                    }
                    self.remove_dead(seat);
                }
                ItemEffect::GoldEachTurn(n) => self.sides[seat].hero.gold += n,
                ItemEffect::ArmorEachTurn(n) => self.sides[seat].hero.armor += n as i32,
                ItemEffect::HealEachTurn(n) => {
                    let hero = &mut self.sides[seat].hero;
                    hero.health = (hero.health + n as i32).min(hero.max_health);
                }
                ItemEffect::DrawEvery(every) if every > 0 && turns % every == 0 => {
                    self.draw(seat, 1);
                }
                _ => {}
            }
        }
    }

    /// Minions at or past their health die; `killer` gains their bounties (and kill gold).
    pub(super) fn remove_dead(&mut self, killer: Seat) {
        let dead: Vec<Minion> = self
            .minions
            .iter()
            .filter(|m| m.damage >= m.health)
            .cloned()
            .collect();
        for m in &dead {
            self.bury(m.owner, m.id);
            if m.owner != killer {
                let bonus: u32 = self.sides[killer].hero.total(|e| match e {
                    ItemEffect::KillGold(n) => Some(*n),
                    _ => None,
                });
                self.sides[killer].hero.gold += m.bounty + bonus;
            }
        }
        self.minions.retain(|m| m.damage < m.health);
    }

    /// End phase (spec): end-of-turn effects, every minion heals to full, the turn passes;
    /// a new round starts when it is the first player's turn again (the market refreshes at
    /// rounds 4 and 7).
    pub(super) fn end_turn(&mut self) {
        let seat = self.active;
        let before = self.snapshot();
        self.sides[seat].hero.end_turn();
        for m in &mut self.minions {
            m.damage = 0;
        }
        let what = format!(
            "{} passes the turn; damaged minions heal to full",
            self.names.of(seat)
        );
        self.note(what, &before);
        self.active = 1 - seat;
        if self.active == self.first {
            self.round += 1;
            if self.round > ROUND_LIMIT {
                self.finish(
                    Vec::new(),
                    OutcomeReason::Limit,
                    format!("Round {ROUND_LIMIT} is over: a draw."),
                );
                return;
            }
            if self.market.start_round(self.round, &mut self.rng) {
                let items: Vec<&str> = self.market.slots.iter().flatten().map(|i| i.name).collect();
                self.log.push(format!(
                    "Round {}: the market refreshes with {}.",
                    self.round,
                    words::and_list(&items)
                ));
            }
        }
        self.start_turn();
    }

    /// A hero at 0 health loses; both at once is a draw (spec).
    pub(super) fn check_end(&mut self) {
        if self.finish.is_some() {
            return;
        }
        let out = [0, 1].map(|s| self.sides[s].hero.health <= 0);
        match out {
            [true, true] => self.finish(
                Vec::new(),
                OutcomeReason::Knockout,
                "Both heroes fall at once: a draw.".into(),
            ),
            [true, false] | [false, true] => {
                let winner = usize::from(out[0]);
                let summary = format!(
                    "{} wins: {}'s hero falls.",
                    self.names.of(winner),
                    self.names.of(1 - winner)
                );
                self.finish(vec![winner], OutcomeReason::Knockout, summary);
            }
            [false, false] => {}
        }
    }

    fn finish(&mut self, winners: Vec<Seat>, reason: OutcomeReason, summary: String) {
        self.log.push(summary.clone());
        self.phase = Phase::Over;
        self.finish = Some(Outcome::new(winners, reason, summary));
    }

    /// A fresh instance id.
    pub(super) fn fresh_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }
}
