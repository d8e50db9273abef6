//! The Training Automaton (spec 7.2): a fixed priority rule that picks one card per decision
//! from what the deciding side can see. Used for the engine seat in PvE and for any seat the
//! server asks [`choose`] about.

use battle_protocol::Seat;

use super::cards::EffectContext;
use super::deck::Card;
use super::play::Action;
use super::side::Side;
use super::state::Battle;

/// Own HP at or below which the Automaton looks for block (priority 3).
pub const LOW_HP: u32 = 25;

/// Which rule of the priority list made the choice (for tests and documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// 1: an attack that brings the opponent to 0 HP after its block.
    Lethal,
    /// 2: the attack with the most damage now.
    HighestDamage,
    /// 3: own HP is low: the card with the most block now.
    HighestBlock,
    /// 4: the first playable card in hand order.
    FirstPlayable,
    /// No playable card: end the turn.
    EndTurn,
}

/// Damage `card` would deal if `side` played it now: base + pending focus + Flame synergy
/// when it would trigger, before the opponent's block. `None` for cards that deal no damage.
pub fn damage_now(side: &Side, card: &Card) -> Option<u32> {
    card.def.deals_damage().then(|| {
        let ctx = EffectContext {
            synergy: side.would_synergize(card.def.sigil),
            focus: side.focus,
        };
        card.def.effect(ctx).damage
    })
}

/// Block `card` would give if `side` played it now (Leaf synergy included when it would
/// trigger). `None` for cards that gain no block.
pub fn block_now(side: &Side, card: &Card) -> Option<u32> {
    card.def.gains_block().then(|| {
        let ctx = EffectContext {
            synergy: side.would_synergize(card.def.sigil),
            focus: 0,
        };
        card.def.effect(ctx).block
    })
}

/// The best `(index, value)` by `value`; ties go to the earliest candidate.
fn best(candidates: impl Iterator<Item = (usize, u32)>) -> Option<(usize, u32)> {
    candidates.fold(None, |best, (i, v)| match best {
        Some((_, bv)) if bv >= v => best,
        _ => Some((i, v)),
    })
}

/// The Automaton's decision for `seat`, with the rule that made it; `None` when `seat` does
/// not have to act.
pub fn decide(battle: &Battle, seat: Seat) -> Option<(Action, Reason)> {
    if battle.active_seat() != Some(seat) {
        return None;
    }
    let side = &battle.sides[seat];
    let foe = &battle.sides[1 - seat];
    if side.energy == 0 {
        return Some((Action::EndTurn {}, Reason::EndTurn));
    }
    let playable: Vec<&Card> = side
        .zones
        .hand
        .iter()
        .filter(|card| card.def.cost <= side.energy)
        .collect();
    let attacks = || {
        playable
            .iter()
            .enumerate()
            .filter_map(|(i, card)| damage_now(side, card).map(|d| (i, d)))
    };
    let lethal = best(attacks().filter(|&(_, d)| d.saturating_sub(foe.block) >= foe.hp));
    let pick = |i: usize, reason| {
        Some((
            Action::PlayCard {
                card: playable[i].id,
            },
            reason,
        ))
    };
    if let Some((i, _)) = lethal {
        return pick(i, Reason::Lethal);
    }
    if let Some((i, _)) = best(attacks()) {
        return pick(i, Reason::HighestDamage);
    }
    if side.hp <= LOW_HP {
        let blocks = playable
            .iter()
            .enumerate()
            .filter_map(|(i, card)| block_now(side, card).map(|b| (i, b)));
        if let Some((i, _)) = best(blocks) {
            return pick(i, Reason::HighestBlock);
        }
    }
    if !playable.is_empty() {
        return pick(0, Reason::FirstPlayable);
    }
    Some((Action::EndTurn {}, Reason::EndTurn))
}

/// The Automaton's action for `seat`, if `seat` must act.
pub fn choose(battle: &Battle, seat: Seat) -> Option<Action> {
    decide(battle, seat).map(|(action, _)| action)
}
