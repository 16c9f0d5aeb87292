//! `cargo xtask bench`: one table of the project's performance targets and what this machine
//! measures for each.
//!
//! Rust figures come from criterion (`cargo bench -p crib-bench`, read from
//! `target/criterion/*/new/estimates.json`), Prolog figures from
//! `swipl -g bench -t halt prolog/bench.pl`, and the whole-program targets from timing the
//! commands. A measure that cannot be taken says why in its row. The table is printed and
//! written to [`OUT`], the one place the project's measured figures live (the READMEs link
//! it and quote none).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// Returns one line of the table: `measured` in seconds, or why there is none. `target` is
/// `<= N UNIT` or `<= Nx` (a ratio), with anything after, or states no limit (`none stated`).
fn row(
    measure: &str,
    target: &str,
    measured: Result<f64, String>,
    source: impl Into<String>,
) -> String {
    let seconds = |s| human(Duration::from_secs_f64(s));
    line(measure, target, measured, seconds, &source.into())
}

/// Returns a line of a ratio to the floor of the same run (the submission's own Prolog).
fn ratio_row(measure: &str, target: &str, measured: Result<f64, String>) -> String {
    line(measure, target, measured, |r| format!("{r:.2}x"), FLOOR_HOW)
}

fn line(
    measure: &str,
    target: &str,
    measured: Result<f64, String>,
    show: impl Fn(f64) -> String,
    source: &str,
) -> String {
    let meets = match (&measured, limit(target)) {
        (Ok(figure), Some(limit)) if *figure <= limit => "yes",
        (Ok(_), Some(_)) => "no",
        _ => "",
    };
    let measured = measured.map_or_else(|why| why, show);
    format!("| {measure} | {target} | {measured} | {meets} | {source} |\n")
}

/// Returns the limit a target states: seconds for `<= N UNIT`, the ratio for `<= Nx`.
fn limit(target: &str) -> Option<f64> {
    let mut words = target.strip_prefix("<= ")?.split_whitespace();
    let number = words.next()?;
    match number.strip_suffix('x') {
        Some(ratio) => ratio.parse().ok(),
        None => seconds(number.parse().ok()?, words.next()?),
    }
}

/// Returns `value` `unit`s (`ns`, `us`, `ms`, `s` or `min`) in seconds.
fn seconds(value: f64, unit: &str) -> Option<f64> {
    Some(match unit {
        "ns" => value / 1e9,
        "us" => value / 1e6,
        "ms" => value / 1e3,
        "s" => value,
        "min" => value * 60.0,
        _ => return None,
    })
}

/// The file the table is written to, relative to the root; committed.
const OUT: &str = "docs/PERFORMANCE.md";

/// How the floor rows are measured.
const FLOOR_HOW: &str = "`cargo bench -p crib-bench --bench floor`: the floor is the file's own Prolog in a bare swipl asked every item of one grading run; grading as `crib grade` does, lint included";

