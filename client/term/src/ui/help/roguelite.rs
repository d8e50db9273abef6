//! How roguelite is played, from `docs/rules/roguelite.md`: the run and its goal, what
//! carries over between battles, your phase, speed and the phase queue, the enemy, defense
//! (Guard, AP, Armor Break), the damage formula and every status with its numbers. Every
//! number comes from [`NUMBERS`].

use super::Section;

/// The numbers the page gives, in one place (a test compares them with the rules crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    /// Battles in a run.
    pub battles: usize,
    /// Battles in each depth.
    pub per_depth: usize,
    /// The player's HP.
    pub hp: u32,
    /// HP regained going down a depth.
    pub rest_hp: u32,
    /// A battle is lost when the enemy still stands after this many of the player's phases.
    pub turn_limit: u32,
    /// Energy each phase.
    pub energy: u32,
    /// Cards drawn each phase.
    pub draw: usize,
    /// Cards offered after a won battle (then one piece of gear).
    pub offered_cards: usize,
    /// AP a Repair Kit restores.
    pub repair_kit: u32,
    /// HP a Healing Draught restores.
    pub draught: u32,
    /// The player's base speed.
    pub speed: u32,
    /// A rolled speed varies by up to this %.
    pub variance_pct: i32,
    /// Speed a stack of Haste, Super Fast, Slow, Stall adds.
    pub speed_statuses: [i32; 4],
    /// Attack damage % a stack of Attack Up adds.
    pub atk_up_pct: u32,
    /// Attack damage % a stack of Momentum adds.
    pub momentum_pct: u32,
    /// Attack damage % initiative adds.
    pub initiative_pct: u32,
    /// Attack damage % Weak takes away.
    pub weak_pct: u32,
    /// The critical rate before a card's extra.
    pub crit_pct: u32,
    /// The highest critical rate.
    pub crit_max_pct: u32,
    /// Bleed's share of max HP, in %.
    pub bleed_pct: u32,
    /// Poison and Curse: damage per stack.
    pub rot_per_stack: u32,
    /// Regeneration: healing per stack.
    pub regeneration_per_stack: u32,
    /// An enemy's energy in the phase after a skill that raises it (Kindle, Court Fury), in %.
    pub raised_energy_pct: u32,
    /// The most stacks of each status.
    pub caps: Caps,
}

/// The most stacks a fighter holds of each status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Bleed.
    pub bleed: u32,
    /// Poison and Curse (each).
    pub rot: u32,
    /// Regeneration.
    pub regeneration: u32,
    /// Shield.
    pub shield: u32,
    /// Haste, Super Fast, Slow and Stall (each).
    pub speed: u32,
    /// Attack Up.
    pub atk_up: u32,
    /// Weak.
    pub weak: u32,
    /// Thorns.
    pub thorns: u32,
    /// Momentum.
    pub momentum: u32,
}

/// Roguelite's numbers.
pub const NUMBERS: Numbers = Numbers {
    battles: 9,
    per_depth: 3,
    hp: 80,
    rest_hp: 20,
    turn_limit: 30,
    energy: 3,
    draw: 5,
    offered_cards: 2,
    repair_kit: 15,
    draught: 20,
    speed: 50,
    variance_pct: 5,
    speed_statuses: [15, 30, -10, -15],
    atk_up_pct: 20,
    momentum_pct: 10,
    initiative_pct: 10,
    weak_pct: 30,
    crit_pct: 10,
    crit_max_pct: 80,
    bleed_pct: 5,
    rot_per_stack: 2,
    regeneration_per_stack: 3,
    raised_energy_pct: 150,
    caps: Caps {
        bleed: 1,
        rot: 20,
        regeneration: 10,
        shield: 20,
        speed: 3,
        atk_up: 5,
        weak: 1,
        thorns: 10,
        momentum: 3,
    },
};

