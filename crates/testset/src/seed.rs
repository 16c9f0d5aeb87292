//! The secret every draw of a test set comes from.
//!
//! A test set is made from one [`Seed`]: 32 secret bytes. Every random choice (the suits and
//! order of each hand_value item, the select_hand pools and deals, the order of the named
//! deals' cards) is drawn by a [`Dealer`] whose 64-bit state is the SHA-256 of the seed,
//! the purpose and the item's index. So knowing one item's dealer state tells nothing of
//! another item's, and nothing in crib's source or output rebuilds the tests of a seed: a
//! student who runs the open-source grader gets a seed of their own.
//!
//! A seed is shown only by its [`Seed::id`], a hash that reveals nothing of the seed.

use std::fmt;
use std::path::Path;

use crib_core::Dealer;
use sha2::{Digest, Sha256};

/// How many bytes a seed has.
pub const SEED_BYTES: usize = 32;

/// The secret a test set is drawn from. Its `Debug` shows only its id.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed([u8; SEED_BYTES]);

/// Why a seed file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    /// The file could not be read or written.
    #[error("seed file {path}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file does not hold a seed.
    #[error("{path}: not a crib seed (expected one line of {} hex digits)", SEED_BYTES * 2)]
    Malformed {
        /// The file.
        path: String,
    },
    /// The operating system gave no random bytes.
    #[error("no random bytes from the operating system: {0}")]
    Random(String),
}

impl Seed {
    /// Returns a new seed from the operating system's random bytes.
    ///
    /// # Errors
    /// [`SeedError::Random`] if the operating system gives none.
    pub fn fresh() -> Result<Seed, SeedError> {
        let mut bytes = [0u8; SEED_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| SeedError::Random(e.to_string()))?;
        Ok(Seed(bytes))
    }

    /// Returns the seed made of `bytes` (tests and tools that must be reproducible).
    pub const fn from_bytes(bytes: [u8; SEED_BYTES]) -> Seed {
        Seed(bytes)
    }

    /// Returns the seed written as hex digits (surrounding blanks and `#` comment lines
    /// ignored), as [`Seed::to_hex`] writes it.
    ///
    /// # Errors
    /// `None` if the text is not one run of 64 hex digits.
    pub fn parse(text: &str) -> Option<Seed> {
        let hex: String = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if hex.len() != SEED_BYTES * 2 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut bytes = [0u8; SEED_BYTES];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Seed(bytes))
    }

    /// Returns the SHA-256 of `domain`, the seed's secret bytes and each of `rest`: every
    /// hash keyed by the seed (`domain` names its use).
    pub(crate) fn hash(&self, domain: &[u8], rest: &[&[u8]]) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update(domain);
        hash.update(self.0);
        for part in rest {
            hash.update(part);
        }
        hash.finalize().into()
    }

    /// Returns the seed as 64 lower-case hex digits.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// Reads the seed kept in `path`.
    ///
    /// # Errors
    /// [`SeedError::Io`] if it cannot be read, [`SeedError::Malformed`] if it holds no seed.
    pub fn read(path: &Path) -> Result<Seed, SeedError> {
        let text = std::fs::read_to_string(path).map_err(|source| SeedError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Seed::parse(&text).ok_or_else(|| SeedError::Malformed {
            path: path.display().to_string(),
        })
    }

    /// Writes the seed to a new file `path`, readable and writable by its owner only, with a
    /// comment saying what it is. Never overwrites a file.
    ///
    /// # Errors
    /// [`SeedError::Io`] if the file exists or cannot be written.
    pub fn write_new(&self, path: &Path) -> Result<(), SeedError> {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        let io = |source| SeedError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        writeln!(
            file,
            "# crib grade's secret test seed (id {}): keep it from students; \
             the same seed gives the same tests\n{}",
            self.id(),
            self.to_hex()
        )
        .map_err(io)
    }

    /// Returns the seed of one run derived from this one and `salt` (for example a
    /// Gradescope submission's id): each salt gets tests of its own, and the same salt the
    /// same tests again.
    pub fn derive(&self, salt: &str) -> Seed {
        Seed(self.hash(b"crib-seed-derive\0", &[salt.as_bytes()]))
    }

    /// Returns the seed's public name: 16 hex digits of a hash of it, from which the seed
    /// cannot be found. Results and feedback record it.
    pub fn id(&self) -> String {
        hex(&self.hash(b"crib-seed-id\0", &[])[..8])
    }

    /// Returns the dealer of item `index` of the draws for `purpose` (`"hand_value"`,
    /// `"pool"`...): its state is a hash of the seed, the purpose and the index.
    pub fn dealer(&self, purpose: &str, index: u64) -> Dealer {
        let rest: [&[u8]; 3] = [purpose.as_bytes(), &[0], &index.to_le_bytes()];
        let hash = self.hash(b"crib-seed-dealer\0", &rest);
        let state = hash[..8].try_into().expect("a SHA-256 has 8 bytes");
        Dealer::new(u64::from_le_bytes(state))
    }
}

/// Returns `bytes` as lower-case hex digits.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.id())
    }
}

#[cfg(test)]
mod tests;
