//! Battles of a cluster reached by id wherever they run: the [`Route`] behind a routed
//! [`BattleHandle`], and commands turned into what another node's actor takes.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::forward::Forward;
use super::wire::Forwarded;
use super::Cluster;
use crate::battle::{BattleGone, BattleHandle, Command, Route, Seating};
use crate::connection::outbox::Outbox;

/// A battle of a cluster, found by id at every command: its actor here if it runs here,
/// else its owner through the cluster.
#[derive(Debug)]
pub struct Routed {
    battle: String,
    cluster: Arc<Cluster>,
}

impl Routed {
    /// The handle of `battle`, wherever it runs.
    pub fn handle(battle: &str, cluster: Arc<Cluster>) -> BattleHandle {
        BattleHandle::routed(Arc::new(Routed {
            battle: battle.to_string(),
            cluster,
        }))
    }
}

impl Route for Routed {
    fn local(&self) -> Option<mpsc::Sender<Command>> {
        let lobby = self.cluster.lobby()?;
        match lobby.local_handle(&self.battle)? {
            BattleHandle::Local(tx) => Some(tx),
            BattleHandle::Routed(_) => None,
        }
    }

    fn forward(&self, command: Command) -> Result<(), BattleGone> {
        let Some((from, cmd)) = forwarded(command) else {
            return Ok(());
        };
        self.cluster.forward(Forward {
            battle: self.battle.clone(),
            from,
            cmd,
        });
        Ok(())
    }

    fn followed(&self) -> bool {
        self.cluster.follows.follows(&self.battle)
    }
}

/// A command as another node's actor takes it: who sent it, and what (`None` for what
/// only a local actor takes).
fn forwarded(command: Command) -> Option<(Outbox, Forwarded)> {
    Some(match command {
        Command::Join {
            from,
            seat,
            setup,
            name,
            req,
            answer,
        } => (
            from,
            Forwarded::Join {
                seat,
                setup,
                name,
                req,
                matched: answer == Seating::Matched,
            },
        ),
        Command::Rejoin { from, token, req } => (from, Forwarded::Rejoin { token, req }),
        Command::Spectate { from, req } => (from, Forwarded::Spectate { req }),
        Command::Act {
            from, action, req, ..
        } => (from, Forwarded::Act { action, req }),
        Command::Resync { from, req } => (from, Forwarded::Resync { req }),
        Command::Leave { from, req } => (from, Forwarded::Leave { req }),
        Command::Resign { from, req } => (from, Forwarded::Resign { req }),
        Command::Disconnected { from } => (from, Forwarded::Disconnected),
        Command::Reattach { from, role } => (from, Forwarded::Reattach { role }),
        Command::LetGo { .. } => return None,
    })
}
