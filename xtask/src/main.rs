//! `cargo xtask`: the project's automation, reached through the alias in .cargo/config.toml.
//!
//! Each task installs the system packages it needs when it can (see [`system`]) and runs
//! cargo through `$CARGO`, printing every command before it runs it.

mod bench;
mod compat;
mod debian_root;
mod discards;
mod dist;
#[cfg(test)]
mod doc_paths;
mod fixtures;
mod generated;
mod layers;
mod man;
mod pages;
mod system;
mod testrun;
mod testset_tables;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use anyhow::{bail, Context, Result};
use clap::Parser;

#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "crib's project automation"
)]
enum Task {
    /// fmt check, clippy -D warnings, every Rust test, the Prolog plunit tests, the class
    /// report in headless Chromium, fixtures --check.
    Test,
    /// Sweep all 12,994,800 (hand, start) pairs, Rust against Prolog (options: `cargo xtask verify -- --help`).
    Verify {
        /// Arguments passed on to crib-verify (try `cargo xtask verify -- --help`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Regenerate the tables in fixtures/ from crib-core.
    Fixtures {
        /// Write nothing; exit 1 naming each stale table (CI runs this).
        #[arg(long)]
        check: bool,
    },
    /// Regenerate only the exhaustive discard tables (fixtures/discards-*.tsv).
    Discards {
        /// Write nothing; exit 1 naming each stale table.
        #[arg(long)]
        check: bool,
    },
    /// Rewrite the generated tables of docs/DESIGN.md (the marks of every
    /// modelled submission under 20 seeds, the share of pairs each hand_value mistake gets
    /// wrong) from crib-testset's models, without Prolog; seconds once built.
    TestsetTables {
        /// Write nothing; exit 1 naming the first stale line.
        #[arg(long)]
        check: bool,
    },
    /// Check each crate's module graph: no circle anywhere, and crib-grade's modules import
    /// only from their own layer or below (the layers are in xtask/src/layers.rs).
    Layers,
    /// Write crib's man pages (DIR/man1) and shell completions (DIR/completions).
    Man {
        /// Where to write them.
        #[arg(default_value = "target/man")]
        dir: PathBuf,
    },
    /// Render the class report of the graded corpus and check it in headless Chromium.
    Report {
        /// Grade crates/grade/tests/submissions again into crates/report/tests/results first.
        #[arg(long)]
        regrade: bool,
        /// Also copy the screenshot of the page to FILE (docs/report.png in the README).
        #[arg(long, value_name = "FILE")]
        screenshot: Option<PathBuf>,
    },
    /// Grade the submissions corpus and a sample of the catalog on the host and in a Debian
    /// root of each suite (its own SWI-Prolog), under one seed, and compare every total,
    /// verdict and diagnosis; print the table and write it to target/compat/compat.md. Exit
    /// 1 on any difference.
    Compat {
        /// The Debian suites to grade in.
        #[arg(default_values_t = ["bullseye".to_string(), "bookworm".to_string(), "trixie".to_string()])]
        suites: Vec<String>,
        /// The crib binary to grade with; it must run in each root [default: the release's,
        /// built by cargo xtask dist for glibc 2.17 and newer].
        #[arg(long, value_name = "PATH")]
        crib: Option<PathBuf>,
        /// How many files of the catalog (crates/grade/tests/mistakes) to grade besides the
        /// corpus.
        #[arg(long, value_name = "N", default_value_t = 10)]
        catalog: usize,
    },
    /// Build the release: target/dist/crib (any x86-64 Linux with glibc 2.17 or newer) and
    /// target/dist/autograder.zip for Gradescope, whose setup.sh installs only SWI-Prolog,
    /// bubblewrap and python3 and copies the binary.
    Dist {
        /// Put this course seed in the zip (made, owner-only, when FILE does not exist; keep
        /// it, never commit it): each submission's tests derive from it and the submission's
        /// id, so a regrade gives the same marks. Without it every run draws a fresh seed.
        #[arg(long, value_name = "FILE")]
        course_seed: Option<PathBuf>,
        /// Which tests students see: all-visible, examples-visible, after-due-date, hidden
        /// [default: $CRIB_GRADESCOPE_VISIBILITY, else gradescope/visibility].
        #[arg(long, value_name = "POLICY")]
        visibility: Option<String>,
        /// Prove the zip: run its setup.sh and run_autograder in a bare root of this Debian
        /// suite (bullseye: glibc 2.31, SWI-Prolog 8.2.4) on a correct and a buggy solution,
        /// and compare the marks with the host's. Exit 1 if they differ.
        #[arg(long, value_name = "SUITE")]
        try_in: Option<String>,
    },
    /// Time each performance target; print a table and write it to docs/PERFORMANCE.md.
    Bench {
        /// Arguments passed on to criterion (e.g. `-- --measurement-time 2`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    match run(Task::parse()) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("xtask: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(task: Task) -> Result<ExitCode> {
    let root = project_root();
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    std::env::set_current_dir(&root).with_context(|| format!("cd {}", root.display()))?;
    match task {
        Task::Test => test(&root),
        Task::Verify { args } => {
            system::ensure_packages(system::VERIFY_PACKAGES)?;
            let mut cmd = cargo_run("crib-verify", &[]);
            cmd.args(args);
            let code = status(&mut cmd)?
                .code()
                .map_or(2, |c| c.clamp(0, 255) as u8);
            Ok(ExitCode::from(code))
        }
        Task::Fixtures { check } => Ok(exit_code_of(fixtures::run(&root, check)?)),
        Task::Discards { check } => Ok(exit_code_of(discards::run(&root, check)?)),
        Task::TestsetTables { check } => Ok(exit_code_of(testset_tables::run(&root, check)?)),
        Task::Layers => layers::run(&root).map(|()| ExitCode::SUCCESS),
        Task::Man { dir } => man::run(&cwd.join(dir)).map(|()| ExitCode::SUCCESS),
        Task::Report {
            regrade,
            screenshot,
        } => pages::run(&root, regrade, screenshot.as_deref(), None).map(|()| ExitCode::SUCCESS),
        Task::Compat {
            suites,
            crib,
            catalog,
        } => {
            let crib = crib.map(|c| cwd.join(c));
            let held = compat::run(&root, &suites, crib.as_deref(), catalog)?;
            Ok(exit_code_of(held))
        }
        Task::Dist {
            course_seed,
            visibility,
            try_in,
        } => {
            let seed = course_seed.map(|c| cwd.join(c));
            let (visibility, try_in) = (visibility.as_deref(), try_in.as_deref());
            let held = dist::run(&root, seed.as_deref(), visibility, try_in)?;
            Ok(exit_code_of(held))
        }
        Task::Bench { args } => bench::run(&root, &args).map(|()| ExitCode::SUCCESS),
    }
}

/// `cargo xtask test`: every check CI runs, stopping at the first failure.
fn test(root: &Path) -> Result<ExitCode> {
    system::ensure_packages(system::TEST_PACKAGES)?;
    step("fmt", cargo().args(["fmt", "--all", "--", "--check"]))?;
    eprintln!("$ cargo xtask layers");
    layers::run(root).context("step \"layers\" failed")?;
    // The release profile, like `cargo xtask` itself: the tests that grade whole corpora
    // (crib-core computing every expected answer) run three times faster.
    let crib = testrun::run(root).context("step \"cargo test\" failed")?;
    let prolog = sorted_entries(&root.join("prolog"))?;
    let plunits = prolog
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "plt"));
    for plunit in plunits {
        let plunit = plunit.strip_prefix(root).unwrap_or(plunit);
        step(
            &format!("plunit {}", plunit.display()),
            Command::new("swipl")
                .args(["-g", "run_tests", "-t", "halt"])
                .arg(plunit),
        )?;
    }
    pages::run(root, false, None, crib.as_deref())
        .context("step \"class report in chromium\" failed")?;
    eprintln!("$ {} --check", generated::COMMAND);
    if !fixtures::run(root, true)? {
        bail!("step \"fixtures --check\" failed");
    }
    println!("xtask: all checks passed");
    Ok(ExitCode::SUCCESS)
}

