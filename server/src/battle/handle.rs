//! The cloneable way into a battle actor: straight into its queue, or, in a cluster, through
//! the node that owns the battle wherever it is now.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::Command;
use crate::cluster::forward::Forward;
use crate::cluster::wire::Forwarded;
use crate::cluster::Cluster;
use crate::connection::outbox::Outbox;

/// Sends commands to one battle. Cheap to clone.
#[derive(Debug, Clone)]
pub enum BattleHandle {
    /// The actor runs here: its queue.
    Local(mpsc::Sender<Command>),
    /// In a cluster: the battle's actor wherever it runs now (here, or another node).
    Routed(Arc<Routed>),
}

/// A battle of a cluster, found by id at every command: its actor here if it runs here,
/// else its owner through the cluster. A battle that moves keeps its handles.
#[derive(Debug)]
pub struct Routed {
    battle: String,
    cluster: Arc<Cluster>,
}

/// Why [`BattleHandle::try_offer`] did not queue a command.
#[derive(Debug)]
pub enum Offered {
    /// The queue is full; here is the command back.
    Full(Command),
    /// The battle has ended and its actor is gone.
    Gone,
}

/// The battle has ended and its actor is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleGone;

impl BattleHandle {
    pub(crate) fn new(tx: mpsc::Sender<Command>) -> BattleHandle {
        BattleHandle::Local(tx)
    }

    /// In a cluster: the handle of `battle`, wherever it runs.
    pub(crate) fn routed(battle: &str, cluster: Arc<Cluster>) -> BattleHandle {
        BattleHandle::Routed(Arc::new(Routed {
            battle: battle.to_string(),
            cluster,
        }))
    }

    /// Queue a command, waiting while the actor's queue is full (back-pressure on the
    /// sending connection only).
    pub async fn send(&self, command: Command) -> Result<(), BattleGone> {
        match self {
            BattleHandle::Local(tx) => tx.send(command).await.map_err(|_| BattleGone),
            BattleHandle::Routed(routed) => match routed.local() {
                Some(tx) => tx.send(command).await.map_err(|_| BattleGone),
                None => routed.forward(command),
            },
        }
    }

    /// Whether the battle has ended and its actor is gone (in a cluster: whether this node
    /// no longer runs it nor follows it for a connection).
    pub fn is_closed(&self) -> bool {
        match self {
            BattleHandle::Local(tx) => tx.is_closed(),
            BattleHandle::Routed(routed) => match routed.local() {
                Some(tx) => tx.is_closed(),
                None => !routed.cluster.follows.follows(&routed.battle),
            },
        }
    }

    /// Queue a command if there is room right now.
    pub fn try_send(&self, command: Command) -> Result<(), BattleGone> {
        self.try_offer(command).map_err(|_| BattleGone)
    }

    /// Queue a command if there is room right now, or say why not (handing it back when the
    /// queue is full, to be sent with [`BattleHandle::send`]).
    pub fn try_offer(&self, command: Command) -> Result<(), Offered> {
        let tx = match self {
            BattleHandle::Local(tx) => tx.clone(),
            BattleHandle::Routed(routed) => match routed.local() {
                Some(tx) => tx,
                None => return routed.forward(command).map_err(|_| Offered::Gone),
            },
        };
        tx.try_send(command).map_err(|err| match err {
            mpsc::error::TrySendError::Full(command) => Offered::Full(command),
            mpsc::error::TrySendError::Closed(_) => Offered::Gone,
        })
    }
}

impl Routed {
    /// The actor's queue, if the battle runs here.
    fn local(&self) -> Option<mpsc::Sender<Command>> {
        let lobby = self.cluster.lobby()?;
        match lobby.local_handle(&self.battle)? {
            BattleHandle::Local(tx) => Some(tx),
            BattleHandle::Routed(_) => None,
        }
    }

    /// Send `command` to the node that owns the battle.
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
                matched: answer == super::Seating::Matched,
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
