//! The project's benchmarks (`benches/`), in one crate of their own so that building the
//! tests never compiles criterion. Each bench opens by saying what it measures and its
//! target; `cargo xtask bench` runs them and writes the table of the README.
//!
//! This library holds what the benches share: where the repository's data is.

use std::path::{Path, PathBuf};

/// Returns `path`, given relative to the repository's root, joined to the root (the root is
/// found from this crate's manifest directory at build time).
pub fn repo_path(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}
