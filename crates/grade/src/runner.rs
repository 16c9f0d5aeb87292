//! Grading one submission: the [`Grader`] and its [`Limits`], and the loop that feeds a
//! submission's tests to child after child until each test has a verdict.

use std::fs;
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use crib_child::Lane;
use crib_isolation::{Isolation, IsolationChoice};
use crib_results::{
    escape_path, Marks, Predicate, Producer, RuleMistake, RuleVerdict, SelectCredit,
    SubmissionResult, TestResult,
};
use crib_sandbox::{self as sandbox, Jail, Slot, WorkDir, Worker};
use crib_submission::Submission;

use crate::child::Place;
use crate::deep::{Deep, DeepOptions};
use crate::error::GradeError;
use crate::limits::Limits;
use crate::swipl::{swipl_support, SwiplSupport};
use crib_testset::draw::TestSet;
use crib_testset::Tests;

mod select;

use select::Run;

/// The scratch directory of a submission's children in the worker's first lane (the
/// select_hand tests, the linter, the deep check), in its work directory.
const SCRATCH: &str = "scratch";

/// The scratch directory of the marked hand_value check's children, in the worker's second
/// lane ([`Slot::Second`]), in the work directory.
const CHECK_SCRATCH: &str = "scratch-check";

/// The most diagnostics kept per submission.
pub const MAX_DIAGNOSTICS: usize = 50;

/// Grades submissions: owns the sandbox settings and a private work directory with the child
/// programs and the tests (the crate README's "Work directories"). As root it takes a block
/// of sandbox uids of its own ([`crib_sandbox::SANDBOX_UIDS`]) for its life.
#[derive(Debug)]
pub struct Grader {
    jail: Jail,
    limits: Limits,
    dir: WorkDir,
    tests: TestSet,
    counter: AtomicUsize,
    select_credit: SelectCredit,
    deep: Option<Deep>,
    linter: Option<crib_lint::Linter>,
}

impl Grader {
    /// Returns a grader running `swipl` with `limits` in the isolation chosen, on the test
    /// set `tests` says ([`Tests::draw`]: drawn from its seed, or read back where it is kept),
    /// drawn while the jail is probed.
    ///
    /// # Errors
    /// [`GradeError::Sandbox`] if `swipl` does not run, if bubblewrap was required and does
    /// not work, or if strict isolation was required and is not possible here,
    /// [`GradeError::SwiplTooOld`] if it is older than [`crate::OLDEST_SWIPL`],
    /// [`GradeError::Io`] if the work directory cannot be written or no block of sandbox
    /// uids is free.
    pub fn new(
        swipl: &Path,
        isolation: IsolationChoice,
        limits: Limits,
        tests: &Tests,
    ) -> Result<Grader, GradeError> {
        let dir = WorkDir::create(&std::env::temp_dir(), sandbox::is_root())
            .map_err(|e| GradeError::io("creating the work directory", e))?;
        // Drawing the test set costs CPU unless it is kept (the fixed-cost rows of
        // docs/PERFORMANCE.md); the jail's probe mostly waits on swipl.
        let (jail, tests) = std::thread::scope(|scope| {
            let tests = scope.spawn(|| tests.draw());
            let jail = Jail::new(swipl, crib_child::SWIPL_PROBE, isolation, dir.path());
            let tests = tests
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (jail, tests)
        });
        let jail = jail?;
        if let SwiplSupport::TooOld(why) = swipl_support(jail.program_version()) {
            return Err(GradeError::SwiplTooOld(why));
        }
        let grader = dir.path().join("grader");
        let write = |name: &str, text: &str| {
            fs::write(grader.join(name), text)
                .map_err(|e| GradeError::io(format!("writing {name}"), e))
        };
        fs::create_dir(&grader).map_err(|e| GradeError::io("creating the work directory", e))?;
        write(crate::batch::ANSWER_CHILD, crib_child::ANSWER_CHILD)?;
        write("child_lib.pl", crib_child::CHILD_LIB)?;
        write("lint_child.pl", crib_child::LINT_CHILD)?;
        fs::write(grader.join(select::FILE), select::batch_bytes(&tests))
            .map_err(|e| GradeError::io("writing the select_hand deals", e))?;
        fs::write(
            grader.join(crate::marked_check::FILE),
            crib_testset::patterns::batch_bytes(&tests.hand_value),
        )
        .map_err(|e| GradeError::io("writing the hand_value items", e))?;
        sandbox::open_up(&grader).map_err(|e| GradeError::io("opening the grader's files", e))?;
        Ok(Grader {
            jail,
            limits,
            dir,
            tests,
            counter: AtomicUsize::new(0),
            select_credit: SelectCredit::default(),
            deep: None,
            linter: None,
        })
    }

