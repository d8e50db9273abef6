//! Who is in a battle: taking a seat (with the setup a player brings), taking it back with its
//! token, watching, asking for a fresh snapshot, leaving, and a connection going away.
//! These are the [`BattleActor`]'s commands that change its seats and audiences.

use battle_protocol::{BattleStatus, ErrorCode, Req, Seat, ServerMsg};
use battle_rules::ruleset::Viewer;
use battle_rules::view::Viewers;
use serde_json::Value;
use tokio::time::Instant;

use super::actor::BattleActor;
use super::command::{Present, Role, Seating};
use crate::connection::outbox::{message_frame, Outbox};
use crate::ids::ConnId;
use crate::refusal::Refusal;
use crate::store::Record;

impl BattleActor {
    /// Take `wanted` (or the first free seat) with `setup`, which the ruleset checks first;
    /// the battle starts once every seat is held. Answered by `joined`, or for a player the
    /// matchmaker seats by `matched`, then the snapshot.
    pub(super) fn join(
        &mut self,
        from: Outbox,
        wanted: Option<Seat>,
        setup: Option<Value>,
        name: Option<String>,
        req: Option<Req>,
        answer: Seating,
    ) {
        if self.status == BattleStatus::Finished {
            return self.refuse(&from, ErrorCode::BattleOver, "the battle is over", req);
        }
        if let Some(seat) = self.seats.seat_of(from.id()) {
            let text = format!("this connection already holds seat {seat} of this battle");
            return self.refuse(&from, ErrorCode::SeatTaken, &text, req);
        }
        if let Some(Refusal { code, message }) = self.unwritable() {
            return self.refuse(&from, code, &message, req);
        }
        let (seat, token) = match self.seats.take(wanted) {
            Ok(taken) => taken,
            Err(Refusal { code, message }) => return self.refuse(&from, code, &message, req),
        };
        if let Err(err) = self.game.check_setup(seat, setup.as_ref()) {
            self.seats.release(seat);
            let text = format!("setup for seat {seat} refused: {err}");
            if self.creator_gives_up(&from) {
                // Never left in the lobby as "waiting" for someone who is not coming.
                self.withdraw("its creator's setup was refused and nobody else was in it");
                let text = format!(
                    "{text}; the battle you created is removed (nobody else was in it): \
                     create one again with a setup that fits"
                );
                return self.refuse(&from, err.code(), &text, req);
            }
            return self.refuse(&from, err.code(), &text, req);
        }
        if self.host.store().is_durable() {
            let record = Record::SeatTaken {
                battle: self.id.clone(),
                seat,
                token_hash: self.seats.token_hash(seat).unwrap_or_default().to_owned(),
                setup: setup.as_ref().map(Value::to_string),
            };
            self.keep(record);
        }
        self.seats.keep_setup(seat, setup);
        self.seats.set_name(seat, name);
        self.audience_mut(Viewer::Spectator).remove(from.id());
        self.seats.attach(seat, from.clone());
        self.start_when_seated();
        if self.seats.seat_of(from.id()) != Some(seat) {
            // The start gave the seat back (and told the holder why).
            return;
        }
        // Everyone already here sees the seat taken before the newcomer's snapshot goes out.
        self.sync_presence();
        let battle_id = self.id.clone();
        let reply = match answer {
            Seating::Joined => ServerMsg::Joined {
                battle_id,
                seat,
                token,
                req,
            },
            Seating::Matched => ServerMsg::Matched {
                battle_id,
                seat,
                token,
                req,
            },
        };
        let conn = from.id();
        let closed = answer == Seating::Matched && from.is_closed();
        self.admit(Viewer::Seat(seat), from, Some(&reply));
        if closed {
            // The matched connection closed before it could hear of this battle (its reader
            // may never tell it): its seat is held, and waits for it as after a disconnection.
            self.forget(conn);
        }
    }

