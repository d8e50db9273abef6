//! What a player does (spec "Core Move System"): alter its hand, the five core moves of the
//! Main phase (ink a card, play a card, quest, challenge, pass the turn) and resolving a
//! triggered ability from the bag. Each action is checked whole before anything changes;
//! a game state check follows each, and the game then moves on as far as it goes without
//! a decision.

use battle_protocol::Seat;
use serde::{Deserialize, Serialize};

use super::cards::{Kind, When};
use super::error::LoreError;
use super::state::{Held, InPlay, Lore, Phase};
use crate::words;

/// One decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Alter the hand: put these cards on the bottom of the deck, draw back to 7, shuffle.
    Mulligan {
        /// Card instance ids from the hand (any number, none included).
        cards: Vec<u32>,
    },
    /// Put this card of the hand into the inkwell (once per turn, inkwell symbol only).
    Ink {
        /// The card's instance id.
        card: u32,
    },
    /// Play this card of the hand, paying its cost with ready ink; `target` is the
    /// character an action's effect chooses (`null` for a card that chooses none, or when
    /// there is none to choose).
    Play {
        /// The card's instance id.
        card: u32,
        /// The chosen character, for an action that chooses one.
        target: Option<u32>,
    },
    /// This ready, dry character quests: it exerts and its player gains its lore.
    Quest {
        /// The character's instance id.
        character: u32,
    },
    /// This ready, dry character exerts and challenges an exerted opposing character or an
    /// opposing location.
    Challenge {
        /// The challenging character.
        challenger: u32,
        /// The challenged character or location.
        target: u32,
    },
    /// Resolve this triggered ability of yours from the bag, on `target` if it chooses a
    /// character (`null` when it chooses none, or there is none to choose).
    Resolve {
        /// The ability's id in the bag.
        trigger: u32,
        /// The chosen character.
        target: Option<u32>,
    },
    /// Pass the turn (only with no triggered ability waiting).
    PassTurn {},
}

impl Lore {
    /// Apply `action` by `seat`.
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<(), LoreError> {
        if self.phase == Phase::Over {
            return Err(LoreError::GameOver);
        }
        if seat > 1 || !self.awaited().contains(&seat) {
            let a_move = !matches!(action, Action::Resolve { .. } | Action::Mulligan { .. });
            if a_move && seat == self.active && self.phase == Phase::Main && !self.bag.is_empty() {
                return Err(LoreError::PendingTriggers);
            }
            return Err(LoreError::NotYourTurn(seat));
        }
        match action {
            Action::Mulligan { cards } => {
                if self.phase != Phase::Mulligan {
                    return Err(LoreError::WrongPhase("the hands were altered at the setup"));
                }
                let hand = &self.sides[seat].hand;
                let distinct = cards
                    .iter()
                    .enumerate()
                    .all(|(i, c)| !cards[..i].contains(c));
                if !distinct || !cards.iter().all(|c| hand.iter().any(|h| h.id == *c)) {
                    return Err(LoreError::BadMulligan);
                }
                self.mulligan(seat, &cards);
            }
            Action::Resolve { trigger, target } => {
                let pending = self
                    .bag
                    .iter()
                    .find(|p| p.id == trigger && p.owner == seat)
                    .ok_or(LoreError::NotInBag(trigger))?;
                if let Some(whom) = pending.ability.effect.chooses() {
                    if !self.valid_choice(seat, whom, target) {
                        return Err(LoreError::BadTarget(self.choice_list(seat, whom)));
                    }
                } else if target.is_some() {
                    return Err(LoreError::BadTarget("it chooses no character".into()));
                }
                self.resolve(trigger, target);
            }
            main => {
                if !self.bag.is_empty() {
                    return Err(LoreError::PendingTriggers);
                }
                if self.phase != Phase::Main {
                    return Err(LoreError::WrongPhase("alter your hand first"));
                }
                self.main_move(seat, main)?;
            }
        }
        self.check();
        self.run();
        Ok(())
    }

