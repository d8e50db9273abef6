//! The whole run: the player's fighter, deck and armor, the current battle's enemy, the
//! round's phase queue, and the flow between them (spec section 4): rounds and phases, the
//! player's phase start and end, deaths, the end of a battle and of the run. The enemy's
//! phase is `enemy_phase.rs`, effects are `resolve.rs`, rewards `reward.rs`.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::cards::{starting_deck, Card};
use super::enemies::{EnemyKind, BATTLES_PER_DEPTH, DEPTHS};
use super::equipment::{Armor, ARMORS, PLAYER_HP};
use super::fighter::Fighter;
use super::piles::{Piles, DRAW};
use super::reward::Reward;
use super::speed::{self, Side, PLAYER_SPEED};
use super::status::Kind;
use crate::ruleset::{Outcome, OutcomeReason};
use crate::words;

/// Spec 2.1: the player's energy each phase.
pub const ENERGY: u32 = 3;
/// A battle is lost when the enemy still stands at the end of the player's 30th phase in it.
pub const TURN_LIMIT: u32 = 30;
/// Battles in a run.
pub const BATTLES: usize = 9;

/// Where the run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Stage {
    /// The player's phase: play cards, then end the turn (awaits seat 0).
    PlayerPhase,
    /// The enemy's phase is about to start (engine step).
    EnemyStart,
    /// The enemy acts, one action per engine step.
    EnemyAct,
    /// The enemy's phase ends (engine step).
    EnemyEnd,
    /// Between battles: take a reward or skip (awaits seat 0).
    Reward,
    /// The run is over.
    Over,
}

/// A roguelite run.
#[derive(Debug, Clone)]
pub struct Roguelite {
    pub(super) tick_ms: u64,
    pub(super) rng: ChaCha8Rng,
    pub(super) log: Vec<String>,
    pub(super) finish: Option<Outcome>,
    pub(super) stage: Stage,
    /// The enemy of every battle of the run, drawn at the start.
    pub(super) lineup: Vec<&'static EnemyKind>,
    /// The battle being fought (0-based, 0 to 8).
    pub(super) battle: usize,
    /// The player.
    pub(super) player: Fighter,
    /// The armor the player wears (its AP is the player's AP).
    pub(super) armor: &'static Armor,
    /// The run's deck; card numbers in the piles are positions in it.
    pub(super) deck: Vec<&'static Card>,
    pub(super) piles: Piles,
    /// The player's energy left this phase.
    pub(super) energy: u32,
    /// The player played an attack this phase (for Momentum).
    pub(super) played_attack: bool,
    /// Spec 4.2 step 2: the player is faster this round.
    pub(super) initiative: bool,
    /// The current enemy's type.
    pub(super) foe: &'static EnemyKind,
    /// The current enemy.
    pub(super) enemy: Fighter,
    /// The next skill of the enemy's cycle.
    pub(super) cycle: usize,
    /// The enemy's addEnergy for its next phase, in percent (100 unless a skill changed it).
    pub(super) add_energy: u32,
    /// The enemy's energy left in its phase.
    pub(super) enemy_energy: u32,
    /// Rounds begun in this battle.
    pub(super) round: u32,
    /// The round's phases still to come, the current one first.
    pub(super) queue: Vec<Side>,
    /// The player's phases begun in this battle.
    pub(super) player_phases: u32,
    /// The rewards on offer (stage `Reward`).
    pub(super) offer: Vec<Reward>,
    /// The player's name (see [`Names`]).
    pub(super) me: String,
}

/// The enemies of a run: for each depth, its pool shuffled, as many as it has battles (the
/// last depth's last battle is its boss).
fn draw_lineup(rng: &mut ChaCha8Rng) -> Vec<&'static EnemyKind> {
    let mut lineup = Vec::with_capacity(BATTLES);
    for depth in DEPTHS {
        let mut pool: Vec<&'static EnemyKind> = depth.pool.iter().collect();
        pool.shuffle(rng);
        let from_pool = BATTLES_PER_DEPTH - usize::from(depth.boss.is_some());
        lineup.extend(pool.into_iter().take(from_pool));
        lineup.extend(depth.boss);
    }
    lineup
}

/// A fighter for an enemy of type `kind`.
pub fn enemy_fighter(kind: &'static EnemyKind) -> Fighter {
    Fighter::new(kind.name, kind.hp, kind.ap, kind.def_pct, kind.speed)
}

