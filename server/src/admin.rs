//! The operator's commands on battles set aside (quarantined): `battle-server quarantine
//! list`, `retry ID` and `drop ID`, on a data directory (changes only while no server holds
//! it; the list also beside a running one) or, with `--cluster-url`, on a cluster's Redis.
//!
//! `retry` first replays the battle with this build's rulesets: one that replays leaves
//! quarantine (a restarted server, or in a cluster the live nodes, bring it back); one that
//! still does not stays set aside with the new reason. `drop` deletes the battle for good.

use std::path::Path;
use std::time::Duration;

use crate::battle::rebuild;
use crate::cluster::{self, ClusterError};
use crate::config::Config;
use crate::store::offline::{Offline, OfflineError};
use crate::store::{unix_now_ms, Quarantined, SavedBattle};

/// What to do with the battles set aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// List them, with why and since when.
    List,
    /// Replay one with this build; if it replays, take it out of quarantine.
    Retry(String),
    /// Delete one for good.
    Drop(String),
}

/// Why a command could not be carried out: one sentence.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// The data directory is held by a server, missing, or unreadable.
    #[error(transparent)]
    Offline(#[from] OfflineError),
    /// Redis cannot be reached.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// Redis refused.
    #[error("the cluster's Redis refused: {0}")]
    Redis(#[from] redis::RedisError),
    /// The battle named is not set aside.
    #[error("no battle {battle:?} is set aside in {place} (`battle-server quarantine list` shows those that are)")]
    NotQuarantined {
        /// The id given.
        battle: String,
        /// The data directory or the cluster.
        place: String,
    },
    /// `retry` replayed it and it still does not replay: it stays set aside.
    #[error(
        "battle {battle} still does not replay on this build, so it stays set aside: {reason}"
    )]
    StillRefused {
        /// The battle.
        battle: String,
        /// Why, as the replay says.
        reason: String,
    },
}

/// Carry out `action` on the data directory `dir`; what to print.
pub fn on_directory(dir: &Path, action: &Action, config: &Config) -> Result<String, AdminError> {
    let place = dir.display().to_string();
    match action {
        Action::List => {
            let store = Offline::read_only(dir)?;
            Ok(listing(&store.quarantined()?, &place))
        }
        Action::Retry(id) => {
            let store = Offline::open(dir)?;
            let Some(kept) = store.get(id)? else {
                return Err(not_quarantined(id, &place));
            };
            let replayed = match store.battle(id)? {
                Some(Ok(saved)) => replays(&saved, config),
                Some(Err(unreadable)) => Err(unreadable),
                None => Err("its records are gone".to_string()),
            };
            match replayed {
                Ok(()) => {
                    store.release(id)?;
                    Ok(format!(
                        "battle {id} replays on this build: it is out of quarantine, and the \
                         next start of the server on {place} restores it (it was set aside: \
                         {})",
                        kept.reason
                    ))
                }
                Err(reason) => {
                    store.set_aside(&Quarantined {
                        reason: reason.clone(),
                        ..kept
                    })?;
                    Err(AdminError::StillRefused {
                        battle: id.clone(),
                        reason,
                    })
                }
            }
        }
        Action::Drop(id) => {
            let mut store = Offline::open(dir)?;
            if !store.drop_battle(id)? {
                return Err(not_quarantined(id, &place));
            }
            Ok(format!(
                "battle {id} is dropped for good: its records are deleted from {place}"
            ))
        }
    }
}

/// Carry out `action` on the cluster whose Redis is at `url`; what to print.
pub async fn on_cluster(url: &str, action: &Action, config: &Config) -> Result<String, AdminError> {
    let mut conn = cluster::quarantine::connect(url).await?;
    let place = format!("the cluster at {url}");
    let listed = cluster::quarantine::list(&mut conn).await?;
    match action {
        Action::List => Ok(listing(&listed, &place)),
        Action::Retry(id) => {
            let Some(kept) = listed.into_iter().find(|q| &q.battle == id) else {
                return Err(not_quarantined(id, &place));
            };
            let replayed = match cluster::quarantine::battle(&mut conn, id).await {
                Ok(saved) => replays(&saved, config),
                Err(err) => Err(err.to_string()),
            };
            if let Err(reason) = replayed {
                return Err(AdminError::StillRefused {
                    battle: id.clone(),
                    reason,
                });
            }
            if !cluster::quarantine::retry(&mut conn, id).await? {
                return Err(not_quarantined(id, &place));
            }
            Ok(format!(
                "battle {id} replays on this build: it is out of quarantine, and a live node \
                 takes it over within a few leases (it was set aside: {})",
                kept.reason
            ))
        }
        Action::Drop(id) => {
            if !cluster::quarantine::drop_battle(&mut conn, id).await? {
                return Err(not_quarantined(id, &place));
            }
            Ok(format!(
                "battle {id} is dropped for good: its records are deleted from {place}"
            ))
        }
    }
}

/// Whether `saved` replays with the rulesets `config` offers; why not.
fn replays(saved: &SavedBattle, config: &Config) -> Result<(), String> {
    rebuild(saved, config)
        .map(|_| ())
        .map_err(|why| format!("its log does not replay on this build: {why}"))
}

fn not_quarantined(battle: &str, place: &str) -> AdminError {
    AdminError::NotQuarantined {
        battle: battle.to_string(),
        place: place.to_string(),
    }
}

/// The battles set aside in `place`, one a line: id, how long ago, why.
fn listing(listed: &[Quarantined], place: &str) -> String {
    if listed.is_empty() {
        return format!("no battle is set aside in {place}\n");
    }
    let now = unix_now_ms();
    let mut text = format!(
        "{} battle{} set aside in {place} (retry with `battle-server quarantine retry ID`, \
         delete with `battle-server quarantine drop ID`):\n",
        listed.len(),
        if listed.len() == 1 { " is" } else { "s are" }
    );
    for q in listed {
        let ago = Duration::from_millis(now.saturating_sub(q.since_ms));
        text.push_str(&format!(
            "{}  set aside {} ago: {}\n",
            q.battle,
            age(ago),
            q.reason
        ));
    }
    text
}

/// A duration as a person reads it: "40 s", "12 min", "3 h", "2 days".
fn age(ago: Duration) -> String {
    let secs = ago.as_secs();
    match secs {
        0..=119 => format!("{secs} s"),
        120..=7_199 => format!("{} min", secs / 60),
        7_200..=172_799 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_says_what_is_set_aside_and_how_to_act_on_it() {
        assert_eq!(
            listing(&[], "./battle-data"),
            "no battle is set aside in ./battle-data\n"
        );
        let q = Quarantined {
            battle: "abc".into(),
            reason: "input 8 is written twice".into(),
            since_ms: unix_now_ms() - 90_000,
        };
        let text = listing(&[q], "./battle-data");
        assert!(
            text.starts_with("1 battle is set aside in ./battle-data"),
            "{text}"
        );
        assert!(text.contains("quarantine retry ID"), "{text}");
        assert!(
            text.contains("abc  set aside 90 s ago: input 8 is written twice"),
            "{text}"
        );
        assert_eq!(age(Duration::from_secs(3 * 3600)), "3 h");
        assert_eq!(age(Duration::from_secs(5 * 86_400)), "5 days");
    }
}
