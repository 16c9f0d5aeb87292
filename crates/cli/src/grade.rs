//! `crib grade`: grade student Prolog submissions against the reference, in sandboxes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use crib_grade::{Grader, IsolationChoice, Limits, Report, Submission};
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
#[command(after_long_help = long_help())]
pub struct GradeArgs {
    /// Submissions: a .pl file is one; a directory holds one per .pl file directly inside it
    /// and one per subdirectory (its .pl files loaded together).
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// Treat each PATH as one submission, even a directory (its .pl files load together).
    #[arg(long)]
    single: bool,
    /// Wall-clock limit per hand_value/3 test, seconds.
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = seconds)]
    hand_value_timeout: f64,
    /// Wall-clock limit per select_hand/3 test, seconds.
    #[arg(long, value_name = "SECS", default_value_t = 4.0, value_parser = seconds)]
    select_hand_timeout: f64,
    /// Wall-clock limit for starting swipl and loading a submission, seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = seconds)]
    load_timeout: f64,
    /// Address-space limit of each child, MiB (Prolog's stacks get half).
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(64..))]
    memory: u64,
    /// Submissions graded at once [default: one per core].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Directory where each submission's result (JSON) is written as soon as it is done.
    #[arg(long, value_name = "DIR", default_value = "crib-grade-results")]
    out: PathBuf,
    /// Skip submissions whose result in --out is complete and still current (same files,
    /// same test set).
    #[arg(long)]
    resume: bool,
    /// Show every diagnostic and test under each submission.
    #[arg(long, short)]
    verbose: bool,
    /// Print one JSON object per submission (JSON Lines) on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write DIR/<submission>/results.json in Gradescope's autograder format.
    #[arg(long, value_name = "DIR")]
    gradescope: Option<PathBuf>,
    /// How children are isolated: bwrap (bubblewrap namespaces), rlimits (no namespaces, as
    /// in Gradescope's containers), auto (bwrap when it works here), or strict (auto, but
    /// refuse to grade unless the network and the host's files are both closed). Every mode
    /// adds seccomp (no network sockets) and, without bwrap, Landlock (files) where the
    /// kernel offers them, and keeps the rlimits.
    #[arg(long, value_enum, default_value_t = IsolationArg::Auto)]
    isolation: IsolationArg,
    /// The SWI-Prolog executable.
    #[arg(long, value_name = "PROGRAM", default_value = "swipl")]
    swipl: PathBuf,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum IsolationArg {
    Auto,
    Bwrap,
    Rlimits,
    Strict,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("expected seconds between 0 and 3600, got {text:?}")),
    }
}

fn long_help() -> String {
    let set = crib_grade::test_set();
    format!(
        "The tests: {}\n\nMarks: hand_value/3 passed/total x 50; select_hand/3 mean quality x 20 \
         (a test's quality is the expected value of the submission's keep over the best, 0 \
         for an invalid answer); code quality (30) is left to the markers.\n\n\
         Verdicts: pass, wrong_answer, wrong_type, no_solution, exception, timeout, memory, \
         crashed, not_run (the submission did not load).\n\n\
         Exit codes: 0 graded (whatever the marks); 2 bad usage, an unreadable PATH, or no \
         working swipl.",
        set.provenance()
    )
}

