//! What a player does, and what the battle asks of whom: choosing who goes first, the
//! mulligan, the main phase (cards, hero power, Attack, a purchase, combat, passing), and in
//! combat the defender's blocks, the attacker's damage order for each gang, and the
//! defender's Defensive Ability. Each action is checked whole before anything changes.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::error::HeroesError;
use super::state::{Heroes, Phase, MULLIGAN_MAX};
use crate::words;

/// One decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The die roll's winner: which seat goes first.
    ChooseFirst {
        /// The seat that goes first.
        first: Seat,
    },
    /// Put these cards of the opening hand back (up to 3) and draw as many.
    Mulligan {
        /// Card instance ids.
        cards: Vec<u32>,
    },
    /// Play a card from hand: `target` ("hero:0", "hero:1" or "minion:ID") for a card that
    /// aims at one, `spend`: Spell Damage spent on a damage spell (Mage).
    Play {
        /// The card's instance id.
        card: u32,
        /// Its target, if it takes one.
        target: Option<String>,
        /// Spell Damage spent.
        spend: u32,
    },
    /// Use the hero power.
    HeroPower {},
    /// The Attack ability: weapon damage to a target.
    Attack {
        /// "hero:N" or "minion:ID" (of the other side).
        target: String,
    },
    /// Buy the item in this market slot (0 to 4).
    Buy {
        /// The slot.
        slot: usize,
    },
    /// Use the equipped relic's once-per-game ability (`target` for one that aims).
    Relic {
        /// "hero:N" or "minion:ID", for a relic that aims.
        target: Option<String>,
    },
    /// Declare attackers: these minions tap and attack the enemy hero.
    Fight {
        /// The attacking minions.
        attackers: Vec<u32>,
    },
    /// The defender's blocks: `blockers` lists every minion that may block (as the legal
    /// entry gives them) and `attackers[i]` is the attacker `blockers[i]` blocks, or `null`.
    Block {
        /// The defender's untapped minions, in the order the legal entry lists them.
        blockers: Vec<u32>,
        /// For each, the attacker it blocks, or `null`.
        attackers: Vec<Option<u32>>,
    },
    /// The attacker orders a gang of blockers (damage goes lethal-first along it).
    Order {
        /// The attacking minion.
        attacker: u32,
        /// Its blockers, first to receive damage first.
        order: Vec<u32>,
    },
    /// The defender's Defensive Ability on one hit, or none: in combat `source` is an
    /// unblocked attacker's id; against a spell, Attack or relic it is the hit's index.
    Defend {
        /// The attacker (or the incoming hit) it answers, or `null`.
        source: Option<u32>,
    },
    /// Pass the turn.
    EndTurn {},
}

