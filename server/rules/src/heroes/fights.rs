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
        self.log.push(format!(
            "Player {} attacks with {} minion{}.",
            seat + 1,
            attackers.len(),
            if attackers.len() == 1 { "" } else { "s" }
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
        let n = pairs.len();
        if let Phase::Combat(combat) = &mut self.phase {
            combat.blocks = Some(pairs);
        }
        self.log.push(format!(
            "Player {} declares {n} block{}.",
            seat + 1,
            if n == 1 { "" } else { "s" }
        ));
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
        let blocks = combat.blocks.clone().unwrap_or_default();
        let outcome = resolve(&mut self.minions, &combat.attackers, &blocks, &combat.plans);
        let defender = 1 - self.active;
        let defense = self.defense_of(defender);
        let mut taken = 0;
        for hit in &outcome.hits {
            let defended = (defend == Some(hit.source)).then_some(defense);
            taken += self.sides[defender].hero.take_hit(hit.damage, defended);
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
        self.log.push(format!(
            "Combat: Player {}'s hero takes {taken}; {} minion{} die{}.",
            defender + 1,
            outcome.deaths.len(),
            if outcome.deaths.len() == 1 { "" } else { "s" },
            if outcome.deaths.len() == 1 { "s" } else { "" }
        ));
        self.phase = Phase::Main;
        self.check_end();
    }
}
