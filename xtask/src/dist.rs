//! `cargo xtask dist`: the release: a `crib` binary that runs on any x86-64 Linux with glibc
//! 2.17 or newer, and the Gradescope autograder zip around it, whose setup.sh installs only
//! SWI-Prolog, bubblewrap and python3 from the image's own archive (no Rust, no compiler).
//!
//! The binary is linked against glibc 2.17's symbols by `cargo zigbuild` (zig as the linker:
//! `ziglang` from PyPI, `cargo-zigbuild` from crates.io, both installed here when missing),
//! which keeps glibc's allocator: a static musl build was tried and graded a plain solution
//! 50% slower (its allocator under the test set's threads). `--try-in SUITE` proves the zip:
//! its own setup.sh and run_autograder run in a bare Debian root (no Rust, no compiler) on a
//! correct solution and a buggy one, and their marks are compared with the host's.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::debian_root::{self, Mounted};
use crate::system;

/// The comment line of a course seed's file.
const COURSE_SEED: &str = "crib grade's secret course seed: keep it from students";

/// The target the release is built for: x86-64 Linux, glibc 2.17's symbols at most.
pub const TARGET: &str = "x86_64-unknown-linux-gnu.2.17";

/// Builds the release and the zip (see [`autograder_zip`]); with `suite`, proves the zip in
/// a root of that Debian suite. Returns whether the proof (if asked) gave the host's marks.
pub fn run(
    root: &Path,
    course_seed: Option<&Path>,
    visibility: Option<&str>,
    suite: Option<&str>,
) -> Result<bool> {
    let crib = build_binary(root)?;
    let zip = autograder_zip(root, &crib, course_seed, visibility)?;
    println!("wrote {} and {}", crib.display(), zip.display());
    match suite {
        Some(suite) => try_in(root, &zip, suite),
        None => Ok(true),
    }
}

/// Builds `crib` for [`TARGET`] and copies it to `target/dist/crib`; returns that path.
///
/// # Errors
/// When zig or cargo-zigbuild cannot be installed, or the build fails.
pub fn build_binary(root: &Path) -> Result<PathBuf> {
    ensure_zigbuild()?;
    crate::step(
        "cargo zigbuild",
        crate::cargo().args([
            "zigbuild",
            "--release",
            "--target",
            TARGET,
            "-p",
            "crib-cli",
            "--bin",
            "crib",
        ]),
    )?;
    let built = root.join("target/x86_64-unknown-linux-gnu/release/crib");
    let dist = root.join("target/dist");
    std::fs::create_dir_all(&dist)?;
    let crib = dist.join("crib");
    std::fs::copy(&built, &crib).with_context(|| format!("copying {}", built.display()))?;
    Ok(crib)
}