impl Roguelite {
    /// A new run from `seed`, at its first battle, for the player named `me`.
    pub fn new(tick_ms: u64, seed: u64, me: &str) -> Roguelite {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let lineup = draw_lineup(&mut rng);
        let armor = &ARMORS[0];
        let foe = lineup[0];
        let mut run = Roguelite {
            tick_ms,
            rng,
            log: vec![format!(
                "{me}'s run begins: {} battles through {} depths, the last against {}.",
                BATTLES,
                DEPTHS.len(),
                lineup[BATTLES - 1].name
            )],
            finish: None,
            stage: Stage::PlayerPhase,
            lineup,
            battle: 0,
            player: Fighter::new(me, PLAYER_HP, armor.ap, armor.def_pct, PLAYER_SPEED),
            armor,
            deck: starting_deck(),
            piles: Piles::default(),
            energy: 0,
            played_attack: false,
            initiative: false,
            foe,
            enemy: enemy_fighter(foe),
            cycle: 0,
            add_energy: 100,
            enemy_energy: 0,
            round: 0,
            queue: Vec::new(),
            player_phases: 0,
            offer: Vec::new(),
            me: me.to_owned(),
        };
        run.begin_battle();
        run
    }

    /// The depth of the current battle (0-based).
    pub fn depth(&self) -> usize {
        self.battle / BATTLES_PER_DEPTH
    }

    /// The seats awaited: the player in its phase and between battles.
    pub fn awaited(&self) -> Vec<usize> {
        match self.stage {
            Stage::PlayerPhase | Stage::Reward => vec![0],
            _ => Vec::new(),
        }
    }

    /// The battle `self.battle` starts: its enemy, the player's statuses and Guard cleared
    /// (HP and AP carry over), the deck shuffled into the draw pile, the first round.
    pub(super) fn begin_battle(&mut self) {
        self.foe = self.lineup[self.battle];
        self.enemy = enemy_fighter(self.foe);
        self.cycle = 0;
        self.add_energy = 100;
        self.enemy_energy = 0;
        self.player.guard = 0;
        self.player.statuses.clear();
        self.player.speed_offset = 0;
        self.piles = Piles::new(self.deck.len(), &mut self.rng);
        self.round = 0;
        self.player_phases = 0;
        self.queue.clear();
        let depth = &DEPTHS[self.depth()];
        self.log.push(format!(
            "Battle {} of {BATTLES}, depth {} ({}): {} appears (HP {}, AP {}, DEF {}%, base speed {}, energy {}).",
            self.battle + 1,
            self.depth() + 1,
            depth.name,
            self.foe.name,
            self.foe.hp,
            self.foe.ap,
            self.foe.def_pct,
            self.foe.speed,
            self.foe.energy,
        ));
        self.start_round();
        self.enter_phase();
    }

    /// A new round: both speeds rolled (spec 3.1, 3.2) and the round's phases set by their
    /// difference (spec 3.3).
    pub(super) fn start_round(&mut self) {
        self.round += 1;
        speed::roll(&mut self.player, &mut self.rng);
        speed::roll(&mut self.enemy, &mut self.rng);
        self.queue = speed::round(self.player.speed, self.enemy.speed);
        self.initiative = self.player.speed > self.enemy.speed;
        let first = self.queue[0];
        let run = (self.queue.len() - 1) as u32;
        let (faster, slower) = match first {
            Side::Player => (&self.player.name, &self.enemy.name),
            Side::Enemy => (&self.enemy.name, &self.player.name),
        };
        let order = if run == 1 {
            format!("{faster} acts first, then {slower}")
        } else {
            format!("{faster} takes {run} phases in a row, then {slower} one")
        };
        self.log.push(format!(
            "Round {}: {}'s speed {}, {}'s {}: {order}.",
            self.round, self.player.name, self.player.speed, self.enemy.name, self.enemy.speed,
        ));
    }

    /// The phase at the front of the queue begins: the player's at once, the enemy's as an
    /// engine step.
    pub(super) fn enter_phase(&mut self) {
        match self.queue[0] {
            Side::Player => self.player_phase_start(),
            Side::Enemy => self.stage = Stage::EnemyStart,
        }
    }

    /// The current phase is over: the next in the queue, or a new round.
    pub(super) fn next_phase(&mut self) {
        self.queue.remove(0);
        if self.queue.is_empty() {
            self.start_round();
        }
        self.enter_phase();
    }

    /// Spec 4.2 step 1 (and the speed bonus of step 2): Guard to 0, durations tick,
    /// Regeneration and Shield, 3 energy and 5 cards.
    fn player_phase_start(&mut self) {
        self.player_phases += 1;
        let guard = self.player.guard;
        let (ended, healed, shield) = self.player.phase_start();
        self.energy = ENERGY;
        self.played_attack = false;
        let hand = self.piles.hand.len();
        self.piles.draw(DRAW, &mut self.rng);
        let drew = (self.piles.hand.len() - hand) as u32;
        self.stage = Stage::PlayerPhase;
        let mut line = format!(
            "{}'s phase {} begins: {ENERGY} energy, draws {}",
            self.me,
            self.player_phases,
            words::count(drew, "card")
        );
        if self.initiative {
            line.push_str(", with initiative (+10% attack damage)");
        }
        line.push_str(&effects_note(&self.player, guard, &ended, healed, shield));
        self.log.push(line);
    }

