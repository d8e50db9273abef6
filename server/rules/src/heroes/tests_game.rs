//! A whole game: bots on both seats play to the end; the setup (the roll, who goes first,
//! the mulligan and the second player's extra card and mana); hidden hands.

use serde_json::json;

use super::Heroes;
use crate::ruleset::Ruleset;
use crate::typed::Typed;
use crate::view::Viewer;

fn game(seed: u64) -> Typed<Heroes> {
    let mut g = Typed::<Heroes>::new(&json!({}), seed).expect("no options");
    g.setup(0, Some(&json!({"class": "barbarian"})))
        .expect("a class");
    g.setup(1, Some(&json!({"class": "mage"})))
        .expect("a class");
    g
}

#[test]
fn setup_roll_first_player_mulligan_and_the_second_players_compensation() {
    let mut g = game(4);
    let chooser = g.to_act();
    assert_eq!(chooser.len(), 1, "the roll's winner chooses");
    let winner = chooser[0];
    g.apply(
        winner,
        &json!({"kind": "choose_first", "first": 1 - winner}),
    )
    .expect("the winner may let the other go first");
    let state = g.game().expect("started");
    let first = state.first;
    assert_eq!(first, 1 - winner);
    assert_eq!(state.sides[first].hand.len(), 4);
    assert_eq!(
        state.sides[1 - first].hand.len(),
        5,
        "the second player draws 1 more"
    );
    assert_eq!(state.sides[first].hero.max_mana, 1);
    assert_eq!(state.sides[1 - first].hero.max_mana, 2);
    assert_eq!(g.to_act(), vec![0, 1], "both mulligan at once");
    let hand: Vec<u32> = g.game().expect("started").sides[0]
        .hand
        .iter()
        .map(|h| h.id)
        .take(4)
        .collect();
    assert!(
        g.apply(0, &json!({"kind": "mulligan", "cards": hand}))
            .is_err(),
        "at most 3"
    );
    let back: Vec<u32> = hand.into_iter().take(2).collect();
    g.apply(0, &json!({"kind": "mulligan", "cards": back}))
        .expect("two back");
    let spectator = g.view(Viewer::Spectator).to_value();
    for side in spectator["sides"].as_array().expect("sides") {
        assert!(side.get("hand").is_none(), "spectators see no hand");
    }
    let seat1 = g.view(Viewer::Seat(1)).to_value();
    assert!(seat1["sides"][0].get("hand").is_none(), "nor the opponent");
    assert!(seat1["sides"][1]["hand"].is_array());
}

#[test]
fn bots_play_whole_games_to_the_end() {
    for seed in 0..20 {
        let mut g = game(seed);
        let mut steps = 0;
        while g.outcome().is_none() {
            steps += 1;
            assert!(steps < 20_000, "seed {seed}: the game does not end");
            let seat = g.to_act()[0];
            let action = g.ai_action(seat).expect("the bot has a move");
            g.apply(seat, &action)
                .unwrap_or_else(|e| panic!("seed {seed}: the bot's {action} refused: {e}"));
        }
        let state = g.game().expect("started");
        assert!(state.round > 1, "seed {seed}: a real game");
    }
}

