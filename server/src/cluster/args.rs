//! The `battle-server` flags of cluster mode, and the node id that stays the same across
//! restarts on one data directory.

use std::path::Path;
use std::time::Duration;

use super::ClusterConfig;

/// Cluster mode's flags (each also an environment variable).
#[derive(Debug, Clone, clap::Args)]
pub struct ClusterArgs {
    /// Run as one node of a cluster on this Redis (e.g. redis://127.0.0.1:6379). Without
    /// it, the server runs alone with its embedded store.
    #[arg(long, env = "BATTLE_CLUSTER_URL", global = true)]
    pub cluster_url: Option<String>,
    /// This node's id in the cluster (letters, digits, `-`, `_`). Default: generated once
    /// and kept in the data directory (`node-id`), so a restarted node is the same node;
    /// without a data directory, a new one at every start.
    #[arg(long, env = "BATTLE_NODE_ID", value_parser = parse_node_id)]
    pub node_id: Option<String>,
    /// How clients and other nodes name this node (its WebSocket URL). Default:
    /// ws://<the address it listens on>.
    #[arg(long, env = "BATTLE_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// How long a node's lease lasts, in milliseconds: a node that stops renewing it (dead,
    /// paused, cut off) loses its battles to the others this long after its last renewal.
    #[arg(long, env = "BATTLE_LEASE_MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(500..))]
    pub lease_ms: u64,
    /// For tests of the protocol's resync: drop every N-th battle change this node receives
    /// from the others (0: none).
    #[arg(long, env = "BATTLE_DROP_CHANGES", default_value_t = 0, hide = true)]
    pub drop_changes: u32,
}

/// A node id: 1 to 64 letters, digits, `-` or `_`.
pub fn parse_node_id(text: &str) -> Result<String, BadNodeId> {
    let ok = !text.is_empty()
        && text.len() <= 64
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(text.to_string())
    } else {
        Err(BadNodeId(text.to_string()))
    }
}

/// A text that is not a node id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a node id: 1 to 64 letters, digits, '-' or '_'")]
pub struct BadNodeId(pub String);

/// A new random node id.
fn fresh_id() -> String {
    format!("node-{}", crate::ids::random_id(8))
}

/// This node's id: the one given, else the one kept in `data_dir` (made and kept on the
/// first start), else a new one.
pub fn node_id(given: Option<&str>, data_dir: Option<&Path>) -> std::io::Result<String> {
    if let Some(id) = given {
        return Ok(id.to_string());
    }
    let Some(dir) = data_dir else {
        return Ok(fresh_id());
    };
    let path = dir.join("node-id");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let id = text.trim();
            parse_node_id(id).map_err(std::io::Error::other)
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            let id = fresh_id();
            std::fs::write(&path, format!("{id}\n"))?;
            Ok(id)
        }
        Err(err) => Err(err),
    }
}

impl ClusterArgs {
    /// The cluster settings these flags ask for (`None` without `--cluster-url`). Without
    /// `--node-id` the id is left empty: the server reads it from its data directory (see
    /// [`node_id`]) once it holds the directory.
    pub fn config(&self) -> Option<ClusterConfig> {
        let url = self.cluster_url.as_ref()?;
        Some(ClusterConfig {
            url: url.clone(),
            node_id: self.node_id.clone().unwrap_or_default(),
            public_url: self.public_url.clone().unwrap_or_default(),
            lease: Duration::from_millis(self.lease_ms),
            drop_changes: self.drop_changes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_short_plain_words() {
        assert!(parse_node_id("node-1").is_ok());
        assert!(parse_node_id("a_b").is_ok());
        assert!(parse_node_id("").is_err());
        assert!(parse_node_id("a/b").is_err());
        assert!(parse_node_id(&"x".repeat(65)).is_err());
    }

    #[test]
    fn a_data_directory_keeps_its_node_id() {
        let dir = std::env::temp_dir().join(format!("battle-node-id-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = node_id(None, Some(&dir)).expect("made");
        let again = node_id(None, Some(&dir)).expect("read back");
        assert_eq!(first, again);
        assert_eq!(node_id(Some("given"), Some(&dir)).expect("given"), "given");
        assert_ne!(node_id(None, None).expect("fresh"), first);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
