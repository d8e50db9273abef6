//! Test helpers: build a battle in an exact state (hands, piles, HP, block, phase) without
//! the random opening, and small shortcuts for playing cards in scenario tests.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::cards;
use super::deck::{Card, Zones};
use super::options::{Mode, Options};
use super::side::Side;
use super::state::{Battle, Phase, FIRST_CARD_ID};
use super::{ENEMY_HP, ENERGY_PER_TURN, PLAYER_HP};
use crate::game::Game;
use crate::ruleset::RuleError;
use crate::typed::{apply_json, Typed};
use crate::view::{to_view, ViewValue, Viewer};

/// An exact battle state to start a test from.
pub(crate) struct Scenario {
    mode: Mode,
    phase: Phase,
    round: u32,
    hands: [Vec<&'static str>; 2],
    draws: [Vec<&'static str>; 2],
    discards: [Vec<&'static str>; 2],
    hp: [u32; 2],
    block: [u32; 2],
    energy: Option<u32>,
    seed: u64,
}

fn defs(ids: &[&'static str]) -> Vec<&'static cards::CardDef> {
    ids.iter()
        .map(|id| cards::find(id).expect("tests name only pool cards"))
        .collect()
}

impl Scenario {
    /// PvE, seat 0 to act in round 1 with 3 energy, all zones empty, full HP.
    pub fn pve() -> Scenario {
        Scenario {
            mode: Mode::Pve,
            phase: Phase::PlayerTurn,
            round: 1,
            hands: [Vec::new(), Vec::new()],
            draws: [Vec::new(), Vec::new()],
            discards: [Vec::new(), Vec::new()],
            hp: [PLAYER_HP, ENEMY_HP],
            block: [0, 0],
            energy: None,
            seed: 7,
        }
    }

    /// Like [`Scenario::pve`] but PvP (both sides 60 HP).
    pub fn pvp() -> Scenario {
        Scenario {
            mode: Mode::Pvp,
            hp: [PLAYER_HP, PLAYER_HP],
            ..Scenario::pve()
        }
    }

    /// Sets `seat`'s hand, in order.
    pub fn hand(mut self, seat: usize, ids: &[&'static str]) -> Scenario {
        self.hands[seat] = ids.to_vec();
        self
    }

    /// Sets `seat`'s draw pile, top card first.
    pub fn draw(mut self, seat: usize, ids: &[&'static str]) -> Scenario {
        self.draws[seat] = ids.to_vec();
        self
    }

    /// Sets `seat`'s discard pile.
    pub fn discard(mut self, seat: usize, ids: &[&'static str]) -> Scenario {
        self.discards[seat] = ids.to_vec();
        self
    }

    /// Sets `seat`'s HP (its maximum stays the mode's starting HP).
    pub fn hp(mut self, seat: usize, hp: u32) -> Scenario {
        self.hp[seat] = hp;
        self
    }

    /// Sets `seat`'s block.
    pub fn block(mut self, seat: usize, block: u32) -> Scenario {
        self.block[seat] = block;
        self
    }

    /// Energy of the active side (default 3).
    pub fn energy(mut self, energy: u32) -> Scenario {
        self.energy = Some(energy);
        self
    }

    /// Sets the state the battle starts in (no entry effects run).
    pub fn phase(mut self, phase: Phase) -> Scenario {
        self.phase = phase;
        self
    }

    /// Sets the round number.
    pub fn round(mut self, round: u32) -> Scenario {
        self.round = round;
        self
    }

    /// The battle. Instance ids: hand, then draw pile (top first), then discard, counting from
    /// 1 for seat 0 and 101 for seat 1. Both sides count as having started a turn already, so
    /// every later turn start draws 5. The active side has 3 energy.
    pub fn build(self) -> Battle {
        let names = match self.mode {
            Mode::Pve => ["Player 1", super::BOT_NAME],
            Mode::Pvp => ["Player 1", "Player 2"],
        };
        let sides = [0, 1].map(|seat| {
            let mut next = FIRST_CARD_ID[seat];
            let mut make = |ids: &[&'static str]| -> Vec<Card> {
                defs(ids)
                    .into_iter()
                    .map(|def| {
                        next += 1;
                        Card { id: next - 1, def }
                    })
                    .collect()
            };
            let zones = Zones {
                hand: make(&self.hands[seat]),
                draw: make(&self.draws[seat]),
                discard: make(&self.discards[seat]),
            };
            let mut side = Side::new(names[seat], self.hp[seat], Vec::new());
            side.max_hp = match (self.mode, seat) {
                (Mode::Pve, 1) => ENEMY_HP,
                _ => PLAYER_HP,
            };
            side.block = self.block[seat];
            side.deck_size = zones.total();
            side.zones = zones;
            side.turns_started = 1;
            if self.phase.active_seat() == Some(seat) {
                side.energy = self.energy.unwrap_or(ENERGY_PER_TURN);
            }
            side
        });
        Battle {
            mode: self.mode,
            phase: self.phase,
            round: self.round,
            sides,
            log: Vec::new(),
            verdict: None,
            result: None,
            rng: ChaCha8Rng::seed_from_u64(self.seed),
        }
    }
}

/// A real battle from JSON options, every seat with the default setup.
pub(crate) fn battle(options: Value, seed: u64) -> Battle {
    battle_with(options, [Value::Null, Value::Null], seed)
}

/// A real battle from JSON options and each seat's JSON setup, started as the server
/// starts one: built from the options, then each seat set up in order.
pub(crate) fn battle_with(options: Value, setups: [Value; 2], seed: u64) -> Battle {
    use crate::ruleset::Ruleset;
    let mut typed = Typed::<Battle>::new(&options, seed).expect("test options are valid");
    for (seat, setup) in setups.iter().enumerate() {
        typed
            .setup(seat, Some(setup))
            .expect("test setups are valid");
    }
    typed.game().expect("every seat is set up").clone()
}

/// The options a battle of `mode` was built with.
pub(crate) fn options(mode: Mode) -> Options {
    Options { mode }
}

/// What the server's [`Typed`] layer does with JSON, on a battle built by a test.
pub(crate) trait Json {
    /// Apply a JSON action as the server does (parse, then [`Game::apply`]).
    fn act_json(&mut self, seat: usize, action: &Value) -> Result<(), RuleError>;
    /// The legal actions as JSON.
    fn legal_json(&self, seat: usize) -> Vec<Value>;
    /// The Automaton's move as JSON.
    fn ai_json(&self, seat: usize) -> Option<Value>;
    /// The view `viewer` receives (without the log).
    fn seen_by(&self, viewer: Viewer) -> ViewValue;
}

impl Json for Battle {
    fn act_json(&mut self, seat: usize, action: &Value) -> Result<(), RuleError> {
        apply_json(self, seat, action)
    }

    fn legal_json(&self, seat: usize) -> Vec<Value> {
        self.legal_actions(seat)
            .iter()
            .map(|a| serde_json::to_value(a).expect("actions serialize"))
            .collect()
    }

    fn ai_json(&self, seat: usize) -> Option<Value> {
        self.ai_action(seat)
            .map(|a| serde_json::to_value(a).expect("actions serialize"))
    }

    fn seen_by(&self, viewer: Viewer) -> ViewValue {
        to_view(&self.view_all())
            .expect("synergy views build")
            .project(viewer)
    }
}

/// The setup `{"deck": ids}`.
pub(crate) fn deck(ids: &[&str]) -> Value {
    json!({ "deck": ids })
}

impl Battle {
    /// Instance ids of `seat`'s hand, in order.
    pub(crate) fn hand_ids(&self, seat: usize) -> Vec<u32> {
        self.sides[seat].zones.hand.iter().map(|c| c.id).collect()
    }

    /// Card ids ("C001"...) of `seat`'s hand, in order.
    pub(crate) fn hand_cards(&self, seat: usize) -> Vec<&'static str> {
        self.sides[seat]
            .zones
            .hand
            .iter()
            .map(|c| c.def.id)
            .collect()
    }

    /// Plays the first card in `seat`'s hand whose card id is `card`.
    pub(crate) fn play_card(&mut self, seat: usize, card: &str) {
        let id = self.sides[seat]
            .zones
            .hand
            .iter()
            .find(|c| c.def.id == card)
            .map(|c| c.id)
            .unwrap_or_else(|| panic!("{card} is not in seat {seat}'s hand"));
        self.act_json(seat, &json!({"kind": "play_card", "card": id}))
            .unwrap_or_else(|e| panic!("playing {card} was refused: {e}"));
    }

    /// Ends `seat`'s turn.
    pub(crate) fn pass(&mut self, seat: usize) {
        self.act_json(seat, &json!({"kind": "end_turn"}))
            .unwrap_or_else(|e| panic!("end_turn was refused: {e}"));
    }

    /// The last log line.
    pub(crate) fn last_log(&self) -> &str {
        self.log.last().map(String::as_str).unwrap_or("")
    }

    /// Every view: seat 0, seat 1, spectator.
    pub(crate) fn all_views(&self) -> [Value; 3] {
        [
            self.seen_by(Viewer::Seat(0)).to_value(),
            self.seen_by(Viewer::Seat(1)).to_value(),
            self.seen_by(Viewer::Spectator).to_value(),
        ]
    }
}
