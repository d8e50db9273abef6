//! The main phase's actions: playing a card (a minion comes in with summoning sickness, a
//! spell or ultimate resolves and goes to the discard pile, an upgrade replaces an ability
//! for good), the hero power, the Attack ability, and a purchase. Each checks everything,
//! then changes the game.

use battle_protocol::Seat;

use super::cards::{AbilitySlot, Aim, Card, Effect, Kind};
use super::classes::ATTACK_COST;
use super::combat::Minion;
use super::error::HeroesError;
use super::items::Effect as ItemEffect;
use super::state::{ability_index, Held, Heroes, Phase};
use crate::words;

/// A target named in an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A hero, by seat.
    Hero(Seat),
    /// A minion, by id.
    Minion(u32),
}

impl Target {
    /// Read "hero:N" or "minion:ID".
    pub fn parse(text: &str) -> Option<Target> {
        let (kind, n) = text.split_once(':')?;
        let n: u32 = n.parse().ok()?;
        match kind {
            "hero" if n <= 1 => Some(Target::Hero(n as Seat)),
            "minion" => Some(Target::Minion(n)),
            _ => None,
        }
    }

    /// The wire form.
    pub fn name(self) -> String {
        match self {
            Target::Hero(seat) => format!("hero:{seat}"),
            Target::Minion(id) => format!("minion:{id}"),
        }
    }
}

/// Whether `card`'s effects need one target, and which ones are valid for `seat`.
pub fn aims(card: &Card) -> Option<Aim> {
    let effects = match card.kind {
        Kind::Spell(e) | Kind::Ultimate(e) => e,
        _ => return None,
    };
    effects.iter().find_map(|e| match e {
        Effect::Damage { aim, .. } | Effect::Channeled { aim, .. }
            if !matches!(aim, Aim::AllEnemyMinions | Aim::EnemyHero) =>
        {
            Some(*aim)
        }
        Effect::Buff { .. } => Some(Aim::Minion),
        _ => None,
    })
}

/// Whether `card` deals damage a Mage may add Spell Damage to.
pub fn takes_spell_damage(card: &Card) -> bool {
    let effects = match card.kind {
        Kind::Spell(e) | Kind::Ultimate(e) => e,
        _ => return false,
    };
    effects
        .iter()
        .any(|e| matches!(e, Effect::Damage { .. } | Effect::Channeled { .. }))
}

/// What the log calls an ability slot: "Attack ability".
fn slot_name(slot: AbilitySlot) -> &'static str {
    match slot {
        AbilitySlot::HeroPower => "hero power",
        AbilitySlot::Attack => "Attack ability",
        AbilitySlot::Defense => "Defensive Ability",
    }
}

impl Heroes {
    /// What `card` costs `seat` now (a levelled Mage's spells cost 1 less: spec).
    pub fn cost_of(&self, seat: Seat, card: &Card) -> u32 {
        let hero = &self.sides[seat].hero;
        let spell = matches!(card.kind, Kind::Spell(_) | Kind::Ultimate(_));
        if spell && hero.levelled && hero.class.id == "mage" {
            card.cost.saturating_sub(1)
        } else {
            card.cost
        }
    }

    /// The valid targets of a card aiming at `aim`, for `seat`.
    pub fn targets(&self, seat: Seat, card: &Card, aim: Aim) -> Vec<Target> {
        let buff = matches!(card.kind, Kind::Spell(e) if e.iter().any(|x| matches!(x, Effect::Buff { .. })));
        let minions = self.minions.iter();
        match aim {
            Aim::Minion if buff => minions
                .filter(|m| m.owner == seat)
                .map(|m| Target::Minion(m.id))
                .collect(),
            Aim::Minion => minions.map(|m| Target::Minion(m.id)).collect(),
            Aim::EnemyMinion => minions
                .filter(|m| m.owner != seat)
                .map(|m| Target::Minion(m.id))
                .collect(),
            Aim::Any => minions
                .map(|m| Target::Minion(m.id))
                .chain([Target::Hero(1 - seat), Target::Hero(seat)])
                .collect(),
            Aim::EnemyHero | Aim::AllEnemyMinions => Vec::new(),
        }
    }

