//! The Rust tests of `cargo xtask test`: every target of the workspace, built optimised once
//! with clippy as the workspace's compiler (so that the build is also the lint), then every
//! test binary run as many at a time as there are cores, longest first (the doc tests among
//! them), except the timing tests, which run alone afterwards.
//!
//! `cargo test` runs one binary after another, and most of crib's test time is three
//! binaries that grade whole corpora in Prolog children. Run side by side, the short
//! binaries fit in beside the long ones.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::{cargo, describe};

/// Test binaries (package, target) that run alone, after the others: their tests time
/// children under a load they make themselves (timeouts under load, the wall-clock backstop,
/// two graders at once).
pub const SERIAL: &[(&str, &str)] = &[("crib-grade", "timing")];

/// Test binaries (package, target) known to take longest, in order of how long they take on
/// a loaded machine (`cargo xtask test` prints each binary's time), started first so that
/// the short ones fill in beside them.
const LONGEST: &[(&str, &str)] = &[
    ("crib-grade", "catalog"),
    ("crib-grade", "corpus"),
    ("crib-cli", "cli"), // every crib-cli integration test, `crib grade` end to end among them
    ("crib-grade", "robustness"),
    ("crib-grade", "deep"),
    ("crib-lint", "style"),
];

/// One test binary to run.
#[derive(Debug, Clone)]
struct Binary {
    /// `package::target`, or `package (unit tests)` for a library's own tests.
    name: String,
    package: String,
    target: String,
    executable: PathBuf,
    /// The package's directory: cargo runs tests there.
    dir: PathBuf,
}

/// How one binary (or the doc tests) went.
struct Ran {
    name: String,
    took: Duration,
    output: Output,
}

/// Builds every test binary (and the doc tests' libraries), runs them side by side, then
/// the serial ones alone; prints each binary's result and time and the five slowest.
///
/// Returns the `crib` binary the build made (optimised, with the workspace's features), for
/// the steps after the tests: `cargo run -p crib-cli` would build it again with crib-cli's
/// own features (26 s on a fresh clone).
///
/// # Errors
/// When the build fails or any test fails (its whole output is printed).
pub fn run(root: &Path) -> Result<Option<PathBuf>> {
    let built = build(root)?;
    let (serial, mut parallel): (Vec<Binary>, Vec<Binary>) =
        built.binaries.into_iter().partition(|b| {
            SERIAL
                .iter()
                .any(|(p, t)| *p == b.package && *t == b.target)
        });
    parallel.sort_by_key(|b| {
        let rank = LONGEST
            .iter()
            .position(|(p, t)| *p == b.package && *t == b.target);
        (rank.unwrap_or(LONGEST.len()), b.name.clone())
    });
    let command = |b: Binary| {
        let mut cmd = Command::new(&b.executable);
        cmd.arg("--quiet")
            .current_dir(&b.dir)
            .env("CARGO_MANIFEST_DIR", &b.dir)
            .env("CARGO_PKG_NAME", &b.package)
            .env("LD_LIBRARY_PATH", &built.library_paths);
        (b.name, cmd)
    };
    let mut doctests = cargo();
    // The whole workspace and the same compiler as the test build: otherwise the
    // dependencies' features would resolve otherwise, or the libraries' fingerprints
    // differ, and cargo would build them again.
    doctests
        .args(["test", "--workspace", "--release", "--doc", "--quiet"])
        .current_dir(root);
    with_clippy(&mut doctests);
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let start = Instant::now();
    let mut jobs_list: Vec<_> = parallel.into_iter().map(command).collect();
    jobs_list.push(("doc tests".to_string(), doctests));
    let mut ran = run_jobs(jobs_list, jobs);
    eprintln!(
        "xtask: {} test binaries side by side ({jobs} at a time) in {:.1} s",
        ran.len(),
        start.elapsed().as_secs_f64()
    );
    let serial_start = Instant::now();
    let serial: Vec<_> = serial.into_iter().map(command).collect();
    let count = serial.len();
    ran.extend(run_jobs(serial, 1));
    eprintln!(
        "xtask: {count} timing test binaries alone in {:.1} s",
        serial_start.elapsed().as_secs_f64()
    );
    ran.sort_by_key(|r| std::cmp::Reverse(r.took));
    let failed: Vec<&Ran> = ran.iter().filter(|r| !r.output.status.success()).collect();
    let slowest: Vec<String> = ran
        .iter()
        .take(5)
        .map(|r| format!("{} {:.1} s", r.name, r.took.as_secs_f64()))
        .collect();
    eprintln!("xtask: slowest test binaries: {}", slowest.join(", "));
    if !failed.is_empty() {
        let names: Vec<&str> = failed.iter().map(|r| r.name.as_str()).collect();
        bail!("tests failed in {}", names.join(", "));
    }
    Ok(built.crib)
}

