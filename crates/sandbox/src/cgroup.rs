//! Memory inside a container: the cgroup's limit, and children's limits that fit inside it.
//!
//! A container (Gradescope's: 768 MB by default) kills its largest process when its cgroup
//! runs out of memory, which would end the whole run. The grader reads the limit at start and
//! gives every child an address-space limit such that all the workers' children together stay
//! well inside it; a memory hog then meets its own limit (verdict `memory`) first.

use std::path::Path;

/// The share of the cgroup's limit the children may use together; the rest is for the
/// grader and what the address-space limit does not count.
const SHARE_PERCENT: u64 = 75;
/// The least address space a child gets: swipl needs about this much to start and load a
/// submission. Below it, fewer workers run at once.
pub const MIN_CHILD_MEMORY: u64 = 192 << 20;
/// Limits at or above this are "no limit" (cgroup v1 writes 2^63 rounded down to a page).
const UNLIMITED: u64 = 1 << 60;

/// Returns the memory limit, bytes, of the cgroup this process runs in: the smallest
/// `memory.max` (cgroup v2) or `memory.limit_in_bytes` (v1) of its cgroup and its ancestors,
/// or None when there is none or it cannot be read.
pub fn memory_limit() -> Option<u64> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    memory_limit_in(&cgroups, Path::new("/sys/fs/cgroup"))
}

/// Returns the memory limit for a process whose `/proc/self/cgroup` reads `cgroups`, with
/// the cgroup file systems mounted under `root` (`/sys/fs/cgroup`: v2 there or in
/// `unified/`, v1's memory controller in `memory/`).
pub fn memory_limit_in(cgroups: &str, root: &Path) -> Option<u64> {
    let mut best: Option<u64> = None;
    for line in cgroups.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let path = path.trim_start_matches('/');
        let places: Vec<(std::path::PathBuf, &str)> = if id == "0" && controllers.is_empty() {
            vec![
                (root.to_path_buf(), "memory.max"),
                (root.join("unified"), "memory.max"),
            ]
        } else if controllers.split(',').any(|c| c == "memory") {
            vec![
                (root.join("memory"), "memory.limit_in_bytes"),
                (root.join(controllers), "memory.limit_in_bytes"),
            ]
        } else {
            continue;
        };
        for (mount, file) in places {
            // The cgroup and each ancestor up to the mount: the smallest limit wins. Inside
            // a cgroup namespace the path may not exist below the mount; the mount's own
            // file is then the process's cgroup.
            let mut dir = mount.join(path);
            loop {
                if let Some(limit) = read_limit(&dir.join(file)) {
                    best = Some(best.map_or(limit, |b| b.min(limit)));
                }
                if dir == mount || !dir.pop() {
                    break;
                }
            }
        }
    }
    best
}

/// Reads one limit file: a number of bytes, or `max`.
fn read_limit(file: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let limit: u64 = text.trim().parse().ok()?;
    (limit < UNLIMITED).then_some(limit)
}

/// Each child's memory limit and the number of workers, fitted into a cgroup's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryFit {
    /// Address space of each child, bytes: the limit asked for, or less.
    pub per_child: u64,
    /// How many children may run at once: the workers asked for, or fewer.
    pub workers: usize,
    /// The cgroup's limit, bytes, when there is one.
    pub cgroup: Option<u64>,
    /// Whether the memory or the workers asked for were cut down to fit.
    pub reduced: bool,
}

impl MemoryFit {
    /// Returns `per_child` and `workers` cut down so that `workers x per_child` stays within
    /// 75% of `cgroup`: first each child's limit, down to [`MIN_CHILD_MEMORY`], then the
    /// number of workers (at least one).
    ///
    /// ```
    /// use crib_sandbox::MemoryFit;
    /// // Gradescope's default container, 768 MB, one worker: 1 GiB becomes 549 MiB.
    /// let fit = MemoryFit::new(1 << 30, 1, Some(768_000_000));
    /// assert_eq!((fit.per_child >> 20, fit.workers), (549, 1));
    /// assert!(fit.reduced);
    /// ```
    pub fn new(per_child: u64, workers: usize, cgroup: Option<u64>) -> MemoryFit {
        let workers = workers.max(1);
        let Some(limit) = cgroup else {
            return MemoryFit {
                per_child,
                workers,
                cgroup,
                reduced: false,
            };
        };
        let budget = limit / 100 * SHARE_PERCENT;
        let floor = MIN_CHILD_MEMORY.min(per_child);
        let fitted = workers.min(usize::try_from(budget / floor).unwrap_or(usize::MAX).max(1));
        let share = budget / fitted as u64;
        let fitted_child = per_child.min(share.max(floor));
        MemoryFit {
            per_child: fitted_child,
            workers: fitted,
            cgroup,
            reduced: fitted_child < per_child || fitted < workers,
        }
    }

    /// Returns how many children of [`MemoryFit::per_child`] each may run at once, up to
    /// `wanted`: as many as stay within 75% of the cgroup, and never fewer than the
    /// workers. A worker with cores to itself runs more than one child (the marked
    /// hand_value check, the deep check); this is how many there may be in all, so that
    /// extra children never cost any child its memory.
    ///
    /// ```
    /// use crib_sandbox::MemoryFit;
    /// // One submission on a 2-core machine with no cgroup limit: both cores.
    /// assert_eq!(MemoryFit::new(1 << 30, 1, None).children_at_once(2), 2);
    /// // Gradescope's 768 MB: the one child has all the memory, so it stays alone.
    /// assert_eq!(MemoryFit::new(1 << 30, 1, Some(768_000_000)).children_at_once(2), 1);
    /// ```
    pub fn children_at_once(&self, wanted: usize) -> usize {
        let room = match self.cgroup {
            Some(limit) => {
                let budget = limit / 100 * SHARE_PERCENT;
                usize::try_from(budget / self.per_child.max(1)).unwrap_or(usize::MAX)
            }
            None => usize::MAX,
        };
        wanted.min(room).max(self.workers)
    }
}

impl std::fmt::Display for MemoryFit {
    /// Writes what the summary says: `1024 MiB per child`, plus the cgroup's limit and
    /// anything cut down to fit it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} MiB per child", self.per_child >> 20)?;
        if let Some(limit) = self.cgroup {
            write!(f, " (cgroup limit {} MiB", limit >> 20)?;
            if self.reduced {
                f.write_str(", reduced to fit")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
