//! How heroes is played, from `docs/rules/heroes.md`: the goal, the setup, the turn, combat,
//! hits on a hero (armor, the Defensive Ability), the two classes with their resources and
//! level-ups, and the market. Every number comes from [`NUMBERS`].

use super::Section;

/// The numbers the page gives, in one place (a test compares them with the rules crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    /// A hero's health at the start.
    pub health: u32,
    /// Mana of the first player's first turn.
    pub first_mana: u32,
    /// Mana of the second player's first turn.
    pub second_mana: u32,
    /// Max mana grows to this by upkeeps.
    pub mana_cap: u32,
    /// The first player's opening hand.
    pub first_hand: usize,
    /// The second player's opening hand.
    pub second_hand: usize,
    /// Most cards put back at the mulligan.
    pub mulligan: usize,
    /// The Attack ability's mana.
    pub attack_cost: u32,
    /// Mana needed (not spent) for the Defensive Ability.
    pub defense_mana: u32,
    /// Armor the Defensive Ability gives.
    pub defense_armor: u32,
    /// The Barbarian levels up at this much armor.
    pub barbarian_level_armor: u32,
    /// The Mage levels up at this much max mana.
    pub mage_level_mana: u32,
    /// Most Spell Damage a Mage holds.
    pub max_spell_damage: u32,
    /// The Barbarian's hero power's mana.
    pub barbarian_power: u32,
    /// The Mage's hero power's mana.
    pub mage_power: u32,
    /// The Barbarian's base weapon damage.
    pub barbarian_weapon: u32,
    /// The Mage's base weapon damage.
    pub mage_weapon: u32,
    /// Items face up in the market.
    pub market: usize,
    /// The round the market shows mid items.
    pub mid_round: u32,
    /// The round the market shows late items.
    pub late_round: u32,
    /// After this round the game is a draw.
    pub round_limit: u32,
    /// The smallest bounty.
    pub bounty_min: u32,
    /// The largest bounty.
    pub bounty_max: u32,
}

/// Heroes' numbers.
pub const NUMBERS: Numbers = Numbers {
    health: 20,
    first_mana: 1,
    second_mana: 2,
    mana_cap: 10,
    first_hand: 4,
    second_hand: 5,
    mulligan: 3,
    attack_cost: 2,
    defense_mana: 3,
    defense_armor: 2,
    barbarian_level_armor: 8,
    mage_level_mana: 10,
    max_spell_damage: 5,
    barbarian_power: 2,
    mage_power: 2,
    barbarian_weapon: 2,
    mage_weapon: 1,
    market: 5,
    mid_round: 4,
    late_round: 7,
    round_limit: 40,
    bounty_min: 1,
    bounty_max: 3,
};

/// The page's sections.
pub fn sections() -> Vec<Section> {
    let n = NUMBERS;
    vec![
        Section::new(
            "Goal",
            [format!(
                "Bring the other hero from {} health to 0. Both heroes at 0 at once is a draw, \
                 and so is a game still going after round {}.",
                n.health, n.round_limit
            )],
        ),
        Section::new(
            "Setup",
            [format!(
                "A d20 roll decides who chooses the first player. The first player starts \
                 with {} cards and {} mana, the second with {} cards and {} mana. Then each \
                 player may put back up to {} cards (mulligan), shuffled into the deck, and \
                 draws as many.",
                n.first_hand, n.first_mana, n.second_hand, n.second_mana, n.mulligan
            )],
        ),
        Section::new(
            "Your turn",
            [
                format!(
                    "Upkeep: your minions untap, your max mana goes up by 1 (to {}; your first \
                     turn keeps the mana you start with) and refills, and you draw 1 card (an \
                     empty deck takes your shuffled discard pile).",
                    n.mana_cap
                ),
                format!(
                    "Main phase, in any order: play cards; use your hero power (once a turn); \
                     Attack with your weapon (once a turn, {} mana: weapon damage to a minion \
                     or the hero; a minion hits back); buy one market item (once a turn); \
                     declare combat; then end the turn (e).",
                    n.attack_cost
                ),
                "End: every minion heals to full, and the turn passes.".to_owned(),
                "Minions come in with summoning sickness: they cannot attack that turn, but \
                 can block. Spells resolve and go to the discard pile; an upgrade replaces one \
                 of your hero's abilities for good; an ultimate can be played only after \
                 levelling up."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Combat",
            [
                "You choose attackers among your untapped minions without summoning sickness; \
                 they tap and attack the other hero. The defender chooses blockers among its \
                 untapped minions: several may block one attacker, and blockers do not tap."
                    .to_owned(),
                "The attacker orders a gang of blockers: each gets lethal damage in turn, the \
                 last whatever is left. Then all damage is dealt at once: a blocked attacker \
                 hits only its blockers (never the hero, even if they die), blockers hit back, \
                 and each unblocked attacker hits the hero."
                    .to_owned(),
                format!(
                    "A minion whose damage reaches its health dies; its bounty ({} to {} \
                     gold) goes to the player who killed it.",
                    n.bounty_min, n.bounty_max
                ),
            ],
        ),
        Section::new(
            "Hits on a hero",
            [
                "Armor absorbs damage point for point and is used up doing so (negative armor \
                 adds to each hit). Immune stops a hit."
                    .to_owned(),
                format!(
                    "Defensive Ability: once a turn, while you have {} mana available (it costs \
                     none), when a hit comes you may gain {} Armor and take half of that hit, \
                     rounded up. You are asked before the damage lands.",
                    n.defense_mana, n.defense_armor
                ),
            ],
        ),
        Section::new(
            "Classes",
            [
                format!(
                    "• Barbarian. Rage: each point adds 1 to your Attack's damage and 1 to \
                     each hit you take. Hero power ({} mana): gain 2 Armor. Attack: {} weapon \
                     damage. Levels up at {} Armor: weapon attacks deal bonus damage equal to \
                     your Armor.",
                    n.barbarian_power, n.barbarian_weapon, n.barbarian_level_armor
                ),
                format!(
                    "• Mage. Spell Damage (at most {}): spend any of it on a damage spell, +1 \
                     damage a point. Hero power ({} mana): gain 1 Spell Damage and draw a card. \
                     Attack: {} weapon damage. Levels up at {} max mana: spells cost 1 less. \
                     Channeled spells do more when another spell was cast earlier that turn.",
                    n.max_spell_damage, n.mage_power, n.mage_weapon, n.mage_level_mana
                ),
                "A hero levels up once, for good, even if the condition stops holding.".to_owned(),
            ],
        ),
        Section::new(
            "Market and gold",
            [
                format!(
                    "{} items face up, shared by both players: early items in rounds 1 to {}, \
                     mid items from round {}, late items from round {}. A bought slot stays \
                     empty until the next refresh.",
                    n.market,
                    n.mid_round - 1,
                    n.mid_round,
                    n.late_round
                ),
                "Gold comes from bounties and from some items. Equipment fills four slots \
                 (weapon, chest, jewelry, relic) and a new item replaces the old one; \
                 consumables act at once; an active relic is used once per game, for its mana."
                    .to_owned(),
            ],
        ),
    ]
}
