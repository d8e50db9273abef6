//! What a matchmaker does once players meet, alone or in a cluster: create their battle in
//! the lobby and send each player in, without ever waiting for a client or a battle.

use std::sync::Arc;

use battle_protocol::{ErrorCode, Req, Seat};
use serde_json::Value;

use super::pool::PoolKey;
use crate::battle::{self, BattleHandle, Offered, Seating};
use crate::connection::mailbox::Entered;
use crate::connection::outbox::Outbox;
use crate::lobby::{CreateRequest, Lobby};
use crate::quota::Creator;
use crate::refusal::Refusal;

/// Create the battle of `key` for `players` people, who take the first of its seats for
/// people (`people`, in order); the server's bots get the seats for people beyond them.
/// Public, with the server's defaults, counted against `creator` (the matchmaker's own).
/// Its id and handle, or the code of the refusal.
pub(super) fn create(
    lobby: &Arc<Lobby>,
    creator: &Creator,
    key: &PoolKey,
    people: &[Seat],
    players: usize,
) -> Result<(String, BattleHandle), ErrorCode> {
    let request = CreateRequest {
        ruleset: key.ruleset.clone(),
        options: (!key.options.is_null()).then(|| key.options.clone()),
        bots: people.get(players..).unwrap_or_default().to_vec(),
        ..CreateRequest::default()
    };
    let created =
        lobby
            .create(request, creator)
            .and_then(|(battle_id, _)| match lobby.handle(&battle_id) {
                Some(handle) => Ok((battle_id, handle)),
                None => Err(Refusal::new(ErrorCode::Internal, "the battle went at once")),
            });
    created.map_err(|Refusal { code, message: why }| {
        tracing::warn!(%code, %why, ruleset = %key.ruleset, "no battle for a match");
        code
    })
}

/// Add to `commands` what seats `from` in `seat` of the battle `battle_id` (reached through
/// `handle`) with `setup`, answered `matched` echoing `req`; the battle is posted to the
/// connection's mailbox first. A connection whose reader has ended is told to the battle as
/// disconnected right after (its reader will tell no battle any more).
pub(super) fn seat(
    battle_id: &str,
    handle: &BattleHandle,
    from: Outbox,
    seat: Seat,
    setup: Option<Value>,
    req: Option<Req>,
    commands: &mut Vec<battle::Command>,
) {
    let mailbox = from.mailbox();
    // Posted before the battle can answer `matched`: the reader knows the battle before its
    // client can name it.
    let posted = mailbox.post(Entered {
        battle_id: battle_id.to_string(),
        handle: handle.clone(),
    });
    mailbox.set_queued(false);
    commands.push(battle::Command::Join {
        name: from.name(),
        from: from.clone(),
        seat: Some(seat),
        setup,
        req,
        answer: Seating::Matched,
    });
    if posted.is_err() {
        commands.push(battle::Command::Disconnected { from });
    }
}

/// Queue `commands` for the battle in order, without waiting; from the first that finds its
/// queue full, the rest go from a task of their own, which waits for room.
pub(super) fn deliver(handle: BattleHandle, commands: Vec<battle::Command>) {
    let mut commands = commands.into_iter();
    while let Some(command) = commands.next() {
        match handle.try_offer(command) {
            Ok(()) => {}
            Err(Offered::Gone) => return,
            Err(Offered::Full(command)) => {
                let rest: Vec<battle::Command> = std::iter::once(command).chain(commands).collect();
                tokio::spawn(async move {
                    for command in rest {
                        if handle.send(command).await.is_err() {
                            return;
                        }
                    }
                });
                return;
            }
        }
    }
}
