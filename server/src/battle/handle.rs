//! The cloneable way into a battle actor.

use tokio::sync::mpsc;

use super::Command;

/// Sends commands to one battle actor. Cheap to clone.
#[derive(Debug, Clone)]
pub struct BattleHandle {
    tx: mpsc::Sender<Command>,
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
        BattleHandle { tx }
    }

    /// Queue a command, waiting while the actor's queue is full (back-pressure on the
    /// sending connection only).
    pub async fn send(&self, command: Command) -> Result<(), BattleGone> {
        self.tx.send(command).await.map_err(|_| BattleGone)
    }

    /// Whether the battle has ended and its actor is gone.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Queue a command if there is room right now.
    pub fn try_send(&self, command: Command) -> Result<(), BattleGone> {
        self.tx.try_send(command).map_err(|_| BattleGone)
    }

    /// Queue a command if there is room right now, or say why not (handing it back when the
    /// queue is full, to be sent with [`BattleHandle::send`]).
    pub fn try_offer(&self, command: Command) -> Result<(), Offered> {
        self.tx.try_send(command).map_err(|err| match err {
            mpsc::error::TrySendError::Full(command) => Offered::Full(command),
            mpsc::error::TrySendError::Closed(_) => Offered::Gone,
        })
    }
}
