//! Plain mode: no full-screen UI. One line per event or state change goes to the output
//! (new log lines, HP and score changes, turn changes, errors, the result, and a `your move:`
//! line with what the battle asks and what may be typed, or `you may:` when the seat may act
//! without being awaited), and commands are read one per line (`play 2`, `play 1 5,9` for an
//! action with values to choose, `end`, `help`, `quit`). In a timed battle, a line says how
//! long each of your decisions may take as its clock starts. For scripts, and for terminals
//! without full-screen support. Gambit's lines are [`gambit::plain`](super::ui::gambit::plain).

use std::io::{self, BufRead, Write};

use serde_json::Value;
use tokio::sync::mpsc;

use super::choice::resolve;
use super::clock;
use super::feed::Event;
use super::form::needs_choice;
use super::keys::{parse_line, Command, HELP_LINES};
use super::outcome::result_lines;
use super::presence::{free_names, notices, seat_name};
use super::reconnect::Link;
use super::session::AnySession;
use super::ui::{action_words, gambit};
use battle_client::{fill, ViewTracker};

/// How a plain-mode run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The battle finished (the result was printed).
    Finished,
    /// The person quit (or input ended) before the end.
    Quit,
    /// The connection failed for good, or the server dropped us from the battle.
    Lost(String),
}

/// Turns successive views into the lines plain mode prints.
#[derive(Debug, Default)]
pub struct PlainReporter {
    last: Option<Value>,
    prompted_seq: Option<u64>,
    /// Gambit: what the last prompt was made of, so a running fight does not repeat it at
    /// every tick.
    prompted_key: Option<Value>,
    /// The deadline of the last own decision whose clock was told.
    clock_told: Option<u64>,
}

impl PlainReporter {
    /// A reporter that has printed nothing yet.
    pub fn new() -> PlainReporter {
        PlainReporter::default()
    }

    /// The lines describing what changed since the last call (everything, the first time).
    pub fn changes(&mut self, tracker: &ViewTracker) -> Vec<String> {
        let Some(view) = tracker.view() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let prev = self.last.take();
        if prev.is_none() {
            let who = match tracker.seat() {
                Some(seat) => format!("you are {} (seat {seat})", seat_name(view, seat)),
                None => "watching as a spectator".to_owned(),
            };
            out.push(format!(
                "battle {} ({}): {who}",
                tracker.battle_id(),
                text(&view["ruleset"])
            ));
        }
        let before = prev.as_ref();
        out.extend(
            notices(before, tracker)
                .into_iter()
                .map(|n| format!("notice: {n}")),
        );
        if view["game"].is_null() {
            if before.is_none_or(|b| !b["game"].is_null()) {
                let free = match free_names(view) {
                    names if names.is_empty() => String::new(),
                    names => format!("; waiting for {names}"),
                };
                out.push(format!(
                    "waiting: the battle starts when every seat is taken{free}"
                ));
            }
        } else if view["ruleset"] == "synergy" {
            synergy_changes(before.filter(|b| !b["game"].is_null()), view, &mut out);
        } else if gambit::is_gambit(view) {
            gambit::plain::changes(before.filter(|b| !b["game"].is_null()), view, &mut out);
        } else {
            generic_changes(before.filter(|b| !b["game"].is_null()), view, &mut out);
        }
        if before.is_none_or(|b| b["status"] != view["status"]) {
            out.push(format!("status: {}", text(&view["status"])));
        }
        if tracker.outcome().is_some() && before.is_none_or(|b| b["outcome"].is_null()) {
            let lines = if gambit::is_gambit(view) {
                gambit::result_lines(tracker)
            } else {
                result_lines(tracker)
            };
            out.extend(lines.into_iter().map(|l| format!("result: {l}")));
        }
        self.last = Some(view.clone());
        out
    }

    /// The `your move:` line, once per view, when the seat must decide (or `you may:` when it
    /// may act without being awaited) and no move of ours is waiting for its answer.
    pub fn prompt(&mut self, tracker: &ViewTracker, act_pending: bool) -> Option<String> {
        let may_act = tracker.my_turn() || !tracker.legal_actions().is_empty();
        if !may_act || act_pending || tracker.is_over() {
            return None;
        }
        if self.prompted_seq.is_some() && self.prompted_seq == tracker.seq() {
            return None;
        }
        self.prompted_seq = tracker.seq();
        if tracker.view().is_some_and(gambit::is_gambit) {
            let key = gambit::plain::prompt_key(tracker);
            if self.prompted_key.as_ref() == Some(&key) {
                return None;
            }
            self.prompted_key = Some(key);
            return gambit::plain::prompt_line(tracker);
        }
        prompt_line(tracker)
    }

