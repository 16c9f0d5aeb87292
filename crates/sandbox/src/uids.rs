//! Blocks of uids for children, one block per grader process, when the grader runs as root.
//!
//! RLIMIT_NPROC and "kill every process of this uid" are the kernel's, per uid, whatever
//! mount or PID namespace a grader is in. So two graders on one kernel must never share a
//! uid, even where they cannot see each other's lock files (each container has its own
//! `/run`) or processes (each has its own PID namespace). A block is therefore **drawn at
//! random** from a large range ([`SANDBOX_UIDS`]: 1,048,320 blocks), so that two graders that
//! know nothing of each other meet by chance only (about one pair in a million), and is
//! then **checked**: no process this grader can see has a uid or gid in it, no user or group
//! of `/etc/passwd` or `/etc/group` has one, and no other grader that shares this `/run`
//! holds its lock.

use std::collections::HashSet;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The uids (and gids) children run as when the grader runs as root, where the grader's user
/// namespace maps them (the initial one does, and so do containers that keep the host's
/// uids, Docker's default): 0x70000000 to 0x7FFF0000, a range systemd leaves unused (below
/// it, up to 0x6FFFFFFF, are its containers' ranges; above it, ranges it hands out and uids
/// that some tools read as negative).
pub const SANDBOX_UIDS: Range<u32> = 0x7000_0000..0x7FFF_0000;

/// The uids drawn from where the user namespace does not map [`SANDBOX_UIDS`] (a container
/// whose root is remapped usually maps 65,536 uids only): 64256 to 100000, skipping the
/// blocks that hold `nobody` (65534) and 65535. Only 140 blocks: two graders in such
/// containers on one kernel meet once in 140 times, unless the remapping gives each
/// container uids of its own on the host, as it usually does.
pub const FALLBACK_UIDS: Range<u32> = 64_256..100_000;

/// How many uids one grader process takes: two per worker, [`SECOND_LANE`] apart, so at most
/// [`MAX_WORKERS`] (half this many) workers.
pub const UID_BLOCK: u32 = 256;

/// How far a worker's second lane is from its first in the block: worker `w` runs children
/// as uid `w` and `w + SECOND_LANE` of the block ([`Slot`]).
pub const SECOND_LANE: u32 = UID_BLOCK / 2;

/// The most workers one block serves: each has two slots, [`SECOND_LANE`] apart.
pub const MAX_WORKERS: u32 = SECOND_LANE;

/// One of a grader's workers, `0..MAX_WORKERS`: the only way to name one, so no worker can
/// take another's uids (an index past the block does not make a `Worker`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Worker(u32);

impl Worker {
    /// The first worker: a grader that grades one submission at a time.
    pub const FIRST: Worker = Worker(0);

    /// Returns worker `index`, or `None` when `index` is [`MAX_WORKERS`] or more.
    ///
    /// # Example
    /// ```
    /// use crib_sandbox::{Worker, MAX_WORKERS};
    /// assert_eq!(Worker::new(3).map(Worker::index), Some(3));
    /// assert_eq!(Worker::new(MAX_WORKERS as usize), None);
    /// ```
    pub fn new(index: usize) -> Option<Worker> {
        u32::try_from(index)
            .ok()
            .filter(|&i| i < MAX_WORKERS)
            .map(Worker)
    }

    /// Returns the worker's index, below [`MAX_WORKERS`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The uid a child runs as: one of its worker's two lanes, each a uid of its own (so that
/// ending one lane's leftovers never touches the other's children), with one group, the
/// worker's (so that both read what the worker was handed). A grader that runs one
/// submission's children side by side gives them the two lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The worker's first lane.
    First(Worker),
    /// The worker's second lane.
    Second(Worker),
}

impl Slot {
    /// Returns the worker whose lane this is.
    pub fn worker(self) -> Worker {
        match self {
            Slot::First(worker) | Slot::Second(worker) => worker,
        }
    }

    /// Returns the slot's place in a block of [`UID_BLOCK`] uids, below it.
    fn offset(self) -> u32 {
        match self {
            Slot::First(worker) => worker.0,
            Slot::Second(worker) => worker.0 + SECOND_LANE,
        }
    }
}

/// How many blocks [`UidBlock::acquire_in`] draws before it gives up.
const DRAWS: usize = 64;

/// A block of [`UID_BLOCK`] uids held by this process: drawn at random, checked against the
/// processes and the users it can see, and locked with an exclusive `flock` on
/// `uids-<first>.lock` in [`uid_lock_dir`], which the kernel releases when the process dies,
/// however it dies.
#[derive(Debug)]
pub(crate) struct UidBlock {
    first: u32,
    _lock: std::fs::File,
}

impl UidBlock {
    /// Draws a free block from `space` ([`UidSpace::of_this_process`]) and locks it, with
    /// the lock file in `dir` ([`uid_lock_dir`]; tests use a directory and a space of their
    /// own).
    ///
    /// # Errors
    /// The I/O error of the lock directory; `WouldBlock` when every block drawn was in use;
    /// `Unsupported` when the space is empty (the user namespace maps neither range).
    pub fn acquire_in(dir: &Path, space: &UidSpace) -> io::Result<UidBlock> {
        crate::workdir::create_dir_mode(dir, 0o700)?;
        if space.blocks() == 0 {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "this user namespace maps no block of sandbox uids (see /proc/self/uid_map)",
            ));
        }
        let taken = uids_in_use();
        for _ in 0..DRAWS {
            let first = space.block(random_u64());
            let range = first..first + UID_BLOCK;
            if range.clone().any(|u| taken.contains(&u)) {
                continue;
            }
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
        Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            format!(
                "{DRAWS} blocks of sandbox uids drawn, each in use (locks in {})",
                dir.display()
            ),
        ))
    }

    /// Returns the uid of `slot`.
    pub fn uid(&self, slot: Slot) -> u32 {
        self.first + slot.offset()
    }

    /// Returns the gid of `slot`: its worker's, the uid of the worker's first lane.
    pub fn gid(&self, slot: Slot) -> u32 {
        self.first + Slot::First(slot.worker()).offset()
    }

    /// Returns the block's uids.
    pub fn range(&self) -> Range<u32> {
        self.first..self.first + UID_BLOCK
    }
}

