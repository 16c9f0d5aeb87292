//! Grading one submission: the [`Grader`] and its [`Limits`], and the loop that feeds a
//! submission's tests to child after child until each test has a verdict.

use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use crate::child::{Child, FramePipe, MAX_OUTPUT};
use crate::credit::SelectCredit;
use crate::deep::{Deep, DeepOptions, Place};
use crate::protocol::{Found, Frame, Outcome};
use crate::report::{Diagnostic, Load, Marks, Report, TestResult};
use crate::submission::{escape_path, Staged, Submission, MAX_BYTES};
use crate::testset::{test_set, Input, TestCase, TestSet};
use crate::verdict::{judge, Verdict};
use crate::GradeError;
use crib_sandbox::{self as sandbox, Isolation, IsolationChoice, Jail, Mounts, Rlimits, WorkDir};

/// The child program, built into the grader so that it always matches it.
const CHILD: &str = include_str!("../../../prolog/grade_child.pl");

/// The most diagnostics kept per submission.
pub const MAX_DIAGNOSTICS: usize = 50;

/// Time, memory and size limits.
///
/// **The timing rule.** A test's limit is CPU time: the child's watchdog measures the CPU
/// time its process has used since the goal started (every thread) and stops the goal when
/// it reaches the limit, so a verdict does not depend on how busy the machine is. A goal that
/// waits instead of computing (`sleep/1`, a blocking read) or that the machine starves is
/// stopped by a wall-clock backstop, `wall_factor` times the limit. A goal that ignores
/// being stopped is killed `grace` later (of CPU time, or of wall-clock time past the
/// backstop). Loading is limited in wall-clock time, and one submission in all by
/// [`Limits::budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time per hand_value test (default 1 s).
    pub hand_value: Duration,
    /// CPU time per select_hand test (default 4 s).
    pub select_hand: Duration,
    /// Wall clock for starting a child and loading the submission (default 10 s).
    pub load: Duration,
    /// How long past a test's limit (CPU time, or wall-clock time past the backstop) a goal
    /// that ignores being stopped runs before the child is killed (default 0.5 s).
    pub grace: Duration,
    /// The wall-clock backstop of a test, in multiples of its limit (default 3): it stops a
    /// goal that waits rather than computes, or that a busy machine starves.
    pub wall_factor: u32,
    /// Address space of each child, bytes (default 1 GiB); Prolog's stacks get half.
    pub memory: u64,
    /// The most bytes a submission's files may total (default [`MAX_BYTES`], 8 MiB): checked
    /// from the files' metadata and by a bounded read, before anything is copied; a bigger
    /// submission fails to load.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            hand_value: Duration::from_secs(1),
            select_hand: Duration::from_secs(4),
            load: Duration::from_secs(10),
            grace: Duration::from_millis(500),
            wall_factor: 3,
            memory: 1 << 30,
            max_bytes: MAX_BYTES,
        }
    }
}

impl Limits {
    /// Returns the CPU-time limit of `case`.
    pub fn of(&self, case: &TestCase) -> Duration {
        match case.input {
            Input::HandValue { .. } => self.hand_value,
            Input::SelectHand { .. } => self.select_hand,
        }
    }

    /// Returns the wall-clock backstop of `case`: its limit times `wall_factor` (at least
    /// 1).
    pub fn backstop(&self, case: &TestCase) -> Duration {
        self.of(case) * self.wall_factor.max(1)
    }

    /// Returns the most wall-clock time one submission can take: the load limit plus, for
    /// each test, one and a half times its limit plus the grace (with the defaults 10 +
    /// 78 x 2 + 24 x 6.5 = 322 s). Past it, the remaining tests are not run (verdict
    /// `timeout`). A goal that takes its whole CPU limit takes about as long in wall-clock
    /// time on an idle core, so only a submission slow on most tests on a machine giving it
    /// less than two thirds of a core reaches it; without it, a submission that waits in
    /// every test would take its backstop 102 times (573 s).
    pub fn budget(&self, tests: &TestSet) -> Duration {
        tests
            .cases
            .iter()
            .map(|c| self.of(c) * 3 / 2 + self.grace)
            .sum::<Duration>()
            + self.load
    }
}

