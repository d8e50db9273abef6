//! A combat step by step (spec "Combat Flow"): the active player declares attackers; the
//! defender declares blockers; the attacker orders each gang of blockers (damage goes
//! lethal-first along the order, the excess to the last: decision); the defender may use
//! its Defensive Ability on one unblocked attacker's hit; then everything is dealt at once.
//! Each step waits for the seat that decides it (`Heroes::awaited`).

use std::collections::BTreeMap;

use battle_protocol::Seat;

use super::combat::{check_attackers, check_blocks, gangs, resolve};
use super::error::HeroesError;
use super::hero::Defense;
use super::items::Effect as ItemEffect;
use super::state::{Combat, Heroes, Phase};
use crate::words;

/// Damage amounts along `order`: lethal to each blocker in turn, what is left to the last.
pub fn lethal_first(heroes: &Heroes, power: u32, order: &[u32]) -> Vec<u32> {
    let mut left = power;
    let mut amounts = Vec::with_capacity(order.len());
    for (i, id) in order.iter().enumerate() {
        let lethal = heroes
            .minions
            .iter()
            .find(|m| m.id == *id)
            .map_or(0, |m| m.lethal());
        let give = if i + 1 == order.len() {
            left
        } else {
            lethal.min(left)
        };
        amounts.push(give);
        left -= give;
    }
    amounts
}

impl Heroes {
    /// Minion `id`'s attack power ("3 attack"), for the log.
    fn power_of(&self, id: u32) -> String {
        let attack = self
            .minions
            .iter()
            .find(|m| m.id == id)
            .map_or(0, |m| m.attack);
        format!("{attack} attack")
    }

    /// The minions `seat` may attack with now.
    pub fn ready_attackers(&self, seat: Seat) -> Vec<u32> {
        self.minions
            .iter()
            .filter(|m| m.owner == seat && !m.tapped && !m.sick)
            .map(|m| m.id)
            .collect()
    }

    /// The minions `seat` may block with.
    pub fn ready_blockers(&self, seat: Seat) -> Vec<u32> {
        self.minions
            .iter()
            .filter(|m| m.owner == seat && !m.tapped)
            .map(|m| m.id)
            .collect()
    }

    pub(super) fn fight(&mut self, seat: Seat, attackers: Vec<u32>) -> Result<(), HeroesError> {
        if self.phase != Phase::Main {
            return Err(HeroesError::invalid("combat starts from your main phase"));
        }
        if attackers.is_empty() {
            return Err(HeroesError::invalid("name at least one attacker"));
        }
        check_attackers(&self.minions, seat, &attackers)
            .map_err(|e| HeroesError::invalid(e.to_string()))?;
        let names: Vec<String> = attackers
            .iter()
            .map(|&id| format!("{} ({})", self.minion_name(id), self.power_of(id)))
            .collect();
        self.log.push(format!(
            "{} attacks {} with {}.",
            self.names.of(seat),
            self.names.of(1 - seat),
            words::and_list(&names)
        ));
        for m in self
            .minions
            .iter_mut()
            .filter(|m| attackers.contains(&m.id))
        {
            m.tapped = true;
        }
        let no_blockers = self.ready_blockers(1 - seat).is_empty();
        self.phase = Phase::Combat(Combat {
            attackers,
            blocks: no_blockers.then(Vec::new),
            plans: BTreeMap::new(),
            defended: false,
        });
        self.advance_combat();
        Ok(())
    }

