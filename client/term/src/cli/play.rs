//! The `battle-client` binary's part that runs a battle on screen: a session played in plain
//! mode or the full-screen UI (then left, saying how to come back), and `play --queue`,
//! waiting in the matchmaking queue before playing the battle found.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use battle_client::Servers;
use battle_term::app::{self, Keys};
use battle_term::outcome::result_lines;
use battle_term::plain::{self, Ending};
use battle_term::queue::{Queue, QueueSpec};
use battle_term::share::{rejoin_command, watch_command};
use battle_term::waiting::{self, Wait};
use battle_term::{AnySession, ReconnectPolicy};

use super::{Display, PlayArgs};

/// Run the session in plain mode or the full-screen UI, then leave and say how to come back
/// (or, after the full-screen UI, what the result was). `invite` says how others join and
/// watch, for the waiting screen.
/// `server` is the `--server` value the commands to copy carry (every address).
pub(super) async fn play(
    server: &str,
    session: AnySession,
    display: Display,
    invite: Vec<String>,
) -> anyhow::Result<ExitCode> {
    play_with(server, session, display, invite, Held::Nothing).await
}

/// What an earlier screen already reads from the person, handed on to the battle's: one
/// reader of stdin or of the terminal's keys per process.
enum Held {
    /// Nothing yet: the battle's screen starts its own reader.
    Nothing,
    /// Plain mode's stdin lines.
    Lines(tokio::sync::mpsc::Receiver<Option<String>>),
    /// The full-screen UI's keys.
    Keys(Keys),
}

/// Wait in the matchmaking queue as `args` say (one line per event with --plain, else the
/// waiting screen), then play the battle found as after `join`.
pub(super) async fn play_queued(
    servers: &Servers,
    args: PlayArgs,
    policy: ReconnectPolicy,
) -> anyhow::Result<ExitCode> {
    let server = servers.to_string();
    let server = server.as_str();
    let options = match &args.options {
        Some(text) => Some(serde_json::from_str(text).context("--options is not JSON")?),
        None => None,
    };
    let bot_after = args.bot_after.map(Duration::from_secs);
    let spec = QueueSpec {
        ruleset: args.ruleset,
        sample: args.sample,
        options,
        setup: args.setup.value()?,
        bot_after,
        name: args.who.name,
    };
    let queue = Queue::enter(servers, &spec, policy)
        .await
        .with_context(|| format!("queueing for a {} battle", spec.ruleset))?;
    let plain_mode = args.display.plain || !std::io::stdout().is_terminal();
    let (wait, held) = if plain_mode {
        let mut input = plain::stdin_lines();
        let wait = waiting::plain(queue, bot_after, &mut input, &mut std::io::stdout()).await;
        (wait, Held::Lines(input))
    } else {
        let mut keys = Keys::spawn();
        let wait = waiting::screen(queue, bot_after, &mut keys).await;
        (wait, Held::Keys(keys))
    };
    let player = match wait.context("waiting for an opponent")? {
        Wait::Matched(player) => player,
        Wait::Quit => {
            println!("left the queue");
            return Ok(ExitCode::SUCCESS);
        }
        Wait::Unqueued(reason) => {
            anyhow::bail!("the server took us out of the queue ({reason}); try again later")
        }
    };
    let battle_id = player.feed().battle_id().to_owned();
    println!("matched: battle {battle_id}, seat {}", player.seat());
    let invite = vec![format!(
        "others watch with: {}",
        watch_command(server, &battle_id)
    )];
    play_with(
        server,
        AnySession::Player(*player),
        args.display,
        invite,
        held,
    )
    .await
}

/// [`play`], with what an earlier screen already reads from the person.
async fn play_with(
    server: &str,
    mut session: AnySession,
    display: Display,
    invite: Vec<String>,
    held: Held,
) -> anyhow::Result<ExitCode> {
    let battle_id = session.feed().battle_id().to_owned();
    let rejoin = match &session {
        AnySession::Player(p) => {
            let command = rejoin_command(server, &battle_id, p.token(), p.feed().name());
            println!("you hold seat {}; to come back later: {command}", p.seat());
            Some(command)
        }
        AnySession::Spectator(_) => None,
    };
    let plain_mode = display.plain || !std::io::stdout().is_terminal();
    let ending = if plain_mode {
        let mut input = match held {
            Held::Lines(input) => input,
            Held::Nothing | Held::Keys(_) => plain::stdin_lines(),
        };
        let mut out = std::io::stdout();
        plain::run(&mut session, &mut input, &mut out).await?
    } else {
        let mut invite = invite;
        if invite.is_empty() {
            invite.push(format!(
                "others watch with: {}",
                watch_command(server, &battle_id)
            ));
        }
        let mut keys = match held {
            Held::Keys(keys) => keys,
            Held::Nothing | Held::Lines(_) => Keys::spawn(),
        };
        app::run_with_keys(&mut session, invite, &mut keys).await?;
        // The screen is gone: the result stays on the terminal.
        for line in result_lines(session.feed().tracker()) {
            println!("{line}");
        }
        if session.feed().tracker().is_over() {
            Ending::Finished
        } else {
            Ending::Quit
        }
    };
    let finished = session.feed().tracker().is_over();
    session.quit().await;
    match ending {
        Ending::Finished => Ok(ExitCode::SUCCESS),
        Ending::Quit | Ending::Lost(_) if finished => Ok(ExitCode::SUCCESS),
        Ending::Quit => {
            if let Some(command) = rejoin {
                println!("left battle {battle_id}; your seat waits: {command}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Ending::Lost(why) => {
            eprintln!("lost battle {battle_id}: {why}");
            if let Some(command) = rejoin {
                eprintln!("try again later: {command}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
