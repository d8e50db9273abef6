//! What a person can ask for, from a key press (full-screen UI) or a typed line (plain mode).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// One request from the person at the keyboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Play the card at this 1-based hand position (generic rulesets: the n-th legal action).
    Play(usize),
    /// Send the n-th legal action, an open one, filled with these values (plain mode:
    /// `play N VALUES...`, one per parameter).
    Fill(usize, Vec<String>),
    /// End the turn.
    EndTurn,
    /// Show or hide the help.
    Help,
    /// Scroll the log back (towards older entries) by this many lines.
    ScrollBack(usize),
    /// Scroll the log forward (towards the newest entry) by this many lines.
    ScrollForward(usize),
    /// Jump back to the newest log entries.
    ScrollEnd,
    /// Try to reconnect now (after the client gave up, or to take a replaced seat back).
    Retry,
    /// Leave the client (a seat stays ours for `rejoin`).
    Quit,
    /// Gambit: pause the running fight, or resume the paused one (whichever is legal).
    PauseResume,
    /// Gambit: start the fight (PvP: say you are ready).
    Start,
    /// Gambit: take none of the offered skills.
    Skip,
    /// Move the selection: gambit's character, rule slot, or the editor's field and value;
    /// elsewhere the cursor over the legal actions, or the field and value of the action
    /// being filled.
    Nav(Nav),
    /// Gambit: open the rule editor on the selected slot, send the rule being edited, or
    /// take the chosen offered skill for the selected character. Elsewhere: take the action
    /// under the cursor, or send the one being filled.
    Confirm,
    /// Close the rule editor (gambit: or forget the chosen offered skill), or the action
    /// being filled, without sending.
    Cancel,
    /// Space: choose the value under the cursor of a list being filled, or take it back.
    Toggle,
    /// Give up the battle (the full-screen UI asks for the key twice).
    Resign,
    /// Gambit: clear the selected rule slot.
    ClearRule,
    /// Gambit: move the selected rule one slot up (`true`) or down (`false`).
    MoveRule(bool),
}

/// A selection move in gambit's panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nav {
    /// ↑: the slot (or editor field) above.
    Up,
    /// ↓: the slot (or editor field) below.
    Down,
    /// ←: the previous character (in the editor: the previous value).
    Left,
    /// →: the next character (in the editor: the next value).
    Right,
    /// Tab: the next character (in the editor: the next field).
    Next,
    /// Shift-Tab: the previous character (in the editor: the previous field).
    Previous,
}

/// The help text, one entry per line, shared by the UI's help box and plain mode.
pub const HELP_LINES: [&str; 10] = [
    "1..9       play the card with that number in your hand (play N in plain mode)",
    "           an action with values to choose: play N VALUES in plain mode (--plain)",
    "e          end your turn (end)",
    "↑ ↓ PgUp PgDn  scroll the log back and forward; End shows the newest entries",
    "r          reconnect now, after the connection was given up or the seat taken over",
    "?          show or hide this help (help)",
    "q          quit; a seat stays yours, the exact rejoin command is printed (quit)",
    "!          resign: you lose the battle at once (press twice; resign)",
    "Moves that are not legal right now are refused before they reach the server.",
    "Spectators only watch: the keys that act do nothing for them.",
];

/// The help text of the full-screen UI in a battle played through the legal-action picker
/// (every ruleset but synergy and gambit).
pub const PICKER_HELP_LINES: [&str; 12] = [
    "↑ ↓        move the cursor over the legal actions",
    "Enter      take the action under the cursor; 1..9 take that action directly",
    "           an action marked … has values to choose: it opens a form where",
    "           ↑ ↓ move between fields, ← → or 1..9 (0 too for numbers) choose a value,",
    "           in a list 1..9 (or ← → and space) choose in order, again to take back;",
    "           Enter sends it, Esc goes back without sending",
    "e          end your turn",
    "PgUp PgDn  scroll the log back and forward; End shows the newest entries",
    "r          reconnect now, after the connection was given up or the seat taken over",
    "?          show or hide this help",
    "q          quit; a seat stays yours, the exact rejoin command is printed",
    "!          resign: you lose the battle at once (press twice)",
];

/// Lines a page key scrolls the log by.
const PAGE: usize = 10;

