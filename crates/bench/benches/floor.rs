//! Measures grading against its floor: the submission's own Prolog. For each file, the floor
//! is a bare `swipl` that loads the file and asks it exactly what one grading run asks (every
//! hand_value/3 item and every select_hand/3 deal of the test set of one seed), with no grader
//! around it: its CPU time is what no grader can save. Then the same file is graded as
//! `crib grade --seed-file SEED FILE` grades it (the course's test set, drawn once before
//! anything is measured and kept beside the seed; the sandbox probed with this program as
//! its Landlock confiner, as `crib` is; the linter, every core), and a class of 10 copies of
//! it; each figure is printed as a ratio to the floor measured in the same run, so that
//! machines of different speeds can be compared.
//!
//! CPU time is read from a cgroup the bench moves itself into (cgroup v2, or v1's cpuacct;
//! root): it counts every descendant, including the children the grader kills (a check's
//! child stopped at its share's end, one called off), whose CPU `getrusage` never sees. Where
//! no cgroup can be made it falls back to `getrusage` and says so on its first line.
//!
//! `cargo bench -p crib-bench --bench floor [-- FILE...]`; without files: the corpus's plain
//! student-style solution (crates/grade/tests/submissions/correct.pl), crib's reference
//! (prolog/cribbage.pl) and a file that defines nothing (the fixed cost of a run). Each line
//! it prints starts with `floor:`; after each figure a line `figure: FILE MEASURE VALUE` says
//! it again for `cargo xtask bench` (MEASURE: `floor_s`, `one_wall`, `one_cpu`,
//! `class_wall`, `class_cpu`, `fixed_cpu`, `fixed_cpu_drawn` (the file that defines nothing
//! under a seed met for the first time: the tests drawn in the run), `fixed_cpu_salted` (the
//! file that defines nothing under the course seed with a salt, as on Gradescope: the salt's
//! tests drawn from the course part kept), `half_wall`; all but the first are ratios to the
//! floor).
//!
//! `half_wall` grades the first file alone under a CPU quota of half a core, as Gradescope
//! runs a container: a copy of this program runs in a CPU cgroup of its own with
//! `cfs_quota_us` half of `cfs_period_us` (cgroup v1) or `cpu.max` `50000 100000` (v2),
//! which needs root and a writable cgroup file system; elsewhere the line says why not.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crib_core::Card;
use crib_grade::{Grader, Limits, Session};
use crib_isolation::IsolationChoice;
use crib_testset::{Seed, TestSet, Tests};

/// The seed of every measurement: any seed asks as much as any other.
const SEED: [u8; 32] = [0x42; 32];