/// How the jail checks that swipl starts: it must halt at once with status 0.
const SWIPL_PROBE: &[&str] = &["--no-tty", "-q", "-g", "halt"];

/// Returns the limits of a child that answers tests (or deep-check batches) for at most
/// `work` of CPU time after loading: `memory` of address space, CPU for the load limit
/// `load`, `work` and 2 s of slack, files of at most 16 MiB, 256 processes.
pub(crate) fn answering(memory: u64, load: Duration, work: Duration) -> Rlimits {
    Rlimits {
        memory,
        cpu: work + load + Duration::from_secs(2),
        file_size: 16 << 20,
        processes: 256,
    }
}

/// Grades submissions: owns the sandbox settings and a directory with the child program and
/// the tests.
///
/// Its work directory, `crib-grade-<random>` in the temporary directory, is private (see
/// the crate's README, "Work directories"), removed when the grader is dropped or by
/// [`crate::shutdown`], and removed by the next grader created after a death that could not
/// clean up (SIGKILL). When it runs as root, the grader takes a block of sandbox uids of
/// its own ([`crate::SANDBOX_UID`]) for its life.
#[derive(Debug)]
pub struct Grader {
    jail: Jail,
    limits: Limits,
    dir: WorkDir,
    tests: &'static TestSet,
    counter: AtomicUsize,
    select_credit: SelectCredit,
    deep: Option<Deep>,
}

impl Grader {
    /// Returns a grader running `swipl` with `limits` in the isolation chosen.
    ///
    /// # Errors
    /// [`GradeError::Sandbox`] if `swipl` does not run, if bubblewrap
    /// was required and does not work, or if strict isolation was
    /// required and is not possible here, [`GradeError::Io`] if the work directory cannot be
    /// written or no block of sandbox uids is free.
    pub fn new(
        swipl: &Path,
        isolation: IsolationChoice,
        limits: Limits,
    ) -> Result<Grader, GradeError> {
        let dir = WorkDir::create(&std::env::temp_dir(), sandbox::is_root())
            .map_err(|e| GradeError::io("creating the work directory", e))?;
        let jail = Jail::new(swipl, SWIPL_PROBE, isolation, dir.path())?;
        let tests = test_set();
        let grader = dir.path().join("grader");
        let write = |name: &str, text: &str| {
            fs::write(grader.join(name), text)
                .map_err(|e| GradeError::io(format!("writing {name}"), e))
        };
        fs::create_dir(&grader).map_err(|e| GradeError::io("creating the work directory", e))?;
        write("grade_child.pl", CHILD)?;
        write("tests.pl", &tests_file(tests, &limits))?;
        sandbox::open_up(&grader).map_err(|e| GradeError::io("opening the grader's files", e))?;
        Ok(Grader {
            jail,
            limits,
            dir,
            tests,
            counter: AtomicUsize::new(0),
            select_credit: SelectCredit::default(),
            deep: None,
        })
    }

    /// Adds Landlock to bubblewrap's layers, applied inside the sandbox by a copy of
    /// `program`, which must call [`crate::confine_main`] first thing in its `main` (the
    /// `crib` binary does; pass [`std::env::current_exe`]). Does nothing unless bubblewrap is
    /// in force and the kernel offers Landlock.
    ///
    /// # Errors
    /// [`GradeError::Confine`] saying why the layer could not be added; the grader keeps
    /// its isolation as it was and grades as before.
    pub fn confine_with(&mut self, program: &Path) -> Result<(), GradeError> {
        self.jail
            .confine_with(program, self.dir.path())
            .map_err(GradeError::Confine)
    }

    /// Returns the grader with select_hand tests credited on `scale` (default
    /// [`SelectCredit::Graded`]).
    pub fn with_select_credit(mut self, scale: SelectCredit) -> Grader {
        self.select_credit = scale;
        self
    }

    /// Returns the grader with the deep check (`crib grade --deep`) run on every submission
    /// that loads, after its tests: see [`DeepOptions`].
    ///
    /// # Errors
    /// [`GradeError::Io`] if the deep check's files cannot be written.
    pub fn with_deep(mut self, options: DeepOptions) -> Result<Grader, GradeError> {
        let deep = Deep::prepare(&self.dir.path().join("grader"), options)
            .map_err(|e| GradeError::io("writing the deep check's files", e))?;
        self.deep = Some(deep);
        Ok(self)
    }

