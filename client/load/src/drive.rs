//! One connection's part in one battle: follow the view, act when it is this seat's turn,
//! time every answer; and, once the battle is over, the spectator lag from all connections'
//! receipt times.

use battle_protocol::{ClientMsg, ErrorCode, Req};
use rand::rngs::SmallRng;
use rand::Rng;
use tokio::time::Instant;

use super::frame::{Frame, Ops};
use super::peer::{client_error_key, micros, Peer, Recv};
use super::slot::Shared;
use super::stats::{Samples, Stats};
use super::ticks::{Tick, TickClock};
use super::view::View;
use battle_client::{fill, ClientError};

/// Refused actions tolerated in one battle before it is abandoned (a client bot bug or a
/// server that refuses legal moves; either way the battle would not end).
const MAX_REFUSALS: u32 = 10;

/// How one connection's part in a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    Finished,
    Deadline,
    Failed,
}

/// What one connection saw of a battle.
pub(super) struct Record {
    pub(super) end: End,
    player: bool,
    /// Whether `receipts` can be compared with the other connections' (no resync happened).
    aligned: bool,
    /// `receipts[j]`: when change `j + 1` (counted from the battle's start) arrived.
    receipts: Vec<Instant>,
    /// `(change number, sent at)` of this player's actions.
    acts: Vec<(usize, Instant)>,
    /// Action latencies, in microseconds.
    pub(super) latencies: Vec<u64>,
    /// Tick lags seen by a spectator, in microseconds (see [`Series::TickLag`]).
    ///
    /// [`Series::TickLag`]: super::stats::Series::TickLag
    pub(super) tick_lags: Vec<u64>,
}

/// Follow one battle on one connection; a player also acts, choosing among `legal` at random.
pub(super) async fn drive(
    shared: &Shared,
    peer: &mut Peer,
    battle_id: &str,
    player: bool,
    mut rng: SmallRng,
) -> Record {
    let stats = &shared.stats;
    let think = shared.config.think;
    let mut rec = Record {
        end: End::Failed,
        player,
        aligned: true,
        receipts: Vec::new(),
        acts: Vec::new(),
        latencies: Vec::new(),
        tick_lags: Vec::new(),
    };
    // With a battle pace, ticks keep a cadence whose lateness is measured.
    let paced = shared.config.pace_ms > 0;
    let mut ticks = TickClock::default();
    let mut view = View::default();
    // A violation happened and the `resync` answer is awaited.
    let mut resyncing = false;
    // Changes seen since the view first showed the battle running.
    let mut ordinal: Option<usize> = None;
    let mut pending: Option<(Req, Instant)> = None;
    let mut refusals = 0;
    loop {
        if view.is_over() {
            rec.end = End::Finished;
            return rec;
        }
        if player
            && pending.is_none()
            && !resyncing
            && view.my_turn()
            && view.status() == Some("playing")
        {
            let legal = view.legal();
            // An open entry (parameters to fill) gets a random fill within its bounds; one
            // that admits nothing is not sent.
            let action = match legal.len() {
                0 => None,
                n => {
                    let entry = legal[rng.random_range(0..n)].to_value();
                    if fill::is_open(&entry) {
                        fill::random_fill(&entry, &mut rng)
                    } else {
                        Some(entry)
                    }
                }
            };
            if let Some(action) = action {
                if !think.is_zero() {
                    let wake = Instant::now() + think;
                    tokio::time::sleep_until(wake.min(shared.deadline)).await;
                    if wake > shared.deadline {
                        rec.end = End::Deadline;
                        return rec;
                    }
                }
                let req = peer.req();
                let at = Instant::now();
                rec.acts.push((ordinal.unwrap_or(0) + 1, at));
                let act = ClientMsg::Act {
                    battle_id: battle_id.to_string(),
                    action,
                    req: Some(req),
                };
                match peer.send(&act, stats).await {
                    Ok(()) => pending = Some((req, at)),
                    Err(err) => {
                        if !recover(shared, peer, battle_id, &err, &mut rec).await {
                            return rec;
                        }
                        resyncing = true;
                        continue;
                    }
                }
            }
        }
        let (text, at) = match peer.recv(shared).await {
            Recv::Text(text, at) => (text, at),
            Recv::Deadline => {
                rec.end = End::Deadline;
                return rec;
            }
            Recv::Stall => {
                stats.error("client:stall");
                return rec;
            }
            Recv::Failed(err) => {
                if !recover(shared, peer, battle_id, &err, &mut rec).await {
                    return rec;
                }
                // Patches until the snapshot that follows the re-entry are not ours to apply.
                resyncing = true;
                pending = None;
                continue;
            }
        };
        // Fresh buffers for each frame: the allocator hands back the block the previous
        // frame freed, still in cache, where buffers kept per connection (thousands of them)
        // would have gone cold.
        let mut ops = Ops::with_capacity();
        let mut frame = match Frame::decode(&text, &mut ops) {
            Ok(frame) => frame,
            Err(_) => {
                stats.violation("undecodable_message");
                continue;
            }
        };
        if frame.battle_id.as_deref() != Some(battle_id) {
            // A leftover of an earlier battle (its `left`), or a lobby reply.
            if let Some(code) = frame.code {
                stats.error(format!("server:{code}"));
            }
            continue;
        }
        match frame.kind.as_ref() {
            "error" => {
                if frame.code == Some(ErrorCode::RateLimited) {
                    shared.over_rates();
                }
                let code = frame.code.map_or("unknown".into(), |c| c.to_string());
                stats.error(format!("server:{code}"));
                if pending.is_some_and(|(p, _)| Some(p) == frame.req) {
                    pending = None;
                    refusals += 1;
                    if refusals > MAX_REFUSALS {
                        return rec;
                    }
                }
                continue;
            }
            "left" => {
                stats.error(format!(
                    "client:left_{}",
                    frame.reason.as_deref().unwrap_or("unknown")
                ));
                return rec;
            }
            "snapshot" | "patch" => {}
            _ => continue,
        }
        let snapshot = frame.view.is_some();
        let req = frame.req;
        match view.apply(&mut frame, &mut ops, resyncing) {
            Ok(false) => {}
            Ok(true) => {
                resyncing &= !snapshot;
                if let Some((tick, tick_ms)) = view.tick() {
                    if let Tick::New(lag) = ticks.observe(tick, tick_ms, at) {
                        if let Some(lag) = lag.filter(|_| paced && !player) {
                            rec.tick_lags.push(lag);
                        }
                        if tick > 0 && player && view.seat() == Some(0) {
                            Stats::add(&stats.ticks, 1);
                        }
                    }
                }
                match ordinal {
                    None if view.status() != Some("waiting") => ordinal = Some(0),
                    None => {}
                    Some(n) => {
                        ordinal = Some(n + 1);
                        rec.receipts.push(at);
                    }
                }
                match (req, pending) {
                    (Some(got), Some((want, sent))) if got == want => {
                        rec.latencies.push(micros(at - sent));
                        Stats::add(&stats.actions, 1);
                        pending = None;
                    }
                    // With --reconnect, a snapshot that answers nothing of ours comes when
                    // the battle changed hands (its node died): an act still unanswered
                    // may have been lost with that node, and the snapshot says whose turn
                    // it is now.
                    (_, Some(_)) if snapshot && shared.config.reconnect => pending = None,
                    _ => {}
                }
            }
            Err(violation) => {
                stats.violation(violation.key());
                rec.aligned = false;
                resyncing = true;
                // The answer to a lost act may be gone with the lost frame.
                pending = None;
                let req = peer.req();
                let resync = ClientMsg::Resync {
                    battle_id: battle_id.to_string(),
                    req: Some(req),
                };
                if let Err(err) = peer.send(&resync, stats).await {
                    if !recover(shared, peer, battle_id, &err, &mut rec).await {
                        return rec;
                    }
                }
            }
        }
    }
}

