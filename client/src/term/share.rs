//! The exact commands a person can copy: for others to join or watch a battle, and for
//! themselves to come back to their seat.

/// The server URL the client uses when `--server` is not given.
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:7878";

fn server_flag(server: &str) -> String {
    if server == DEFAULT_SERVER {
        String::new()
    } else {
        format!(" --server {server}")
    }
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

/// `battle-client rejoin <id> --token T`.
pub fn rejoin_command(server: &str, battle_id: &str, token: &str) -> String {
    format!(
        "battle-client{} rejoin {battle_id} --token {token}",
        server_flag(server)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_server_is_left_out() {
        assert_eq!(
            watch_command(DEFAULT_SERVER, "b1"),
            "battle-client watch b1"
        );
        assert_eq!(
            rejoin_command("ws://h:1", "b1", "t"),
            "battle-client --server ws://h:1 rejoin b1 --token t"
        );
        assert_eq!(
            join_command(DEFAULT_SERVER, "b1", 1),
            "battle-client join b1 --seat 1"
        );
    }
}