    /// Adds Landlock to bubblewrap's layers, applied inside the sandbox by a copy of
    /// `program`, which must call [`crib_sandbox::confine_main`] first thing in its `main` (the
    /// `crib` binary does; pass [`std::env::current_exe`]). Does nothing unless bubblewrap is
    /// in force and the kernel offers Landlock.
    ///
    /// # Errors
    /// [`GradeError::Sandbox`] saying why the layer could not be added; the grader keeps
    /// its isolation as it was and grades as before.
    pub fn confine_with(&mut self, program: &Path) -> Result<(), GradeError> {
        Ok(self.jail.confine_with(program, self.dir.path())?)
    }

    /// Returns the grader with `linter` run on every submission after its tests, in the
    /// grader's jail on the copy the tests ran on ([`crib_lint::Linter::lint_staged`]): each
    /// result then has a `quality` section (crib-lint's findings, never a mark).
    pub fn with_lint(mut self, linter: crib_lint::Linter) -> Grader {
        self.linter = Some(linter);
        self
    }

    /// Whether results get a quality section ([`Grader::with_lint`]).
    pub fn lints(&self) -> bool {
        self.linter.is_some()
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
        let deep = Deep::prepare(&self.work_dir().join("grader"), options)
            .map_err(|e| GradeError::io("writing the deep check's files", e))?;
        self.deep = Some(deep);
        Ok(self)
    }

    /// Returns the deep check's options, if the grader runs it.
    pub fn deep(&self) -> Option<&DeepOptions> {
        self.deep.as_ref().map(Deep::options)
    }

