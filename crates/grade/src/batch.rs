//! The batch driver, the one way crib asks a submission: a batch file of hand_value or
//! select_hand items (the select_hand tests', the marked check's and the deep check's) asked
//! of children of prolog/answer_child.pl, each child answering a range of the batch file and
//! reporting in chunks (or item by item); a child that crashes, hangs or overruns is
//! replaced, and the item it was on gets the verdict, without losing the others.

use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crib_child::{End as ChildEnd, Finished, Flow, Program, Reader};
use crib_results::{Diagnostic, Predicate};

use crate::child::Place;
use crate::protocol::{ChildDeath, ExceptionKind, Found, Frame, ItemOutcome, Kill, Outcome};

/// The child program's file name in the grader's directory (crib-child's `ANSWER_CHILD`).
pub(crate) const ANSWER_CHILD: &str = "answer_child.pl";

/// After a crash or a hang, how many items the next child reports one by one, to find the
/// item that caused it.
const CAREFUL: usize = 1000;
/// How many items that timed out a check asks once more, each in a child of its own.
const RETRIES: usize = 20;
/// How many times in a row a check's child may fail to load before the check gives up.
const LOAD_TRIES: usize = 2;
/// How many exception messages a check's child sends in full (the rest are empty).
const MESSAGES: usize = 20;
/// The silence allowed past a call's backstop and grace while a child collects a chunk (the
/// half second), with slack for a loaded machine.
const CHUNK_SLACK: Duration = Duration::from_millis(1500);

/// What a batch is: which predicate, which file, each call's limit, and how it is asked.
pub(crate) struct Batch<'a> {
    /// The predicate every item of the batch calls.
    pub predicate: Predicate,
    /// What the batch is part of, for messages: `the deep check`.
    pub purpose: &'static str,
    pub file: &'a Path,
    pub len: usize,
    pub per_call: Duration,
    /// Told of the first child's load and of every answer, as they come: the select_hand
    /// tests'. A batch with a listener runs one child at a time, each item reported in a
    /// frame of its own with its CPU and wall-clock times and its whole exception message,
    /// asked even when the predicate is undefined (each item then gets the existence
    /// error), and stops at the first child that does not load, retrying nothing. Without
    /// one (a check's), items come in chunks, the messages after the first [`MESSAGES`]
    /// left empty; the batch stops when the predicate is undefined or after [`LOAD_TRIES`]
    /// failed loads in a row, and asks up to [`RETRIES`] items stopped at the wall-clock
    /// backstop once more, alone.
    pub listen: Option<&'a dyn Listen>,
}

impl<'a> Batch<'a> {
    /// Returns a check's batch (the marked check's, the deep check's): no listener.
    pub(crate) fn check(
        predicate: Predicate,
        purpose: &'static str,
        file: &'a Path,
        len: usize,
        per_call: Duration,
    ) -> Batch<'a> {
        Batch {
            predicate,
            purpose,
            file,
            len,
            per_call,
            listen: None,
        }
    }
}

/// Returns the batch file of select_hand items for `deals`: 6 bytes each (card indexes),
/// 255 for no sixth card.
pub(crate) fn deal_bytes<'c>(deals: impl IntoIterator<Item = &'c [crib_core::Card]>) -> Vec<u8> {
    deals
        .into_iter()
        .flat_map(|d| (0..6).map(|i| d.get(i).map_or(255, |c| c.index())))
        .collect()
}

