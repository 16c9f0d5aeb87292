//! The batch driver: a batch file of hand_value or select_hand items (the marked check's and
//! the deep check's) asked of children, each child answering a range of the batch file and
//! reporting in chunks; a child that crashes, hangs or overruns is replaced, and
//! the item it was on gets the verdict, without losing the others.

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crib_child::{End as ChildEnd, Flow, Program, Reader};
use crib_results::Predicate;

use crate::child::Place;
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

/// What a batch run beside other work (the marked check beside the select_hand tests) is
/// told by that work while it runs.
pub(crate) struct Beside<'a> {
    /// One message for each core the other work gives up.
    pub spare: &'a Receiver<()>,
    /// Set when the batch's answers are no longer wanted (the tests found that the
    /// submission does not load, or does not define the predicate): no child starts after
    /// it, and the batch ends with what it has.
    pub cancel: &'a AtomicBool,
}

/// Runs `batch` on `jobs` children at once, each on its share of the items, until every item
/// has an answer or `budget` is spent. A worker whose share is done takes half of what is
/// left of the largest share (that share's child stops where the new one starts), and so
/// does each core `beside` gives later: the cores stay busy to the end whatever each item
/// costs. Which child answers an item changes nothing in its answer.
pub(crate) fn run(
    ctx: &Place<'_>,
    batch: &Batch<'_>,
    jobs: usize,
    budget: Duration,
    beside: Option<&Beside<'_>>,
) -> BatchRun {
    let cancel = beside.map(|b| b.cancel);
    let cancelled = move || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let deadline = Instant::now() + budget;
    let jobs = jobs.clamp(1, batch.len.max(1));
    let share = batch.len.div_ceil(jobs);
    let answers = Mutex::new(vec![None; batch.len]);
    let mut shares: Vec<Arc<Share>> = (0..jobs)
        .map(|k| {
            Arc::new(Share::new(
                (k * share).min(batch.len)..((k + 1) * share).min(batch.len),
            ))
        })
        .collect();
    let mut parts: Vec<Option<Part>> = Vec::new();
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<(usize, Part)>();
        let start = |index: usize, share: Arc<Share>| {
            let (done, answers) = (done.clone(), &answers);
            scope.spawn(move || {
                let part = catch_unwind(AssertUnwindSafe(|| {
                    run_share(ctx, batch, &share, deadline, answers, &cancelled)
                }))
                .unwrap_or_else(|panic| Part {
                    children: 0,
                    stopped: Some(format!(
                        "a worker of {} panicked: {}",
                        batch.purpose,
                        crate::pool::panic_message(&*panic)
                    )),
                    undefined: false,
                });
                let _ = done.send((index, part));
            });
        };
        for (index, share) in shares.iter().enumerate() {
            start(index, Arc::clone(share));
        }
        parts.resize_with(shares.len(), || None);
        let (mut running, mut free) = (shares.len(), 0usize);
        let mut stopped = false;
        while running > 0 {
            match finished.recv_timeout(SPARE_POLL) {
                Ok((index, part)) => {
                    running -= 1;
                    free += 1;
                    stopped |= part.stopped.is_some();
                    parts[index] = Some(part);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            free += beside.map_or(0, |b| b.spare.try_iter().count());
            // A free core takes half of the largest share left, while that is worth a child.
            while free > 0 && !stopped && !cancelled() && Instant::now() < deadline {
                let largest = shares.iter().max_by_key(|s| {
                    let (next, end) = s.at();
                    end.saturating_sub(next)
                });
                let Some(split) = largest.and_then(|s| s.split()) else {
                    break;
                };
                let index = shares.len();
                let share = Arc::new(Share::new(split));
                shares.push(Arc::clone(&share));
                parts.push(None);
                start(index, share);
                (running, free) = (running + 1, free - 1);
            }
        }
    });
    let mut out = BatchRun {
        answers: Vec::new(),
        children: 0,
        stopped: None,
        undefined: false,
    };
    for part in parts.into_iter().flatten() {
        out.children += part.children;
        if out.stopped.is_none() {
            out.stopped = part.stopped;
            out.undefined = part.undefined;
        }
    }
    let lock = || answers.lock().unwrap_or_else(|e| e.into_inner());
    // A call can be starved past its wall-clock backstop on a loaded machine (its CPU-time
    // limit cannot): each such timeout is asked once more, alone.
    let timeouts: Vec<usize> = lock()
        .iter()
        .enumerate()
        .filter(|(_, answer)| {
            matches!(
                answer,
                Some(ItemOutcome::Outcome(Outcome::Exception {
                    kind: ExceptionKind::Backstop,
                    ..
                }))
            )
        })
        .map(|(i, _)| i)
        .take(RETRIES)
        .collect();
    for i in timeouts {
        if Instant::now() >= deadline || cancelled() {
            break;
        }
        // The first answer stands unless the second try gives one.
        let first = lock()[i].take();
        let part = run_share(
            ctx,
            batch,
            &Share::new(i..i + 1),
            deadline,
            &answers,
            &cancelled,
        );
        out.children += part.children;
        let mut answers = lock();
        if answers[i].is_none() {
            answers[i] = first;
        }
    }
    out.answers = answers.into_inner().unwrap_or_else(|e| e.into_inner());
    ctx.lane.end_leftovers();
    out
}