    /// Whether a refused join means the battle is for nobody: it waits, no person holds a
    /// seat or watches, and the join comes from the address that created it (the terminal
    /// client's `play` creates on one connection and joins on another, and gives up when
    /// its setup is refused).
    fn creator_gives_up(&self, from: &Outbox) -> bool {
        self.status == BattleStatus::Waiting
            && !self.seats.infos().iter().any(|s| s.taken && !s.bot)
            && self.audience(Viewer::Spectator).is_empty()
            && self.created_by(from)
    }

    pub(super) fn rejoin(&mut self, from: Outbox, token: &str, req: Option<Req>) {
        let Some(seat) = self.seats.find_token(token) else {
            return self.refuse(
                &from,
                ErrorCode::BadToken,
                "that token holds no seat here",
                req,
            );
        };
        if let Some(other) = self.seats.seat_of(from.id()).filter(|&other| other != seat) {
            let text = format!("this connection already holds seat {other} of this battle");
            return self.refuse(&from, ErrorCode::SeatTaken, &text, req);
        }
        if let (BattleStatus::Waiting, Some(name)) = (self.status, from.name()) {
            // Until the start a seat takes its holder's latest name (a restart keeps none).
            self.seats.set_name(seat, Some(name));
        }
        self.audience_mut(Viewer::Spectator).remove(from.id());
        if let Some(old) = self.seats.attach(seat, from.clone()) {
            if old.id() != from.id() {
                self.audience_mut(Viewer::Seat(seat)).remove(old.id());
                let left = ServerMsg::Left {
                    battle_id: self.id.clone(),
                    reason: "replaced".into(),
                    req: None,
                };
                old.offer_msg_at(&left, self.ticket);
            }
        }
        self.sync_presence();
        let reply = ServerMsg::Joined {
            battle_id: self.id.clone(),
            seat,
            token: token.to_string(),
            req,
        };
        self.admit(Viewer::Seat(seat), from, Some(&reply));
    }

    pub(super) fn spectate(&mut self, from: Outbox, req: Option<Req>) {
        if let Some(seat) = self.seats.seat_of(from.id()) {
            let text = format!("this connection holds seat {seat}; leave it to watch instead");
            return self.refuse(&from, ErrorCode::SeatTaken, &text, req);
        }
        let reply = ServerMsg::Spectating {
            battle_id: self.id.clone(),
            req,
        };
        self.admit(Viewer::Spectator, from, Some(&reply));
    }

    /// Add `from` to an audience and send it `reply` (the answer that admits it) followed by
    /// the current view, both in one write (a spectator of a delayed battle: the view
    /// released last, see `delay.rs`).
    fn admit(&mut self, viewer: Viewer, from: Outbox, reply: Option<&ServerMsg>) {
        self.fence();
        let index = self.audience_index(viewer);
        let ahead = reply.map(message_frame);
        if viewer == Viewer::Spectator && self.spectator_delay.is_some() {
            self.audiences[index].add(from.clone());
            self.send_released(&from, ahead, None);
        } else {
            // Built for this viewer alone; the snapshot leaves out what is marked for others.
            let view = self.envelope(Viewers::of(viewer));
            let (id, game, ticket) = (&self.id, &*self.game, self.ticket);
            let audience = &mut self.audiences[index];
            audience.add(from.clone());
            audience.send_snapshot(id, &from, ahead, None, game.log(viewer), &view, ticket);
        }
        if from.is_proxy() {
            // Its node hands it this audience's changes from now on.
            let hash = match viewer {
                Viewer::Seat(seat) => self.seats.token_hash(seat).map(str::to_string),
                Viewer::Spectator => None,
            };
            let seq = self.audiences[index].seq();
            from.note_admitted(viewer, seq, hash.as_deref());
        }
        if self.status != BattleStatus::Finished {
            // Someone is here: the idle countdown stops (a finished battle keeps its own).
            self.expire_at = None;
        }
    }

