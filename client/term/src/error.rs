//! `SessionError`: why a terminal session could not start, enter a battle or send a move.

use battle_protocol::ErrorCode;

use battle_client::ClientError;

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The connection itself failed (could not connect, closed, timed out).
    #[error(transparent)]
    Connection(#[from] ClientError),
    /// The server refused the request.
    #[error("the server refused: {message} ({code})")]
    Refused {
        /// The stable error code.
        code: ErrorCode,
        /// The server's explanation.
        message: String,
    },
    /// What was asked for cannot be done on this server (an unknown ruleset or sample); the
    /// message says what there is.
    #[error("{0}")]
    Invalid(String),
    /// The server answered with something this client did not expect at that point.
    #[error("unexpected answer from the server: {0}")]
    Unexpected(String),
    /// The session has no live connection right now (it is reconnecting or has failed).
    #[error("not connected to the server")]
    NotConnected,
}

impl SessionError {
    /// True when retrying later may help: the connection failed, or the server refused
    /// for a while only (in a cluster: the battle is moving to a live node, or the shared
    /// store is out of reach), rather than refusing the request itself.
    pub fn is_transient(&self) -> bool {
        match self {
            SessionError::Connection(_) | SessionError::NotConnected => true,
            SessionError::Refused { code, .. } => matches!(
                code,
                ErrorCode::NodeLost | ErrorCode::StoreUnavailable | ErrorCode::ServerBusy
            ),
            SessionError::Invalid(_) | SessionError::Unexpected(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(code: ErrorCode) -> SessionError {
        SessionError::Refused {
            code,
            message: String::new(),
        }
    }

    #[test]
    fn a_battle_moving_between_nodes_is_worth_another_try_and_a_bad_token_is_not() {
        assert!(refused(ErrorCode::NodeLost).is_transient());
        assert!(refused(ErrorCode::StoreUnavailable).is_transient());
        assert!(!refused(ErrorCode::BadToken).is_transient());
        assert!(!refused(ErrorCode::NoSuchBattle).is_transient());
        assert!(SessionError::NotConnected.is_transient());
    }
}