/// What a batch's caller hears while it runs.
pub(crate) trait Listen: Sync {
    /// A load diagnostic of the batch's first child.
    fn diag(&self, diag: Diagnostic);
    /// The batch's first child loaded the submission and found the predicates as `found`;
    /// returns whether to ask it the items.
    fn loaded(&self, found: &Found) -> bool;
    /// Item `item` ended as `outcome`; `times` are its CPU and wall-clock milliseconds when
    /// the batch is timed and the child said.
    fn answered(&self, item: usize, outcome: &ItemOutcome, times: Option<(u64, u64)>);
    /// A child ended having printed `printed` (the heads of its stdout and stderr); it was
    /// the `children`th that started.
    fn printed(&self, children: usize, printed: &[(&'static str, Vec<u8>); 2]);
}

/// The one message a child is given: what to answer and under which limits, written as one
/// Prolog term (`ask(hand_value, '/grader/hand_value.bin', 0, 27898, 0, 1.000, 3, 0.500,
/// 20, false)`) that prolog/answer_child.pl reads with term_string/2.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ask<'a> {
    pub predicate: Predicate,
    /// The batch file, as the child sees it.
    pub batch_file: &'a Path,
    /// The first item to answer and the end (exclusive).
    pub first: usize,
    pub last: usize,
    /// Items below this are reported one by one.
    pub careful: usize,
    /// Each call's CPU-time limit.
    pub seconds: Duration,
    /// The wall-clock backstop, in multiples of `seconds`.
    pub wall_factor: u32,
    /// How long past a limit a goal that caught the watchdog's exception may go on before
    /// the child says `overrun`.
    pub grace: Duration,
    /// How many exception messages are sent in full.
    pub messages: usize,
    /// Each frame carries its items' CPU and wall-clock milliseconds.
    pub timed: bool,
}

impl Ask<'_> {
    /// Returns the message as a Prolog term.
    pub(crate) fn term(&self) -> String {
        let file = self.batch_file.display().to_string();
        format!(
            "ask({}, '{}', {}, {}, {}, {:.3}, {}, {:.3}, {}, {})",
            self.predicate,
            file.replace('\\', "\\\\").replace('\'', "\\'"),
            self.first,
            self.last,
            self.careful,
            self.seconds.as_secs_f64(),
            self.wall_factor,
            self.grace.as_secs_f64(),
            self.messages,
            self.timed
        )
    }
}

/// Why a batch stopped before every item was answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Its time budget ran out.
    Budget,
    /// Its answers were no longer wanted ([`Beside::cancel`]).
    CalledOff,
    /// crib could not start a child, try after try (why the last did not start).
    NotStarted(String),
    /// A child could not load the submission, [`LOAD_TRIES`] times in a row (once, for a
    /// batch with a listener): `first` when it was the batch's first child; `why` in the
    /// tests' words, `said` in the checks'.
    NotLoaded {
        first: bool,
        why: String,
        said: String,
    },
    /// The predicate is not defined.
    Undefined,
    /// The listener said not to ask ([`Listen::loaded`]).
    Refused,
    /// A worker panicked.
    Panicked(String),
}

impl Stop {
    /// Returns why, in words, for `batch`.
    pub(crate) fn text(&self, batch: &Batch<'_>) -> String {
        match self {
            Stop::Budget => format!(
                "{}'s time budget for {} ran out",
                batch.purpose,
                batch.predicate.indicator()
            ),
            Stop::CalledOff => format!("{} was called off", batch.purpose),
            Stop::NotStarted(why) => crate::child::not_started(why),
            Stop::NotLoaded { said, .. } => said.clone(),
            Stop::Undefined => format!("{} is not defined", batch.predicate.indicator()),
            Stop::Refused => format!("{} was not asked", batch.purpose),
            Stop::Panicked(why) => format!("a worker of {} panicked: {why}", batch.purpose),
        }
    }
}

