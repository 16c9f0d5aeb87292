//! Running a batch of deep-check items through children: each child answers a range of the
//! batch file and reports in chunks; a child that crashes, hangs or overruns is replaced, and
//! the item it was on gets the verdict, without losing the others.

use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_child::{Child, Program, RecvTimeoutError};

use crate::child::Place;
use crate::pool::WorkerPool;
use crate::protocol::{Frame, RawAnswer};
use crib_sandbox::Mounts;

/// The child program, built into the grader.
pub(crate) const DEEP_CHILD: &str = include_str!("../../../../prolog/deep_child.pl");

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

impl Got {
    fn parse(raw: RawAnswer) -> Got {
        let text = match raw {
            RawAnswer::Int(v) => return Got::Int(v),
            RawAnswer::Text(text) => text,
        };
        let (code, rest) = text.split_once(':').unwrap_or((&text, ""));
        match code {
            "f" => Got::Fail,
            "t" => Got::Timeout {
                wall: rest == "wall",
            },
            "m" => Got::Memory(rest.into()),
            "h" => Got::Crashed(format!("halt({rest}) called")),
            "e" => Got::Exception(rest.into()),
            "x" => Got::Term(rest.into()),
            "k" => {
                let (hand, crib) = rest.split_once('|').unwrap_or((rest, "?"));
                Got::Keep(hand.into(), crib.into())
            }
            _ => Got::Term(text.clone()),
        }
    }
}

/// What a batch is: which predicate, which file, each call's limit.
pub(crate) struct Batch<'a> {
    pub mode: &'static str,
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
        });
        out.children += part.children;
        if out.stopped.is_none() {
            out.stopped = part.stopped;
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
    ctx.jail.sweep(ctx.slot);
    out
}

struct Part {
    answers: Vec<Option<Got>>,
    children: usize,
    stopped: Option<String>,
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
    /// It could not load the submission, or the predicate is missing.
    NotLoaded(String),
}

fn run_range(ctx: &Place<'_>, batch: &Batch<'_>, range: Range<usize>, deadline: Instant) -> Part {
    let mut part = Part {
        answers: vec![None; range.len()],
        children: 0,
        stopped: None,
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
        let loaded = !matches!(end, End::NotLoaded(_));
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
        "{}'s time budget for {}/3 ran out",
        batch.purpose, batch.mode
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
    let scratch = ctx.work.join("scratch");
    let mounts = Mounts {
        grader: ctx.grader,
        submission: &copy,
        scratch: &scratch,
    };
    let args = [
        batch.mode.to_string(),
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
    // Siblings share the slot: the batch sweeps it once they are all done (`run`).
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
                let here = match batch.mode {
                    "hand_value" => found.hand_value,
                    _ => found.select_hand,
                };
                if here.is_none() {
                    break End::NotLoaded(format!("{}/3 is not defined", batch.mode));
                }
                loaded = true;
                until = Instant::now() + quiet;
            }
            Ok(Frame::Deep { first, answers }) => {
                if first == *next {
                    for answer in answers {
                        if *next < end {
                            record(*next, Got::parse(answer));
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
