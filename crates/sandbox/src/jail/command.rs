//! The command that starts one child with every layer in force, and its set-up between
//! fork and exec.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

use seccompiler::BpfProgram;

use super::{environment, Jail, Mounts, GRADER_DIR, SCRATCH_DIR, SUBMISSION_DIR};
use crate::confine::{self, CONFINE_ARG};
use crate::limits::{set_limit, Rlimits};
use crate::{landlock, seccomp, Slot};

impl Jail {
    /// Returns a command running `program args...` in the sandbox as `slot`, in a
    /// process group of its own, with `keep_fd` left open across exec.
    pub fn command(
        &self,
        mounts: &Mounts<'_>,
        args: &[String],
        limits: Rlimits,
        slot: Slot,
        keep_fd: Option<&OwnedFd>,
    ) -> Command {
        // Everything the layers need is made here, before the fork: the closure below
        // only makes system calls on it.
        let mut seccomp_pipe = None;
        let mut ruleset = None;
        let mut program = None;
        let mut setup_error = None;
        let mut cmd = if self.isolation.bwrap {
            let mut cmd = Command::new(&self.bwrap);
            cmd.args(self.bwrap_args(mounts));
            if let Some(filter) = &self.seccomp {
                // bubblewrap loads the filter into the sandboxed process, after its own
                // set-up (which needs netlink for the loopback), just before exec.
                match filter_pipe(filter) {
                    Ok(fd) => {
                        cmd.arg("--seccomp").arg(fd.as_raw_fd().to_string());
                        seccomp_pipe = Some(fd);
                    }
                    Err(e) => setup_error = e.raw_os_error().or(Some(libc::EIO)),
                }
            }
            // A confiner is set only with Landlock in force (Jail::confine_with).
            match &self.confiner {
                Some(confiner) => {
                    let confinement = confine::Confinement {
                        // As the child sees them; both tmpfs are its own.
                        paths: landlock::Paths::child(
                            self.program_home.as_deref(),
                            &[Path::new(GRADER_DIR), Path::new(SUBMISSION_DIR)],
                            // Not bubblewrap's /tmp: a child writes where it would without
                            // namespaces, in its scratch directory (TMP and TMPDIR say where).
                            &[Path::new(SCRATCH_DIR)],
                        ),
                        program: self.program.clone(),
                    };
                    cmd.arg("--ro-bind")
                        .arg(confiner)
                        .arg(confine::CONFINER)
                        .arg("--")
                        .arg(confine::CONFINER)
                        .arg(CONFINE_ARG)
                        .args(confinement.to_args());
                }
                None => {
                    cmd.arg("--").arg(&self.program);
                }
            }
            cmd
        } else {
            let mut cmd = Command::new(&self.program);
            cmd.current_dir(mounts.scratch)
                .env_clear()
                .envs(environment(mounts.scratch));
            if self.isolation.landlock.is_some() {
                let paths = landlock::Paths::child(
                    self.program_home.as_deref(),
                    &[mounts.grader, mounts.submission],
                    &[mounts.scratch],
                );
                match landlock::ruleset(&paths) {
                    Ok(fd) => ruleset = Some(fd),
                    Err(_) => setup_error = Some(libc::EPERM),
                }
            }
            program = self.seccomp.clone();
            cmd
        };
        cmd.args(args).process_group(0);
        let uid = self.uid(slot);
        let gid = self.gid(slot);
        let switch_uid = uid.is_some();
        if let (Some(uid), Some(gid)) = (uid, gid) {
            cmd.uid(uid).gid(gid);
            crate::workdir::add_uid(uid);
        }
        let fd = keep_fd.map(|fd| fd.as_raw_fd());
        if let (Some(fd), Some(uid), Some(gid)) = (fd, uid, gid) {
            // The child reopens the pipe through /proc/self/fd, which checks the pipe's
            // owner: give it to the sandbox uid.
            // SAFETY: fchown only changes the owner of the open file `fd`.
            unsafe {
                libc::fchown(fd, uid, gid);
            }
        }
        // SAFETY: the closure runs in the forked child before exec and only makes
        // async-signal-safe system calls (prctl, fcntl, setrlimit, landlock_restrict_self,
        // seccomp) on values computed above; it allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                if let Some(errno) = setup_error {
                    return Err(io::Error::from_raw_os_error(errno));
                }
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
                if let Some(pipe) = &seccomp_pipe {
                    if libc::fcntl(pipe.as_raw_fd(), libc::F_SETFD, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                if let Some(ruleset) = &ruleset {
                    landlock::restrict_self(ruleset)?;
                }
                if let Some(program) = &program {
                    seccomp::apply(program)?;
                }
                Ok(())
            });
        }
        cmd
    }
}

/// Returns the read end of a pipe holding `filter` as bubblewrap's `--seccomp` reads it
/// (close-on-exec; the child clears that for bubblewrap).
fn filter_pipe(filter: &BpfProgram) -> io::Result<OwnedFd> {
    use std::io::Write;
    let bytes = seccomp::to_bytes(filter);
    let (reader, mut writer) = io::pipe()?;
    // A filter is a few hundred bytes, far below a pipe's capacity: this cannot block.
    writer.write_all(&bytes)?;
    drop(writer);
    Ok(reader.into())
}
