//! Spec "Core Move System": ink a card, play a card, quest, challenge and pass the turn,
//! each with its refusals (a refusal leaves the game unchanged).

use super::moves::Action;
use super::state::Phase;
use super::testkit::{bare, card, give, ink, put, refused};

#[test]
fn ink_card_goes_facedown_and_ready_into_the_inkwell_once_per_turn() {
    let mut g = bare(1);
    let a = give(&mut g, 0, "lantern_sprite");
    let b = give(&mut g, 0, "meadow_scout");
    g.act(0, Action::Ink { card: a }).expect("an inkable card");
    let side = &g.sides[0];
    assert_eq!((side.inkwell.len(), side.ink_ready), (1, 1), "ready ink");
    assert!(side.hand.iter().all(|h| h.id != a));
    assert!(g
        .log
        .last()
        .expect("a line")
        .contains("reveals Lantern Sprite"));
    assert_eq!(refused(&mut g, 0, Action::Ink { card: b }), "already_inked");
}

#[test]
fn ink_card_refuses_a_card_without_the_inkwell_symbol_or_not_in_hand() {
    let mut g = bare(1);
    let witch = give(&mut g, 0, "hedge_witch");
    assert_eq!(
        refused(&mut g, 0, Action::Ink { card: witch }),
        "not_inkable"
    );
    assert_eq!(
        refused(&mut g, 0, Action::Ink { card: 9999 }),
        "not_in_hand"
    );
    let theirs = give(&mut g, 1, "lantern_sprite");
    assert_eq!(
        refused(&mut g, 0, Action::Ink { card: theirs }),
        "not_in_hand"
    );
    assert_eq!(
        refused(&mut g, 1, Action::Ink { card: theirs }),
        "not_your_turn"
    );
}

#[test]
fn play_card_pays_by_exerting_ready_ink_and_a_character_enters_drying() {
    let mut g = bare(1);
    ink(&mut g, 0, 3);
    let sprite = give(&mut g, 0, "stonebridge_warden");
    g.act(
        0,
        Action::Play {
            card: sprite,
            target: None,
        },
    )
    .expect("3 ink for a 3-cost character");
    assert_eq!(g.sides[0].ink_ready, 0, "the ink is exerted");
    assert_eq!(g.sides[0].inkwell.len(), 3, "and stays in the inkwell");
    let c = card(&g, sprite);
    assert!(c.drying && !c.exerted, "drying, ready");
    assert_eq!(
        refused(&mut g, 0, Action::Quest { character: sprite }),
        "drying"
    );
}

#[test]
fn play_card_refuses_without_enough_ink_or_with_a_bad_target() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    let drake = give(&mut g, 0, "cinderwing_drake");
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::Play {
                card: drake,
                target: None
            }
        ),
        "not_enough_ink"
    );
    let fire = give(&mut g, 0, "flashfire");
    let foe = put(&mut g, 1, "meadow_scout");
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::Play {
                card: fire,
                target: None
            }
        ),
        "bad_target",
        "a character must be chosen while there is one"
    );
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::Play {
                card: fire,
                target: Some(9999)
            }
        ),
        "bad_target"
    );
    let sprite = give(&mut g, 0, "lantern_sprite");
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::Play {
                card: sprite,
                target: Some(foe)
            }
        ),
        "bad_target",
        "a character chooses nothing when played"
    );
}

#[test]
fn play_card_an_action_resolves_at_once_and_goes_to_the_discard() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    let fire = give(&mut g, 0, "flashfire");
    let foe = put(&mut g, 1, "stonebridge_warden");
    g.act(
        0,
        Action::Play {
            card: fire,
            target: Some(foe),
        },
    )
    .expect("2 damage to a 2/5");
    assert_eq!(card(&g, foe).damage, 2);
    assert_eq!(g.sides[0].discard.last().map(|h| h.id), Some(fire));
    assert!(
        g.bag.is_empty(),
        "an action's effect does not wait in the bag"
    );
    assert!(g.play.iter().all(|c| c.id != fire));
}