/// The connection failed with `err` in `battle_id`. With `--reconnect`, it is opened again
/// on the next server and takes its place back in the battle (`true`: go on; the view waits
/// for the snapshot that follows, and the battle gives no lag samples). Otherwise, or when
/// that fails, the error is counted (unless the deadline came) and the part ends (`false`).
async fn recover(
    shared: &Shared,
    peer: &mut Peer,
    battle_id: &str,
    err: &ClientError,
    rec: &mut Record,
) -> bool {
    if shared.config.reconnect && peer.reenter(shared, battle_id).await {
        rec.aligned = false;
        return true;
    }
    if Instant::now() >= shared.deadline {
        rec.end = End::Deadline;
    } else {
        shared.stats.error(client_error_key(err));
    }
    false
}

/// Spectator lag samples from a completed battle's records (in any order).
///
/// Every connection numbers the changes it receives from the battle's start, so change `j`
/// is the same change on every connection (each accepted move reaches every audience). The
/// spectator lag of change `j` is the spectator's receipt time minus the earliest receipt of
/// `j` among the battle's connections: the server hands one change to all audiences in the
/// same step, so the earliest receipt stands for the moment it was sent.
pub(super) fn lags(records: &[Record], samples: &mut Samples, stats: &Stats) {
    let Some(first) = records.first() else { return };
    let changes = first.receipts.len();
    if records
        .iter()
        .any(|r| !r.aligned || r.receipts.len() != changes)
    {
        Stats::add(&stats.lag_unaligned, 1);
        return;
    }
    let spectators: Vec<&Record> = records.iter().filter(|r| !r.player).collect();
    if spectators.is_empty() {
        return;
    }
    for j in 0..changes {
        let earliest = records
            .iter()
            .map(|r| r.receipts[j])
            .min()
            .unwrap_or(first.receipts[j]);
        for s in &spectators {
            samples.spectator_lag.push(micros(s.receipts[j] - earliest));
        }
    }
    for (change, sent) in records
        .iter()
        .filter(|r| r.player)
        .flat_map(|r| r.acts.iter())
    {
        let Some(j) = change.checked_sub(1).filter(|&j| j < changes) else {
            continue;
        };
        for s in &spectators {
            samples
                .act_to_spectator
                .push(micros(s.receipts[j].saturating_duration_since(*sent)));
        }
    }
}
