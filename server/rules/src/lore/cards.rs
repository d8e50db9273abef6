//! The card set, as data: our own characters, actions, items and locations (spec "Core Move
//! System": characters with cost, strength, willpower and lore, inkable or not; actions that
//! resolve and go to the discard; items; locations that give lore each turn), with the
//! triggered abilities the bag resolves ("when played", start of turn, end of turn, quest,
//! banish, and watchers whose triggers come from other cards' events). Every name and text
//! here is original.

/// What kind of card it is, with the numbers of its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A character: challenges with its strength, is banished at damage >= willpower,
    /// quests for its lore.
    Character {
        /// Damage it deals in a challenge.
        strength: u32,
        /// Damage it takes before it is banished.
        willpower: u32,
        /// Lore it gains when it quests.
        lore: u32,
    },
    /// An action: its effects resolve when it is played, then it goes to the discard.
    Action(&'static [Effect]),
    /// An item: stays in play; its abilities do the work.
    Item,
    /// A location: stays in play and gives its owner `lore` in each Set step; it can be
    /// challenged and is banished at damage >= willpower.
    Location {
        /// Damage it takes before it is banished.
        willpower: u32,
        /// Lore its owner gains at the start of each of their turns.
        lore: u32,
    },
}

/// When a triggered ability goes into the bag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// When its owner plays this card.
    Played,
    /// At the start of its owner's turn (Set step).
    StartOfTurn,
    /// At the end of its owner's turn.
    EndOfTurn,
    /// Whenever this character quests.
    Quests,
    /// When this card is banished (it is in the discard by then).
    Banished,
    /// Whenever another character of its owner is banished (while this card is in play).
    OtherCharacterBanished,
    /// Whenever its owner plays another character (while this card is in play).
    CharacterPlayed,
}

/// Whose character an effect may choose, seen from the player who controls the effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whom {
    /// Any character in play.
    Any,
    /// A character of the other player.
    Opposing,
    /// A character of the effect's controller.
    Own,
}

/// One effect, as an action's text or an ability's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The controller gains this much lore.
    GainLore(u32),
    /// The other player loses this much lore (not below 0).
    OpponentLosesLore(u32),
    /// The controller draws this many cards.
    Draw(u32),
    /// Deal this much damage to a chosen character.
    Damage(u32, Whom),
    /// Remove up to this much damage from a chosen character.
    Heal(u32, Whom),
    /// A chosen character gets +this strength this turn.
    Strength(u32, Whom),
    /// A chosen character gets +this willpower until the start of the controller's next turn.
    Willpower(u32, Whom),
    /// Exert a chosen character.
    Exert(Whom),
}

impl Effect {
    /// Whose character the effect chooses, if it chooses one.
    pub fn chooses(self) -> Option<Whom> {
        match self {
            Effect::Damage(_, whom)
            | Effect::Heal(_, whom)
            | Effect::Strength(_, whom)
            | Effect::Willpower(_, whom)
            | Effect::Exert(whom) => Some(whom),
            Effect::GainLore(_) | Effect::OpponentLosesLore(_) | Effect::Draw(_) => None,
        }
    }
}

/// A triggered ability: when it triggers and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ability {
    /// When it goes into the bag.
    pub when: When,
    /// What it does when it resolves.
    pub effect: Effect,
    /// Its text.
    pub text: &'static str,
}

/// A card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Stable id, as decks name it.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Ink to play it.
    pub cost: u32,
    /// Whether it bears the inkwell symbol (may be put into the inkwell).
    pub inkable: bool,
    /// Its kind and numbers.
    pub kind: Kind,
    /// Its triggered abilities.
    pub abilities: &'static [Ability],
    /// Its rules text (empty for a card without one).
    pub text: &'static str,
}

impl Card {
    /// The kind's name, as views show it.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Character { .. } => "character",
            Kind::Action(_) => "action",
            Kind::Item => "item",
            Kind::Location { .. } => "location",
        }
    }

    /// The effect of this card that chooses a character when it is played (an action's).
    pub fn played_choice(&self) -> Option<Whom> {
        match self.kind {
            Kind::Action(effects) => effects.iter().find_map(|e| e.chooses()),
            _ => None,
        }
    }
}

const fn character(
    id: &'static str,
    name: &'static str,
    cost: u32,
    inkable: bool,
    [strength, willpower, lore]: [u32; 3],
    abilities: &'static [Ability],
    text: &'static str,
) -> Card {
    Card {
        id,
        name,
        cost,
        inkable,
        kind: Kind::Character {
            strength,
            willpower,
            lore,
        },
        abilities,
        text,
    }
}

