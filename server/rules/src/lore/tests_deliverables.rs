//! Spec "Expected Deliverable": a complete turn cycle, questing to 20 lore, a challenge that
//! banishes, the deck-out loss, the triggered abilities' resolution order; and whole games
//! between the bots, deterministic by seed.

use serde_json::json;

use super::moves::Action;
use super::state::Phase;
use super::testkit::{bare, card, game, give, ink, put};
use super::Lore;
use crate::ruleset::Ruleset;
use crate::typed::Typed;

#[test]
fn deliverable_complete_turn_cycle() {
    let mut g = game(9);
    assert_eq!((g.turn, g.active, g.phase), (1, 0, Phase::Main));
    let inkable = g.sides[0]
        .hand
        .iter()
        .find(|h| h.card.inkable)
        .expect("an inkable card")
        .id;
    g.act(0, Action::Ink { card: inkable }).expect("ink");
    let one = give(&mut g, 0, "lantern_sprite");
    g.act(
        0,
        Action::Play {
            card: one,
            target: None,
        },
    )
    .expect("play a 1-cost character");
    g.act(0, Action::PassTurn {}).expect("pass");
    // Seat 1: Beginning (its first draw), Main, End.
    assert_eq!((g.turn, g.active, g.phase), (2, 1, Phase::Main));
    assert_eq!(g.sides[1].hand.len(), 8);
    g.act(1, Action::PassTurn {}).expect("pass");
    // Seat 0 again: ink readied, the sprite dry, a card drawn.
    assert_eq!((g.turn, g.active, g.sides[0].turns), (3, 0, 2));
    assert_eq!(g.sides[0].ink_ready, 1);
    assert!(!card(&g, one).drying);
    assert_eq!(g.sides[0].hand.len(), 7, "7 - ink - play + draw");
    g.act(0, Action::Quest { character: one }).expect("quest");
    assert_eq!(g.sides[0].lore, 1);
    let lines = g.log.join("\n");
    for needle in ["Turn 1:", "Turn 2:", "Turn 3:", "passes the turn", "quests"] {
        assert!(lines.contains(needle), "{needle}");
    }
}

#[test]
fn deliverable_questing_to_20_lore_wins() {
    let mut g = bare(4);
    let navigator = put(&mut g, 0, "skyborne_navigator"); // lore 3
    let mut turns = 0;
    while g.phase != Phase::Over {
        turns += 1;
        g.act(
            0,
            Action::Quest {
                character: navigator,
            },
        )
        .expect("quest");
        if g.phase == Phase::Over {
            break;
        }
        g.act(0, Action::PassTurn {}).expect("pass");
        g.act(1, Action::PassTurn {}).expect("pass");
    }
    assert_eq!(turns, 7, "3 lore a turn: 21 on the 7th quest");
    assert_eq!(g.sides[0].lore, 21);
    assert_eq!(g.finish.as_ref().map(|f| f.winners.clone()), Some(vec![0]));
    let finish = g.finish.as_ref().expect("over");
    assert_eq!(finish.reason, crate::OutcomeReason::Score);
    assert_eq!(
        finish.summary,
        format!(
            "Player 1 wins with 21 lore to Player 2's {}.",
            g.sides[1].lore
        )
    );
}

#[test]
fn deliverable_challenge_with_banishment() {
    let mut g = bare(4);
    ink(&mut g, 0, 3);
    let duelist = put(&mut g, 0, "ironbark_sentinel"); // 4/6
    let sage = put(&mut g, 1, "tower_sage"); // 3/5
    g.in_play_mut(sage).expect("in play").exerted = true;
    let cry = give(&mut g, 0, "rallying_cry");
    g.act(
        0,
        Action::Play {
            card: cry,
            target: Some(duelist),
        },
    )
    .expect("+3 strength this turn");
    g.act(
        0,
        Action::Challenge {
            challenger: duelist,
            target: sage,
        },
    )
    .expect("7 damage against willpower 5");
    assert!(g.in_play(sage).is_none(), "banished");
    assert_eq!(g.sides[1].discard.last().map(|h| h.id), Some(sage));
    assert_eq!(
        card(&g, duelist).damage,
        3,
        "it took the sage's 3 at the same time"
    );
    assert!(card(&g, duelist).exerted);
}

