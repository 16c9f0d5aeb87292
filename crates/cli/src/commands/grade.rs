//! `crib grade`: grade student Prolog submissions against the reference, in sandboxes.

use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use crib_grade::{
    swipl_support, DeepOptions, Graded, Grader, Limits, SeedChoice, Session, SessionProgress,
    SwiplSupport,
};
use crib_isolation::IsolationChoice;
use crib_results::{SelectCredit, SubmissionResult, TestVisibility};
use crib_sandbox::MemoryFit;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Submissions: a .pl file is one; a directory holds one per .pl file directly inside it
    /// and one per subdirectory (its .pl files loaded together). A zip, or a folder in an
    /// LMS's layout, is an LMS's download: one submission per student (see --layout).
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// The layout of the downloads given (a zip or a folder): canvas (bulk download),
    /// moodle (download all submissions), gradescope (export submissions) or plain (a .pl
    /// file or a folder per submission). [default: recognised from the names]
    #[arg(long, value_enum, value_name = "LAYOUT")]
    layout: Option<crib_results::Layout>,
    /// The LMS's class list (Canvas gradebook export, Moodle grading worksheet or
    /// participants, Gradescope roster; CSV): fills in names, emails, sections and SIS ids
    /// in the results, and says who on it has no submission.
    #[arg(long, value_name = "FILE")]
    roster: Option<PathBuf>,
    /// Treat each PATH as one submission, even a directory (its .pl files load together).
    #[arg(long)]
    single: bool,
    /// CPU-time limit per hand_value/3 call, seconds (a goal that waits rather than
    /// computes is stopped at three times this in wall-clock time).
    #[arg(long, value_name = "SECS", default_value_t = 1.0, value_parser = seconds)]
    hand_value_timeout: f64,
    /// Wall-clock time for hand_value/3 on every rank pattern per submission, seconds; past
    /// it the marks come from the uniform sample of patterns checked so far, and the result
    /// says how many.
    #[arg(long, value_name = "SECS", default_value_t = 120.0, value_parser = seconds)]
    hand_value_budget: f64,
    /// Ask hand_value/3 only the first N rank patterns of the seed's order (a uniform sample,
    /// said so in the results) [default: all 23,647]: for a quick trial run.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    hand_value_patterns: Option<u64>,
    /// Ask select_hand/3 only the first N deals (the rest are left out of the marks, said so
    /// in the results) [default: all]: for a quick trial run.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    select_hand_deals: Option<u64>,
    /// Wall-clock time for all of a submission's select_hand/3 tests, seconds; past it the
    /// deals not yet asked are left out of the marks (the mean is over those asked).
    #[arg(long, value_name = "SECS", default_value_t = 240.0, value_parser = seconds)]
    select_hand_budget: f64,
    /// A file holding the secret seed the tests are drawn from (64 hex digits; every run
    /// keeps its own in OUT/seed, which serves). Without it: a fresh seed, or with --resume
    /// the seed of OUT's last run.
    #[arg(long, value_name = "FILE")]
    seed_file: Option<PathBuf>,
    /// Derive this run's seed from the seed and TEXT (e.g. a Gradescope submission's id), so
    /// that each TEXT gets tests of its own and the same TEXT the same tests again.
    #[arg(long, value_name = "TEXT")]
    seed_salt: Option<String>,
    /// Where a --seed-file's drawn tests are kept and read back [default: OUT/seeds]: the
    /// seed's whole test set, or with --seed-salt its salt-independent part, from which each
    /// salt's tests are drawn in milliseconds. As private as the seed (files readable by
    /// their owner only); Gradescope's setup.sh fills one for run_autograder.
    #[arg(long, value_name = "DIR")]
    kept_dir: Option<PathBuf>,
    /// CPU-time limit per select_hand/3 test, seconds (a goal that waits rather than
    /// computes is stopped at three times this in wall-clock time).
    #[arg(long, value_name = "SECS", default_value_t = 4.0, value_parser = seconds)]
    select_hand_timeout: f64,
    /// Wall-clock limit for starting swipl and loading a submission, seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = seconds)]
    load_timeout: f64,
    /// Address-space limit of each child, MiB (Prolog's stacks get half).
    #[arg(long, value_name = "MIB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(64..))]
    memory: u64,
    #[command(flatten)]
    max_size: crate::max_size::MaxSize,
    /// Cores to use: submissions graded at once, and when there are fewer submissions, the
    /// children each one's hand_value check runs at once [default: one per core].
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=crib_sandbox::MAX_WORKERS as i64))]
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
    /// Leave out the code-quality findings (crib lint's, in each result's `quality`
    /// section and the table's quality column; never a mark).
    #[arg(long)]
    no_lint: bool,
    /// Print one JSON object per submission (JSON Lines) on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// Also write DIR/<submission>/results.json in Gradescope's autograder format.
    #[arg(long, value_name = "DIR")]
    gradescope: Option<PathBuf>,
    /// Which tests students see in the Gradescope files: all-visible, examples-visible (the
    /// named select_hand deals visible, the rest after_published), after-due-date (the rest
    /// after_due_date) or hidden (only the marks and load diagnostics).
    #[arg(long, value_name = "POLICY", default_value = "all-visible")]
    gradescope_visibility: crib_results::VisibilityPolicy,
    /// How children are isolated: bwrap (bubblewrap namespaces), rlimits (no namespaces, as
    /// in Gradescope's containers), auto (bwrap when it works here), or strict (auto, but
    /// refuse to grade unless the network and the host's files are both closed). Every mode
    /// adds seccomp (no network sockets) and, without bwrap, Landlock (files) where the
    /// kernel offers them, and keeps the rlimits.
    #[arg(long, value_enum, default_value_t = IsolationChoice::Auto)]
    isolation: IsolationChoice,
    /// How a select_hand/3 test is credited: graded (1 for a best keep, at most 0.5 for a
    /// worse one, falling steeply with the expected value it gives up) or ratio (the keep's
    /// expected value over the best one's, crib 0.1's scale).
    #[arg(long, value_enum, default_value_t = SelectCredit::Graded)]
    select_credit: SelectCredit,
    /// The SWI-Prolog executable.
    #[arg(long, value_name = "PROGRAM", default_value = "swipl")]
    swipl: PathBuf,
    /// Also check hand_value/3 on every (hand, start) pair (one per class of pairs equal up
    /// to relabelling suits) and select_hand/3 on seeded deals, and diagnose the mistakes;
    /// not marked.
    #[arg(long)]
    deep: bool,
    /// Wall-clock time for the deep check of hand_value/3 per submission, seconds; past it
    /// the result is partial.
    #[arg(long, value_name = "SECS", default_value_t = 120.0, value_parser = seconds)]
    deep_budget: f64,
    /// Deep-check only the first N classes of pairs of the seeded order [default: all].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    deep_classes: Option<u64>,
    /// Seeded deals the deep check gives select_hand/3 (0: none).
    #[arg(long, value_name = "N", default_value_t = 500)]
    deep_deals: usize,
    /// Wall-clock time for the deep check of select_hand/3 per submission, seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60.0, value_parser = seconds)]
    deep_select_budget: f64,
    /// Who sees the deep check in Gradescope's results.
    #[arg(long, value_enum, default_value_t = TestVisibility::Visible)]
    deep_visibility: TestVisibility,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("expected seconds between 0 and 3600, got {text:?}")),
    }
}

