//! A fast hasher for the maps of fingerprints and names: FNV-1a, not SipHash. Keys are
//! fingerprints already hashed or names from the files compared; nobody chooses them to
//! collide against a process that runs once over a class.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a, 64 bits, of `bytes`.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    Fnv(OFFSET).fold(bytes)
}

/// FNV-1a, 64 bits, as a [`Hasher`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Fnv {
    fn fold(self, bytes: &[u8]) -> u64 {
        bytes
            .iter()
            .fold(self.0, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
    }
}

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(OFFSET)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = self.fold(bytes);
    }

    fn write_u64(&mut self, n: u64) {
        // One multiply for a key that is already a hash.
        self.0 = (self.0 ^ n).wrapping_mul(PRIME);
    }
}

/// A `HashMap` with [`Fnv`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
/// A `HashSet` with [`Fnv`].
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;
