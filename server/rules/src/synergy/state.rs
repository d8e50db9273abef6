//! The battle state and its state machine (spec section 8): the five named states, the table
//! of allowed transitions, the single [`Battle::transition`] function that runs each state's
//! entry effects once, and the turn start, turn end and resolution check it drives.

use battle_protocol::Seat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::cards::CardDef;
use super::deck::instances;
use super::error::SynergyError;
use super::options::Mode;
use super::score::{self, Settlement, Verdict};
use super::side::Side;
use super::{ENEMY_HP, OPENING_DRAW, PLAYER_HP, ROUND_LIMIT, TURN_DRAW};
use crate::words::{self, Names};

/// Before the first turn.
pub const STATE_READY: &str = "ready";
/// Seat 0 ("player" side) acts.
pub const STATE_PLAYER_TURN: &str = "playerTurn";
/// Seat 1 ("enemy" side) acts.
pub const STATE_ENEMY_TURN: &str = "enemyTurn";
/// The knockout check after both turns of a round.
pub const STATE_RESOLUTION: &str = "resolution";
/// The battle has an outcome.
pub const STATE_GAME_OVER: &str = "gameOver";

/// First instance id of each seat's cards.
pub const FIRST_CARD_ID: [u32; 2] = [1, 101];

/// The one active state of the battle, shown in views by its state name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// [`STATE_READY`].
    Ready,
    /// [`STATE_PLAYER_TURN`].
    PlayerTurn,
    /// [`STATE_ENEMY_TURN`].
    EnemyTurn,
    /// [`STATE_RESOLUTION`].
    Resolution,
    /// [`STATE_GAME_OVER`].
    GameOver,
}

/// Every allowed jump (spec 8.2); any other is refused.
pub const TRANSITIONS: [(Phase, Phase); 5] = [
    (Phase::Ready, Phase::PlayerTurn),
    (Phase::PlayerTurn, Phase::EnemyTurn),
    (Phase::EnemyTurn, Phase::Resolution),
    (Phase::Resolution, Phase::PlayerTurn),
    (Phase::Resolution, Phase::GameOver),
];

impl Phase {
    /// Every state.
    pub const ALL: [Phase; 5] = [
        Phase::Ready,
        Phase::PlayerTurn,
        Phase::EnemyTurn,
        Phase::Resolution,
        Phase::GameOver,
    ];

    /// The state's name constant.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Ready => STATE_READY,
            Phase::PlayerTurn => STATE_PLAYER_TURN,
            Phase::EnemyTurn => STATE_ENEMY_TURN,
            Phase::Resolution => STATE_RESOLUTION,
            Phase::GameOver => STATE_GAME_OVER,
        }
    }

    /// The seat whose turn it is in this state, if any.
    pub fn active_seat(self) -> Option<Seat> {
        match self {
            Phase::PlayerTurn => Some(0),
            Phase::EnemyTurn => Some(1),
            _ => None,
        }
    }
}

/// Whether the state machine allows `from` -> `to`.
pub fn allowed(from: Phase, to: Phase) -> bool {
    TRANSITIONS.contains(&(from, to))
}

/// The settled end of a battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleResult {
    /// The winning seat, or `None` for a draw.
    pub winner: Option<Seat>,
    /// Final score of each seat, bonuses and penalty included.
    pub final_scores: [u32; 2],
    /// How each final score was reached.
    pub breakdown: [Settlement; 2],
    /// One sentence describing the result.
    pub summary: String,
}

/// A whole synergy battle.
#[derive(Debug, Clone)]
pub struct Battle {
    /// PvE or PvP.
    pub(super) mode: Mode,
    /// The active state.
    pub(super) phase: Phase,
    /// The current round, from 1 (0 before the first player turn).
    pub(super) round: u32,
    /// Seat 0 (player side) and seat 1 (enemy side).
    pub(super) sides: [Side; 2],
    /// Append-only battle log, safe for every viewer.
    pub(super) log: Vec<String>,
    /// How the battle was decided, set by the resolution check.
    pub(super) verdict: Option<Verdict>,
    /// Set on entering `gameOver`.
    pub(super) result: Option<BattleResult>,
    /// The only source of randomness: deck shuffles and reshuffles.
    pub(super) rng: ChaCha8Rng,
}

