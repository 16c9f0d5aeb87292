//! One submission's children: starting them, reading their frames, starting a fresh one
//! after a death, and what each test's answer becomes.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crib_child::{Death, End, Flow, Lane, Program, Reader, MAX_OUTPUT};
use crib_results::{Diagnostic, Load, Predicate, TestResult, Verdict};

use super::{path_text, Grader, MAX_DIAGNOSTICS};
use crate::limits::answering;
use crate::protocol::{Found, Frame, Outcome};
use crate::verdict::judge;
use crib_testset::draw::{TestCase, TestSet};

impl Grader {
    /// Runs every test in `session`, starting a fresh child whenever one dies or is killed.
    pub(super) fn run_children(&self, session: &Lane<'_>, run: &mut Run<'_>) {
        let budget_end = Instant::now() + self.limits.budget(&self.tests);
        let asked = self.limits.deals_asked(&self.tests);
        let mut failed_starts = 0;
        while run.next < asked {
            if Instant::now() >= budget_end {
                // The tests not asked are left out of the marks: the mean is over a sample.
                run.rest_not_asked(self.limits.select_hand_budget);
                break;
            }
            let before = run.next;
            let then = self
                .one_child(session, run, budget_end)
                .unwrap_or_else(|e| Then::NotStarted(e.to_string()));
            if let Then::NotStarted(why) = then {
                failed_starts += 1;
                if crate::child::start_again(failed_starts) {
                    continue;
                }
                let reason = crate::child::not_started(&why);
                run.rest(|_| Verdict::NotRun {
                    reason: reason.clone(),
                });
                break;
            }
            failed_starts = 0;
            match then {
                Then::Continue if run.next == before && Instant::now() < budget_end => {
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
                Then::Continue | Then::NotStarted(_) => {}
                Then::Stop => break,
            }
        }
        run.rest_not_asked_past(asked);
    }

    /// Runs one child from test `run.next` until it finishes, dies or is killed.
    fn one_child(
        &self,
        session: &Lane<'_>,
        run: &mut Run,
        budget_end: Instant,
    ) -> std::io::Result<Then> {
        let args = [
            path_text(&session.inside(&session.grader().join("tests.pl"))),
            run.next.to_string(),
        ];
        let remaining = (self.limits.select_hand + self.limits.grace)
            * (self.tests.cases.len() - run.next) as u32;
        // The program outlives borrows of `run`, which the frames update.
        let files = run.load.files.clone();
        let program = Program {
            name: "grade_child.pl",
            args: &args,
            files: &files,
            rlimits: answering(self.limits.memory, self.limits.load, remaining),
            siblings: false,
        };
        let mut tests = Tests {
            grader: self,
            prefix: format!("{}/", session.submission_dir().display()),
            run,
            budget_end,
            first: false,
            ready: false,
            loaded: false,
            current: None,
            deadline: Instant::now() + self.limits.load,
        };
        let finished = session.run(&program, &mut tests)?;
        run.output(&finished.printed);
        Ok(finished.output)
    }

    /// Records what a child's death costs: `death` is `None` when the grader killed it
    /// (or its status could not be read).
    fn after_death(
        &self,
        run: &mut Run,
        loaded: bool,
        current: Option<(usize, Instant)>,
        death: Option<(ExitStatus, &Death<'_>)>,
        first: bool,
    ) -> Then {
        if let Some((i, at)) = current {
            let case = &self.tests.cases[i];
            let ms = at.elapsed().as_millis() as u64;
            let limit_ms = self.limits.select_hand.as_millis() as u64;
            let verdict = match death {
                // No answer by the backstop: the child's watchdog did not stop the goal.
                None => Verdict::Timeout {
                    limit_ms: self.limits.select_hand_backstop().as_millis() as u64,
                    killed: true,
                    wall: true,
                },
                Some((status, death)) => died(status, death.stderr_tail(), limit_ms),
            };
            run.record(i, result(case, verdict, None, ms));
            return Then::Continue;
        }
        if loaded {
            // Between tests: the child ended on its own or hung in grader code.
            return Then::Continue;
        }
        let why = match death {
            None => format!(
                "loading took longer than {} s",
                self.limits.load.as_secs_f64()
            ),
            Some((_, death)) => death.explain(" while loading"),
        };
        if first {
            run.fail_load(why);
        } else {
            run.rest(|_| Verdict::NotRun {
                reason: format!("reloading the submission failed: {why}"),
            });
        }
        Then::Stop
    }
}

/// Reads one grade child: its load diagnostics, `loaded`, then each test's `start` and
/// `result` (or `overrun`), until `done`.
struct Tests<'g, 'r, 't> {
    grader: &'g Grader,
    run: &'r mut Run<'t>,
    /// The submission's directory as the child sees it, with a slash: taken out of paths.
    prefix: String,
    /// When the select_hand time budget runs out.
    budget_end: Instant,
    /// It is the submission's first child: its load diagnostics are kept.
    first: bool,
    /// It said it is ready (started, the submission not yet run).
    ready: bool,
    /// It said it loaded the submission.
    loaded: bool,
    /// The test it is on and when it started.
    current: Option<(usize, Instant)>,
    /// When the next frame must come by (before the budget's end).
    deadline: Instant,
}

impl Reader<Frame> for Tests<'_, '_, '_> {
    type Output = Then;

