//! The `crib-confine` binary: Landlock applied by a program that then becomes another.

use std::path::Path;
use std::process::Command;

const CONFINE: &str = env!("CARGO_BIN_EXE_crib-confine");

fn landlock_here() -> bool {
    // The same question the jail asks: does the kernel offer Landlock at all?
    // SAFETY: with a null attribute, size 0 and the version flag, the call reads nothing.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    v > 0
}

#[test]
fn without_its_argument_it_prints_usage_and_exits_2() {
    let out = Command::new(CONFINE).arg("--read").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("usage: crib-confine"), "{stderr}");
}

#[test]
fn malformed_arguments_are_named_and_exit_126() {
    let out = Command::new(CONFINE)
        .args([crib_sandbox::CONFINE_ARG, "--bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--bogus"), "{stderr}");
}

#[test]
fn the_program_reads_and_writes_only_what_it_is_granted() {
    if !landlock_here() {
        eprintln!("skipped: this kernel offers no Landlock");
        return;
    }
    let granted = tempfile::tempdir().unwrap();
    let denied = tempfile::tempdir().unwrap();
    std::fs::write(denied.path().join("secret"), "s").unwrap();
    let script = format!(
        "echo ok > {g}/out && cat {g}/out && ! cat {d}/secret 2>/dev/null && ! touch {d}/planted 2>/dev/null",
        g = granted.path().display(),
        d = denied.path().display()
    );
    let out = Command::new(CONFINE)
        .arg(crib_sandbox::CONFINE_ARG)
        .args(["--read", "/usr", "--read", "/etc/ld.so.cache"])
        .args(["--write", &granted.path().display().to_string()])
        .args(["--", "/usr/bin/sh", "-c", &script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
    assert!(!Path::new(&denied.path().join("planted")).exists());
}