/// How often the batch looks for a core given later (`spare`).
const SPARE_POLL: Duration = Duration::from_millis(20);
/// A share is split only when what is left of it would take its child this long or more at
/// the pace it has answered so far (a child's start and load cost about a fifth of this:
/// at 0.3 s the last children ended up to 0.2 s apart).
const SPLIT_WORTH: Duration = Duration::from_millis(150);
/// A share that has answered nothing yet is split only when this many items are left.
const SPLIT_UNMEASURED: usize = 4000;

/// The items one worker answers: from `start`, up to an end that a free worker may lower by
/// taking the rest ([`Share::split`]).
struct Share {
    start: usize,
    started: Instant,
    /// The next item to answer and the end, together under one lock: an item is recorded
    /// only below the end, and the end is lowered only above the next item.
    at: Mutex<(usize, usize)>,
}

impl Share {
    fn new(range: Range<usize>) -> Share {
        Share {
            start: range.start,
            started: Instant::now(),
            at: Mutex::new((range.start, range.end)),
        }
    }

    /// Records `outcome` as the answer to item `i` when it is the next one below the end,
    /// and moves past it.
    fn record(&self, i: usize, outcome: ItemOutcome, answers: &Mutex<Vec<Option<ItemOutcome>>>) {
        let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
        if at.0 == i && i < at.1 {
            answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
            at.0 += 1;
        }
    }

    /// Returns whether every item below the end is answered.
    fn answered(&self) -> bool {
        let (next, end) = self.at();
        next >= end
    }

