//! Runs an untrusted program with limits and isolation: a [`Jail`] starts children of one
//! program (for crib, `swipl`) with every layer of isolation this machine offers
//! ([`crib_isolation::Layer`]), always [`Rlimits`], and as root uids of their own ([`SANDBOX_UIDS`]). What
//! each layer does, and the rest ([`WorkDir`], [`MemoryFit`]): this crate's README. The
//! crate knows nothing of what the program does: no cribbage, no tests, no marks.
//!
//! # Example
//! ```no_run
//! use crib_isolation::IsolationChoice;
//! use crib_sandbox::{Jail, Mounts, Rlimits, WorkDir};
//! let work = WorkDir::create(&std::env::temp_dir(), crib_sandbox::is_root())?;
//! let jail = Jail::new("swipl".as_ref(), &["--no-tty", "-q", "-g", "halt"],
//!                      IsolationChoice::Auto, work.path())
//!     .map_err(std::io::Error::other)?;
//! println!("children run under {}", jail.isolation.name());
//! # Ok::<(), std::io::Error>(())
//! ```

#![deny(missing_docs)]

mod cgroup;
mod confine;
mod files;
mod jail;
mod landlock;
mod limits;
mod reap;
mod seccomp;
mod uids;
mod workdir;

use std::path::PathBuf;

pub use cgroup::{memory_limit, memory_limit_in, MemoryFit, MIN_CHILD_MEMORY};
pub use confine::{confine_main, CONFINE_ARG};
pub use files::open_up;
pub use jail::{
    environment, is_root, Jail, Mounts, GRADER_DIR, SCRATCH_DIR, SUBMISSION_DIR, TMPFS_BYTES,
    TMP_NAME,
};
pub use limits::Rlimits;
pub use reap::END_LIMIT;
pub use uids::{Slot, Worker, FALLBACK_UIDS, MAX_WORKERS, SANDBOX_UIDS, SECOND_LANE, UID_BLOCK};
pub use workdir::{add_group, remove_group, shutdown, WorkDir, WORK_PREFIX};

/// What keeps a jail from being made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// The program does not run, even with no layer.
    #[error("cannot run {path}: {message}")]
    Program {
        /// The program tried.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// bubblewrap was required and cannot start a sandbox here.
    #[error("bubblewrap cannot sandbox here: {0}")]
    Bwrap(String),
    /// Strict isolation was required and the network or the host's files stay open here.
    #[error("strict isolation is not possible here: {0}")]
    Isolation(String),
    /// Landlock cannot be added under bubblewrap ([`Jail::confine_with`]): the confiner
    /// cannot be copied, or the program does not start with it.
    #[error("Landlock cannot be added under bubblewrap: {0}")]
    Confine(String),
    /// The sandbox's own files cannot be made.
    #[error("{what}")]
    Io {
        /// What the sandbox was doing.
        what: String,
        /// Why it failed.
        source: std::io::Error,
    },
}

impl SandboxError {
    fn program(path: &std::path::Path, message: impl ToString) -> SandboxError {
        SandboxError::Program {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    fn io(what: impl Into<String>, source: std::io::Error) -> SandboxError {
        SandboxError::Io {
            what: what.into(),
            source,
        }
    }
}
