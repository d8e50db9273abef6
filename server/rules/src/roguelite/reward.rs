//! Between battles: the offer (two cards found for the deck and one piece of gear: a Repair
//! Kit, a Healing Draught or the next better armor), taking one of them or none, and the way
//! on to the next battle (a new depth restores some HP).

use rand::seq::{IndexedRandom, IteratorRandom};

use super::cards::{reward_pool, Card};
use super::enemies::{BATTLES_PER_DEPTH, DEPTHS};
use super::equipment::{Armor, Item, ARMORS, DEPTH_REST_HP, ITEMS};
use super::state::{Roguelite, Stage};

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
        self.log
            .push(format!("Choose a reward or skip: {}.", names.join(", ")));
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
                    "You add {} to your deck ({} cards).",
                    card.name,
                    self.deck.len()
                )
            }
            Reward::Armor(armor) => {
                self.armor = armor;
                self.player.max_ap = armor.ap;
                self.player.ap = armor.ap;
                self.player.def_pct = armor.def_pct;
                format!(
                    "You put on the {} (AP {}, DEF {}%).",
                    armor.name, armor.ap, armor.def_pct
                )
            }
            Reward::Item(item) => {
                let repaired = self.player.repair(item.repair);
                let healed = self.player.heal(item.heal);
                format!(
                    "You use the {}: {repaired} AP repaired, {healed} HP healed.",
                    item.name
                )
            }
        };
        self.log.push(line);
        self.next_battle();
    }

    /// Skip the offer, then go on.
    pub(super) fn skip_reward(&mut self) {
        self.log.push("You take nothing.".to_owned());
        self.next_battle();
    }

    /// The next battle; going down to a new depth restores some HP first.
    fn next_battle(&mut self) {
        self.offer.clear();
        self.battle += 1;
        if self.battle % BATTLES_PER_DEPTH == 0 {
            let healed = self.player.heal(DEPTH_REST_HP);
            self.log.push(format!(
                "You go down to depth {}, {}, and rest: {healed} HP restored.",
                self.depth() + 1,
                DEPTHS[self.depth()].name
            ));
        }
        self.begin_battle();
    }
}
