//! The exact commands a person can copy: for others to join or watch a battle, for
//! themselves to come back to their seat, and to replay a finished battle.

use super::player_name::PlayerName;

/// The server URL the client uses when `--server` is not given.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:7878";

fn server_flag(server: &str) -> String {
    if server == DEFAULT_SERVER {
        String::new()
    } else {
        format!(" --server {server}")
    }
}

/// The command that starts a server, for the hint given when none answers.
pub const START_SERVER: &str = "cargo run --release -p battle-server";

pub use battle_client::{is_refused, server_url};

/// The sentence for a client that finds no server at `server`.
pub fn no_server_hint(server: &str) -> String {
    format!(
        "no battle server answers at {server}. Start one with `{START_SERVER}` \
         (add `-- --listen HOST:PORT` for another address), or point --server at a running one"
    )
}

/// `battle-client join <id> --seat N`.
pub fn join_command(server: &str, battle_id: &str, seat: usize) -> String {
    format!(
        "battle-client{} join {battle_id} --seat {seat}",
        server_flag(server)
    )
}

/// `battle-client watch <id>`.
pub fn watch_command(server: &str, battle_id: &str) -> String {
    format!("battle-client{} watch {battle_id}", server_flag(server))
}

/// `battle-client replay <id>`.
pub fn replay_command(server: &str, battle_id: &str) -> String {
    format!("battle-client{} replay {battle_id}", server_flag(server))
}

/// `battle-client rejoin <id> --token T`, with `--name N` when the seat's holder gave a name
/// (so the seat keeps it on the next connection).
pub fn rejoin_command(
    server: &str,
    battle_id: &str,
    token: &str,
    name: Option<&PlayerName>,
) -> String {
    let name = match name {
        Some(name) => format!(" --name {}", shell_word(name.as_str())),
        None => String::new(),
    };
    format!(
        "battle-client{} rejoin {battle_id} --token {token}{name}",
        server_flag(server)
    )
}

/// `text` as one word for a POSIX shell: as it is when it holds only letters, digits and
/// `-_.@+`, else in single quotes (a single quote in it written `'\''`).
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_alphanumeric() || "-_.@+".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_no_server_hint_says_how_to_start_one() {
        assert!(no_server_hint("ws://h:1").contains(START_SERVER));
    }

    #[test]
    fn default_server_is_left_out() {
        assert_eq!(
            watch_command(DEFAULT_SERVER, "b1"),
            "battle-client watch b1"
        );
        assert_eq!(
            rejoin_command("ws://h:1", "b1", "t", None),
            "battle-client --server ws://h:1 rejoin b1 --token t"
        );
        assert_eq!(
            join_command(DEFAULT_SERVER, "b1", 1),
            "battle-client join b1 --seat 1"
        );
        assert_eq!(
            replay_command("ws://h:1", "b1"),
            "battle-client --server ws://h:1 replay b1"
        );
    }

    #[test]
    fn a_rejoin_command_keeps_the_name_as_one_shell_word() {
        let rejoin = |name: &str| {
            let name = PlayerName::parse(name).expect("a valid name");
            rejoin_command(DEFAULT_SERVER, "b1", "t", Some(&name))
        };
        assert_eq!(
            rejoin("Ana"),
            "battle-client rejoin b1 --token t --name Ana"
        );
        assert_eq!(
            rejoin("Zoë"),
            "battle-client rejoin b1 --token t --name Zoë"
        );
        assert_eq!(
            rejoin("Ana Lu"),
            "battle-client rejoin b1 --token t --name 'Ana Lu'"
        );
        assert_eq!(
            rejoin("O'Hara $x"),
            r"battle-client rejoin b1 --token t --name 'O'\''Hara $x'"
        );
    }
}