    fn started(&mut self) {
        self.run.children += 1;
        self.first = self.run.children == 1;
        self.deadline = Instant::now() + self.grader.limits.load;
    }

    fn deadline(&self) -> Instant {
        self.deadline.min(self.budget_end)
    }

    fn frame(&mut self, frame: Frame) -> Flow<Then> {
        let limits = &self.grader.limits;
        let cases = &self.grader.tests.cases;
        let run = &mut *self.run;
        match frame {
            Frame::Ready => self.ready = true,
            Frame::Diag(diag) => {
                if self.first && run.load.diagnostics.len() < MAX_DIAGNOSTICS {
                    run.load.diagnostics.push(Diagnostic {
                        kind: diag.kind,
                        file: diag.file.replace(&self.prefix, ""),
                        line: diag.line,
                        message: diag.message.replace(&self.prefix, ""),
                    });
                }
            }
            Frame::Loaded(found) => {
                self.loaded = true;
                if self.first {
                    run.loaded(found);
                    if run.load.load_failed.is_some() {
                        // Neither predicate is defined: no test can run.
                        let reason = "neither hand_value/3 nor select_hand/3 is defined";
                        run.rest(|_| Verdict::NotRun {
                            reason: reason.into(),
                        });
                        return Flow::Stop(Then::Stop);
                    }
                }
                self.deadline = Instant::now() + limits.load;
            }
            Frame::Start { test: i } => {
                if i + 1 >= limits.deals_asked(&self.grader.tests) {
                    if let Some(last) = run.on_last.take() {
                        let _ = last.send(());
                    }
                }
                if i < cases.len() {
                    let now = Instant::now();
                    self.current = Some((i, now));
                    self.deadline = now + limits.select_hand_backstop() + limits.grace;
                }
            }
            Frame::Result {
                test: i,
                cpu_ms,
                outcome,
            } => {
                if let (Some((j, at)), Some(case)) = (self.current, cases.get(i)) {
                    if i == j {
                        let ms = at.elapsed().as_millis() as u64;
                        let outcome = relative(outcome, &self.prefix);
                        let limits = (
                            limits.select_hand.as_millis() as u64,
                            limits.select_hand_backstop().as_millis() as u64,
                        );
                        let (verdict, credit) =
                            judge(case, &outcome, limits, self.grader.select_credit);
                        let mut r = result(case, verdict, credit, ms);
                        r.cpu_ms = cpu_ms;
                        run.record(i, r);
                        self.current = None;
                        self.deadline = Instant::now() + self.grader.limits.load;
                    }
                }
            }
            Frame::Overrun { test: i } => {
                if let (Some((j, at)), Some(case)) = (self.current, cases.get(i)) {
                    if i == j {
                        // The goal caught the watchdog's exception and went on: the
                        // session kills the child.
                        let ms = at.elapsed().as_millis() as u64;
                        let verdict = Verdict::Timeout {
                            limit_ms: limits.select_hand.as_millis() as u64,
                            killed: true,
                            wall: false,
                        };
                        run.record(i, result(case, verdict, None, ms));
                        return Flow::Stop(Then::Continue);
                    }
                }
            }
            Frame::Outcomes { .. } => {}
            Frame::Done => return Flow::Finish(Then::Stop),
        }
        Flow::Read
    }

    fn end(&mut self, end: End<'_>) -> Then {
        let (grader, loaded, current, first) = (self.grader, self.loaded, self.current, self.first);
        if !self.ready && !matches!(end, End::Silent if Instant::now() < self.deadline) {
            // It never ran: not counted, and the next child is the first again.
            self.run.children -= 1;
            return Then::NotStarted(match end {
                End::Silent => format!(
                    "swipl did not start within {} s",
                    grader.limits.load.as_secs_f64()
                ),
                End::Exited(death) => death.explain(""),
            });
        }
        match end {
            End::Silent if Instant::now() < self.deadline => {
                // The select_hand budget ran out before the test's own limit: the test
                // running is not asked either, and the loop above leaves out the rest.
                if let Some((i, _)) = current {
                    self.run.not_asked(i, grader.limits.select_hand_budget);
                }
                Then::Continue
            }
            End::Silent => grader.after_death(self.run, loaded, current, None, first),
            End::Exited(death) => {
                let death = death.status().map(|status| (status, &death));
                grader.after_death(self.run, loaded, current, death, first)
            }
        }
    }
}

/// What to do after a child ends.
enum Then {
    /// Start another child from `Run::next`.
    Continue,
    /// It never started (it ended before it said it was ready): crib's failure, tried
    /// again a few times.
    NotStarted(String),
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
    /// loaded (the marked check beside the tests is called off unless it did; dropped
    /// unsent, it says the same).
    pub(super) on_loaded: Option<Sender<bool>>,
    /// Told, once, when the last test asked starts: the core the tests hold is soon free
    /// (the marked check beside them starts a child for it meanwhile).
    pub(super) on_last: Option<Sender<()>>,
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
            on_last: None,
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
