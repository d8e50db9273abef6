//! The spectator delay: the views of a battle as its spectators see them, held back for the
//! battle's `spectator_delay_ms` before they go out.
//!
//! A battle created with a delay never sends its spectators a change when it happens. Each
//! time its view changes, the actor hands [`SpectatorDelay::hold`] the spectators' view as it
//! is now (projected for [`Viewer::Spectator`](battle_rules::ruleset::Viewer), so it holds no
//! part marked for a seat), with how long the spectators' battle log is at that moment (the
//! log only grows, so its length is enough) and the store ticket the change waits for. When
//! a held view is due, [`SpectatorDelay::release_next`] hands it back together with the view
//! released before it, for the actor to diff the two and publish the spectators' share. The
//! view released last is what a spectator who arrives, or asks for a resync, is shown: never
//! the battle as it is now.
//!
//! Views are held even while nobody watches, so that a spectator who arrives later sees the
//! battle as it was one delay ago. Every view waits the same delay, so the queue is in order
//! of due time. A battle without a delay has no [`SpectatorDelay`] at all: its changes cost
//! nothing more.

use std::collections::VecDeque;
use std::time::Duration;

use battle_protocol::Req;
use battle_rules::ruleset::Viewer;
use battle_rules::view::{Changes, ViewValue, Viewers};
use tokio::time::Instant;

use super::actor::BattleActor;
use crate::connection::frame::Frame;
use crate::connection::outbox::Outbox;
use crate::store::Ticket;

/// One view of a battle as its spectators see it, held until it is due.
#[derive(Debug)]
pub struct Held {
    /// When spectators may see it.
    pub due: Instant,
    /// The spectators' view (no marked parts), without the battle log.
    pub view: ViewValue,
    /// How many lines the spectators' battle log had when the view was taken.
    pub log_len: usize,
    /// The ticket of the last record before the view was taken: what shows it leaves once
    /// that record is committed.
    pub ticket: Ticket,
}

/// The spectators' views of one battle waiting for their time, and the one released last.
#[derive(Debug)]
pub struct SpectatorDelay {
    delay: Duration,
    /// Views not yet due, oldest (first due) first.
    queue: VecDeque<Held>,
    /// The view spectators were last sent; `None` until the first one is due.
    released: Option<Held>,
}

impl SpectatorDelay {
    /// A delay of `delay`, or `None` for no delay (changes go to spectators at once).
    pub fn new(delay: Duration) -> Option<SpectatorDelay> {
        (!delay.is_zero()).then(|| SpectatorDelay {
            delay,
            queue: VecDeque::new(),
            released: None,
        })
    }

    /// The delay.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Hold `view` (the spectators' view as of `now`, whose log then had `log_len` lines,
    /// shown once `ticket` is committed) until one delay after `now`.
    pub fn hold(&mut self, now: Instant, view: ViewValue, log_len: usize, ticket: Ticket) {
        let due = now + self.delay;
        // Instants never go back and the delay is fixed, so the queue stays in due order; a
        // view taken at the same instant as the one before it goes after it all the same.
        let due = self.queue.back().map_or(due, |last| due.max(last.due));
        self.queue.push_back(Held {
            due,
            view,
            log_len,
            ticket,
        });
    }

    /// When the next held view is due.
    pub fn next_due(&self) -> Option<Instant> {
        self.queue.front().map(|held| held.due)
    }

    /// When the last held view is due: the battle stays until then.
    pub fn last_due(&self) -> Option<Instant> {
        self.queue.back().map(|held| held.due)
    }

    /// Whether no view is held.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// The next held view if it is due at `now`, now the released one, with the view
    /// released before it (`None`: it is the first, so spectators get it whole).
    pub fn release_next(&mut self, now: Instant) -> Option<(Option<Held>, &Held)> {
        if self.next_due()? > now {
            return None;
        }
        let next = self.queue.pop_front()?;
        let previous = self.released.replace(next);
        let released = self.released.as_ref()?;
        Some((previous, released))
    }

