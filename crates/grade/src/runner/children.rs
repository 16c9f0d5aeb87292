//! One submission's children: starting them, reading their frames, starting a fresh one
//! after a death, and what each test's answer becomes.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crib_child::{Child, Program, RecvTimeoutError, MAX_OUTPUT};
use crib_results::{Diagnostic, Load, Predicate, TestResult, Verdict};
use crib_sandbox::Mounts;

use super::{path_text, Grader, MAX_DIAGNOSTICS};
use crate::limits::answering;
use crate::protocol::{Found, Frame, Outcome};
use crate::verdict::judge;
use crib_testset::draw::{TestCase, TestSet};

impl Grader {
    /// Runs every test, starting a fresh child whenever one dies or is killed.
    pub(super) fn run_children(&self, work: &Path, slot: u32, run: &mut Run<'_>) {
        let budget_end = Instant::now() + self.limits.budget(&self.tests);
        let grader = self.dir.path().join("grader");
        let copy = work.join("submission");
        let scratch = work.join(super::SCRATCH);
        let mounts = Mounts {
            grader: &grader,
            submission: &copy,
            scratch: &scratch,
        };
        let asked = self.limits.deals_asked(&self.tests);
        while run.next < asked {
            if Instant::now() >= budget_end {
                // The tests not asked are left out of the marks: the mean is over a sample.
                run.rest_not_asked(self.limits.select_hand_budget);
                break;
            }
            let before = run.next;
            match self.one_child(&mounts, slot, run, budget_end) {
                Ok(Flow::Continue) if run.next == before && Instant::now() < budget_end => {
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
        run.rest_not_asked_past(asked);
    }

    /// Runs one child from test `run.next` until it finishes, dies or is killed.
    fn one_child(
        &self,
        mounts: &Mounts<'_>,
        slot: u32,
        run: &mut Run,
        budget_end: Instant,
    ) -> std::io::Result<Flow> {
        let args = [
            path_text(&self.jail.inside(mounts, &mounts.grader.join("tests.pl"))),
            run.next.to_string(),
        ];
        let remaining = (self.limits.select_hand + self.limits.grace)
            * (self.tests.cases.len() - run.next) as u32;
        // The program outlives borrows of `run`, which the frames update.
        let files = run.load.files.clone();
        let program = Program {
            jail: &self.jail,
            mounts,
            name: "grade_child.pl",
            args: &args,
            files: &files,
            rlimits: answering(self.limits.memory, self.limits.load, remaining),
            slot,
        };
        let submission_dir = program.submission_dir();
        let mut child = Child::start(&program)?;
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
            match child.next_frame(wait) {
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
                    if i < self.tests.cases.len() {
                        let now = Instant::now();
                        current = Some((i, now));
                        deadline = now + self.limits.select_hand_backstop() + self.limits.grace;
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
                                self.limits.select_hand.as_millis() as u64,
                                self.limits.select_hand_backstop().as_millis() as u64,
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
                                limit_ms: self.limits.select_hand.as_millis() as u64,
                                killed: true,
                                wall: false,
                            };
                            run.record(i, result(case, verdict, None, ms));
                            break Flow::Continue;
                        }
                    }
                }
                Ok(Frame::Outcomes { .. }) => {}
                Ok(Frame::Done) => {
                    // Let it exit on its own; the kill below is for a child that lingers.
                    let _ = child.wait_briefly();
                    break Flow::Stop;
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    // The select_hand budget ran out before the test's own limit: the test
                    // running is not asked either, and the loop above leaves out the rest.
                    let _ = child.kill();
                    if let Some((i, _)) = current {
                        run.not_asked(i, self.limits.select_hand_budget);
                    }
                    break Flow::Continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    break self.after_death(run, loaded, current, None, first, &child);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = child.ended();
                    break self.after_death(run, loaded, current, status, first, &child);
                }
            }
        };
        let _ = child.kill();
        program.end_leftovers();
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
        child: &Child<Frame>,
    ) -> Flow {
        if let Some((i, at)) = current {
            let case = &self.tests.cases[i];
            let ms = at.elapsed().as_millis() as u64;
            let limit_ms = self.limits.select_hand.as_millis() as u64;
            let verdict = match status {
                // No answer by the backstop: the child's watchdog did not stop the goal.
                None => Verdict::Timeout {
                    limit_ms: self.limits.select_hand_backstop().as_millis() as u64,
                    killed: true,
                    wall: true,
                },
                Some(status) => died(status, child.stderr_tail(), limit_ms),
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
            Some(status) => child.explain(Some(status), " while loading"),
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
pub(super) struct Run<'a> {
    pub(super) results: Vec<Option<TestResult>>,
    next: usize,
    pub(super) load: Load,
    pub(super) children: usize,
    pub(super) output: Vec<u8>,
    tests: &'a TestSet,
    /// Told, once, whether the first child found hand_value/3 defined in a submission that
    /// loaded (the marked check beside the tests waits for it).
    pub(super) on_loaded: Option<Sender<bool>>,
}

impl<'a> Run<'a> {
    pub(super) fn new(tests: &'a TestSet) -> Run<'a> {
        Run {
            results: vec![None; tests.cases.len()],
            next: 0,
            load: Load::default(),
            children: 0,
            output: Vec::new(),
            tests,
            on_loaded: None,
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

    /// Leaves every test without a result out of the marks: `not_run`, no credit, because
    /// the select_hand time `budget` ran out.
    pub(super) fn rest_not_asked(&mut self, budget: Duration) {
        for i in 0..self.tests.cases.len() {
            if self.results[i].is_none() {
                self.not_asked(i, budget);
            }
        }
        self.next = self.tests.cases.len();
    }

    /// Leaves the tests from `asked` on, which [`crate::Limits::select_hand_deals`] left
    /// out, out of the marks (the ones not already answered).
    pub(super) fn rest_not_asked_past(&mut self, asked: usize) {
        let reason = format!("not asked: only the first {asked} deals were asked");
        for i in asked..self.tests.cases.len() {
            if self.results[i].is_none() {
                self.leave_out(i, reason.clone());
            }
        }
    }

    /// Leaves test `i` out of the marks: `not_run`, no credit, because the select_hand time
    /// `budget` ran out.
    fn not_asked(&mut self, i: usize, budget: Duration) {
        let reason = format!(
            "not asked: the select_hand time budget ({} s) ran out",
            budget.as_secs()
        );
        self.leave_out(i, reason);
    }

    /// Leaves test `i` out of the marks: `not_run` for `reason`, no credit.
    fn leave_out(&mut self, i: usize, reason: String) {
        let mut result = result(&self.tests.cases[i], Verdict::NotRun { reason }, None, 0);
        result.credit = None;
        self.results[i] = Some(result);
        self.next = self.next.max(i + 1);
    }

    pub(super) fn fail_load(&mut self, why: String) {
        let reason = format!("the submission did not load: {why}");
        self.rest(|_| Verdict::NotRun {
            reason: reason.clone(),
        });
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

    fn output(&mut self, child: &Child<Frame>) {
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

pub(super) fn result(
    case: &TestCase,
    verdict: Verdict,
    credit: Option<f64>,
    time_ms: u64,
) -> TestResult {
    TestResult {
        id: case.id().to_string(),
        predicate: Predicate::SelectHand,
        source: case.source,
        goal: case.goal(),
        verdict,
        credit: Some(credit.unwrap_or(0.0)),
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
