//! Spec "Triggered Ability System (The Bag)": the active player resolves theirs first, in
//! the order they choose, then the opponent; resolving can add new triggers; a game state
//! check follows each resolution; the decision passes to the seat that makes it.

use super::moves::Action;
use super::state::Phase;
use super::testkit::{bare, card, give, ink, put, refused};
use crate::legal::Legal;

fn trigger_of(g: &super::Lore, card: &str) -> u32 {
    g.bag
        .iter()
        .find(|p| p.card.id == card)
        .unwrap_or_else(|| panic!("{card}'s trigger in the bag"))
        .id
}

#[test]
fn bag_the_active_player_resolves_theirs_first_then_the_opponent() {
    let mut g = bare(1);
    let mine = put(&mut g, 0, "copper_squire"); // 2/3
    let theirs = put(&mut g, 1, "copper_squire");
    g.in_play_mut(theirs).expect("in play").exerted = true;
    g.in_play_mut(mine).expect("in play").damage = 1;
    g.in_play_mut(theirs).expect("in play").damage = 1;
    g.act(
        0,
        Action::Challenge {
            challenger: mine,
            target: theirs,
        },
    )
    .expect("both banished");
    assert_eq!(g.bag.len(), 2, "both banish triggers at once");
    assert_eq!(g.awaited(), vec![0], "the active player first");
    let their_trigger = g.bag.iter().find(|p| p.owner == 1).expect("theirs").id;
    assert_eq!(
        refused(
            &mut g,
            1,
            Action::Resolve {
                trigger: their_trigger,
                target: None
            }
        ),
        "not_your_turn"
    );
    let my_trigger = g.bag.iter().find(|p| p.owner == 0).expect("mine").id;
    g.act(
        0,
        Action::Resolve {
            trigger: my_trigger,
            target: None,
        },
    )
    .expect("resolve mine");
    assert_eq!(g.awaited(), vec![1], "then the opponent, through to_act");
    g.act(
        1,
        Action::Resolve {
            trigger: their_trigger,
            target: None,
        },
    )
    .expect("resolve theirs");
    assert_eq!((g.awaited(), g.phase), (vec![0], Phase::Main));
}

#[test]
fn bag_the_player_chooses_the_order_and_resolving_adds_new_triggers() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    put(&mut g, 0, "welcome_banner");
    let squire = put(&mut g, 1, "copper_squire");
    g.in_play_mut(squire).expect("in play").damage = 2;
    let witch = give(&mut g, 0, "hedge_witch");
    g.act(
        0,
        Action::Play {
            card: witch,
            target: None,
        },
    )
    .expect("a character: its when-played and the banner's triggers");
    let order: Vec<&str> = g.bag.iter().map(|p| p.card.id).collect();
    assert_eq!(order, ["hedge_witch", "welcome_banner"]);
    let banner = trigger_of(&g, "welcome_banner");
    g.act(
        0,
        Action::Resolve {
            trigger: banner,
            target: None,
        },
    )
    .expect("the banner's first, as the player chooses");
    assert_eq!(g.sides[0].lore, 1);
    let legal = g.legal_for(0);
    assert!(
        matches!(&legal[..], [Legal::Open(open)] if open.kind() == "resolve"),
        "the witch's target is an open choice: {legal:?}"
    );
    let witch_trigger = trigger_of(&g, "hedge_witch");
    g.act(
        0,
        Action::Resolve {
            trigger: witch_trigger,
            target: Some(squire),
        },
    )
    .expect("1 damage: the squire is banished");
    assert!(g.in_play(squire).is_none());
    assert_eq!(g.bag.len(), 1, "its banish trigger is new in the bag");
    assert_eq!((g.bag[0].owner, g.awaited()), (1, vec![1]));
}

