//! Ending every process of a worker's uid, and waiting until they are gone.
//!
//! When the caller runs as root, every process a worker's children start runs as that
//! worker's uid, which no other process on the machine has ([`crate::SANDBOX_UIDS`]). So
//! "every descendant is gone" is checkable: no process of the uid is left in `/proc`. The
//! caller is made a child subreaper ([`become_subreaper`]), so orphans of its children
//! (bubblewrap's init inside its pid namespace, a detached `sleep`) are reparented to it
//! rather than to the machine's init, which may reap them late or never; [`end_uid`] reaps
//! those itself.

use std::time::{Duration, Instant};

/// How long [`end_uid`] waits for the last process of a uid at most.
pub const END_LIMIT: Duration = Duration::from_secs(10);

/// Makes this process a child subreaper: orphaned descendants are reparented to it.
pub(crate) fn become_subreaper() {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// One process of the uid, as `/proc/PID/status` says.
pub(crate) struct Process {
    pub(crate) pid: i32,
    pub(crate) zombie: bool,
    pub(crate) parent: i32,
}

/// Returns every process in `/proc` with the text of its `status` file, but those gone
/// meanwhile.
pub(crate) fn statuses() -> impl Iterator<Item = (i32, String)> {
    let entries = std::fs::read_dir("/proc").into_iter().flatten().flatten();
    entries.filter_map(|entry| {
        let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
        let status = std::fs::read_to_string(entry.path().join("status")).ok()?;
        Some((pid, status))
    })
}

/// Returns the processes whose real uid is `uid`.
pub(crate) fn processes_of(uid: u32) -> Vec<Process> {
    let mut found = Vec::new();
    for (pid, status) in statuses() {
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
                .unwrap_or("")
        };
        let real_uid = field("Uid:").split_whitespace().next();
        if real_uid != Some(uid.to_string().as_str()) {
            continue;
        }
        found.push(Process {
            pid,
            zombie: field("State:").starts_with('Z') || field("State:").starts_with('X'),
            parent: field("PPid:").parse().unwrap_or(0),
        });
    }
    found
}

/// Reaps the zombies among `processes` whose parent is this process, except the children
/// it started and still waits for (in the registry of [`crate::add_group`]).
pub(crate) fn reap_zombies(processes: &[Process]) {
    // SAFETY: getpid cannot fail.
    let me = unsafe { libc::getpid() };
    for p in processes.iter().filter(|p| p.zombie && p.parent == me) {
        if !crate::workdir::is_registered(p.pid) {
            // SAFETY: waitpid on one pid, an orphan this process adopted: it reaps that
            // zombie and nothing else.
            unsafe {
                libc::waitpid(p.pid, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
    }
}

/// Kills every process of `uid` and waits until none is left, reaping the zombies this
/// process adopted (never a child it started and still waits for: those are in the
/// registry of [`crate::add_group`]). Returns whether they were all gone within
/// [`END_LIMIT`]. Only for root, and only for uids this process owns.
pub(crate) fn end_uid(uid: u32) -> bool {
    let end = Instant::now() + END_LIMIT;
    let mut pause = Duration::from_micros(200);
    loop {
        let left = processes_of(uid);
        if left.is_empty() {
            return true;
        }
        if left.iter().any(|p| !p.zombie) {
            crate::workdir::kill_uid(uid);
        }
        reap_zombies(&left);
        if Instant::now() >= end {
            return false;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests;
