//! The grader's work directories and what must not outlive the process: each work
//! directory is private, holds a lock its owner keeps for its life, is removed on drop and by
//! [`shutdown`] (the signal path), and is swept by the next grader after a death the process
//! could not see (SIGKILL); children and uid blocks are registered here so [`shutdown`] can
//! end them.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The prefix of every work directory's name, in the temporary directory.
pub const WORK_PREFIX: &str = "crib-grade-";
/// The lock file in each work directory: its owner holds an exclusive `flock` on it for
/// its life and wrote its pid in it.
const LOCK: &str = "owner.lock";

/// What [`shutdown`] ends: live work directories, children's process groups and the uids
/// children may run as.
struct Registry {
    dirs: Vec<PathBuf>,
    groups: Vec<i32>,
    uids: Vec<u32>,
    shut: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    dirs: Vec::new(),
    groups: Vec::new(),
    uids: Vec::new(),
    shut: false,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every child the graders of this process are running (their process groups, and
/// with uids of their own every process of those uids) and removes every work directory
/// they made. Meant for the thread that handles SIGINT and SIGTERM, just before the process
/// exits: graders used afterwards can no longer start children.
pub fn shutdown() {
    let mut reg = registry();
    reg.shut = true;
    for &group in &reg.groups {
        // SAFETY: kill only sends a signal, to a process group this process started.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    for &uid in &reg.uids {
        kill_uid(uid);
    }
    for dir in &reg.dirs {
        remove_all(dir);
    }
    reg.dirs.clear();
}

/// Records a child's process group, so that [`shutdown`] kills it; `false` (and the group
/// is not recorded) once [`shutdown`] has run: the caller must kill the child itself.
pub fn add_group(group: i32) -> bool {
    let mut reg = registry();
    if reg.shut {
        return false;
    }
    reg.groups.push(group);
    true
}

/// Returns whether `pid` is a child recorded with [`add_group`] (started by this process,
/// which still waits for it).
pub(crate) fn is_registered(pid: i32) -> bool {
    registry().groups.contains(&pid)
}

/// Forgets a child's process group once it is reaped.
pub fn remove_group(group: i32) {
    let mut reg = registry();
    if let Some(i) = reg.groups.iter().position(|&g| g == group) {
        reg.groups.swap_remove(i);
    }
}

/// Records a uid children run as, so that [`shutdown`] kills its processes.
pub(crate) fn add_uid(uid: u32) {
    let mut reg = registry();
    if !reg.uids.contains(&uid) {
        reg.uids.push(uid);
    }
}

/// Forgets the uids in `range` (a uid block given back).
pub(crate) fn remove_uids(range: std::ops::Range<u32>) {
    registry().uids.retain(|u| !range.contains(u));
}

/// Kills every process of `uid` (`kill -KILL -1` run as that uid, which can signal only its
/// own processes). Only for root, and only for uids this process owns.
pub(crate) fn kill_uid(uid: u32) {
    use std::os::unix::process::CommandExt;
    let _ = Command::new("kill")
        .args(["-KILL", "-1"])
        .uid(uid)
        .gid(uid)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Removes `dir` and everything in it, trying again briefly if a dying child still wrote
/// in it.
fn remove_all(dir: &Path) {
    for _ in 0..5 {
        match fs::remove_dir_all(dir) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => return,
        }
    }
}

/// A work directory: `<tmp>/crib-grade-<random>`, private to the grader, locked, removed
/// on drop.
///
/// Its mode is 0700 when children run under the grader's own uid, and 0711 when they run
/// under uids of their own (the grader runs as root): they may then pass through it to
/// paths they are given, but nobody but the grader can list it, and the directories of
/// submissions in it have random names and belong to the one uid grading them.
#[derive(Debug)]
pub struct WorkDir {
    path: PathBuf,
    _lock: File,
}

impl WorkDir {
    /// Removes the work directories of dead graders from `tmp`, then creates a new one there;
    /// `traversable` gives it mode 0711 instead of 0700.
    ///
    /// # Errors
    /// The I/O error of creating or locking it.
    pub fn create(tmp: &Path, traversable: bool) -> io::Result<WorkDir> {
        remove_stale(tmp);
        let path = tempfile::Builder::new()
            .prefix(WORK_PREFIX)
            .rand_bytes(12)
            .permissions(fs::Permissions::from_mode(0o700))
            .tempdir_in(tmp)?
            .keep();
        registry().dirs.push(path.clone());
        let lock = (|| {
            let mut lock = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(path.join(LOCK))?;
            flock(&lock, libc::LOCK_EX)?;
            // Written after locking: a lock file with no pid is one being set up.
            write!(lock, "{}", std::process::id())?;
            if traversable {
                fs::set_permissions(&path, fs::Permissions::from_mode(0o711))?;
            }
            Ok(lock)
        })();
        match lock {
            Ok(lock) => Ok(WorkDir { path, _lock: lock }),
            Err(e) => {
                forget_dir(&path);
                remove_all(&path);
                Err(e)
            }
        }
    }

    /// Returns the directory's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        forget_dir(&self.path);
        remove_all(&self.path);
    }
}

fn forget_dir(path: &Path) {
    registry().dirs.retain(|d| d != path);
}

/// Removes the work directories in `tmp` whose owner died without removing them: those
/// that belong to this uid and whose lock file holds a pid but no lock.
pub(crate) fn remove_stale(tmp: &Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    // SAFETY: geteuid cannot fail and touches no memory.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(WORK_PREFIX) {
            continue;
        }
        let dir = entry.path();
        let Ok(meta) = fs::symlink_metadata(&dir) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        if abandoned(&dir.join(LOCK)) {
            remove_all(&dir);
        }
    }
}

/// Returns whether `lock` is a lock file whose owner is gone: a regular file holding a pid
/// on which nobody holds a lock.
fn abandoned(lock: &Path) -> bool {
    let Ok(mut file) = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(lock)
    else {
        return false;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    if flock(&file, libc::LOCK_EX | libc::LOCK_NB).is_err() {
        return false;
    }
    let mut pid = String::new();
    let _ = Read::by_ref(&mut file).take(32).read_to_string(&mut pid);
    !pid.trim().is_empty()
}

/// `flock(2)` on `file`.
pub(crate) fn flock(file: &File, how: i32) -> io::Result<()> {
    // SAFETY: flock only acts on the open file descriptor.
    if unsafe { libc::flock(file.as_raw_fd(), how) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Creates `dir` with `mode` if it does not exist.
pub(crate) fn create_dir_mode(dir: &Path, mode: u32) -> io::Result<()> {
    match fs::DirBuilder::new().mode(mode).create(dir) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests;
