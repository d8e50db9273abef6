//! The view, one for every viewer: the depth and battle of the run, the stage, the round's
//! phase queue (who acts next and how many phases in a row), both fighters (HP, AP, Guard,
//! DEF%, speed, statuses with stacks and turns, energy), the enemy's intended actions, the
//! offer between battles, and the hand, seen by the player's seat alone (everyone sees the
//! pile counts; the draw pile's order is in no view).

use serde::Serialize;

use super::enemies::DEPTHS;
use super::reward::Reward;
use super::speed::Side;
use super::state::{Roguelite, Stage, BATTLES, ENERGY, TURN_LIMIT};
use super::status::Status;
use crate::view::{literal, Only};

/// The whole run.
#[derive(Serialize)]
pub struct RogueliteView<'a> {
    /// The battle, 1 to `battles`.
    battle: usize,
    battles: usize,
    /// The depth, 1 to `depths`.
    depth: usize,
    #[serde(serialize_with = "literal")]
    depth_name: &'static str,
    depths: usize,
    enemy: EnemyView<'a>,
    /// The rewards on offer (stage `reward`).
    offer: Vec<RewardView>,
    player: PlayerView<'a>,
    /// The round's phases to come, the current one first, as runs of one side.
    queue: Vec<QueueRun>,
    result: Option<ResultView<'a>>,
    /// Rounds begun in this battle.
    round: u32,
    stage: Stage,
    /// Milliseconds before each engine step.
    tick_ms: u64,
    /// The player's phases begun in this battle, and the most it may take.
    turn: u32,
    turn_limit: u32,
}

/// Phases in a row of one side.
#[derive(Serialize)]
struct QueueRun {
    phases: usize,
    side: Side,
}

/// The end.
#[derive(Serialize)]
struct ResultView<'a> {
    summary: &'a str,
    winners: &'a [usize],
}

/// A reward on offer.
#[derive(Serialize)]
struct RewardView {
    #[serde(serialize_with = "literal")]
    id: &'static str,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    /// `card`, `armor` or `item`.
    #[serde(serialize_with = "literal")]
    sort: &'static str,
    /// What it does.
    text: String,
}

/// A card in the hand.
#[derive(Serialize)]
struct CardView {
    #[serde(serialize_with = "literal")]
    card: &'static str,
    cost: u32,
    /// The card's number: what `play` names.
    id: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    #[serde(serialize_with = "literal")]
    text: &'static str,
}

/// The player.
#[derive(Serialize)]
struct PlayerView<'a> {
    ap: u32,
    #[serde(serialize_with = "literal")]
    armor: &'static str,
    def_pct: u32,
    deck_size: usize,
    discard_count: usize,
    draw_count: usize,
    energy: u32,
    guard: u32,
    /// The player's own seat only.
    hand: Only<Vec<CardView>>,
    hand_count: usize,
    hp: u32,
    /// Spec 4.2 step 2: faster this round (+10% attack damage).
    initiative: bool,
    max_ap: u32,
    max_energy: u32,
    max_hp: u32,
    speed: u32,
    statuses: &'a [Status],
}

/// The enemy.
#[derive(Serialize)]
struct EnemyView<'a> {
    /// addEnergy for its next phase, in percent.
    add_energy: u32,
    ap: u32,
    atk: u32,
    def_pct: u32,
    /// Energy left in its phase (0 outside it).
    energy: u32,
    /// actEnergy.
    energy_base: u32,
    guard: u32,
    hp: u32,
    #[serde(serialize_with = "literal")]
    id: &'static str,
    /// The skills it will use, in order: the rest of its phase while it acts, else its next
    /// phase.
    intent: Vec<&'static str>,
    max_ap: u32,
    max_hp: u32,
    #[serde(serialize_with = "literal")]
    name: &'static str,
    speed: u32,
    statuses: &'a [Status],
}

impl Roguelite {
    /// Every viewer's view (see [`Game::view`](crate::game::Game::view)).
    pub fn view_all(&self) -> RogueliteView<'_> {
        let mut queue: Vec<QueueRun> = Vec::new();
        for &side in &self.queue {
            match queue.last_mut() {
                Some(run) if run.side == side => run.phases += 1,
                _ => queue.push(QueueRun { phases: 1, side }),
            }
        }
        let hand = self
            .piles
            .hand
            .iter()
            .map(|&id| {
                let c = self.deck[id as usize];
                CardView {
                    card: c.id,
                    cost: c.cost,
                    id,
                    name: c.name,
                    text: c.text,
                }
            })
            .collect();
        let p = &self.player;
        let e = &self.enemy;
        let over = self.stage == Stage::Over;
        RogueliteView {
            battle: self.battle + 1,
            battles: BATTLES,
            depth: self.depth() + 1,
            depth_name: DEPTHS[self.depth()].name,
            depths: DEPTHS.len(),
            enemy: EnemyView {
                add_energy: self.add_energy,
                ap: e.ap,
                atk: self.foe.atk,
                def_pct: e.def_pct,
                energy: self.enemy_energy * u32::from(self.stage == Stage::EnemyAct),
                energy_base: self.foe.energy,
                guard: e.guard,
                hp: e.hp,
                id: self.foe.id,
                intent: if over {
                    Vec::new()
                } else {
                    self.intent().iter().map(|s| s.name).collect()
                },
                max_ap: e.max_ap,
                max_hp: e.max_hp,
                name: self.foe.name,
                speed: e.speed,
                statuses: e.statuses.all(),
            },
            offer: self
                .offer
                .iter()
                .map(|r| RewardView {
                    id: r.id(),
                    name: r.name(),
                    sort: Reward::sort(r),
                    text: r.text(),
                })
                .collect(),
            player: PlayerView {
                ap: p.ap,
                armor: self.armor.name,
                def_pct: p.def_pct,
                deck_size: self.deck.len(),
                discard_count: self.piles.discard.len(),
                draw_count: self.piles.draw.len(),
                energy: self.energy,
                guard: p.guard,
                hand: Only::seat(0, hand),
                hand_count: self.piles.hand.len(),
                hp: p.hp,
                initiative: self.initiative,
                max_ap: p.max_ap,
                max_energy: ENERGY,
                max_hp: p.max_hp,
                speed: p.speed,
                statuses: p.statuses.all(),
            },
            queue,
            result: self.finish.as_ref().map(|f| ResultView {
                summary: &f.summary,
                winners: &f.winners,
            }),
            round: self.round,
            stage: self.stage,
            tick_ms: self.tick_ms,
            turn: self.player_phases,
            turn_limit: TURN_LIMIT,
        }
    }
}