impl Battle {
    /// Sets up a battle from its mode and each seat's checked deck: decks shuffled with the
    /// seed (seat 0's first), both opening hands drawn in `ready`, then the first player turn
    /// begins.
    pub fn new(mode: Mode, decks: [Vec<&'static CardDef>; 2], seed: u64, names: &Names) -> Battle {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let enemy_hp = match mode {
            Mode::Pve => ENEMY_HP,
            Mode::Pvp => PLAYER_HP,
        };
        let mut sides = [
            Side::new(
                names.of(0),
                PLAYER_HP,
                instances(&decks[0], FIRST_CARD_ID[0]),
            ),
            Side::new(
                names.of(1),
                enemy_hp,
                instances(&decks[1], FIRST_CARD_ID[1]),
            ),
        ];
        for side in &mut sides {
            rand::seq::SliceRandom::shuffle(side.zones.draw.as_mut_slice(), &mut rng);
        }
        let mut battle = Battle {
            mode,
            phase: Phase::Ready,
            round: 0,
            log: Vec::new(),
            sides,
            verdict: None,
            result: None,
            rng,
        };
        let draws = [0, 1].map(|seat| battle.draw(seat, OPENING_DRAW, None));
        let [a, b] = &battle.sides;
        let line = format!(
            "Battle begins: {} {} HP vs {} {} HP. {} {}; {} {}.",
            a.name, a.hp, b.name, b.hp, a.name, draws[0], b.name, draws[1]
        );
        battle.log.push(line);
        battle
            .transition(Phase::PlayerTurn)
            .expect("ready -> playerTurn is the first row of the transition table");
        battle
    }

    /// The seat whose turn it is, if any.
    pub fn active_seat(&self) -> Option<Seat> {
        self.phase.active_seat()
    }

    /// Moves the state machine to `to`, running `to`'s entry effects once. An entry effect
    /// may lead straight on to a further state (a turn that passes at once, a resolution that
    /// starts the next round); each such step is checked against the table too.
    pub fn transition(&mut self, to: Phase) -> Result<(), SynergyError> {
        let mut next = Some(to);
        while let Some(target) = next {
            if !allowed(self.phase, target) {
                return Err(SynergyError::InvalidTransition {
                    from: self.phase.as_str(),
                    to: target.as_str(),
                });
            }
            self.phase = target;
            next = self.enter(target);
        }
        Ok(())
    }

    /// Entry effects of `phase`; returns the state to move on to at once, if any.
    fn enter(&mut self, phase: Phase) -> Option<Phase> {
        match phase {
            Phase::Ready => None,
            Phase::PlayerTurn => {
                self.round += 1;
                self.begin_turn(0).then_some(Phase::EnemyTurn)
            }
            Phase::EnemyTurn => self.begin_turn(1).then_some(Phase::Resolution),
            Phase::Resolution => Some(self.resolve()),
            Phase::GameOver => {
                self.finish();
                None
            }
        }
    }

    /// Draws `count` cards for `seat` and describes it for the log, without the subject:
    /// "draws 5 cards (...)", `note` first among the notes in brackets. Counts only; drawn
    /// cards are never named.
    pub(super) fn draw(&mut self, seat: Seat, count: u32, note: Option<String>) -> String {
        let report = self.sides[seat].zones.draw_cards(count, &mut self.rng);
        let mut notes: Vec<String> = note.into_iter().collect();
        for n in &report.reshuffles {
            let n = *n as u32;
            notes.push(format!(
                "{} shuffled into the draw pile",
                words::count(n, "discarded card")
            ));
        }
        if report.held_back > 0 {
            notes.push(format!(
                "{} not drawn: the hand is full at {}",
                report.held_back,
                super::HAND_LIMIT
            ));
        }
        if report.missing > 0 {
            notes.push(format!("{} not drawn: no cards left", report.missing));
        }
        let mut text = format!("draws {}", words::count(report.drawn, "card"));
        if !notes.is_empty() {
            text.push_str(&format!(" ({})", notes.join("; ")));
        }
        text
    }

    /// Turn start for `seat`: block removed, energy 3, counters cleared, 5 cards drawn unless
    /// this is the side's first turn (its opening hand is that draw). Returns true when the
    /// side has no playable card, in which case its turn has already ended.
    /// The turn start is logged as one line, e.g. "Round 2 of 40: Ana's turn, 3 energy.
    /// Ana's block fades: -8 block (8 to 0). Ana draws 5 cards."
    fn begin_turn(&mut self, seat: Seat) -> bool {
        let side = &mut self.sides[seat];
        let faded = side.start_turn();
        let first = side.turns_started == 0;
        side.turns_started += 1;
        let name = side.name.clone();
        let mut line = if seat == 0 {
            format!(
                "Round {} of {ROUND_LIMIT}: {name}'s turn, {} energy.",
                self.round, side.energy
            )
        } else {
            format!("{name}'s turn, {} energy.", side.energy)
        };
        if faded > 0 {
            let fade = words::gain(i64::from(faded), 0, "block");
            line.push_str(&format!(" {name}'s block fades: {fade}."));
        }
        if !first {
            let drew = self.draw(seat, TURN_DRAW, None);
            line.push_str(&format!(" {name} {drew}."));
        }
        self.log.push(line);
        if self.sides[seat].has_playable() {
            false
        } else {
            self.close_turn(seat, true);
            true
        }
    }

