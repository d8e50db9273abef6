//! The run as a whole: the bot's runs, the rewards between battles, the rest at a new depth,
//! the turn limit, refusals, determinism, the view per viewer, the options and the pace.

use super::equipment::{ARMORS, DEPTH_REST_HP};
use super::error::RogueliteError;
use super::options::{Options, DEFAULT_TICK_MS};
use super::play::Action;
use super::reward::Reward;
use super::state::{Roguelite, Stage, TURN_LIMIT};
use super::testkit::{act, against, bot_run, hand, play, through_enemy};
use crate::game::Game;
use crate::view::{to_view, Viewer};

/// `g` at its reward after winning the current battle with one Slash.
fn win_battle(g: &mut Roguelite) {
    through_enemy(g);
    g.enemy.hp = 1;
    g.enemy.ap = 0;
    g.enemy.guard = 0;
    hand(g, &["slash"]);
    play(g, 0);
    assert_eq!(g.stage, Stage::Reward);
}

#[test]
fn the_bot_finishes_every_run_and_wins_about_a_third() {
    let mut wins = 0;
    for seed in 0..200 {
        let (g, _) = bot_run(seed);
        if g.finish.as_ref().is_some_and(|f| f.winners == [0]) {
            wins += 1;
        }
    }
    assert!((40..=100).contains(&wins), "{wins} of 200");
}

#[test]
fn a_won_battle_offers_two_cards_and_one_piece_of_gear() {
    let mut g = against("cellar_rat", 1);
    win_battle(&mut g);
    assert_eq!(g.offer.len(), 3);
    assert!(matches!(g.offer[0], Reward::Card(_)) && matches!(g.offer[1], Reward::Card(_)));
    assert!(matches!(g.offer[2], Reward::Item(_) | Reward::Armor(_)));
    assert_ne!(g.offer[0], g.offer[1]);
    assert_eq!(g.legal_for(0).len(), 4, "three takes and a skip");
    let Reward::Card(card) = g.offer[0] else {
        unreachable!("checked above")
    };
    let size = g.deck.len();
    act(
        &mut g,
        Action::Take {
            reward: card.id.to_owned(),
        },
    );
    assert_eq!(g.deck.len(), size + 1);
    assert_eq!(g.battle, 1);
}

#[test]
fn armor_is_put_on_whole_and_items_are_used_at_once() {
    let mut g = against("cellar_rat", 1);
    win_battle(&mut g);
    g.player.ap = 2;
    g.offer[2] = Reward::Armor(&ARMORS[1]);
    act(
        &mut g,
        Action::Take {
            reward: "riveted_hauberk".into(),
        },
    );
    assert_eq!(
        (g.player.ap, g.player.max_ap, g.player.def_pct),
        (25, 25, 10)
    );
    win_battle(&mut g);
    g.player.ap = 2;
    g.player.hp = 30;
    g.offer[2] = Reward::Item(&super::equipment::ITEMS[0]);
    act(
        &mut g,
        Action::Take {
            reward: "repair_kit".into(),
        },
    );
    assert_eq!(g.player.ap, 17);
}

#[test]
fn going_down_a_depth_rests_and_hp_otherwise_carries_over() {
    let mut g = against("cellar_rat", 2);
    win_battle(&mut g);
    g.player.hp = 40;
    act(&mut g, Action::Skip {});
    assert_eq!(g.player.hp, 40, "no rest within a depth");
    win_battle(&mut g);
    act(&mut g, Action::Skip {});
    win_battle(&mut g);
    g.player.hp = 40;
    act(&mut g, Action::Skip {});
    assert_eq!(g.depth(), 1);
    assert_eq!(g.player.hp, 40 + DEPTH_REST_HP);
}

#[test]
fn a_battle_not_won_in_30_player_phases_loses_the_run() {
    let mut g = against("tide_golem", 3);
    through_enemy(&mut g);
    g.player_phases = TURN_LIMIT;
    g.enemy.hp = 64;
    g.player.hp = 80;
    act(&mut g, Action::EndTurn {});
    assert_eq!(g.stage, Stage::Over);
    let finish = g.finish.as_ref().expect("over");
    assert!(finish.winners.is_empty());
    assert_eq!(finish.reason, crate::OutcomeReason::Limit);
    assert_eq!(
        finish.summary,
        format!(
            "Player 1's run is lost: Tide Golem still stands after 30 of Player 1's phases in \
             battle {}.",
            g.battle + 1
        )
    );
}

#[test]
fn refused_actions_change_nothing() {
    let mut g = against("cellar_rat", 4);
    through_enemy(&mut g);
    let before = format!("{g:?}");
    let refusals = [
        (0, Action::Play { card: 99 }),
        (0, Action::Skip {}),
        (
            0,
            Action::Take {
                reward: "cleave".into(),
            },
        ),
        (1, Action::EndTurn {}),
    ];
    for (seat, action) in refusals {
        assert!(g.act(seat, action).is_err());
        assert_eq!(format!("{g:?}"), before);
    }
    assert_eq!(
        g.act(0, Action::Play { card: 99 }),
        Err(RogueliteError::NotInHand(99))
    );
    assert_eq!(RogueliteError::NotInHand(99).code(), "not_in_hand");
}

#[test]
fn the_same_seed_and_inputs_replay_the_same_run() {
    let (a, steps_a) = bot_run(11);
    let (b, steps_b) = bot_run(11);
    assert_eq!((a.log, steps_a), (b.log, steps_b));
}

#[test]
fn the_hand_is_the_players_alone_and_the_draw_pile_is_a_count() {
    let g = against("bog_wretch", 5);
    let view = to_view(&g.view_all()).expect("the view serializes");
    let own = view.project(Viewer::Seat(0)).to_value();
    let spectator = view.project(Viewer::Spectator).to_value();
    assert!(own["player"]["hand"].is_array());
    assert!(spectator["player"].get("hand").is_none());
    assert!(spectator["player"]["draw_count"].is_u64());
    assert!(!spectator.to_string().contains("\"draw\":["));
    let intent = &spectator["enemy"]["intent"];
    assert!(intent.as_array().is_some_and(|i| !i.is_empty()), "{intent}");
    assert!(spectator["queue"].as_array().is_some_and(|q| !q.is_empty()));
}

#[test]
fn the_pace_is_tick_ms_and_the_enemy_moves_only_by_engine_steps() {
    assert_eq!(Options::default().tick_ms, DEFAULT_TICK_MS);
    assert!(Options { tick_ms: 10_001 }.check().is_err());
    assert!(Options { tick_ms: 10_000 }.check().is_ok());
    let mut g = Roguelite::start(
        Options { tick_ms: 250 },
        8,
        vec![],
        crate::Names::defaults(1),
    );
    through_enemy(&mut g);
    assert_eq!(g.next_tick(), None);
    act(&mut g, Action::EndTurn {});
    if g.stage == Stage::EnemyStart {
        assert_eq!(g.next_tick(), Some(250));
        assert!(g.advance().is_ok());
    }
}

#[test]
fn a_timeout_ends_the_turn_or_skips_the_reward() {
    let mut g = against("cellar_rat", 9);
    through_enemy(&mut g);
    let phases = g.player_phases;
    assert!(Game::timeout(&mut g, 0).is_ok());
    assert!(g.stage != Stage::PlayerPhase || g.player_phases == phases + 1);
    let mut g = against("cellar_rat", 9);
    win_battle(&mut g);
    assert!(Game::timeout(&mut g, 0).is_ok());
    assert_eq!(g.battle, 1);
}