    pub(super) fn block(
        &mut self,
        seat: Seat,
        blockers: &[u32],
        attackers: &[Option<u32>],
    ) -> Result<(), HeroesError> {
        let Phase::Combat(combat) = &self.phase else {
            return Err(HeroesError::invalid("no attack to block"));
        };
        if combat.blocks.is_some() {
            return Err(HeroesError::invalid("blockers are already declared"));
        }
        if blockers != self.ready_blockers(seat).as_slice() || attackers.len() != blockers.len() {
            return Err(HeroesError::invalid(
                "list your untapped minions as the legal entry does, with an attacker or null for each",
            ));
        }
        let pairs: Vec<(u32, u32)> = blockers
            .iter()
            .zip(attackers)
            .filter_map(|(&b, a)| a.map(|a| (b, a)))
            .collect();
        // Attackers are tapped by now; blockers are checked as the defender's untapped minions.
        check_blocks(&self.minions, seat, &combat.attackers, &pairs)
            .map_err(|e| HeroesError::invalid(e.to_string()))?;
        let said: Vec<String> = pairs
            .iter()
            .map(|&(b, a)| format!("{} with {}", self.minion_called(a), self.minion_name(b)))
            .collect();
        self.log.push(if said.is_empty() {
            format!("{} blocks nothing.", self.names.of(seat))
        } else {
            format!("{} blocks {}.", self.names.of(seat), words::and_list(&said))
        });
        if let Phase::Combat(combat) = &mut self.phase {
            combat.blocks = Some(pairs);
        }
        self.advance_combat();
        Ok(())
    }

    pub(super) fn order(&mut self, attacker: u32, order: Vec<u32>) -> Result<(), HeroesError> {
        let Phase::Combat(combat) = &self.phase else {
            return Err(HeroesError::invalid("no combat to order"));
        };
        let Some(blocks) = &combat.blocks else {
            return Err(HeroesError::invalid("blockers are not declared yet"));
        };
        if self.unordered(combat, blocks) != Some(attacker) {
            return Err(HeroesError::invalid(format!(
                "attacker {attacker} has no gang to order now"
            )));
        }
        let mut gang = gangs(blocks).remove(&attacker).unwrap_or_default();
        let mut sorted = order.clone();
        gang.sort_unstable();
        sorted.sort_unstable();
        if gang != sorted {
            return Err(HeroesError::invalid(
                "order each of the attacker's blockers once",
            ));
        }
        let power = self
            .minions
            .iter()
            .find(|m| m.id == attacker)
            .map_or(0, |m| m.attack);
        let amounts = lethal_first(self, power, &order);
        let plan: Vec<String> = order
            .iter()
            .zip(&amounts)
            .map(|(&b, n)| format!("{n} to {}", self.minion_name(b)))
            .collect();
        self.log.push(format!(
            "{} orders the blockers of {}: {}.",
            self.names.of(self.active),
            self.minion_name(attacker),
            words::and_list(&plan)
        ));
        if let Phase::Combat(combat) = &mut self.phase {
            combat.plans.insert(attacker, (order, amounts));
        }
        self.advance_combat();
        Ok(())
    }

    pub(super) fn defend(&mut self, source: Option<u32>) -> Result<(), HeroesError> {
        let Phase::Combat(combat) = &self.phase else {
            return Err(HeroesError::invalid("no damage to defend against"));
        };
        if let Some(source) = source {
            if !self.unblocked(combat).contains(&source) {
                return Err(HeroesError::invalid(format!(
                    "minion {source} does not hit your hero"
                )));
            }
        }
        let combat = combat.clone();
        self.resolve_combat(&combat, source);
        Ok(())
    }

    /// `seat`'s Defensive Ability: the base one, or its upgrade's.
    pub fn defense_of(&self, seat: Seat) -> Defense {
        let slot = super::state::ability_index(super::cards::AbilitySlot::Defense);
        match self.sides[seat].upgrades[slot].map(|c| c.id) {
            Some("unbroken") => Defense::Unbroken,
            Some("blink") => Defense::Blink,
            _ => Defense::Base,
        }
    }

    /// The attackers no one blocks.
    pub(super) fn unblocked(&self, combat: &Combat) -> Vec<u32> {
        let blocked: Vec<u32> = combat.blocks.iter().flatten().map(|&(_, a)| a).collect();
        combat
            .attackers
            .iter()
            .copied()
            .filter(|a| !blocked.contains(a))
            .collect()
    }

