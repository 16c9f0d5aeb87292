//! [`Jail`]: finding the layers that work here, where a child's files are, inside the
//! sandbox and out, and its uid; the command that starts it is in `jail/command.rs`.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use seccompiler::BpfProgram;

use crate::files::set_tree;
use crate::limits::Rlimits;
use crate::uids::{uid_lock_dir, Slot, UidBlock, UidSpace, Worker};
use crate::{landlock, seccomp, SandboxError};
use crib_isolation::{Isolation, IsolationChoice};

/// The scratch directory as the child sees it under bubblewrap (a tmpfs of its own).
pub const SCRATCH_DIR: &str = "/scratch";

/// The child's temporary directory, inside its scratch directory in every mode.
pub const TMP_NAME: &str = "tmp";

/// Returns a child's whole environment, the same in every mode but for where `scratch` is:
/// HOME is the scratch directory; TMP (SWI-Prolog's `tmp_dir`), TMPDIR and TEMP are its
/// `tmp` subdirectory (made by [`Jail::give_scratch`], or by bubblewrap); PATH is
/// `/usr/bin:/bin`; LANG is `C.UTF-8`.
pub fn environment(scratch: &Path) -> Vec<(&'static str, std::ffi::OsString)> {
    let tmp = scratch.join(TMP_NAME).into_os_string();
    vec![
        ("HOME", scratch.as_os_str().to_owned()),
        ("TMP", tmp.clone()),
        ("TMPDIR", tmp.clone()),
        ("TEMP", tmp),
        ("PATH", "/usr/bin:/bin".into()),
        ("LANG", "C.UTF-8".into()),
    ]
}

/// Size of each tmpfs (/scratch and /tmp) inside bubblewrap.
pub const TMPFS_BYTES: u64 = 64 << 20;

/// Where things are, inside the sandbox and out, and the layers applied to each child.
#[derive(Debug, Clone)]
pub struct Jail {
    /// The isolation in use.
    pub isolation: Isolation,
    /// The program children run (resolved on PATH, canonical).
    program: PathBuf,
    /// The first line the program printed for `--version`.
    program_version: String,
    /// Its installation when outside /usr (bound read-only under bubblewrap, readable under
    /// Landlock): the directory three levels above the binary.
    program_home: Option<PathBuf>,
    /// The arguments of a probe run: the program starts and exits 0 at once.
    probe_args: Vec<String>,
    bwrap: PathBuf,
    /// The grader's own uids for children, when it runs as root (and so switches uid).
    uids: Option<Arc<UidBlock>>,
    /// The seccomp filter, compiled once, when that layer is in force.
    seccomp: Option<Arc<BpfProgram>>,
    /// The confiner's copy on the host, when Landlock is in force under bubblewrap
    /// ([`Jail::confine_with`]).
    confiner: Option<PathBuf>,
}

/// The host directories a child sees.
#[derive(Debug, Clone)]
pub struct Mounts<'a> {
    /// Holds the child programs (answer_child.pl or lint_child.pl, and child_lib.pl beside
    /// them) and their inputs (the batch files); read-only.
    pub grader: &'a Path,
    /// The submission's copy; read-only.
    pub submission: &'a Path,
    /// The working directory when not under bubblewrap (bubblewrap uses a tmpfs).
    pub scratch: &'a Path,
}

/// Paths as the child sees them under bubblewrap.
pub const GRADER_DIR: &str = "/grader";
/// The submission's copy as the child sees it under bubblewrap.
pub const SUBMISSION_DIR: &str = "/submission";

