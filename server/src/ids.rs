//! Ids at the bottom of the server: a connection's process-unique number and the random
//! ids (battles, nodes, a node's instance) written in one alphabet that reads aloud without
//! confusion (no `l`, `o`, `0` or `1`).

use std::sync::atomic::{AtomicU64, Ordering};

use rand::Rng;

/// Identifies one client connection for the lifetime of the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

impl ConnId {
    /// A process-unique id.
    pub fn next() -> ConnId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ConnId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// The letters and digits random ids are written in.
const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// A random id of `len` characters of [`ALPHABET`].
pub fn random_id(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_ids_have_the_length_asked_in_the_alphabet() {
        let id = random_id(10);
        assert_eq!(id.len(), 10);
        assert!(id.bytes().all(|b| ALPHABET.contains(&b)), "{id}");
    }

    #[test]
    fn connection_ids_are_never_reused() {
        let (a, b) = (ConnId::next(), ConnId::next());
        assert_ne!(a, b);
    }
}
