//! Building runs and battles for the scenario tests: a run at a chosen enemy, a hand of
//! chosen cards, the engine played to the player's next phase, the bot played to the end.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::cards::find;
use super::enemies;
use super::fighter::Fighter;
use super::piles::Piles;
use super::play::Action;
use super::state::{Roguelite, Stage, ENERGY};

/// A run from `seed` with no pace.
pub fn run(seed: u64) -> Roguelite {
    Roguelite::new(0, seed, "Player 1")
}

/// A run from `seed` whose current battle is (re)started against `enemy`.
pub fn against(enemy: &str, seed: u64) -> Roguelite {
    let mut g = run(seed);
    g.lineup[g.battle] = enemies::find(enemy).expect("the test names a real enemy");
    g.log.clear();
    g.begin_battle();
    g
}

/// Put `g` in the player's phase with exactly these cards in hand (the deck is those
/// cards), 3 energy, the player's phase at the front of the queue and the enemy's next.
pub fn hand(g: &mut Roguelite, cards: &[&str]) {
    g.deck = cards
        .iter()
        .map(|id| find(id).expect("the test names real cards"))
        .collect();
    g.piles = Piles {
        draw: Vec::new(),
        hand: (0..cards.len() as u32).collect(),
        discard: Vec::new(),
    };
    g.stage = Stage::PlayerPhase;
    g.energy = ENERGY;
    g.queue = vec![super::speed::Side::Player, super::speed::Side::Enemy];
}

/// Apply `action` by seat 0, which the test expects to be accepted.
pub fn act(g: &mut Roguelite, action: Action) {
    g.act(0, action.clone())
        .unwrap_or_else(|e| panic!("{action:?} refused: {e}"));
}

/// Play the hand's card number `card`.
pub fn play(g: &mut Roguelite, card: u32) {
    act(g, Action::Play { card });
}

/// Engine steps until the stage is no longer the enemy's (at most 1,000).
pub fn through_enemy(g: &mut Roguelite) {
    for _ in 0..1_000 {
        if !matches!(
            g.stage,
            Stage::EnemyStart | Stage::EnemyAct | Stage::EnemyEnd
        ) {
            return;
        }
        g.enemy_step();
    }
    panic!("the enemy never stops");
}

/// A bare fighter with `hp` HP, `ap` AP and DEF%.
pub fn fighter(hp: u32, ap: u32, def_pct: u32) -> Fighter {
    Fighter::new("dummy", hp, ap, def_pct, 50)
}

/// The first seed from 0 whose generator's first draw in 0..100 satisfies `pred` (for a
/// critical hit or not).
pub fn seed_where(pred: impl Fn(u32) -> bool) -> u64 {
    (0..10_000)
        .find(|&s| pred(ChaCha8Rng::seed_from_u64(s).random_range(0..100)))
        .expect("some seed in 10,000 draws such a number")
}

/// The bot plays the run from `seed` to its end; every step it takes is accepted. Returns
/// the run and the number of steps.
pub fn bot_run(seed: u64) -> (Roguelite, usize) {
    let mut g = run(seed);
    let mut steps = 0;
    while g.finish.is_none() {
        steps += 1;
        assert!(steps < 36_000, "seed {seed}: no end");
        if g.awaited().is_empty() {
            g.enemy_step();
        } else {
            let action = g.ai_for(0).expect("the bot decides when awaited");
            g.act(0, action.clone())
                .unwrap_or_else(|e| panic!("seed {seed}: bot's {action:?} refused: {e}"));
        }
    }
    (g, steps)
}