/// Empties `dir`: removes it with all it holds, then makes it again.
fn fresh_dir(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)
}

/// Returns the paths of the entries of `dir`, sorted.
fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    entries.sort();
    Ok(entries)
}

/// Runs one named step; fails naming the step when it does not succeed.
fn step(name: &str, cmd: &mut Command) -> Result<()> {
    run_or(cmd, format!("step {name:?} failed"))
}

/// Runs `cmd` as [`status`] does; fails with `failure` when it does not succeed.
fn run_or(cmd: &mut Command, failure: String) -> Result<()> {
    if !status(cmd)?.success() {
        bail!(failure);
    }
    Ok(())
}

/// Runs `cmd`, printing it first and, when it took a second or more, how long it took.
fn status(cmd: &mut Command) -> Result<std::process::ExitStatus> {
    timed(cmd, Command::status)
}

/// Runs `cmd` as [`status`] does, capturing its output (stdout, and stderr unless `cmd`
/// sends it elsewhere).
fn output(cmd: &mut Command) -> Result<std::process::Output> {
    timed(cmd, Command::output)
}

fn timed<T>(cmd: &mut Command, run: fn(&mut Command) -> std::io::Result<T>) -> Result<T> {
    eprintln!("$ {}", describe(cmd));
    let start = std::time::Instant::now();
    let done = run(cmd).with_context(|| format!("cannot run {}", describe(cmd)))?;
    let took = start.elapsed().as_secs_f64();
    if took >= 1.0 {
        eprintln!("xtask: {took:.1} s");
    }
    Ok(done)
}

fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// 0 when a check held, 1 when it did not.
fn exit_code_of(held: bool) -> ExitCode {
    ExitCode::from(u8::from(!held))
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Returns `cargo run --quiet --release -p PACKAGE WHAT --` (`WHAT` empty for the package's
/// binary, else `--bin NAME` or `--example NAME`), for the arguments to follow: optimised, as
/// every build of xtask's, so that nothing is built twice.
fn cargo_run(package: &str, what: &[&str]) -> Command {
    let mut cmd = cargo();
    cmd.args(["run", "--quiet", "--release", "-p", package])
        .args(what)
        .arg("--");
    cmd
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the root")
        .to_path_buf()
}