#[test]
fn defensive_ability_answers_a_spell_before_its_damage_applies() {
    use super::cards::find;
    use super::classes::{BARBARIAN, MAGE};
    use super::play::Action;
    use super::state::{Held, Phase};
    let mut g = Heroes::new([&BARBARIAN, &MAGE], 2);
    g.set_first(0);
    g.mulligan(0, &[]);
    g.mulligan(1, &[]);
    assert_eq!(g.active, 0);
    g.sides[0].hand.push(Held {
        id: 900,
        card: find("hurl_axe").expect("a card"),
    });
    g.sides[0].hero.mana = 5;
    g.sides[1].hero.mana = 3;
    g.act(
        0,
        Action::Play {
            card: 900,
            target: Some("hero:1".into()),
            spend: 0,
        },
    )
    .expect("3 damage at the enemy hero");
    assert_eq!(g.phase, Phase::Incoming, "the defender may answer first");
    assert_eq!(g.awaited(), vec![1]);
    assert_eq!(g.sides[1].hero.health, 20, "nothing landed yet");
    g.act(1, Action::Defend { source: Some(0) })
        .expect("defend");
    // 3 halved rounded up is 2, and the 2 new armor absorbs it.
    assert_eq!((g.sides[1].hero.health, g.sides[1].hero.armor), (20, 0));
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.awaited(), vec![0], "the turn goes on");
    // Once used this turn (and here without 3 mana too) the next hit lands at once.
    g.sides[0].hand.push(Held {
        id: 901,
        card: find("hurl_axe").expect("a card"),
    });
    g.sides[0].hero.mana = 5;
    g.sides[1].hero.mana = 2;
    g.act(
        0,
        Action::Play {
            card: 901,
            target: Some("hero:1".into()),
            spend: 0,
        },
    )
    .expect("3 more");
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.sides[1].hero.health, 17);
}

/// A game at seat 0's main phase with `card` in hand and plenty of mana.
fn with_card(class0: &'static super::classes::Class, card: &str) -> Heroes {
    use super::cards::find;
    use super::classes::MAGE;
    use super::state::Held;
    let mut g = Heroes::new([class0, &MAGE], 2);
    g.set_first(0);
    g.mulligan(0, &[]);
    g.mulligan(1, &[]);
    g.sides[0].hand.push(Held {
        id: 900,
        card: find(card).expect("a card"),
    });
    g.sides[0].hero.mana = 10;
    g.sides[1].hero.mana = 0;
    g
}

#[test]
fn spell_damage_spent_on_a_damage_spell_the_spec_example() {
    use super::classes::MAGE;
    use super::play::Action;
    // "4 Spell Damage, cast Fireball (3 base). Spend 3 → 6 damage, 1 Spell Damage remaining".
    let mut g = with_card(&MAGE, "fireball");
    g.sides[0].hero.resource = 4;
    assert!(
        g.act(
            0,
            Action::Play {
                card: 900,
                target: Some("hero:1".into()),
                spend: 5
            }
        )
        .is_err(),
        "no more than held"
    );
    g.act(
        0,
        Action::Play {
            card: 900,
            target: Some("hero:1".into()),
            spend: 3,
        },
    )
    .expect("spend 3");
    assert_eq!(g.sides[1].hero.health, 20 - 6);
    assert_eq!(g.sides[0].hero.resource, 1);
}

#[test]
fn channeled_deals_more_after_another_spell_this_turn() {
    use super::cards::find;
    use super::classes::MAGE;
    use super::play::Action;
    use super::state::Held;
    let mut g = with_card(&MAGE, "arc_lash");
    g.act(
        0,
        Action::Play {
            card: 900,
            target: Some("hero:1".into()),
            spend: 0,
        },
    )
    .expect("first spell: 2");
    assert_eq!(g.sides[1].hero.health, 18);
    g.sides[0].hand.push(Held {
        id: 901,
        card: find("arc_lash").expect("a card"),
    });
    g.act(
        0,
        Action::Play {
            card: 901,
            target: Some("hero:1".into()),
            spend: 0,
        },
    )
    .expect("channeled: 4");
    assert_eq!(g.sides[1].hero.health, 14);
}

