//! The sandbox a child runs in: bubblewrap namespaces where they work, rlimits always.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::GradeError;

/// How a child is kept from the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Isolation {
    /// bubblewrap: new user, pid, network, ipc, uts and mount namespaces; the only files
    /// visible are /usr (read-only), the grader's child program and tests (read-only), the
    /// submission's copy (read-only) and two small tmpfs (/scratch, the working directory,
    /// and /tmp). No network, all capabilities dropped. Plus the rlimits below.
    Bwrap,
    /// rlimits only (memory, CPU, file size, open files), in a scratch directory of its
    /// own, as an unprivileged uid when the grader runs as root. The submission can read
    /// what that uid can read and reach the network: use only on code you trust or inside
    /// a disposable container (Gradescope runs each submission in its own).
    Rlimits,
}

impl Isolation {
    /// Returns the name used in reports: `bwrap` or `rlimits`.
    pub fn name(self) -> &'static str {
        match self {
            Isolation::Bwrap => "bwrap",
            Isolation::Rlimits => "rlimits",
        }
    }
}

/// Which isolation to ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsolationChoice {
    /// bubblewrap if it works here, else rlimits only (and the reports say so).
    Auto,
    /// bubblewrap, or an error if it does not work here.
    Bwrap,
    /// rlimits only.
    Rlimits,
}

/// The resource limits of one child process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rlimits {
    /// Address space, bytes (RLIMIT_AS).
    pub memory: u64,
    /// CPU time (RLIMIT_CPU), whole seconds; SIGXCPU then SIGKILL a second later.
    pub cpu: Duration,
    /// Largest file the child may write, bytes (RLIMIT_FSIZE).
    pub file_size: u64,
    /// Processes and threads of the sandbox uid (RLIMIT_NPROC); only applied when the
    /// grader runs as root and gives each worker a uid of its own.
    pub processes: u64,
}

/// The first uid (and gid) children run as when the grader runs as root; worker `n` uses
/// `SANDBOX_UID + n`, so RLIMIT_NPROC counts one child's processes only.
pub const SANDBOX_UID: u32 = 64000;

/// Size of each tmpfs (/scratch and /tmp) inside bubblewrap.
pub const TMPFS_BYTES: u64 = 64 << 20;

/// Where things are, inside the sandbox and out.
#[derive(Debug, Clone)]
pub struct Jail {
    /// The isolation in use.
    pub isolation: Isolation,
    swipl: PathBuf,
    swipl_home: Option<PathBuf>,
    bwrap: PathBuf,
    root: bool,
}

