//! The bag (spec "Triggered Ability System"): triggered abilities wait in it; the active
//! player resolves theirs first, in the order they choose, then the other player; resolving
//! one can add new ones, and a game state check follows every resolution. Also the effects
//! themselves (an action's when it is played, an ability's when it resolves) and which
//! characters an effect may choose.

use battle_protocol::Seat;

use super::cards::{Ability, Card, Effect, When, Whom};
use super::state::{Lore, Modifier, Until};
use crate::words;

/// A triggered ability waiting in the bag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    /// Its id in the bag (unique in the battle).
    pub id: u32,
    /// Who resolves it: the owner of its source.
    pub owner: Seat,
    /// The instance id of the card it came from (maybe no longer in play).
    pub source: u32,
    /// That card.
    pub card: &'static Card,
    /// The ability.
    pub ability: &'static Ability,
}

impl Lore {
    /// Put `card`'s abilities that trigger on `when` into the bag, for `owner`.
    pub(super) fn trigger(&mut self, owner: Seat, source: u32, card: &'static Card, when: When) {
        for ability in card.abilities.iter().filter(|a| a.when == when) {
            let id = self.fresh_id();
            self.bag.push(Pending {
                id,
                owner,
                source,
                card,
                ability,
            });
        }
    }

    /// Who chooses the bag's next resolution: the active player while it has triggers in
    /// the bag (new ones included), else the other player.
    pub fn chooser(&self) -> Seat {
        if self.bag.iter().any(|p| p.owner == self.active) {
            self.active
        } else {
            1 - self.active
        }
    }

    /// The characters an effect of `controller` choosing `whom` may choose now.
    pub fn choices(&self, controller: Seat, whom: Whom) -> Vec<u32> {
        self.play
            .iter()
            .filter(|c| c.is_character())
            .filter(|c| match whom {
                Whom::Any => true,
                Whom::Opposing => c.owner != controller,
                Whom::Own => c.owner == controller,
            })
            .map(|c| c.id)
            .collect()
    }

    /// Whether `target` is a valid choice for an effect of `controller` choosing `whom`
    /// (`None` is valid only when there is nothing to choose).
    pub(super) fn valid_choice(&self, controller: Seat, whom: Whom, target: Option<u32>) -> bool {
        let choices = self.choices(controller, whom);
        match target {
            None => choices.is_empty(),
            Some(id) => choices.contains(&id),
        }
    }

    /// Resolve the bag's `trigger` with `target` (both checked by the caller); a game state
    /// check follows.
    pub(super) fn resolve(&mut self, trigger: u32, target: Option<u32>) {
        let Some(i) = self.bag.iter().position(|p| p.id == trigger) else {
            return;
        };
        let pending = self.bag.remove(i);
        let did = self.effect(pending.owner, pending.ability.effect, target);
        self.log.push(format!(
            "{} resolves {}'s ability: {did}.",
            self.player(pending.owner),
            pending.card.name
        ));
        self.check();
    }

    /// `controller`'s `effect` happens, on `target` if it chooses a character; what it did,
    /// in words ("Ben's Tide Caller takes 2 damage (3 to 1)").
    pub(super) fn effect(
        &mut self,
        controller: Seat,
        effect: Effect,
        target: Option<u32>,
    ) -> String {
        let chosen = target.and_then(|id| self.in_play(id));
        let name = chosen.map_or_else(|| "no character".to_owned(), |c| self.called(c));
        let left = chosen.map_or(0, |c| c.health_left());
        let strength = chosen.map_or(0, |c| c.strength());
        let willpower = chosen.and_then(|c| c.willpower()).unwrap_or(0);
        match effect {
            Effect::GainLore(n) => {
                let before = self.sides[controller].lore;
                self.sides[controller].lore += n;
                format!(
                    "{} for {}",
                    words::gain(i64::from(before), i64::from(before + n), "lore"),
                    self.player(controller)
                )
            }
            Effect::OpponentLosesLore(n) => {
                let side = &mut self.sides[1 - controller];
                let before = side.lore;
                side.lore = side.lore.saturating_sub(n);
                let after = side.lore;
                format!(
                    "{} for {}",
                    words::gain(i64::from(before), i64::from(after), "lore"),
                    self.player(1 - controller)
                )
            }
            Effect::Draw(n) => {
                self.draw(controller, n as usize);
                format!(
                    "{} draws {}",
                    self.player(controller),
                    words::count(n, "card")
                )
            }
            Effect::Damage(n, _) => {
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.damage += n;
                    format!(
                        "{name} takes {}",
                        words::damage(n, left, left.saturating_sub(n))
                    )
                } else {
                    format!("{n} damage to {name}")
                }
            }
            Effect::Heal(n, _) => match target.and_then(|id| self.in_play_mut(id)) {
                Some(card) => {
                    let removed = n.min(card.damage);
                    card.damage -= removed;
                    format!("{name} {}", words::heal(removed, left, left + removed))
                }
                None => format!("up to {n} damage removed from {name}"),
            },
            Effect::Strength(n, _) => {
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.mods.push(Modifier {
                        strength: n,
                        willpower: 0,
                        until: Until::ThisTurn,
                    });
                }
                format!(
                    "{name}: {} this turn",
                    words::gain(i64::from(strength), i64::from(strength + n), "strength")
                )
            }
            Effect::Willpower(n, _) => {
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.mods.push(Modifier {
                        strength: 0,
                        willpower: n,
                        until: Until::StartOfTurn(controller),
                    });
                }
                format!(
                    "{name}: {} until the start of {}'s next turn",
                    words::gain(i64::from(willpower), i64::from(willpower + n), "willpower"),
                    self.player(controller)
                )
            }
            Effect::Exert(_) => {
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.exerted = true;
                }
                format!("{name} is exerted")
            }
        }
    }
}