impl Jail {
    /// Returns a jail running `program` (a path, or a name looked up on PATH), with the
    /// isolation chosen and every other layer the kernel offers (seccomp; Landlock without
    /// bubblewrap, and under it with [`Jail::confine_with`]), after checking that a child can
    /// start in it: `program probe_args...` must exit 0 (for swipl, `--no-tty -q -g halt`); a
    /// layer that keeps it from doing so is dropped (Landlock first). The probe runs in a
    /// directory made (and removed) in `work`. When the caller runs as root, the jail takes a
    /// block of sandbox uids of its own ([`crate::SANDBOX_UIDS`]) for its life.
    ///
    /// # Errors
    /// [`SandboxError::Program`] if `program` does not run (`--version` fails), even with no
    /// layer; [`SandboxError::Bwrap`] if bubblewrap was asked for and cannot start a sandbox
    /// here; [`SandboxError::Isolation`] if `Strict` was asked for and the network or the
    /// host's files stay open to children; [`SandboxError::Io`] if no block of uids is free,
    /// or (as root) there is no `/proc` to find children's processes in.
    pub fn new(
        program: &Path,
        probe_args: &[&str],
        choice: IsolationChoice,
        work: &Path,
    ) -> Result<Jail, SandboxError> {
        let found = which(program).ok_or_else(|| SandboxError::program(program, "not found"))?;
        let found = found.canonicalize().unwrap_or(found);
        // `--version` runs while the sandbox is probed: both mostly wait on the program's start.
        let version = Command::new(&found)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SandboxError::program(&found, e))?;
        let program_home = if found.starts_with("/usr") {
            None
        } else {
            found.ancestors().nth(3).map(Path::to_path_buf)
        };
        let uids = if is_root() {
            // Orphans of children come back to this process, so ending leftovers can reap them.
            crate::reap::become_subreaper();
            let block = UidSpace::of_this_process()
                .and_then(|space| UidBlock::acquire_in(&uid_lock_dir(), &space))
                .map_err(|e| SandboxError::io("taking a block of sandbox uids", e))?;
            Some(Arc::new(block))
        } else {
            None
        };
        let seccomp = seccomp::available()
            .then(|| seccomp::program().ok().map(Arc::new))
            .flatten();
        let landlock = landlock::abi();
        let mut jail = Jail {
            isolation: Isolation::default(),
            program: found,
            program_version: String::new(),
            program_home,
            probe_args: probe_args.iter().map(|a| a.to_string()).collect(),
            bwrap: which(Path::new("bwrap")).unwrap_or_else(|| PathBuf::from("bwrap")),
            uids,
            seccomp: None,
            confiner: None,
        };
        let settled = jail.settle_any(choice, seccomp, landlock, work);
        jail.program_version = program_version(&jail.program, version)?;
        settled?;
        jail.check(choice)
    }

    /// Settles the isolation `choice` allows, as [`Jail::new`] says: bubblewrap first unless
    /// `choice` is `Rlimits` (with Landlock applied by this very program when it confines
    /// itself, [`crate::confine::self_confiner`]), then without it unless `choice` is `Bwrap`.
    fn settle_any(
        &mut self,
        choice: IsolationChoice,
        seccomp: Option<Arc<BpfProgram>>,
        landlock: Option<u8>,
        work: &Path,
    ) -> Result<(), SandboxError> {
        let mut bwrap_error = None;
        if choice != IsolationChoice::Rlimits {
            // Landlock would stop bubblewrap from mounting, so under bubblewrap it is
            // applied by a confiner inside the sandbox: this program when it is one (tried in
            // the same probe), else one given later (Jail::confine_with).
            let confiner = landlock
                .and_then(|_| crate::confine::self_confiner())
                .and_then(|exe| place_confiner(&exe, work).ok());
            let confined = confiner.as_ref().and(landlock);
            self.confiner = confiner;
            match self.settle(true, seccomp.clone(), confined, work) {
                Ok(()) => return Ok(()),
                Err(e) if choice == IsolationChoice::Bwrap => return Err(SandboxError::Bwrap(e)),
                Err(e) => bwrap_error = Some(e),
            }
            self.confiner = None;
        }
        self.settle(false, seccomp, landlock, work).map_err(|e| {
            let bwrap = bwrap_error.map(|b| format!(" (bwrap: {b})"));
            let why = format!(
                "it does not start in a sandbox: {e}{}",
                bwrap.unwrap_or_default()
            );
            SandboxError::program(&self.program, why)
        })
    }

    /// Sets the isolation to `bwrap` (or not) with as many of the other layers offered as let
    /// the program start: if it does not start, Landlock then seccomp are dropped in turn.
    /// Under bubblewrap, Landlock is the confiner's (set before): dropping it drops the
    /// confiner.
    fn settle(
        &mut self,
        bwrap: bool,
        seccomp: Option<Arc<BpfProgram>>,
        landlock: Option<u8>,
        work: &Path,
    ) -> Result<(), String> {
        let mut tries = vec![(seccomp.clone(), landlock)];
        if landlock.is_some() {
            tries.push((seccomp.clone(), None));
        }
        if seccomp.is_some() {
            tries.push((None, None));
        }
        let mut first_error = None;
        for (seccomp, landlock) in tries {
            self.isolation = Isolation {
                bwrap,
                seccomp: seccomp.is_some(),
                landlock,
            };
            if landlock.is_none() {
                self.confiner = None;
            }
            self.seccomp = seccomp;
            match self.probe(work) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_default())
    }

    /// Adds Landlock under bubblewrap: from now on bubblewrap runs a copy of `program` (a
    /// link in `work` when anyone may run it, else a copy), which restricts itself with the
    /// same Landlock rules as a child without bubblewrap, then execs the program. `program`
    /// must call [`crate::confine_main`] first thing in its `main` (the `crib` binary does). Does
    /// nothing unless bubblewrap is in force and the kernel offers Landlock, or Landlock is
    /// in force already (as it is when the program making the jail confines itself,
    /// [`Jail::new`]); checks that the program still starts, as [`Jail::new`] does.
    ///
    /// # Errors
    /// [`SandboxError::Confine`] saying why the layer could not be added (the copy failed, or
    /// the program does not start with it); the jail is then left as it was.
    pub fn confine_with(&mut self, program: &Path, work: &Path) -> Result<(), SandboxError> {
        let Some(abi) = landlock::abi() else {
            return Ok(());
        };
        if !self.isolation.bwrap || self.isolation.landlock.is_some() {
            return Ok(());
        }
        let copy = place_confiner(program, work)
            .map_err(|e| SandboxError::Confine(format!("copying {}: {e}", program.display())))?;
        let before = (self.isolation, self.confiner.take());
        self.isolation.landlock = Some(abi);
        self.confiner = Some(copy);
        self.probe(work).map_err(|why| {
            (self.isolation, self.confiner) = before;
            SandboxError::Confine(why)
        })
    }

    /// Returns the jail, or an error if `choice` is `Strict` and the network or the host's
    /// files are open to children.
    fn check(self, choice: IsolationChoice) -> Result<Jail, SandboxError> {
        let i = self.isolation;
        if choice == IsolationChoice::Strict && !(i.network() && i.files()) {
            return Err(SandboxError::Isolation(format!(
                "only {} is in force here: {}",
                i.name(),
                i.warnings().join("; ")
            )));
        }
        Ok(self)
    }

    /// Starts the program with the probe arguments (to exit at once) in an empty sandbox with the current layers, in a
    /// directory made in `work`.
    fn probe(&self, work: &Path) -> Result<(), String> {
        let slot = Slot::First(Worker::FIRST);
        let dir = tempfile::Builder::new().prefix("probe-").tempdir_in(work);
        let dir = dir.map_err(|e| e.to_string())?;
        let scratch = dir.path().join("scratch");
        std::fs::create_dir(&scratch)
            .and_then(|()| self.hand_over(dir.path(), slot))
            .and_then(|()| self.give_scratch(&scratch, slot))
            .map_err(|e| e.to_string())?;
        let mounts = Mounts {
            grader: dir.path(),
            submission: dir.path(),
            scratch: &scratch,
        };
        let mut cmd = self.command(&mounts, &self.probe_args, Rlimits::PROBE, slot, None);
        let program = cmd.get_program().to_owned();
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", program.to_string_lossy()))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} ({}) exited with {}: {}",
                program.to_string_lossy(),
                self.isolation.name(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Returns the path of `path` (a file in `mounts.grader` or `mounts.submission`) as the
    /// child sees it.
    pub fn inside(&self, mounts: &Mounts<'_>, path: &Path) -> PathBuf {
        if !self.isolation.bwrap {
            return path.to_path_buf();
        }
        if let Ok(rest) = path.strip_prefix(mounts.grader) {
            return Path::new(GRADER_DIR).join(rest);
        }
        if let Ok(rest) = path.strip_prefix(mounts.submission) {
            return Path::new(SUBMISSION_DIR).join(rest);
        }
        path.to_path_buf()
    }

    /// Returns the directory holding the submission's copy, as the child sees it.
    pub fn submission_dir(&self, mounts: &Mounts<'_>) -> PathBuf {
        if self.isolation.bwrap {
            PathBuf::from(SUBMISSION_DIR)
        } else {
            mounts.submission.to_path_buf()
        }
    }

    /// Returns the first line the program printed for `--version` (for swipl,
    /// `SWI-Prolog version 9.0.4 for x86_64-linux`).
    pub fn program_version(&self) -> &str {
        &self.program_version
    }

    /// Returns the uid (and gid) `slot`'s children run as: one of this jail's own
    /// block when the grader runs as root, else `None` (children keep the grader's uid).
    pub fn uid(&self, slot: Slot) -> Option<u32> {
        self.uids.as_ref().map(|block| block.uid(slot))
    }

    /// Returns the gid `slot`'s children run as, the group of the files handed over to
    /// it: its worker's (a worker's two lanes share it), or `None` as [`Jail::uid`].
    pub fn gid(&self, slot: Slot) -> Option<u32> {
        self.uids.as_ref().map(|block| block.gid(slot))
    }

    /// Returns this jail's block of uids, when the caller runs as root: every process its
    /// children start runs as one of them, and none is left once [`Jail::end_leftovers`] returns.
    pub fn uids(&self) -> Option<std::ops::Range<u32>> {
        self.uids.as_ref().map(|block| block.range())
    }

    /// Kills whatever a child of `slot` left behind and waits until it is gone. When
    /// the caller runs as root, every process of the slot's uid (one of this jail's own
    /// block: no other grader's children are touched) is killed, in every mode, and the call
    /// returns when none is left, its adopted zombies reaped (at most [`crate::END_LIMIT`];
    /// `false` if something outlived that). Without uids of its own there is nothing to find
    /// the descendants by: under bubblewrap the pid namespace dies with the child; with
    /// rlimits only, a process that left the child's process group can outlive it.
    pub fn end_leftovers(&self, slot: Slot) -> bool {
        match self.uid(slot) {
            Some(uid) => crate::reap::end_uid(uid),
            None => true,
        }
    }

    /// Reaps the zombies `slot`'s children left (orphans this process adopted: bubblewrap's
    /// init), killing nothing: safe while other children of the slot run. Each counts
    /// against the uid's process limit until reaped, so a lane whose children run side by
    /// side calls it after a child that died. Does nothing unless the caller runs as root.
    pub fn reap_adopted(&self, slot: Slot) {
        if let Some(uid) = self.uid(slot) {
            crate::reap::reap_zombies(&crate::reap::processes_of(uid));
        }
    }

    /// Makes `dir` and everything in it readable by the children of `slot`'s worker (of both
    /// its lanes) and nobody else: directories 0750 and files 0640, with the worker's gid as
    /// their group when the grader runs as root (symbolic links are left alone, never
    /// followed).
    ///
    /// # Errors
    /// The I/O error of the first entry whose mode or group cannot be changed.
    pub fn hand_over(&self, dir: &Path, slot: Slot) -> io::Result<()> {
        set_tree(dir, [0o750, 0o640], self.gid(slot))
    }

    /// Gives `dir` to `slot`'s uid and gid (mode 0700), so its children, and only
    /// they (not even the worker's other lane), can write in it.
    ///
    /// # Errors
    /// The I/O error of chown or chmod.
    pub fn give_scratch(&self, dir: &Path, slot: Slot) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let tmp = dir.join(TMP_NAME);
        crate::workdir::create_dir_mode(&tmp, 0o700)?;
        for dir in [dir, tmp.as_path()] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
            if let Some(uid) = self.uid(slot) {
                std::os::unix::fs::chown(dir, Some(uid), self.gid(slot))?;
            }
        }
        Ok(())
    }
}