/// `cargo xtask bench [-- criterion args]`.
pub fn run(root: &Path, criterion_args: &[String]) -> Result<()> {
    let load_before = load_average();
    let target = target_dir(root);

    // crib-core's criterion benches (in crates/bench, as every bench)
    let mut cmd = cargo_bench(&["score", "discard"]);
    cmd.arg("--").args(criterion_args);
    let criterion_ok = crate::status(&mut cmd)?.success();
    let estimate = |name: &str| -> Result<f64, String> {
        if !criterion_ok {
            return Err("cargo bench failed".into());
        }
        criterion_estimate(&target, name)
    };
    let criterion = |measure, target, name: &str| {
        row(measure, target, estimate(name), format!("criterion {name}"))
    };

    let prolog = prolog_bench(root);
    let from_prolog = |name: &str| -> Result<f64, String> {
        let output = prolog.as_ref().map_err(Clone::clone)?;
        prolog_row(output, name).ok_or_else(|| format!("no row {name:?} in bench.pl's output"))
    };
    let bench_pl = "prolog/bench.pl, CPU time";

    let lint = lint_bench();
    let floor = floor_bench();
    let figure = |file: &str, measure: &str| -> Result<f64, String> {
        let figures = floor.as_ref().map_err(Clone::clone)?;
        figures
            .iter()
            .find(|(f, m, _)| f == file && m == measure)
            .map(|&(_, _, v)| v)
            .ok_or_else(|| format!("no figure {file} {measure} in the floor bench's output"))
    };
    let sweep = "sweep/score_distribution_all_pairs";
    let (one_deal, every_six) = ("analyze_crib_6", "discard_table/every_6_card_deal");
    let rows = vec![
        criterion("hand_value, per call", "none stated", "hand_value"),
        criterion(
            "rank table build, once per process",
            "none stated",
            "rank_table_build",
        ),
        criterion(
            "full sweep, 12,994,800 pairs, table built",
            "<= 20 ms on 2 cores",
            sweep,
        ),
        criterion(
            "select_hand, 6 cards",
            "<= 3 us",
            "select_hand_6",
        ),
        criterion("select_hand, 5 cards", "none stated", "select_hand_5"),
        row(
            "Prolog hand_value/3, per call",
            "<= 2 us",
            from_prolog("hand_value/3, per call"),
            bench_pl,
        ),
        row(
            "Prolog select_hand/3, 6 cards",
            "none stated",
            from_prolog("select_hand/3, 6 cards, per call"),
            bench_pl,
        ),
        row(
            "full verify, Rust against Prolog",
            "<= 20 s",
            time_verify(),
            "`cargo xtask verify`, wall clock, built first",
        ),
        row(
            "grading 100 correct submissions",
            "<= 2 min",
            time_grading(root, &target, REFERENCE, 100),
            "`crib grade` of 100 copies of prolog/cribbage.pl, wall clock",
        ),
        row(
            "grading one plain student-style solution",
            "<= 3 s",
            time_grading(root, &target, PLAIN, 1),
            format!("`crib grade {PLAIN}`, wall clock"),
        ),
        row(
            "grading 100 plain student-style solutions",
            "<= 2 min on 2 cores",
            time_grading(root, &target, PLAIN, 100),
            "`crib grade` of 100 copies of it, wall clock",
        ),
        row(
            "floor: a plain solution's own Prolog, one grading run's items",
            "none stated",
            figure("correct.pl", "floor_s"),
            FLOOR_HOW,
        ),
        ratio_row(
            "grading one plain solution, wall / floor",
            "<= 0.60x on 2 cores",
            figure("correct.pl", "one_wall"),
        ),
        ratio_row(
            "grading one plain solution, CPU / floor",
            "none stated",
            figure("correct.pl", "one_cpu"),
        ),
        ratio_row(
            "grading 10 plain solutions, CPU per submission / floor",
            "<= 1.10x",
            figure("correct.pl", "class_cpu"),
        ),
        ratio_row(
            "grading 10 plain solutions, wall / (floor x 10 / cores)",
            "<= 1.15x",
            figure("correct.pl", "class_wall"),
        ),
        ratio_row(
            "grading one plain solution on half a core (a CPU quota), wall / floor",
            "<= 2.3x",
            figure("correct.pl", "half_wall"),
        ),
        ratio_row(
            "fixed cost: a file defining nothing, the course's tests kept, CPU / the plain floor",
            "<= 0.10x",
            figure("correct.pl", "fixed_cpu"),
        ),
        ratio_row(
            "fixed cost: a file defining nothing, a seed met first (tests drawn), CPU / the plain floor",
            "none stated",
            figure("correct.pl", "fixed_cpu_drawn"),
        ),
        ratio_row(
            "fixed cost: a file defining nothing, a salted course seed (Gradescope; its part kept), CPU / the plain floor",
            "none stated",
            figure("correct.pl", "fixed_cpu_salted"),
        ),
        ratio_row(
            "grading crib's reference, wall / its floor",
            "none stated",
            figure("cribbage.pl", "one_wall"),
        ),
        row(
            "lint one plain student-style solution",
            "<= 0.5 s",
            lint.as_ref()
                .map_err(Clone::clone)
                .and_then(|_| criterion_estimate(&target, "lint/correct.pl")),
            "criterion lint/correct.pl (`cargo bench -p crib-bench --bench lint`)",
        ),
        row(
            "lint 500 submissions on 2 workers",
            "<= 2 min on 2 cores",
            lint.clone(),
            "`cargo bench -p crib-bench --bench lint`, 500 copies, wall clock",
        ),
        row(
            "crib similar, 500 submissions of ~10 KB",
            "<= 1 s on 2 cores",
            similar_bench(&target),
            "criterion similar/class_of_500 (`cargo bench -p crib-bench --bench similar`)",
        ),
        row(
            "worst case, one submission (bound)",
            "<= 400 s (Gradescope: 600 s)",
            budget(),
            "`Limits::submission_budget`: select_hand tests (load, limits and grace, at most the select_hand budget) plus the hand_value check's load and budget (on two cores the check runs beside the tests)",
        ),
        criterion(
            "dealer/pone discard analysis, one deal",
            "<= 10 ms",
            one_deal,
        ),
        criterion(
            "exhaustive discard table, 6-card deals",
            "<= 10 s",
            every_six,
        ),
        row(
            "`crib --version`, per process",
            "<= 2 ms",
            per_process(&target, &["--version"]),
            PER_PROCESS,
        ),
        row(
            "`crib score` of one hand, per process",
            "<= 2 ms",
            per_process(&target, &["score", "5H", "5S", "5C", "JD", "5D"]),
            PER_PROCESS,
        ),
        row(
            "`crib select` of one deal, per process",
            "none stated",
            per_process(&target, &["select", "5H", "5S", "5C", "JD", "2C", "9H"]),
            PER_PROCESS,
        ),
        row(
            "batch: 1,000,000 hands scored from a file, JSON Lines out",
            "<= 1 s on 2 cores",
            time_batch(&target, "hands-1m.txt", 5, 1_000_000, &["score", "--json"]),
            "`crib score --json --input FILE > FILE`, wall clock",
        ),
        row(
            "batch: 100,000 six-card deals, `select --dealer`",
            "<= 10 s on 2 cores",
            time_batch(
                &target,
                "deals-100k.txt",
                6,
                100_000,
                &["select", "--dealer", "--json"],
            ),
            "`crib select --dealer --json --input FILE > FILE`, wall clock",
        ),
        row(
            "all discard fixtures, generated",
            "none stated",
            time_discards(),
            "xtask discards::fixtures(), wall clock",
        ),
    ];

    let head = "| measure | target | measured | meets | how |\n|---|---|---|---|---|\n";
    let machine = machine(load_before);
    let table = format!("Measured on {machine}.\n\n{head}{}", rows.concat());
    print!("{table}");
    let page = format!("{}{table}{NOTES}", header(&today()));
    let out = root.join(OUT);
    std::fs::write(&out, page).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("xtask: wrote {OUT}");
    Ok(())
}

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|d| if d.is_absolute() { d } else { root.join(d) })
        .unwrap_or_else(|| root.join("target"))
}