/// What running a batch gave.
pub(crate) struct BatchRun {
    /// How each item ended, `None` where no answer came (the check stopped first).
    pub answers: Vec<Option<ItemOutcome>>,
    /// Children started.
    pub children: usize,
    /// The first reason the batch stopped before every item was answered, if it did.
    pub stop: Option<Stop>,
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
    let jobs = if batch.listen.is_some() {
        1
    } else {
        jobs.clamp(1, batch.len.max(1))
    };
    // Siblings share the slot when more than one child may run at once: the batch ends
    // their leftovers once they are all done (below); else after each child.
    let siblings = jobs > 1 || beside.is_some();
    let share = batch.len.div_ceil(jobs);
    let answers = Mutex::new(vec![None; batch.len]);
    let mut shares: Vec<Arc<Share>> = (0..jobs)
        .map(|k| {
            Arc::new(Share::new(
                (k * share).min(batch.len)..((k + 1) * share).min(batch.len),
            ))
        })
        .collect();
    let base = Asking {
        ctx,
        batch,
        deadline,
        answers: &answers,
        cancelled: &cancelled,
        siblings,
        listen: None,
    };
    let mut parts: Vec<Option<Part>> = Vec::new();
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<(usize, Part)>();
        let start = |index: usize, share: Arc<Share>| {
            let done = done.clone();
            scope.spawn(move || {
                let asking = Asking {
                    listen: batch.listen.filter(|_| index == 0),
                    ..base
                };
                let part = catch_unwind(AssertUnwindSafe(|| run_share(&asking, &share)))
                    .unwrap_or_else(|panic| Part {
                        children: 0,
                        stop: Some(Stop::Panicked(crate::pool::panic_message(&*panic))),
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
                    stopped |= part.stop.is_some();
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
    let parts: Vec<Part> = parts.into_iter().flatten().collect();
    let mut children = parts.iter().map(|part| part.children).sum();
    let stop = parts.into_iter().find_map(|part| part.stop);
    let lock = || answers.lock().unwrap_or_else(|e| e.into_inner());
    // A call can be starved past its wall-clock backstop on a loaded machine (its CPU-time
    // limit cannot): each such timeout, and each item a child was killed on, is asked once
    // more, alone.
    let timeouts: Vec<usize> = lock()
        .iter()
        .enumerate()
        .filter(|(_, answer)| {
            matches!(
                answer,
                Some(ItemOutcome::Killed(_))
                    | Some(ItemOutcome::Outcome(Outcome::Exception {
                        kind: ExceptionKind::Backstop,
                        ..
                    }))
            )
        })
        .map(|(i, _)| i)
        .take(if batch.listen.is_some() { 0 } else { RETRIES })
        .collect();
    for i in timeouts {
        if Instant::now() >= deadline || cancelled() {
            break;
        }
        // The first answer stands unless the second try gives one.
        let first = lock()[i].take();
        children += run_share(&base, &Share::new(i..i + 1)).children;
        let mut answers = lock();
        if answers[i].is_none() {
            answers[i] = first;
        }
    }
    ctx.lane.end_leftovers();
    BatchRun {
        answers: answers.into_inner().unwrap_or_else(|e| e.into_inner()),
        children,
        stop,
    }
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
    /// and moves past it, telling `listen` (with the item's CPU and wall-clock `times`);
    /// returns whether it did.
    fn record(
        &self,
        i: usize,
        outcome: ItemOutcome,
        answers: &Mutex<Vec<Option<ItemOutcome>>>,
        listen: Option<&dyn Listen>,
        times: Option<(u64, u64)>,
    ) -> bool {
        let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
        if at.0 != i || i >= at.1 {
            return false;
        }
        if let Some(listen) = listen {
            listen.answered(i, &outcome, times);
        }
        answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
        at.0 += 1;
        true
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
    stop: Option<Stop>,
}

/// How one child ended.
enum End {
    /// It answered everything asked.
    Done,
    /// It was silent too long (the grader killed it).
    Hung,
    /// It died.
    Died(ChildDeath),
    /// It said the goal of an item went on past its limit and the grace (the grader killed
    /// it).
    Overrun,
    /// What would stop its share: [`Stop::Budget`], [`Stop::NotStarted`] (it ended before
    /// it said it was ready), [`Stop::NotLoaded`], [`Stop::Undefined`] or [`Stop::Refused`].
    Stop(Stop),
}

/// What every child of a batch run shares.
#[derive(Clone, Copy)]
struct Asking<'a, 'b> {
    ctx: &'a Place<'a>,
    batch: &'a Batch<'a>,
    deadline: Instant,
    answers: &'b Mutex<Vec<Option<ItemOutcome>>>,
    /// Says when no child may start any more.
    cancelled: &'b (dyn Fn() -> bool + Sync),
    /// Other children may run beside each one in the slot ([`Program::siblings`]).
    siblings: bool,
    /// Told of the first child's load and of every answer (the first share's only).
    listen: Option<&'a dyn Listen>,
}

/// Answers `share`'s items (recording each in `asking.answers`) with as many children as it
/// takes, starting none once `asking.cancelled` says so.
fn run_share(asking: &Asking<'_, '_>, share: &Share) -> Part {
    let batch = asking.batch;
    let mut part = Part {
        children: 0,
        stop: None,
    };
    let timed = batch.listen.is_some();
    let load_tries = if timed { 1 } else { LOAD_TRIES };
    let mut careful = if timed { batch.len } else { share.start };
    let mut failed_loads = 0;
    let mut failed_starts = 0;
    let answered = |i: usize, outcome: ItemOutcome| {
        share.record(i, outcome, asking.answers, asking.listen, None);
    };
    loop {
        let (next, end) = share.at();
        if next >= end {
            break;
        }
        if Instant::now() >= asking.deadline {
            part.stop = Some(Stop::Budget);
            break;
        }
        if (asking.cancelled)() {
            part.stop = Some(Stop::CalledOff);
            break;
        }
        let first = part.children == 0;
        let (ended, printed) = match one_child(asking, share, careful, first) {
            Ok(finished) => (finished.output, Some(finished.printed)),
            Err(e) => (End::Stop(Stop::NotStarted(e.to_string())), None),
        };
        part.children += usize::from(!matches!(ended, End::Stop(Stop::NotStarted(_))));
        if let (Some(listen), Some(printed)) = (asking.listen, &printed) {
            listen.printed(part.children, printed);
        }
        if let End::Stop(Stop::NotStarted(why)) = ended {
            failed_starts += 1;
            if !crate::child::start_again(failed_starts) {
                part.stop = Some(Stop::NotStarted(why));
                break;
            }
            continue;
        }
        failed_starts = 0;
        let (next, end) = share.at();
        match ended {
            End::Done => {}
            End::Stop(stop @ (Stop::NotLoaded { .. } | Stop::Undefined)) => {
                failed_loads += 1;
                if failed_loads >= load_tries {
                    part.stop = Some(stop);
                    break;
                }
                continue;
            }
            End::Stop(stop) => {
                part.stop = Some(stop);
                break;
            }
            End::Hung | End::Died(_) | End::Overrun if next >= careful && next + 1 < end => {
                // Somewhere in the unreported chunk: go item by item from here. (When the
                // item it was on is the share's last, the chunk is that item alone, and it
                // is the cause: asking it again would only cost another hang.)
                careful = next + CAREFUL;
            }
            End::Hung => answered(next, ItemOutcome::Killed(Kill::Silent)),
            End::Overrun => answered(next, ItemOutcome::Killed(Kill::Overrun)),
            End::Died(death) => answered(next, ItemOutcome::Died(death)),
        }
        failed_loads = 0;
    }
    part
}

/// Runs one child on `share`'s items from its next one, advancing it past every answer the
/// child reports, until the share's end (which may be lowered meanwhile). `first`: it is
/// the share's first child, whose load the listener hears.
fn one_child(
    asking: &Asking<'_, '_>,
    share: &Share,
    careful: usize,
    first: bool,
) -> std::io::Result<Finished<End>> {
    let (ctx, batch) = (asking.ctx, asking.batch);
    let timed = batch.listen.is_some();
    let (next, end) = share.at();
    let lane = &ctx.lane;
    let limits = &ctx.limits;
    let file = lane.inside(batch.file);
    let ask = Ask {
        predicate: batch.predicate,
        batch_file: &file,
        first: next,
        last: end,
        careful,
        seconds: batch.per_call,
        wall_factor: limits.wall_factor.max(1),
        grace: limits.grace,
        messages: if timed { batch.len } else { MESSAGES },
        timed,
    };
    let args = [ask.term()];
    // The CPU its items may take: each call's limit and grace, within the batch's time.
    let left = asking.deadline.saturating_duration_since(Instant::now());
    let work = (batch.per_call + limits.grace) * (end - next) as u32;
    let program = Program {
        name: ANSWER_CHILD,
        args: &args,
        files: ctx.files,
        rlimits: crate::limits::answering(limits.memory, limits.load, left.min(work)),
        siblings: asking.siblings,
    };
    let slack = if timed { Duration::ZERO } else { CHUNK_SLACK };
    let mut items = Items {
        batch,
        share,
        answers: asking.answers,
        listen: asking.listen,
        first,
        ready: false,
        loaded: false,
        load: limits.load,
        // Silence allowed between frames once loaded: one call's wall-clock backstop and
        // grace, plus the slack a chunk takes.
        quiet: batch.per_call * limits.wall_factor.max(1) + limits.grace + slack,
        until: Instant::now() + limits.load,
        deadline: asking.deadline,
        asked_end: end,
    };
    lane.run(&program, &mut items)
}

/// Reads one batch child: its load, then its answers, until `done` or its share's end.
struct Items<'n> {
    batch: &'n Batch<'n>,
    share: &'n Share,
    answers: &'n Mutex<Vec<Option<ItemOutcome>>>,
    /// Told of every answer, and of the load when `first` (the share's first child).
    listen: Option<&'n dyn Listen>,
    first: bool,
    /// It said it is ready (started, the submission not yet run).
    ready: bool,
    /// It said it loaded the submission.
    loaded: bool,
    /// The time loading may take, and the silence allowed between frames once loaded.
    load: Duration,
    quiet: Duration,
    /// When the next frame must come by, and when the whole batch's time is up.
    until: Instant,
    deadline: Instant,
    /// The end of the items the child was asked (the share's end when it started, which a
    /// split may lower since).
    asked_end: usize,
}

impl Reader<Frame> for Items<'_> {
    type Output = End;

    fn started(&mut self) {
        self.until = Instant::now() + self.load;
    }

    fn deadline(&self) -> Instant {
        self.until.min(self.deadline)
    }

    fn frame(&mut self, frame: Frame) -> Flow<End> {
        let listen = self.listen;
        match frame {
            Frame::Ready => self.ready = true,
            Frame::Diag(diag) => {
                if let (true, Some(listen)) = (self.first, listen) {
                    listen.diag(diag);
                }
            }
            Frame::Loaded(found) => {
                if let (true, Some(listen)) = (self.first, listen) {
                    if !listen.loaded(&found) {
                        return Flow::Stop(End::Stop(Stop::Refused));
                    }
                }
                let here = match self.batch.predicate {
                    Predicate::HandValue => found.hand_value,
                    Predicate::SelectHand => found.select_hand,
                };
                if here.is_none() && self.batch.listen.is_none() {
                    return Flow::Stop(End::Stop(Stop::Undefined));
                }
                self.loaded = true;
                self.until = Instant::now() + self.quiet;
            }
            Frame::Outcomes {
                first,
                outcomes,
                cpu_ms,
                wall_ms,
            } => {
                let (share, answers) = (self.share, self.answers);
                for (k, outcome) in outcomes.into_iter().enumerate() {
                    let times = cpu_ms.get(k).copied().zip(wall_ms.get(k).copied());
                    if !share.record(first + k, outcome, answers, listen, times) {
                        break;
                    }
                }
                let (next, end) = self.share.at();
                if next >= end {
                    // Its share is answered. When another child took the rest of it, this
                    // one would go on answering that rest: it is stopped now.
                    return if end < self.asked_end {
                        Flow::Stop(End::Done)
                    } else {
                        Flow::Finish(End::Done)
                    };
                }
                self.until = Instant::now() + self.quiet;
            }
            // The goal caught its watchdog's exception and went on: the child is killed.
            Frame::Overrun { .. } => return Flow::Stop(End::Overrun),
            Frame::Done => return Flow::Finish(End::Done),
        }
        Flow::Read
    }

    fn end(&mut self, end: ChildEnd<'_>) -> End {
        let not_loaded = |why: String, said: String| {
            End::Stop(Stop::NotLoaded {
                first: self.first,
                why,
                said,
            })
        };
        match end {
            ChildEnd::Silent if Instant::now() >= self.deadline => End::Stop(Stop::Budget),
            ChildEnd::Silent if !self.ready => End::Stop(Stop::NotStarted(format!(
                "swipl did not start within {} s",
                self.load.as_secs_f64()
            ))),
            ChildEnd::Silent if !self.loaded => {
                let why = format!("loading took longer than {} s", self.load.as_secs_f64());
                not_loaded(why.clone(), why)
            }
            ChildEnd::Silent => End::Hung,
            ChildEnd::Exited(death) => {
                if !self.ready {
                    End::Stop(Stop::NotStarted(death.explain("")))
                } else if !self.loaded {
                    not_loaded(
                        death.explain(" while loading"),
                        format!("the submission did not load: {}", death.explain("")),
                    )
                } else if self.share.answered() {
                    End::Done
                } else {
                    End::Died(ChildDeath {
                        status: death.status(),
                        tail: death.stderr_tail(),
                        explained: death.explain(""),
                    })
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

    fn hand_value(file: &Path) -> Batch<'_> {
        Batch::check(
            Predicate::HandValue,
            "the check",
            file,
            10_000,
            Duration::from_secs(1),
        )
    }

    /// Returns a reader of a child on `share` of `batch`, ready and loaded or not.
    fn reader<'n>(
        batch: &'n Batch<'n>,
        share: &'n Share,
        got: &'n Mutex<Vec<Option<ItemOutcome>>>,
        loaded: bool,
        asked_end: usize,
    ) -> Items<'n> {
        Items {
            batch,
            share,
            answers: got,
            listen: batch.listen,
            first: true,
            ready: loaded,
            loaded,
            load: Duration::from_secs(1),
            quiet: Duration::from_secs(1),
            until: Instant::now(),
            deadline: Instant::now() + Duration::from_secs(60),
            asked_end,
        }
    }

    /// A child whose share another took the rest of is stopped when it reaches the new end
    /// (it was asked up to the old one, and would answer the other child's items too); a
    /// child that reaches the end it was asked is let exit on its own.
    #[test]
    fn a_child_is_stopped_at_an_end_lowered_under_it() {
        let file = Path::new("x");
        let batch = hand_value(file);
        let got = answers(10_000);
        let ask = |asked_end: usize, share: &Share| {
            reader(&batch, share, &got, true, asked_end).frame(Frame::Outcomes {
                first: 0,
                outcomes: vec![ItemOutcome::Killed(Kill::Silent); 5_000],
                cpu_ms: Vec::new(),
                wall_ms: Vec::new(),
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
        let file = Path::new("x");
        let batch = hand_value(file);
        let (share, got) = (Share::new(0..10), answers(10));
        let mut items = reader(&batch, &share, &got, false, 10);
        assert!(matches!(
            items.end(ChildEnd::Silent),
            End::Stop(Stop::NotStarted(_))
        ));
        assert!(matches!(items.frame(Frame::Ready), Flow::Read));
        assert!(matches!(
            items.end(ChildEnd::Silent),
            End::Stop(Stop::NotLoaded { .. })
        ));
    }

    /// A goal that caught its watchdog's exception and went on: the child is killed.
    #[test]
    fn an_overrun_ends_the_child() {
        let file = Path::new("x");
        let batch = hand_value(file);
        let (share, got) = (Share::new(0..10), answers(10));
        let mut items = reader(&batch, &share, &got, true, 10);
        assert!(matches!(
            items.frame(Frame::Overrun { item: 0 }),
            Flow::Stop(End::Overrun)
        ));
    }

    /// A listener that says whether to ask.
    struct Listener(bool);

    impl Listen for Listener {
        fn diag(&self, _: Diagnostic) {}
        fn loaded(&self, _: &Found) -> bool {
            self.0
        }
        fn answered(&self, _: usize, _: &ItemOutcome, _: Option<(u64, u64)>) {}
        fn printed(&self, _: usize, _: &[(&'static str, Vec<u8>); 2]) {}
    }

    /// A check stops where the predicate is undefined, the tests ask anyway, and a listener
    /// that refuses stops the batch.
    #[test]
    fn an_undefined_predicate_stops_a_check_not_the_tests() {
        let file = Path::new("x");
        let found = Found {
            hand_value: None,
            select_hand: Some("user".into()),
        };
        let (share, got) = (Share::new(0..10), answers(10));
        let mut check = hand_value(file);
        let loaded = |batch: &Batch<'_>| {
            reader(batch, &share, &got, false, 10).frame(Frame::Loaded(found.clone()))
        };
        assert!(matches!(
            loaded(&check),
            Flow::Stop(End::Stop(Stop::Undefined))
        ));
        check.listen = Some(&Listener(true));
        assert!(matches!(loaded(&check), Flow::Read));
        check.listen = Some(&Listener(false));
        assert!(matches!(
            loaded(&check),
            Flow::Stop(End::Stop(Stop::Refused))
        ));
    }

    #[test]
    fn the_ask_is_one_prolog_term() {
        let ask = Ask {
            predicate: Predicate::HandValue,
            batch_file: Path::new("/grader/it's.bin"),
            first: 0,
            last: 27_898,
            careful: 0,
            seconds: Duration::from_secs(1),
            wall_factor: 3,
            grace: Duration::from_millis(500),
            messages: 20,
            timed: false,
        };
        assert_eq!(
            ask.term(),
            r"ask(hand_value, '/grader/it\'s.bin', 0, 27898, 0, 1.000, 3, 0.500, 20, false)"
        );
    }

    #[test]
    fn an_answer_is_recorded_only_in_order_and_below_the_end() {
        let (share, got) = (Share::new(0..4), answers(4));
        share.record(1, ItemOutcome::Killed(Kill::Silent), &got, None, None);
        assert_eq!(share.at(), (0, 4), "not the next item: left out");
        share.record(0, ItemOutcome::Killed(Kill::Silent), &got, None, None);
        share.record(1, ItemOutcome::Killed(Kill::Silent), &got, None, None);
        assert_eq!(share.at(), (2, 4));
        *share.at.lock().unwrap() = (2, 2);
        assert!(share.answered());
        share.record(2, ItemOutcome::Killed(Kill::Silent), &got, None, None);
        let got = got.into_inner().unwrap();
        assert_eq!(got.iter().filter(|a| a.is_some()).count(), 2);
        assert!(got[2].is_none(), "above the end: another worker's item");
    }
}