    /// Play card `id` from `seat`'s hand.
    pub(super) fn play(
        &mut self,
        seat: Seat,
        id: u32,
        target: Option<&str>,
        spend: u32,
    ) -> Result<(), HeroesError> {
        if self.phase != Phase::Main {
            return Err(HeroesError::invalid("cards are played in your main phase"));
        }
        let Some(pos) = self.sides[seat].hand.iter().position(|h| h.id == id) else {
            return Err(HeroesError::invalid(format!(
                "card {id} is not in your hand"
            )));
        };
        let card = self.sides[seat].hand[pos].card;
        let cost = self.cost_of(seat, card);
        let hero = &self.sides[seat].hero;
        if cost > hero.mana {
            return Err(HeroesError::invalid(format!(
                "{} costs {cost} mana; you have {}",
                card.name, hero.mana
            )));
        }
        if matches!(card.kind, Kind::Ultimate(_)) && !hero.levelled {
            return Err(HeroesError::invalid(
                "ultimates are playable only after levelling up",
            ));
        }
        let target = match (aims(card), target) {
            (None, None) => None,
            (None, Some(_)) => {
                return Err(HeroesError::invalid(format!(
                    "{} takes no target",
                    card.name
                )))
            }
            (Some(_), None) => {
                return Err(HeroesError::invalid(format!(
                    "{} needs a target",
                    card.name
                )))
            }
            (Some(aim), Some(text)) => {
                let t = Target::parse(text).filter(|t| self.targets(seat, card, aim).contains(t));
                Some(t.ok_or_else(|| {
                    HeroesError::invalid(format!("{text} is not a target for {}", card.name))
                })?)
            }
        };
        let spendable = if takes_spell_damage(card) && hero.class.id == "mage" {
            hero.resource
        } else {
            0
        };
        if spend > spendable {
            return Err(HeroesError::invalid(format!(
                "you can spend 0 to {spendable} Spell Damage on this"
            )));
        }
        // Everything is checked: play it.
        let before = self.snapshot();
        let mut what = format!(
            "{} plays {} ({} mana)",
            self.names.of(seat),
            card.name,
            cost
        );
        if let Some(t) = target {
            what.push_str(&format!(" at {}", self.target_label(t)));
        }
        if spend > 0 {
            what.push_str(&format!(", adding {spend} Spell Damage"));
        }
        let held = self.sides[seat].hand.remove(pos);
        self.sides[seat].hero.mana -= cost;
        match card.kind {
            Kind::Minion {
                attack,
                health,
                bounty,
            } => {
                self.summon(seat, held.id, Some(card), attack, health, bounty);
            }
            Kind::Upgrade(slot) => {
                self.sides[seat].upgrades[ability_index(slot)] = Some(card);
                what.push_str(&format!(": it replaces the {} for good", slot_name(slot)));
            }
            Kind::Spell(effects) | Kind::Ultimate(effects) => {
                self.sides[seat].hero.resource -= spend;
                for effect in effects {
                    self.resolve_effect(seat, *effect, target, spend);
                }
                self.sides[seat].spells_this_turn += 1;
                self.sides[seat].discard.push(held);
                self.remove_dead(seat);
            }
        }
        self.land_unanswerable();
        self.note(what, &before);
        Ok(())
    }

    /// Put a minion into play for `seat`, with summoning sickness; `card` is the card it goes
    /// back to the discard pile as (none for a token an effect makes).
    fn summon(
        &mut self,
        seat: Seat,
        id: u32,
        card: Option<&'static Card>,
        attack: u32,
        health: u32,
        bounty: u32,
    ) {
        let (mut plus_attack, mut plus_health) = (0, 0);
        for effect in self.sides[seat].hero.effects() {
            match effect {
                ItemEffect::MinionAttack(n) => plus_attack += n,
                ItemEffect::MinionHealth(n) => plus_health += n,
                _ => {}
            }
        }
        self.minions.push(Minion {
            id,
            owner: seat,
            attack: attack + plus_attack,
            health: health + plus_health,
            damage: 0,
            bounty,
            tapped: false,
            sick: true,
        });
        if let Some(card) = card {
            self.minion_cards.insert(id, card);
        }
    }

    /// Deal `amount` to `target` (a hit on the defending hero waits in `pending`).
    pub(super) fn damage(&mut self, target: Target, amount: u32) {
        match target {
            Target::Minion(id) => {
                if let Some(m) = self.minions.iter_mut().find(|m| m.id == id) {
                    m.damage += amount;
                }
            }
            // The defending hero may answer with its Defensive Ability: the hit waits.
            Target::Hero(s) if s != self.active => self.pending.push(amount),
            Target::Hero(s) => {
                self.sides[s].hero.take_hit(amount, None);
            }
        }
    }