/// Returns criterion's estimate for benchmark `name` in seconds: the slope when criterion
/// fitted one, else the mean, as `cargo bench` prints it.
fn criterion_estimate(target: &Path, name: &str) -> Result<f64, String> {
    let path = target.join(format!("criterion/{name}/new/estimates.json"));
    let text = std::fs::read_to_string(&path)
        .map_err(|_| format!("not available (no {name} benchmark)"))?;
    let nanos =
        estimate_nanos(&text).ok_or_else(|| format!("{}: no point_estimate", path.display()))?;
    Ok(nanos * 1e-9)
}

/// Returns the slope's `point_estimate` in criterion's estimates.json, else the mean's.
fn estimate_nanos(text: &str) -> Option<f64> {
    let estimates: serde_json::Value = serde_json::from_str(text).ok()?;
    ["slope", "mean"]
        .iter()
        .find_map(|key| estimates[key]["point_estimate"].as_f64())
}

/// Returns `cargo bench -p crib-bench --bench NAME...`, a `--bench` for each of `names`.
fn cargo_bench(names: &[&str]) -> Command {
    let mut cmd = crate::cargo();
    cmd.args(["bench", "-p", "crib-bench"]);
    for name in names {
        cmd.args(["--bench", name]);
    }
    cmd
}

/// Runs crib-similar's benchmark; returns its criterion estimate.
fn similar_bench(target: &Path) -> Result<f64, String> {
    let mut cmd = cargo_bench(&["similar"]);
    let failed = "cargo bench -p crib-bench --bench similar failed";
    crate::run_or(&mut cmd, failed.into()).map_err(|e| e.to_string())?;
    criterion_estimate(target, "similar/class_of_500")
}

