//! Gambit's words for help: the help box (the panel's keys, then how the game plays), the
//! key hints of the bottom line (what the keys do in the current phase), and the extra
//! lines plain mode's `help` prints.

use super::edit::GambitUi;
use super::Screen;
use crate::term::reconnect::Link;
use crate::ViewTracker;

/// The keys of the gambit panel, for the help box.
const KEYS: [&str; 10] = [
    "Tab ← →    select a character (yours, then the other side's); ↑ ↓ or 1-3 select a rule slot",
    "Enter      edit the selected rule: ↑ ↓ pick the field (skill, 2 conditions, target),",
    "           ← → change its value, Enter sets the rule, Esc closes the editor unsent",
    "x          clear the selected rule · [ ] (or u d) move it up or down",
    "s          start the fight (PvP: say you are ready) · p pause / resume the fight (PvE)",
    "1-3 1-3    after a won encounter: offered skill, then the character who learns it",
    "           (Enter: the selected character) · k skip the offered skills",
    "PgUp PgDn Home End  scroll the log (the arrows select here)",
    "r reconnect · ? show or hide this help · q quit (a seat stays yours)",
    "Moves that are not legal right now are refused before they reach the server.",
];

/// How gambit plays, for the help box.
const RULES: [&str; 16] = [
    "How gambit plays",
    "You program a party of three (A, B, C) with up to 3 IF-THEN rules each; the fight then runs",
    "by itself, one tick at a time. Each idle character reads its rules top to bottom: the first",
    "rule whose conditions all hold (none: always) and whose skill finds a valid target fires.",
    "A busy or stunned character does not choose. The \"why\" lines say why each rule fired or not.",
    "Conditions test own, an ally's or an enemy's HP (below 25, 50 or 75%), a knocked-out or",
    "poisoned ally, a taunting or acting enemy, no shield left, more than 2 enemies.",
    "A skill takes 1-4 ticks: queued in the tick it is chosen, executing after, landing when its",
    "ticks run out; its targets are locked when it is queued (the intent line → shows them).",
    "Targeting: the skill's own, lowest HP, highest HP, first in order (A, B, C; enemies by id),",
    "lowest HP ignoring taunt, or itself. A taunting unit must be picked by the by-HP modes.",
    "Shields absorb damage first; defending halves damage before shields; poison hurts every",
    "tick. Statuses show how many ticks they still last.",
    "PvE: six encounters, the last a boss; you may pause to edit rules. After a won encounter the",
    "party heals and one character may learn an offered skill. PvP: both parties are programmed",
    "in secret, then fight once.",
];

/// The gambit help box: its keys, then how the game plays.
pub fn help_lines(_tracker: &ViewTracker) -> Vec<String> {
    let mut lines: Vec<String> = KEYS.iter().map(|l| (*l).to_owned()).collect();
    lines.push(String::new());
    lines.extend(RULES.iter().map(|l| (*l).to_owned()));
    lines
}

/// Plain mode's extra help lines for gambit.
pub const PLAIN_HELP: [&str; 4] = [
    "gambit: play N sends the N-th action of the `your move:` list; a rule is set with",
    "  play N CONDITIONS SKILL SLOT TARGET in the order the list gives, e.g.",
    "  play 1 always strike 3 null (conditions comma-separated, [] for none; target null: the skill's own)",
    "  pause, resume, start, ready and skip send that action when it is legal",
];

/// The bottom line's key hints on the gambit panel, for what can be done now.
pub fn key_hints(screen: &Screen) -> String {
    let tracker = screen.tracker;
    let closed = GambitUi::default();
    let ui = screen.gambit.unwrap_or(&closed);
    if let Link::Failed(_) = screen.link {
        return "not connected · r reconnect · Tab/←→ unit · PgUp/PgDn log · ? help · q quit"
            .to_owned();
    }
    if tracker.is_over() {
        return "battle over · Tab/←→ unit · PgUp/PgDn log · ? help · q quit".to_owned();
    }
    if tracker.seat().is_none() {
        return "spectating (read-only) · Tab/←→ unit · ↑↓ slot · PgUp/PgDn log · ? help · q quit"
            .to_owned();
    }
    if ui.draft.is_some() {
        return "↑↓ field · ←→ value · Enter set the rule · Esc close the editor · ? help"
            .to_owned();
    }
    let game = tracker.game();
    let phase = game.and_then(|g| g["phase"].as_str()).unwrap_or_default();
    let pvp = game.is_some_and(|g| g["mode"] == "pvp");
    match phase {
        "reward" if ui.offer.is_some() => {
            "1-3 who learns it · Enter the selected one · Esc back · k skip · ? help · q quit"
        }
        "reward" => {
            "1-3 offered skill, then 1-3 character · k skip · PgUp/PgDn log · ? help · q quit"
        }
        "planning" if pvp => {
            "Tab/←→ unit · ↑↓ slot · Enter edit · x clear · [ ] move · s ready · ? help · q quit"
        }
        "planning" => {
            "Tab/←→ unit · ↑↓ slot · Enter edit · x clear · [ ] move · s start · ? help · q quit"
        }
        "paused" => {
            "Tab/←→ unit · ↑↓ slot · Enter edit · x clear · [ ] move · p resume · ? help · q quit"
        }
        "fighting" if !pvp => "p pause · Tab/←→ unit · ↑↓ slot · PgUp/PgDn log · ? help · q quit",
        _ => "Tab/←→ unit · ↑↓ slot · PgUp/PgDn log · ? help · q quit",
    }
    .to_owned()
}