    fn resolve_effect(&mut self, seat: Seat, effect: Effect, target: Option<Target>, spend: u32) {
        let bonus: u32 = self.sides[seat].hero.total(|e| match e {
            ItemEffect::SpellDamage(n) => Some(*n),
            _ => None,
        });
        match effect {
            Effect::Damage { amount, aim } | Effect::Channeled { amount, aim, .. } => {
                let base = match effect {
                    Effect::Channeled { channeled, .. }
                        if self.sides[seat].spells_this_turn > 0 =>
                    {
                        channeled
                    }
                    _ => amount,
                };
                let total = base + spend + bonus;
                match aim {
                    Aim::AllEnemyMinions => {
                        for m in self.minions.iter_mut().filter(|m| m.owner != seat) {
                            m.damage += total;
                        }
                    }
                    Aim::EnemyHero => self.damage(Target::Hero(1 - seat), total),
                    _ => {
                        if let Some(t) = target {
                            self.damage(t, total);
                        }
                    }
                }
            }
            Effect::Armor(n) => self.sides[seat].hero.armor += n as i32,
            Effect::Rage(n) | Effect::SpellDamage(n) => self.sides[seat].hero.gain_resource(n),
            Effect::Draw(n) => self.draw(seat, n as usize),
            Effect::Heal(n) => {
                let hero = &mut self.sides[seat].hero;
                hero.health = (hero.health + n as i32).min(hero.max_health);
            }
            Effect::Gold(n) => self.sides[seat].hero.gold += n,
            Effect::Buff { attack, health } => {
                if let Some(Target::Minion(id)) = target {
                    if let Some(m) = self.minions.iter_mut().find(|m| m.id == id) {
                        m.attack += attack;
                        m.health += health;
                    }
                }
            }
            Effect::Untap => {
                for m in self.minions.iter_mut().filter(|m| m.owner == seat) {
                    m.tapped = false;
                }
            }
            Effect::Summon {
                attack,
                health,
                bounty,
            } => {
                let id = self.fresh_id();
                self.summon(seat, id, None, attack, health, bounty);
            }
        }
        self.sides[seat].hero.check_level_up();
    }

    /// The hero power's mana cost for `seat` (class base or upgrade, less item discounts).
    pub fn hero_power_cost(&self, seat: Seat) -> u32 {
        let side = &self.sides[seat];
        let base = match side.upgrades[ability_index(AbilitySlot::HeroPower)].map(|c| c.id) {
            Some("mana_weave") => 1,
            Some(_) => 2,
            None => side.hero.class.hero_power.0,
        };
        let discount: u32 = side.hero.total(|e| match e {
            ItemEffect::HeroPowerDiscount(n) => Some(*n),
            _ => None,
        });
        base.saturating_sub(discount)
    }

    pub(super) fn hero_power(&mut self, seat: Seat) -> Result<(), HeroesError> {
        let cost = self.hero_power_cost(seat);
        let side = &self.sides[seat];
        if self.phase != Phase::Main || side.hero.used.hero_power || side.hero.mana < cost {
            return Err(HeroesError::invalid(format!(
                "the hero power needs {cost} mana, once per turn, in your main phase"
            )));
        }
        let upgrade = side.upgrades[ability_index(AbilitySlot::HeroPower)].map(|c| c.id);
        let class = side.hero.class.id;
        let before = self.snapshot();
        let hero = &mut self.sides[seat].hero;
        hero.mana -= cost;
        hero.used.hero_power = true;
        match (class, upgrade) {
            (_, Some("iron_will")) => hero.armor += 3,
            (_, Some("mana_weave")) => hero.gain_resource(1),
            ("mage", _) => {
                hero.gain_resource(1);
                self.draw(seat, 1);
            }
            _ => hero.armor += 2,
        }
        self.sides[seat].hero.check_level_up();
        let what = format!(
            "{} uses the hero power ({} mana)",
            self.names.of(seat),
            cost
        );
        self.note(what, &before);
        Ok(())
    }

    /// The Attack ability's damage for `seat`: class base, weapon, Rage, the Barbarian's
    /// level-up bonus (its armor) and Brutal Strike's +2.
    pub fn weapon_damage(&self, seat: Seat) -> u32 {
        let side = &self.sides[seat];
        let hero = &side.hero;
        let mut damage = hero.class.weapon_damage;
        for effect in hero.effects() {
            if let ItemEffect::WeaponDamage(n) = effect {
                damage += n;
            }
        }
        if hero.class.id == "barbarian" {
            damage += hero.resource;
            if hero.levelled {
                damage += hero.armor.max(0) as u32;
            }
        }
        if side.upgrades[ability_index(AbilitySlot::Attack)].is_some() {
            damage += 2;
        }
        damage
    }

