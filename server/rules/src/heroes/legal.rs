//! Everything a seat may do now, as the envelope's `legal` list: whole actions, and open
//! ones where the player fills something in (the mulligan's cards, the attackers, the
//! blocks, a gang's order).

use battle_protocol::Seat;

use super::main_phase::{aims, takes_spell_damage, Target};
use super::play::Action;
use super::state::{Heroes, Phase, MULLIGAN_MAX};
use crate::legal::{Legal, Open};
use crate::param::Param;
use crate::view::ViewValue;

fn ids(ids: impl IntoIterator<Item = u32>) -> Vec<ViewValue> {
    ids.into_iter()
        .map(|id| ViewValue::from(i64::from(id)))
        .collect()
}

impl Heroes {
    /// `seat`'s legal entries now (none unless it is awaited).
    pub fn legal_for(&self, seat: Seat) -> Vec<Legal<Action>> {
        let mut legal = Vec::new();
        if seat > 1 || !self.awaited().contains(&seat) {
            return legal;
        }
        match &self.phase {
            Phase::Choosing(_) => {
                for first in 0..2 {
                    legal.push(Legal::Act(Action::ChooseFirst { first }));
                }
            }
            Phase::Mulligan => {
                let hand = self.sides[seat].hand.iter().map(|h| h.id);
                legal.push(Legal::Open(
                    Open::new("mulligan")
                        .choose("cards", Param::subset(ids(hand), 0, MULLIGAN_MAX)),
                ));
            }
            Phase::Main => self.main_legal(seat, &mut legal),
            Phase::Combat(combat) => match &combat.blocks {
                None => {
                    // One choice per blocker: an attacker or nobody; any fill is valid.
                    let blockers = self.ready_blockers(seat);
                    let n = blockers.len();
                    let each = Param::Maybe(Box::new(Param::OneOf(ids(combat
                        .attackers
                        .iter()
                        .copied()))));
                    legal.push(Legal::Open(
                        Open::new("block")
                            .fixed("blockers", ViewValue::List(ids(blockers)))
                            .choose(
                                "attackers",
                                Param::List {
                                    item: Box::new(each),
                                    min: n,
                                    max: n,
                                },
                            ),
                    ));
                }
                Some(blocks) => match self.unordered(combat, blocks) {
                    Some(attacker) => {
                        let gang = super::combat::gangs(blocks)
                            .remove(&attacker)
                            .unwrap_or_default();
                        legal.push(Legal::Open(
                            Open::new("order")
                                .fixed("attacker", i64::from(attacker))
                                .choose("order", Param::Order(ids(gang))),
                        ));
                    }
                    None => {
                        for source in self.unblocked(combat) {
                            legal.push(Legal::Act(Action::Defend {
                                source: Some(source),
                            }));
                        }
                        legal.push(Legal::Act(Action::Defend { source: None }));
                    }
                },
            },
            Phase::Incoming => {
                for i in 0..self.pending.len() {
                    legal.push(Legal::Act(Action::Defend {
                        source: Some(i as u32),
                    }));
                }
                legal.push(Legal::Act(Action::Defend { source: None }));
            }
            Phase::Over => {}
        }
        legal
    }

    fn main_legal(&self, seat: Seat, legal: &mut Vec<Legal<Action>>) {
        let side = &self.sides[seat];
        let hero = &side.hero;
        for held in &side.hand {
            let card = held.card;
            if self.cost_of(seat, card) > hero.mana
                || (matches!(card.kind, super::cards::Kind::Ultimate(_)) && !hero.levelled)
            {
                continue;
            }
            let spend = if takes_spell_damage(card) && hero.class.id == "mage" {
                hero.resource
            } else {
                0
            };
            match aims(card) {
                None if spend == 0 => legal.push(Legal::Act(Action::Play {
                    card: held.id,
                    target: None,
                    spend: 0,
                })),
                None => legal.push(Legal::Open(
                    Open::new("play")
                        .fixed("card", i64::from(held.id))
                        .fixed("target", ViewValue::Null)
                        .choose(
                            "spend",
                            Param::Int {
                                min: 0,
                                max: i64::from(spend),
                            },
                        ),
                )),
                Some(aim) => {
                    let targets: Vec<ViewValue> = self
                        .targets(seat, card, aim)
                        .into_iter()
                        .map(|t| ViewValue::from(t.name()))
                        .collect();
                    if targets.is_empty() {
                        continue;
                    }
                    legal.push(Legal::Open(
                        Open::new("play")
                            .fixed("card", i64::from(held.id))
                            .choose("target", Param::OneOf(targets))
                            .choose(
                                "spend",
                                Param::Int {
                                    min: 0,
                                    max: i64::from(spend),
                                },
                            ),
                    ));
                }
            }
        }
        if !hero.used.hero_power && hero.mana >= self.hero_power_cost(seat) {
            legal.push(Legal::Act(Action::HeroPower {}));
        }
        if !hero.used.attack && hero.mana >= super::classes::ATTACK_COST {
            let enemies = self
                .minions
                .iter()
                .filter(|m| m.owner != seat)
                .map(|m| Target::Minion(m.id))
                .chain([Target::Hero(1 - seat)]);
            for target in enemies {
                legal.push(Legal::Act(Action::Attack {
                    target: target.name(),
                }));
            }
        }
        if !hero.used.buy {
            for (slot, item) in self.market.slots.iter().enumerate() {
                if item.is_some_and(|item| item.cost <= hero.gold) {
                    legal.push(Legal::Act(Action::Buy { slot }));
                }
            }
        }
        if let Some(ability) = self.relic_ability(seat) {
            match self.relic_targets(seat, ability) {
                None => legal.push(Legal::Act(Action::Relic { target: None })),
                Some(targets) => {
                    for t in targets {
                        legal.push(Legal::Act(Action::Relic {
                            target: Some(t.name()),
                        }));
                    }
                }
            }
        }
        let ready = self.ready_attackers(seat);
        if !ready.is_empty() {
            let max = ready.len();
            legal.push(Legal::Open(
                Open::new("fight").choose("attackers", Param::subset(ids(ready), 1, max)),
            ));
        }
        legal.push(Legal::Act(Action::EndTurn {}));
    }
}
