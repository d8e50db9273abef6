//! Active relics (spec "Relic Slot": "once-per-game activated abilities"): the equipped
//! relic's ability, paid in mana, once per game, in the main phase.

use battle_protocol::Seat;

use super::error::HeroesError;
use super::items::Effect as ItemEffect;
use super::main_phase::Target;
use super::state::{Heroes, Phase};

impl Heroes {
    /// The active ability of `seat`'s relic, if it has one, unused, affordable now.
    pub fn relic_ability(&self, seat: Seat) -> Option<ItemEffect> {
        let side = &self.sides[seat];
        if side.relic_used || self.phase != Phase::Main {
            return None;
        }
        let relic = side.hero.equipment[3]?;
        relic.effects.iter().copied().find(|e| {
            let mana = match e {
                ItemEffect::ActiveImmune { mana }
                | ItemEffect::ActiveUntap { mana }
                | ItemEffect::ActiveBlast { mana, .. }
                | ItemEffect::ActiveHeal { mana, .. }
                | ItemEffect::ActiveDraw { mana, .. }
                | ItemEffect::ActiveArmor { mana, .. }
                | ItemEffect::ActiveSlay { mana, .. } => *mana,
                _ => return false,
            };
            mana <= side.hero.mana
        })
    }

    /// The targets the relic's ability takes (none for one that does not aim).
    pub fn relic_targets(&self, seat: Seat, ability: ItemEffect) -> Option<Vec<Target>> {
        match ability {
            ItemEffect::ActiveBlast { .. } => Some(
                self.minions
                    .iter()
                    .map(|m| Target::Minion(m.id))
                    .chain([Target::Hero(1 - seat), Target::Hero(seat)])
                    .collect(),
            ),
            ItemEffect::ActiveSlay { health, .. } => Some(
                self.minions
                    .iter()
                    .filter(|m| m.owner != seat && m.lethal() <= health)
                    .map(|m| Target::Minion(m.id))
                    .collect(),
            ),
            _ => None,
        }
    }

    pub(super) fn use_relic(
        &mut self,
        seat: Seat,
        target: Option<&str>,
    ) -> Result<(), HeroesError> {
        let Some(ability) = self.relic_ability(seat) else {
            return Err(HeroesError::invalid(
                "no relic ability to use: once per game, with its mana, in your main phase",
            ));
        };
        let aimed = match (self.relic_targets(seat, ability), target) {
            (None, None) => None,
            (Some(valid), Some(text)) => match Target::parse(text).filter(|t| valid.contains(t)) {
                Some(t) => Some(t),
                None => {
                    return Err(HeroesError::invalid(format!(
                        "{text} is not a target for it"
                    )))
                }
            },
            (Some(_), None) => return Err(HeroesError::invalid("this relic needs a target")),
            (None, Some(_)) => return Err(HeroesError::invalid("this relic takes no target")),
        };
        let before = self.snapshot();
        let relic = self.sides[seat].hero.equipment[3].map_or("the relic", |item| item.name);
        let mut what = format!("{} uses {relic}", self.names.of(seat));
        if let Some(t) = aimed {
            what.push_str(&format!(" on {}", self.target_label(t)));
        }
        self.sides[seat].relic_used = true;
        let hero = &mut self.sides[seat].hero;
        match ability {
            ItemEffect::ActiveImmune { mana } => {
                hero.mana -= mana;
                hero.immune = true;
            }
            ItemEffect::ActiveUntap { mana } => {
                hero.mana -= mana;
                for m in self.minions.iter_mut().filter(|m| m.owner == seat) {
                    m.tapped = false;
                }
            }
            ItemEffect::ActiveHeal { mana, health } => {
                hero.mana -= mana;
                hero.health = (hero.health + health as i32).min(hero.max_health);
            }
            ItemEffect::ActiveDraw { mana, cards } => {
                hero.mana -= mana;
                self.draw(seat, cards as usize);
            }
            ItemEffect::ActiveArmor { mana, armor } => {
                hero.mana -= mana;
                hero.armor += armor as i32;
                hero.check_level_up();
            }
            ItemEffect::ActiveBlast { mana, damage } => {
                hero.mana -= mana;
                match aimed {
                    Some(Target::Hero(s)) => self.damage(Target::Hero(s), damage),
                    Some(Target::Minion(id)) => {
                        if let Some(m) = self.minions.iter_mut().find(|m| m.id == id) {
                            m.damage += damage;
                        }
                    }
                    None => {}
                }
            }
            ItemEffect::ActiveSlay { mana, .. } => {
                hero.mana -= mana;
                if let Some(Target::Minion(id)) = aimed {
                    if let Some(m) = self.minions.iter_mut().find(|m| m.id == id) {
                        m.damage = m.health;
                    }
                }
            }
            _ => {}
        }
        self.remove_dead(seat);
        self.land_unanswerable();
        self.note(what, &before);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heroes::classes::{BARBARIAN, MAGE};
    use crate::heroes::items::find;

    #[test]
    fn an_active_relic_is_used_once_per_game_for_its_mana() {
        let mut g = Heroes::new([&BARBARIAN, &MAGE], 1);
        g.set_first(0);
        g.mulligan(0, &[]);
        g.mulligan(1, &[]);
        let seat = g.active;
        g.sides[seat].hero.gold = 20;
        g.sides[seat].hero.mana = 5;
        g.sides[seat]
            .hero
            .buy(find("black_king_bar").expect("the spec's relic"));
        assert_eq!(
            g.relic_ability(seat),
            Some(ItemEffect::ActiveImmune { mana: 3 })
        );
        assert!(
            g.use_relic(seat, Some("hero:1")).is_err(),
            "it takes no target"
        );
        g.use_relic(seat, None).expect("pay 3 mana: immune");
        assert!(g.sides[seat].hero.immune);
        assert_eq!(g.sides[seat].hero.mana, 2);
        assert!(g.relic_ability(seat).is_none(), "once per game");
        assert!(g.use_relic(seat, None).is_err());
    }
}