    /// "you have 1:32 to decide (bank 2:15)", once per decision of the viewer's seat whose
    /// clock runs (each decision has a deadline of its own), at `now_ms`.
    pub fn clock(&mut self, tracker: &ViewTracker, now_ms: u64) -> Option<String> {
        let view = tracker.view()?;
        let deadline = clock::my_deadline(view, tracker.seat())?;
        if self.clock_told == Some(deadline) {
            return None;
        }
        self.clock_told = Some(deadline);
        clock::decision_line(view, tracker.seat(), now_ms)
    }

    /// Make the next [`PlainReporter::prompt`] repeat itself (after a refused move).
    pub fn reprompt(&mut self) {
        self.prompted_seq = None;
        self.prompted_key = None;
    }
}

fn synergy_changes(before: Option<&Value>, view: &Value, out: &mut Vec<String>) {
    let game = &view["game"];
    let old_log = before.map_or(0, |b| b["game"]["log"].as_array().map_or(0, Vec::len));
    if let Some(log) = game["log"].as_array() {
        let start = if old_log <= log.len() { old_log } else { 0 };
        out.extend(log[start..].iter().map(|l| format!("log: {}", text(l))));
    }
    for seat in 0..2 {
        let side = &game["sides"][seat];
        let old = before.map(|b| &b["game"]["sides"][seat]);
        for (field, label) in [("hp", "hp"), ("score", "score")] {
            if old.is_none_or(|o| o[field] != side[field]) {
                let from = old.map(|o| format!("{} -> ", o[field])).unwrap_or_default();
                out.push(format!(
                    "{label}: {} {from}{}",
                    seat_name(view, seat),
                    side[field]
                ));
            }
        }
    }
    let turn_key = |v: &Value| (v["game"]["round"].clone(), v["game"]["active"].clone());
    if before.is_none_or(|b| turn_key(b) != turn_key(view)) {
        if let Some(seat) = game["active"].as_u64() {
            let name = seat_name(view, seat as usize);
            let yours = if view["seat"] == seat { " (yours)" } else { "" };
            out.push(format!(
                "turn: round {}, {name}'s turn{yours}",
                game["round"]
            ));
        }
    }
}

fn generic_changes(before: Option<&Value>, view: &Value, out: &mut Vec<String>) {
    match before {
        None => out.push(format!("game: {}", view["game"])),
        Some(b) => {
            let ops = battle_protocol::json_patch::diff(&b["game"], &view["game"]);
            for op in ops.0 {
                out.push(format!(
                    "change: {}",
                    serde_json::to_string(&op).unwrap_or_default()
                ));
            }
        }
    }
    if before.is_none_or(|b| b["to_act"] != view["to_act"]) {
        out.push(format!("to act: {}", view["to_act"]));
    }
}

/// The prompt, or `None` when there is nothing this seat may type now.
fn prompt_line(tracker: &ViewTracker) -> Option<String> {
    let view = tracker.view()?;
    let legal = tracker.legal_actions();
    let mut options = Vec::new();
    let mut detail = String::new();
    if view["ruleset"] == "synergy" {
        let seat = tracker.seat().unwrap_or(0);
        let side = &view["game"]["sides"][seat];
        let hand = side["hand"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        let cards: Vec<String> = hand
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let synergy = if c["synergy"] == true {
                    ", synergy now"
                } else {
                    ""
                };
                format!(
                    "[{}] {} ({} {}, cost {}{synergy}: {})",
                    i + 1,
                    text(&c["name"]),
                    text(&c["sigil"]),
                    text(&c["type"]),
                    c["cost"],
                    text(&c["text"])
                )
            })
            .collect();
        detail = format!("energy {}; hand: {}; ", side["energy"], cards.join(" "));
        for (i, c) in hand.iter().enumerate() {
            if legal
                .iter()
                .any(|a| a["kind"] == "play_card" && a["card"] == c["id"])
            {
                options.push(format!("play {}", i + 1));
            }
        }
    } else {
        for (i, action) in legal.iter().enumerate() {
            if action["kind"] != "end_turn" {
                let words = action_words(view, tracker.seat(), action);
                // Words of the ruleset's own name the values to type; the protocol's
                // description already does.
                let own_words = words != fill::describe(action);
                options.push(if needs_choice(action) && own_words {
                    // The values to type, one per parameter, in the entry's order.
                    let values: Vec<String> = fill::parameters(action)
                        .into_iter()
                        .map(|(name, schema)| format!("{name} = {}", fill::describe_schema(schema)))
                        .collect();
                    format!("play {} VALUES = {words} ({})", i + 1, values.join("; "))
                } else if needs_choice(action) {
                    format!("play {} VALUES = {words}", i + 1)
                } else {
                    format!("play {} = {words}", i + 1)
                });
            }
        }
    }
    if legal.iter().any(|a| a["kind"] == "end_turn") {
        options.push("end".to_owned());
    }
    let asked = match view["prompt"]["text"].as_str() {
        Some(text) => format!("{text} "),
        None => String::new(),
    };
    if options.is_empty() {
        return None;
    }
    Some(if tracker.my_turn() {
        format!("your move: {asked}{detail}you may: {}", options.join(", "))
    } else {
        format!("you may (not awaited): {}", options.join(", "))
    })
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Read stdin lines on a thread of their own; `None` arrives when input ends.
pub fn stdin_lines() -> mpsc::Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel(16);
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(Some(line)).is_err() {
                return;
            }
        }
        let _ = tx.blocking_send(None);
    });
    rx
}