    /// Returns the test set the grader grades with.
    pub fn test_set(&self) -> &TestSet {
        &self.tests
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

    /// Returns the programs every result of this grader records: this crib's version and
    /// commit, and the first line of its SWI-Prolog's `--version`.
    pub fn producer(&self) -> Producer {
        Producer {
            crib: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("CRIB_COMMIT").to_string(),
            swipl: self.jail.program_version().to_string(),
        }
    }

    /// Returns the uids the children run as, when the grader runs as root (see
    /// [`crib_sandbox::Jail::uids`]): when [`Grader::grade`] returns, no process has one.
    pub fn sandbox_uids(&self) -> Option<std::ops::Range<u32>> {
        self.jail.uids()
    }

    /// Returns the work directory.
    pub fn work_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Grades one submission as `worker` (each worker's children get uids of their own when
    /// the grader runs as root), on one core. Never fails: anything that goes wrong becomes
    /// part of the report.
    pub fn grade(&self, submission: &Submission, worker: Worker) -> SubmissionResult {
        self.grade_on(submission, worker, NonZeroUsize::MIN)
    }

    /// As [`Grader::grade`], with `cores` cores to itself: the marked hand_value check, most
    /// of a plain submission's time, runs that many children at once in the worker's second
    /// lane ([`Slot::Second`]); with two cores or more it runs beside the
    /// select_hand tests, on one core fewer until their last test starts (on one core, as on
    /// Gradescope's half, it follows them: their wall-clock backstops are not shared with
    /// it). The answers, and so the marks, are the same on any number of cores; a check cut
    /// short by its budget has asked more items. [`Session::grade`](crate::Session::grade)
    /// gives each submission the cores no other submission is using.
    pub fn grade_on(
        &self,
        submission: &Submission,
        worker: Worker,
        cores: NonZeroUsize,
    ) -> SubmissionResult {
        let started = Instant::now();
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut run = Run::new(&self.tests);
        let mut deep = None;
        let mut hand_value = None;
        let mut quality = None;
        // A random name: a child may pass through the work directory but not list it.
        let work = tempfile::Builder::new()
            .prefix(&format!("s{n}-"))
            .rand_bytes(12)
            .tempdir_in(self.dir.path());
        let grader = self.dir.path().join("grader");
        let content_hash = match work
            .map_err(|e| format!("cannot create a directory for it: {e}"))
            .and_then(|work| {
                // The select_hand tests, the linter and the deep check in the worker's first
                // lane; the marked hand_value check in its second (a uid of its own, so that
                // ending the tests' leftovers never touches it).
                let lane =
                    |scratch, slot| Lane::new(&self.jail, &grader, work.path(), scratch, slot);
                let tests_lane = lane(SCRATCH, Slot::First(worker));
                let check_lane = lane(CHECK_SCRATCH, Slot::Second(worker));
                let staged = tests_lane
                    .stage(submission, self.limits.max_bytes, &[&check_lane])
                    .map_err(|e| e.to_string())?;
                Ok((staged, tests_lane, check_lane, work))
            }) {
            Ok((staged, tests_lane, check_lane, _work)) => {
                // A submission whose files never name hand_value (an empty or a broken one,
                // as a rule) would only spend a child of the check on it.
                let at_once = names_hand_value(tests_lane.copy(), &staged);
                run.load.files = staged.load;
                run.load.skipped = staged.skipped;
                // The tests below update `run`, never its files.
                let files = run.load.files.clone();
                // The marked hand_value check, beside the select_hand tests when the
                // submission has two cores or more.
                let place = |lane| Place {
                    lane,
                    files: &files,
                    limits: self.limits,
                    cores,
                };
                let check_place = place(check_lane);
                let mut beside = None;
                if run.load.files.is_empty() {
                    run.fail_load("no .pl file to load".into());
                } else {
                    let cancel = AtomicBool::new(false);
                    (beside, quality) = std::thread::scope(|scope| {
                        let (go, wait) = mpsc::channel::<bool>();
                        // The core the tests hold, given to the check after them.
                        let (give, given) = mpsc::channel::<()>();
                        let check = (cores.get() > 1).then(|| {
                            run.on_loaded = Some(go);
                            let (check_place, cancel) = (&check_place, &cancel);
                            scope.spawn(move || {
                                if at_once {
                                    // Started beside the tests' first child; called off (and
                                    // its loading child ended) when that child finds no
                                    // hand_value/3 or the tests end without a load. Its
                                    // answers count only when the tests say it loaded (below).
                                    scope.spawn(move || {
                                        if !wait.recv().unwrap_or(false) {
                                            cancel.store(true, Ordering::Relaxed);
                                            check_place.lane.end_leftovers();
                                        }
                                    });
                                } else if !wait.recv().unwrap_or(false) {
                                    // Else once that child says hand_value/3 is defined.
                                    return None;
                                }
                                Some(crate::marked_check::check(
                                    check_place,
                                    &self.tests.hand_value,
                                    Some(&crate::batch::Beside {
                                        spare: &given,
                                        cancel,
                                    }),
                                ))
                            })
                        });
                        // The tests' core, given when their last test starts (its child
                        // starts meanwhile) or when they end.
                        run.on_last = Some(give);
                        self.run_tests(&tests_lane, &mut run);
                        run.on_loaded = None;
                        // The linter is short: the check has the core from here.
                        if let Some(give) = run.on_last.take() {
                            let _ = give.send(());
                        }
                        // The copy the tests ran on, in the grader's jail.
                        let quality = self.linter.as_ref().map(|linter| {
                            linter.lint_staged(&tests_lane, &submission.name, &run.load.files)
                        });
                        let checked = check.and_then(|check| {
                            check
                                .join()
                                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                        });
                        (checked, quality)
                    });
                }
                let loaded = run.load.load_failed.is_none();
                let has_hand_value = !run.load.missing_predicate.contains(&Predicate::HandValue);
                // The same check as beside the tests, whenever it did not run there.
                hand_value = (loaded && has_hand_value).then(|| {
                    beside.unwrap_or_else(|| {
                        crate::marked_check::check(&check_place, &self.tests.hand_value, None)
                    })
                });
                deep = self
                    .deep
                    .as_ref()
                    .filter(|_| loaded)
                    .map(|d| d.check(&place(tests_lane)));
                staged.hash
            }
            Err(why) => {
                run.fail_load(why);
                String::new()
            }
        };
        run.not_run(0, "the grader stopped", true);
        let tests: Vec<TestResult> = run.results.into_iter().flatten().collect();
        // select_hand/3's mistake in words, beside hand_value/3's that it may follow from.
        let found: Vec<RuleMistake> = hand_value
            .iter()
            .flat_map(|h| &h.rules)
            .filter_map(|f| match f.verdict {
                RuleVerdict::Mistake(m) => Some(m),
                _ => None,
            })
            .collect();
        let keep_diagnosis = crate::keep_diagnosis::diagnose(&self.tests.cases, &tests, &found);
        SubmissionResult {
            name: submission.name.clone(),
            path: escape_path(&submission.path),
            content_hash,
            test_set: self.tests.fingerprint.clone(),
            seed_id: self.tests.seed_id.clone(),
            select_credit: self.select_credit,
            isolation: self.jail.isolation,
            marks: Marks::new(&tests, hand_value.as_ref()),
            hand_value,
            load: run.load,
            tests,
            children: run.children,
            elapsed_ms: started.elapsed().as_millis() as u64,
            output: String::from_utf8_lossy(&run.output).into_owned(),
            deep,
            quality,
            lms: submission.lms.clone(),
            keep_diagnosis,
            produced_by: Some(self.producer()),
        }
    }
}

/// Returns whether any Prolog file of the submission staged in `copy` names `hand_value`
/// (a file that cannot be read counts as naming it): a scheduling hint, never a verdict.
fn names_hand_value(copy: &Path, staged: &crib_submission::Staged) -> bool {
    staged.prolog_files().any(|file| {
        fs::read(copy.join(file)).map_or(true, |text| {
            text.windows(b"hand_value".len())
                .any(|w| w == b"hand_value")
        })
    })
}
