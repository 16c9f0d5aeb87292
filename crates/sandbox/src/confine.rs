//! Landlock under bubblewrap: a program that restricts itself, then becomes swipl.
//!
//! Landlock forbids mounting to a restricted process, so it cannot be applied before
//! bubblewrap (which mounts the sandbox's file system). Instead bubblewrap runs a *confiner*,
//! a copy of a program that calls [`confine_main`], bound read-only at [`CONFINER`]:
//!
//! ```text
//! bwrap ... --seccomp FD -- /crib-confine __crib-confine --read /usr ... --write /scratch \
//!     -- /usr/bin/swipl ARGS...
//! ```
//!
//! It builds the same Landlock ruleset as the rlimits mode (inside paths), restricts itself
//! and execs swipl, so every file layer of the host mode is in force under bubblewrap too.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::landlock::{self, Paths};

/// Set by [`confine_main`] when it returns `None`: this program calls it first thing in
/// `main`, so it can confine the jails it makes itself.
static SELF_CONFINER: AtomicBool = AtomicBool::new(false);

/// Returns this program's path when it can be the confiner of the jails it makes: when it
/// has called [`confine_main`] (which returned `None`); `None` otherwise, or when its path
/// is unknown.
pub(crate) fn self_confiner() -> Option<PathBuf> {
    SELF_CONFINER
        .load(Ordering::Relaxed)
        .then(std::env::current_exe)?
        .ok()
}

/// The first argument that makes a program using [`confine_main`] act as the confiner.
pub const CONFINE_ARG: &str = "__crib-confine";

/// Where the confiner is bound inside bubblewrap.
pub(crate) const CONFINER: &str = "/crib-confine";

/// What the confiner is asked to do: the paths the ruleset grants and the program it
/// becomes, written as arguments by [`Confinement::to_args`] and read back by
/// [`Confinement::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Confinement {
    /// The paths granted, as the confined process sees them.
    pub paths: Paths,
    /// The program to exec, then its arguments.
    pub program: PathBuf,
}

impl Confinement {
    /// Returns the arguments after [`CONFINE_ARG`]: `--read P`..., `--write P`..., `--`,
    /// the program; the program's own arguments follow them.
    pub(crate) fn to_args(&self) -> Vec<OsString> {
        let mut args = Vec::new();
        for (flag, list) in [("--read", &self.paths.read), ("--write", &self.paths.write)] {
            for path in list {
                args.push(OsString::from(flag));
                args.push(path.clone().into_os_string());
            }
        }
        args.push("--".into());
        args.push(self.program.clone().into_os_string());
        args
    }

    /// Reads [`Confinement::to_args`]'s arguments, and returns the confinement and the
    /// program's own arguments.
    ///
    /// # Errors
    /// A message naming the first argument that is not `--read`, `--write` or `--`, a flag
    /// with no path, or the missing program.
    pub(crate) fn parse(
        args: impl IntoIterator<Item = OsString>,
    ) -> Result<(Confinement, Vec<OsString>), String> {
        let mut args = args.into_iter();
        let mut paths = Paths::default();
        loop {
            let Some(flag) = args.next() else {
                return Err("no `--` before the program".into());
            };
            let list = match flag.to_str() {
                Some("--read") => &mut paths.read,
                Some("--write") => &mut paths.write,
                Some("--") => break,
                _ => return Err(format!("unexpected argument {flag:?}")),
            };
            let path = args
                .next()
                .ok_or_else(|| format!("{} needs a path", flag.to_string_lossy()))?;
            list.push(path.into());
        }
        let program = args.next().ok_or("no program after `--`")?.into();
        Ok((Confinement { paths, program }, args.collect()))
    }
}

/// Runs the confiner when `args` (a process's arguments, without the program name) start
/// with [`CONFINE_ARG`]: restricts the process with Landlock as the rest of the arguments
/// say, then execs the program they name. Returns `None` for any other arguments, so a
/// binary calls it first thing in `main` and carries on when it returns `None`; from then
/// on every [`crate::Jail`] it makes runs its children through the binary itself (Landlock
/// under bubblewrap, tried in the jail's first probe), as [`crate::Jail::confine_with`]
/// would.
///
/// On success it does not return. It returns `Some(error)` when the arguments are malformed,
/// the ruleset cannot be built or applied, or the exec fails; the caller reports the error
/// and exits non-zero (the grader then grades without this layer).
pub fn confine_main(args: &[OsString]) -> Option<io::Error> {
    let Some((_, rest)) = args
        .split_first()
        .filter(|(first, _)| first.as_os_str() == OsStr::new(CONFINE_ARG))
    else {
        SELF_CONFINER.store(true, Ordering::Relaxed);
        return None;
    };
    let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidInput, e);
    let (confinement, program_args) = match Confinement::parse(rest.iter().cloned()) {
        Ok(parsed) => parsed,
        Err(e) => return Some(invalid(e)),
    };
    let ruleset = match landlock::ruleset(&confinement.paths) {
        Ok(ruleset) => ruleset,
        Err(e) => return Some(invalid(e)),
    };
    if let Err(e) = landlock::restrict_self(&ruleset) {
        return Some(e);
    }
    drop(ruleset);
    Some(
        std::process::Command::new(&confinement.program)
            .args(program_args)
            .exec(),
    )
}

#[cfg(test)]
mod tests;