impl Heroes {
    /// Apply `action` by `seat`.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), HeroesError> {
        if self.phase == Phase::Over {
            return Err(HeroesError::GameOver);
        }
        if seat > 1 || !self.awaited().contains(&seat) {
            return Err(HeroesError::NotYourTurn(seat));
        }
        match action {
            Action::ChooseFirst { first } => {
                if !matches!(self.phase, Phase::Choosing(_)) || first > 1 {
                    return Err(HeroesError::invalid(
                        "choose seat 0 or 1 to go first, after the roll",
                    ));
                }
                self.set_first(first);
            }
            Action::Mulligan { cards } => {
                if self.phase != Phase::Mulligan {
                    return Err(HeroesError::invalid("the mulligan is over"));
                }
                let hand = &self.sides[seat].hand;
                let unique = cards
                    .iter()
                    .enumerate()
                    .all(|(i, c)| !cards[..i].contains(c));
                if cards.len() > MULLIGAN_MAX
                    || !unique
                    || !cards.iter().all(|c| hand.iter().any(|h| h.id == *c))
                {
                    return Err(HeroesError::invalid(format!(
                        "put back up to {MULLIGAN_MAX} different cards of your hand"
                    )));
                }
                self.mulligan(seat, &cards);
            }
            Action::Play {
                card,
                target,
                spend,
            } => self.play(seat, card, target.as_deref(), spend)?,
            Action::HeroPower {} => self.hero_power(seat)?,
            Action::Attack { target } => self.weapon_attack(seat, &target)?,
            Action::Buy { slot } => self.buy(seat, slot)?,
            Action::Relic { target } => self.use_relic(seat, target.as_deref())?,
            Action::Fight { attackers } => self.fight(seat, attackers)?,
            Action::Block {
                blockers,
                attackers,
            } => self.block(seat, &blockers, &attackers)?,
            Action::Order { attacker, order } => self.order(attacker, order)?,
            Action::Defend { source } if self.phase == Phase::Incoming => {
                self.answer_incoming(source)?
            }
            Action::Defend { source } => self.defend(source)?,
            Action::EndTurn {} => {
                if self.phase != Phase::Main {
                    return Err(HeroesError::invalid("finish the combat first"));
                }
                self.end_turn();
            }
        }
        self.settle_pending();
        self.check_end();
        Ok(())
    }

    /// After an action: hits on the defending hero wait for its answer when it can use its
    /// Defensive Ability, and land at once when it cannot.
    fn settle_pending(&mut self) {
        if self.pending.is_empty() || self.phase == Phase::Incoming {
            return;
        }
        let defender = 1 - self.active;
        let hits = self.hits_text();
        if self.phase == Phase::Main && self.sides[defender].hero.can_defend() {
            self.phase = Phase::Incoming;
            self.log.push(format!(
                "{hits} on {} waits: {} may use the Defensive Ability.",
                self.hero_label(defender),
                self.names.of(defender)
            ));
            return;
        }
        let before = self.snapshot();
        let mut what = format!("{hits} lands on {}", self.hero_label(defender));
        if let Some(rage) = self.rage_note(defender) {
            what.push_str(&format!("; {rage}"));
        }
        for hit in std::mem::take(&mut self.pending) {
            self.sides[defender].hero.take_hit(hit, None);
        }
        self.note(what, &before);
    }

    /// Land the hits on the defending hero at once when it cannot answer them (its
    /// Defensive Ability is used or lacks mana), so that the action's own line says what
    /// they did; hits it may answer keep waiting.
    pub(super) fn land_unanswerable(&mut self) {
        let defender = 1 - self.active;
        if self.pending.is_empty() || self.sides[defender].hero.can_defend() {
            return;
        }
        for hit in std::mem::take(&mut self.pending) {
            self.sides[defender].hero.take_hit(hit, None);
        }
    }

    /// The waiting hits, for the log: "The hit of 6", "The hits of 4 and 2".
    fn hits_text(&self) -> String {
        let hits: Vec<String> = self.pending.iter().map(u32::to_string).collect();
        match hits.len() {
            1 => format!("The hit of {}", hits[0]),
            _ => format!("The hits of {}", words::and_list(&hits)),
        }
    }

    /// The defender answers the waiting hits: its Defensive Ability on hit `source` (an index
    /// into them), or on none; then they all land.
    fn answer_incoming(&mut self, source: Option<u32>) -> Result<(), HeroesError> {
        if source.is_some_and(|i| i as usize >= self.pending.len()) {
            return Err(HeroesError::invalid(
                "answer one of the incoming hits, or none",
            ));
        }
        let defender = 1 - self.active;
        let defense = self.defense_of(defender);
        let before = self.snapshot();
        let mut what = match source {
            Some(i) => format!(
                "{} uses the Defensive Ability against the hit of {}",
                self.names.of(defender),
                self.pending[i as usize]
            ),
            None => format!(
                "{} does not use the Defensive Ability: {} lands",
                self.names.of(defender),
                self.hits_text().to_lowercase()
            ),
        };
        if let Some(rage) = self.rage_note(defender) {
            what.push_str(&format!("; {rage}"));
        }
        for (i, hit) in std::mem::take(&mut self.pending).into_iter().enumerate() {
            let defended = (source == Some(i as u32)).then_some(defense);
            self.sides[defender].hero.take_hit(hit, defended);
        }
        self.note(what, &before);
        self.phase = Phase::Main;
        Ok(())
    }
}