    pub(super) fn weapon_attack(&mut self, seat: Seat, target: &str) -> Result<(), HeroesError> {
        let hero = &self.sides[seat].hero;
        if self.phase != Phase::Main || hero.used.attack || hero.mana < ATTACK_COST {
            return Err(HeroesError::invalid(format!(
                "Attack needs {ATTACK_COST} mana, once per turn, in your main phase"
            )));
        }
        let valid = Target::parse(target).filter(|t| match t {
            Target::Hero(s) => *s != seat,
            Target::Minion(id) => self.minions.iter().any(|m| m.id == *id && m.owner != seat),
        });
        let Some(t) = valid else {
            return Err(HeroesError::invalid(format!(
                "{target} is not an enemy to attack"
            )));
        };
        let damage = self.weapon_damage(seat);
        let no_recoil_on_kill = self.sides[seat].upgrades[ability_index(AbilitySlot::Attack)]
            .is_some()
            || self.sides[seat]
                .hero
                .effects()
                .contains(&ItemEffect::WeaponKillNoRecoil);
        let splash: u32 = self.sides[seat].hero.total(|e| match e {
            ItemEffect::WeaponKillSplash(n) => Some(*n),
            _ => None,
        });
        let before = self.snapshot();
        let what = format!(
            "{} uses the Attack ability ({ATTACK_COST} mana) on {} for {damage} damage",
            self.names.of(seat),
            self.target_label(t)
        );
        let hero = &mut self.sides[seat].hero;
        hero.mana -= ATTACK_COST;
        hero.used.attack = true;
        match t {
            Target::Hero(s) => {
                self.damage(Target::Hero(s), damage);
                self.land_unanswerable();
                self.note(what, &before);
            }
            Target::Minion(id) => {
                let Some(m) = self.minions.iter_mut().find(|m| m.id == id) else {
                    return Ok(());
                };
                m.damage += damage;
                let killed = m.damage >= m.health;
                let back = m.attack;
                if !(killed && no_recoil_on_kill) {
                    self.sides[seat].hero.take_hit(back, None);
                }
                let mut what = what;
                if !(killed && no_recoil_on_kill) {
                    what.push_str(&format!(", taking {back} back"));
                    if let Some(rage) = self.rage_note(seat) {
                        what.push_str(&format!(" ({rage})"));
                    }
                }
                if killed && splash > 0 {
                    let others: Vec<u32> = self
                        .minions
                        .iter()
                        .filter(|m| m.owner != seat && m.id != id && m.damage < m.health)
                        .map(|m| m.id)
                        .collect();
                    if !others.is_empty() {
                        use rand::Rng;
                        let pick = others[self.rng.random_range(0..others.len())];
                        what.push_str(&format!(
                            ", and {splash} splash damage to {}",
                            self.minion_called(pick)
                        ));
                        self.damage(Target::Minion(pick), splash);
                    }
                }
                self.remove_dead(seat);
                self.note(what, &before);
            }
        }
        Ok(())
    }

    pub(super) fn buy(&mut self, seat: Seat, slot: usize) -> Result<(), HeroesError> {
        let hero = &self.sides[seat].hero;
        let item = self.market.slots.get(slot).copied().flatten();
        let Some(item) = item else {
            return Err(HeroesError::invalid(format!("market slot {slot} is empty")));
        };
        if self.phase != Phase::Main || hero.used.buy || hero.gold < item.cost {
            return Err(HeroesError::invalid(format!(
                "{} costs {} gold; you buy once per turn, in your main phase",
                item.name, item.cost
            )));
        }
        let before = self.snapshot();
        self.market.take(slot);
        let draw = self.sides[seat].hero.buy(item);
        self.draw(seat, draw as usize);
        let mut what = format!("{} buys {}", self.names.of(seat), item.name);
        if draw > 0 {
            what.push_str(&format!(" and draws {}", words::count(draw, "card")));
        }
        self.note(what, &before);
        Ok(())
    }

    /// Minion `id` died: its card (if it has one) goes to its owner's discard pile.
    pub(super) fn bury(&mut self, owner: Seat, id: u32) {
        if let Some(card) = self.minion_cards.remove(&id) {
            self.sides[owner].discard.push(Held { id, card });
        }
    }
}
