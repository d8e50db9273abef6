//! Spec "Turn Structure Flow": the Beginning phase's Ready, Set and Draw steps, the Main
//! phase, the End of Turn phase, and the turn passing to the next player.

use super::moves::Action;
use super::state::{Modifier, Phase, Until};
use super::testkit::{bare, card, game, give, ink, put};

fn resolve_first(g: &mut super::Lore, target: Option<u32>) {
    let seat = g.chooser();
    let trigger = g
        .bag
        .iter()
        .find(|p| p.owner == seat)
        .expect("a trigger of the chooser")
        .id;
    g.act(seat, Action::Resolve { trigger, target })
        .expect("resolve");
}

#[test]
fn turn_ready_step_readies_the_active_players_cards_and_ink() {
    let mut g = bare(1);
    let mine = put(&mut g, 0, "meadow_scout");
    let theirs = put(&mut g, 1, "meadow_scout");
    ink(&mut g, 1, 3);
    g.sides[1].ink_ready = 0;
    g.in_play_mut(mine).expect("in play").exerted = true;
    g.in_play_mut(theirs).expect("in play").exerted = true;
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(g.active, 1);
    assert!(!card(&g, theirs).exerted, "the active player's cards ready");
    assert!(card(&g, mine).exerted, "not the other player's");
    assert_eq!(g.sides[1].ink_ready, 3, "and its ink");
}

#[test]
fn turn_ready_step_ends_effects_until_the_start_of_your_next_turn() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    let squire = put(&mut g, 0, "copper_squire"); // willpower 3
    let stand = give(&mut g, 0, "stand_fast");
    g.act(
        0,
        Action::Play {
            card: stand,
            target: Some(squire),
        },
    )
    .expect("+3 willpower");
    assert_eq!(card(&g, squire).willpower(), Some(6));
    g.in_play_mut(squire).expect("in play").damage = 4;
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(
        card(&g, squire).willpower(),
        Some(6),
        "it lasts through the opponent's turn"
    );
    let deck = g.sides[0].deck.len();
    g.act(1, Action::PassTurn {}).expect("pass");
    assert!(g.in_play(squire).is_none(), "banished when the effect ends");
    assert_eq!(
        (g.phase, g.awaited()),
        (Phase::Set, vec![0]),
        "its banish trigger waits before the Draw step"
    );
    assert_eq!(g.sides[0].deck.len(), deck, "no draw yet");
    resolve_first(&mut g, None);
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(
        g.sides[0].deck.len(),
        deck - 2,
        "the trigger's card, then the Draw step's"
    );
}

#[test]
fn turn_set_step_characters_stop_drying_at_their_owners_turn() {
    let mut g = bare(1);
    ink(&mut g, 0, 1);
    let sprite = give(&mut g, 0, "lantern_sprite");
    g.act(
        0,
        Action::Play {
            card: sprite,
            target: None,
        },
    )
    .expect("play");
    assert!(card(&g, sprite).drying);
    g.act(0, Action::PassTurn {}).expect("pass");
    assert!(
        card(&g, sprite).drying,
        "still drying in the opponent's turn"
    );
    g.act(1, Action::PassTurn {}).expect("pass");
    assert!(!card(&g, sprite).drying, "dry at its owner's Set step");
    g.act(0, Action::Quest { character: sprite })
        .expect("a dry character quests");
}

#[test]
fn turn_set_step_gains_lore_from_locations() {
    let mut g = bare(1);
    put(&mut g, 1, "lighthouse_point");
    put(&mut g, 1, "sunken_library");
    put(&mut g, 0, "lighthouse_point");
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(g.sides[1].lore, 3, "1 + 2 at its owner's Set step");
    assert_eq!(g.sides[0].lore, 0, "not in the other player's turn");
}

#[test]
fn turn_set_step_start_of_turn_triggers_resolve_before_the_draw_step() {
    let mut g = bare(1);
    put(&mut g, 1, "wayfinders_compass");
    put(&mut g, 1, "storm_herald");
    let target = put(&mut g, 0, "stonebridge_warden");
    let (hand, deck) = (g.sides[1].hand.len(), g.sides[1].deck.len());
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!((g.phase, g.active, g.bag.len()), (Phase::Set, 1, 2));
    assert_eq!(g.awaited(), vec![1]);
    assert_eq!(
        g.sides[1].deck.len(),
        deck,
        "the Draw step waits for the bag"
    );
    let herald = g
        .bag
        .iter()
        .find(|p| p.card.id == "storm_herald")
        .expect("the herald's trigger")
        .id;
    g.act(
        1,
        Action::Resolve {
            trigger: herald,
            target: Some(target),
        },
    )
    .expect("1 damage to the warden");
    assert_eq!(card(&g, target).damage, 1);
    resolve_first(&mut g, None);
    assert_eq!(g.sides[1].lore, 1, "the compass");
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.sides[1].hand.len(), hand + 1, "then the Draw step");
}

#[test]
fn turn_draw_step_draws_one_card_and_is_skipped_on_the_very_first_turn() {
    let mut g = game(3);
    assert_eq!(
        g.sides[0].hand.len(),
        7,
        "the starting player does not draw"
    );
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(
        g.sides[1].hand.len(),
        8,
        "the other player draws on its first turn"
    );
    g.act(1, Action::PassTurn {}).expect("pass");
    assert_eq!(
        g.sides[0].hand.len(),
        8,
        "and the starting player from its second"
    );
    assert_eq!(g.turn, 3);
}

#[test]
fn turn_end_of_turn_triggers_resolve_then_this_turn_effects_end() {
    let mut g = bare(1);
    put(&mut g, 0, "tower_sage");
    let hurt = put(&mut g, 0, "stonebridge_warden");
    g.in_play_mut(hurt).expect("in play").damage = 3;
    g.in_play_mut(hurt).expect("in play").mods.push(Modifier {
        strength: 3,
        willpower: 0,
        until: Until::ThisTurn,
    });
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(
        (g.phase, g.active),
        (Phase::End, 0),
        "the End of Turn phase"
    );
    assert_eq!(g.bag.len(), 1, "the sage's end-of-turn trigger");
    assert_eq!(
        card(&g, hurt).strength(),
        5,
        "this-turn effects last until after it"
    );
    resolve_first(&mut g, Some(hurt));
    assert_eq!(card(&g, hurt).damage, 1, "up to 2 removed");
    assert_eq!(card(&g, hurt).strength(), 2, "then this-turn effects end");
    assert_eq!(
        (g.phase, g.active),
        (Phase::Main, 1),
        "and the next player's turn"
    );
}

#[test]
fn turn_passes_to_the_next_player_with_a_fresh_ink_allowance() {
    let mut g = bare(1);
    let a = give(&mut g, 0, "lantern_sprite");
    g.act(0, Action::Ink { card: a }).expect("ink");
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!((g.active, g.turn, g.sides[1].turns), (1, 2, 1));
    let b = give(&mut g, 1, "lantern_sprite");
    g.act(1, Action::Ink { card: b })
        .expect("its own allowance");
    g.act(1, Action::PassTurn {}).expect("pass");
    let c = give(&mut g, 0, "meadow_scout");
    g.act(0, Action::Ink { card: c })
        .expect("once per turn, every turn");
    assert_eq!(g.sides[0].inkwell.len(), 2);
}