/// The page's sections.
pub fn sections() -> Vec<Section> {
    let n = NUMBERS;
    let [haste, super_fast, slow, stall] = n.speed_statuses;
    let c = n.caps;
    vec![
        Section::new(
            "Goal",
            [
                format!(
                    "Win a run of {} card battles through {} depths, {} battles each; the last \
                     is against The Hollow Regent. Each battle is against one enemy, which the \
                     game plays.",
                    n.battles,
                    n.battles / n.per_depth,
                    n.per_depth
                ),
                format!(
                    "The run is lost when your HP reaches 0 (even if the enemy falls to the \
                     same blow), or when the enemy still stands after your {}th phase of a \
                     battle.",
                    n.turn_limit
                ),
            ],
        ),
        Section::new(
            "Between battles",
            [
                format!(
                    "You start with {} HP. HP, AP, your armor and your deck carry over; Guard, \
                     statuses and the piles are cleared. Going down a depth you rest: +{} HP.",
                    n.hp, n.rest_hp
                ),
                format!(
                    "After each won battle but the last you may take one reward, or skip: {} \
                     cards for your deck and one piece of gear (a Repair Kit, +{} AP; a Healing \
                     Draught, +{} HP; or better armor, put on whole).",
                    n.offered_cards, n.repair_kit, n.draught
                ),
            ],
        ),
        Section::new(
            "Your phase",
            [
                format!(
                    "It starts: Guard drops to 0, statuses with a duration lose a turn, \
                     Regeneration heals, Shield gives Guard, you get {} energy and draw {} \
                     cards. Play cards (each costs 1 or 2 energy), then end the turn (e).",
                    n.energy, n.draw
                ),
                "It ends: Poison and Curse hurt, Momentum is updated, and your hand is \
                 discarded. An empty draw pile takes the shuffled discard pile."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Speed and the phase queue",
            [
                format!(
                    "Each round both speeds are rolled: the base (yours is {}) varies by up to \
                     {}%, then Haste {haste:+}, Super Fast {super_fast:+}, Slow {slow}, Stall \
                     {stall} a stack. The faster side takes phases in a row, then the slower \
                     side one: a difference under 15 alternates, 15 or more gives 2 in a row, \
                     25 or more 3, and each further 10 one more. Equal speeds: you first.",
                    n.speed, n.variance_pct
                ),
                format!(
                    "While your rolled speed is above the enemy's you have initiative: +{}% \
                     attack damage that round.",
                    n.initiative_pct
                ),
            ],
        ),
        Section::new(
            "The enemy",
            [format!(
                "Its phase runs by itself, one action at a time at the battle's pace. It uses \
                 its skills in order, round and round; what it will do next is its intent. Its \
                 energy a phase is its own (some skills make the next phase's {}%); a skill it \
                 cannot pay for becomes a Basic Attack (for some, a wait that ends the phase), \
                 and the skill waits for the next phase.",
                n.raised_energy_pct
            )],
        ),
        Section::new(
            "Defense",
            [
                "A hit goes to Guard first, then AP (your armor's durability), then HP. DEF% \
                 lowers each hit taken."
                    .to_owned(),
                "Armor Break: a fighter wearing armor with 0 AP takes half of each hit, \
                 rounded up, straight to HP past Guard. AP comes back only from repairs (Rivet, \
                 Field Repair, a Repair Kit) or new armor."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Damage",
            [format!(
                "Each hit, every step rounded down: the card's points (an enemy skill: a share \
                 of its ATK); +{}% a stack of Attack Up, +{}% a stack of Momentum, +{}% with \
                 initiative; Weak -{}%; a critical hit (a {}% chance plus the card's own, at \
                 most {}%) x1.5; then the defender's DEF%. Lifesteal heals a share of the HP \
                 damage dealt; Thorns deal their stacks back to the attacker.",
                n.atk_up_pct,
                n.momentum_pct,
                n.initiative_pct,
                n.weak_pct,
                n.crit_pct,
                n.crit_max_pct
            )],
        ),
        Section::new(
            "Statuses (most stacks in brackets)",
            [
                format!(
                    "• Bleed ({}): {}% of max HP (at least 1) to HP after each card you play, \
                     or each action the enemy takes.",
                    c.bleed, n.bleed_pct
                ),
                format!(
                    "• Poison ({}), Curse ({}): {} HP a stack at the end of their holder's \
                     phase; Curse also halves Regeneration.",
                    c.rot, c.rot, n.rot_per_stack
                ),
                format!(
                    "• Regeneration ({}): heals {} HP a stack at the start of its holder's \
                     phase.",
                    c.regeneration, n.regeneration_per_stack
                ),
                format!(
                    "• Shield ({}): as much Guard as its stacks at the start of its holder's \
                     phase.",
                    c.shield
                ),
                format!(
                    "• Haste, Super Fast, Slow, Stall ({}): {haste:+}, {super_fast:+}, {slow}, \
                     {stall} speed a stack.",
                    c.speed
                ),
                format!(
                    "• Attack Up ({}): +{}% attack damage a stack. Weak ({}): -{}% attack \
                     damage.",
                    c.atk_up, n.atk_up_pct, c.weak, n.weak_pct
                ),
                format!(
                    "• Thorns ({}): its stacks in damage back to each attacker that hits.",
                    c.thorns
                ),
                format!(
                    "• Momentum ({}, yours): +1 at the end of each phase in which you played \
                     an attack card, gone after a phase without one; +{}% attack damage a \
                     stack.",
                    c.momentum, n.momentum_pct
                ),
                "Bleed, Poison and Curse go past Guard and AP. A status's turns count down at \
                 the start of its holder's phase; gaining it again adds stacks and keeps the \
                 longer duration."
                    .to_owned(),
            ],
        ),
    ]
}
