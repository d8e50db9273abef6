//! Helpers for the scenario tests: a game at the starting player's first Main phase with
//! a known board, cards put straight into hands, play and inkwells.

use battle_protocol::Seat;

use super::cards::find;
use super::decks::READY_DECKS;
use super::moves::Action;
use super::state::{Held, InPlay, Lore, Phase};

/// A game with the ready decks, seat 0 going first, both hands kept: seat 0's first Main
/// phase (turn 1, no draw).
pub fn game(seed: u64) -> Lore {
    let mut g = Lore::new(
        [READY_DECKS[0].list(), READY_DECKS[1].list()],
        seed,
        crate::Names::defaults(2),
    );
    g.first = 0;
    g.active = 0;
    g.act(0, Action::Mulligan { cards: vec![] })
        .expect("seat 0 keeps its hand");
    g.act(1, Action::Mulligan { cards: vec![] })
        .expect("seat 1 keeps its hand");
    assert_eq!((g.phase, g.active, g.turn), (Phase::Main, 0, 1));
    g
}

/// A game at seat 0's first Main phase with empty hands, no ink and nothing in play.
pub fn bare(seed: u64) -> Lore {
    let mut g = game(seed);
    for side in &mut g.sides {
        let hand = std::mem::take(&mut side.hand);
        side.deck.splice(0..0, hand);
    }
    g
}

/// Put a card with id `card` into `seat`'s hand; returns its instance id.
pub fn give(g: &mut Lore, seat: Seat, card: &str) -> u32 {
    let id = g.fresh_id();
    g.sides[seat].hand.push(Held {
        id,
        card: find(card).expect("a card of the set"),
    });
    id
}

/// Put a card with id `card` into play for `seat`, ready and dry; returns its instance id.
pub fn put(g: &mut Lore, seat: Seat, card: &str) -> u32 {
    let id = g.fresh_id();
    g.play.push(InPlay {
        id,
        card: find(card).expect("a card of the set"),
        owner: seat,
        exerted: false,
        drying: false,
        damage: 0,
        mods: Vec::new(),
    });
    id
}

/// Give `seat` `n` ready ink (inkable cards from outside the deck).
pub fn ink(g: &mut Lore, seat: Seat, n: u32) {
    for _ in 0..n {
        let id = g.fresh_id();
        g.sides[seat].inkwell.push(Held {
            id,
            card: find("lantern_sprite").expect("a card of the set"),
        });
    }
    g.sides[seat].ink_ready = g.sides[seat].inkwell.len() as u32;
}

/// The card in play with this id.
pub fn card(g: &Lore, id: u32) -> &InPlay {
    g.in_play(id).expect("in play")
}

/// The refusal code of `action` by `seat`, checking the game is unchanged.
pub fn refused(g: &mut Lore, seat: Seat, action: Action) -> &'static str {
    let fingerprint = |g: &Lore| format!("{:?} {:?} {:?}", g.view_all_json(), g.log, g.bag);
    let before = fingerprint(g);
    let err = g.act(seat, action).expect_err("refused");
    assert_eq!(before, fingerprint(g), "a refusal changed the game");
    err.code()
}

impl Lore {
    /// The view as JSON (every viewer's parts included), for comparisons in tests.
    pub fn view_all_json(&self) -> serde_json::Value {
        crate::view::to_view(&self.view_all())
            .expect("a lore view serializes")
            .to_value()
    }
}
