//! crib-core's integration tests, in one binary (one link in the optimised test build, not
//! one per file): the answers held against the hand-written truth in spec/ (`spec`) and the
//! generated tables in fixtures/ (`fixtures`), and the properties every show must have
//! (`properties`).

mod fixtures;
mod properties;
mod spec;

/// Reads `path`, relative to the workspace's root; panics naming it.
fn read(path: &str) -> String {
    let full = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(full).unwrap_or_else(|e| panic!("{path}: {e}"))
}