#[test]
fn play_card_an_action_with_nothing_to_choose_is_played_with_null() {
    let mut g = bare(1);
    ink(&mut g, 0, 2);
    let fire = give(&mut g, 0, "flashfire");
    g.act(
        0,
        Action::Play {
            card: fire,
            target: None,
        },
    )
    .expect("no character in play: the effect does nothing");
    assert_eq!(g.sides[0].discard.len(), 1);
}

#[test]
fn play_card_items_and_locations_go_into_play_and_when_played_triggers_into_the_bag() {
    let mut g = bare(1);
    ink(&mut g, 0, 4);
    let lamp = give(&mut g, 0, "story_lamp");
    g.act(
        0,
        Action::Play {
            card: lamp,
            target: None,
        },
    )
    .expect("an item");
    assert!(g.in_play(lamp).is_some_and(|c| !c.drying));
    assert_eq!(g.bag.len(), 1, "its when-played draw waits in the bag");
    assert_eq!(g.bag[0].source, lamp);
    assert_eq!(g.awaited(), vec![0]);
    let hand = g.sides[0].hand.len();
    let trigger = g.bag[0].id;
    g.act(
        0,
        Action::Resolve {
            trigger,
            target: None,
        },
    )
    .expect("resolve the draw");
    assert_eq!(g.sides[0].hand.len(), hand + 1);
    let point = give(&mut g, 0, "lighthouse_point");
    g.act(
        0,
        Action::Play {
            card: point,
            target: None,
        },
    )
    .expect("a location");
    assert!(g.in_play(point).is_some());
    assert!(g.bag.is_empty());
}

#[test]
fn quest_exerts_a_ready_dry_character_and_adds_its_lore() {
    let mut g = bare(1);
    let archivist = put(&mut g, 0, "quill_archivist");
    g.act(
        0,
        Action::Quest {
            character: archivist,
        },
    )
    .expect("a ready, dry character");
    assert!(card(&g, archivist).exerted);
    assert_eq!(g.sides[0].lore, 2);
    assert_eq!(g.bag.len(), 1, "its quest trigger waits in the bag");
    let trigger = g.bag[0].id;
    assert_eq!(refused(&mut g, 0, Action::PassTurn {}), "pending_triggers");
    g.act(
        0,
        Action::Resolve {
            trigger,
            target: None,
        },
    )
    .expect("draw");
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::Quest {
                character: archivist
            }
        ),
        "exerted"
    );
}

#[test]
fn quest_refuses_items_locations_and_the_opponents_characters() {
    let mut g = bare(1);
    let lamp = put(&mut g, 0, "story_lamp");
    let point = put(&mut g, 0, "lighthouse_point");
    let foe = put(&mut g, 1, "meadow_scout");
    for id in [lamp, point, foe, 9999] {
        assert_eq!(
            refused(&mut g, 0, Action::Quest { character: id }),
            "not_your_character"
        );
    }
}

#[test]
fn challenge_deals_strength_damage_both_ways_at_once_and_banishes() {
    let mut g = bare(1);
    let duelist = put(&mut g, 0, "ember_duelist"); // 3/3
    let warden = put(&mut g, 1, "stonebridge_warden"); // 2/5
    let scout = put(&mut g, 1, "meadow_scout"); // 2/1
    g.in_play_mut(warden).expect("in play").exerted = true;
    g.in_play_mut(scout).expect("in play").exerted = true;
    g.act(
        0,
        Action::Challenge {
            challenger: duelist,
            target: warden,
        },
    )
    .expect("an exerted opposing character");
    assert_eq!(card(&g, warden).damage, 3);
    assert_eq!(card(&g, duelist).damage, 2);
    assert!(card(&g, duelist).exerted, "the challenger exerts");
    assert_eq!(
        g.log.last().map(String::as_str),
        Some(
            "Player 1's Ember Duelist (3 strength) challenges Player 2's Stonebridge Warden (2 \
             strength): Player 2's Stonebridge Warden takes 3 damage (5 to 2), Player 1's Ember \
             Duelist takes 2 damage (3 to 1)."
        ),
        "who did what to whom, and each one's willpower left before and after"
    );
    let sprite = put(&mut g, 0, "lantern_sprite"); // 1/2
    g.act(
        0,
        Action::Challenge {
            challenger: sprite,
            target: scout,
        },
    )
    .expect("1 damage banishes a 2/1; 2 damage banishes the 1/2");
    assert!(g.in_play(scout).is_none() && g.in_play(sprite).is_none());
    assert_eq!(g.sides[0].discard.last().map(|h| h.id), Some(sprite));
    assert_eq!(g.sides[1].discard.last().map(|h| h.id), Some(scout));
}