/// The copies of the class measured.
const CLASS: usize = 10;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // As `crib` does: under bubblewrap this program applies Landlock before swipl, so the
    // jails it makes are the ones `crib grade` makes.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let Some(error) = crib_sandbox::confine_main(&args) {
        return Err(format!("confining the child: {error}").into());
    }
    // The copy in the half-core cgroup: grade one file and print the wall-clock time.
    if let Ok(file) = std::env::var(HALF_FILE) {
        let dir = tempfile::tempdir()?;
        let kept = std::env::var_os(HALF_KEPT).map(PathBuf::from);
        let seed = Seed::from_bytes(SEED);
        let tests = match kept {
            Some(dir) => Tests::Kept { seed, dir },
            None => Tests::Drawn(seed),
        };
        let took = measure(|| grade(dir.path(), Path::new(&file), 1, &tests))?;
        println!("half-core wall {:.4}", took.wall.as_secs_f64());
        return Ok(());
    }
    // Every CPU figure is the cgroup's, which counts every descendant, including children the
    // grader killed (their CPU never reaches getrusage's waited-for children).
    let accounting = CpuGroup::join();
    let mut files: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        files = [
            "crates/grade/tests/submissions/correct.pl",
            "prolog/cribbage.pl",
        ]
        .iter()
        .map(|p| crib_bench::repo_path(p))
        .collect();
    }
    let dir = tempfile::tempdir()?;
    let seed = Seed::from_bytes(SEED);
    let items = dir.path().join("items.pl");
    // A course grades under one seed, whose tests `crib grade` draws once and keeps beside
    // it: drawn here before anything is measured.
    let kept = dir.path().join("seeds");
    let course_tests = Tests::Kept {
        seed,
        dir: kept.clone(),
    };
    std::fs::write(&items, items_text(&course_tests.draw()))?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "floor: CPU time from {}",
        match &accounting {
            Ok(_) => "a cgroup of this bench's own (every descendant, killed ones too)".to_string(),
            Err(why) => format!(
                "getrusage, which misses children killed before they were waited for ({why})"
            ),
        }
    );
    println!(
        "floor: machine: {} cores, {}",
        cores,
        std::fs::read_to_string("/proc/loadavg")
            .map(|l| format!(
                "load average {}",
                l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
            ))
            .unwrap_or_default()
    );
    let mut plain_floor = None;
    for file in &files {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let floor = measure(|| bare_swipl(file, &items))?;
        plain_floor.get_or_insert(floor.cpu);
        let one = measure(|| grade(dir.path(), file, 1, &course_tests))?;
        let class = measure(|| grade(dir.path(), file, CLASS, &course_tests))?;
        let floor_s = floor.cpu.as_secs_f64();
        println!(
            "floor: {name}: own Prolog {:.2} s of CPU ({:.2} s wall) in a bare swipl",
            floor_s,
            floor.wall.as_secs_f64()
        );
        println!(
            "floor: {name}: one file: wall {:.2} s = {:.2}x the floor; CPU {:.2} s = {:.2}x",
            one.wall.as_secs_f64(),
            one.wall.as_secs_f64() / floor_s,
            one.cpu.as_secs_f64(),
            one.cpu.as_secs_f64() / floor_s
        );
        let figures = [
            ("floor_s", floor_s),
            ("one_wall", one.wall.as_secs_f64() / floor_s),
            ("one_cpu", one.cpu.as_secs_f64() / floor_s),
        ];
        for (measure, value) in figures {
            println!("figure: {name} {measure} {value:.4}");
        }
        let ideal = floor_s * CLASS as f64 / cores as f64;
        println!(
            "floor: {name}: class of {CLASS}: wall {:.2} s = {:.2}x the floor x {CLASS} / {cores} \
             cores; CPU per submission {:.2} s = {:.2}x the floor",
            class.wall.as_secs_f64(),
            class.wall.as_secs_f64() / ideal,
            class.cpu.as_secs_f64() / CLASS as f64,
            class.cpu.as_secs_f64() / CLASS as f64 / floor_s
        );
        println!(
            "figure: {name} class_wall {:.4}",
            class.wall.as_secs_f64() / ideal
        );
        println!(
            "figure: {name} class_cpu {:.4}",
            class.cpu.as_secs_f64() / CLASS as f64 / floor_s
        );
    }
    if let Some(floor) = plain_floor {
        let name = files[0].file_name().unwrap_or_default().to_string_lossy();
        match half_core(&files[0], &kept) {
            Ok(wall) => {
                println!(
                    "floor: {name}: alone on half a core (a CPU quota): wall {wall:.2} s = \
                     {:.2}x the floor",
                    wall / floor.as_secs_f64()
                );
                println!("figure: {name} half_wall {:.4}", wall / floor.as_secs_f64());
            }
            Err(why) => println!("floor: {name}: half a core not measured: {why}"),
        }
        let empty = dir.path().join("defines_nothing.pl");
        std::fs::write(&empty, "% defines nothing\n")?;
        let fixed = measure(|| grade(dir.path(), &empty, 1, &course_tests))?;
        // A seed met for the first time (a fresh one, or a salted one on Gradescope) draws
        // its tests in the run.
        let fresh = Seed::from_bytes([!SEED[0]; 32]);
        let drawing = measure(|| grade(dir.path(), &empty, 1, &Tests::Drawn(fresh)))?;
        // A Gradescope submission: the course seed salted with its id, the course part kept
        // (made here before the measurement, as setup.sh makes it).
        let salted = |salt: &str| Tests::Salted {
            course: seed,
            salt: salt.into(),
            dir: kept.clone(),
        };
        salted("setup").draw();
        let salted = measure(|| grade(dir.path(), &empty, 1, &salted("gradescope submission 1")))?;
        for (measure, what, took) in [
            ("fixed_cpu", "the course's tests kept", fixed),
            ("fixed_cpu_drawn", "the tests drawn in the run", drawing),
            (
                "fixed_cpu_salted",
                "a salt's tests drawn from the course part kept",
                salted,
            ),
        ] {
            println!(
                "floor: fixed cost: a file that defines nothing, {what}: CPU {:.2} s = {:.3}x \
                 the floor of {name}",
                took.cpu.as_secs_f64(),
                took.cpu.as_secs_f64() / floor.as_secs_f64(),
            );
            println!(
                "figure: {name} {measure} {:.4}",
                took.cpu.as_secs_f64() / floor.as_secs_f64()
            );
        }
    }
    Ok(())
}

