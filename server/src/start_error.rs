//! Why a server could not start: each cause its own variant, each one sentence that names
//! it (the directory someone else holds, the database that cannot be opened, the address
//! that cannot be bound, Redis out of reach), so the binary says exactly that and exits with
//! status 2.

use std::net::SocketAddr;

use crate::cluster::ClusterError;
use crate::dir_lock::LockError;
use crate::store::StoreError;

/// Why [`crate::start`] failed.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The data directory is another server's, or cannot be used.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The store in the data directory cannot be opened.
    #[error("cannot open the battles kept in {dir}: {source}")]
    Store {
        /// The data directory.
        dir: String,
        /// What went wrong in it.
        source: StoreError,
    },
    /// This node's id cannot be read from, or kept in, the data directory.
    #[error("cannot read or keep this node's id in {dir}: {source}")]
    NodeId {
        /// The data directory.
        dir: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The node cannot join its cluster.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The listening address cannot be bound.
    #[error("cannot listen on {addr}: {source}{}", listen_hint(source))]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// What to do about an address that cannot be bound, when it is clear.
fn listen_hint(err: &std::io::Error) -> &'static str {
    match err.kind() {
        std::io::ErrorKind::AddrInUse => {
            " (another program listens there: stop it, or give this server another --listen)"
        }
        std::io::ErrorKind::AddrNotAvailable => {
            " (no network interface of this machine has that address)"
        }
        std::io::ErrorKind::PermissionDenied => {
            " (ports below 1024 need privileges: pick a higher port, or put a proxy in front)"
        }
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cause_is_one_sentence_naming_it() {
        let listen = StartError::Listen {
            addr: SocketAddr::from(([127, 0, 0, 1], 7878)),
            source: std::io::Error::from(std::io::ErrorKind::AddrInUse),
        };
        let text = listen.to_string();
        assert!(
            text.starts_with("cannot listen on 127.0.0.1:7878: "),
            "{text}"
        );
        assert!(text.contains("another --listen"), "{text}");
        let store = StartError::Store {
            dir: "./battle-data".into(),
            source: StoreError::Newer(9, 7),
        };
        let text = store.to_string();
        assert!(
            text.starts_with("cannot open the battles kept in ./battle-data: "),
            "{text}"
        );
        assert!(!text.contains("listen"), "{text}");
        for text in [listen.to_string(), store.to_string()] {
            assert!(!text.contains('\n'), "one line: {text}");
        }
    }
}