#[test]
fn challenge_refuses_ready_targets_own_cards_and_a_challenger_not_ready_and_dry() {
    let mut g = bare(1);
    let duelist = put(&mut g, 0, "ember_duelist");
    let mine = put(&mut g, 0, "meadow_scout");
    let ready_foe = put(&mut g, 1, "meadow_scout");
    let lamp = put(&mut g, 1, "story_lamp");
    g.in_play_mut(mine).expect("in play").exerted = true;
    for target in [ready_foe, mine, lamp] {
        let action = Action::Challenge {
            challenger: duelist,
            target,
        };
        assert_eq!(refused(&mut g, 0, action), "not_challengeable");
    }
    g.in_play_mut(ready_foe).expect("in play").exerted = true;
    let wet = put(&mut g, 0, "lantern_sprite");
    g.in_play_mut(wet).expect("in play").drying = true;
    let action = Action::Challenge {
        challenger: wet,
        target: ready_foe,
    };
    assert_eq!(refused(&mut g, 0, action), "drying");
    let action = Action::Challenge {
        challenger: mine,
        target: ready_foe,
    };
    assert_eq!(refused(&mut g, 0, action), "exerted");
    let action = Action::Challenge {
        challenger: ready_foe,
        target: mine,
    };
    assert_eq!(refused(&mut g, 0, action), "not_your_character");
}

#[test]
fn challenge_a_location_deals_damage_and_takes_none() {
    let mut g = bare(1);
    let drake = put(&mut g, 0, "cinderwing_drake"); // 6/7
    let point = put(&mut g, 1, "lighthouse_point"); // willpower 6
    g.act(
        0,
        Action::Challenge {
            challenger: drake,
            target: point,
        },
    )
    .expect("a location may be challenged, ready or not");
    assert!(g.in_play(point).is_none(), "6 damage banishes it");
    assert_eq!(card(&g, drake).damage, 0, "a location deals no damage");
}

#[test]
fn pass_turn_only_with_no_pending_triggers_and_only_in_the_main_phase() {
    let mut g = bare(1);
    ink(&mut g, 0, 1);
    let lamp = give(&mut g, 0, "story_lamp");
    g.act(
        0,
        Action::Play {
            card: lamp,
            target: None,
        },
    )
    .expect("an item with a when-played trigger");
    assert_eq!(refused(&mut g, 0, Action::PassTurn {}), "pending_triggers");
    let sprite = give(&mut g, 0, "lantern_sprite");
    assert_eq!(
        refused(&mut g, 0, Action::Ink { card: sprite }),
        "pending_triggers",
        "no move while the bag holds triggers"
    );
    let trigger = g.bag[0].id;
    g.act(
        0,
        Action::Resolve {
            trigger,
            target: None,
        },
    )
    .expect("resolve");
    g.act(0, Action::PassTurn {}).expect("an empty bag");
    assert_eq!((g.active, g.phase), (1, Phase::Main));
    assert_eq!(
        refused(&mut g, 1, Action::Mulligan { cards: vec![] }),
        "wrong_phase"
    );
}
