//! The bag (spec "Triggered Ability System"): triggered abilities wait in it; the active
//! player resolves theirs first, in the order they choose, then the other player; resolving
//! one can add new ones, and a game state check follows every resolution. Also the effects
//! themselves (an action's when it is played, an ability's when it resolves) and which
//! characters an effect may choose.

use battle_protocol::Seat;

use super::cards::{Ability, Card, Effect, When, Whom};
use super::state::{player, Lore, Modifier, Until};

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
        self.log.push(format!(
            "{} resolves {}: {}",
            player(pending.owner),
            pending.card.name,
            pending.ability.text
        ));
        self.effect(pending.owner, pending.ability.effect, target);
        self.check();
    }

    /// `controller`'s `effect` happens, on `target` if it chooses a character.
    pub(super) fn effect(&mut self, controller: Seat, effect: Effect, target: Option<u32>) {
        let name = |game: &Lore| {
            target
                .and_then(|id| game.in_play(id))
                .map_or("nothing", |c| c.card.name)
        };
        let line = match effect {
            Effect::GainLore(n) => {
                self.sides[controller].lore += n;
                format!(
                    "{} gains {n} lore ({} lore).",
                    player(controller),
                    self.sides[controller].lore
                )
            }
            Effect::OpponentLosesLore(n) => {
                let side = &mut self.sides[1 - controller];
                side.lore = side.lore.saturating_sub(n);
                format!(
                    "{} loses {n} lore ({} lore).",
                    player(1 - controller),
                    side.lore
                )
            }
            Effect::Draw(n) => {
                self.draw(controller, n as usize);
                format!(
                    "{} draws {n} card{}.",
                    player(controller),
                    if n == 1 { "" } else { "s" }
                )
            }
            Effect::Damage(n, _) => {
                let line = format!("{n} damage to {}.", name(self));
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.damage += n;
                }
                line
            }
            Effect::Heal(n, _) => {
                let line = format!("Up to {n} damage removed from {}.", name(self));
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.damage = card.damage.saturating_sub(n);
                }
                line
            }
            Effect::Strength(n, _) => {
                let line = format!("{} gets +{n} strength this turn.", name(self));
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.mods.push(Modifier {
                        strength: n,
                        willpower: 0,
                        until: Until::ThisTurn,
                    });
                }
                line
            }
            Effect::Willpower(n, _) => {
                let line = format!(
                    "{} gets +{n} willpower until the start of {}'s next turn.",
                    name(self),
                    player(controller)
                );
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.mods.push(Modifier {
                        strength: 0,
                        willpower: n,
                        until: Until::StartOfTurn(controller),
                    });
                }
                line
            }
            Effect::Exert(_) => {
                let line = format!("{} is exerted.", name(self));
                if let Some(card) = target.and_then(|id| self.in_play_mut(id)) {
                    card.exerted = true;
                }
                line
            }
        };
        self.log.push(line);
    }
}
