//! The batch driver: a batch file of hand_value or select_hand items (the marked check's and
//! the deep check's) asked of children, each child answering a range of the batch file and
//! reporting in chunks; a child that crashes, hangs or overruns is replaced, and
//! the item it was on gets the verdict, without losing the others.

use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_child::{End as ChildEnd, Flow, Program, Reader};
use crib_results::Predicate;

use crate::child::Place;
use crate::pool::WorkerPool;
use crate::protocol::{ExceptionKind, Frame, ItemOutcome, Outcome};

/// The child program, built into the grader.
pub(crate) const DEEP_CHILD: &str = include_str!("../../../prolog/deep_child.pl");

/// After a crash or a hang, how many items the next child reports one by one, to find the
/// item that caused it.
const CAREFUL: usize = 1000;
/// How many items that timed out are asked once more, each in a child of its own.
const RETRIES: usize = 20;
/// How many times in a row a child may fail to load before the check gives up.
const LOAD_TRIES: usize = 2;

/// What a batch is: which predicate, which file, each call's limit.
pub(crate) struct Batch<'a> {
    /// The predicate every item of the batch calls (the child's first argument is its name).
    pub predicate: Predicate,
    /// What the batch is part of, for messages: `the deep check`.
    pub purpose: &'static str,
    pub file: &'a Path,
    pub len: usize,
    pub per_call: Duration,
}

/// What running a batch gave.
pub(crate) struct BatchRun {
    /// How each item ended, `None` where no answer came (the check stopped first).
    pub answers: Vec<Option<ItemOutcome>>,
    /// Children started.
    pub children: usize,
    /// Why the batch stopped before every item was answered, if it did.
    pub stopped: Option<String>,
    /// It stopped because the predicate is not defined (the child's `loaded` frame said
    /// so): the first reason it stopped, in `stopped`'s words.
    pub undefined: bool,
}

/// Runs `batch` on `jobs` children at once, each on its share of the items, until every item
/// has an answer or `budget` is spent.
pub(crate) fn run(ctx: &Place<'_>, batch: &Batch<'_>, jobs: usize, budget: Duration) -> BatchRun {
    let deadline = Instant::now() + budget;
    let jobs = jobs.clamp(1, batch.len.max(1));
    let share = batch.len.div_ceil(jobs);
    let ranges: Vec<Range<usize>> = (0..jobs)
        .map(|k| (k * share).min(batch.len)..((k + 1) * share).min(batch.len))
        .collect();
    // Every child runs in the grader's slot (`ctx.slot`), not in the pool's.
    let parts = WorkerPool::new(jobs).run(&ranges, |_, range| {
        run_range(ctx, batch, range.clone(), deadline)
    });
    let mut out = BatchRun {
        answers: Vec::with_capacity(batch.len),
        children: 0,
        stopped: None,
        undefined: false,
    };
    for (range, part) in ranges.iter().zip(parts) {
        // A panicked range keeps its place: the ranges after it stay on their items.
        let part = part.unwrap_or_else(|panic| Part {
            answers: vec![None; range.len()],
            children: 0,
            stopped: Some(format!(
                "a worker of {} panicked: {}",
                batch.purpose, panic.message
            )),
            undefined: false,
        });
        out.children += part.children;
        if out.stopped.is_none() {
            out.stopped = part.stopped;
            out.undefined = part.undefined;
        }
        out.answers.extend(part.answers);
    }
    out.answers.resize(batch.len, None);
    // A call can be starved past its wall-clock backstop on a loaded machine (its CPU-time
    // limit cannot): each such timeout is asked once more, alone.
    let timeouts: Vec<usize> = (0..batch.len)
        .filter(|&i| {
            matches!(
                out.answers[i],
                Some(ItemOutcome::Outcome(Outcome::Exception {
                    kind: ExceptionKind::Backstop,
                    ..
                }))
            )
        })
        .take(RETRIES)
        .collect();
    for i in timeouts {
        if Instant::now() >= deadline {
            break;
        }
        let again = run_range(ctx, batch, i..i + 1, deadline);
        out.children += again.children;
        if let Some(Some(got)) = again.answers.into_iter().next() {
            out.answers[i] = Some(got);
        }
    }
    ctx.session.end_leftovers();
    out
}

struct Part {
    answers: Vec<Option<ItemOutcome>>,
    children: usize,
    stopped: Option<String>,
    /// `stopped` says the predicate is not defined.
    undefined: bool,
}

/// How one child ended.
enum End {
    /// It answered everything asked.
    Done,
    /// It was silent too long (the grader killed it).
    Hung,
    /// It died.
    Died(String),
    /// The whole check's time is up.
    Budget,
    /// It could not load the submission.
    NotLoaded(String),
    /// It loaded the submission, and the predicate is not defined.
    Undefined,
}