    /// Ends `seat`'s turn (its hand is discarded) and logs why. Does not move the state.
    pub(super) fn close_turn(&mut self, seat: Seat, auto: bool) {
        let side = &mut self.sides[seat];
        let why = side.why_no_play();
        let discarded = side.end_turn() as u32;
        let mut line = match why {
            Some(why) if auto => format!("{} {why}: the turn ends", side.name),
            _ => format!("{} ends the turn", side.name),
        };
        if discarded > 0 {
            line.push_str(&format!(
                ", discarding {}",
                words::count(discarded, "unplayed card")
            ));
        }
        line.push('.');
        self.log.push(line);
    }

    /// Ends `seat`'s turn and moves the state machine on.
    pub(super) fn end_turn(&mut self, seat: Seat, auto: bool) -> Result<(), SynergyError> {
        self.close_turn(seat, auto);
        let next = if seat == 0 {
            Phase::EnemyTurn
        } else {
            Phase::Resolution
        };
        self.transition(next)
    }

    /// The resolution check (spec 10): knockouts are judged only here.
    fn resolve(&mut self) -> Phase {
        let ko = [self.sides[0].hp == 0, self.sides[1].hp == 0];
        for (seat, &down) in ko.iter().enumerate() {
            if down {
                let line = format!("{} is knocked out.", self.sides[seat].name);
                self.log.push(line);
            }
        }
        let verdict = match ko {
            [true, true] => Verdict::DoubleKnockout,
            [true, false] => Verdict::Knockout { winner: 1 },
            [false, true] => Verdict::Knockout { winner: 0 },
            [false, false] if self.round >= ROUND_LIMIT => Verdict::RoundLimit,
            [false, false] => return Phase::PlayerTurn,
        };
        self.verdict = Some(verdict);
        Phase::GameOver
    }

    /// Entry of `gameOver`: settles final scores and the result.
    fn finish(&mut self) {
        let verdict = self.verdict.unwrap_or(Verdict::RoundLimit);
        let pve = self.mode == Mode::Pve;
        let winner = match verdict {
            Verdict::Knockout { winner } => Some(winner),
            Verdict::DoubleKnockout | Verdict::RoundLimit if pve => Some(1),
            Verdict::DoubleKnockout | Verdict::RoundLimit => None,
        };
        let names = [self.sides[0].name.clone(), self.sides[1].name.clone()];
        let opening = match (verdict, winner) {
            (Verdict::Knockout { winner }, _) => format!(
                "{} wins by knockout in round {}.",
                names[winner], self.round
            ),
            (Verdict::DoubleKnockout, Some(w)) => format!(
                "Both sides fell in the same resolution, which is a defeat for {}: {} wins.",
                names[0], names[w]
            ),
            (Verdict::DoubleKnockout, None) => {
                "Both sides fell in the same resolution: the battle is a draw.".to_string()
            }
            (Verdict::RoundLimit, Some(w)) => format!(
                "Round {ROUND_LIMIT} ended with no knockout, which is a defeat for {}: {} wins.",
                names[0], names[w]
            ),
            (Verdict::RoundLimit, None) => {
                format!("Round {ROUND_LIMIT} ended with no knockout: the battle is a draw.")
            }
        };
        let mut final_scores = [0; 2];
        let mut breakdown = [Settlement::default(); 2];
        let mut lines = Vec::new();
        for (seat, side) in self.sides.iter().enumerate() {
            let won = winner == Some(seat);
            let lost = winner.is_some() && !won;
            let (settled, explain) = score::settle(side, won, lost);
            final_scores[seat] = settled.total;
            breakdown[seat] = settled;
            lines.extend(explain);
        }
        let summary = format!(
            "{opening} Final scores: {} {}, {} {}.",
            names[0], final_scores[0], names[1], final_scores[1]
        );
        self.log.extend(lines);
        self.log.push(summary.clone());
        self.result = Some(BattleResult {
            winner,
            final_scores,
            breakdown,
            summary,
        });
    }
}