/// Runs `jobs` (each a name and its command) on `workers` threads, in order; prints each
/// result as it comes.
fn run_jobs(jobs: Vec<(String, Command)>, workers: usize) -> Vec<Ran> {
    let queue = Mutex::new(jobs.into_iter().collect::<std::collections::VecDeque<_>>());
    let done = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| loop {
                let Some((name, mut cmd)) =
                    queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
                else {
                    break;
                };
                let start = Instant::now();
                let output = cmd.output().unwrap_or_else(|e| Output {
                    status: ExitStatus::from_raw(1 << 8), // exit 1: it could not be started
                    stdout: Vec::new(),
                    stderr: format!("cannot run {}: {e}\n", describe(&cmd)).into_bytes(),
                });
                let took = start.elapsed();
                let ran = Ran { name, took, output };
                report(&ran);
                done.lock().unwrap_or_else(|e| e.into_inner()).push(ran);
            });
        }
    });
    done.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Prints one line for a binary that passed (its test count and time) and everything it
/// printed for one that failed.
fn report(ran: &Ran) {
    let stdout = String::from_utf8_lossy(&ran.output.stdout);
    let took = ran.took.as_secs_f64();
    if ran.output.status.success() {
        let passed: usize = stdout
            .lines()
            .filter_map(|l| l.strip_prefix("test result: ok. "))
            .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
            .sum();
        eprintln!("ok      {:<40} {passed:>4} tests {took:>7.1} s", ran.name);
    } else {
        eprintln!(
            "FAILED  {} after {took:.1} s ({})",
            ran.name, ran.output.status
        );
        eprintln!("{stdout}");
        eprintln!("{}", String::from_utf8_lossy(&ran.output.stderr));
    }
}

/// What the test build made.
struct Built {
    /// The test binaries.
    binaries: Vec<Binary>,
    /// Where the build scripts' native libraries are (libswipl), for LD_LIBRARY_PATH.
    library_paths: OsString,
    /// The `crib` binary, when the build listed it.
    crib: Option<PathBuf>,
}