#[test]
fn bag_a_new_trigger_of_the_active_player_resolves_before_the_opponents_others() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    let my_squire = put(&mut g, 0, "copper_squire");
    g.in_play_mut(my_squire).expect("in play").damage = 1;
    let sentinel = put(&mut g, 1, "ironbark_sentinel");
    put(&mut g, 1, "graveborn_piper");
    g.in_play_mut(sentinel).expect("in play").damage = 5;
    let witch = give(&mut g, 0, "hedge_witch");
    g.act(
        0,
        Action::Play {
            card: witch,
            target: None,
        },
    )
    .expect("play");
    let t = trigger_of(&g, "hedge_witch");
    g.act(
        0,
        Action::Resolve {
            trigger: t,
            target: Some(sentinel),
        },
    )
    .expect("the sentinel is banished: its trigger and the piper's");
    assert_eq!(g.bag.len(), 2);
    assert_eq!(g.awaited(), vec![1]);
    let t = trigger_of(&g, "ironbark_sentinel");
    g.act(
        1,
        Action::Resolve {
            trigger: t,
            target: Some(my_squire),
        },
    )
    .expect("2 damage banishes the active player's squire");
    assert!(g.in_play(my_squire).is_none());
    assert_eq!(
        g.awaited(),
        vec![0],
        "the active player's new trigger comes before the piper's"
    );
    let t = trigger_of(&g, "copper_squire");
    g.act(
        0,
        Action::Resolve {
            trigger: t,
            target: None,
        },
    )
    .expect("draw");
    assert_eq!(g.awaited(), vec![1], "back to the opponent's piper");
    let t = trigger_of(&g, "graveborn_piper");
    g.act(
        1,
        Action::Resolve {
            trigger: t,
            target: None,
        },
    )
    .expect("gain 1 lore");
    assert_eq!(g.sides[1].lore, 1);
    assert_eq!((g.awaited(), g.bag.len()), (vec![0], 0));
}

#[test]
fn bag_targets_are_chosen_at_resolution_and_checked() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    let foe = put(&mut g, 1, "stonebridge_warden");
    let witch = give(&mut g, 0, "hedge_witch");
    g.act(
        0,
        Action::Play {
            card: witch,
            target: None,
        },
    )
    .expect("play");
    let t = trigger_of(&g, "hedge_witch");
    let none = Action::Resolve {
        trigger: t,
        target: None,
    };
    assert_eq!(refused(&mut g, 0, none), "bad_target");
    let lamp = put(&mut g, 1, "story_lamp");
    let item = Action::Resolve {
        trigger: t,
        target: Some(lamp),
    };
    assert_eq!(refused(&mut g, 0, item), "bad_target", "characters only");
    let unknown = Action::Resolve {
        trigger: 9999,
        target: None,
    };
    assert_eq!(refused(&mut g, 0, unknown), "not_in_bag");
    g.act(
        0,
        Action::Resolve {
            trigger: t,
            target: Some(witch),
        },
    )
    .expect("any character, the witch itself included");
    assert_eq!(card(&g, witch).damage, 1);
    assert_eq!(card(&g, foe).damage, 0);
}

#[test]
fn bag_a_game_state_check_follows_each_resolution() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    put(&mut g, 0, "welcome_banner");
    put(&mut g, 0, "welcome_banner");
    g.sides[0].lore = 19;
    let scout = give(&mut g, 0, "meadow_scout");
    g.act(
        0,
        Action::Play {
            card: scout,
            target: None,
        },
    )
    .expect("two banner triggers");
    assert_eq!(g.bag.len(), 2);
    let t = g.bag[1].id;
    g.act(
        0,
        Action::Resolve {
            trigger: t,
            target: None,
        },
    )
    .expect("20 lore");
    assert_eq!(g.phase, Phase::Over, "the check ends the game at once");
    assert!(g.awaited().is_empty() && g.legal_for(0).is_empty());
    assert_eq!(g.finish.as_ref().map(|f| f.winners.clone()), Some(vec![0]));
}
