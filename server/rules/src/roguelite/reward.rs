//! Between battles: the offer (two cards found for the deck and one piece of gear: a Repair
//! Kit, a Healing Draught or the next better armor), taking one of them or none, and the way
//! on to the next battle (a new depth restores some HP).

use rand::seq::{IndexedRandom, IteratorRandom};

use super::cards::{reward_pool, Card};
use super::enemies::{BATTLES_PER_DEPTH, DEPTHS};
use super::equipment::{Armor, Item, ARMORS, DEPTH_REST_HP, ITEMS};
use super::state::{Roguelite, Stage};
use crate::words;

/// Cards in an offer.
pub const OFFERED_CARDS: usize = 2;

/// One thing on offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reward {
    /// A card added to the deck.
    Card(&'static Card),
    /// Armor put on at once (whole: its full AP), replacing the worn one.
    Armor(&'static Armor),
    /// An item used at once.
    Item(&'static Item),
}

impl Reward {
    /// Its id (what `take` names).
    pub fn id(&self) -> &'static str {
        match self {
            Reward::Card(c) => c.id,
            Reward::Armor(a) => a.id,
            Reward::Item(i) => i.id,
        }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Reward::Card(c) => c.name,
            Reward::Armor(a) => a.name,
            Reward::Item(i) => i.name,
        }
    }

    /// What it does, in words.
    pub fn text(&self) -> String {
        match self {
            Reward::Card(c) => c.text.to_owned(),
            Reward::Armor(a) => format!(
                "{} AP and DEF {}%, replacing the worn armor.",
                a.ap, a.def_pct
            ),
            Reward::Item(i) if i.repair > 0 => format!("Restores {} AP at once.", i.repair),
            Reward::Item(i) => format!("Restores {} HP at once.", i.heal),
        }
    }

    /// What sort of reward it is: `card`, `armor` or `item`.
    pub fn sort(&self) -> &'static str {
        match self {
            Reward::Card(_) => "card",
            Reward::Armor(_) => "armor",
            Reward::Item(_) => "item",
        }
    }
}

impl Roguelite {
    /// A won battle (not the last): draw the offer from the battle's generator.
    pub(super) fn offer_rewards(&mut self) {
        let mut offer: Vec<Reward> = reward_pool()
            .choose_multiple(&mut self.rng, OFFERED_CARDS)
            .into_iter()
            .map(Reward::Card)
            .collect();
        let worn = ARMORS
            .iter()
            .position(|a| a.id == self.armor.id)
            .expect("the worn armor is one of ARMORS");
        let mut gear: Vec<Reward> = ITEMS.iter().map(Reward::Item).collect();
        gear.extend(ARMORS.get(worn + 1).map(Reward::Armor));
        offer.extend(gear.choose(&mut self.rng).copied());
        let names: Vec<&str> = offer.iter().map(Reward::name).collect();
        self.log.push(format!(
            "{} is offered {}: one of them, or none.",
            self.me,
            words::and_list(&names)
        ));
        self.offer = offer;
        self.stage = Stage::Reward;
    }

    /// Take the offered reward `index` (checked by the caller), then go on.
    pub(super) fn take_reward(&mut self, index: usize) {
        let reward = self.offer[index];
        let line = match reward {
            Reward::Card(card) => {
                self.deck.push(card);
                format!(
                    "{} adds {} to the deck ({}).",
                    self.me,
                    card.name,
                    words::count(self.deck.len() as u32, "card")
                )
            }
            Reward::Armor(armor) => {
                let (ap, def) = (self.player.ap, self.player.def_pct);
                self.armor = armor;
                self.player.max_ap = armor.ap;
                self.player.ap = armor.ap;
                self.player.def_pct = armor.def_pct;
                format!(
                    "{} puts on the {}: AP {}, DEF {}.",
                    self.me,
                    armor.name,
                    words::span(ap, armor.ap),
                    words::span(format!("{def}%"), format!("{}%", armor.def_pct))
                )
            }
            Reward::Item(item) => {
                let (ap, hp) = (self.player.ap, self.player.hp);
                let repaired = self.player.repair(item.repair);
                let healed = self.player.heal(item.heal);
                let mut did = Vec::new();
                if item.repair > 0 {
                    did.push(format!(
                        "repairs {repaired} AP {}",
                        words::span(ap, self.player.ap)
                    ));
                }
                if item.heal > 0 {
                    did.push(words::heal(healed, hp, self.player.hp));
                }
                format!(
                    "{} uses the {}: {}.",
                    self.me,
                    item.name,
                    words::and_list(&did)
                )
            }
        };
        self.log.push(line);
        self.next_battle();
    }

    /// Skip the offer, then go on.
    pub(super) fn skip_reward(&mut self) {
        self.log.push(format!("{} takes nothing.", self.me));
        self.next_battle();
    }

    /// The next battle; going down to a new depth restores some HP first.
    fn next_battle(&mut self) {
        self.offer.clear();
        self.battle += 1;
        if self.battle % BATTLES_PER_DEPTH == 0 {
            let before = self.player.hp;
            let healed = self.player.heal(DEPTH_REST_HP);
            self.log.push(format!(
                "{} goes down to depth {}, {}, and rests: {}.",
                self.me,
                self.depth() + 1,
                DEPTHS[self.depth()].name,
                words::heal(healed, before, self.player.hp)
            ));
        }
        self.begin_battle();
    }
}
