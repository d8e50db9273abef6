//! The cloneable way into a battle actor: straight into its queue, or, in a cluster, through
//! the node that owns the battle wherever it is now.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::Command;

/// Sends commands to one battle. Cheap to clone.
#[derive(Debug, Clone)]
pub enum BattleHandle {
    /// The actor runs here: its queue.
    Local(mpsc::Sender<Command>),
    /// In a cluster: the battle's actor wherever it runs now (here, or another node).
    Routed(Arc<dyn Route>),
}

/// In a cluster: how a battle is found at every command, its actor here if it runs here,
/// else its owner elsewhere (implemented by the cluster). A battle that moves keeps its
/// handles.
pub trait Route: Send + Sync + std::fmt::Debug {
    /// The actor's queue, if the battle runs on this node.
    fn local(&self) -> Option<mpsc::Sender<Command>>;
    /// Send `command` to the node that owns the battle.
    fn forward(&self, command: Command) -> Result<(), BattleGone>;
    /// Whether this node still follows the battle for one of its connections.
    fn followed(&self) -> bool;
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

    /// In a cluster: the handle of a battle, wherever `route` finds it.
    pub(crate) fn routed(route: Arc<dyn Route>) -> BattleHandle {
        BattleHandle::Routed(route)
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
                None => !routed.followed(),
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
