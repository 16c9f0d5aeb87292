//! The select_hand tests: the deals asked through the batch driver, one child at a time,
//! each answer judged as it comes; the first child's load is the submission's.

use std::num::NonZeroUsize;
use std::os::unix::process::ExitStatusExt;
use std::sync::mpsc::Sender;
use std::sync::Mutex;
use std::time::Instant;

use crib_child::{Lane, MAX_OUTPUT};
use crib_results::{Diagnostic, Load, Predicate, TestResult, Verdict};

use super::{Grader, MAX_DIAGNOSTICS};
use crate::batch::{self, Batch, Listen, Stop};
use crate::child::Place;
use crate::protocol::{Answer, ChildDeath, Found, ItemOutcome, Kill, Outcome};
use crate::verdict::judge;
use crib_testset::draw::{TestCase, TestSet};

/// The batch file of the select_hand deals, in the grader's directory.
pub(super) const FILE: &str = "select_hand_tests.bin";

/// Returns the batch file of `tests`' deals.
pub(super) fn batch_bytes(tests: &TestSet) -> Vec<u8> {
    batch::deal_bytes(tests.cases.iter().map(|case| case.cards.as_slice()))
}

impl Grader {
    /// Asks every select_hand test of `run` in `lane`, one child at a time, a fresh one
    /// whenever one dies or is killed, within [`crate::Limits::budget`].
    pub(super) fn run_tests(&self, lane: &Lane<'_>, run: &mut Run<'_>) {
        let asked = self.limits.deals_asked(&self.tests);
        let files = run.load.files.clone();
        let place = Place {
            lane: lane.clone(),
            files: &files,
            limits: self.limits,
            cores: NonZeroUsize::MIN,
        };
        let file = lane.grader().join(FILE);
        let heard = Heard {
            grader: self,
            prefix: format!("{}/", lane.submission_dir().display()),
            asked,
            run: Mutex::new(&mut *run),
        };
        let batch = Batch {
            predicate: Predicate::SelectHand,
            purpose: "the select_hand tests",
            file: &file,
            len: asked,
            per_call: self.limits.select_hand,
            listen: Some(&heard),
        };
        let done = batch::run(&place, &batch, 1, self.limits.budget(&self.tests), None);
        drop(heard);
        match done.stop {
            Some(Stop::NotLoaded {
                first: true, why, ..
            }) => run.fail_load(why),
            Some(Stop::NotLoaded { why, .. }) => {
                run.not_run(0, &format!("reloading the submission failed: {why}"), true)
            }
            // The tests not asked are left out of the marks: the mean is over a sample.
            Some(Stop::Budget) => run.not_run(
                0,
                &format!(
                    "not asked: the select_hand time budget ({} s) ran out",
                    self.limits.select_hand_budget.as_secs()
                ),
                false,
            ),
            Some(Stop::NotStarted(why)) => {
                run.not_run(0, &crate::child::not_started(&why), true);
            }
            _ => {}
        }
        // The deals past those asked (crate::Limits::select_hand_deals).
        let reason = format!("not asked: only the first {asked} deals were asked");
        run.not_run(asked, &reason, false);
    }
}

/// What the tests hear from the batch driver: each answer judged as it comes.
struct Heard<'g, 'r, 't> {
    grader: &'g Grader,
    /// The submission's directory as the child sees it, with a slash: taken out of paths.
    prefix: String,
    /// How many deals are asked.
    asked: usize,
    run: Mutex<&'r mut Run<'t>>,
}

impl<'r, 't> Heard<'_, 'r, 't> {
    fn run(&self) -> std::sync::MutexGuard<'_, &'r mut Run<'t>> {
        self.run.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Listen for Heard<'_, '_, '_> {
    fn diag(&self, mut diag: Diagnostic) {
        let mut run = self.run();
        let load = &mut run.load;
        if load.diagnostics.len() < MAX_DIAGNOSTICS {
            diag.file = diag.file.replace(&self.prefix, "");
            diag.message = diag.message.replace(&self.prefix, "");
            load.diagnostics.push(diag);
        }
    }

    fn loaded(&self, found: &Found) -> bool {
        let mut run = self.run();
        run.since = Instant::now();
        run.loaded(found.clone());
        if run.load.load_failed.is_some() {
            // Neither predicate is defined: no test can run.
            run.not_run(0, "neither hand_value/3 nor select_hand/3 is defined", true);
            return false;
        }
        if self.asked == 1 {
            run.last_starts();
        }
        true
    }

    fn answered(&self, i: usize, outcome: &ItemOutcome, times: Option<(u64, u64)>) {
        let limits = &self.grader.limits;
        let mut run = self.run();
        let now = Instant::now();
        let ms = times.map_or_else(|| (now - run.since).as_millis() as u64, |t| t.1);
        run.since = now;
        let Some(case) = self.grader.tests.cases.get(i) else {
            return;
        };
        let limit_ms = limits.select_hand.as_millis() as u64;
        // The wall-clock backstop: the CPU-time limit times `wall_factor` (at least 1).
        let backstop_ms = (limits.select_hand * limits.wall_factor.max(1)).as_millis() as u64;
        let judged = |outcome: &Outcome| {
            judge(
                case,
                outcome,
                (limit_ms, backstop_ms),
                self.grader.select_credit,
            )
        };
        let (verdict, credit) = match outcome {
            ItemOutcome::Outcome(outcome) => judged(&relative(outcome.clone(), &self.prefix)),
            ItemOutcome::Int(v) => judged(&Outcome::Value {
                value: Answer::Int(v.to_string()),
            }),
            ItemOutcome::Died(death) => (died(death, limit_ms, backstop_ms), 0.0),
            // No answer by the backstop: the child's watchdog did not stop the goal.
            ItemOutcome::Killed(Kill::Silent) => (killed(backstop_ms, true), 0.0),
            // The goal caught the watchdog's exception and went on: the child was killed.
            ItemOutcome::Killed(Kill::Overrun) => (killed(limit_ms, false), 0.0),
        };
        let mut result = result(case, verdict, credit, ms);
        if let (Some((cpu_ms, _)), ItemOutcome::Outcome(_) | ItemOutcome::Int(_)) = (times, outcome)
        {
            result.cpu_ms = Some(cpu_ms);
        }
        run.results[i] = Some(result);
        // The last test starts now: the core the tests hold is soon free.
        if i + 2 >= self.asked {
            run.last_starts();
        }
    }

    fn printed(&self, children: usize, printed: &[(&'static str, Vec<u8>); 2]) {
        let mut run = self.run();
        run.children = children;
        run.output(printed);
    }
}

/// The state of grading one submission.
pub(super) struct Run<'a> {
    pub(super) results: Vec<Option<TestResult>>,
    pub(super) load: Load,
    pub(super) children: usize,
    pub(super) output: Vec<u8>,
    /// When the tests' child sent its last frame: the item after it started then.
    since: Instant,
    tests: &'a TestSet,
    /// Told, once, whether the first child found hand_value/3 defined in a submission that
    /// loaded (the marked check beside the tests is called off unless it did; dropped
    /// unsent, it says the same).
    pub(super) on_loaded: Option<Sender<bool>>,
    /// Told, once, when the last test asked starts (the answer before it came): the core the tests hold is soon free
    /// (the marked check beside them starts a child for it meanwhile).
    pub(super) on_last: Option<Sender<()>>,
}