/// The variable that makes this program the copy graded under half a core.
const HALF_FILE: &str = "CRIB_FLOOR_HALF_CORE_FILE";
/// The variable that tells the copy where the course's tests are kept.
const HALF_KEPT: &str = "CRIB_FLOOR_HALF_CORE_KEPT";

/// Grades `file` alone in a copy of this program inside a new CPU cgroup limited to half a
/// core; returns the copy's wall-clock seconds.
fn half_core(file: &Path, kept: &Path) -> Result<f64, Box<dyn std::error::Error>> {
    let group = half_core_group()?;
    let exe = std::env::current_exe()?;
    let out = Command::new("sh")
        .arg("-c")
        .arg("echo $$ > \"$0\"/cgroup.procs && exec \"$1\"")
        .arg(&group)
        .arg(&exe)
        .env(HALF_FILE, file)
        .env(HALF_KEPT, kept)
        .output()?;
    let _ = std::fs::remove_dir(&group);
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("half-core wall "))
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| {
            format!(
                "the copy under half a core said nothing ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            )
            .into()
        })
}

/// Makes a CPU cgroup limited to half a core (v2 where the unified hierarchy has the cpu
/// controller, else v1's cpu hierarchy); returns its directory.
fn half_core_group() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let name = format!("crib-floor-{}", std::process::id());
    let v2 = Path::new("/sys/fs/cgroup");
    let controllers = std::fs::read_to_string(v2.join("cgroup.controllers")).unwrap_or_default();
    if controllers.split_whitespace().any(|c| c == "cpu") {
        let group = v2.join(&name);
        std::fs::create_dir(&group)?;
        std::fs::write(group.join("cpu.max"), "50000 100000")?;
        return Ok(group);
    }
    let v1 = Path::new("/sys/fs/cgroup/cpu");
    if v1.join("cpu.cfs_quota_us").exists() {
        let group = v1.join(&name);
        std::fs::create_dir(&group)?;
        std::fs::write(group.join("cpu.cfs_period_us"), "100000")?;
        std::fs::write(group.join("cpu.cfs_quota_us"), "50000")?;
        return Ok(group);
    }
    Err("no writable CPU cgroup here (cgroup v2 with the cpu controller, or v1's cpu)".into())
}

/// Wall-clock and CPU time (this process's and its children's, user and system).
#[derive(Clone, Copy)]
struct Took {
    wall: Duration,
    cpu: Duration,
}

/// Times `work`: the CPU time is that of this process and its descendants ([`cpu`]).
fn measure(
    work: impl FnOnce() -> Result<(), Box<dyn std::error::Error>>,
) -> Result<Took, Box<dyn std::error::Error>> {
    let (cpu0, started) = (cpu(), Instant::now());
    work()?;
    Ok(Took {
        wall: started.elapsed(),
        cpu: cpu() - cpu0,
    })
}

/// The cgroup this bench moved itself into to count CPU time, while it lives; on drop the
/// bench moves back to where it was and removes it.
struct CpuGroup {
    dir: PathBuf,
    home: PathBuf,
}

/// The file holding the CPU time of the bench's own cgroup, once it has joined one, and
/// whether it counts microseconds (v2's `cpu.stat`) or nanoseconds (v1's `cpuacct.usage`).
static CPU_STAT: std::sync::OnceLock<(PathBuf, bool)> = std::sync::OnceLock::new();