/// The host directories a child sees.
#[derive(Debug, Clone)]
pub struct Mounts<'a> {
    /// Holds grade_child.pl and tests.pl; read-only.
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
    /// Returns a jail running `swipl`, with the isolation chosen, after checking that a child
    /// can start in it.
    ///
    /// # Errors
    /// [`GradeError::Swipl`] if `swipl` does not run; [`GradeError::Bwrap`] if bubblewrap
    /// was asked for and cannot start a sandbox here.
    pub fn new(swipl: &Path, choice: IsolationChoice) -> Result<Jail, GradeError> {
        let swipl = which(swipl).ok_or_else(|| GradeError::Swipl {
            path: swipl.to_path_buf(),
            message: "not found".into(),
        })?;
        let swipl = swipl.canonicalize().unwrap_or(swipl);
        let version = Command::new(&swipl)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| GradeError::Swipl {
                path: swipl.clone(),
                message: e.to_string(),
            })?;
        if !version.status.success() {
            return Err(GradeError::Swipl {
                path: swipl,
                message: format!("--version exited with {}", version.status),
            });
        }
        let swipl_home = if swipl.starts_with("/usr") {
            None
        } else {
            swipl.ancestors().nth(3).map(Path::to_path_buf)
        };
        let root = unsafe_free_geteuid() == 0;
        let mut jail = Jail {
            isolation: Isolation::Bwrap,
            swipl,
            swipl_home,
            bwrap: which(Path::new("bwrap")).unwrap_or_else(|| PathBuf::from("bwrap")),
            root,
        };
        match choice {
            IsolationChoice::Rlimits => jail.isolation = Isolation::Rlimits,
            IsolationChoice::Bwrap => jail.probe().map_err(GradeError::Bwrap)?,
            IsolationChoice::Auto => {
                if jail.probe().is_err() {
                    jail.isolation = Isolation::Rlimits;
                }
            }
        }
        Ok(jail)
    }

    /// Starts `swipl --version` in an empty sandbox.
    fn probe(&self) -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        open_up(dir.path()).map_err(|e| e.to_string())?;
        let mounts = Mounts {
            grader: dir.path(),
            submission: dir.path(),
            scratch: dir.path(),
        };
        let limits = Rlimits {
            memory: 1 << 30,
            cpu: Duration::from_secs(10),
            file_size: 1 << 20,
            processes: 64,
        };
        let mut cmd = self.command(&mounts, &["--version".to_string()], limits, 0, None);
        let out = cmd
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.bwrap.display()))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} exited with {}: {}",
                self.bwrap.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Returns the path of `path` (a file in `mounts.grader` or `mounts.submission`) as the
    /// child sees it.
    pub fn inside(&self, mounts: &Mounts<'_>, path: &Path) -> PathBuf {
        if self.isolation == Isolation::Rlimits {
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
        match self.isolation {
            Isolation::Bwrap => PathBuf::from(SUBMISSION_DIR),
            Isolation::Rlimits => mounts.submission.to_path_buf(),
        }
    }

    /// Returns a command running `swipl args...` in the sandbox as worker `slot`, in a
    /// process group of its own, with `keep_fd` left open across exec.
    pub fn command(
        &self,
        mounts: &Mounts<'_>,
        args: &[String],
        limits: Rlimits,
        slot: u32,
        keep_fd: Option<&OwnedFd>,
    ) -> Command {
        let mut cmd = match self.isolation {
            Isolation::Bwrap => {
                let mut cmd = Command::new(&self.bwrap);
                cmd.args(self.bwrap_args(mounts)).arg("--").arg(&self.swipl);
                cmd
            }
            Isolation::Rlimits => {
                let mut cmd = Command::new(&self.swipl);
                cmd.current_dir(mounts.scratch)
                    .env_clear()
                    .env("HOME", mounts.scratch)
                    .env("PATH", "/usr/bin:/bin")
                    .env("LANG", "C.UTF-8");
                cmd
            }
        };
        cmd.args(args).process_group(0);
        let switch_uid = self.root;
        if switch_uid {
            cmd.uid(SANDBOX_UID + slot).gid(SANDBOX_UID + slot);
        }
        let fd = keep_fd.map(|fd| fd.as_raw_fd());
        if let (Some(fd), true) = (fd, switch_uid) {
            // The child reopens the pipe through /proc/self/fd, which checks the pipe's
            // owner: give it to the sandbox uid.
            // SAFETY: fchown only changes the owner of the open file `fd`.
            unsafe {
                libc::fchown(fd, SANDBOX_UID + slot, SANDBOX_UID + slot);
            }
        }
        // SAFETY: the closure runs in the forked child before exec and only makes
        // async-signal-safe system calls (prctl, fcntl, setrlimit) on values computed above.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if let Some(fd) = fd {
                    if libc::fcntl(fd, libc::F_SETFD, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                let cpu = limits.cpu.as_secs().max(1);
                set_limit(libc::RLIMIT_AS, limits.memory, limits.memory)?;
                set_limit(libc::RLIMIT_CPU, cpu, cpu + 1)?;
                set_limit(libc::RLIMIT_FSIZE, limits.file_size, limits.file_size)?;
                set_limit(libc::RLIMIT_NOFILE, 256, 256)?;
                set_limit(libc::RLIMIT_CORE, 0, 0)?;
                if switch_uid {
                    set_limit(libc::RLIMIT_NPROC, limits.processes, limits.processes)?;
                }
                Ok(())
            });
        }
        cmd
    }

    /// Kills whatever a child of worker `slot` left behind. Under bubblewrap the pid
    /// namespace dies with the child, so there is nothing to do; with rlimits only, a process
    /// that left the child's process group (setsid) would survive, so when the grader runs
    /// as root every process of the worker's uid is killed (`kill -KILL -1` run as that uid).
    pub fn sweep(&self, slot: u32) {
        if self.isolation == Isolation::Rlimits && self.root {
            let _ = Command::new("kill")
                .args(["-KILL", "-1"])
                .uid(SANDBOX_UID + slot)
                .gid(SANDBOX_UID + slot)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }

    fn bwrap_args(&self, mounts: &Mounts<'_>) -> Vec<String> {
        let mut args: Vec<String> = [
            "--unshare-all",
            "--unshare-user",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--ro-bind",
            "/usr",
            "/usr",
        ]
        .map(String::from)
        .to_vec();
        for dir in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            let path = Path::new(dir);
            match std::fs::read_link(path) {
                Ok(target) => {
                    args.extend(["--symlink".into(), target.display().to_string(), dir.into()])
                }
                Err(_) if path.is_dir() => {
                    args.extend(["--ro-bind".into(), dir.into(), dir.into()]);
                }
                Err(_) => {}
            }
        }
        if let Some(home) = &self.swipl_home {
            let home = home.display().to_string();
            args.extend(["--ro-bind".into(), home.clone(), home]);
        }
        let size = TMPFS_BYTES.to_string();
        args.extend(
            [
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--size",
                &size,
                "--tmpfs",
                "/tmp",
                "--size",
                &size,
                "--tmpfs",
                "/scratch",
                "--ro-bind",
                &mounts.grader.display().to_string(),
                GRADER_DIR,
                "--ro-bind",
                &mounts.submission.display().to_string(),
                SUBMISSION_DIR,
                "--chdir",
                "/scratch",
                "--clearenv",
                "--setenv",
                "HOME",
                "/scratch",
                "--setenv",
                "PATH",
                "/usr/bin:/bin",
                "--setenv",
                "LANG",
                "C.UTF-8",
                "--hostname",
                "sandbox",
            ]
            .map(String::from),
        );
        args
    }
}

