//! The two ready 60-card decks, as data, and the deck rules a deck a player brings must
//! follow (spec "Setup": a 60-card deck; at most 4 copies of a card, a decision).

use super::cards::{find, Card};
use crate::error::SetupError;

/// Cards in a deck (spec: "each player's 60-card deck").
pub const DECK_SIZE: usize = 60;
/// Most copies of one card in a deck (decision: the game's usual limit).
pub const MAX_COPIES: usize = 4;

/// A ready deck: an id a player names in the setup, a name, and card ids with their copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadyDeck {
    /// Stable id, as the setup names it.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Card ids and copies, 60 cards in all.
    pub cards: &'static [(&'static str, usize)],
}

/// Emberfall: cheap fighters, damage and exerting to challenge its way through.
pub const EMBERFALL: ReadyDeck = ReadyDeck {
    id: "emberfall",
    name: "Emberfall",
    cards: &[
        ("meadow_scout", 4),
        ("lantern_sprite", 4),
        ("hedge_witch", 4),
        ("copper_squire", 4),
        ("ember_duelist", 4),
        ("moonlit_trickster", 4),
        ("graveborn_piper", 4),
        ("storm_herald", 4),
        ("ironbark_sentinel", 4),
        ("cinderwing_drake", 4),
        ("flashfire", 4),
        ("rallying_cry", 4),
        ("sudden_gust", 4),
        ("story_lamp", 4),
        ("lighthouse_point", 4),
    ],
};

/// Tidewater: sturdy questers, card draw, lore from items and locations.
pub const TIDEWATER: ReadyDeck = ReadyDeck {
    id: "tidewater",
    name: "Tidewater",
    cards: &[
        ("lantern_sprite", 4),
        ("tidewater_messenger", 4),
        ("copper_squire", 4),
        ("quill_archivist", 4),
        ("stonebridge_warden", 4),
        ("graveborn_piper", 2),
        ("skyborne_navigator", 4),
        ("tower_sage", 4),
        ("grey_chronicler", 3),
        ("midnight_study", 3),
        ("mending_salve", 4),
        ("stand_fast", 4),
        ("wayfinders_compass", 4),
        ("welcome_banner", 4),
        ("lighthouse_point", 4),
        ("sunken_library", 4),
    ],
};

/// Every ready deck; seat 0 plays the first by default, seat 1 the second.
pub const READY_DECKS: [ReadyDeck; 2] = [EMBERFALL, TIDEWATER];

/// The ready deck with this id.
pub fn ready_deck(id: &str) -> Option<&'static ReadyDeck> {
    READY_DECKS.iter().find(|deck| deck.id == id)
}

impl ReadyDeck {
    /// Its 60 cards, in list order.
    pub fn list(&self) -> Vec<&'static Card> {
        self.cards
            .iter()
            .flat_map(|&(id, n)| {
                // Every ready deck's ids are cards of the set (checked by a test).
                let card = find(id).expect("a ready deck names cards of the set");
                std::iter::repeat_n(card, n)
            })
            .collect()
    }
}

/// The cards of a deck a player brings, or the sentence saying which deck rule it breaks:
/// exactly 60 cards of the set, at most 4 copies of each.
pub fn check_deck(ids: &[String]) -> Result<Vec<&'static Card>, SetupError> {
    if ids.len() != DECK_SIZE {
        return Err(SetupError(format!(
            "the deck has {} cards; a deck holds exactly {DECK_SIZE}",
            ids.len()
        )));
    }
    let mut cards = Vec::with_capacity(DECK_SIZE);
    for (i, id) in ids.iter().enumerate() {
        let card = find(id).ok_or_else(|| {
            SetupError(format!(
                "deck[{i}] is \"{id}\", which is not a card of the set"
            ))
        })?;
        let copies = ids.iter().filter(|x| *x == id).count();
        if copies > MAX_COPIES {
            return Err(SetupError(format!(
                "the deck holds {copies} copies of \"{id}\"; at most {MAX_COPIES} are allowed"
            )));
        }
        cards.push(card);
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_decks_follow_the_deck_rules() {
        for deck in READY_DECKS {
            let ids: Vec<String> = deck.list().iter().map(|c| c.id.to_string()).collect();
            assert_eq!(ids.len(), DECK_SIZE, "{}", deck.id);
            check_deck(&ids).unwrap_or_else(|e| panic!("{}: {e}", deck.id));
            let inkable = deck.list().iter().filter(|c| c.inkable).count();
            assert!(inkable >= 40, "{}: {inkable} inkable cards", deck.id);
        }
    }

    #[test]
    fn setup_deck_rules_size_copies_and_known_cards() {
        let ids: Vec<String> = EMBERFALL.list().iter().map(|c| c.id.to_string()).collect();
        let short = &ids[..59];
        let err = check_deck(short).expect_err("59 cards");
        assert!(err.0.contains("59 cards"), "{err}");
        let mut five = ids.clone();
        for slot in five.iter_mut().take(5) {
            *slot = "flashfire".into();
        }
        // flashfire already has 4 copies further down: now 9 (the first 5 replaced scouts).
        let err = check_deck(&five).expect_err("too many copies");
        assert!(err.0.contains("copies of \"flashfire\""), "{err}");
        let mut unknown = ids;
        unknown[3] = "dragon_of_elsewhere".into();
        let err = check_deck(&unknown).expect_err("unknown card");
        assert!(err.0.contains("deck[3]"), "{err}");
    }
}