impl CpuGroup {
    /// Moves this process into a new cgroup of its own (root; cgroup v2's unified hierarchy
    /// when it is mounted at /sys/fs/cgroup, else v1's cpuacct), so that [`cpu`] reads the CPU
    /// time of every descendant from it.
    fn join() -> Result<CpuGroup, String> {
        let own = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
        let v2 = Path::new("/sys/fs/cgroup/cgroup.controllers").exists();
        let (root, home, stat) = if v2 {
            let home = own.lines().find_map(|l| l.strip_prefix("0::"));
            (Path::new("/sys/fs/cgroup"), home, "cpu.stat")
        } else {
            let home = own.lines().find_map(|l| {
                let (_, rest) = l.split_once(':')?;
                let (controllers, path) = rest.split_once(':')?;
                controllers
                    .split(',')
                    .any(|c| c == "cpuacct")
                    .then_some(path)
            });
            (Path::new("/sys/fs/cgroup/cpuacct"), home, "cpuacct.usage")
        };
        let home = home.ok_or("no cgroup with CPU accounting")?;
        let dir = root.join(format!("crib-floor-cpu-{}", std::process::id()));
        std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let group = CpuGroup {
            home: root.join(home.trim_start_matches('/')),
            dir,
        };
        if !group.dir.join(stat).exists() {
            return Err(format!("{} has no {stat}", group.dir.display()));
        }
        std::fs::write(
            group.dir.join("cgroup.procs"),
            std::process::id().to_string(),
        )
        .map_err(|e| format!("joining {}: {e}", group.dir.display()))?;
        let _ = CPU_STAT.set((group.dir.join(stat), v2));
        Ok(group)
    }
}

impl Drop for CpuGroup {
    fn drop(&mut self) {
        // Only into a cgroup that is there: never a plain file made where none is.
        let procs = self.home.join("cgroup.procs");
        if procs.exists() {
            let _ = std::fs::write(procs, std::process::id().to_string());
        }
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// The CPU time of this process and its descendants: from its cgroup's `cpu.stat` when it
/// has one of its own ([`CpuGroup`]), else its own plus its waited-for children's.
fn cpu() -> Duration {
    let usage = CPU_STAT.get().and_then(|(stat, v2)| {
        let text = std::fs::read_to_string(stat).ok()?;
        if *v2 {
            let usec = text.lines().find_map(|l| l.strip_prefix("usage_usec "))?;
            Some(Duration::from_micros(usec.trim().parse().ok()?))
        } else {
            Some(Duration::from_nanos(text.trim().parse().ok()?))
        }
    });
    if let Some(usage) = usage {
        return usage;
    }
    let of = |who| {
        // SAFETY: getrusage writes only the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut usage) };
        let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
        t(usage.ru_utime) + t(usage.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// The test set's questions as Prolog facts: `hv(Hand, Start)` per hand_value item and
/// `sh(Cards)` per select_hand deal, in the order a grading run asks them.
fn items_text(set: &TestSet) -> String {
    let list = |cards: &[Card]| {
        let terms: Vec<String> = cards.iter().map(|c| c.prolog()).collect();
        format!("[{}]", terms.join(","))
    };
    let mut text = String::new();
    for (hand, start, _) in set.hand_value_items() {
        let _ = writeln!(text, "hv({}, {}).", list(&hand), start.prolog());
    }
    for case in &set.cases {
        let _ = writeln!(text, "sh({}).", list(&case.cards));
    }
    text
}

/// Loads `file` in a bare swipl and asks it every item of `items` once, ignoring failures,
/// exceptions and what it prints.
fn bare_swipl(file: &Path, items: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let goal = format!(
        "consult('{}'), consult('{}'), \
         forall(hv(H, S), ignore(catch(hand_value(H, S, _), _, true))), \
         forall(sh(C), ignore(catch(select_hand(C, _, _), _, true)))",
        file.display(),
        items.display()
    );
    let status = Command::new("swipl")
        .args(["--no-tty", "-q", "-g", &goal, "-t", "halt"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()?;
    if !status.success() {
        return Err(format!("swipl on {} exited with {status}", file.display()).into());
    }
    Ok(())
}

/// Grades `copies` copies of `file` as `crib grade DIR` does: the test set drawn (or read
/// where `kept` keeps it, as `crib grade --seed-file` does) and the jail made, the linter,
/// every core shared among the submissions.
fn grade(
    dir: &Path,
    file: &Path,
    copies: usize,
    tests: &Tests,
) -> Result<(), Box<dyn std::error::Error>> {
    let class = tempfile::tempdir_in(dir)?;
    for i in 0..copies {
        std::fs::copy(file, class.path().join(format!("student{i:02}.pl")))?;
    }
    let session = Session::new(class.path().join("results"));
    let (swipl, isolation, limits) = ("swipl".as_ref(), IsolationChoice::Auto, Limits::default());
    let grader =
        Grader::new(swipl, isolation, limits, tests)?.with_lint(crib_lint::Linter::default());
    let subs = session
        .survey(&[class.path().to_path_buf()], false)?
        .submissions;
    session.grade(&grader, &subs, &mut ())?;
    Ok(())
}
