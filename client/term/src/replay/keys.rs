//! What a key asks of a replay: move through its steps, run or stop autoplay and set its
//! speed, scroll the log, quit.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The keys, for the replay's step line (↑↓ and PgUp/PgDn scroll the log too).
pub const REPLAY_KEYS: &str = "→/← step · g/G start/end · space autoplay · +/- speed · q quit";

/// One request from the person watching a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayCommand {
    /// → `l` `n`: one step forward.
    Forward,
    /// ← `h` `p`: one step back.
    Back,
    /// Home `g`: the start.
    Start,
    /// End `G`: the result.
    End,
    /// Space: start or stop autoplay.
    Toggle,
    /// `+`: each step shown for less time.
    Faster,
    /// `-`: each step shown for longer.
    Slower,
    /// ↑ `k` PgUp: the log back by this many lines.
    ScrollBack(usize),
    /// ↓ `j` PgDn: the log forward by this many lines.
    ScrollForward(usize),
    /// `q` Esc Ctrl-C: leave.
    Quit,
}

/// Lines a page key scrolls the log by.
const PAGE: usize = 10;

/// The command a key press asks for in a replay, if any (releases are ignored).
pub fn replay_command_for_key(key: KeyEvent) -> Option<ReplayCommand> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    Some(match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => ReplayCommand::Quit,
        KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('n') => ReplayCommand::Forward,
        KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('p') => ReplayCommand::Back,
        KeyCode::Home | KeyCode::Char('g') => ReplayCommand::Start,
        KeyCode::End | KeyCode::Char('G') => ReplayCommand::End,
        KeyCode::Char(' ') => ReplayCommand::Toggle,
        KeyCode::Char('+') | KeyCode::Char('=') => ReplayCommand::Faster,
        KeyCode::Char('-') | KeyCode::Char('_') => ReplayCommand::Slower,
        KeyCode::Up | KeyCode::Char('k') => ReplayCommand::ScrollBack(1),
        KeyCode::Down | KeyCode::Char('j') => ReplayCommand::ScrollForward(1),
        KeyCode::PageUp => ReplayCommand::ScrollBack(PAGE),
        KeyCode::PageDown => ReplayCommand::ScrollForward(PAGE),
        KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => ReplayCommand::Quit,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_replay_commands() {
        let key = |code| replay_command_for_key(KeyEvent::new(code, KeyModifiers::NONE));
        let char = |c| key(KeyCode::Char(c));
        for (code, want) in [
            (KeyCode::Right, ReplayCommand::Forward),
            (KeyCode::Left, ReplayCommand::Back),
            (KeyCode::Home, ReplayCommand::Start),
            (KeyCode::End, ReplayCommand::End),
            (KeyCode::Esc, ReplayCommand::Quit),
            (KeyCode::PageUp, ReplayCommand::ScrollBack(PAGE)),
        ] {
            assert_eq!(key(code), Some(want), "{code:?}");
        }
        for (c, want) in [
            ('l', ReplayCommand::Forward),
            ('n', ReplayCommand::Forward),
            ('h', ReplayCommand::Back),
            ('p', ReplayCommand::Back),
            ('g', ReplayCommand::Start),
            ('G', ReplayCommand::End),
            (' ', ReplayCommand::Toggle),
            ('+', ReplayCommand::Faster),
            ('-', ReplayCommand::Slower),
            ('q', ReplayCommand::Quit),
        ] {
            assert_eq!(char(c), Some(want), "{c:?}");
        }
        assert_eq!(char('x'), None);
        assert_eq!(
            replay_command_for_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(ReplayCommand::Quit)
        );
    }
}