    /// In a cluster: take back a connection that was part of the battle before it moved
    /// here (or before its node lost changes): the seat whose token hashes to the one
    /// given, or a spectator's place; it gets a snapshot only (its client asked for nothing).
    pub(super) fn reattach(&mut self, from: Outbox, role: Role) {
        match role {
            Role::Spectator => {
                if self.seats.seat_of(from.id()).is_none() {
                    self.admit(Viewer::Spectator, from, None);
                }
            }
            Role::Seat { seat, token_hash } => {
                if self.seats.token_hash(seat) != Some(token_hash.as_str()) {
                    tracing::warn!(seat, "a seat taken back does not match its token: ignored");
                    return;
                }
                if let Some(old) = self.seats.attach(seat, from.clone()) {
                    if old.id() != from.id() {
                        self.audience_mut(Viewer::Seat(seat)).remove(old.id());
                    }
                }
                self.sync_presence();
                self.admit(Viewer::Seat(seat), from, None);
            }
        }
    }

    /// In a cluster: the battle is another node's now: this node's own connections in it,
    /// each with its place, for the node to take them there. Nothing is sent to anyone.
    pub(super) fn let_go(&mut self) -> Vec<Present> {
        let mut members = Vec::new();
        for seat in 0..self.seats.len() {
            if let Some(conn) = self.seats.conn(seat).filter(|c| !c.is_proxy()) {
                members.push(Present {
                    outbox: conn.clone(),
                    viewer: Viewer::Seat(seat),
                    token_hash: self.seats.token_hash(seat).map(str::to_string),
                });
            }
        }
        let spectators = self.audience_index(Viewer::Spectator);
        for outbox in self.audiences[spectators].locals() {
            members.push(Present {
                outbox,
                viewer: Viewer::Spectator,
                token_hash: None,
            });
        }
        self.host.remove_local(&self.id);
        members
    }

    pub(super) fn resync(&mut self, from: &Outbox, req: Option<Req>) {
        let viewer = match self.seats.seat_of(from.id()) {
            Some(seat) => Viewer::Seat(seat),
            None if self.audience(Viewer::Spectator).contains(from.id()) => Viewer::Spectator,
            None => {
                return self.refuse(
                    from,
                    ErrorCode::NotInBattle,
                    "you are not in this battle",
                    req,
                )
            }
        };
        if viewer == Viewer::Spectator && self.spectator_delay.is_some() {
            return self.send_released(from, None, req);
        }
        self.fence();
        let index = self.audience_index(viewer);
        // Built for this viewer alone; the snapshot leaves out what is marked for others.
        let view = self.envelope(Viewers::of(viewer));
        let (id, game, ticket) = (&self.id, &*self.game, self.ticket);
        let log = game.log(viewer);
        self.audiences[index].send_snapshot(id, from, None, req, log, &view, ticket);
    }

    pub(super) fn leave(&mut self, from: &Outbox, req: Option<Req>) {
        let seat = self.seats.seat_of(from.id());
        if !self.forget(from.id()) {
            return self.refuse(
                from,
                ErrorCode::NotInBattle,
                "you are not in this battle",
                req,
            );
        }
        if let (Some(seat), BattleStatus::Waiting) = (seat, self.status) {
            // Before the battle starts, leaving gives the seat back, with its setup.
            self.seats.release(seat);
            let battle = self.id.clone();
            self.keep(Record::SeatFreed { battle, seat });
        }
        let left = ServerMsg::Left {
            battle_id: self.id.clone(),
            reason: "requested".into(),
            req,
        };
        from.offer_msg_at(&left, self.ticket);
    }

    /// Remove a connection from its seat or the spectators; whether it was there.
    pub(super) fn forget(&mut self, conn: ConnId) -> bool {
        let mut found = false;
        if let Some(seat) = self.seats.detach(conn) {
            self.audience_mut(Viewer::Seat(seat)).remove(conn);
            found = true;
            self.plan_cover();
        }
        found |= self.audience_mut(Viewer::Spectator).remove(conn);
        self.summary_dirty |= found;
        if found
            && self.status != BattleStatus::Finished
            && !self.seats.any_connected()
            && self.audience(Viewer::Spectator).is_empty()
        {
            self.expire_at = Some(Instant::now() + self.host.config().idle_ttl);
        }
        found
    }
}