const fn other(
    id: &'static str,
    name: &'static str,
    cost: u32,
    inkable: bool,
    kind: Kind,
    abilities: &'static [Ability],
    text: &'static str,
) -> Card {
    Card {
        id,
        name,
        cost,
        inkable,
        kind,
        abilities,
        text,
    }
}

const fn ability(when: When, effect: Effect, text: &'static str) -> Ability {
    Ability { when, effect, text }
}

/// Every card of the set.
pub const CARDS: [Card; 27] = [
    character(
        "lantern_sprite",
        "Lantern Sprite",
        1,
        true,
        [1, 2, 1],
        &[],
        "",
    ),
    character("meadow_scout", "Meadow Scout", 1, true, [2, 1, 1], &[], ""),
    character(
        "tidewater_messenger",
        "Tidewater Messenger",
        2,
        true,
        [1, 3, 1],
        &[ability(
            When::Played,
            Effect::Draw(1),
            "When you play this character, draw a card.",
        )],
        "When you play this character, draw a card.",
    ),
    character(
        "copper_squire",
        "Copper Squire",
        2,
        true,
        [2, 3, 1],
        &[ability(
            When::Banished,
            Effect::Draw(1),
            "When this character is banished, draw a card.",
        )],
        "When this character is banished, draw a card.",
    ),
    character(
        "hedge_witch",
        "Hedge Witch",
        2,
        false,
        [2, 2, 1],
        &[ability(
            When::Played,
            Effect::Damage(1, Whom::Any),
            "When you play this character, deal 1 damage to chosen character.",
        )],
        "When you play this character, deal 1 damage to chosen character.",
    ),
    character(
        "quill_archivist",
        "Quill Archivist",
        3,
        true,
        [2, 3, 2],
        &[ability(
            When::Quests,
            Effect::Draw(1),
            "Whenever this character quests, draw a card.",
        )],
        "Whenever this character quests, draw a card.",
    ),
    character(
        "ember_duelist",
        "Ember Duelist",
        3,
        true,
        [3, 3, 2],
        &[ability(
            When::Played,
            Effect::Strength(2, Whom::Own),
            "When you play this character, chosen character of yours gets +2 strength this turn.",
        )],
        "When you play this character, chosen character of yours gets +2 strength this turn.",
    ),
    character(
        "stonebridge_warden",
        "Stonebridge Warden",
        3,
        false,
        [2, 5, 1],
        &[],
        "",
    ),
    character(
        "moonlit_trickster",
        "Moonlit Trickster",
        3,
        true,
        [3, 2, 2],
        &[ability(
            When::Played,
            Effect::Exert(Whom::Opposing),
            "When you play this character, exert chosen opposing character.",
        )],
        "When you play this character, exert chosen opposing character.",
    ),
    character(
        "graveborn_piper",
        "Graveborn Piper",
        4,
        true,
        [3, 4, 1],
        &[ability(
            When::OtherCharacterBanished,
            Effect::GainLore(1),
            "Whenever one of your other characters is banished, gain 1 lore.",
        )],
        "Whenever one of your other characters is banished, gain 1 lore.",
    ),
    character(
        "storm_herald",
        "Storm Herald",
        4,
        true,
        [4, 4, 2],
        &[ability(
            When::StartOfTurn,
            Effect::Damage(1, Whom::Opposing),
            "At the start of your turn, deal 1 damage to chosen opposing character.",
        )],
        "At the start of your turn, deal 1 damage to chosen opposing character.",
    ),
    character(
        "ironbark_sentinel",
        "Ironbark Sentinel",
        5,
        true,
        [4, 6, 1],
        &[ability(
            When::Banished,
            Effect::Damage(2, Whom::Opposing),
            "When this character is banished, deal 2 damage to chosen opposing character.",
        )],
        "When this character is banished, deal 2 damage to chosen opposing character.",
    ),
    character(
        "skyborne_navigator",
        "Skyborne Navigator",
        5,
        false,
        [3, 5, 3],
        &[],
        "",
    ),
    character(
        "tower_sage",
        "Tower Sage",
        5,
        true,
        [3, 5, 2],
        &[ability(
            When::EndOfTurn,
            Effect::Heal(2, Whom::Own),
            "At the end of your turn, remove up to 2 damage from chosen character of yours.",
        )],
        "At the end of your turn, remove up to 2 damage from chosen character of yours.",
    ),
    character(
        "grey_chronicler",
        "Grey Chronicler",
        6,
        false,
        [4, 6, 3],
        &[ability(
            When::Quests,
            Effect::OpponentLosesLore(1),
            "Whenever this character quests, your opponent loses 1 lore.",
        )],
        "Whenever this character quests, your opponent loses 1 lore.",
    ),
    character(
        "cinderwing_drake",
        "Cinderwing Drake",
        7,
        true,
        [6, 7, 2],
        &[ability(
            When::Played,
            Effect::Damage(3, Whom::Opposing),
            "When you play this character, deal 3 damage to chosen opposing character.",
        )],
        "When you play this character, deal 3 damage to chosen opposing character.",
    ),
    other(
        "midnight_study",
        "Midnight Study",
        3,
        true,
        Kind::Action(&[Effect::Draw(2)]),
        &[],
        "Draw 2 cards.",
    ),
    other(
        "flashfire",
        "Flashfire",
        2,
        true,
        Kind::Action(&[Effect::Damage(2, Whom::Any)]),
        &[],
        "Deal 2 damage to chosen character.",
    ),
    other(
        "rallying_cry",
        "Rallying Cry",
        1,
        false,
        Kind::Action(&[Effect::Strength(3, Whom::Any)]),
        &[],
        "Chosen character gets +3 strength this turn.",
    ),
    other(
        "stand_fast",
        "Stand Fast",
        2,
        true,
        Kind::Action(&[Effect::Willpower(3, Whom::Own)]),
        &[],
        "Chosen character of yours gets +3 willpower until the start of your next turn.",
    ),
    other(
        "mending_salve",
        "Mending Salve",
        1,
        true,
        Kind::Action(&[Effect::Heal(3, Whom::Any)]),
        &[],
        "Remove up to 3 damage from chosen character.",
    ),
    other(
        "sudden_gust",
        "Sudden Gust",
        3,
        false,
        Kind::Action(&[Effect::Exert(Whom::Opposing), Effect::Draw(1)]),
        &[],
        "Exert chosen opposing character. Draw a card.",
    ),
    other(
        "story_lamp",
        "Story Lamp",
        1,
        true,
        Kind::Item,
        &[ability(
            When::Played,
            Effect::Draw(1),
            "When you play this item, draw a card.",
        )],
        "When you play this item, draw a card.",
    ),
    other(
        "wayfinders_compass",
        "Wayfinder's Compass",
        4,
        false,
        Kind::Item,
        &[ability(
            When::StartOfTurn,
            Effect::GainLore(1),
            "At the start of your turn, gain 1 lore.",
        )],
        "At the start of your turn, gain 1 lore.",
    ),
    other(
        "welcome_banner",
        "Welcome Banner",
        3,
        true,
        Kind::Item,
        &[ability(
            When::CharacterPlayed,
            Effect::GainLore(1),
            "Whenever you play a character, gain 1 lore.",
        )],
        "Whenever you play a character, gain 1 lore.",
    ),
    other(
        "lighthouse_point",
        "Lighthouse Point",
        2,
        true,
        Kind::Location {
            willpower: 6,
            lore: 1,
        },
        &[],
        "At the start of your turn, gain 1 lore from this location.",
    ),
    other(
        "sunken_library",
        "Sunken Library",
        5,
        false,
        Kind::Location {
            willpower: 8,
            lore: 2,
        },
        &[],
        "At the start of your turn, gain 2 lore from this location.",
    ),
];

