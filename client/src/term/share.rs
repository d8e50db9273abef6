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

/// Read a `--server` value: a `ws://` or `wss://` URL as given, `http(s)://` turned into
/// `ws(s)://`, and `HOST:PORT` or a bare `PORT` (127.0.0.1) given the `ws://` scheme.
pub fn server_url(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    if text.is_empty() {
        return Err("the server address is empty; give HOST:PORT or ws://HOST:PORT".to_owned());
    }
    if let Some((scheme, rest)) = text.split_once("://") {
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "ws" | "http" => "ws",
            "wss" | "https" => "wss",
            other => {
                return Err(format!(
                    "\"{other}://\" is not a WebSocket address; give ws://HOST:PORT or HOST:PORT"
                ))
            }
        };
        if rest.is_empty() {
            return Err(format!("\"{text}\" names no host"));
        }
        return Ok(format!("{scheme}://{rest}"));
    }
    if text.parse::<u16>().is_ok() {
        return Ok(format!("ws://127.0.0.1:{text}"));
    }
    if let Some(port) = text.strip_prefix(':') {
        return Ok(format!("ws://127.0.0.1:{port}"));
    }
    Ok(format!("ws://{text}"))
}

/// Whether `err` says that nothing listens at the address (connection refused).
pub fn is_refused(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        if let Some(tungstenite::Error::Io(io)) = e.downcast_ref::<tungstenite::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                return true;
            }
        }
        cause = e.source();
    }
    false
}

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

use tokio_tungstenite::tungstenite;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_get_their_scheme() {
        let ok = |t: &str| server_url(t).expect("valid");
        assert_eq!(ok("ws://127.0.0.1:7878"), "ws://127.0.0.1:7878");
        assert_eq!(ok("localhost:7878"), "ws://localhost:7878");
        assert_eq!(ok("http://host:1/"), "ws://host:1");
        assert_eq!(ok("HTTPS://host:1"), "wss://host:1");
        assert_eq!(ok("7000"), "ws://127.0.0.1:7000");
        assert_eq!(ok(":7000"), "ws://127.0.0.1:7000");
        assert!(server_url("ftp://x")
            .unwrap_err()
            .contains("not a WebSocket"));
        assert!(server_url(" ").is_err());
    }

    #[test]
    fn refused_connections_are_recognised_through_wrappers() {
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        let err = crate::ClientError::WebSocket(tungstenite::Error::Io(io));
        assert!(is_refused(&err));
        let wrapped = anyhow::Error::from(err).context("listing battles");
        assert!(is_refused(wrapped.as_ref()));
        let other = crate::ClientError::Timeout(std::time::Duration::from_secs(1));
        assert!(!is_refused(&other));
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
