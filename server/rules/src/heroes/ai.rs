//! The bot for a heroes seat, a simple heuristic rather than random play: it goes first,
//! puts back cards costing more than 4, plays its most expensive affordable minion (else a
//! damage spell at the enemy hero, else any card it can), buys what it can afford, uses the
//! hero power and Attack on the enemy hero, attacks with every ready minion, blocks an
//! attacker with a minion that survives it, orders gangs as declared, defends against the
//! biggest hit of 3 or more, then passes.

use battle_protocol::Seat;

use super::cards::Kind;
use super::main_phase::{aims, Target};
use super::play::Action;
use super::state::{Heroes, Phase};

impl Heroes {
    /// The bot's decision for `seat`, when it is awaited.
    pub fn ai_for(&self, seat: Seat) -> Option<Action> {
        if !self.awaited().contains(&seat) {
            return None;
        }
        Some(match &self.phase {
            Phase::Choosing(_) => Action::ChooseFirst { first: seat },
            Phase::Mulligan => Action::Mulligan {
                cards: self.sides[seat]
                    .hand
                    .iter()
                    .filter(|h| h.card.cost > 4)
                    .map(|h| h.id)
                    .take(super::state::MULLIGAN_MAX)
                    .collect(),
            },
            Phase::Main => self.main_move(seat),
            Phase::Combat(combat) => match &combat.blocks {
                None => {
                    let blockers = self.ready_blockers(seat);
                    let attackers = self.safe_blocks(&blockers, &combat.attackers);
                    Action::Block {
                        blockers,
                        attackers,
                    }
                }
                Some(blocks) => match self.unordered(combat, blocks) {
                    Some(attacker) => Action::Order {
                        attacker,
                        order: super::combat::gangs(blocks)
                            .remove(&attacker)
                            .unwrap_or_default(),
                    },
                    None => {
                        let biggest = self
                            .unblocked(combat)
                            .into_iter()
                            .filter_map(|id| self.minions.iter().find(|m| m.id == id))
                            .filter(|m| m.attack >= 3)
                            .max_by_key(|m| m.attack)
                            .map(|m| m.id);
                        Action::Defend { source: biggest }
                    }
                },
            },
            Phase::Incoming => Action::Defend {
                source: self
                    .pending
                    .iter()
                    .enumerate()
                    .filter(|(_, &hit)| hit >= 3)
                    .max_by_key(|(_, &hit)| hit)
                    .map(|(i, _)| i as u32),
            },
            Phase::Over => return None,
        })
    }

    fn main_move(&self, seat: Seat) -> Action {
        let side = &self.sides[seat];
        let hero = &side.hero;
        let affordable = |h: &&super::state::Held| {
            self.cost_of(seat, h.card) <= hero.mana
                && (!matches!(h.card.kind, Kind::Ultimate(_)) || hero.levelled)
        };
        let minion = side
            .hand
            .iter()
            .filter(affordable)
            .filter(|h| matches!(h.card.kind, Kind::Minion { .. }))
            .max_by_key(|h| h.card.cost);
        if let Some(h) = minion {
            return Action::Play {
                card: h.id,
                target: None,
                spend: 0,
            };
        }
        for h in side.hand.iter().filter(affordable) {
            let target = match aims(h.card) {
                None => None,
                Some(aim) => {
                    let targets = self.targets(seat, h.card, aim);
                    let enemy_hero = Target::Hero(1 - seat);
                    let pick = if targets.contains(&enemy_hero) {
                        Some(enemy_hero)
                    } else {
                        targets.into_iter().find(|t| match t {
                            Target::Minion(id) => self
                                .minions
                                .iter()
                                .any(|m| m.id == *id && (m.owner != seat) != is_buff(h.card)),
                            Target::Hero(_) => false,
                        })
                    };
                    match pick {
                        Some(t) => Some(t.name()),
                        None => continue,
                    }
                }
            };
            return Action::Play {
                card: h.id,
                target,
                spend: 0,
            };
        }
        if !hero.used.buy {
            let slot = self
                .market
                .slots
                .iter()
                .position(|i| i.is_some_and(|i| i.cost <= hero.gold));
            if let Some(slot) = slot {
                return Action::Buy { slot };
            }
        }
        if !hero.used.hero_power && hero.mana >= self.hero_power_cost(seat) {
            return Action::HeroPower {};
        }
        if !hero.used.attack && hero.mana >= super::classes::ATTACK_COST {
            return Action::Attack {
                target: Target::Hero(1 - seat).name(),
            };
        }
        let ready = self.ready_attackers(seat);
        if !ready.is_empty() {
            return Action::Fight { attackers: ready };
        }
        Action::EndTurn {}
    }

    /// For each of `blockers`, the attacker it blocks: one it survives, each attacker by one
    /// blocker at most.
    fn safe_blocks(&self, blockers: &[u32], attackers: &[u32]) -> Vec<Option<u32>> {
        let mut open: Vec<u32> = attackers.to_vec();
        blockers
            .iter()
            .map(|id| {
                let blocker = self.minions.iter().find(|m| m.id == *id)?;
                let pick = open.iter().position(|a| {
                    self.minions
                        .iter()
                        .any(|m| m.id == *a && blocker.lethal() > m.attack)
                })?;
                Some(open.remove(pick))
            })
            .collect()
    }
}

fn is_buff(card: &super::cards::Card) -> bool {
    matches!(card.kind, Kind::Spell(e) if e.iter().any(|x| matches!(x, super::cards::Effect::Buff { .. })))
}