/// The card with this id.
pub fn find(id: &str) -> Option<&'static Card> {
    CARDS.iter().find(|card| card.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_actions_choose_at_most_one_character() {
        for (i, card) in CARDS.iter().enumerate() {
            assert!(CARDS[..i].iter().all(|c| c.id != card.id), "{}", card.id);
            if let Kind::Action(effects) = card.kind {
                assert!(effects.iter().filter(|e| e.chooses().is_some()).count() <= 1);
                assert!(card.abilities.is_empty(), "an action has no triggers");
            }
            for ability in card.abilities {
                assert!(card.text.contains(ability.text), "{}", card.id);
            }
        }
    }

    #[test]
    fn the_set_has_every_trigger_and_every_kind() {
        let has = |when: When| {
            CARDS
                .iter()
                .any(|c| c.abilities.iter().any(|a| a.when == when))
        };
        for when in [
            When::Played,
            When::StartOfTurn,
            When::EndOfTurn,
            When::Quests,
            When::Banished,
            When::OtherCharacterBanished,
            When::CharacterPlayed,
        ] {
            assert!(has(when), "{when:?}");
        }
        for kind in ["character", "action", "item", "location"] {
            assert!(CARDS.iter().any(|c| c.kind_name() == kind), "{kind}");
        }
    }
}