/// The long help's closing text. It names the test set, which takes building (about 15 ms),
/// so `main` adds it only when help is asked for, not on every run.
pub fn long_help() -> String {
    // Any seed gives the same counts; this one never grades anything.
    let set = crib_testset::TestSet::new(&crib_testset::Seed::from_bytes([0; 32]));
    format!(
        "The tests: {}\n\nSeeds: every random choice of the tests comes from one secret seed. By \
         default each run makes a fresh one and keeps it in OUT/seed (and OUT/seeds/ID.seed); \
         --resume reuses it, --seed-file FILE grades with a kept seed (the same tests for a \
         whole class), --seed-salt TEXT derives one per TEXT (from a seed file, in \
         milliseconds: the part every salt shares is kept in OUT/seeds or --kept-dir). \
         Results record only the seed's id, which reveals nothing of it.\n\n\
         Marks: hand_value/3 50 x (1 - sqrt(share of the 12,994,800 pairs wrong)), the share \
         estimated from the rank patterns; select_hand/3 mean credit x 20 \
         (--select-credit graded: 1 for a keep with the best expected value, else 0.5 x^4 \
         where x is the share of the gap between the deal's worst and best keep that it \
         closes; 0 for an invalid answer); code quality (30) is left to the markers.\n\n\
         Verdicts: pass, wrong_answer, suboptimal, wrong_type, no_solution, exception, \
         timeout, memory, crashed, not_run (the submission did not load, or the select_hand \
         budget left the test out).\n\n\
         Timing: each test's limit is CPU time, measured in the child, so a verdict does not \
         depend on how busy the machine is; a goal that waits (sleep/1) or is starved is \
         stopped at three times its limit in wall-clock time.\n\n\
         Downloads: a zip, or a folder named as Canvas, Moodle or Gradescope name their \
         downloads, is read as the LMS's download (--layout to say which): one submission \
         per student, named <name>-<id>, the latest attempt; each result keeps the \
         student's record (lms). Entries that are unsafe (.., absolute paths, links), too \
         big or a zip bomb are left out and said; what was set aside, left out and, with \
         --roster, missing is also in OUT/lms/intake.json. A download that cannot be read \
         at all is said, and the other PATHs are graded.\n\n\
         Exit codes: 0 graded (whatever the marks); 2 bad usage, an unreadable PATH, \
         submission or roster, no submission found, or no working swipl; 128 + the signal when \
         interrupted (130 SIGINT, 143 SIGTERM), after killing the children and removing the \
         work directories (the results written so far stay: --resume goes on).",
        set.provenance()
    )
}