/// The command a key press asks for, if any. Releases and repeats are ignored, and Ctrl-C
/// quits like `q`.
pub fn command_for_key(key: KeyEvent) -> Option<Command> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Some(Command::Quit),
        KeyCode::Char(c @ '1'..='9') => c.to_digit(10).map(|d| Command::Play(d as usize)),
        KeyCode::Char('e') | KeyCode::Char('E') => Some(Command::EndTurn),
        KeyCode::Char('?') | KeyCode::F(1) => Some(Command::Help),
        KeyCode::Up | KeyCode::Char('k') => Some(Command::ScrollBack(1)),
        KeyCode::Down | KeyCode::Char('j') => Some(Command::ScrollForward(1)),
        KeyCode::PageUp => Some(Command::ScrollBack(PAGE)),
        KeyCode::PageDown => Some(Command::ScrollForward(PAGE)),
        KeyCode::Home => Some(Command::ScrollBack(usize::MAX)),
        KeyCode::End => Some(Command::ScrollEnd),
        KeyCode::Char('r') | KeyCode::Char('R') => Some(Command::Retry),
        KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc => Some(Command::Quit),
        KeyCode::Char('p') | KeyCode::Char('P') => Some(Command::PauseResume),
        KeyCode::Char('s') | KeyCode::Char('S') => Some(Command::Start),
        KeyCode::Char('x') | KeyCode::Char('X') | KeyCode::Delete => Some(Command::ClearRule),
        KeyCode::Char('[') | KeyCode::Char('u') => Some(Command::MoveRule(true)),
        KeyCode::Char(']') | KeyCode::Char('d') => Some(Command::MoveRule(false)),
        KeyCode::Tab => Some(Command::Nav(Nav::Next)),
        KeyCode::BackTab => Some(Command::Nav(Nav::Previous)),
        KeyCode::Enter => Some(Command::Confirm),
        KeyCode::Char('!') => Some(Command::Resign),
        _ => None,
    }
}

/// The command a key press asks for in a gambit battle: the arrows move the selection
/// instead of scrolling the log (PgUp/PgDn/Home/End still scroll it), Esc closes the rule
/// editor instead of quitting (`q` quits), `k` skips the offered skills; every other key
/// means what [`command_for_key`] says.
pub fn gambit_command_for_key(key: KeyEvent) -> Option<Command> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    match key.code {
        KeyCode::Up => Some(Command::Nav(Nav::Up)),
        KeyCode::Down => Some(Command::Nav(Nav::Down)),
        KeyCode::Left => Some(Command::Nav(Nav::Left)),
        KeyCode::Right => Some(Command::Nav(Nav::Right)),
        KeyCode::Esc => Some(Command::Cancel),
        KeyCode::Char('k') | KeyCode::Char('K') => Some(Command::Skip),
        KeyCode::Char('j') | KeyCode::Char('J') => None,
        _ => command_for_key(key),
    }
}

/// The command a key press asks for in a battle played through the [legal-action
/// picker](super::picker::Picker) (every ruleset but synergy and gambit): the arrows move the
/// cursor or the value being chosen instead of scrolling the log (PgUp/PgDn/Home/End still
/// scroll it), space chooses in a list, 0 is a digit for numbers, and Esc goes back instead
/// of quitting (`q` quits); every other key means what [`command_for_key`] says.
pub fn picker_command_for_key(key: KeyEvent) -> Option<Command> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    match key.code {
        KeyCode::Up => Some(Command::Nav(Nav::Up)),
        KeyCode::Down => Some(Command::Nav(Nav::Down)),
        KeyCode::Left => Some(Command::Nav(Nav::Left)),
        KeyCode::Right => Some(Command::Nav(Nav::Right)),
        KeyCode::Esc => Some(Command::Cancel),
        KeyCode::Char(' ') => Some(Command::Toggle),
        KeyCode::Char('0') => Some(Command::Play(0)),
        _ => command_for_key(key),
    }
}

