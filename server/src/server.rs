//! Listening for connections and running the server until it is shut down.

use std::net::SocketAddr;

use tokio::net::TcpListener;
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

/// Bind `config.listen` and accept connections in a background task.
pub async fn start(config: Config) -> std::io::Result<RunningServer> {
    let listener = TcpListener::bind(config.listen).await?;
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