    /// The view spectators were last sent, which a newcomer is shown; `None` before the
    /// first is due.
    pub fn released(&self) -> Option<&Held> {
        self.released.as_ref()
    }

    /// Forget every held view (the battle goes away); how many there were.
    pub fn clear(&mut self) -> usize {
        let held = self.queue.len();
        self.queue.clear();
        held
    }
}

impl BattleActor {
    /// With a spectator delay and nothing held yet (a battle just created, or brought back
    /// from the store): hold the spectators' view as it is now, so that nobody sees it
    /// sooner than one delay from now, and a spectator who comes later sees it.
    pub(super) fn hold_for_spectators(&mut self) {
        if self
            .spectator_delay
            .as_ref()
            .is_some_and(SpectatorDelay::is_empty)
        {
            let view = self.envelope(Viewers::SPECTATORS);
            self.hold_view(&view);
        }
    }

    /// Hold the spectators' share of `view` (the view just published, built for the
    /// spectators among others) until one delay from now.
    pub(super) fn hold_view(&mut self, view: &ViewValue) {
        let log_len = self.game.log(Viewer::Spectator).len();
        let ticket = self.ticket;
        if let Some(delay) = &mut self.spectator_delay {
            let seen = view.project(Viewer::Spectator);
            delay.hold(Instant::now(), seen, log_len, ticket);
        }
    }

    /// Send the spectators every held view due at `now`, in order: each as the patch from
    /// the view released before it (the first one whole), with the battle log as long as it
    /// was when the view was taken.
    pub(super) fn release_to_spectators(&mut self, now: Instant) {
        let index = self.audience_index(Viewer::Spectator);
        let Some(delay) = &mut self.spectator_delay else {
            return;
        };
        let audience = &mut self.audiences[index];
        let log = self.game.log(Viewer::Spectator);
        let mut dropped = Vec::new();
        let mut released = 0;
        while let Some((previous, next)) = delay.release_next(now) {
            released += 1;
            // Nobody to send a patch to: the audience only notes that it missed a change.
            let change = previous
                .filter(|_| !audience.is_empty())
                .map(|previous| Changes::between(&previous.view, &next.view, Viewers::SPECTATORS));
            let lines = log.get(..next.log_len).unwrap_or(log);
            let id = &self.id;
            dropped.extend(audience.publish(
                id,
                None,
                lines,
                change.as_ref(),
                &next.view,
                next.ticket,
            ));
        }
        let released = released > 0 && self.audiences[index].has_remote();
        for conn in dropped {
            tracing::warn!(battle = %self.id, conn = conn.0, "dropping a spectator that cannot keep up");
            self.forget(conn);
        }
        if released {
            self.plan_beacon();
        }
    }

    /// Show `to`, a spectator of a delayed battle (already in the spectators' audience), the
    /// view released last, never the battle as it is now: `ahead` (the reply that admits
    /// it) and the snapshot in one write, the snapshot carrying `req` (a resync's). Before
    /// the first view is due there is nothing to show yet: only `ahead` goes out, and the
    /// first release sends every spectator a snapshot.
    pub(super) fn send_released(&mut self, to: &Outbox, ahead: Option<Frame>, req: Option<Req>) {
        let index = self.audience_index(Viewer::Spectator);
        let audience = &mut self.audiences[index];
        let released = self
            .spectator_delay
            .as_ref()
            .and_then(SpectatorDelay::released);
        let Some(held) = released else {
            audience.renew();
            if let Some(reply) = ahead {
                to.offer_frame_at(reply, self.ticket);
            }
            return;
        };
        let log = self.game.log(Viewer::Spectator);
        let lines = log.get(..held.log_len).unwrap_or(log);
        audience.send_snapshot(&self.id, to, ahead, req, lines, &held.view, self.ticket);
    }

