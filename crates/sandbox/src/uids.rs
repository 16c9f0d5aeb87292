//! Blocks of uids for children, one block per grader process, when the grader runs as root.

use std::io;
use std::path::{Path, PathBuf};

/// The start of the uids (and gids) children run as when the grader runs as root. Each
/// grader process takes a block of [`UID_BLOCK`] uids of its own, the first free one from
/// `SANDBOX_UID + UID_BLOCK` on (the first block, which every grader shared before blocks
/// existed, is never used), and worker `n` uses the block's uid `n`: RLIMIT_NPROC counts one
/// child's processes only, and killing every process of a uid after a child never touches
/// another grader's children.
pub const SANDBOX_UID: u32 = 64000;

/// How many uids one grader process takes: one per worker, so at most this many workers.
pub const UID_BLOCK: u32 = 256;

/// Uids from here on are left alone (subordinate uid ranges usually start at 100000).
const UID_END: u32 = 100_000;

/// A block of [`UID_BLOCK`] uids held by this process: an exclusive `flock` on
/// `uids-<first>.lock` in [`uid_lock_dir`], which the kernel releases when the process dies,
/// however it dies.
#[derive(Debug)]
pub(crate) struct UidBlock {
    first: u32,
    _lock: std::fs::File,
}

impl UidBlock {
    /// Takes the first free block, skipping any that holds `nobody` (65534) or 65535.
    ///
    /// # Errors
    /// The I/O error of the lock directory, or `WouldBlock` when every block is taken.
    pub fn acquire() -> io::Result<UidBlock> {
        UidBlock::acquire_in(&uid_lock_dir())
    }

    /// As [`UidBlock::acquire`], with the lock files in `dir` (tests use a directory of
    /// their own, so that graders in other processes cannot take the blocks they watch).
    ///
    /// # Errors
    /// As [`UidBlock::acquire`].
    pub fn acquire_in(dir: &Path) -> io::Result<UidBlock> {
        crate::workdir::create_dir_mode(dir, 0o700)?;
        let mut first = SANDBOX_UID + UID_BLOCK;
        while first + UID_BLOCK <= UID_END {
            let range = first..first + UID_BLOCK;
            if !range.contains(&65534) && !range.contains(&65535) {
                use std::os::unix::fs::OpenOptionsExt;
                let lock = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .mode(0o600)
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(dir.join(format!("uids-{first}.lock")))?;
                if crate::workdir::flock(&lock, libc::LOCK_EX | libc::LOCK_NB).is_ok() {
                    return Ok(UidBlock { first, _lock: lock });
                }
            }
            first += UID_BLOCK;
        }
        Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            format!("every block of sandbox uids in {} is in use", dir.display()),
        ))
    }

    /// Returns the uid (and gid) of worker `slot` (taken modulo [`UID_BLOCK`]).
    pub fn uid(&self, slot: u32) -> u32 {
        self.first + slot % UID_BLOCK
    }

    /// Returns the block's uids.
    pub fn range(&self) -> std::ops::Range<u32> {
        self.first..self.first + UID_BLOCK
    }
}

impl Drop for UidBlock {
    fn drop(&mut self) {
        crate::workdir::remove_uids(self.range());
    }
}

/// Returns the directory of the uid blocks' lock files: `/run/crib-grade` (only root can
/// write in /run), or `crib-grade-uids` in the temporary directory where there is no /run.
pub(crate) fn uid_lock_dir() -> PathBuf {
    if Path::new("/run").is_dir() {
        PathBuf::from("/run/crib-grade")
    } else {
        std::env::temp_dir().join("crib-grade-uids")
    }
}
