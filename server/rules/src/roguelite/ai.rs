//! The bot for the player's seat. In a phase it scores each card it can pay for and plays
//! the best one, ending the turn when nothing is worth playing: a lethal attack first,
//! Guard only when an enemy phase comes before its next own phase (Guard resets at the start
//! of its phase) and no more than the enemy's revealed intent can deal, repairs and heals
//! only for what is missing, statuses not already held. Between battles it takes better
//! armor, a Repair Kit or Healing Draught when worn down, else the card it ranks highest.

use super::cards::Card;
use super::damage::{self, INITIATIVE_PCT};
use super::effect::Effect;
use super::play::Action;
use super::reward::Reward;
use super::speed::Side;
use super::state::{Roguelite, Stage};
use super::status::Kind;

/// Reward cards from most to least wanted.
const CARD_RANKS: &[&str] = &[
    "cleave",
    "leeching_cut",
    "iron_ward",
    "bulwark",
    "field_repair",
    "war_chant",
    "venom_flick",
    "gash",
    "sap",
    "keen_thrust",
    "flurry",
    "mending_moss",
    "quickstep",
    "hex_mark",
    "hamstring",
    "barbed_stance",
    "tailwind",
    "mire_snare",
];

impl Roguelite {
    /// The bot's decision for `seat`, when awaited.
    pub fn ai_for(&self, seat: usize) -> Option<Action> {
        if seat != 0 {
            return None;
        }
        match self.stage {
            Stage::PlayerPhase => Some(self.ai_phase()),
            Stage::Reward => Some(self.ai_reward()),
            _ => None,
        }
    }

    /// Damage the enemy's intent would deal, roughly (before Guard and AP).
    fn incoming(&self) -> u32 {
        let weak = self.enemy.statuses.has(Kind::Weak);
        let bonus = damage::status_bonus(&self.enemy);
        self.intent()
            .iter()
            .flat_map(|s| s.effects.iter())
            .map(|e| match *e {
                Effect::Attack { power, hits, .. } => {
                    let base = damage::modified(self.foe.atk * power / 100, bonus, weak);
                    damage::mitigate(base, self.player.def_pct) * hits
                }
                _ => 0,
            })
            .sum()
    }

    /// Expected damage of one of the player's attacks on the enemy (no critical).
    fn expected(&self, power: u32, hits: u32) -> u32 {
        let bonus =
            damage::status_bonus(&self.player) + if self.initiative { INITIATIVE_PCT } else { 0 };
        let base = damage::modified(power, bonus, self.player.statuses.has(Kind::Weak));
        damage::mitigate(base, self.enemy.def_pct) * hits
    }

    /// How much `card` is worth playing now (0: not worth it).
    fn score(&self, card: &Card, incoming: u32, enemy_next: bool) -> i64 {
        let e = &self.enemy;
        let p = &self.player;
        let standing = e.hp + e.guard + if e.armor_broken() { 0 } else { e.ap };
        let mut score = 0i64;
        for effect in card.effects {
            score += match *effect {
                Effect::Attack {
                    power,
                    hits,
                    lifesteal,
                    ..
                } => {
                    let dmg = self.expected(power, hits);
                    if dmg >= standing {
                        1_000
                    } else {
                        10 * dmg as i64 + (dmg * lifesteal / 100) as i64 * 5
                    }
                }
                Effect::Guard(n) if enemy_next => {
                    let need = incoming.saturating_sub(p.guard);
                    12 * n.min(need) as i64
                }
                Effect::Guard(_) => 0,
                Effect::Repair(n) => 9 * n.min(p.max_ap - p.ap) as i64,
                Effect::Heal(n) => 10 * n.min(p.max_hp - p.hp) as i64,
                Effect::Inflict { status, stacks, .. } => {
                    if e.statuses.get(status).is_some_and(|s| s.turns >= 2) && stacks <= 1 {
                        5
                    } else {
                        match status {
                            Kind::Poison | Kind::Curse => 18 * stacks as i64,
                            Kind::Weak => 20 + 3 * incoming as i64,
                            _ => 35,
                        }
                    }
                }
                Effect::Gain { status, stacks, .. } => {
                    if p.statuses.get(status).is_some_and(|s| s.turns >= 2) {
                        5
                    } else {
                        match status {
                            Kind::Regeneration => 10 * (p.max_hp - p.hp).min(12) as i64 / 2,
                            Kind::Shield => 25 * stacks as i64,
                            Kind::Thorns if !enemy_next => 5,
                            _ => 40,
                        }
                    }
                }
                Effect::AddEnergy(_) => 0,
            };
        }
        score
    }

    /// The best card to play, or the end of the turn.
    fn ai_phase(&self) -> Action {
        let incoming = self.incoming();
        let enemy_next = self.queue.get(1).is_none_or(|&side| side == Side::Enemy);
        let best = self
            .piles
            .hand
            .iter()
            .filter(|&&c| self.deck[c as usize].cost <= self.energy)
            .map(|&c| {
                let card = self.deck[c as usize];
                (self.score(card, incoming, enemy_next) / card.cost as i64, c)
            })
            .filter(|&(score, _)| score > 0)
            .max_by_key(|&(score, c)| (score, std::cmp::Reverse(c)));
        match best {
            Some((_, card)) => Action::Play { card },
            None => Action::EndTurn {},
        }
    }

    /// The reward to take.
    fn ai_reward(&self) -> Action {
        let p = &self.player;
        let wanted = |r: &Reward| -> i64 {
            match r {
                Reward::Armor(_) => 1_000,
                Reward::Item(i) => {
                    let use_of = i.repair.min(p.max_ap - p.ap) + i.heal.min(p.max_hp - p.hp);
                    if use_of >= 10 {
                        500 + use_of as i64
                    } else {
                        0
                    }
                }
                Reward::Card(c) => CARD_RANKS
                    .iter()
                    .position(|&id| id == c.id)
                    .map_or(1, |rank| 100 - rank as i64),
            }
        };
        match self.offer.iter().max_by_key(|r| wanted(r)) {
            Some(r) if wanted(r) > 0 => Action::Take {
                reward: r.id().to_owned(),
            },
            _ => Action::Skip {},
        }
    }
}
