//! The player's cards as data: the starting deck and the cards found between battles. Every
//! card costs 1 or 2 energy (so a phase holds at most 3 plays) and aims at the one enemy or
//! at the player, as its effects say.

use super::effect::{gain, hit, hits, inflict, Effect};
use super::status::Kind;

/// A card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Stable id.
    pub id: &'static str,
    /// Shown name.
    pub name: &'static str,
    /// Energy to play it.
    pub cost: u32,
    /// What it does, in words.
    pub text: &'static str,
    /// What it does, in order.
    pub effects: &'static [Effect],
}

impl Card {
    /// Whether the card attacks (it keeps Momentum going).
    pub fn attacks(&self) -> bool {
        self.effects.iter().any(Effect::attacks)
    }
}

const fn card(
    id: &'static str,
    name: &'static str,
    cost: u32,
    text: &'static str,
    effects: &'static [Effect],
) -> Card {
    Card {
        id,
        name,
        cost,
        text,
        effects,
    }
}

/// Every card.
pub static CARDS: &[Card] = &[
    // The starting deck.
    card("slash", "Slash", 1, "Deal 7.", &[hit(7)]),
    card("parry", "Parry", 1, "Gain 5 Guard.", &[Effect::Guard(5)]),
    card("rivet", "Rivet", 1, "Repair 5 AP.", &[Effect::Repair(5)]),
    // Found between battles.
    card("cleave", "Cleave", 2, "Deal 15.", &[hit(15)]),
    card("flurry", "Flurry", 1, "Deal 4 twice.", &[hits(4, 2)]),
    card(
        "gash",
        "Gash",
        1,
        "Deal 5. Inflict Bleed for 3 turns.",
        &[hit(5), inflict(Kind::Bleed, 1, 3)],
    ),
    card(
        "venom_flick",
        "Venom Flick",
        1,
        "Deal 2. Inflict 3 Poison for 3 turns.",
        &[hit(2), inflict(Kind::Poison, 3, 3)],
    ),
    card(
        "hex_mark",
        "Hex Mark",
        1,
        "Inflict 2 Curse for 3 turns.",
        &[inflict(Kind::Curse, 2, 3)],
    ),
    card(
        "quickstep",
        "Quickstep",
        1,
        "Gain 1 Haste for 3 turns. Gain 3 Guard.",
        &[gain(Kind::Haste, 1, 3), Effect::Guard(3)],
    ),
    card(
        "tailwind",
        "Tailwind",
        2,
        "Gain 1 Super Fast for 2 turns.",
        &[gain(Kind::SuperFast, 1, 2)],
    ),
    card(
        "hamstring",
        "Hamstring",
        1,
        "Deal 4. Inflict 1 Slow for 3 turns.",
        &[hit(4), inflict(Kind::Slow, 1, 3)],
    ),
    card(
        "mire_snare",
        "Mire Snare",
        2,
        "Inflict 1 Stall for 3 turns.",
        &[inflict(Kind::Stall, 1, 3)],
    ),
    card(
        "war_chant",
        "War Chant",
        1,
        "Gain 1 Attack Up for 3 turns.",
        &[gain(Kind::AtkUp, 1, 3)],
    ),
    card(
        "sap",
        "Sap",
        1,
        "Deal 4. Inflict Weak for 3 turns.",
        &[hit(4), inflict(Kind::Weak, 1, 3)],
    ),
    card(
        "field_repair",
        "Field Repair",
        1,
        "Repair 10 AP.",
        &[Effect::Repair(10)],
    ),
    card(
        "bulwark",
        "Bulwark",
        2,
        "Gain 12 Guard.",
        &[Effect::Guard(12)],
    ),
    card(
        "mending_moss",
        "Mending Moss",
        2,
        "Gain 2 Regeneration for 4 turns.",
        &[gain(Kind::Regeneration, 2, 4)],
    ),
    card(
        "leeching_cut",
        "Leeching Cut",
        1,
        "Deal 6. Lifesteal 50%.",
        &[Effect::Attack {
            power: 6,
            hits: 1,
            crit: 0,
            lifesteal: 50,
        }],
    ),
    card(
        "barbed_stance",
        "Barbed Stance",
        1,
        "Gain 3 Thorns for 2 turns. Gain 2 Guard.",
        &[gain(Kind::Thorns, 3, 2), Effect::Guard(2)],
    ),
    card(
        "keen_thrust",
        "Keen Thrust",
        1,
        "Deal 6, with +40% critical rate.",
        &[Effect::Attack {
            power: 6,
            hits: 1,
            crit: 40,
            lifesteal: 0,
        }],
    ),
    card(
        "iron_ward",
        "Iron Ward",
        2,
        "Gain 4 Shield for 3 turns (4 Guard at the start of each of your turns).",
        &[gain(Kind::Shield, 4, 3)],
    ),
];

/// The starting deck: 5 Slash, 4 Parry, 1 Rivet.
pub const STARTING_DECK: &[(&str, usize)] = &[("slash", 5), ("parry", 4), ("rivet", 1)];

/// The card with this id.
pub fn find(id: &str) -> Option<&'static Card> {
    CARDS.iter().find(|c| c.id == id)
}

/// The cards found between battles (every card not in the starting deck).
pub fn reward_pool() -> impl Iterator<Item = &'static Card> {
    CARDS
        .iter()
        .filter(|c| !STARTING_DECK.iter().any(|(id, _)| *id == c.id))
}

/// The starting deck, card by card.
pub fn starting_deck() -> Vec<&'static Card> {
    STARTING_DECK
        .iter()
        .flat_map(|&(id, n)| {
            std::iter::repeat_n(find(id).expect("the starting deck names real cards"), n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_unique_and_cost_1_or_2() {
        for (i, c) in CARDS.iter().enumerate() {
            assert!(CARDS[..i].iter().all(|d| d.id != c.id), "{}", c.id);
            assert!((1..=2).contains(&c.cost), "{}", c.id);
            assert!(!c.effects.is_empty(), "{}", c.id);
        }
        assert_eq!(starting_deck().len(), 10);
        assert_eq!(reward_pool().count(), 18);
    }
}
