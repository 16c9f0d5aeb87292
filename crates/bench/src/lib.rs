//! The project's benchmarks, in one crate of their own so that building the tests never
//! compiles criterion. Each module opens by saying what its bench measures and its target;
//! `cargo xtask bench` runs them and writes the table of docs/PERFORMANCE.md.
//!
//! The benchmarks live here, in the library, and each bench target (`benches/`, one per
//! area, named as `cargo bench --bench NAME` knows them) only calls [`main`] with its
//! module's `benches`, so that criterion's generic code is compiled once for all of them.
//! `floor` times whole gradings without criterion and stays a target of its own.
//!
//! `cargo test --all-targets` compiles this library a second time as its own test harness,
//! whatever `[lib] test` says; the modules are left out of that build (`cfg(not(test))`),
//! which has no tests to run.

use std::path::{Path, PathBuf};

#[cfg(not(test))]
pub mod discard;
#[cfg(not(test))]
pub mod intake;
#[cfg(not(test))]
pub mod lint;
#[cfg(not(test))]
pub mod report;
#[cfg(not(test))]
pub mod score;
#[cfg(not(test))]
pub mod similar;

/// Returns `path`, given relative to the repository's root, joined to the root (the root is
/// found from this crate's manifest directory at build time).
pub fn repo_path(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// A bench target's `main`: what `criterion_group!` and `criterion_main!` expand to, here
/// once rather than in every target. Reads criterion's arguments (`cargo bench -- FILTER`,
/// `--save-baseline`, ...), runs `benches`, then prints criterion's summary.
#[cfg(not(test))]
pub fn main(benches: fn(&mut criterion::Criterion)) {
    let mut criterion = criterion::Criterion::default().configure_from_args();
    benches(&mut criterion);
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
