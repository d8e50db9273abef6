//! Spec "Setup System": 60-card decks shuffled with the battle's seeded generator, 7 cards
//! each, the mulligan (alter hand) starting with the starting player, neither seeing the
//! other's choice, the starting player chosen at random and announced, lore at 0; the deck
//! a player brings, checked against the deck rules.

use serde_json::json;

use super::decks::READY_DECKS;
use super::moves::Action;
use super::state::{Lore, Phase};
use super::testkit::refused;
use crate::ruleset::Ruleset;
use crate::typed::Typed;
use crate::view::Viewer;

fn fresh(seed: u64) -> Lore {
    Lore::new(
        [READY_DECKS[0].list(), READY_DECKS[1].list()],
        seed,
        crate::Names::defaults(2),
    )
}

fn order(g: &Lore, seat: usize) -> Vec<u32> {
    g.sides[seat]
        .deck
        .iter()
        .chain(&g.sides[seat].hand)
        .map(|h| h.id)
        .collect()
}

#[test]
fn setup_decks_are_shuffled_with_the_battles_seeded_generator() {
    assert_eq!(order(&fresh(7), 0), order(&fresh(7), 0), "the same seed");
    assert_ne!(order(&fresh(7), 0), order(&fresh(8), 0), "another seed");
    let g = fresh(7);
    assert_eq!(g.sides[0].deck.len() + g.sides[0].hand.len(), 60);
}

#[test]
fn setup_seven_cards_each_lore_at_zero_and_the_starting_player_announced() {
    let mut firsts = [0; 2];
    for seed in 0..40 {
        let g = fresh(seed);
        firsts[g.first] += 1;
        assert_eq!((g.active, g.phase, g.turn), (g.first, Phase::Mulligan, 0));
        for side in &g.sides {
            assert_eq!((side.hand.len(), side.deck.len(), side.lore), (7, 53, 0));
        }
        assert!(g.log[0].starts_with(&format!("Player {} is chosen", g.first + 1)));
    }
    assert!(
        firsts[0] > 5 && firsts[1] > 5,
        "either seat may start: {firsts:?}"
    );
}

#[test]
fn setup_mulligan_starting_player_first_then_the_other() {
    let mut g = fresh(2);
    let first = g.first;
    assert_eq!(g.awaited(), vec![first]);
    let other = 1 - first;
    assert_eq!(
        refused(&mut g, other, Action::Mulligan { cards: vec![] }),
        "not_your_turn"
    );
    g.act(first, Action::Mulligan { cards: vec![] })
        .expect("keep");
    assert_eq!(
        g.awaited(),
        vec![other],
        "the decision passes to the other player"
    );
    g.act(other, Action::Mulligan { cards: vec![] })
        .expect("keep");
    assert_eq!((g.phase, g.active, g.turn), (Phase::Main, first, 1));
    assert_eq!(g.sides[first].hand.len(), 7, "no draw on the first turn");
}

#[test]
fn setup_mulligan_puts_cards_on_the_bottom_draws_back_to_seven_and_reshuffles() {
    let mut g = fresh(5);
    let first = g.first;
    let back: Vec<u32> = g.sides[first].hand.iter().take(3).map(|h| h.id).collect();
    let kept: Vec<u32> = g.sides[first].hand.iter().skip(3).map(|h| h.id).collect();
    let top: Vec<u32> = g.sides[first]
        .deck
        .iter()
        .rev()
        .take(3)
        .map(|h| h.id)
        .collect();
    g.act(
        first,
        Action::Mulligan {
            cards: back.clone(),
        },
    )
    .expect("any number");
    let hand: Vec<u32> = g.sides[first].hand.iter().map(|h| h.id).collect();
    assert_eq!(hand.len(), 7);
    assert!(kept.iter().all(|id| hand.contains(id)));
    assert!(
        top.iter().all(|id| hand.contains(id)),
        "the 3 drawn come from the top, not the cards put back"
    );
    assert!(back.iter().all(|id| !hand.contains(id)));
    assert_eq!(g.sides[first].deck.len(), 53);
    let bottom: Vec<u32> = g.sides[first].deck[..3].iter().map(|h| h.id).collect();
    let mut deepest = back.clone();
    deepest.sort_unstable();
    let mut seen = bottom.clone();
    seen.sort_unstable();
    assert_ne!(seen, deepest, "the deck is shuffled afterwards");
    assert!(g
        .log
        .last()
        .expect("a line")
        .contains("3 cards on the bottom"));
}