pub fn run(args: &GradeArgs) -> Result<()> {
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    // The output directories are never submissions, even inside a PATH given.
    let ours: Vec<PathBuf> = [Some(&args.out), args.gradescope.as_ref()]
        .into_iter()
        .flatten()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let submissions: Vec<Submission> = crib_grade::discover(&args.paths, args.single)?
        .into_iter()
        .filter(|s| !s.path.canonicalize().is_ok_and(|p| ours.contains(&p)))
        .collect();
    // Every child's memory, times the workers, stays well inside the container's cgroup.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = args
        .jobs
        .map_or(cores, |j| j as usize)
        .min(submissions.len().max(1));
    let memory = crib_grade::MemoryFit::new(args.memory << 20, workers, crib_grade::memory_limit());
    let limits = Limits {
        hand_value: Duration::from_secs_f64(args.hand_value_timeout),
        select_hand: Duration::from_secs_f64(args.select_hand_timeout),
        load: Duration::from_secs_f64(args.load_timeout),
        memory: memory.per_child,
        ..Limits::default()
    };
    let choice = match args.isolation {
        IsolationArg::Auto => IsolationChoice::Auto,
        IsolationArg::Bwrap => IsolationChoice::Bwrap,
        IsolationArg::Rlimits => IsolationChoice::Rlimits,
        IsolationArg::Strict => IsolationChoice::Strict,
    };
    let grader = Grader::new(&args.swipl, choice, limits)?;
    for warning in grader.isolation().warnings() {
        eprintln!("crib: warning: {warning}");
    }
    let fingerprint = &crib_grade::test_set().fingerprint;
    let mut reports: Vec<Option<Report>> = vec![None; submissions.len()];
    let mut todo = Vec::new();
    for (i, sub) in submissions.iter().enumerate() {
        match args
            .resume
            .then(|| previous(&args.out, sub, fingerprint))
            .flatten()
        {
            Some(report) => reports[i] = Some(report),
            None => todo.push(i),
        }
    }
    let jobs = args
        .jobs
        .map(|j| j as usize)
        .unwrap_or(cores)
        .min(memory.workers)
        .min(todo.len().max(1));
    let bar = ProgressBar::new(todo.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} graded, {elapsed} {msg}")
            .expect("the template is valid"),
    );
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Report)>();
    let mut write_error = None;
    std::thread::scope(|scope| {
        for slot in 0..jobs {
            let tx = tx.clone();
            let (todo, next, grader, submissions) = (&todo, &next, &grader, &submissions);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = todo.get(k) else { break };
                let report = grader.grade(&submissions[i], slot as u32);
                if tx.send((i, report)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, report) in rx {
            if let Err(e) = save(&args.out, &report) {
                write_error.get_or_insert(e);
            }
            bar.set_message(report.name.clone());
            bar.inc(1);
            reports[i] = Some(report);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e);
    }
    let reports: Vec<Report> = reports.into_iter().flatten().collect();
    if let Some(dir) = &args.gradescope {
        for report in &reports {
            let sub_dir = dir.join(file_stem(&report.name));
            std::fs::create_dir_all(&sub_dir)
                .with_context(|| format!("cannot create {}", sub_dir.display()))?;
            let path = sub_dir.join("results.json");
            let text = serde_json::to_string_pretty(&crib_grade::gradescope(report))?;
            std::fs::write(&path, text + "\n")
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    if args.json {
        for report in &reports {
            crate::print_json(report)?;
        }
    } else {
        let mut out = std::io::stdout().lock();
        write!(out, "{}", crib_grade::table(&reports, args.verbose))?;
        writeln!(
            out,
            "{} submission{} graded in {:.1} s ({} resumed), isolation {}, memory {}, results \
             in {}; code quality (30) not assessed",
            reports.len(),
            if reports.len() == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64(),
            reports.len() - todo.len(),
            grader.isolation().name(),
            memory,
            args.out.display()
        )?;
    }
    Ok(())
}

/// Returns the report of an earlier run if it is for the same files and test set.
fn previous(out: &Path, sub: &Submission, fingerprint: &str) -> Option<Report> {
    let text = std::fs::read_to_string(result_path(out, &sub.name)).ok()?;
    let report: Report = serde_json::from_str(&text).ok()?;
    let current = sub.content_hash().ok()?;
    (report.test_set == fingerprint && report.content_hash == current).then_some(report)
}

/// Writes the report where `--resume` finds it, atomically.
fn save(out: &Path, report: &Report) -> Result<()> {
    let path = result_path(out, &report.name);
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(report)?;
    std::fs::write(&tmp, text + "\n").with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn result_path(out: &Path, name: &str) -> PathBuf {
    out.join(format!("{}.json", file_stem(name)))
}

/// Returns `name` made safe as a file name; a name that had to change gets a hash suffix so
/// two names never share a file.
fn file_stem(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._~-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe == name && !safe.starts_with('.') {
        return safe;
    }
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("_{}-{:08x}", safe.trim_start_matches('.'), hash as u32)
}
