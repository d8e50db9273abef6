//! Spec "Zone System": hands, deck order and the inkwell's facedown cards are hidden (the
//! owner sees its own hand and inkwell, the opponent and spectators only counts); everything
//! in play and in the discards is public.

use serde_json::{json, Value};

use super::Lore;
use crate::ruleset::Ruleset;
use crate::typed::Typed;
use crate::view::Viewer;

/// A started battle a few turns in (both bots playing), with cards in every zone.
fn battle() -> Typed<Lore> {
    let mut g = Typed::<Lore>::new(&json!({}), 21).expect("no options");
    g.setup(0, None).expect("default");
    g.setup(1, None).expect("default");
    while g.game().expect("started").turn < 7 {
        let seat = g.to_act()[0];
        let action = g.ai_action(seat).expect("the bot has a move");
        g.apply(seat, &action).expect("the bot's move");
    }
    g
}

#[test]
fn zones_hands_and_inkwells_are_seen_by_their_owner_alone() {
    let g = battle();
    let state = g.game().expect("started");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let view = g.view(viewer).to_value();
        for seat in 0..2 {
            let side = &view["sides"][seat];
            let own = viewer == Viewer::Seat(seat);
            assert_eq!(side.get("hand").is_some(), own, "{viewer:?} hand {seat}");
            assert_eq!(
                side.get("inkwell").is_some(),
                own,
                "{viewer:?} inkwell {seat}"
            );
            assert_eq!(side["hand_count"], json!(state.sides[seat].hand.len()));
            assert_eq!(side["ink_total"], json!(state.sides[seat].inkwell.len()));
            if own {
                let inkwell = side["inkwell"].as_array().expect("a list");
                assert_eq!(inkwell.len(), state.sides[seat].inkwell.len());
            }
        }
    }
    assert!(
        state.sides.iter().all(|s| !s.inkwell.is_empty()),
        "a real test: both inkwells hold cards"
    );
}

#[test]
fn zones_deck_order_is_in_no_view() {
    let g = battle();
    let state = g.game().expect("started");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let view = g.view(viewer).to_value();
        let text = view.to_string();
        for side in &state.sides {
            for held in &side.deck {
                assert!(
                    !text.contains(&format!("\"id\":{},", held.id)),
                    "{viewer:?} sees deck card {}",
                    held.id
                );
            }
        }
        for seat in 0..2 {
            assert!(view["sides"][seat].get("deck").is_none());
            assert_eq!(
                view["sides"][seat]["deck_count"],
                json!(state.sides[seat].deck.len())
            );
        }
    }
}

#[test]
fn zones_play_and_discards_are_public() {
    let g = battle();
    let state = g.game().expect("started");
    let spectator = g.view(Viewer::Spectator).to_value();
    for seat in 0..2 {
        let ids = |key: &str| -> Vec<Value> {
            spectator["sides"][seat][key]
                .as_array()
                .expect("a list")
                .iter()
                .map(|c| c["id"].clone())
                .collect()
        };
        let play: Vec<Value> = state
            .play
            .iter()
            .filter(|c| c.owner == seat)
            .map(|c| json!(c.id))
            .collect();
        assert_eq!(ids("play"), play);
        let discard: Vec<Value> = state.sides[seat]
            .discard
            .iter()
            .map(|h| json!(h.id))
            .collect();
        assert_eq!(ids("discard"), discard);
    }
    assert!(!state.play.is_empty(), "a real test: cards in play");
}

#[test]
fn zones_legal_actions_are_only_for_the_seat_that_decides() {
    let g = battle();
    let seat = g.to_act()[0];
    assert!(!g.legal_actions(seat).is_empty());
    assert!(
        g.legal_actions(1 - seat).is_empty(),
        "nothing to do, nothing seen"
    );
}
