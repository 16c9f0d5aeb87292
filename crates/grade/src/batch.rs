//! The batch driver: a batch file of hand_value or select_hand items (the marked check's and
//! the deep check's) asked of children, each child answering a range of the batch file and
//! reporting in chunks; a child that crashes, hangs or overruns is replaced, and
//! the item it was on gets the verdict, without losing the others.

use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_child::{Child, Program, RecvTimeoutError};
use crib_results::Predicate;

use crate::child::Place;
use crate::pool::WorkerPool;
use crate::protocol::{Answer, ExceptionKind, Frame, ItemOutcome, Outcome};
use crib_sandbox::Mounts;

/// The child program, built into the grader.
pub(crate) const DEEP_CHILD: &str = include_str!("../../../prolog/deep_child.pl");

/// After a crash or a hang, how many items the next child reports one by one, to find the
/// item that caused it.
const CAREFUL: usize = 1000;
/// How many items that timed out are asked once more, each in a child of its own.
const RETRIES: usize = 20;
/// How many times in a row a child may fail to load before the check gives up.
const LOAD_TRIES: usize = 2;

/// How one item ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Got {
    /// hand_value/3 answered an integer.
    Int(i64),
    /// hand_value/3 answered another term, written.
    Term(String),
    /// select_hand/3 answered Hand and Cribcards as card tokens separated by spaces (`?`
    /// when not a list of cards).
    Keep(String, String),
    /// The goal failed.
    Fail,
    /// The goal ran over its limit: its CPU time, or (`wall`) the wall-clock backstop, a
    /// multiple of it, for a goal that waits rather than computes; or the child went silent.
    Timeout {
        /// Stopped at the wall-clock backstop.
        wall: bool,
    },
    /// A resource error.
    Memory(String),
    /// An exception, with its message when the child sent it.
    Exception(String),
    /// halt called, or the child died on this item.
    Crashed(String),
}

/// The most characters of an exception's message kept for an item.
const MESSAGE_CHARS: usize = 300;

impl Got {
    /// Returns how an item ended from what the child sent: a bare integer as
    /// [`Got::from_outcome`] reads the same integer answer.
    pub(crate) fn from_item(item: ItemOutcome) -> Got {
        match item {
            ItemOutcome::Int(v) => Got::from_outcome(Outcome::Value {
                value: Answer::Int(v.to_string()),
            }),
            ItemOutcome::Outcome(outcome) => Got::from_outcome(outcome),
        }
    }

    /// Returns how an item ended from the outcome the child sent: an integer answer in
    /// -1000..=1000 is [`Got::Int`] and any other answer of hand_value/3 [`Got::Term`]
    /// (its text); select_hand/3's hand and crib are their card tokens separated by spaces,
    /// `?` when not a list of cards; messages are cut to [`MESSAGE_CHARS`] characters.
    pub(crate) fn from_outcome(outcome: Outcome) -> Got {
        let cut = |message: String| message.chars().take(MESSAGE_CHARS).collect();
        let tokens = |answer: Answer| match answer {
            Answer::Cards(tokens) => tokens.join(" "),
            Answer::Int(_) | Answer::Term(_) => "?".to_string(),
        };
        match outcome {
            Outcome::Value { value } => match value {
                Answer::Int(text) => match text.parse::<i64>() {
                    Ok(v) if (-1000..=1000).contains(&v) => Got::Int(v),
                    _ => Got::Term(text),
                },
                Answer::Term(text) => Got::Term(text),
                Answer::Cards(tokens) => Got::Term(format!("[{}]", tokens.join(","))),
            },
            Outcome::Cards { hand, crib } => Got::Keep(tokens(hand), tokens(crib)),
            Outcome::Fail => Got::Fail,
            Outcome::Halt { status } => Got::Crashed(format!("halt({status}) called")),
            Outcome::Exception { kind, message } => match kind {
                ExceptionKind::Timeout => Got::Timeout { wall: false },
                ExceptionKind::Backstop => Got::Timeout { wall: true },
                ExceptionKind::Memory => Got::Memory(cut(message)),
                ExceptionKind::Exception => Got::Exception(cut(message)),
            },
        }
    }
}

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
    /// One answer per item, `None` where none came (the check stopped first).
    pub answers: Vec<Option<Got>>,
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
        .filter(|&i| matches!(out.answers[i], Some(Got::Timeout { wall: true })))
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
    ctx.jail.end_leftovers(ctx.slot);
    out
}

struct Part {
    answers: Vec<Option<Got>>,
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
            |i, got| part.answers[i - range.start] = Some(got),
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
                part.answers[next - range.start] = Some(Got::Timeout { wall: true });
                next += 1;
            }
            End::Died(why) => {
                part.answers[next - range.start] = Some(Got::Crashed(why));
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
    mut record: impl FnMut(usize, Got),
) -> std::io::Result<End> {
    let copy = ctx.work.join("submission");
    let mounts = Mounts {
        grader: ctx.grader,
        submission: &copy,
        scratch: ctx.scratch,
    };
    let args = [
        batch.predicate.name().to_string(),
        ctx.jail.inside(&mounts, batch.file).display().to_string(),
        next.to_string(),
        end.to_string(),
        careful.to_string(),
        format!("{:.3}", batch.per_call.as_secs_f64()),
        ctx.limits.wall_factor.max(1).to_string(),
    ];
    let left = deadline.saturating_duration_since(Instant::now());
    let program = Program {
        jail: ctx.jail,
        mounts: &mounts,
        name: "deep_child.pl",
        args: &args,
        files: ctx.files,
        rlimits: crate::limits::answering(ctx.limits.memory, ctx.limits.load, left),
        slot: ctx.slot,
    };
    // Siblings share the slot: the batch ends its leftovers once they are all done (`run`).
    let mut child: Child<Frame> = Child::start(&program)?;
    let mut loaded = false;
    // Silence allowed between frames once loaded: one call's wall-clock backstop and grace,
    // plus the half second a chunk may collect answers, plus slack for a loaded machine.
    let quiet = batch.per_call * ctx.limits.wall_factor.max(1)
        + ctx.limits.grace
        + Duration::from_millis(1500);
    let mut until = Instant::now() + ctx.limits.load;
    let end_state = loop {
        let wait = until
            .min(deadline)
            .saturating_duration_since(Instant::now());
        match child.next_frame(wait) {
            Ok(Frame::Loaded(found)) => {
                let here = match batch.predicate {
                    Predicate::HandValue => found.hand_value,
                    Predicate::SelectHand => found.select_hand,
                };
                if here.is_none() {
                    break End::Undefined;
                }
                loaded = true;
                until = Instant::now() + quiet;
            }
            Ok(Frame::Outcomes { first, outcomes }) => {
                if first == *next {
                    for outcome in outcomes {
                        if *next < end {
                            record(*next, Got::from_item(outcome));
                            *next += 1;
                        }
                    }
                }
                until = Instant::now() + quiet;
            }
            Ok(Frame::Done) => {
                let _ = child.wait_briefly();
                break End::Done;
            }
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                if Instant::now() >= deadline {
                    break End::Budget;
                }
                if !loaded {
                    break End::NotLoaded(format!(
                        "loading took longer than {} s",
                        ctx.limits.load.as_secs_f64()
                    ));
                }
                break End::Hung;
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = child.ended();
                let why = child.explain(status, "");
                if !loaded {
                    break End::NotLoaded(format!("the submission did not load: {why}"));
                }
                if *next >= end {
                    break End::Done;
                }
                break End::Died(why);
            }
        }
    };
    let _ = child.kill();
    Ok(end_state)
}
