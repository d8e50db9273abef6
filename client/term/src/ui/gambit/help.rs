//! Gambit's words for help: the panel's keys (for the "how to play" page, whose rules part
//! is [`help::gambit`](crate::ui::help::gambit)), the key hints of the bottom line (what
//! the keys do in the current phase), and the extra lines plain mode's `help` prints.

use super::edit::GambitUi;
use super::Screen;
use crate::reconnect::Link;

/// The keys of the gambit panel, for the "how to play" page.
pub const KEYS: [&str; 10] = [
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

/// Plain mode's extra help lines for gambit.
pub const PLAIN_HELP: [&str; 4] = [
    "gambit: play N sends the N-th action of the `your move:` list; a rule is set with",
    "  play N CONDITIONS SKILL SLOT TARGET in the order the list gives, e.g.",
    "  play 1 always strike 3 null (conditions comma-separated, [] for none; target null: the skill's own)",
    "  pause, resume, start, ready and skip send that action when it is legal",
];

/// The bottom line's key hints on the gambit panel, for what can be done now.
pub fn key_hints(screen: &Screen<'_>) -> String {
    let tracker = screen.tracker;
    let closed = GambitUi::default();
    let ui = screen.gambit.unwrap_or(&closed);
    if let Link::Failed(_) = screen.link {
        return "not connected · r reconnect · Tab/←→ unit · PgUp/PgDn log · ? how to play · q quit"
            .to_owned();
    }
    if tracker.is_over() {
        return "battle over · Tab/←→ unit · PgUp/PgDn log · ? how to play · q quit".to_owned();
    }
    if tracker.seat().is_none() {
        return "spectating (read-only) · Tab/←→ unit · ↑↓ slot · PgUp/PgDn log · ? how to play · q quit"
            .to_owned();
    }
    if ui.draft.is_some() {
        return "↑↓ field · ←→ value · Enter set the rule · Esc close the editor · ? how to play"
            .to_owned();
    }
    let game = tracker.game();
    let phase = game.and_then(|g| g["phase"].as_str()).unwrap_or_default();
    let pvp = game.is_some_and(|g| g["mode"] == "pvp");
    match phase {
        "reward" if ui.offer.is_some() => {
            "1-3 who learns it · Enter the selected one · Esc back · k skip · ? how to play · q quit"
        }
        "reward" => {
            "1-3 offered skill, then 1-3 character · k skip · PgUp/PgDn log · ? how to play · q quit"
        }
        "planning" if pvp => {
            "Tab/←→ unit · ↑↓ slot · Enter edit · x clear · [ ] move · s ready · ? how to play · q quit"
        }
        "planning" => {
            "Tab/←→ unit · ↑↓ slot · Enter edit · x clear · [ ] move · s start · ? how to play · q quit"
        }
        "paused" => {
            "Tab/←→ unit · ↑↓ slot · Enter edit · x clear · [ ] move · p resume · ? how to play · q quit"
        }
        "fighting" if !pvp => "p pause · Tab/←→ unit · ↑↓ slot · PgUp/PgDn log · ? how to play · q quit",
        _ => "Tab/←→ unit · ↑↓ slot · PgUp/PgDn log · ? how to play · q quit",
    }
    .to_owned()
}
