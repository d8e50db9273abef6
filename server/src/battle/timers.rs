//! What a battle does by itself, on its timers: the engine's next step or a bot's move (and
//! when they are due), the decision clocks and what happens when one runs out, and, in a
//! cluster, the beacons and the pause while the store is out of reach. All of it runs in the
//! actor's one loop ([`BattleActor`]), through the same publication as a person's move.

use std::time::Duration;

use battle_protocol::{BattleStatus, ErrorCode, Seat};
use battle_rules::input_log::Input;
use battle_rules::view::{ViewValue, Viewers};
use tokio::time::Instant;

use super::actor::{BattleActor, STORE_RETRY};
use super::bot;
use super::delay::SpectatorDelay;
use crate::refusal::Refusal;

impl BattleActor {
    /// Arm the timer for the engine's next step, or for a bot whose decision is awaited.
    pub(super) fn plan_step(&mut self) {
        self.step_at = None;
        if self.status != BattleStatus::Playing {
            return;
        }
        let now = Instant::now();
        // Only an engine step leaves a cadence; any other change starts the count afresh.
        let cadence = self.cadence.take();
        if let Some(ms) = self.game.next_tick() {
            let delay = if self.pace.is_zero() {
                Duration::ZERO
            } else {
                Duration::from_millis(ms)
            };
            // One tick after the previous step was due; never in the past (a server that
            // fell behind does not make up for it with a burst).
            let floor = now.checked_sub(delay).unwrap_or(now);
            let due = cadence.map_or(now, |previous| previous.max(floor)) + delay;
            self.step_at = Some(due.max(now));
        } else {
            self.step_at = self.bot_due(now);
        }
    }

    /// When the server next decides for an awaited seat: after the pace for a bot's seat or
    /// a person's gone past its grace, else when the first absent person's grace ends.
    pub(super) fn bot_due(&self, now: Instant) -> Option<Instant> {
        let awaited = self.game.to_act();
        if awaited
            .iter()
            .any(|&seat| self.seats.covered(seat, now, self.grace))
        {
            return Some(now + self.pace);
        }
        awaited
            .iter()
            .filter_map(|&seat| self.seats.covered_from(seat, self.grace))
            .min()
    }

    /// A seat's holder went away: if its decision is awaited, the server takes it over when
    /// the grace ends (unless something is due sooner).
    pub(super) fn plan_cover(&mut self) {
        if self.status != BattleStatus::Playing || self.game.next_tick().is_some() {
            return;
        }
        if let Some(due) = self.bot_due(Instant::now()) {
            self.step_at = Some(self.step_at.map_or(due, |at| at.min(due)));
        }
    }

    /// Give each person whose decision is awaited a deadline (when the server has a turn
    /// limit); `acted` just moved, so its clock starts again if it is still awaited.
    pub(super) fn plan_clocks(&mut self, acted: Option<Seat>) {
        if !self.clocks.is_on() {
            return;
        }
        if self.status != BattleStatus::Playing {
            self.clocks.stop();
            return;
        }
        let seats = &self.seats;
        self.clocks.update(
            &self.game.to_act(),
            |seat| !seats.is_bot(seat),
            acted,
            Instant::now(),
        );
    }

    /// A timer fired. Returns true when the battle has expired.
    pub(super) fn on_timer(&mut self) -> bool {
        let now = Instant::now();
        if !self.host.store().is_available() {
            // Nothing that would be logged happens while it cannot be kept.
            self.paused_until = Some(now + STORE_RETRY);
            return false;
        }
        self.paused_until = None;
        if self.beacon_at.is_some_and(|at| at <= now) {
            self.beacon_at = None;
            for audience in &self.audiences {
                audience.beacon();
            }
        }
        self.release_to_spectators(now);
        if self.step_at.is_some_and(|at| at <= now) {
            self.step();
        }
        if self.clocks.next().is_some_and(|at| at <= now) {
            // Taken before the clock stops: the stop is part of the change published.
            let before = self.views_now();
            if let Some((seat, in_row)) = self.clocks.expire(now) {
                self.time_out(seat, in_row, before);
            }
        }
        if self.expire_at.is_none_or(|at| at > now) {
            return false;
        }
        // A battle stays until its spectators have been sent every view held for them.
        match self
            .spectator_delay
            .as_ref()
            .and_then(SpectatorDelay::last_due)
        {
            Some(last) => {
                self.expire_at = Some(last);
                false
            }
            None => true,
        }
    }

    /// `seat` let its deadline pass (`in_row` times in a row now): the ruleset's own rule for
    /// it decides if it has one ([`Ruleset::timeout`]), else the bot, as an input like any
    /// other; after the timer's `forfeit_after` in a row the seat forfeits on time (its own
    /// input, so that the outcome says it was the clock).
    pub(super) fn time_out(
        &mut self,
        seat: Seat,
        in_row: u32,
        before: Option<(Viewers, ViewValue)>,
    ) {
        if self.status != BattleStatus::Playing {
            return;
        }
        if in_row >= self.clocks.forfeit_after() {
            if self.game.forfeit(seat).is_ok() {
                tracing::info!(seat, in_row, "seat forfeits on time");
                self.log_input(Input::Forfeit { seat });
            }
            return self.after_change(None, before);
        }
        tracing::info!(seat, in_row, "decision timed out");
        self.meters.timeouts.increment(1);
        if self.game.timeout(seat).is_ok() {
            self.log_input(Input::Timeout { seat });
            return self.after_change(None, before);
        }
        let action = bot::choose(&*self.game, seat, &mut self.bot_rng);
        self.meters.bot_moves.increment(1);
        let refused = match action {
            Some(action) => self.submit_from(seat, action, None, before.clone()).err(),
            None => Some(Refusal::new(ErrorCode::Internal, "no action")),
        };
        if let Some(Refusal { code, message }) = refused {
            tracing::error!(battle = %self.id, seat, %code, %message, "timed-out move refused");
            // The stopped clock is still a change to publish.
            self.after_change(None, before);
        }
    }

    /// One engine step or one bot move.
    pub(super) fn step(&mut self) {
        let due = self.step_at.take();
        if self.status != BattleStatus::Playing {
            return;
        }
        if self.game.next_tick().is_some() {
            let before = self.views_now();
            match self.game.advance() {
                Ok(()) => {
                    self.log_input(Input::Advance);
                    self.meters.engine_steps.increment(1);
                    self.cadence = due;
                    self.after_change(None, before);
                }
                Err(err) => tracing::error!(%err, "engine step refused"),
            }
            return;
        }
        let now = Instant::now();
        let Some(seat) = self
            .game
            .to_act()
            .into_iter()
            .find(|&seat| self.seats.covered(seat, now, self.grace))
        else {
            // An absent holder came back, or its grace has not ended yet.
            self.step_at = self.bot_due(now);
            return;
        };
        let Some(action) = bot::choose(&*self.game, seat, &mut self.bot_rng) else {
            tracing::error!(battle = %self.id, seat, "bot seat must act but has no action");
            return;
        };
        self.meters.bot_moves.increment(1);
        if let Err(Refusal { code, message }) = self.submit(seat, action, None) {
            // The ruleset's AI chose an action its own rules refuse: a ruleset bug. Fall back
            // to a random action so the battle goes on.
            tracing::error!(battle = %self.id, seat, %code, %message, "bot move refused");
            let Some(fallback) = self.game.random_action(seat, &mut self.bot_rng) else {
                return;
            };
            if let Err(Refusal { code, message }) = self.submit(seat, fallback, None) {
                tracing::error!(battle = %self.id, seat, %code, %message, "random action refused");
            }
        }
    }
}
