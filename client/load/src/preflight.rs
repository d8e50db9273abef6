//! The checks before a run: the address is one the load test may use, and a battle server
//! answers there (its `welcome` lists the rulesets the run chooses from). Each failure is
//! worded for the operator: nobody listening reads as such, with the command that starts a
//! server.

use anyhow::{anyhow, Context};
use battle_protocol::RulesetInfo;
use tokio_tungstenite::tungstenite;

use super::args::LoadtestArgs;
use super::status::no_server;
use super::target::Targets;
use battle_client::{samples, ClientError};

/// The rulesets the first of `servers` that answers offers, or why the run cannot start
/// (what the first one said when none answers).
pub async fn rulesets(servers: &[String], args: &LoadtestArgs) -> anyhow::Result<Vec<RulesetInfo>> {
    // The addresses first: a remote server without --allow-remote is refused before any
    // connection is made to it.
    Targets::resolve(
        servers,
        &args.spectator_servers,
        args.allow_remote,
        args.source_addrs,
    )
    .await?;
    let mut first_error = None;
    for server in servers {
        match samples::welcome(server).await {
            Ok(rulesets) => return Ok(rulesets),
            Err(err) => {
                first_error.get_or_insert((server, err));
            }
        }
    }
    let (server, err) = first_error.context("no --server given")?;
    Err(match unreachable(&err) {
        Some(cause) => anyhow!(no_server(server, &cause)),
        None => anyhow!(err).context(format!("asking {server} which rulesets it offers")),
    })
}

/// The socket error, when `err` says that nothing accepted a connection (as opposed to a
/// server that answered wrongly).
fn unreachable(err: &ClientError) -> Option<&std::io::Error> {
    match err {
        ClientError::WebSocket(tungstenite::Error::Io(io)) => Some(io),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn nobody_listening_reads_as_no_server() {
        // A port that was free a moment ago: nothing listens there now.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
        let port = listener.local_addr().expect("bound").port();
        drop(listener);
        let url = format!("ws://127.0.0.1:{port}");
        let args = LoadtestArgs::from_flags(Vec::<String>::new()).expect("defaults");
        let err = rulesets(std::slice::from_ref(&url), &args)
            .await
            .expect_err("nobody listens");
        let text = format!("{err:#}");
        assert!(
            text.contains(&format!("no server answers at {url}")),
            "{text}"
        );
        assert!(
            text.contains("cargo run --release -p battle-server"),
            "{text}"
        );
    }

    #[tokio::test]
    async fn a_remote_address_is_refused_before_connecting() {
        let args = LoadtestArgs::from_flags(Vec::<String>::new()).expect("defaults");
        let err = rulesets(&["ws://192.0.2.1:7878".into()], &args)
            .await
            .expect_err("not loopback");
        assert!(err.to_string().contains("--allow-remote"), "{err}");
    }
}
