//! Finished battles, played back: the list of recently finished battles ([`finished`]),
//! stepping through one in the full-screen UI ([`viewer`], moved by a [`Stepper`] from
//! [`keys`]), the same as plain text ([`text`]), and saving it to a file ([`export`]).
//!
//! A replay's views are the spectator envelope without `seats` and `clocks`, `game.log` in
//! place: step 0 is the start (every seat set up), each later step one input's change,
//! the last the result. The server sends the replay whole (`replay`), so stepping back and
//! forth needs no connection.

pub mod export;
pub mod finished;
pub mod keys;
pub mod stepper;
pub mod text;
pub mod viewer;

pub use stepper::Stepper;

use battle_protocol::{ErrorCode, Replay};

use super::share::watch_command;
use super::SessionError;

/// The sentence for a `replay` request of `battle_id` that the server refused for a reason
/// people can act on (no such finished battle, or one still being played); `None` for any
/// other failure.
pub fn refusal(err: &SessionError, server: &str, battle_id: &str) -> Option<String> {
    let SessionError::Refused { code, .. } = err else {
        return None;
    };
    match code {
        ErrorCode::NoSuchBattle => Some(format!(
            "no finished battle {battle_id} is kept by this server: it may have expired, or \
             never existed"
        )),
        ErrorCode::NotFinished => Some(format!(
            "battle {battle_id} is still being played; watch it with: {}",
            watch_command(server, battle_id)
        )),
        _ => None,
    }
}

/// The first status line of a replay at `now_ms`: when it ended, whether it was seeded, and
/// its outcome (last, as it may be long).
pub fn intro(replay: &Replay, now_ms: u64) -> String {
    let seeded = if replay.seeded { " · seeded" } else { "" };
    format!(
        "ended {}{seeded} · {}",
        finished::ago(replay.ended_at, now_ms),
        replay.outcome.summary
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::DEFAULT_SERVER;

    #[test]
    fn the_intro_says_when_it_ended_before_how() {
        let replay: Replay = serde_json::from_value(serde_json::json!({
            "battle_id": "b1", "ruleset": "synergy", "version": 3, "seats": 2, "bots": [1],
            "seeded": true, "outcome": {"summary": "Player wins.", "winners": [0]},
            "ended_at": 1_000, "start": {}, "steps": []
        }))
        .expect("a replay");
        assert_eq!(
            intro(&replay, 181_000),
            "ended 3 min ago · seeded · Player wins."
        );
    }

    #[test]
    fn refusals_people_can_act_on_get_a_sentence() {
        let refused = |code| SessionError::Refused {
            code,
            message: "whatever the server says".into(),
        };
        assert_eq!(
            refusal(&refused(ErrorCode::NoSuchBattle), DEFAULT_SERVER, "b1").as_deref(),
            Some("no finished battle b1 is kept by this server: it may have expired, or never existed")
        );
        assert_eq!(
            refusal(&refused(ErrorCode::NotFinished), DEFAULT_SERVER, "b1").as_deref(),
            Some("battle b1 is still being played; watch it with: battle-client watch b1")
        );
        assert_eq!(
            refusal(&refused(ErrorCode::ServerBusy), DEFAULT_SERVER, "b1"),
            None
        );
        assert_eq!(
            refusal(&SessionError::NotConnected, DEFAULT_SERVER, "b1"),
            None
        );
    }
}
