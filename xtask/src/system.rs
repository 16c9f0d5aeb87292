//! System packages the project needs, installed with apt-get when missing and possible.

use std::process::Command;

use anyhow::{bail, Context, Result};

/// A Debian package and the program on PATH that shows it is installed, without asking
/// dpkg; `None` for libclang, a library found under /usr/lib/llvm-*.
pub struct Package {
    pub name: &'static str,
    program: Option<&'static str>,
}

impl Package {
    fn present(&self) -> bool {
        match self.program {
            Some(program) => on_path(program),
            None => std::fs::read_dir("/usr/lib")
                .into_iter()
                .flatten()
                .flatten()
                .any(|e| {
                    e.file_name().to_string_lossy().starts_with("llvm-")
                        && e.path().join("lib/libclang.so").exists()
                }),
        }
    }
}

const fn package(name: &'static str, program: &'static str) -> Package {
    Package {
        name,
        program: Some(program),
    }
}

const SWI_PROLOG: Package = package("swi-prolog-nox", "swipl");
const LIBCLANG: Package = Package {
    name: "libclang-dev",
    program: None,
};
const BUBBLEWRAP: Package = package("bubblewrap", "bwrap");
/// debootstrap, for the Debian roots of `cargo xtask compat` and `cargo xtask dist --try-in`.
pub const DEBOOTSTRAP: Package = package("debootstrap", "debootstrap");
/// zip, for the autograder's zip (`cargo xtask dist`).
pub const ZIP: Package = package("zip", "zip");
/// unzip, for trying the autograder's zip (`cargo xtask dist --try-in`).
pub const UNZIP: Package = package("unzip", "unzip");
/// Headless Chromium, for the browser check of the class report.
pub const CHROMIUM: Package = package("chromium", "chromium");

/// What `cargo xtask test` needs: Prolog for plunit and the oracle, libclang for its bindings,
/// bubblewrap for the grader's isolation tests.
pub const TEST_PACKAGES: &[Package] = &[SWI_PROLOG, LIBCLANG, BUBBLEWRAP];

/// What `cargo xtask verify` needs: Prolog and libclang for the embedded oracle.
pub const VERIFY_PACKAGES: &[Package] = &[SWI_PROLOG, LIBCLANG];

/// Installs the missing packages with apt-get, as root or through passwordless sudo.
///
/// # Errors
/// When a package is missing and cannot be installed; the message names the command to run.
pub fn ensure_packages(packages: &[Package]) -> Result<()> {
    let missing: Vec<&str> = packages
        .iter()
        .filter(|p| !p.present())
        .map(|p| p.name)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let install = format!("apt-get install -y {}", missing.join(" "));
    let prefix: &[&str] = if is_root() {
        &[]
    } else if Command::new("sudo")
        .args(["-n", "true"])
        .status()
        .is_ok_and(|s| s.success())
    {
        &["sudo", "-n"]
    } else {
        bail!("missing system packages; install them with: sudo apt-get update && sudo {install}");
    };
    if !on_path("apt-get") {
        bail!("missing system packages {missing:?} and no apt-get here; install them with your package manager");
    }
    eprintln!("xtask: installing {}", missing.join(" "));
    for args in [vec!["apt-get", "update", "-qq"], {
        let mut a = vec!["apt-get", "install", "-y", "-qq", "--no-install-recommends"];
        a.extend(&missing);
        a
    }] {
        let argv: Vec<&str> = prefix.iter().copied().chain(args).collect();
        let status = Command::new(argv[0])
            .args(&argv[1..])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .with_context(|| format!("cannot run {}", argv.join(" ")))?;
        if !status.success() {
            bail!("`{}` failed; run it by hand and try again", argv.join(" "));
        }
    }
    Ok(())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}