#[test]
fn rage_and_the_barbarian_level_up_add_to_the_attack() {
    use super::classes::BARBARIAN;
    use super::play::Action;
    let mut g = with_card(&BARBARIAN, "battle_cry");
    g.sides[0].hero.resource = 3;
    assert_eq!(g.weapon_damage(0), 2 + 3, "base 2, +1 per Rage");
    g.sides[0].hero.armor = 8;
    g.sides[0].hero.check_level_up();
    assert_eq!(g.weapon_damage(0), 2 + 3 + 8, "levelled: + armor");
    g.act(
        0,
        Action::Attack {
            target: "hero:1".into(),
        },
    )
    .expect("2 mana");
    assert_eq!(g.sides[1].hero.health, 20 - 13);
    assert!(
        g.act(
            0,
            Action::Attack {
                target: "hero:1".into()
            }
        )
        .is_err(),
        "once per turn"
    );
}

#[test]
fn a_player_may_bring_a_deck_of_its_class() {
    let mage_cards: Vec<&str> = ["fireball", "arc_lash", "focus", "insight", "frost_shard"]
        .into_iter()
        .cycle()
        .take(20)
        .chain(
            [
                "apprentice",
                "spark_familiar",
                "storm_adept",
                "runic_golem",
                "elder_warden",
            ]
            .into_iter()
            .cycle()
            .take(20),
        )
        .collect();
    let fresh = Typed::<Heroes>::new(&json!({}), 1).expect("no options");
    fresh
        .check_setup(1, Some(&json!({"class": "mage", "deck": mage_cards})))
        .expect("40 Mage cards, 4 copies each");
    for (deck, needle) in [
        (json!(vec!["fireball"; 39]), "the deck has 39 cards"),
        (json!(vec!["fireball"; 40]), "more than 4 copies"),
        (
            json!(std::iter::once("cleave")
                .chain(mage_cards.iter().copied().skip(1))
                .collect::<Vec<_>>()),
            "not a Mage card",
        ),
    ] {
        let err = fresh
            .check_setup(1, Some(&json!({"class": "mage", "deck": deck})))
            .expect_err("refused");
        assert!(err.to_string().contains(needle), "{err}");
    }
    let mut g = Typed::<Heroes>::new(&json!({}), 1).expect("no options");
    g.setup(0, None).expect("the default");
    g.setup(1, Some(&json!({"class": "mage", "deck": mage_cards})))
        .expect("its own deck");
    let side = &g.game().expect("started").sides[1];
    assert_eq!(side.deck.len() + side.hand.len(), 40);
    assert_eq!(
        side.deck
            .iter()
            .filter(|h| h.card.id == "elder_warden")
            .count()
            + side
                .hand
                .iter()
                .filter(|h| h.card.id == "elder_warden")
                .count(),
        4
    );
}

/// A game in seat 0's first main phase, both mulligans done.
fn started() -> Heroes {
    use super::classes::{BARBARIAN, MAGE};
    let mut g = Heroes::new([&BARBARIAN, &MAGE], 5);
    g.set_first(0);
    g.mulligan(0, &[]);
    g.mulligan(1, &[]);
    g
}

#[test]
fn turn_upkeep_untaps_draws_and_runs_start_of_turn_effects() {
    use super::combat::Minion;
    use super::items::find;
    let mut g = started();
    let hand = g.sides[1].hand.len();
    g.minions.push(Minion {
        id: 800,
        owner: 1,
        attack: 2,
        health: 3,
        damage: 0,
        bounty: 1,
        tapped: true,
        sick: true,
    });
    g.minions.push(Minion {
        id: 801,
        owner: 0,
        attack: 1,
        health: 1,
        damage: 0,
        bounty: 1,
        tapped: false,
        sick: false,
    });
    g.sides[1].hero.gold = 20;
    g.sides[1]
        .hero
        .buy(find("radiance").expect("the spec's relic"));
    g.end_turn();
    assert_eq!(g.active, 1);
    let m = g.minions.iter().find(|m| m.id == 800).expect("its minion");
    assert!(!m.tapped && !m.sick, "untapped, and able to attack now");
    assert_eq!(g.sides[1].hand.len(), hand + 1, "drew 1");
    assert!(
        g.minions.iter().all(|m| m.id != 801),
        "Radiance dealt 1 to every enemy minion at the start of the turn"
    );
    assert_eq!(
        g.sides[1].hero.gold,
        20 - 8 + 1,
        "Radiance cost 8; the bounty of its kill went to its owner"
    );
}