/// Builds every target of the workspace (benchmarks and examples only for the lint) with
/// [`with_clippy`]; fails on any warning, after printing them all.
fn build(root: &Path) -> Result<Built> {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--workspace",
        "--all-targets",
        "--release",
        "--no-run",
        "--quiet",
        "--message-format=json",
    ])
    .current_dir(root)
    .stderr(std::process::Stdio::inherit());
    with_clippy(&mut cmd);
    eprintln!("$ {}", describe(&cmd));
    let start = Instant::now();
    let output = cmd
        .output()
        .with_context(|| format!("cannot run {}", describe(&cmd)))?;
    let mut binaries = Vec::new();
    let mut paths = BTreeSet::new();
    let mut crib = None;
    let mut warnings = 0;
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        match message["reason"].as_str() {
            Some("compiler-message") => {
                let diagnostic = &message["message"];
                if let Some(rendered) = diagnostic["rendered"].as_str() {
                    eprint!("{rendered}");
                }
                // rustc's own count ("2 warnings emitted") has no place in the code.
                let located = diagnostic["spans"]
                    .as_array()
                    .is_some_and(|spans| !spans.is_empty());
                if located && matches!(diagnostic["level"].as_str(), Some("warning" | "error")) {
                    warnings += 1;
                }
            }
            Some("build-script-executed") => {
                for path in message["linked_paths"].as_array().into_iter().flatten() {
                    let path = path.as_str().unwrap_or_default();
                    // `native=/dir`, `dependency=/dir` or just `/dir`.
                    let dir = path.split_once('=').map_or(path, |(_, d)| d);
                    paths.insert(PathBuf::from(dir));
                }
            }
            // Benchmarks and examples are built for the lint, not run (`cargo xtask bench`
            // runs the benchmarks).
            Some("compiler-artifact")
                if message["profile"]["test"] == Value::Bool(true)
                    && !is_kind(&message, "bench")
                    && !is_kind(&message, "example") =>
            {
                if let Some(binary) = binary(&message) {
                    binaries.push(binary);
                }
            }
            Some("compiler-artifact") if message["target"]["name"] == "crib" => {
                if let Some(exe) = message["executable"].as_str() {
                    crib = Some(PathBuf::from(exe));
                }
            }
            _ => {}
        }
    }
    if !output.status.success() {
        bail!("step \"cargo test --no-run\" (with clippy) failed");
    }
    if warnings > 0 {
        bail!("clippy or rustc warned {warnings} times (above): the build denies warnings");
    }
    eprintln!(
        "xtask: test binaries built and linted by clippy in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if binaries.is_empty() {
        bail!("cargo test --no-run listed no test binary");
    }
    let mut dirs: Vec<PathBuf> = paths.into_iter().collect();
    if let Some(inherited) = std::env::var_os("LD_LIBRARY_PATH") {
        dirs.extend(std::env::split_paths(&inherited));
    }
    let library_paths = std::env::join_paths(dirs).context("a library path holds a colon")?;
    Ok(Built {
        binaries,
        library_paths,
        crib,
    })
}

/// Makes `cmd` (a cargo build) compile the workspace's own crates with clippy-driver, as
/// `cargo clippy` does (`RUSTC_WORKSPACE_WRAPPER`): rustc with clippy's lints, so the
/// artifacts are the usual ones. Every cargo command sharing the test build's artifacts must
/// say the same, or cargo would compile the workspace again.
fn with_clippy(cmd: &mut Command) {
    // Beside the cargo that runs us (the toolchain's own), as cargo-clippy finds it.
    let driver = std::env::var_os("CARGO")
        .map(PathBuf::from)
        .map(|cargo| cargo.with_file_name("clippy-driver"))
        .filter(|driver| driver.exists())
        .map_or_else(|| "clippy-driver".into(), PathBuf::into_os_string);
    cmd.env("RUSTC_WORKSPACE_WRAPPER", driver);
}

/// Returns whether cargo's `compiler-artifact` message is of a target of `kind`.
fn is_kind(message: &Value, kind: &str) -> bool {
    message["target"]["kind"]
        .as_array()
        .is_some_and(|kinds| kinds.iter().any(|k| k == kind))
}

/// Reads a test binary from cargo's `compiler-artifact` message.
fn binary(message: &Value) -> Option<Binary> {
    let executable = PathBuf::from(message["executable"].as_str()?);
    let manifest = PathBuf::from(message["manifest_path"].as_str()?);
    let dir = manifest.parent()?.to_path_buf();
    let target = message["target"]["name"].as_str()?.to_string();
    let kinds: Vec<&str> = message["target"]["kind"]
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let package = package_name(message["package_id"].as_str()?, &dir);
    let name = if kinds.contains(&"test") {
        format!("{package}::{target}")
    } else {
        format!("{package} ({} {target})", kinds.join(","))
    };
    Some(Binary {
        name,
        package,
        target,
        executable,
        dir,
    })
}

/// Returns the package's name from its id: `path+file:///dir#name@0.1.0`, or
/// `path+file:///dir/name#0.1.0` when the name is the directory's.
fn package_name(id: &str, dir: &Path) -> String {
    let fragment = id.rsplit_once('#').map_or(id, |(_, f)| f);
    match fragment.split_once('@') {
        Some((name, _)) => name.to_string(),
        None => dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests;
