//! Debian roots of other releases, made with `debootstrap`, for running crib where staff do:
//! under another SWI-Prolog (`cargo xtask compat`) and with nothing but the release's zip
//! (`cargo xtask dist --try-in`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::system;

/// The Debian releases crib is tried on, whose archives hold SWI-Prolog 8.2.4, 9.0.4 and
/// 9.2.9.
pub const SUITES: &[&str] = &["bullseye", "bookworm", "trixie"];

/// Returns the root `target/compat/NAME` of `suite`, made with `debootstrap
/// --variant=minbase` with `packages` in it when it is not there yet (a minute or less, and
/// about 300 MB), or the one made before with the same packages.
///
/// # Errors
/// When the suite is not one of [`SUITES`], debootstrap cannot be installed, or it fails
/// (its log is named).
pub fn make(root: &Path, name: &str, suite: &str, packages: &[&str]) -> Result<PathBuf> {
    if !SUITES.contains(&suite) {
        let known = SUITES.join(", ");
        bail!("unknown Debian suite {suite:?}: expected one of {known}");
    }
    let dir = root.join("target/compat").join(name);
    let marker = dir.join(".crib-root-packages");
    let wanted = packages.join(",");
    if std::fs::read_to_string(&marker).is_ok_and(|had| had.trim() == wanted) {
        return Ok(dir);
    }
    system::ensure_packages(&[system::DEBOOTSTRAP])?;
    let tmp = root.join("target/compat").join(format!("{name}.partial"));
    crate::fresh_dir(&tmp).with_context(|| format!("removing {}", tmp.display()))?;
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    let log = root.join(format!("target/compat/{name}.debootstrap.log"));
    let mut cmd = Command::new("debootstrap");
    cmd.arg("--variant=minbase");
    if !packages.is_empty() {
        cmd.arg(format!("--include={wanted}"));
    }
    cmd.arg(suite).arg(&tmp);
    let out = std::fs::File::create(&log)?;
    cmd.stdout(out.try_clone()?).stderr(out);
    crate::run_or(
        &mut cmd,
        format!("debootstrap of {suite} failed: see {}", log.display()),
    )?;
    std::fs::rename(&tmp, &dir)?;
    // Name resolution for apt-get in the root.
    let _ = std::fs::copy("/etc/resolv.conf", dir.join("etc/resolv.conf"));
    std::fs::write(&marker, &wanted)?;
    Ok(dir)
}

/// A root with the host's `/proc` (a new mount of it) and `/dev` mounted in it, unmounted
/// when dropped, however the work in it ended.
pub struct Mounted {
    dir: PathBuf,
    mounts: Vec<PathBuf>,
}

impl Mounted {
    /// Mounts `/proc` and binds `/dev` into `dir`.
    ///
    /// # Errors
    /// When a mount fails (it needs root).
    pub fn new(dir: &Path) -> Result<Mounted> {
        let mut mounted = Mounted {
            dir: dir.to_path_buf(),
            mounts: Vec::new(),
        };
        for (what, args) in [
            ("proc", vec!["-t", "proc", "proc"]),
            ("dev", vec!["--bind", "/dev"]),
        ] {
            let at = dir.join(what);
            std::fs::create_dir_all(&at)?;
            let ok = Command::new("mount")
                .args(&args)
                .arg(&at)
                .status()
                .with_context(|| format!("cannot run mount for {}", at.display()))?
                .success();
            if !ok {
                bail!("cannot mount /{what} in {} (run as root)", dir.display());
            }
            mounted.mounts.push(at);
        }
        Ok(mounted)
    }

    /// Returns `chroot DIR program`.
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new("chroot");
        cmd.arg(&self.dir).arg(program);
        cmd.env("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
        cmd.env("TMPDIR", "/tmp");
        cmd
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        for at in self.mounts.iter().rev() {
            let _ = Command::new("umount").arg("--lazy").arg(at).status();
        }
    }
}

/// Returns what `swipl --version` says, `swipl` being the host's or a root's
/// ([`Mounted::command`]).
pub fn swipl_version(mut swipl: Command) -> Result<String> {
    let out = swipl
        .arg("--version")
        .output()
        .with_context(|| format!("cannot run {}", crate::describe(&swipl)))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}