impl Drop for UidBlock {
    fn drop(&mut self) {
        crate::workdir::remove_uids(self.range());
    }
}

/// The blocks a grader may draw: whole blocks of [`UID_BLOCK`] uids, aligned to it, inside
/// both the uid map and the gid map of its user namespace, skipping 65534 and 65535.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UidSpace {
    /// The first uid of each run of blocks, and how many blocks the run has.
    runs: Vec<(u32, u32)>,
}

impl UidSpace {
    /// Returns the space of this process: [`SANDBOX_UIDS`] as far as its user namespace maps
    /// it, else [`FALLBACK_UIDS`] as far as it maps that.
    ///
    /// # Errors
    /// `NotFound` when `/proc/self/uid_map` cannot be read (no `/proc`).
    pub fn of_this_process() -> io::Result<UidSpace> {
        let map = |name: &str| {
            std::fs::read_to_string(format!("/proc/self/{name}"))
                .map(|text| parse_id_map(&text))
                .map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::NotFound,
                        format!(
                            "cannot read /proc/self/{name} ({e}): crib needs /proc to give \
                             children uids of their own and to find and end their processes \
                             (mount it: mount -t proc proc /proc)"
                        ),
                    )
                })
        };
        let (uids, gids) = (map("uid_map")?, map("gid_map")?);
        let preferred = UidSpace::within(SANDBOX_UIDS, &uids, &gids);
        Ok(if preferred.blocks() > 0 {
            preferred
        } else {
            UidSpace::within(FALLBACK_UIDS, &uids, &gids)
        })
    }

    /// Returns the blocks of `range` that lie inside an extent of `uids` and one of `gids`
    /// (each extent a range of ids as seen inside the namespace).
    pub fn within(range: Range<u32>, uids: &[Range<u32>], gids: &[Range<u32>]) -> UidSpace {
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for u in uids {
            for g in gids {
                let start = range.start.max(u.start).max(g.start);
                let end = range.end.min(u.end).min(g.end);
                let mut block = start.div_ceil(UID_BLOCK) * UID_BLOCK;
                // Every whole block inside but those holding nobody (65534) and 65535.
                while let Some(next) = block.checked_add(UID_BLOCK).filter(|&e| e <= end) {
                    if !(block..next).contains(&65534) && !(block..next).contains(&65535) {
                        match runs.last_mut() {
                            Some((first, n)) if *first + *n * UID_BLOCK == block => *n += 1,
                            _ => runs.push((block, 1)),
                        }
                    }
                    block = next;
                }
            }
        }
        UidSpace { runs }
    }

    /// Returns how many blocks the space has.
    pub fn blocks(&self) -> u64 {
        self.runs.iter().map(|&(_, n)| u64::from(n)).sum()
    }

    /// Returns the first uid of block `draw` modulo [`UidSpace::blocks`] (which is not 0).
    fn block(&self, draw: u64) -> u32 {
        let mut index = draw % self.blocks();
        for &(start, n) in &self.runs {
            if index < u64::from(n) {
                return start + index as u32 * UID_BLOCK;
            }
            index -= u64::from(n);
        }
        unreachable!("the index is below the number of blocks")
    }
}

/// Parses `/proc/PID/uid_map` (or `gid_map`): each line `inside outside count`; returns the
/// inside ranges.
fn parse_id_map(text: &str) -> Vec<Range<u32>> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().map(|f| f.parse::<u64>().ok());
            let (inside, _outside, count) = (fields.next()??, fields.next()??, fields.next()??);
            let end = (inside + count).min(u64::from(u32::MAX));
            Some(u32::try_from(inside).ok()?..end as u32)
        })
        .collect()
}

/// Returns every uid and gid this process can see in use: those of the processes in `/proc`
/// (real, effective, saved and file system ids) and of the users and groups in `/etc/passwd`
/// and `/etc/group`.
fn uids_in_use() -> HashSet<u32> {
    let mut taken = HashSet::new();
    for (_, status) in crate::reap::statuses() {
        for line in status.lines() {
            if let Some(ids) = line
                .strip_prefix("Uid:")
                .or_else(|| line.strip_prefix("Gid:"))
            {
                taken.extend(
                    ids.split_whitespace()
                        .filter_map(|id| id.parse::<u32>().ok()),
                );
            }
        }
    }
    for file in ["/etc/passwd", "/etc/group"] {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        taken.extend(
            text.lines()
                .filter_map(|line| line.split(':').nth(2)?.parse::<u32>().ok()),
        );
    }
    taken
}

/// Returns 64 bits from the kernel's random source (the `getrandom` crate: the system
/// call itself, so that the release's binary needs no glibc that has the wrapper), falling
/// back on the time and the pid, which still differ between two graders started apart.
fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_ok() {
        return u64::from_ne_bytes(bytes);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
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

#[cfg(test)]
mod tests;
