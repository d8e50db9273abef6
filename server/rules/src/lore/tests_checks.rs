//! Spec "Game State Checks": 20 lore wins at once; drawing from an empty deck loses;
//! a character or location with damage at or above its willpower is banished. Checked after
//! every step, action and resolution.

use super::moves::Action;
use super::state::Phase;
use super::testkit::{bare, give, ink, put};

fn winners(g: &super::Lore) -> Option<Vec<usize>> {
    g.finish.as_ref().map(|f| f.winners.clone())
}

#[test]
fn check_20_lore_wins_at_once() {
    let mut g = bare(1);
    let archivist = put(&mut g, 0, "quill_archivist");
    g.sides[0].lore = 18;
    g.act(
        0,
        Action::Quest {
            character: archivist,
        },
    )
    .expect("quest for 2");
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(winners(&g), Some(vec![0]));
    assert!(g.awaited().is_empty(), "its quest trigger never resolves");
    assert!(g.log.last().expect("a line").contains("wins with 20 lore"));
    assert!(g.act(0, Action::PassTurn {}).is_err());
}

#[test]
fn check_20_lore_from_locations_wins_at_the_set_step() {
    let mut g = bare(1);
    put(&mut g, 1, "sunken_library");
    g.sides[1].lore = 18;
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(winners(&g), Some(vec![1]));
}

#[test]
fn check_drawing_from_an_empty_deck_loses() {
    let mut g = bare(1);
    g.sides[1].deck.clear();
    g.act(0, Action::PassTurn {}).expect("pass");
    assert_eq!(
        winners(&g),
        Some(vec![0]),
        "seat 1's Draw step finds no card"
    );
    assert!(g.log.last().expect("a line").contains("empty deck"));
}

#[test]
fn check_drawing_from_an_empty_deck_by_an_effect_loses_too() {
    let mut g = bare(1);
    ink(&mut g, 0, 3);
    g.sides[0].deck.truncate(1);
    let study = give(&mut g, 0, "midnight_study");
    g.act(
        0,
        Action::Play {
            card: study,
            target: None,
        },
    )
    .expect("draw 2 from a deck of 1");
    assert_eq!(winners(&g), Some(vec![1]));
}

#[test]
fn check_banishment_at_damage_equal_to_or_above_willpower() {
    let mut g = bare(1);
    ink(&mut g, 0, 6);
    let warden = put(&mut g, 1, "stonebridge_warden"); // willpower 5
    let other = put(&mut g, 1, "stonebridge_warden");
    g.in_play_mut(warden).expect("in play").damage = 3;
    g.in_play_mut(other).expect("in play").damage = 2;
    for target in [warden, other] {
        let fire = give(&mut g, 0, "flashfire");
        g.act(
            0,
            Action::Play {
                card: fire,
                target: Some(target),
            },
        )
        .expect("2 damage");
    }
    assert!(g.in_play(warden).is_none(), "5 damage on willpower 5");
    assert_eq!(g.in_play(other).map(|c| c.damage), Some(4), "4 on 5 stays");
    assert_eq!(
        g.sides[1].discard.len(),
        1,
        "banished to its owner's discard"
    );
}

#[test]
fn check_lore_lost_never_goes_below_zero() {
    let mut g = bare(1);
    let chronicler = put(&mut g, 0, "grey_chronicler");
    g.sides[1].lore = 0;
    g.act(
        0,
        Action::Quest {
            character: chronicler,
        },
    )
    .expect("quest for 3");
    let t = g.bag[0].id;
    g.act(
        0,
        Action::Resolve {
            trigger: t,
            target: None,
        },
    )
    .expect("the opponent loses 1");
    assert_eq!((g.sides[0].lore, g.sides[1].lore), (3, 0));
}

#[test]
fn check_cards_banished_together_see_each_other_leave() {
    let mut g = bare(1);
    let piper = put(&mut g, 1, "graveborn_piper"); // willpower 4
    let scout = put(&mut g, 1, "meadow_scout"); // willpower 1
    g.in_play_mut(piper).expect("in play").damage = 4;
    g.in_play_mut(scout).expect("in play").damage = 1;
    g.check();
    assert!(g.in_play(piper).is_none() && g.in_play(scout).is_none());
    let bag: Vec<&str> = g.bag.iter().map(|p| p.card.id).collect();
    assert_eq!(bag, ["graveborn_piper"], "the piper saw the scout leave");
    assert_eq!(g.awaited(), vec![1]);
}