/// Returns whether the grader runs as root (and so gives children uids of their own).
pub fn is_root() -> bool {
    // SAFETY: geteuid cannot fail and touches no memory.
    unsafe { libc::geteuid() == 0 }
}

/// Puts the confiner `program` where bubblewrap binds it from, in `work`, and returns its
/// path there: a link when anyone may run the program as it is (no 20 MB copy); a copy
/// opened up to the children's uids otherwise, or across file systems.
fn place_confiner(program: &Path, work: &Path) -> io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let dir = work.join("confiner");
    let copy = dir.join("crib-confine");
    crate::workdir::create_dir_mode(&dir, 0o755)?;
    let open = std::fs::metadata(program)?.permissions().mode() & 0o005 == 0o005;
    // Never a copy onto a link left by an earlier call: that would empty the program.
    let _ = std::fs::remove_file(&copy);
    if !(open && std::fs::hard_link(program, &copy).is_ok()) {
        std::fs::copy(program, &copy)?;
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755))?;
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
    Ok(copy)
}

/// Waits for `program --version` and returns the first line it printed.
///
/// # Errors
/// [`SandboxError::Program`] if it could not be waited for or did not exit 0.
fn program_version(program: &Path, version: std::process::Child) -> Result<String, SandboxError> {
    let version = version
        .wait_with_output()
        .map_err(|e| SandboxError::program(program, e))?;
    if !version.status.success() {
        let why = match String::from_utf8_lossy(&version.stderr).lines().next() {
            Some(line) if !line.trim().is_empty() => format!(": {}", line.trim()),
            _ => String::new(),
        };
        let message = format!("--version exited with {}{why}", version.status);
        return Err(SandboxError::program(program, message));
    }
    Ok(String::from_utf8_lossy(&version.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string())
}

/// Returns `program` if it is a path to a file, else the first match on `PATH`.
fn which(program: &Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.is_file().then(|| program.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

mod bwrap;
mod command;

#[cfg(test)]
mod tests;