/// Sets a resource limit, never above the current hard limit.
fn set_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> io::Result<()> {
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(resource, &mut old) != 0 {
            return Err(io::Error::last_os_error());
        }
        let hard = hard.min(old.rlim_max);
        let new = libc::rlimit {
            rlim_cur: soft.min(hard),
            rlim_max: hard,
        };
        if libc::setrlimit(resource, &new) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

fn unsafe_free_geteuid() -> u32 {
    // SAFETY: geteuid cannot fail and touches no memory.
    unsafe { libc::geteuid() }
}

/// Makes `dir` and everything in it readable by every uid, so an unprivileged sandbox uid
/// can read the grader's files and the submission's copy.
///
/// # Errors
/// The I/O error of the first file whose mode cannot be changed.
pub fn open_up(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.is_dir() {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
        for entry in std::fs::read_dir(dir)? {
            open_up(&entry?.path())?;
        }
    } else if meta.is_file() {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o644))?;
    }
    Ok(())
}

/// Gives `dir` to worker `slot`'s uid when the grader runs as root, so the child can write
/// in its scratch directory.
///
/// # Errors
/// The I/O error of chown.
pub fn give_to_slot(dir: &Path, slot: u32) -> io::Result<()> {
    if unsafe_free_geteuid() == 0 {
        std::os::unix::fs::chown(dir, Some(SANDBOX_UID + slot), Some(SANDBOX_UID + slot))?;
    }
    Ok(())
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