    /// What a combat about to resolve does, for the log: "Combat: Ben's Apprentice (1
    /// attack) hits Ana's hero, Ben's Storm Adept (3 attack) fights Ana's Shield Bearer;
    /// Ana uses the Defensive Ability against Ben's Storm Adept".
    fn combat_text(&self, combat: &Combat, defend: Option<u32>) -> String {
        let defender = 1 - self.active;
        let blocks = combat.blocks.clone().unwrap_or_default();
        let gangs = gangs(&blocks);
        let fights: Vec<String> = combat
            .attackers
            .iter()
            .map(|&a| {
                let who = format!("{} ({})", self.minion_called(a), self.power_of(a));
                match gangs.get(&a) {
                    Some(gang) if !gang.is_empty() => {
                        let names: Vec<String> =
                            gang.iter().map(|&b| self.minion_called(b)).collect();
                        format!("{who} fights {}", words::and_list(&names))
                    }
                    _ => format!("{who} hits {}", self.hero_label(defender)),
                }
            })
            .collect();
        let mut what = format!("Combat: {}", words::and_list(&fights));
        let unblocked = self.unblocked(combat);
        if !unblocked.is_empty() {
            if let Some(rage) = self.rage_note(defender) {
                what.push_str(&format!("; {rage}"));
            }
            if combat.defended {
                what.push_str(&match defend {
                    Some(source) => format!(
                        "; {} uses the Defensive Ability against {}",
                        self.names.of(defender),
                        self.minion_called(source)
                    ),
                    None => format!(
                        "; {} does not use the Defensive Ability",
                        self.names.of(defender)
                    ),
                });
            }
        }
        what
    }

    /// Move the combat on: resolve it once nothing is left to decide.
    pub(super) fn advance_combat(&mut self) {
        let Phase::Combat(combat) = &self.phase else {
            return;
        };
        let Some(blocks) = &combat.blocks else {
            return;
        };
        if self.unordered(combat, blocks).is_some() {
            return;
        }
        let defender = 1 - self.active;
        if !combat.defended
            && !self.unblocked(combat).is_empty()
            && self.sides[defender].hero.can_defend()
        {
            if let Phase::Combat(combat) = &mut self.phase {
                combat.defended = true;
            }
            return;
        }
        let combat = combat.clone();
        self.resolve_combat(&combat, None);
    }

    /// Deal all the combat's damage at once; `defend`: the attacker whose hit the defender's
    /// Defensive Ability answers.
    fn resolve_combat(&mut self, combat: &Combat, defend: Option<u32>) {
        let before = self.snapshot();
        let what = self.combat_text(combat, defend);
        let blocks = combat.blocks.clone().unwrap_or_default();
        let outcome = resolve(&mut self.minions, &combat.attackers, &blocks, &combat.plans);
        let defender = 1 - self.active;
        let defense = self.defense_of(defender);
        for hit in &outcome.hits {
            let defended = (defend == Some(hit.source)).then_some(defense);
            self.sides[defender].hero.take_hit(hit.damage, defended);
        }
        for (&seat, &gold) in &outcome.bounties {
            // Each kill also pays the killer's kill-gold items.
            let kills = outcome
                .deaths
                .iter()
                .filter(|id| {
                    let attacker = combat.attackers.contains(id);
                    (attacker && seat == defender) || (!attacker && seat == self.active)
                })
                .count() as u32;
            let per_kill: u32 = self.sides[seat].hero.total(|e| match e {
                ItemEffect::KillGold(n) => Some(*n),
                _ => None,
            });
            self.sides[seat].hero.gold += gold + per_kill * kills;
        }
        for &id in &outcome.deaths {
            let owner = if combat.attackers.contains(&id) {
                self.active
            } else {
                defender
            };
            self.bury(owner, id);
        }
        self.note(what, &before);
        self.phase = Phase::Main;
        self.check_end();
    }
}
