//! Listening for connections and running the server until it is shut down.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::connection;
use crate::lobby::Lobby;

/// A server accepting connections in the background.
pub struct RunningServer {
    /// The address it listens on (with the real port when port 0 was asked for).
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl RunningServer {
    /// The WebSocket URL clients connect to.
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Stop accepting connections.
    pub async fn shutdown(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

/// Connections the kernel may hold for the server before it accepts them (it caps this at
/// `net.core.somaxconn`). A load test ramping up opens thousands of connections a second;
/// tokio's default of 1,024 overflowed then, and every dropped opening costs its client a
/// one-second SYN retry.
const LISTEN_BACKLOG: u32 = 4096;

/// Bind `addr` for listening, with [`LISTEN_BACKLOG`].
fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server can take its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Bind `config.listen` and accept connections in a background task.
pub async fn start(config: Config) -> std::io::Result<RunningServer> {
    let listener = listen(config.listen)?;
    let addr = listener.local_addr()?;
    let lobby = Lobby::new(config);
    let (stop, mut stopped) = oneshot::channel();
    let task = tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        tokio::spawn(connection::serve(stream, lobby.clone()));
                    }
                    Err(err) => {
                        // Usually out of file descriptors: back off instead of spinning.
                        tracing::warn!(%err, "accept failed");
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    }
                },
            }
        }
    });
    tracing::info!(%addr, "listening");
    Ok(RunningServer { addr, stop, task })
}