    /// The battle goes away: views still held are dropped, never sent early. Its expiry
    /// waits for the last one due, so only a battle stopped otherwise has any left.
    pub(super) fn forget_held(&mut self) {
        if let Some(delay) = &mut self.spectator_delay {
            let held = delay.clear();
            if held > 0 {
                tracing::debug!(battle = %self.id, held, "views held for spectators dropped");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view(n: i64) -> ViewValue {
        ViewValue::from(&json!({"n": n}))
    }

    fn n_of(held: &Held) -> i64 {
        held.view.to_value()["n"].as_i64().expect("a number")
    }

    #[test]
    fn no_delay_is_no_queue() {
        assert!(SpectatorDelay::new(Duration::ZERO).is_none());
        assert!(SpectatorDelay::new(Duration::from_millis(1)).is_some());
    }

    #[test]
    fn views_come_out_one_delay_later_in_order_each_after_the_one_before() {
        let delay = Duration::from_millis(400);
        let mut queue = SpectatorDelay::new(delay).expect("a delay");
        let t0 = Instant::now();
        queue.hold(t0, view(1), 2, 7);
        queue.hold(t0 + Duration::from_millis(100), view(2), 3, 8);
        queue.hold(t0 + Duration::from_millis(100), view(3), 3, 9);
        assert_eq!(queue.next_due(), Some(t0 + delay));
        assert_eq!(queue.last_due(), Some(t0 + Duration::from_millis(500)));

        // Nothing is due before its time, and nothing is released yet.
        assert!(queue
            .release_next(t0 + delay - Duration::from_millis(1))
            .is_none());
        assert!(queue.released().is_none());

        let (previous, first) = queue.release_next(t0 + delay).expect("due");
        assert!(previous.is_none(), "the first view has none before it");
        assert_eq!((n_of(first), first.log_len, first.ticket), (1, 2, 7));
        assert!(
            queue.release_next(t0 + delay).is_none(),
            "the second is due later"
        );
        assert_eq!(queue.released().map(n_of), Some(1));

        let late = t0 + Duration::from_secs(2);
        let (previous, second) = queue.release_next(late).expect("due");
        assert_eq!(n_of(second), 2);
        assert_eq!(
            previous.as_ref().map(n_of),
            Some(1),
            "diffed from the first"
        );
        let (previous, third) = queue.release_next(late).expect("due");
        assert_eq!((n_of(third), third.ticket), (3, 9));
        assert_eq!(previous.as_ref().map(n_of), Some(2));
        assert!(queue.release_next(late).is_none());
        assert!(queue.is_empty());
        assert_eq!((queue.next_due(), queue.last_due()), (None, None));
        assert_eq!(queue.released().map(n_of), Some(3), "the last stays shown");
    }

    #[test]
    fn a_view_never_comes_due_before_one_held_earlier() {
        let mut queue = SpectatorDelay::new(Duration::from_millis(50)).expect("a delay");
        let t0 = Instant::now();
        queue.hold(t0 + Duration::from_millis(10), view(1), 0, 0);
        // An instant taken earlier but handed over later still goes out after it.
        queue.hold(t0, view(2), 0, 0);
        assert_eq!(queue.next_due(), queue.last_due());
        let due = queue.next_due().expect("held");
        assert_eq!(queue.release_next(due).map(|(_, held)| n_of(held)), Some(1));
        assert_eq!(queue.release_next(due).map(|(_, held)| n_of(held)), Some(2));
    }

    #[test]
    fn clearing_forgets_what_is_held_but_not_what_was_shown() {
        let mut queue = SpectatorDelay::new(Duration::from_millis(5)).expect("a delay");
        let t0 = Instant::now();
        queue.hold(t0, view(1), 1, 1);
        queue.hold(t0 + Duration::from_millis(1), view(2), 1, 1);
        let _ = queue.release_next(t0 + Duration::from_millis(5));
        assert_eq!(queue.clear(), 1);
        assert!(queue.is_empty());
        assert_eq!(queue.released().map(n_of), Some(1));
    }
}
