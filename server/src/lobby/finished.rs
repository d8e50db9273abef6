//! The lobby's finished battles: their replays and the list of those recently finished, read
//! from the store's archive.

use battle_protocol::{BattleStatus, ErrorCode, FinishedSummary, Replay};

use super::{Lobby, Refusal, FINISHED_LISTED};

impl Lobby {
    /// The finished battle `battle_id` as its spectators saw it, rebuilt from what the
    /// store kept. Blocking (it may read the database and replays every step): call it off
    /// the runtime's threads.
    pub fn replay(&self, battle_id: &str) -> Result<Replay, Refusal> {
        let live = self
            .battles
            .get(battle_id)
            .map(|entry| entry.summary.status);
        if live.is_some_and(|status| status != BattleStatus::Finished) {
            return Err(Refusal::new(
                ErrorCode::NotFinished,
                format!(
                    "battle {battle_id:?} is still being played: spectate it; its replay \
                     comes once it is over"
                ),
            ));
        }
        let ended = self
            .store
            .archive()
            .get(battle_id)
            .map_err(|err| {
                tracing::error!(battle = %battle_id, %err, "cannot read a kept battle");
                Refusal::new(
                    ErrorCode::Internal,
                    format!("cannot read the battle: {err}"),
                )
            })?
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::NoSuchBattle,
                    format!(
                        "no finished battle {battle_id:?} is kept (it may be past the \
                         server's replay retention, or never existed)"
                    ),
                )
            })?;
        if ended.ended_at > crate::store::unix_now_ms() {
            return Err(Refusal::new(
                ErrorCode::NotFinished,
                format!(
                    "battle {battle_id:?} is over, but its spectators have not been shown the \
                     end yet (it has a spectator delay): its replay comes then"
                ),
            ));
        }
        crate::replay::build(&ended, &self.config).map_err(|err| {
            Refusal::new(
                ErrorCode::NoSuchBattle,
                format!("battle {battle_id:?} is kept but this server cannot replay it: {err}"),
            )
        })
    }

    /// The most recently finished public battles still kept, newest first (at most
    /// [`FINISHED_LISTED`]). Blocking, as [`Lobby::replay`].
    pub fn recently_finished(&self) -> Result<Vec<FinishedSummary>, Refusal> {
        self.store.archive().recent(FINISHED_LISTED).map_err(|err| {
            tracing::error!(%err, "cannot read the finished battles");
            Refusal::new(
                ErrorCode::Internal,
                format!("cannot read the finished battles: {err}"),
            )
        })
    }
}