#[test]
fn deliverable_deck_out_loss() {
    let mut g = bare(4);
    g.sides[0].deck.truncate(2);
    for _ in 0..2 {
        g.act(0, Action::PassTurn {}).expect("pass");
        g.act(1, Action::PassTurn {}).expect("pass");
    }
    assert_eq!((g.sides[0].deck.len(), g.phase), (0, Phase::Main));
    g.act(0, Action::PassTurn {}).expect("pass");
    g.act(1, Action::PassTurn {}).expect("pass");
    assert_eq!(
        g.phase,
        Phase::Over,
        "seat 0 had to draw from an empty deck"
    );
    assert_eq!(g.finish.as_ref().map(|f| f.winners.clone()), Some(vec![1]));
    let finish = g.finish.as_ref().expect("over");
    assert_eq!(finish.reason, crate::OutcomeReason::Limit);
    assert_eq!(
        finish.summary,
        "Player 2 wins: Player 1 had to draw from an empty deck."
    );
}

#[test]
fn deliverable_triggered_ability_resolution_order() {
    // Seat 0 plays Cinderwing Drake with a Welcome Banner in play: two triggers of its
    // own, resolved in the order it picks; the drake's 3 damage banishes seat 1's Ironbark
    // Sentinel, whose banish trigger and Graveborn Piper's go to seat 1 afterwards.
    let mut g = bare(4);
    ink(&mut g, 0, 7);
    put(&mut g, 0, "welcome_banner");
    let sentinel = put(&mut g, 1, "ironbark_sentinel");
    g.in_play_mut(sentinel).expect("in play").damage = 3;
    put(&mut g, 1, "graveborn_piper");
    let victim = put(&mut g, 0, "meadow_scout");
    let drake = give(&mut g, 0, "cinderwing_drake");
    g.act(
        0,
        Action::Play {
            card: drake,
            target: None,
        },
    )
    .expect("play the drake");
    let mut resolved = Vec::new();
    while !g.bag.is_empty() {
        let seat = g.chooser();
        assert_eq!(g.awaited(), vec![seat]);
        // The last trigger of the chooser first: the order is the player's.
        let pending = *g.bag.iter().rev().find(|p| p.owner == seat).expect("one");
        let target = match pending.card.id {
            "cinderwing_drake" => Some(sentinel),
            "ironbark_sentinel" => Some(victim),
            _ => None,
        };
        resolved.push((seat, pending.card.id));
        g.act(
            seat,
            Action::Resolve {
                trigger: pending.id,
                target,
            },
        )
        .expect("resolve");
    }
    assert_eq!(
        resolved,
        [
            (0, "welcome_banner"),
            (0, "cinderwing_drake"),
            (1, "graveborn_piper"),
            (1, "ironbark_sentinel"),
        ]
    );
    assert!(
        g.in_play(victim).is_none(),
        "the sentinel's 2 damage banished the scout"
    );
    assert_eq!((g.sides[0].lore, g.sides[1].lore), (1, 1));
    assert_eq!(g.phase, Phase::Main);
}

fn bot_game(seed: u64) -> (Typed<Lore>, usize) {
    let mut g = Typed::<Lore>::new(&json!({}), seed).expect("no options");
    g.setup(0, None).expect("default");
    g.setup(1, None).expect("default");
    let mut steps = 0;
    while g.outcome().is_none() {
        steps += 1;
        assert!(
            steps <= <Lore as crate::game::Game>::MAX_STEPS,
            "seed {seed}: endless"
        );
        let seat = g.to_act()[0];
        let action = g.ai_action(seat).expect("the bot has a move");
        g.apply(seat, &action)
            .unwrap_or_else(|e| panic!("seed {seed}: the bot's {action} refused: {e}"));
    }
    (g, steps)
}

#[test]
fn bots_play_whole_games_to_the_end_and_both_decks_win() {
    let mut wins = [0; 2];
    let mut by_lore = 0;
    for seed in 0..40 {
        let (g, _) = bot_game(seed);
        let state = g.game().expect("started");
        let outcome = state.finish.clone().expect("over");
        if let [w] = outcome.winners[..] {
            wins[w] += 1;
        }
        by_lore += usize::from(outcome.reason == crate::OutcomeReason::Score);
        assert!(state.turn > 6, "seed {seed}: a real game");
    }
    assert!(wins[0] > 0 && wins[1] > 0, "either deck wins: {wins:?}");
    assert!(by_lore >= 30, "most games are won by lore: {by_lore} of 40");
}

#[test]
fn the_same_seed_and_inputs_play_the_same_game() {
    let (a, steps_a) = bot_game(33);
    let (b, steps_b) = bot_game(33);
    assert_eq!(steps_a, steps_b);
    for viewer in [
        crate::view::Viewer::Seat(0),
        crate::view::Viewer::Seat(1),
        crate::view::Viewer::Spectator,
    ] {
        assert_eq!(a.view(viewer), b.view(viewer));
    }
    let (c, _) = bot_game(34);
    assert_ne!(
        a.view(crate::view::Viewer::Spectator),
        c.view(crate::view::Viewer::Spectator)
    );
}