    /// The characters an effect may choose, for a refusal's message.
    fn choice_list(&self, seat: Seat, whom: super::cards::Whom) -> String {
        let ids: Vec<String> = self
            .choices(seat, whom)
            .iter()
            .map(u32::to_string)
            .collect();
        if ids.is_empty() {
            "none: send null".into()
        } else {
            ids.join(", ")
        }
    }

    /// A move of the Main phase, with the bag empty.
    fn main_move(&mut self, seat: Seat, action: Action) -> Result<(), LoreError> {
        match action {
            Action::Ink { card } => self.ink(seat, card),
            Action::Play { card, target } => self.play_card(seat, card, target),
            Action::Quest { character } => self.quest(seat, character),
            Action::Challenge { challenger, target } => self.challenge(seat, challenger, target),
            Action::PassTurn {} => {
                self.end_turn();
                Ok(())
            }
            Action::Mulligan { .. } | Action::Resolve { .. } => {
                Err(LoreError::WrongPhase("not a move of the Main phase"))
            }
        }
    }

    fn hand_card(&self, seat: Seat, id: u32) -> Result<(usize, Held), LoreError> {
        self.sides[seat]
            .hand
            .iter()
            .position(|h| h.id == id)
            .map(|i| (i, self.sides[seat].hand[i]))
            .ok_or(LoreError::NotInHand(id))
    }

    /// Ink: once per turn, a card with the inkwell symbol, revealed, goes facedown and ready
    /// into the inkwell.
    fn ink(&mut self, seat: Seat, id: u32) -> Result<(), LoreError> {
        let (i, held) = self.hand_card(seat, id)?;
        if self.sides[seat].inked {
            return Err(LoreError::AlreadyInked);
        }
        if !held.card.inkable {
            return Err(LoreError::NotInkable(held.card.name));
        }
        let who = self.player(seat);
        let side = &mut self.sides[seat];
        side.hand.remove(i);
        side.inkwell.push(held);
        side.ink_ready += 1;
        side.inked = true;
        let ink = side.inkwell.len() as i64;
        self.log.push(format!(
            "{who} reveals {} and puts it into the inkwell facedown: {}.",
            held.card.name,
            words::gain(ink - 1, ink, "ink")
        ));
        Ok(())
    }