    /// Returns the next item to answer and the end.
    fn at(&self) -> (usize, usize) {
        *self.at.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Gives up the second half of what is left and returns it, when that is worth a child of
    /// its own (see [`SPLIT_WORTH`]).
    fn split(&self) -> Option<Range<usize>> {
        let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
        let (next, end) = *at;
        let left = end.saturating_sub(next);
        let done = next - self.start;
        let worth = if done == 0 {
            left >= SPLIT_UNMEASURED
        } else {
            let pace = self.started.elapsed().as_secs_f64() / done as f64;
            left >= 2 && pace * left as f64 >= SPLIT_WORTH.as_secs_f64()
        };
        if !worth {
            return None;
        }
        let middle = next + left / 2;
        at.1 = middle;
        Some(middle..end)
    }
}

struct Part {
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
    /// It ended before it said it was ready: crib could not start it (the submission had
    /// not run yet).
    NotStarted(String),
    /// It could not load the submission.
    NotLoaded(String),
    /// It loaded the submission, and the predicate is not defined.
    Undefined,
}

/// Answers `share`'s items (recording each in `answers`) with as many children as it takes,
/// starting none once `cancelled` says so.
fn run_share(
    ctx: &Place<'_>,
    batch: &Batch<'_>,
    share: &Share,
    deadline: Instant,
    answers: &Mutex<Vec<Option<ItemOutcome>>>,
    cancelled: &dyn Fn() -> bool,
) -> Part {
    let mut part = Part {
        children: 0,
        stopped: None,
        undefined: false,
    };
    let mut careful = share.start;
    let mut failed_loads = 0;
    let mut failed_starts = 0;
    loop {
        let (next, end) = share.at();
        if next >= end {
            break;
        }
        if Instant::now() >= deadline {
            part.stopped = Some(budget_reason(batch));
            break;
        }
        if cancelled() {
            part.stopped = Some(format!("{} was called off", batch.purpose));
            break;
        }
        let ended = one_child(ctx, batch, share, careful, deadline, |i, outcome| {
            answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome)
        })
        .unwrap_or_else(|e| End::NotStarted(e.to_string()));
        if let End::NotStarted(why) = ended {
            failed_starts += 1;
            if !crate::child::start_again(failed_starts) {
                part.stopped = Some(crate::child::not_started(&why));
                break;
            }
            continue;
        }
        failed_starts = 0;
        part.children += 1;
        let loaded = !matches!(ended, End::NotLoaded(_) | End::Undefined);
        let (next, end) = share.at();
        match ended {
            End::Done | End::NotStarted(_) => {}
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
            End::Hung | End::Died(_) if next >= careful && next + 1 < end => {
                // Somewhere in the unreported chunk: go item by item from here. (When the
                // item it was on is the share's last, the chunk is that item alone, and it
                // is the cause: asking it again would only cost another hang.)
                careful = next + CAREFUL;
            }
            End::Hung => share.record(next, ItemOutcome::silent(), answers),
            End::Died(why) => share.record(next, ItemOutcome::Died(why), answers),
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

/// Runs one child on `share`'s items from its next one, advancing it past every answer the
/// child reports, until the share's end (which may be lowered meanwhile).
fn one_child(
    ctx: &Place<'_>,
    batch: &Batch<'_>,
    share: &Share,
    careful: usize,
    deadline: Instant,
    record: impl FnMut(usize, ItemOutcome),
) -> std::io::Result<End> {
    let (next, end) = share.at();
    let lane = &ctx.lane;
    let args = [
        batch.predicate.name().to_string(),
        lane.inside(batch.file).display().to_string(),
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
        share,
        record,
        ready: false,
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
        asked_end: end,
    };
    Ok(lane.run(&program, &mut items)?.output)
}

/// Reads one batch child: its `loaded` frame, then its answers, until `done` or its share's
/// end.
struct Items<'n, R> {
    predicate: Predicate,
    /// The share it answers: the next item, and the end.
    share: &'n Share,
    /// Told how each item ended.
    record: R,
    /// It said it is ready (started, the submission not yet run).
    ready: bool,
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
    /// The end of the items the child was asked (the share's end when it started, which a
    /// split may lower since).
    asked_end: usize,
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
            Frame::Ready => self.ready = true,
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
                let mut at = self.share.at.lock().unwrap_or_else(|e| e.into_inner());
                if first == at.0 {
                    for outcome in outcomes {
                        if at.0 < at.1 {
                            (self.record)(at.0, outcome);
                            at.0 += 1;
                        }
                    }
                }
                if at.0 >= at.1 {
                    // Its share is answered. When another child took the rest of it, this
                    // one would go on answering that rest: it is stopped now.
                    return if at.1 < self.asked_end {
                        Flow::Stop(End::Done)
                    } else {
                        Flow::Finish(End::Done)
                    };
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
            ChildEnd::Silent if !self.ready => End::NotStarted(format!(
                "swipl did not start within {} s",
                self.load.as_secs_f64()
            )),
            ChildEnd::Silent if !self.loaded => End::NotLoaded(format!(
                "loading took longer than {} s",
                self.load.as_secs_f64()
            )),
            ChildEnd::Silent => End::Hung,
            ChildEnd::Exited(death) => {
                let why = death.explain("");
                if !self.ready {
                    End::NotStarted(why)
                } else if !self.loaded {
                    End::NotLoaded(format!("the submission did not load: {why}"))
                } else if self.share.answered() {
                    End::Done
                } else {
                    End::Died(why)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(n: usize) -> Mutex<Vec<Option<ItemOutcome>>> {
        Mutex::new(vec![None; n])
    }

    #[test]
    fn a_free_worker_takes_the_second_half_of_what_is_left() {
        // Nothing answered yet: split only when much is left.
        assert_eq!(Share::new(0..SPLIT_UNMEASURED - 1).split(), None);
        let share = Share::new(0..10_000);
        assert_eq!(share.split(), Some(5_000..10_000));
        assert_eq!(share.at(), (0, 5_000));
        // Answered at 10 ms an item: 4,900 left is worth a child; 10 left (0.1 s) is not.
        let share = Share {
            start: 0,
            started: Instant::now() - Duration::from_secs(1),
            at: Mutex::new((100, 5_000)),
        };
        assert_eq!(share.split(), Some(2_550..5_000));
        let share = Share {
            start: 0,
            started: Instant::now() - Duration::from_secs(1),
            at: Mutex::new((100, 110)),
        };
        assert_eq!(share.split(), None);
    }

    /// A child whose share another took the rest of is stopped when it reaches the new end
    /// (it was asked up to the old one, and would answer the other child's items too); a
    /// child that reaches the end it was asked is let exit on its own.
    #[test]
    fn a_child_is_stopped_at_an_end_lowered_under_it() {
        let ask = |asked_end: usize, share: &Share| {
            let mut items = Items {
                predicate: Predicate::HandValue,
                share,
                record: |_: usize, _: ItemOutcome| {},
                ready: true,
                loaded: true,
                load: Duration::from_secs(1),
                quiet: Duration::from_secs(1),
                until: Instant::now() + Duration::from_secs(1),
                deadline: Instant::now() + Duration::from_secs(1),
                asked_end,
            };
            items.frame(Frame::Outcomes {
                first: 0,
                outcomes: vec![ItemOutcome::silent(); 5_000],
            })
        };
        let lowered = Share::new(0..10_000);
        assert_eq!(lowered.split(), Some(5_000..10_000));
        assert!(matches!(ask(10_000, &lowered), Flow::Stop(End::Done)));
        let whole = Share::new(0..5_000);
        assert!(matches!(ask(5_000, &whole), Flow::Finish(End::Done)));
    }

    /// A child silent before it said it was ready never ran the submission: crib could not
    /// start it (tried again), never "the submission did not load".
    #[test]
    fn a_child_that_never_got_ready_is_cribs_failure() {
        let share = Share::new(0..10);
        let mut items = Items {
            predicate: Predicate::HandValue,
            share: &share,
            record: |_: usize, _: ItemOutcome| {},
            ready: false,
            loaded: false,
            load: Duration::from_secs(1),
            quiet: Duration::from_secs(1),
            until: Instant::now(),
            deadline: Instant::now() + Duration::from_secs(60),
            asked_end: 10,
        };
        assert!(matches!(items.end(ChildEnd::Silent), End::NotStarted(_)));
        assert!(matches!(items.frame(Frame::Ready), Flow::Read));
        assert!(matches!(items.end(ChildEnd::Silent), End::NotLoaded(_)));
    }

    #[test]
    fn an_answer_is_recorded_only_in_order_and_below_the_end() {
        let (share, got) = (Share::new(0..4), answers(4));
        share.record(1, ItemOutcome::silent(), &got);
        assert_eq!(share.at(), (0, 4), "not the next item: left out");
        share.record(0, ItemOutcome::silent(), &got);
        share.record(1, ItemOutcome::silent(), &got);
        assert_eq!(share.at(), (2, 4));
        *share.at.lock().unwrap() = (2, 2);
        assert!(share.answered());
        share.record(2, ItemOutcome::silent(), &got);
        let got = got.into_inner().unwrap();
        assert_eq!(got.iter().filter(|a| a.is_some()).count(), 2);
        assert!(got[2].is_none(), "above the end: another worker's item");
    }
}