/// Runs `cargo bench -p crib-bench --bench NAME`; returns what it printed on stdout.
fn bench_stdout(name: &str) -> Result<String, String> {
    let mut cmd = cargo_bench(&[name]);
    eprintln!("$ {}", crate::describe(&cmd));
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run cargo bench: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo bench -p crib-bench --bench {name} failed"));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Runs crib-lint's benchmark; returns the seconds it took to lint 500 submissions (its
/// criterion estimate for one is read from target/criterion afterwards).
fn lint_bench() -> Result<f64, String> {
    bench_stdout("lint")?
        .lines()
        .find_map(|l| l.strip_prefix("lint: 500 submissions on 2 workers in "))
        .and_then(|rest| rest.trim_end_matches(" s").parse::<f64>().ok())
        .ok_or_else(|| "no `lint: 500 submissions` line in the benchmark's output".into())
}

/// Runs the floor benchmark; returns its `figure:` lines as (file, measure, value).
fn floor_bench() -> Result<Vec<(String, String, f64)>, String> {
    let stdout = bench_stdout("floor")?;
    for line in stdout.lines().filter(|l| l.starts_with("floor:")) {
        eprintln!("{line}");
    }
    Ok(stdout
        .lines()
        .filter_map(|l| {
            let mut words = l.strip_prefix("figure: ")?.split_whitespace();
            let (file, measure, value) = (words.next()?, words.next()?, words.next()?);
            Some((file.to_string(), measure.to_string(), value.parse().ok()?))
        })
        .collect())
}

/// Runs prolog/bench.pl; returns its output or why there is none.
fn prolog_bench(root: &Path) -> Result<String, String> {
    let script = Path::new("prolog/bench.pl");
    let mut cmd = Command::new("swipl");
    cmd.args(["-g", "bench", "-t", "halt"])
        .arg(script)
        .current_dir(root);
    eprintln!("$ {}", crate::describe(&cmd));
    let output = cmd
        .output()
        .map_err(|e| format!("not available (cannot run swipl: {e})"))?;
    if !output.status.success() {
        return Err(format!("bench.pl failed ({})", output.status));
    }
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    eprint!("{text}");
    Ok(text)
}

/// Reads the measured figure of the row starting with `name` in bench.pl's table, whose last
/// two words are a number and `us` or `ms`.
fn prolog_row(output: &str, name: &str) -> Option<f64> {
    let line = output.lines().find(|l| l.starts_with(name))?;
    let mut words = line.split_whitespace().rev();
    let unit = words.next()?;
    seconds(words.next()?.parse().ok()?, unit)
}

/// Times `cargo xtask verify` after building crib-verify, so the build is not counted.
fn time_verify() -> Result<f64, String> {
    build_release("crib-verify")?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.arg("verify");
    let started = Instant::now();
    let status = crate::status(&mut cmd).map_err(|e| format!("{e:#}"))?;
    let took = started.elapsed().as_secs_f64();
    if status.success() {
        Ok(took)
    } else {
        Err(format!("failed ({status}) after {took:.1} s"))
    }
}

/// The Prolog reference: fast, written to be read.
const REFERENCE: &str = "prolog/cribbage.pl";
/// A plain student-style solution: select_hand/3 sums hand_value/3 over every start of each
/// of the 15 keeps.
const PLAIN: &str = "crates/grade/tests/submissions/correct.pl";

/// Times `crib grade` on `copies` copies of `source` (relative to the root), after building
/// crib; every copy must get full marks on the tests.
fn time_grading(root: &Path, target: &Path, source: &str, copies: usize) -> Result<f64, String> {
    build_release("crib-cli")?;
    let work = target.join("bench-grade");
    let _ = std::fs::remove_dir_all(&work);
    let subs = work.join("submissions");
    std::fs::create_dir_all(&subs).map_err(|e| format!("{}: {e}", subs.display()))?;
    for i in 1..=copies {
        std::fs::copy(root.join(source), subs.join(format!("s{i:03}.pl")))
            .map_err(|e| format!("copying {source}: {e}"))?;
    }
    let mut cmd = Command::new(target.join("release/crib"));
    cmd.arg("grade")
        .arg("--out")
        .arg(work.join("results"))
        .arg(&subs);
    eprintln!("$ {}", crate::describe(&cmd));
    let started = Instant::now();
    let output = cmd.output().map_err(|e| format!("cannot run crib: {e}"))?;
    let took = started.elapsed().as_secs_f64();
    let table = String::from_utf8_lossy(&output.stdout);
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    if !output.status.success() {
        return Err(format!("failed ({}) after {took:.1} s", output.status));
    }
    let full = full_marks(&table);
    if full != Some(copies) {
        return Err(format!(
            "{took:.1} s, but {full:?} of {copies} had full marks"
        ));
    }
    Ok(took)
}

/// Counts the rows of `crib grade`'s table whose marks are the maximum in the `marks/N`
/// column; None when the table is not as expected.
fn full_marks(table: &str) -> Option<usize> {
    let mut lines = table.lines();
    let head: Vec<&str> = lines.next()?.split_whitespace().collect();
    let column = head.iter().position(|h| h.starts_with("marks/"))?;
    let max: f64 = head[column].strip_prefix("marks/")?.parse().ok()?;
    Some(
        lines
            .filter_map(|l| l.split_whitespace().nth(column)?.parse::<f64>().ok())
            .filter(|&m| m == max)
            .count(),
    )
}

const PER_PROCESS: &str = "release `crib`, median wall clock of 200 runs, output discarded";

/// Returns the median wall-clock time of running the release `crib` with `args`, 200 times.
fn per_process(target: &Path, args: &[&str]) -> Result<f64, String> {
    build_release("crib-cli")?;
    let crib = target.join("release/crib");
    let mut times = Vec::with_capacity(200);
    for _ in 0..200 {
        let started = Instant::now();
        let status = Command::new(&crib)
            .args(args)
            .stdout(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("cannot run crib: {e}"))?;
        times.push(started.elapsed().as_secs_f64());
        if !status.success() {
            return Err(format!("crib {} failed ({status})", args.join(" ")));
        }
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// Times the release `crib ARGS --input FILE`, its output written to a file, where FILE holds
/// `count` seeded deals of `size` cards (written first, not timed).
fn time_batch(
    target: &Path,
    file: &str,
    size: usize,
    count: usize,
    args: &[&str],
) -> Result<f64, String> {
    build_release("crib-cli")?;
    let dir = target.join("bench-batch");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let input = dir.join(file);
    let mut dealer = crib_core::Dealer::new(size as u64 * 1000 + 13);
    let mut text = String::with_capacity(count * 3 * size);
    for _ in 0..count {
        text.push_str(&crib_core::cards_text(&dealer.deal(size)));
        text.push('\n');
    }
    std::fs::write(&input, text).map_err(|e| format!("{}: {e}", input.display()))?;
    let output = dir.join("out");
    let out = std::fs::File::create(&output).map_err(|e| format!("{}: {e}", output.display()))?;
    let mut cmd = Command::new(target.join("release/crib"));
    cmd.args(args).arg("--input").arg(&input).stdout(out);
    eprintln!("$ {} > {}", crate::describe(&cmd), output.display());
    let started = Instant::now();
    let status = cmd.status().map_err(|e| format!("cannot run crib: {e}"))?;
    let took = started.elapsed().as_secs_f64();
    if !status.success() {
        return Err(format!("failed ({status}) after {took:.1} s"));
    }
    Ok(took)
}

/// Times the discard tables that `cargo xtask fixtures` writes.
fn time_discards() -> Result<f64, String> {
    let started = Instant::now();
    crate::discards::fixtures().map_err(|e| format!("failed: {e:#}"))?;
    Ok(started.elapsed().as_secs_f64())
}

/// Returns `Limits::submission_budget` of the default limits, as crib-lab's `budget` prints it.
fn budget() -> Result<f64, String> {
    let out = crate::cargo_run("crib-lab", &["--bin", "budget"])
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match out.status.success() {
        true => text
            .trim()
            .parse()
            .map_err(|_| format!("not seconds: {text:?}")),
        false => Err(format!(
            "crib-lab's budget failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// Builds `package` in release mode, so that timing it afterwards leaves the build out.
fn build_release(package: &str) -> Result<(), String> {
    let mut build = crate::cargo();
    build.args(["build", "--quiet", "--release", "-p", package]);
    match crate::status(&mut build) {
        Ok(s) if s.success() => Ok(()),
        _ => Err(format!("{package} does not build")),
    }
}

fn machine(load_before: String) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc = Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!(
        "{cpu}, {cores} cores, {} {}; {rustc}; load average {load_before} before, {} after",
        std::env::consts::OS,
        std::env::consts::ARCH,
        load_average()
    )
}

/// The 1-minute load average, from /proc/loadavg.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// The opening of [`OUT`]: what it is and when it was made.
fn header(date: &str) -> String {
    format!(
        "# Performance\n\n\
         Generated by `cargo xtask bench` (xtask/src/bench.rs) on {date}: do not edit it by \
         hand; run the command again and commit the result. Each row names the command or \
         benchmark behind its figure; a row that could not be measured says why.\n\n"
    )
}

/// What the table's rows have in common, after it.
const NOTES: &str = "\nThe batch and grading rows are wall clock for the whole command, reading \
and writing files included; the grading rows include `crib lint` of each submission. The \
worst case is computed from the default limits, not timed. A ratio row divides by the floor: \
the submission's own Prolog in a bare `swipl`, asked every item of one grading run.\n";

/// Today's date (UTC) as `date` prints it, or `an unknown date`.
fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "an unknown date".into())
}

/// Formats a duration with three significant figures in ns, us, ms or s.
fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    let (value, unit) = if s < 1e-6 {
        (s * 1e9, "ns")
    } else if s < 1e-3 {
        (s * 1e6, "us")
    } else if s < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    let decimals = if value >= 100.0 {
        1
    } else if value >= 10.0 {
        2
    } else {
        3
    };
    format!("{value:.decimals$} {unit}")
}

#[cfg(test)]
mod tests;