#[test]
fn setup_mulligan_refuses_cards_not_in_hand_or_named_twice() {
    let mut g = fresh(5);
    let first = g.first;
    let card = g.sides[first].hand[0].id;
    let theirs = g.sides[1 - first].hand[0].id;
    for cards in [vec![card, card], vec![theirs], vec![9999]] {
        assert_eq!(
            refused(&mut g, first, Action::Mulligan { cards }),
            "bad_mulligan"
        );
    }
    let all: Vec<u32> = g.sides[first].hand.iter().map(|h| h.id).collect();
    g.act(first, Action::Mulligan { cards: all })
        .expect("the whole hand may go back");
}

fn typed(seed: u64) -> Typed<Lore> {
    Typed::<Lore>::new(&json!({}), seed).expect("no options")
}

#[test]
fn setup_mulligan_choices_are_hidden_from_the_other_player() {
    let mut g = typed(11);
    g.setup(0, None).expect("default");
    g.setup(1, None).expect("default");
    let first = g.to_act()[0];
    let before = g.view(Viewer::Seat(1 - first)).to_value();
    let hand: Vec<u32> = g.game().expect("started").sides[first].hand[..2]
        .iter()
        .map(|h| h.id)
        .collect();
    g.apply(first, &json!({"kind": "mulligan", "cards": hand}))
        .expect("two back");
    let after = g.view(Viewer::Seat(1 - first)).to_value();
    let side = |v: &serde_json::Value| v["sides"][first].clone();
    assert_eq!(side(&before)["hand_count"], side(&after)["hand_count"]);
    assert_eq!(side(&before)["deck_count"], side(&after)["deck_count"]);
    assert!(side(&after).get("hand").is_none(), "no card of it is seen");
    let text = after.to_string();
    for id in &hand {
        assert!(!text.contains(&format!("\"id\":{id},")), "card {id} seen");
    }
}

#[test]
fn setup_a_player_brings_a_ready_deck_or_its_own_60_cards() {
    let mut g = typed(1);
    assert!(g
        .setup(0, Some(&json!({"ready_deck": "nowhere"})))
        .expect_err("no such deck")
        .0
        .contains("not a ready deck"));
    let own: Vec<&str> = READY_DECKS[1].list().iter().map(|c| c.id).collect();
    assert!(g
        .setup(0, Some(&json!({"ready_deck": "emberfall", "deck": own})))
        .is_err());
    assert!(g
        .setup(0, Some(&json!({"deck": own[..50].to_vec()})))
        .expect_err("50 cards")
        .0
        .contains("exactly 60"));
    assert!(g.setup(0, Some(&json!({"dekc": []}))).is_err(), "a typo");
    g.setup(0, Some(&json!({"deck": own})))
        .expect("60 cards, at most 4 of each");
    g.setup(1, Some(&json!({"ready_deck": "emberfall"})))
        .expect("a ready deck");
    let game = g.game().expect("started");
    let names = |seat: usize| -> Vec<&str> {
        let mut ids: Vec<&str> = game.sides[seat]
            .deck
            .iter()
            .chain(&game.sides[seat].hand)
            .map(|h| h.card.id)
            .collect();
        ids.sort_unstable();
        ids
    };
    let mut want: Vec<&str> = own.clone();
    want.sort_unstable();
    assert_eq!(names(0), want, "seat 0 plays the deck it brought");
    assert!(names(1).contains(&"hedge_witch"));
}

#[test]
fn setup_without_a_deck_seat_0_plays_emberfall_and_seat_1_tidewater() {
    let mut g = typed(1);
    g.setup(0, None).expect("default");
    g.setup(1, None).expect("default");
    let game = g.game().expect("started");
    let has = |seat: usize, id: &str| {
        game.sides[seat]
            .deck
            .iter()
            .chain(&game.sides[seat].hand)
            .any(|h| h.card.id == id)
    };
    assert!(has(0, "hedge_witch") && !has(0, "tower_sage"));
    assert!(has(1, "tower_sage") && !has(1, "hedge_witch"));
}