    /// Spec 4.2 step 4: the player ends the turn: Poison and Curse, Momentum, the hand
    /// discarded; then the battle's turn limit, and the next phase.
    pub(super) fn end_player_phase(&mut self) {
        let rot = self.player.rot_amount();
        if rot > 0 {
            let before = self.player.hp;
            let lost = self.player.lose_hp(rot);
            self.log.push(format!(
                "{} ends the turn; Poison and Curse: {}.",
                self.me,
                words::damage(lost, before, self.player.hp)
            ));
        } else {
            self.log.push(format!("{} ends the turn.", self.me));
        }
        if self.played_attack {
            self.player.statuses.gain(Kind::Momentum, 1, 0);
        } else {
            self.player.statuses.remove(Kind::Momentum);
        }
        self.piles.discard_hand();
        self.energy = 0;
        if self.settle() {
            return;
        }
        if self.player_phases >= TURN_LIMIT {
            self.end(
                Vec::new(),
                OutcomeReason::Limit,
                format!(
                    "{}'s run is lost: {} still stands after {TURN_LIMIT} of {}'s phases in battle {}.",
                    self.me,
                    self.foe.name,
                    self.me,
                    self.battle + 1
                ),
            );
            return;
        }
        self.next_phase();
    }

    /// Whether the battle ended: the player at 0 HP loses the run (even if the enemy fell
    /// too); the enemy at 0 HP loses the battle.
    pub(super) fn settle(&mut self) -> bool {
        if self.player.down() {
            self.end(
                Vec::new(),
                OutcomeReason::Knockout,
                format!(
                    "{}'s run is lost: {} falls to {} in battle {} (depth {}).",
                    self.me,
                    self.me,
                    self.foe.name,
                    self.battle + 1,
                    self.depth() + 1
                ),
            );
            return true;
        }
        if self.enemy.down() {
            self.battle_won();
            return true;
        }
        false
    }

    /// The enemy fell: the run is won after the last battle; otherwise Guard and statuses
    /// go, and the rewards are offered.
    fn battle_won(&mut self) {
        self.queue.clear();
        self.piles.discard_hand();
        self.energy = 0;
        self.initiative = false;
        if self.battle + 1 == BATTLES {
            self.end(
                vec![0],
                OutcomeReason::Completed,
                format!(
                    "{}'s run is won: {} falls, {} at {} HP.",
                    self.me, self.foe.name, self.me, self.player.hp
                ),
            );
            return;
        }
        self.log.push(format!(
            "{} falls. {} stands at {} HP and {} AP; Guard and statuses are gone.",
            self.foe.name, self.me, self.player.hp, self.player.ap
        ));
        self.player.guard = 0;
        self.player.statuses.clear();
        self.offer_rewards();
    }

    /// The run ends.
    pub(super) fn end(&mut self, winners: Vec<usize>, reason: OutcomeReason, summary: String) {
        self.stage = Stage::Over;
        self.queue.clear();
        self.log.push(summary.clone());
        self.finish = Some(Outcome::new(winners, reason, summary));
    }
}

/// "; its Guard falls to 0 (5 to 0); Weak ends; Ana regenerates: heals 3 (40 to 43); Shield:
/// +4 Guard (0 to 4)." for the phase-start line of `f` (after its phase start), whose Guard
/// was `guard` before it.
pub fn effects_note(f: &Fighter, guard: u32, ended: &[Kind], healed: u32, shield: u32) -> String {
    let mut parts = Vec::new();
    if guard > 0 {
        parts.push(format!("its Guard falls to 0 {}", words::span(guard, 0)));
    }
    if !ended.is_empty() {
        let names: Vec<&str> = ended.iter().map(|k| k.name()).collect();
        let verb = if names.len() == 1 { "ends" } else { "end" };
        parts.push(format!("{} {verb}", words::and_list(&names)));
    }
    if healed > 0 {
        let before = f.hp - healed;
        parts.push(format!(
            "{} regenerates: {}",
            f.name,
            words::heal(healed, before, f.hp)
        ));
    }
    if shield > 0 {
        parts.push(format!(
            "Shield: {}",
            words::gain(i64::from(f.guard - shield), i64::from(f.guard), "Guard")
        ));
    }
    let mut out = String::new();
    for part in parts {
        out.push_str("; ");
        out.push_str(&part);
    }
    out.push('.');
    out
}
