//! The resource limits of a child process, set between fork and exec.

use std::io;
use std::time::Duration;

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

impl Rlimits {
    /// The limits of a probe: a short `swipl` run that only checks a sandbox starts.
    pub const PROBE: Rlimits = Rlimits {
        memory: 1 << 30,
        cpu: Duration::from_secs(10),
        file_size: 1 << 20,
        processes: 64,
    };
}

/// A resource of `setrlimit`: glibc gives it a type of its own, musl (the release's static
/// binary) a plain `int`.
#[cfg(target_env = "gnu")]
pub(crate) type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
pub(crate) type Resource = libc::c_int;

/// Sets a resource limit, never above the current hard limit.
pub(crate) fn set_limit(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
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