pub fn run(args: &GradeArgs) -> Result<()> {
    on_signals_clean_up()?;
    let mut session = Session::new(&args.out);
    session.resume = args.resume;
    session.gradescope = args.gradescope.clone();
    session.gradescope_visibility = args.gradescope_visibility;
    if let Some(jobs) = args.jobs.and_then(|j| NonZeroUsize::new(j as usize)) {
        session.jobs = jobs;
    }
    let intake = crate::download::take_in(
        &args.paths,
        args.layout,
        args.roster.as_deref(),
        args.single,
        true,
    )?;
    let mut found = if intake.plain.is_empty() {
        crib_submission::Discovery::default()
    } else {
        session.survey(&intake.plain, args.single)?
    };
    for skipped in &found.skipped {
        eprintln!("crib: warning: skipped {skipped}");
    }
    for dir in &found.empty {
        eprintln!(
            "crib: warning: no submission in {}: no regular .pl file and no subdirectory",
            crib_results::escape_path(dir)
        );
    }
    for mut sub in intake.submissions.clone() {
        let base = sub.name.clone();
        let mut n = 1;
        while found.submissions.iter().any(|s| s.name == sub.name) {
            n += 1;
            sub.name = format!("{base}~{n}");
        }
        found.submissions.push(sub);
    }
    let submissions = found.submissions;
    if intake.any() {
        std::fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create {}", args.out.display()))?;
        intake.write(&args.out, &submissions)?;
    }
    if submissions.is_empty() {
        bail!("no submission found: nothing to grade");
    }
    // Every child's memory, times the workers, stays well inside the container's cgroup.
    // Children at once: the workers, and with fewer submissions than cores the idle cores
    // too (a submission's hand_value check, and the deep check, run several), as far as
    // the memory fitted for each child allows.
    let wanted = session.jobs.get();
    let workers = wanted.min(submissions.len().max(1));
    let memory = MemoryFit::new(args.memory << 20, workers, crib_sandbox::memory_limit());
    session.jobs = NonZeroUsize::new(memory.workers).unwrap_or(NonZeroUsize::MIN);
    session.cores = NonZeroUsize::new(memory.children_at_once(wanted)).unwrap_or(NonZeroUsize::MIN);
    let tests = session.tests(&SeedChoice {
        file: args.seed_file.clone(),
        salt: args.seed_salt.clone(),
        kept_dir: args.kept_dir.clone(),
    })?;
    let limits = Limits {
        hand_value: Duration::from_secs_f64(args.hand_value_timeout),
        hand_value_budget: Duration::from_secs_f64(args.hand_value_budget),
        hand_value_patterns: args.hand_value_patterns.map(|n| n as usize),
        select_hand_deals: args.select_hand_deals.map(|n| n as usize),
        select_hand_budget: Duration::from_secs_f64(args.select_hand_budget),
        select_hand: Duration::from_secs_f64(args.select_hand_timeout),
        load: Duration::from_secs_f64(args.load_timeout),
        memory: memory.per_child,
        max_bytes: args.max_size.bytes(),
        ..Limits::default()
    };
    let grader = Grader::new(&args.swipl, args.isolation, limits, &tests)?;
    let mut grader = grader.with_select_credit(args.select_credit);
    if !args.no_lint {
        // The linter runs in the grader's jail, on the copy the tests ran on.
        grader = grader.with_lint(crib_lint::Linter::default());
    }
    // Under bubblewrap, this very binary applies Landlock inside the sandbox (see main): the
    // jail's probe tried it already, and this says why when it did not work.
    match std::env::current_exe() {
        Ok(exe) => {
            if let Err(e) = grader.confine_with(&exe) {
                eprintln!("crib: warning: {e}");
            }
        }
        Err(e) => eprintln!("crib: warning: Landlock is not added under bubblewrap: {e}"),
    }
    if args.deep {
        let options = DeepOptions {
            budget: Duration::from_secs_f64(args.deep_budget),
            classes: args.deep_classes.map(|n| n as usize),
            select_deals: args.deep_deals,
            select_budget: Duration::from_secs_f64(args.deep_select_budget),
            // The cores left to each submission by the workers grading at once.
            children: session.cores_each(submissions.len()),
            visibility: args.deep_visibility,
        };
        grader = grader.with_deep(options)?;
    }
    for warning in grader.isolation().warnings() {
        eprintln!("crib: warning: {warning}");
    }
    let producer = grader.producer();
    if let SwiplSupport::Untried(why) = swipl_support(&producer.swipl) {
        eprintln!("crib: warning: {why}");
    }
    let started = Instant::now();
    let mut bar = Bar(None);
    let graded = session.grade(&grader, &submissions, &mut bar);
    if let Some(bar) = bar.0 {
        bar.finish_and_clear();
    }
    let Graded { reports, resumed } = graded?;
    // crib's own reference is published for students: a submission that is a copy of it is
    // pointed out to staff here (never a mark), as in crib similar and the class report.
    let copies = crate::commands::similar::reference_matches(&submissions, args.max_size.bytes())?;
    for (name, similarity) in &copies {
        eprintln!(
            "crib: {name}: matches crib's own reference prolog/cribbage.pl (similarity \
             {similarity:.2}): evidence to review, never a mark (crib similar shows the lines)"
        );
    }
    if args.json {
        for report in &reports {
            crate::print_json(report)?;
        }
    } else {
        let mut out = std::io::stdout().lock();
        write!(out, "{}", crib_grade::table(&reports, args.verbose))?;
        let skipped =
            found.skipped.len() + reports.iter().map(|r| r.load.skipped.len()).sum::<usize>();
        writeln!(
            out,
            "{} submission{} graded in {:.1} s ({resumed} resumed), isolation {}, memory {}, \
             results in {}, seed {}, {producer}{}; code quality (30): marked by people (crib \
             report --quality-sheet)",
            reports.len(),
            if reports.len() == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64(),
            grader.isolation().name(),
            memory,
            args.out.display(),
            tests.seed().id(),
            if skipped > 0 {
                format!(", {skipped} skipped (links, FIFOs, devices: see warnings and --verbose)")
            } else {
                String::new()
            }
        )?;
        if !copies.is_empty() {
            writeln!(
                out,
                "{} match crib's own published reference (see the warnings): {}",
                copies.len(),
                copies
                    .iter()
                    .map(|(name, _)| name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )?;
        }
    }
    Ok(())
}

/// On SIGINT, SIGTERM or SIGHUP, kills every child, removes the work directories
/// ([`crib_sandbox::shutdown`]) and exits with 128 + the signal's number. Results already
/// written stay, and `--resume` goes on from them.
fn on_signals_clean_up() -> Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("cannot handle signals")?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            crib_sandbox::shutdown();
            eprintln!("\ncrib: interrupted by signal {signal}; results so far are kept (--resume)");
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// The progress bar on stderr, drawn once grading starts.
struct Bar(Option<ProgressBar>);

impl SessionProgress for Bar {
    fn start(&mut self, to_grade: usize) {
        self.0 = Some(
            ProgressBar::new(to_grade as u64).with_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} graded, {elapsed} {msg}")
                    .expect("the template is valid"),
            ),
        );
    }

    fn graded(&mut self, report: &SubmissionResult) {
        if let Some(bar) = &self.0 {
            bar.set_message(report.name.clone());
            bar.inc(1);
        }
    }
}
