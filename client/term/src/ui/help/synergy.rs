//! How synergy is played, from `docs/rules/synergy.md`: the goal, the turn, energy and
//! block, the sigils and their synergies, focus, the full spectrum, the scoring and the
//! Training Automaton's way of playing. Every number comes from [`NUMBERS`].

use super::Section;

/// The numbers the page gives, in one place (a test compares them with the rules crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    /// HP of the player side (both sides between two people).
    pub player_hp: u32,
    /// HP of the Training Automaton.
    pub automaton_hp: u32,
    /// Energy at the start of each turn.
    pub energy: u32,
    /// What every card costs.
    pub card_cost: u32,
    /// Cards drawn at each turn start (the opening hand is the first turn's).
    pub draw: u32,
    /// Most cards a hand holds.
    pub hand_limit: usize,
    /// The last round.
    pub round_limit: u32,
    /// Cards of one sigil in a turn that trigger its synergy.
    pub synergy_at: u32,
    /// Flame synergy: extra damage.
    pub flame_damage: u32,
    /// Leaf synergy: extra block.
    pub leaf_block: u32,
    /// Gear synergy: extra cards drawn.
    pub gear_draw: u32,
    /// Full spectrum: flat score bonus.
    pub spectrum_bonus: u32,
    /// Full spectrum: the turn's score multiplier.
    pub spectrum_multiplier: u32,
    /// Score of an attack card.
    pub attack_score: u32,
    /// Score of a skill card.
    pub skill_score: u32,
    /// Score of an attack card under Void synergy (x1.5, rounded down).
    pub void_attack_score: u32,
    /// The winner's bonus.
    pub win_bonus: u32,
    /// The bonus for ending with at least `healthy_hp`.
    pub healthy_bonus: u32,
    /// HP needed for `healthy_bonus`.
    pub healthy_hp: u32,
    /// The Automaton blocks first at this HP or less.
    pub automaton_low_hp: u32,
}

/// Synergy's numbers.
pub const NUMBERS: Numbers = Numbers {
    player_hp: 60,
    automaton_hp: 70,
    energy: 3,
    card_cost: 1,
    draw: 5,
    hand_limit: 8,
    round_limit: 40,
    synergy_at: 2,
    flame_damage: 3,
    leaf_block: 3,
    gear_draw: 1,
    spectrum_bonus: 20,
    spectrum_multiplier: 2,
    attack_score: 10,
    skill_score: 8,
    void_attack_score: 15,
    win_bonus: 100,
    healthy_bonus: 30,
    healthy_hp: 40,
    automaton_low_hp: 25,
};

/// The page's sections.
pub fn sections() -> Vec<Section> {
    let n = NUMBERS;
    vec![
        Section::new(
            "Goal",
            [
                format!(
                    "Bring the other side to 0 HP. You start with {} HP, the Training Automaton \
                     with {} (between two people both sides have {}).",
                    n.player_hp, n.automaton_hp, n.player_hp
                ),
                format!(
                    "A round is both sides' turns; knockouts are judged at its end, so both \
                     sides can fall in one round (against the Automaton that is your defeat; \
                     between two people, a draw). After round {} without a knockout the \
                     Automaton wins (between two people: a draw).",
                    n.round_limit
                ),
            ],
        ),
        Section::new(
            "Your turn",
            [
                format!(
                    "You draw {} cards (your opening hand is your first turn's draw; a hand \
                     holds at most {}) and have {} energy. Every card costs {}: play cards by \
                     their number, then end the turn with e.",
                    n.draw, n.hand_limit, n.energy, n.card_cost
                ),
                "The turn ends by itself when you cannot pay for any card. Energy and the \
                 cards left in hand are lost at the end of the turn."
                    .to_owned(),
                "Block absorbs damage before HP. It is cleared at the start of its owner's \
                 next turn, so block gained now protects you through the other side's turn."
                    .to_owned(),
                "Focus (from Ashen Focus) adds to the next attack you play this turn; it adds \
                 up, and what is not used is lost at the end of the turn."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Sigils and synergy",
            [
                format!(
                    "Every card has a sigil: Flame, Leaf, Gear or Void. The {}nd and every \
                     later card of one sigil played in a turn triggers that sigil's synergy \
                     (★ marks a card in your hand that would trigger now):",
                    n.synergy_at
                ),
                format!(
                    "• Flame: +{} damage on cards that deal damage.",
                    n.flame_damage
                ),
                format!("• Leaf: +{} block on cards that give block.", n.leaf_block),
                format!("• Gear: the card draws {} more card.", n.gear_draw),
                format!(
                    "• Void: the card scores x1.5, rounded down ({} for an attack).",
                    n.void_attack_score
                ),
                format!(
                    "Full spectrum: all four sigils in one turn gives +{} score once, and the \
                     turn's cards score x{} from the card that completes it. (With {} energy a \
                     turn holds {} cards, so it needs more energy than a normal turn has.)",
                    n.spectrum_bonus, n.spectrum_multiplier, n.energy, n.energy
                ),
            ],
        ),
        Section::new(
            "Scoring",
            [
                format!(
                    "Each card played scores {} (attack) or {} (skill), x1.5 with Void \
                     synergy, then x the turn's multiplier.",
                    n.attack_score, n.skill_score
                ),
                format!(
                    "At the end the winner gets +{} and a side with {} HP or more +{}; a side \
                     that is knocked out or defeated ends with 0, whatever it scored.",
                    n.win_bonus, n.healthy_hp, n.healthy_bonus
                ),
            ],
        ),
        Section::new(
            "The Training Automaton",
            [format!(
                "It plays an attack that knocks you out when it has one, else its strongest \
                 attack, else (at {} HP or less) its best block, else its first playable card.",
                n.automaton_low_hp
            )],
        ),
    ]
}