impl<'a> Run<'a> {
    pub(super) fn new(tests: &'a TestSet) -> Run<'a> {
        Run {
            results: vec![None; tests.cases.len()],
            load: Load::default(),
            children: 0,
            output: Vec::new(),
            since: Instant::now(),
            tests,
            on_loaded: None,
            on_last: None,
        }
    }

    /// Tells the marked check beside the tests, once, that the last test starts.
    fn last_starts(&mut self) {
        if let Some(last) = self.on_last.take() {
            let _ = last.send(());
        }
    }

    /// Gives every test from `first` on without a result the verdict `not_run` for
    /// `reason`: credit 0 when `counted`, else no credit (left out of the marks).
    pub(super) fn not_run(&mut self, first: usize, reason: &str, counted: bool) {
        for i in first..self.tests.cases.len() {
            if self.results[i].is_none() {
                let verdict = Verdict::NotRun {
                    reason: reason.to_string(),
                };
                let mut result = result(&self.tests.cases[i], verdict, 0.0, 0);
                result.credit = result.credit.filter(|_| counted);
                self.results[i] = Some(result);
            }
        }
    }

    pub(super) fn fail_load(&mut self, why: String) {
        self.not_run(0, &format!("the submission did not load: {why}"), true);
        self.load.load_failed = Some(why);
    }

    fn loaded(&mut self, found: Found) {
        let mut missing = Vec::new();
        if found.hand_value.is_none() {
            missing.push(Predicate::HandValue);
        }
        if found.select_hand.is_none() {
            missing.push(Predicate::SelectHand);
        }
        if missing.len() == 2 {
            let errors = self.load.error_count();
            self.load.load_failed = Some(format!(
                "nothing usable loaded: neither hand_value/3 nor select_hand/3 is defined \
                 ({errors} load error{})",
                if errors == 1 { "" } else { "s" }
            ));
        }
        if let Some(go) = self.on_loaded.take() {
            let defined =
                self.load.load_failed.is_none() && !missing.contains(&Predicate::HandValue);
            // The check's thread never ends before the tests do: the send cannot fail.
            let _ = go.send(defined);
        }
        self.load.missing_predicate = missing;
    }

    /// Keeps what a child printed (`printed`: the heads of its stdout and stderr), under a
    /// header naming it.
    fn output(&mut self, printed: &[(&'static str, Vec<u8>); 2]) {
        for (name, bytes) in printed {
            if bytes.is_empty() || self.output.len() >= 2 * MAX_OUTPUT {
                continue;
            }
            self.output
                .extend_from_slice(format!("--- child {} {name}\n", self.children).as_bytes());
            self.output.extend_from_slice(bytes);
            if !self.output.ends_with(b"\n") {
                self.output.push(b'\n');
            }
        }
    }
}

fn result(case: &TestCase, verdict: Verdict, credit: f64, time_ms: u64) -> TestResult {
    TestResult {
        id: case.id.clone(),
        predicate: Predicate::SelectHand,
        source: case.source,
        goal: case.goal(),
        verdict,
        credit: Some(credit),
        time_ms,
        cpu_ms: None,
    }
}

/// Returns the verdict for a child that exited on its own during a test (a status that could
/// not be read counts as a child killed at the backstop).
fn died(death: &ChildDeath, limit_ms: u64, backstop_ms: u64) -> Verdict {
    let Some(status) = death.status else {
        return killed(backstop_ms, true);
    };
    let tail = death.tail.clone();
    let lower = tail.to_lowercase();
    if lower.contains("memory") || lower.contains("cannot allocate") {
        return Verdict::Memory { message: tail };
    }
    if status.signal() == Some(libc::SIGXCPU) {
        return killed(limit_ms, false);
    }
    Verdict::Crashed {
        code: status.code(),
        signal: status.signal(),
        message: tail,
    }
}

/// Returns the verdict on a goal whose child was killed at `limit_ms` (of wall-clock time
/// when `wall`, else CPU time).
fn killed(limit_ms: u64, wall: bool) -> Verdict {
    Verdict::Timeout {
        limit_ms,
        killed: true,
        wall,
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