    /// Returns the deep check's options, if the grader runs it.
    pub fn deep(&self) -> Option<&DeepOptions> {
        self.deep.as_ref().map(Deep::options)
    }

    /// Returns the credit scale of select_hand tests.
    pub fn select_credit(&self) -> SelectCredit {
        self.select_credit
    }

    /// Returns the isolation children run in.
    pub fn isolation(&self) -> Isolation {
        self.jail.isolation
    }

    /// Returns the limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Returns the work directory.
    pub fn work_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Grades one submission as worker `slot` (0-based, below the number of workers: each
    /// worker's children get a uid of their own when the grader runs as root). Never fails:
    /// anything that goes wrong becomes part of the report.
    pub fn grade(&self, submission: &Submission, slot: u32) -> Report {
        let started = Instant::now();
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut run = Run::new(self.tests);
        let mut deep = None;
        // A random name: a child may pass through the work directory but not list it.
        let work = tempfile::Builder::new()
            .prefix(&format!("s{n}-"))
            .rand_bytes(12)
            .tempdir_in(self.dir.path());
        let content_hash = match work
            .map_err(|e| format!("cannot create a directory for it: {e}"))
            .and_then(|work| Ok((self.prepare(submission, work.path(), slot)?, work)))
        {
            Ok((staged, work)) => {
                run.load.files = staged.load;
                run.load.skipped = staged.skipped;
                if run.load.files.is_empty() {
                    run.fail_load("no .pl file to load".into());
                } else {
                    self.run_children(work.path(), slot, &mut run);
                }
                deep = self
                    .deep
                    .as_ref()
                    .filter(|_| run.load.load_failed.is_none())
                    .map(|d| {
                        d.check(&Place {
                            jail: &self.jail,
                            grader: &self.dir.path().join("grader"),
                            work: work.path(),
                            files: &run.load.files,
                            slot,
                            limits: self.limits,
                        })
                    });
                staged.hash
            }
            Err(why) => {
                run.fail_load(why);
                String::new()
            }
        };
        let tests: Vec<TestResult> = run
            .results
            .into_iter()
            .zip(&self.tests.cases)
            .map(|(r, case)| {
                r.unwrap_or_else(|| {
                    result(
                        case,
                        Verdict::NotRun {
                            reason: "the grader stopped".into(),
                        },
                        None,
                        0,
                    )
                })
            })
            .collect();
        Report {
            name: submission.name.clone(),
            path: escape_path(&submission.path),
            content_hash,
            test_set: self.tests.fingerprint.clone(),
            select_credit: self.select_credit,
            isolation: self.jail.isolation,
            marks: Marks::new(&tests),
            load: run.load,
            tests,
            children: run.children,
            elapsed_ms: started.elapsed().as_millis() as u64,
            output: String::from_utf8_lossy(&run.output).into_owned(),
            deep,
        }
    }

    /// Copies the submission into `work/submission` and makes `work/scratch`, readable
    /// (and the scratch writable) by worker `slot`'s children alone.
    fn prepare(&self, submission: &Submission, work: &Path, slot: u32) -> Result<Staged, String> {
        let copy = work.join("submission");
        let scratch = work.join("scratch");
        for dir in [&copy, &scratch] {
            fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let staged = submission.stage(&copy, self.limits.max_bytes)?;
        self.jail
            .hand_over(work, slot)
            .map_err(|e| format!("cannot hand the copy over to the sandbox: {e}"))?;
        self.jail
            .give_scratch(&scratch, slot)
            .map_err(|e| format!("cannot give the scratch directory away: {e}"))?;
        Ok(staged)
    }

    /// Runs every test, starting a fresh child whenever one dies or is killed.
    fn run_children(&self, work: &Path, slot: u32, run: &mut Run) {
        let budget_end = Instant::now() + self.limits.budget(self.tests);
        let grader = self.dir.path().join("grader");
        let copy = work.join("submission");
        let scratch = work.join("scratch");
        let mounts = Mounts {
            grader: &grader,
            submission: &copy,
            scratch: &scratch,
        };
        while run.next < self.tests.cases.len() {
            if Instant::now() >= budget_end {
                let limits = self.limits;
                run.rest(|case| Verdict::Timeout {
                    limit_ms: limits.of(case).as_millis() as u64,
                    killed: false,
                    wall: true,
                });
                break;
            }
            let before = run.next;
            match self.one_child(&mounts, slot, run, budget_end) {
                Ok(Flow::Continue) if run.next == before => {
                    let case = &self.tests.cases[run.next];
                    run.record(
                        run.next,
                        result(
                            case,
                            Verdict::Crashed {
                                code: None,
                                signal: None,
                                message: "the child ended without running the test".into(),
                            },
                            None,
                            0,
                        ),
                    );
                }
                Ok(Flow::Continue) => {}
                Ok(Flow::Stop) => break,
                Err(e) => {
                    let why = format!("cannot start the child: {e}");
                    if run.children <= 1 {
                        run.fail_load(why);
                    } else {
                        run.rest(|_| Verdict::NotRun {
                            reason: why.clone(),
                        });
                    }
                    break;
                }
            }
        }
    }

    /// Runs one child from test `run.next` until it finishes, dies or is killed.
    fn one_child(
        &self,
        mounts: &Mounts<'_>,
        slot: u32,
        run: &mut Run,
        budget_end: Instant,
    ) -> std::io::Result<Flow> {
        let pipe = FramePipe::new()?;
        let submission_dir = self.jail.submission_dir(mounts);
        let mut args = vec![
            format!("--stack-limit={}k", self.limits.memory / 2 / 1024),
            "--no-tty".to_string(),
            "-q".to_string(),
            path_text(
                &self
                    .jail
                    .inside(mounts, &mounts.grader.join("grade_child.pl")),
            ),
            pipe.path_in_child(),
            path_text(&self.jail.inside(mounts, &mounts.grader.join("tests.pl"))),
            run.next.to_string(),
        ];
        args.extend(
            run.load
                .files
                .iter()
                .map(|f| path_text(&submission_dir.join(f))),
        );
        let remaining: Duration = self.tests.cases[run.next..]
            .iter()
            .map(|c| self.limits.of(c) + self.limits.grace)
            .sum();
        let limits = answering(self.limits.memory, self.limits.load, remaining);
        let cmd = self
            .jail
            .command(mounts, &args, limits, slot, Some(pipe.writer()));
        let mut child = Child::spawn(cmd, pipe)?;
        run.children += 1;
        let first = run.children == 1;
        let prefix = format!("{}/", submission_dir.display());

        let spawned = Instant::now();
        let mut loaded = false;
        let mut current: Option<(usize, Instant)> = None;
        let mut deadline = spawned + self.limits.load;
        let flow = loop {
            let now = Instant::now();
            let wait = deadline.min(budget_end).saturating_duration_since(now);
            match child.frames().recv_timeout(wait) {
                Ok(Frame::Diag(diag)) => {
                    if first && run.load.diagnostics.len() < MAX_DIAGNOSTICS {
                        run.load.diagnostics.push(Diagnostic {
                            kind: diag.kind,
                            file: diag.file.replace(&prefix, ""),
                            line: diag.line,
                            message: diag.message.replace(&prefix, ""),
                        });
                    }
                }
                Ok(Frame::Loaded(found)) => {
                    loaded = true;
                    if first {
                        run.loaded(found);
                        if run.load.load_failed.is_some() {
                            // Neither predicate is defined: no test can run.
                            let reason = "neither hand_value/3 nor select_hand/3 is defined";
                            run.rest(|_| Verdict::NotRun {
                                reason: reason.into(),
                            });
                            break Flow::Stop;
                        }
                    }
                    deadline = Instant::now() + self.limits.load;
                }
                Ok(Frame::Start { test: i }) => {
                    if let Some(case) = self.tests.cases.get(i) {
                        let now = Instant::now();
                        current = Some((i, now));
                        deadline = now + self.limits.backstop(case) + self.limits.grace;
                    }
                }
                Ok(Frame::Result {
                    test: i,
                    cpu_ms,
                    outcome,
                }) => {
                    if let (Some((j, at)), Some(case)) = (current, self.tests.cases.get(i)) {
                        if i == j {
                            let ms = at.elapsed().as_millis() as u64;
                            let outcome = relative(outcome, &prefix);
                            let limits = (
                                self.limits.of(case).as_millis() as u64,
                                self.limits.backstop(case).as_millis() as u64,
                            );
                            let (verdict, credit) =
                                judge(case, &outcome, limits, self.select_credit);
                            let mut r = result(case, verdict, credit, ms);
                            r.cpu_ms = cpu_ms;
                            run.record(i, r);
                            current = None;
                            deadline = Instant::now() + self.limits.load;
                        }
                    }
                }
                Ok(Frame::Overrun { test: i }) => {
                    if let (Some((j, at)), Some(case)) = (current, self.tests.cases.get(i)) {
                        if i == j {
                            // The goal caught the watchdog's exception and went on.
                            let _ = child.kill();
                            let ms = at.elapsed().as_millis() as u64;
                            let verdict = Verdict::Timeout {
                                limit_ms: self.limits.of(case).as_millis() as u64,
                                killed: true,
                                wall: false,
                            };
                            run.record(i, result(case, verdict, None, ms));
                            break Flow::Continue;
                        }
                    }
                }
                Ok(Frame::Deep { .. }) => {}
                Ok(Frame::Done) => {
                    // Let it exit on its own; the kill below is for a child that lingers.
                    let _ = child.wait_briefly();
                    break Flow::Stop;
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    break self.after_death(run, loaded, current, None, first, &child);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = child.wait_briefly().or_else(|| child.kill());
                    break self.after_death(run, loaded, current, status, first, &child);
                }
            }
        };
        let _ = child.kill();
        self.jail.sweep(slot);
        run.output(&child);
        Ok(flow)
    }

    /// Records what a child's death (`status` None: the grader killed it) costs.
    fn after_death(
        &self,
        run: &mut Run,
        loaded: bool,
        current: Option<(usize, Instant)>,
        status: Option<ExitStatus>,
        first: bool,
        child: &Child,
    ) -> Flow {
        let tail = child.stderr_tail();
        if let Some((i, at)) = current {
            let case = &self.tests.cases[i];
            let ms = at.elapsed().as_millis() as u64;
            let limit_ms = self.limits.of(case).as_millis() as u64;
            let verdict = match status {
                // No answer by the backstop: the child's watchdog did not stop the goal.
                None => Verdict::Timeout {
                    limit_ms: self.limits.backstop(case).as_millis() as u64,
                    killed: true,
                    wall: true,
                },
                Some(status) => died(status, tail, limit_ms),
            };
            run.record(i, result(case, verdict, None, ms));
            return Flow::Continue;
        }
        if loaded {
            // Between tests: the child ended on its own or hung in grader code.
            return Flow::Continue;
        }
        let why = match status {
            None => format!(
                "loading took longer than {} s",
                self.limits.load.as_secs_f64()
            ),
            Some(status) => {
                let how = match (status.code(), status.signal()) {
                    (Some(code), _) => format!("swipl exited with status {code} while loading"),
                    (_, Some(sig)) => format!("swipl was killed by signal {sig} while loading"),
                    _ => "swipl ended while loading".into(),
                };
                if tail.is_empty() {
                    how
                } else {
                    format!("{how}: {tail}")
                }
            }
        };
        if first {
            run.fail_load(why);
        } else {
            run.rest(|_| Verdict::NotRun {
                reason: format!("reloading the submission failed: {why}"),
            });
        }
        Flow::Stop
    }
}

/// What to do after a child ends.
enum Flow {
    /// Start another child from `Run::next`.
    Continue,
    /// Every test has a result.
    Stop,
}

/// The state of grading one submission.
struct Run {
    results: Vec<Option<TestResult>>,
    next: usize,
    load: Load,
    children: usize,
    output: Vec<u8>,
    tests: &'static TestSet,
}

impl Run {
    fn new(tests: &'static TestSet) -> Run {
        Run {
            results: vec![None; tests.cases.len()],
            next: 0,
            load: Load::default(),
            children: 0,
            output: Vec::new(),
            tests,
        }
    }

    fn record(&mut self, i: usize, result: TestResult) {
        self.results[i] = Some(result);
        self.next = self.next.max(i + 1);
    }

    /// Gives every test without a result the verdict `make` returns.
    fn rest(&mut self, make: impl Fn(&TestCase) -> Verdict) {
        for (i, case) in self.tests.cases.iter().enumerate() {
            if self.results[i].is_none() {
                self.results[i] = Some(result(case, make(case), None, 0));
            }
        }
        self.next = self.tests.cases.len();
    }

    fn fail_load(&mut self, why: String) {
        let reason = format!("the submission did not load: {why}");
        self.rest(|_| Verdict::NotRun {
            reason: reason.clone(),
        });
        self.load.load_failed = Some(why);
    }

    fn loaded(&mut self, found: Found) {
        let mut missing = Vec::new();
        if found.hand_value.is_none() {
            missing.push("hand_value/3".to_string());
        }
        if found.select_hand.is_none() {
            missing.push("select_hand/3".to_string());
        }
        if missing.len() == 2 {
            let errors = self.load.error_count();
            self.load.load_failed = Some(format!(
                "nothing usable loaded: neither hand_value/3 nor select_hand/3 is defined \
                 ({errors} load error{})",
                if errors == 1 { "" } else { "s" }
            ));
        }
        self.load.missing_predicate = missing;
    }

    fn output(&mut self, child: &Child) {
        for (name, bytes) in child.output() {
            if bytes.is_empty() || self.output.len() >= 2 * MAX_OUTPUT {
                continue;
            }
            self.output
                .extend_from_slice(format!("--- child {} {name}\n", self.children).as_bytes());
            self.output.extend_from_slice(&bytes);
            if !self.output.ends_with(b"\n") {
                self.output.push(b'\n');
            }
        }
    }
}

fn result(case: &TestCase, verdict: Verdict, credit: Option<f64>, time_ms: u64) -> TestResult {
    let credit = match case.input {
        Input::SelectHand { .. } => Some(credit.unwrap_or(0.0)),
        Input::HandValue { .. } => None,
    };
    TestResult {
        id: case.id.clone(),
        predicate: case.predicate().into(),
        goal: case.goal(),
        verdict,
        credit,
        time_ms,
        cpu_ms: None,
    }
}

/// Returns the verdict for a child that exited on its own during a test.
fn died(status: ExitStatus, tail: String, limit_ms: u64) -> Verdict {
    let lower = tail.to_lowercase();
    if lower.contains("memory") || lower.contains("cannot allocate") {
        return Verdict::Memory { message: tail };
    }
    if status.signal() == Some(libc::SIGXCPU) {
        return Verdict::Timeout {
            limit_ms,
            killed: true,
            wall: false,
        };
    }
    Verdict::Crashed {
        code: status.code(),
        signal: status.signal(),
        message: tail,
    }
}

/// Returns `outcome` with the submission's directory, as the child sees it, taken out of
/// its message.
fn relative(outcome: Outcome, prefix: &str) -> Outcome {
    match outcome {
        Outcome::Exception { kind, message } => Outcome::Exception {
            kind,
            message: message.replace(prefix, ""),
        },
        other => other,
    }
}

fn path_text(path: &Path) -> String {
    path.display().to_string()
}

/// Returns tests.pl: `timing(WallFactor, GraceSeconds)`, then one `test(Index, Seconds,
/// Goal)` term per test, inputs only.
fn tests_file(tests: &TestSet, limits: &Limits) -> String {
    let mut text = String::from("% generated by crib-grade: inputs only, never expected answers\n");
    text.push_str(&format!(
        "timing({}, {:.3}).\n",
        limits.wall_factor.max(1),
        limits.grace.as_secs_f64()
    ));
    for (i, case) in tests.cases.iter().enumerate() {
        let goal = match &case.input {
            Input::HandValue { hand, start } => format!(
                "hand_value({},{})",
                crate::testset::prolog_list(&hand.cards()),
                start.prolog()
            ),
            Input::SelectHand { cards } => {
                format!("select_hand({})", crate::testset::prolog_list(cards))
            }
        };
        text.push_str(&format!(
            "test({i}, {:.3}, {goal}).\n",
            limits.of(case).as_secs_f64()
        ));
    }
    text
}