/// Parse a plain-mode line: `play N` (or just `N`), `play N VALUES...`, `end`, `help`,
/// `quit`; for gambit also `pause`/`resume`, `start`/`ready` and `skip`.
pub fn parse_line(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |w: &str| -> Result<usize, String> {
        match w.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err(format!("\"{w}\" is not a card position (1, 2, 3, ...)")),
        }
    };
    match words.as_slice() {
        ["play" | "p", n] => number(n).map(Command::Play),
        ["play" | "p", n, values @ ..] => {
            let values = values.iter().map(|v| (*v).to_owned()).collect();
            number(n).map(|n| Command::Fill(n, values))
        }
        [n] if n.chars().all(|c| c.is_ascii_digit()) => number(n).map(Command::Play),
        ["end" | "e" | "end_turn"] => Ok(Command::EndTurn),
        ["help" | "?" | "h"] => Ok(Command::Help),
        ["retry" | "reconnect"] => Ok(Command::Retry),
        ["quit" | "q" | "exit"] => Ok(Command::Quit),
        ["pause" | "resume"] => Ok(Command::PauseResume),
        ["start" | "ready"] => Ok(Command::Start),
        ["skip"] => Ok(Command::Skip),
        ["resign"] => Ok(Command::Resign),
        [] => Err("empty command; type help".to_owned()),
        _ => Err(format!("unknown command \"{}\"; type help", line.trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_commands() {
        let k = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(command_for_key(k('3')), Some(Command::Play(3)));
        assert_eq!(command_for_key(k('e')), Some(Command::EndTurn));
        assert_eq!(command_for_key(k('q')), Some(Command::Quit));
        assert_eq!(command_for_key(k('?')), Some(Command::Help));
        assert_eq!(command_for_key(k('0')), None);
        assert_eq!(command_for_key(k('r')), Some(Command::Retry));
        let code = |c| KeyEvent::new(c, KeyModifiers::NONE);
        assert_eq!(
            command_for_key(code(KeyCode::Up)),
            Some(Command::ScrollBack(1))
        );
        assert_eq!(
            command_for_key(code(KeyCode::PageDown)),
            Some(Command::ScrollForward(PAGE))
        );
        assert_eq!(
            command_for_key(code(KeyCode::End)),
            Some(Command::ScrollEnd)
        );
        assert_eq!(
            command_for_key(code(KeyCode::Home)),
            Some(Command::ScrollBack(usize::MAX))
        );
        assert_eq!(
            command_for_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Command::Quit)
        );
        assert_eq!(command_for_key(k('p')), Some(Command::PauseResume));
        assert_eq!(command_for_key(k('[')), Some(Command::MoveRule(true)));
        assert_eq!(
            command_for_key(code(KeyCode::Enter)),
            Some(Command::Confirm)
        );
    }

    #[test]
    fn gambit_keys_repurpose_arrows_esc_and_k() {
        let code = |c| KeyEvent::new(c, KeyModifiers::NONE);
        let k = |c| code(KeyCode::Char(c));
        assert_eq!(
            gambit_command_for_key(code(KeyCode::Up)),
            Some(Command::Nav(Nav::Up))
        );
        assert_eq!(
            gambit_command_for_key(code(KeyCode::Esc)),
            Some(Command::Cancel)
        );
        assert_eq!(gambit_command_for_key(k('k')), Some(Command::Skip));
        assert_eq!(gambit_command_for_key(k('j')), None);
        assert_eq!(gambit_command_for_key(k('q')), Some(Command::Quit));
        assert_eq!(gambit_command_for_key(k('2')), Some(Command::Play(2)));
        assert_eq!(
            gambit_command_for_key(code(KeyCode::PageUp)),
            Some(Command::ScrollBack(PAGE))
        );
        assert_eq!(
            gambit_command_for_key(code(KeyCode::BackTab)),
            Some(Command::Nav(Nav::Previous))
        );
    }

    #[test]
    fn lines_parse() {
        assert_eq!(parse_line("play 2"), Ok(Command::Play(2)));
        assert_eq!(parse_line(" 4 "), Ok(Command::Play(4)));
        assert_eq!(parse_line("end"), Ok(Command::EndTurn));
        assert_eq!(parse_line("quit"), Ok(Command::Quit));
        assert_eq!(parse_line("pause"), Ok(Command::PauseResume));
        assert_eq!(parse_line("ready"), Ok(Command::Start));
        assert_eq!(parse_line("skip"), Ok(Command::Skip));
        assert_eq!(parse_line("resign"), Ok(Command::Resign));
        assert_eq!(
            command_for_key(KeyEvent::new(KeyCode::Char('!'), KeyModifiers::NONE)),
            Some(Command::Resign)
        );
        assert_eq!(
            parse_line("play 1 5,9"),
            Ok(Command::Fill(1, vec!["5,9".to_owned()]))
        );
        assert!(parse_line("play 0").is_err());
        assert!(parse_line("dance").is_err());
    }
}