/// Run plain mode: print changes to `out`, read commands from `input`, until the battle
/// ends, the person quits, or the connection is lost for good. The session is left open;
/// the caller quits it.
pub async fn run(
    session: &mut AnySession,
    input: &mut mpsc::Receiver<Option<String>>,
    out: &mut impl Write,
) -> io::Result<Ending> {
    let mut reporter = PlainReporter::new();
    let mut input_open = true;
    emit(out, reporter.changes(session.feed().tracker()))?;
    loop {
        let feed = session.feed();
        if feed.tracker().is_over() {
            return Ok(Ending::Finished);
        }
        if let Link::Failed(why) = feed.link() {
            return Ok(Ending::Lost(why.clone()));
        }
        if let Some(line) = reporter.clock(feed.tracker(), clock::now_ms()) {
            emit(out, [line])?;
        }
        if let Some(line) = reporter.prompt(feed.tracker(), feed.act_pending()) {
            emit(out, [line])?;
        }
        tokio::select! {
            event = session.feed_mut().next_event() => {
                let lines = match event {
                    Event::Changed | Event::Resynced => reporter.changes(session.feed().tracker()),
                    Event::Resyncing(why) => vec![format!("resync: {why}")],
                    Event::Refused { code, message } => {
                        reporter.reprompt();
                        vec![format!("error: {message} ({code})")]
                    }
                    Event::Link(link) => {
                        let mut lines = vec![format!("connection: {}", link.describe())];
                        if link == Link::Connected {
                            // Back in the battle (perhaps through another server): what
                            // changed meanwhile, from the snapshot, and the prompt again.
                            reporter.reprompt();
                            lines.extend(reporter.changes(session.feed().tracker()));
                        }
                        lines
                    }
                    Event::Left(reason) => {
                        let why = match reason.as_str() {
                            "replaced" => "your seat was taken over by another connection".to_owned(),
                            "expired" => "the battle is gone from the server".to_owned(),
                            other => other.to_owned(),
                        };
                        emit(out, [format!("left: {why}")])?;
                        return Ok(Ending::Lost(why));
                    }
                    Event::Notice(n) => vec![format!("notice: {n}")],
                };
                emit(out, lines)?;
            }
            line = input.recv(), if input_open => {
                let Some(Some(line)) = line else {
                    input_open = false;
                    if matches!(session, AnySession::Player(_)) {
                        emit(out, ["input ended; quitting".to_owned()])?;
                        return Ok(Ending::Quit);
                    }
                    continue;
                };
                match parse_line(&line) {
                    Err(why) => emit(out, [format!("refused: {why}")])?,
                    Ok(Command::Quit) => return Ok(Ending::Quit),
                    Ok(Command::Retry) => {
                        let words = if session.feed_mut().retry_now() {
                            "reconnecting now"
                        } else {
                            "already connected (or reconnecting)"
                        };
                        emit(out, [format!("connection: {words}")])?;
                    }
                    Ok(Command::Help) => {
                        reporter.reprompt();
                        emit(out, HELP_LINES.iter().map(|l| format!("help: {l}")))?;
                        if session.feed().tracker().view().is_some_and(gambit::is_gambit) {
                            emit(out, gambit::PLAIN_HELP.iter().map(|l| format!("help: {l}")))?;
                        }
                    }
                    Ok(Command::Resign) => {
                        let line = match session {
                            AnySession::Player(player) => match player.resign().await {
                                Ok(_) => "resigned: the battle ends".to_owned(),
                                Err(e) => format!("error: {e}"),
                            },
                            AnySession::Spectator(_) => "refused: spectators only watch".to_owned(),
                        };
                        emit(out, [line])?;
                    }
                    Ok(command) => {
                        let line = act(session, command).await;
                        if let Some(line) = line {
                            reporter.reprompt();
                            emit(out, [line])?;
                        }
                    }
                }
            }
        }
    }
}

/// Send the action `command` stands for; `Some(words)` when it was refused here.
async fn act(session: &mut AnySession, command: Command) -> Option<String> {
    let AnySession::Player(player) = session else {
        return Some("refused: spectators only watch".to_owned());
    };
    match resolve(player.feed().tracker(), command) {
        Err(why) => Some(format!("refused: {why}")),
        Ok(action) => match player.act(action).await {
            Ok(_) => None,
            Err(e) => Some(format!("error: {e}")),
        },
    }
}

fn emit(out: &mut impl Write, lines: impl IntoIterator<Item = String>) -> io::Result<()> {
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

#[cfg(test)]
#[path = "plain_tests.rs"]
mod tests;