/// Installs zig (PyPI's `ziglang`) and cargo-zigbuild (crates.io) when missing.
fn ensure_zigbuild() -> Result<()> {
    let works = |cmd: &mut Command| {
        cmd.stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let zig = || {
        works(Command::new("zig").arg("version"))
            || works(Command::new("python3").args(["-m", "ziglang", "version"]))
    };
    if !zig() {
        crate::step(
            "pip install ziglang",
            Command::new("python3").args(["-m", "pip", "install", "--quiet", "ziglang"]),
        )?;
    }
    if !works(crate::cargo().args(["zigbuild", "--version"])) {
        crate::step(
            "cargo install cargo-zigbuild",
            crate::cargo().args(["install", "--locked", "cargo-zigbuild"]),
        )?;
    }
    Ok(())
}

/// Writes `target/dist/autograder.zip`: setup.sh, run_autograder, crib, visibility (the
/// policy given, else `$CRIB_GRADESCOPE_VISIBILITY`, else gradescope/visibility) and, with a
/// course seed (made, owner-only, when its file does not exist), `seed`. Returns its path.
fn autograder_zip(
    root: &Path,
    crib: &Path,
    course_seed: Option<&Path>,
    visibility: Option<&str>,
) -> Result<PathBuf> {
    system::ensure_packages(&[system::ZIP])?;
    let here = root.join("gradescope");
    let dir = root.join("target/dist/autograder");
    crate::fresh_dir(&dir)?;
    for name in ["setup.sh", "run_autograder"] {
        std::fs::copy(here.join(name), dir.join(name))?;
    }
    std::fs::copy(crib, dir.join("crib"))?;
    let env_policy = std::env::var("CRIB_GRADESCOPE_VISIBILITY").ok();
    match visibility.or(env_policy.as_deref()) {
        Some(policy) => std::fs::write(dir.join("visibility"), format!("{policy}\n"))?,
        None => {
            std::fs::copy(here.join("visibility"), dir.join("visibility"))?;
        }
    }
    let mut files = vec!["setup.sh", "run_autograder", "crib", "visibility"];
    if let Some(seed) = course_seed {
        if !seed.exists() {
            write_seed(seed, COURSE_SEED)?;
            println!(
                "made a new course seed in {}: keep it, never commit it",
                seed.display()
            );
        }
        std::fs::copy(seed, dir.join("seed"))?;
        files.push("seed");
    }
    let zip = root.join("target/dist/autograder.zip");
    let _ = std::fs::remove_file(&zip);
    let mut cmd = Command::new("zip");
    cmd.current_dir(&dir)
        .args(["-q", "-X"])
        .arg(&zip)
        .args(&files);
    crate::step("zip", &mut cmd)?;
    Ok(zip)
}

/// Writes a new secret seed to `path` (which must not exist), owner-only: `# comment`, then
/// 32 bytes from /dev/urandom in hex, as `crib grade --seed-file` reads it.
pub fn write_seed(path: &Path, comment: &str) -> Result<()> {
    use std::io::{Read, Write};
    use std::os::unix::fs::OpenOptionsExt;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    writeln!(file, "# {comment}\n{hex}")?;
    Ok(())
}

/// The submissions the zip is proven on: a correct solution, and a buggy one that loses
/// marks on both predicates.
const TRIED: &[&str] = &["correct.pl", "broken_runs.pl"];

/// Runs the zip's setup.sh and run_autograder in a copy of a bare root of `suite`, and the
/// same run_autograder on the host, under one course seed and submission id; prints both
/// scores of each submission. Returns whether they are equal.
fn try_in(root: &Path, zip: &Path, suite: &str) -> Result<bool> {
    system::ensure_packages(&[system::UNZIP])?;
    let bare = debian_root::make(root, &format!("bare-{suite}"), suite, &[])?;
    let scratch = root.join("target/compat").join(format!("try-{suite}"));
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch)?;
    }
    crate::step(
        "copy the bare root",
        Command::new("cp").arg("-a").arg(&bare).arg(&scratch),
    )?;
    // As Gradescope does: the zip in /autograder/source, run_autograder in /autograder.
    let autograder = scratch.join("autograder");
    let source = autograder.join("source");
    std::fs::create_dir_all(&source)?;
    let mut unzip = Command::new("unzip");
    unzip.arg("-q").arg(zip).arg("-d").arg(&source);
    crate::step("unzip", &mut unzip)?;
    if !source.join("seed").exists() {
        // Without a course seed the two runs would draw different tests.
        write_seed(&source.join("seed"), COURSE_SEED)?;
    }
    std::fs::copy(
        source.join("run_autograder"),
        autograder.join("run_autograder"),
    )?;
    let host_root = root.join("target/compat").join(format!("try-{suite}-host"));
    crate::fresh_dir(&host_root)?;
    let mut cp = Command::new("cp");
    cp.arg("-a").arg(&source).arg(host_root.join("source"));
    crate::step("copy the autograder for the host", &mut cp)?;
    let mounted = Mounted::new(&scratch)?;
    eprintln!("xtask: dist: setup.sh in a bare {suite} root");
    let mut setup = mounted.command("/bin/bash");
    setup.args(["-c", "cd /autograder/source && bash ./setup.sh"]);
    let log = scratch.join("setup.log");
    let out = std::fs::File::create(&log)?;
    setup.stdout(out.try_clone()?).stderr(out);
    crate::run_or(
        &mut setup,
        format!("setup.sh failed in the {suite} root: see {}", log.display()),
    )?;
    let root_swipl = debian_root::swipl_version(mounted.command("swipl"))?;
    let mut rows = Vec::new();
    for (i, name) in TRIED.iter().enumerate() {
        let file = root.join("crates/grade/tests/submissions").join(name);
        let metadata = format!("{{\"id\": {}}}\n", 900_001 + i);
        // In the root.
        prepare(&autograder, &file, &metadata)?;
        let mut run = mounted.command("/autograder/run_autograder");
        run.stdout(std::process::Stdio::null());
        crate::status(&mut run)?;
        let there = score(&autograder.join("results/results.json"))?;
        // On the host, with the same binary, zip and id.
        prepare(&host_root, &file, &metadata)?;
        let mut run = Command::new(autograder.join("run_autograder"));
        run.env("AUTOGRADER_ROOT", &host_root)
            .env("CRIB", source.join("crib"))
            .stdout(std::process::Stdio::null());
        crate::status(&mut run)?;
        let host = score(&host_root.join("results/results.json"))?;
        rows.push((name, host, there));
    }
    drop(mounted);
    println!(
        "\nThe release zip in a bare Debian {suite} root (no Rust, no compiler; {root_swipl} \
         installed by its setup.sh) against the host:\n"
    );
    println!("| submission | host | {suite} root | equal |");
    println!("|---|---|---|---|");
    let mut equal = true;
    for (name, host, there) in &rows {
        let same = host == there;
        equal &= same;
        println!(
            "| {name} | {:.2} | {:.2} | {} |",
            host.0,
            there.0,
            if same { "yes, every test" } else { "NO" }
        );
    }
    Ok(equal)
}

/// Lays out `autograder/submission/FILE` and `submission_metadata.json`, and an empty
/// `results/`.
fn prepare(autograder: &Path, file: &Path, metadata: &str) -> Result<()> {
    for dir in ["submission", "results"] {
        crate::fresh_dir(&autograder.join(dir))?;
    }
    let name = file.file_name().expect("a file");
    std::fs::copy(file, autograder.join("submission").join(name))?;
    std::fs::write(autograder.join("submission_metadata.json"), metadata)?;
    Ok(())
}

/// A results.json's score and each test's name and score.
type Score = (f64, Vec<(String, f64)>);

fn score(results: &Path) -> Result<Score> {
    let text =
        std::fs::read_to_string(results).with_context(|| format!("no {}", results.display()))?;
    let value: serde_json::Value = serde_json::from_str(&text)?;
    let Some(total) = value["score"].as_f64() else {
        bail!("{} has no score: {text}", results.display());
    };
    let tests = value["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or("").to_string(),
                t["score"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect();
    Ok((total, tests))
}