#[test]
fn end_phase_heals_every_minion_to_full() {
    use super::combat::Minion;
    let mut g = started();
    g.minions.push(Minion {
        id: 800,
        owner: 1,
        attack: 2,
        health: 5,
        damage: 3,
        bounty: 1,
        tapped: false,
        sick: false,
    });
    g.end_turn();
    assert_eq!(g.minions[0].damage, 0);
}

#[test]
fn end_both_heroes_at_0_is_a_draw_and_an_empty_deck_reshuffles_the_discard() {
    let mut g = started();
    g.sides[0].hero.health = 0;
    g.sides[1].hero.health = 0;
    g.check_end();
    let crate::Outcome {
        winners, summary, ..
    } = g.finish.clone().expect("over");
    assert!(winners.is_empty(), "{summary}");
    assert_eq!(summary, "Both heroes fall at once: a draw.");
    assert_eq!(
        g.finish.as_ref().map(|f| f.reason),
        Some(crate::OutcomeReason::Knockout)
    );
    let mut g = started();
    let all: Vec<_> = g.sides[0].deck.drain(..).collect();
    g.sides[0].discard.extend(all);
    let before = g.sides[0].hand.len();
    g.draw(0, 2);
    assert_eq!(g.sides[0].hand.len(), before + 2, "no deck-out loss");
    assert!(g.sides[0].discard.is_empty());
    assert!(g.finish.is_none());
}

#[test]
fn the_log_says_who_did_what_to_whom_and_by_how_much() {
    use super::classes::{BARBARIAN, MAGE};
    use super::state::Held;
    use crate::words::Names;
    let names = Names::new(vec![Some("Ana".into()), Some("Ben".into())]);
    let mut h = Heroes::with_decks([&MAGE, &BARBARIAN], [None, None], 4, names);
    let chooser = h.awaited()[0];
    h.act(chooser, super::play::Action::ChooseFirst { first: 0 })
        .expect("the roll's winner chooses");
    for seat in [0, 1] {
        h.act(seat, super::play::Action::Mulligan { cards: vec![] })
            .expect("keep");
    }
    assert!(h.log[0].starts_with("Ana (Mage) against Ben (Barbarian). The die: Ana rolls"));
    // Ana's main phase: a second spell this turn makes Arc Lash deal 4.
    let arc_lash = super::cards::find("arc_lash").expect("a card");
    // Ana casts Arc Lash at Ben's hero (card `id` put into her hand first).
    let cast = |h: &mut Heroes, id: u32| {
        h.sides[0].hand.push(Held { id, card: arc_lash });
        let target = Some("hero:1".into());
        h.act(
            0,
            super::play::Action::Play {
                card: id,
                target,
                spend: 0,
            },
        )
        .expect("Arc Lash at Ben's hero");
        h.log.last().cloned().unwrap_or_default()
    };
    h.sides[0].hero.mana = 5;
    h.sides[0].spells_this_turn = 1;
    assert_eq!(
        cast(&mut h, 900),
        "Ana plays Arc Lash (2 mana) at Ben's hero. Ben's hero: 4 damage (20 to 16)."
    );
    // A hit the defender may answer waits, and its answer says what the hit did.
    h.sides[1].hero.mana = 3;
    assert_eq!(
        cast(&mut h, 901),
        "The hit of 4 on Ben's hero waits: Ben may use the Defensive Ability."
    );
    h.act(1, super::play::Action::Defend { source: None })
        .expect("no answer");
    assert_eq!(
        h.log.last().map(String::as_str),
        Some(
            "Ben does not use the Defensive Ability: the hit of 4 lands. Ben's hero: 4 damage \
             (16 to 12)."
        )
    );
}