    /// Play a card: its cost is paid by exerting ready ink; a character (drying), item or
    /// location goes into play and its "when played" triggers go into the bag (with the
    /// "whenever you play a character" triggers of its owner's cards); an action resolves
    /// and goes to the discard.
    fn play_card(&mut self, seat: Seat, id: u32, target: Option<u32>) -> Result<(), LoreError> {
        let (i, held) = self.hand_card(seat, id)?;
        let card = held.card;
        let ready = self.sides[seat].ink_ready;
        if card.cost > ready {
            return Err(LoreError::NotEnoughInk {
                cost: card.cost,
                ready,
            });
        }
        match card.played_choice() {
            Some(whom) if !self.valid_choice(seat, whom, target) => {
                return Err(LoreError::BadTarget(self.choice_list(seat, whom)));
            }
            None if target.is_some() => {
                return Err(LoreError::BadTarget(format!(
                    "{} chooses no character when played",
                    card.name
                )));
            }
            _ => {}
        }
        let side = &mut self.sides[seat];
        side.hand.remove(i);
        side.ink_ready -= card.cost;
        let mut line = format!(
            "{} plays {} ({} ink)",
            self.player(seat),
            card.name,
            card.cost
        );
        match card.kind {
            Kind::Action(effects) => {
                let mut did = Vec::new();
                for &effect in effects {
                    let aim = effect.chooses().and(target);
                    did.push(self.effect(seat, effect, aim));
                }
                self.log.push(format!("{line}: {}.", did.join("; ")));
                self.sides[seat].discard.push(held);
            }
            Kind::Character { .. } | Kind::Item | Kind::Location { .. } => {
                let watchers: Vec<(u32, &'static super::cards::Card)> = self
                    .play
                    .iter()
                    .filter(|c| c.owner == seat)
                    .map(|c| (c.id, c.card))
                    .collect();
                if let Kind::Character {
                    strength,
                    willpower,
                    lore,
                } = card.kind
                {
                    line.push_str(&format!(
                        ": {strength} strength, {willpower} willpower, {lore} lore; drying \
                         until {}'s next turn",
                        self.player(seat)
                    ));
                }
                self.log.push(format!("{line}."));
                self.play.push(InPlay {
                    id,
                    card,
                    owner: seat,
                    exerted: false,
                    drying: matches!(card.kind, Kind::Character { .. }),
                    damage: 0,
                    mods: Vec::new(),
                });
                self.trigger(seat, id, card, When::Played);
                if matches!(card.kind, Kind::Character { .. }) {
                    for (wid, wcard) in watchers {
                        self.trigger(seat, wid, wcard, When::CharacterPlayed);
                    }
                }
            }
        }
        Ok(())
    }

    /// One of `seat`'s ready, dry characters, or why not.
    fn ready_character(&self, seat: Seat, id: u32) -> Result<&InPlay, LoreError> {
        let card = self
            .in_play(id)
            .filter(|c| c.owner == seat && c.is_character())
            .ok_or(LoreError::NotYourCharacter(id))?;
        if card.exerted {
            return Err(LoreError::Exerted(card.card.name));
        }
        if card.drying {
            return Err(LoreError::Drying(card.card.name));
        }
        Ok(card)
    }

    /// Quest: a ready, dry character exerts and its player gains its lore; its quest
    /// triggers go into the bag. 20 lore wins at the game state check that follows.
    fn quest(&mut self, seat: Seat, id: u32) -> Result<(), LoreError> {
        let card = self.ready_character(seat, id)?;
        let (lore, source, who) = (card.lore(), card.card, self.called(card));
        if let Some(c) = self.in_play_mut(id) {
            c.exerted = true;
        }
        let before = self.sides[seat].lore;
        self.sides[seat].lore += lore;
        self.log.push(format!(
            "{who} quests: {} for {}.",
            words::gain(i64::from(before), i64::from(before + lore), "lore"),
            self.player(seat)
        ));
        self.trigger(seat, id, source, When::Quests);
        Ok(())
    }

    /// Challenge: a ready, dry character exerts and challenges an exerted opposing
    /// character (or an opposing location); each deals its strength to the other at the same
    /// time (a location deals none). Banishment follows at the game state check.
    fn challenge(&mut self, seat: Seat, challenger: u32, target: u32) -> Result<(), LoreError> {
        let attacker = self.ready_character(seat, challenger)?;
        let defender = self
            .in_play(target)
            .filter(|c| c.owner != seat)
            .filter(|c| {
                (c.is_character() && c.exerted) || matches!(c.card.kind, Kind::Location { .. })
            })
            .ok_or(LoreError::NotChallengeable(target))?;
        let (dealt, taken) = (attacker.strength(), defender.strength());
        let (them, us) = (self.called(defender), self.called(attacker));
        let (their_left, our_left) = (defender.health_left(), attacker.health_left());
        let mut line = format!(
            "{us} ({dealt} strength) challenges {them} ({taken} strength): {them} takes {}",
            words::damage(dealt, their_left, their_left.saturating_sub(dealt))
        );
        if taken > 0 {
            line.push_str(&format!(
                ", {us} takes {}",
                words::damage(taken, our_left, our_left.saturating_sub(taken))
            ));
        }
        self.log.push(format!("{line}."));
        if let Some(c) = self.in_play_mut(challenger) {
            c.exerted = true;
            c.damage += taken;
        }
        if let Some(c) = self.in_play_mut(target) {
            c.damage += dealt;
        }
        Ok(())
    }
}
