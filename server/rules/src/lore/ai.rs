//! The bot for a lore seat, a heuristic rather than random play: it puts back cards costing
//! 5 or more; it quests for the win when it can; it inks one card a turn (the dearest it
//! cannot play soon, else its cheapest) until it has 8 ink; it plays its dearest
//! affordable card (an action only with a useful target); it challenges when the trade is
//! good (the target banished and the challenger surviving, or worth more than it); it
//! quests when its character is safe from a challenge next turn, worth 2 lore or more,
//! cheap, or when the race is close; then it passes. Triggers resolve in bag order, each
//! on the best character for its effect.

use battle_protocol::Seat;

use super::cards::{Effect, Kind};
use super::moves::Action;
use super::state::{InPlay, Lore, Phase, WIN_LORE};

/// The bot stops inking at this much ink.
const INK_TARGET: usize = 8;
/// Cards costing this much or more go back at the mulligan.
const MULLIGAN_COST: u32 = 5;

/// How much a card in play is worth to its owner, for trades.
fn worth(card: &InPlay) -> u32 {
    card.lore() * 2 + card.card.cost
}

/// Damage it can still take.
fn remaining(card: &InPlay) -> u32 {
    card.willpower().unwrap_or(0).saturating_sub(card.damage)
}

impl Lore {
    /// The bot's decision for `seat`, when it is awaited.
    pub fn ai_for(&self, seat: Seat) -> Option<Action> {
        if !self.awaited().contains(&seat) {
            return None;
        }
        if self.phase == Phase::Mulligan {
            let cards = self.sides[seat]
                .hand
                .iter()
                .filter(|h| h.card.cost >= MULLIGAN_COST)
                .map(|h| h.id)
                .collect();
            return Some(Action::Mulligan { cards });
        }
        if let Some(pending) = self.bag.iter().find(|p| p.owner == seat) {
            return Some(Action::Resolve {
                trigger: pending.id,
                target: self
                    .best_target(seat, pending.ability.effect)
                    .map(|(id, _)| id),
            });
        }
        (self.phase == Phase::Main).then(|| self.ai_main(seat))
    }

    fn ai_main(&self, seat: Seat) -> Action {
        let side = &self.sides[seat];
        let mine: Vec<&InPlay> = self
            .play
            .iter()
            .filter(|c| c.owner == seat && c.can_act())
            .collect();
        if let Some(c) = mine.iter().find(|c| side.lore + c.lore() >= WIN_LORE) {
            return Action::Quest { character: c.id };
        }
        if let Some(card) = self.ink_choice(seat) {
            return Action::Ink { card };
        }
        if let Some(action) = self.play_choice(seat) {
            return action;
        }
        if let Some((challenger, target)) = self.challenge_choice(seat, &mine) {
            return Action::Challenge { challenger, target };
        }
        let threat = self
            .play
            .iter()
            .filter(|c| c.owner != seat && c.is_character())
            .map(InPlay::strength)
            .max()
            .unwrap_or(0);
        let race = self.sides[1 - seat].lore + 5 >= WIN_LORE;
        if let Some(c) = mine
            .iter()
            .find(|c| threat < remaining(c) || c.lore() >= 2 || c.card.cost <= 2 || race)
        {
            return Action::Quest { character: c.id };
        }
        Action::PassTurn {}
    }

    /// The card to ink this turn, if any.
    fn ink_choice(&self, seat: Seat) -> Option<u32> {
        let side = &self.sides[seat];
        let ink = side.inkwell.len();
        if side.inked || ink >= INK_TARGET || (ink >= 4 && side.hand.len() < 2) {
            return None;
        }
        let inkable = side.hand.iter().filter(|h| h.card.inkable);
        let far = inkable
            .clone()
            .filter(|h| h.card.cost > side.ink_ready + 1)
            .max_by_key(|h| h.card.cost);
        far.or_else(|| inkable.min_by_key(|h| h.card.cost))
            .map(|h| h.id)
    }

    /// The dearest affordable card worth playing now, with its target.
    fn play_choice(&self, seat: Seat) -> Option<Action> {
        let side = &self.sides[seat];
        let mut hand: Vec<_> = side
            .hand
            .iter()
            .filter(|h| h.card.cost <= side.ink_ready)
            .collect();
        hand.sort_by_key(|h| std::cmp::Reverse(h.card.cost));
        hand.into_iter().find_map(|h| {
            let Kind::Action(effects) = h.card.kind else {
                return Some(Action::Play {
                    card: h.id,
                    target: None,
                });
            };
            match effects.iter().find(|e| e.chooses().is_some()) {
                None => Some(Action::Play {
                    card: h.id,
                    target: None,
                }),
                Some(&effect) => {
                    let (target, score) = self.best_target(seat, effect)?;
                    (score >= 10).then_some(Action::Play {
                        card: h.id,
                        target: Some(target),
                    })
                }
            }
        })
    }

    /// A good challenge: the target banished and the challenger surviving, or the target
    /// worth more than the challenger; the most valuable target first.
    fn challenge_choice(&self, seat: Seat, mine: &[&InPlay]) -> Option<(u32, u32)> {
        let targets = self.challenge_targets(seat);
        let mut best: Option<(u32, u32, u32)> = None;
        for attacker in mine {
            for target in targets.iter().filter_map(|&id| self.in_play(id)) {
                let banishes = attacker.strength() >= remaining(target);
                let survives = target.strength() < remaining(attacker);
                let good = banishes && (survives || worth(target) > worth(attacker));
                let value = worth(target) * 2 + u32::from(survives);
                if good && best.is_none_or(|(_, _, v)| value > v) {
                    best = Some((attacker.id, target.id, value));
                }
            }
        }
        best.map(|(a, t, _)| (a, t))
    }

    /// The best character for `seat`'s `effect` to choose, with a score (10 or more: worth
    /// doing); `None` when it chooses none or there is none to choose.
    pub(super) fn best_target(&self, seat: Seat, effect: Effect) -> Option<(u32, i64)> {
        let whom = effect.chooses()?;
        let challengeable = !self.challenge_targets(seat).is_empty();
        self.choices(seat, whom)
            .into_iter()
            .filter_map(|id| self.in_play(id))
            .map(|c| {
                let own = c.owner == seat;
                let (lore, strength) = (i64::from(c.lore()), i64::from(c.strength()));
                let score = match effect {
                    Effect::Damage(..) if own => -100 + i64::from(remaining(c)),
                    Effect::Damage(n, _) if n >= remaining(c) => {
                        100 + lore * 10 + i64::from(c.card.cost)
                    }
                    Effect::Damage(..) => 10 + lore * 2 + strength,
                    Effect::Heal(..) | Effect::Willpower(..) if own => i64::from(c.damage) * 10,
                    Effect::Heal(..) | Effect::Willpower(..) => -10,
                    Effect::Strength(..) if own && c.can_act() && challengeable => 10 + strength,
                    Effect::Strength(..) if own => 1,
                    Effect::Strength(..) => -10,
                    Effect::Exert(_) if !own && !c.exerted => 10 + lore * 3 + strength,
                    Effect::Exert(_) => -10,
                    Effect::GainLore(_) | Effect::OpponentLosesLore(_) | Effect::Draw(_) => 0,
                };
                (c.id, score)
            })
            .max_by_key(|&(id, score)| (score, std::cmp::Reverse(id)))
    }
}
