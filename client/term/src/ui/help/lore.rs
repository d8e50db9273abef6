//! How lore is played, from `docs/rules/lore.md`: the goal, the setup, the turn, ink,
//! the kinds of card, questing and challenging, drying, the bag of triggers and what each
//! player sees. Every number comes from [`NUMBERS`].

use super::Section;

/// The numbers the page gives, in one place (a test compares them with the rules crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    /// Lore that wins.
    pub win_lore: u32,
    /// Cards in a deck.
    pub deck: usize,
    /// Cards in an opening hand.
    pub hand: usize,
    /// Most copies of one card in a deck.
    pub copies: usize,
}

/// Lore's numbers.
pub const NUMBERS: Numbers = Numbers {
    win_lore: 20,
    deck: 60,
    hand: 7,
    copies: 4,
};

/// The page's sections.
pub fn sections() -> Vec<Section> {
    let n = NUMBERS;
    vec![
        Section::new(
            "Goal",
            [format!(
                "Be the first to {} lore; it wins at once. A player who has to draw from an \
                 empty deck loses.",
                n.win_lore
            )],
        ),
        Section::new(
            "Setup",
            [format!(
                "Each deck holds {} cards (at most {} of one card) and is shuffled; each player \
                 draws {} and starts at 0 lore; who goes first is drawn at random. Each player \
                 in turn may put any cards of the hand on the bottom of the deck (mulligan) and \
                 draws back to {}.",
                n.deck, n.copies, n.hand, n.hand
            )],
        ),
        Section::new(
            "Your turn",
            [
                "Ready: your cards in play and your ink ready. Set: your characters stop \
                 drying, your locations give their lore, your start-of-turn triggers go into \
                 the bag. Draw: 1 card (not on the game's very first turn)."
                    .to_owned(),
                "Main phase: ink, play, quest and challenge in any order, then pass the turn \
                 (e). At the end of the turn your end-of-turn triggers resolve and \"this \
                 turn\" effects end."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Ink",
            [
                "Once a turn you may ink a card marked inkable: it is shown to both players \
                 (the log names it) and goes facedown into your inkwell as 1 ink."
                    .to_owned(),
                "A card is played by exerting as much ready ink as it costs; ink readies at \
                 the start of each of your turns."
                    .to_owned(),
            ],
        ),
        Section::new(
            "Cards",
            [
                "Characters show strength/willpower ◆lore. A character comes into play \
                 drying: it can neither quest nor challenge until your next turn (it can be \
                 challenged once exerted). Actions resolve at once and go to the discard; \
                 items stay in play; a location gives its lore at the start of each of your \
                 turns."
                    .to_owned(),
                "Quest: exert a ready, dry character of yours to gain its lore.".to_owned(),
                "Challenge: exert a ready, dry character of yours against an exerted opposing \
                 character (or any opposing location): each deals its strength in damage to \
                 the other at once (a location deals none back). A card whose damage reaches \
                 its willpower is banished."
                    .to_owned(),
            ],
        ),
        Section::new(
            "The bag",
            [
                "Triggered abilities (\"when you play\", \"at the start of your turn\", \
                 \"when banished\", \"whenever...\") wait in the bag, which both players see. \
                 The player whose turn it is resolves all of theirs first, in the order they \
                 choose, then the other player resolves theirs. Nothing else is done while a \
                 trigger waits. A trigger that chooses a character chooses as it resolves."
                    .to_owned(),
            ],
        ),
        Section::new(
            "What each player sees",
            [
                "Hands and the order of decks are hidden; each player sees their own hand \
                 and the cards in their own inkwell, the other only counts. Cards in play, \
                 discards, the bag, lore and the log are public, and every inked card is \
                 named as it goes into the inkwell."
                    .to_owned(),
            ],
        ),
    ]
}
