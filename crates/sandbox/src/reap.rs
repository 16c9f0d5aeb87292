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
struct Process {
    pid: i32,
    zombie: bool,
    parent: i32,
}

/// Returns the processes whose real uid is `uid`.
fn processes_of(uid: u32) -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue; // gone meanwhile
        };
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

/// Kills every process of `uid` and waits until none is left, reaping the zombies this
/// process adopted (never a child it started and still waits for: those are in the
/// registry of [`crate::add_group`]). Returns whether they were all gone within `limit`.
/// Only for root, and only for uids this process owns.
pub fn end_uid(uid: u32, limit: Duration) -> bool {
    let end = Instant::now() + limit;
    // SAFETY: getpid cannot fail.
    let me = unsafe { libc::getpid() };
    let mut pause = Duration::from_micros(200);
    loop {
        let left = processes_of(uid);
        if left.is_empty() {
            return true;
        }
        if left.iter().any(|p| !p.zombie) {
            crate::workdir::kill_uid(uid);
        }
        for p in left.iter().filter(|p| p.zombie && p.parent == me) {
            if !crate::workdir::is_registered(p.pid) {
                // SAFETY: waitpid on one pid, an orphan this process adopted: it reaps that
                // zombie and nothing else.
                unsafe {
                    libc::waitpid(p.pid, std::ptr::null_mut(), libc::WNOHANG);
                }
            }
        }
        if Instant::now() >= end {
            return false;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests;