fn run_range(ctx: &Place<'_>, batch: &Batch<'_>, range: Range<usize>, deadline: Instant) -> Part {
    let mut part = Part {
        answers: vec![None; range.len()],
        children: 0,
        stopped: None,
        undefined: false,
    };
    let mut next = range.start;
    let mut careful = range.start;
    let mut failed_loads = 0;
    while next < range.end {
        if Instant::now() >= deadline {
            part.stopped = Some(budget_reason(batch));
            break;
        }
        let end = match one_child(
            ctx,
            batch,
            &mut next,
            range.end,
            careful,
            deadline,
            |i, outcome| part.answers[i - range.start] = Some(outcome),
        ) {
            Ok(end) => end,
            Err(e) => {
                part.stopped = Some(format!("cannot start a child: {e}"));
                break;
            }
        };
        part.children += 1;
        let loaded = !matches!(end, End::NotLoaded(_) | End::Undefined);
        match end {
            End::Done => {}
            End::Budget => {
                part.stopped = Some(budget_reason(batch));
                break;
            }
            End::NotLoaded(why) => {
                failed_loads += 1;
                if failed_loads >= LOAD_TRIES {
                    part.stopped = Some(why);
                    break;
                }
            }
            End::Undefined => {
                failed_loads += 1;
                if failed_loads >= LOAD_TRIES {
                    part.stopped = Some(format!("{} is not defined", batch.predicate.indicator()));
                    part.undefined = true;
                    break;
                }
            }
            End::Hung | End::Died(_) if next >= careful && next + 1 < range.end => {
                // Somewhere in the unreported chunk: go item by item from here. (When the
                // item it was on is the range's last, the chunk is that item alone, and it
                // is the cause: asking it again would only cost another hang.)
                careful = next + CAREFUL;
            }
            End::Hung => {
                part.answers[next - range.start] = Some(ItemOutcome::silent());
                next += 1;
            }
            End::Died(why) => {
                part.answers[next - range.start] = Some(ItemOutcome::Died(why));
                next += 1;
            }
        }
        if loaded {
            failed_loads = 0;
        }
    }
    part
}

fn budget_reason(batch: &Batch<'_>) -> String {
    format!(
        "{}'s time budget for {} ran out",
        batch.purpose,
        batch.predicate.indicator()
    )
}

/// Runs one child on items `*next..end`, advancing `*next` past every answer it reports.
fn one_child(
    ctx: &Place<'_>,
    batch: &Batch<'_>,
    next: &mut usize,
    end: usize,
    careful: usize,
    deadline: Instant,
    record: impl FnMut(usize, ItemOutcome),
) -> std::io::Result<End> {
    let session = &ctx.session;
    let args = [
        batch.predicate.name().to_string(),
        session.inside(batch.file).display().to_string(),
        next.to_string(),
        end.to_string(),
        careful.to_string(),
        format!("{:.3}", batch.per_call.as_secs_f64()),
        ctx.limits.wall_factor.max(1).to_string(),
    ];
    let left = deadline.saturating_duration_since(Instant::now());
    let program = Program {
        name: "deep_child.pl",
        args: &args,
        files: ctx.files,
        rlimits: crate::limits::answering(ctx.limits.memory, ctx.limits.load, left),
        // Siblings share the slot: the batch ends its leftovers once they are all done (`run`).
        siblings: true,
    };
    let mut items = Items {
        predicate: batch.predicate,
        next,
        end,
        record,
        loaded: false,
        load: ctx.limits.load,
        // Silence allowed between frames once loaded: one call's wall-clock backstop and
        // grace, plus the half second a chunk may collect answers, plus slack for a loaded
        // machine.
        quiet: batch.per_call * ctx.limits.wall_factor.max(1)
            + ctx.limits.grace
            + Duration::from_millis(1500),
        until: Instant::now() + ctx.limits.load,
        deadline,
    };
    Ok(session.run(&program, &mut items)?.output)
}

/// Reads one batch child: its `loaded` frame, then its answers, until `done`.
struct Items<'n, R> {
    predicate: Predicate,
    /// The next item to answer.
    next: &'n mut usize,
    /// The end of the child's items.
    end: usize,
    /// Told how each item ended.
    record: R,
    /// It said it loaded the submission.
    loaded: bool,
    /// The time loading may take.
    load: Duration,
    /// The silence allowed between frames once loaded.
    quiet: Duration,
    /// When the next frame must come by.
    until: Instant,
    /// When the whole check's time is up.
    deadline: Instant,
}

impl<R: FnMut(usize, ItemOutcome)> Reader<Frame> for Items<'_, R> {
    type Output = End;

    fn started(&mut self) {
        self.until = Instant::now() + self.load;
    }

    fn deadline(&self) -> Instant {
        self.until.min(self.deadline)
    }

    fn frame(&mut self, frame: Frame) -> Flow<End> {
        match frame {
            Frame::Loaded(found) => {
                let here = match self.predicate {
                    Predicate::HandValue => found.hand_value,
                    Predicate::SelectHand => found.select_hand,
                };
                if here.is_none() {
                    return Flow::Stop(End::Undefined);
                }
                self.loaded = true;
                self.until = Instant::now() + self.quiet;
            }
            Frame::Outcomes { first, outcomes } => {
                if first == *self.next {
                    for outcome in outcomes {
                        if *self.next < self.end {
                            (self.record)(*self.next, outcome);
                            *self.next += 1;
                        }
                    }
                }
                self.until = Instant::now() + self.quiet;
            }
            Frame::Done => return Flow::Finish(End::Done),
            _ => {}
        }
        Flow::Read
    }

    fn end(&mut self, end: ChildEnd<'_>) -> End {
        match end {
            ChildEnd::Silent if Instant::now() >= self.deadline => End::Budget,
            ChildEnd::Silent if !self.loaded => End::NotLoaded(format!(
                "loading took longer than {} s",
                self.load.as_secs_f64()
            )),
            ChildEnd::Silent => End::Hung,
            ChildEnd::Exited(death) => {
                let why = death.explain("");
                if !self.loaded {
                    End::NotLoaded(format!("the submission did not load: {why}"))
                } else if *self.next >= self.end {
                    End::Done
                } else {
                    End::Died(why)
                }
            }
        }
    }
}
