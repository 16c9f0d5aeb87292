//! The Landlock layer: a ruleset, built with the landlock crate, that lets a child read only
//! what SWI-Prolog needs and write only its scratch directory, denies every TCP bind and
//! connect (ABI 4 and later) and keeps its signals and abstract UNIX sockets inside its own
//! domain (ABI 6 and later), so it cannot signal the grader.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope, ABI,
};

/// The newest Landlock ABI whose rights the ruleset asks for; older kernels get what they
/// offer of it.
pub(crate) const TARGET: ABI = ABI::V6;

/// Files (not directories) that SWI-Prolog and the C library read at start.
const READ_FILES: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/dev/urandom",
    "/dev/random",
    "/dev/zero",
];

/// Directories SWI-Prolog's installation may live in, read-only.
const READ_DIRS: &[&str] = &[
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/sys/devices/system/cpu",
];

/// Returns the Landlock ABI whose rights are enforced: the kernel's (1, 2, ...), at most
/// [`TARGET`]; None when Landlock is not built in, not enabled, or its system calls are
/// blocked (a container's seccomp profile).
pub(crate) fn abi() -> Option<u8> {
    // SAFETY: with a null attribute, size 0 and LANDLOCK_CREATE_RULESET_VERSION, the call
    // only returns the ABI version; it reads and writes no memory.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    let kernel = u8::try_from(v).ok().filter(|&v| v > 0)?;
    Some(kernel.min(TARGET as u8))
}

/// The paths a child may use, on the host.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Paths {
    /// Read (and execute) beneath each.
    pub read: Vec<PathBuf>,
    /// Read, write, create and delete beneath each.
    pub write: Vec<PathBuf>,
}

impl Paths {
    /// Returns what a child may use: what SWI-Prolog needs wherever it runs (plus
    /// `swipl_home` when it is installed outside /usr), `read` to read and `write` to write
    /// too, all as the child sees them.
    pub(crate) fn child(swipl_home: Option<&Path>, read: &[&Path], write: &[&Path]) -> Paths {
        let read = READ_DIRS
            .iter()
            .chain(READ_FILES)
            .map(PathBuf::from)
            .chain(swipl_home.map(Path::to_path_buf))
            .chain(read.iter().map(|p| p.to_path_buf()))
            .collect();
        let write = std::iter::once(PathBuf::from("/dev/null"))
            .chain(write.iter().map(|p| p.to_path_buf()))
            .collect();
        Paths { read, write }
    }
}

/// Returns a ruleset file descriptor (close-on-exec) holding the rules for `paths`, ready for
/// `landlock_restrict_self`. Paths that do not exist are skipped.
///
/// # Errors
/// The landlock crate's message when the ruleset cannot be created.
pub(crate) fn ruleset(paths: &Paths) -> Result<OwnedFd, String> {
    let abi = TARGET;
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(|r| r.create())
        .map_err(|e| e.to_string())?;
    for (list, dir_rights) in [
        (&paths.read, AccessFs::from_read(abi)),
        (&paths.write, AccessFs::from_all(abi)),
    ] {
        for path in list {
            let Ok(fd) = PathFd::new(path) else { continue };
            let rights = if path.is_dir() {
                dir_rights
            } else {
                dir_rights & AccessFs::from_file(abi)
            };
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, rights))
                .map_err(|e| e.to_string())?;
        }
    }
    let fd: Option<OwnedFd> = ruleset.into();
    fd.ok_or_else(|| "Landlock is not supported by this kernel".into())
}

/// Restricts the calling thread with `ruleset`, after setting no_new_privs. Makes only two
/// system calls and allocates nothing, so it may run between fork and exec.
pub(crate) fn restrict_self(ruleset: &OwnedFd) -> std::io::Result<()> {
    // SAFETY: prctl(PR_SET_NO_NEW_PRIVS) and landlock_restrict_self only take integers.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, ruleset.as_raw_fd(), 0u32) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
