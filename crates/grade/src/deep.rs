//! `crib grade --deep`: a submission's hand_value/3 checked on every (hand, start) pair, up to
//! relabelling suits, with the simplest counterexamples and a diagnosis of what the failing
//! pairs share; and its select_hand/3 on a large seeded sample of deals.
//!
//! **Classes, not pairs.** Two pairs that differ only by a renaming of the suits (every
//! hearts card becomes a spades card and so on) have the same value. The 12,994,800 pairs
//! fall into 652,353 such classes; the check asks each class once, as one seeded member of
//! the class (a uniformly chosen relabelling) with the hand cards in a seeded order, and
//! counts a wrong answer with the class's weight, the number of distinct pairs it stands for.
//! So the counts are exact for a submission whose answers do not depend on the suits' names
//! or the order of the hand cards (every one we have seen), and an unbiased estimate for one
//! that does. To see which, [`classes::PROBES`] classes are asked a second time under another
//! relabelling and order: any difference is reported (`probes`). What this can miss: a
//! mistake that fires only for some suit names or card orders is counted in proportion on
//! average, not pair by pair, and a counterexample may then not reproduce under another
//! relabelling.
//!
//! **Batches.** The items are a batch file in the grader's directory (written once per
//! grader), asked through the batch driver ([`crate::batch`]) under the hand_value limit, in
//! a seeded random order split between [`DeepOptions::children`] children, so a check cut
//! short by [`DeepOptions::budget`] is a uniform sample and says how far it got.
//!
//! The deep result is a section of the [`SubmissionResult`](crate::SubmissionResult), never part of the marks.

mod classes;
mod diagnosis;
mod features;
mod select;

use std::fs;
use std::num::NonZeroUsize;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_core::{cards_text, Breakdown, Card, Hand, Keep, Points, Rule};
use crib_results::{
    Counterexample, DeepHandValue, DeepReport, FailureKind, KindCount, Predicate, Probes,
    TestVisibility,
};
use crib_testset::patterns::five_card_bytes;

use crate::child::Place;
use crate::pool::WorkerPool;

use crate::batch::{self, Batch, BatchRun, Stop};
use crate::protocol::{Answer, ExceptionKind, ItemOutcome, Outcome};
use classes::ClassItem;
use diagnosis::Observation;

/// What the deep check does and how long it may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeepOptions {
    /// Wall-clock time for the hand_value check of one submission (default 120 s); past it
    /// the result is partial.
    pub budget: Duration,
    /// Check only the first this many classes of the seeded order (default: all 652,353).
    pub classes: Option<usize>,
    /// How many seeded deals select_hand/3 is checked on (default 500; 0: not checked).
    pub select_deals: usize,
    /// Wall-clock time for the select_hand check (default 60 s).
    pub select_budget: Duration,
    /// Children answering at once for one submission (default: one per core).
    pub children: NonZeroUsize,
    /// Who sees the deep check on Gradescope (default: visible).
    pub visibility: TestVisibility,
}

impl Default for DeepOptions {
    fn default() -> DeepOptions {
        DeepOptions {
            budget: Duration::from_secs(120),
            classes: None,
            select_deals: 500,
            select_budget: Duration::from_secs(60),
            children: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
            visibility: TestVisibility::Visible,
        }
    }
}

/// The file of hand_value inputs in the grader's directory.
const HAND_VALUE_FILE: &str = "deep_hand_value.bin";
/// The file of select_hand inputs in the grader's directory.
const SELECT_HAND_FILE: &str = "deep_select_hand.bin";
/// How many counterexamples are kept per kind of failure.
const EXAMPLES: usize = 3;

/// The deep check's inputs and expected answers, prepared once per grader.
#[derive(Debug)]
pub(crate) struct Deep {
    options: DeepOptions,
    items: Vec<ClassItem>,
    deals: Vec<Vec<Card>>,
    keeps: Vec<Vec<Keep>>,
}

impl Deep {
    /// Prepares the deep check: writes its batch files into `grader` (the child program is
    /// there already: [`crate::Grader::new`] writes it for the marked hand_value check too).
    ///
    /// # Errors
    /// If a file cannot be written.
    pub(crate) fn prepare(grader: &Path, options: DeepOptions) -> std::io::Result<Deep> {
        let items = classes::items(options.classes);
        let questions = items.iter().map(|item| item.cards);
        fs::write(grader.join(HAND_VALUE_FILE), five_card_bytes(questions))?;
        let deals = select::deals(options.select_deals);
        let keeps = deals
            .iter()
            .map(|d| crib_core::rank_keeps(d).unwrap_or_default())
            .collect();
        let dealt = deals.iter().map(Vec::as_slice);
        fs::write(grader.join(SELECT_HAND_FILE), batch::deal_bytes(dealt))?;
        Ok(Deep {
            options,
            items,
            deals,
            keeps,
        })
    }

    fn hand_value(&self, ctx: &Place<'_>) -> Option<DeepHandValue> {
        let started = Instant::now();
        let (run, stopped) = self.ask(ctx, Predicate::HandValue)?;
        Some(DeepHandValue {
            stopped,
            children: run.children,
            elapsed_ms: started.elapsed().as_millis() as u64,
            ..analyse(&self.items, &run.answers)
        })
    }

    /// Asks the items of `predicate`'s batch file (in the grader's directory) under its limit
    /// per call and within its budget; returns the run and why it stopped, in words, or
    /// `None` when the predicate is not defined and nothing was answered.
    fn ask(&self, ctx: &Place<'_>, predicate: Predicate) -> Option<(BatchRun, Option<String>)> {
        let (file, len, per_call, budget) = match predicate {
            Predicate::HandValue => (
                HAND_VALUE_FILE,
                self.items.len(),
                ctx.limits.hand_value,
                self.options.budget,
            ),
            Predicate::SelectHand => (
                SELECT_HAND_FILE,
                self.deals.len(),
                ctx.limits.select_hand,
                self.options.select_budget,
            ),
        };
        let file = ctx.lane.grader().join(file);
        let batch = Batch::check(predicate, "the deep check", &file, len, per_call);
        let run = batch::run(ctx, &batch, self.options.children.get(), budget, None);
        if run.stop == Some(Stop::Undefined) && run.answers.iter().all(Option::is_none) {
            return None;
        }
        let stopped = run.stop.as_ref().map(|stop| stop.text(&batch));
        Some((run, stopped))
    }

    /// Returns the options.
    pub(crate) fn options(&self) -> &DeepOptions {
        &self.options
    }

    /// Runs the deep check of the submission at `place`. Never fails: what goes wrong is
    /// part of the report.
    pub(crate) fn check(&self, place: &Place<'_>) -> DeepReport {
        let started = Instant::now();
        let hand_value = self.hand_value(place);
        let select_hand = (self.options.select_deals > 0)
            .then(|| self.select_hand(place))
            .flatten();
        DeepReport {
            hand_value,
            select_hand,
            visibility: self.options.visibility,
            elapsed_ms: started.elapsed().as_millis() as u64,
        }
    }
}

/// The most characters of an exception's message shown for an item.
const MESSAGE_CHARS: usize = 300;

/// Returns how an answer to a hand_value item fails, if it does.
pub(crate) fn failure(got: &ItemOutcome, expected: u8) -> Option<FailureKind> {
    if let Some(v) = got.int() {
        return (v != i64::from(expected)).then_some(FailureKind::WrongAnswer);
    }
    Some(failed(got))
}

/// Returns how an item failed that did not answer an integer in -1000..=1000 (an answer
/// of another shape is [`FailureKind::WrongType`]).
pub(crate) fn failed(got: &ItemOutcome) -> FailureKind {
    match got {
        ItemOutcome::Int(_) => FailureKind::WrongType,
        ItemOutcome::Died(_) => FailureKind::Crashed,
        ItemOutcome::Killed(_) => FailureKind::Timeout,
        ItemOutcome::Outcome(outcome) => match outcome {
            Outcome::Value { .. } | Outcome::Cards { .. } => FailureKind::WrongType,
            Outcome::Fail => FailureKind::NoSolution,
            Outcome::Halt { .. } => FailureKind::Crashed,
            Outcome::Exception { kind, .. } => match kind {
                ExceptionKind::Timeout | ExceptionKind::Backstop => FailureKind::Timeout,
                ExceptionKind::Memory => FailureKind::Memory,
                ExceptionKind::Exception => FailureKind::Exception,
            },
        },
    }
}

/// Returns what an answer was, as far as [`got_text`] tells answers apart: its integer,
/// how it failed, and whether it was a keep. Two answers that differ here differ for the
/// probes.
fn shape(got: &ItemOutcome) -> (Option<i64>, FailureKind, bool) {
    let keep = matches!(got.outcome(), Some(Outcome::Cards { .. }));
    (got.int(), failed(got), keep)
}

/// What an item stopped at the wall-clock backstop was, for people.
const BACKSTOP: &str = "over the time limit: no answer by the wall-clock backstop (it waited \
                        rather than computed, or hung)";

/// Returns what an answer was, for people.
fn got_text(got: &ItemOutcome) -> String {
    if let Some(v) = got.int() {
        return v.to_string();
    }
    let cut = |message: &str| -> String { message.chars().take(MESSAGE_CHARS).collect() };
    let tokens = |answer: &Answer| match answer {
        Answer::Cards(tokens) => tokens.join(" "),
        Answer::Int(_) | Answer::Term(_) => "?".to_string(),
    };
    let outcome = match got {
        ItemOutcome::Int(v) => return format!("Value = {v} (not an integer)"),
        ItemOutcome::Died(death) => return format!("crashed: {}", death.explained),
        ItemOutcome::Outcome(outcome) => outcome,
        // Killed on the item (silent, or an overrun): no answer by the backstop.
        ItemOutcome::Killed(_) => return BACKSTOP.into(),
    };
    match outcome {
        Outcome::Value { value } => {
            let term = match value {
                Answer::Int(text) | Answer::Term(text) => text.clone(),
                Answer::Cards(tokens) => format!("[{}]", tokens.join(",")),
            };
            format!("Value = {term} (not an integer)")
        }
        Outcome::Cards { hand, crib } => {
            format!("Hand = [{}], Cribcards = [{}]", tokens(hand), tokens(crib))
        }
        Outcome::Fail => "no solution (the goal failed)".into(),
        Outcome::Halt { status } => format!("crashed: halt({status}) called"),
        Outcome::Exception { kind, message } => match kind {
            ExceptionKind::Timeout => "over the time limit (CPU time)".into(),
            ExceptionKind::Backstop => BACKSTOP.into(),
            ExceptionKind::Memory => format!("out of memory: {}", cut(message)),
            ExceptionKind::Exception if message.is_empty() => "an exception".into(),
            ExceptionKind::Exception => format!("exception: {}", cut(message)),
        },
    }
}

/// One hand_value question with what it stands for: the cards as sent, how many pairs it
/// counts for, and crib-core's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Asked {
    /// The four hand cards in the order sent, then the start.
    pub cards: [Card; 5],
    /// How many (hand, start) pairs it stands for.
    pub weight: u64,
    /// crib-core's value.
    pub expected: u8,
}

/// Returns the hand of `cards`, the four hand cards then the start.
fn hand_of(cards: &[Card; 5]) -> [Card; 4] {
    [cards[0], cards[1], cards[2], cards[3]]
}

/// Returns crib-core's breakdown of `cards` (the hand then the start), if they are a hand.
fn breakdown(cards: &[Card; 5]) -> Option<Breakdown> {
    let hand = Hand::new(hand_of(cards)).ok()?;
    Breakdown::new(&hand, cards[4], Rule::Hand).ok()
}

/// Judges the answers to `asked` (`None`: not answered) against crib-core and explains the
/// failures: [`EXAMPLES`] counterexamples at most per kind, no probes, stop, children or time.
pub(crate) fn judge(asked: &[Asked], answers: &[Option<ItemOutcome>]) -> DeepHandValue {
    let checked: Vec<(&Asked, &ItemOutcome)> = asked
        .iter()
        .zip(answers)
        .filter_map(|(a, got)| got.as_ref().map(|g| (a, g)))
        .collect();
    // The features of every checked item, on one worker per core.
    let features =
        WorkerPool::per_core().map(&checked, |(item, _)| features::features(&item.cards));
    let mut kinds: Vec<KindCount> = Vec::new();
    let mut observations = Vec::with_capacity(checked.len());
    // (kind, simplicity, index in `checked`)
    type Failing = (FailureKind, (u32, u32, [u8; 5]), usize);
    let mut failing: Vec<Failing> = Vec::new();
    let mut pairs_checked = 0u64;
    for (n, (item, got)) in checked.iter().enumerate() {
        let weight = item.weight;
        pairs_checked += weight;
        let kind = failure(got, item.expected);
        let wrong = match (got.int(), kind) {
            (Some(v), Some(FailureKind::WrongAnswer)) => {
                Some((v - i64::from(item.expected), points_of(&item.cards)))
            }
            _ => None,
        };
        observations.push(Observation {
            features: features[n],
            weight,
            failing: kind.is_some(),
            wrong,
        });
        if let Some(kind) = kind {
            count(&mut kinds, kind, weight);
            failing.push((kind, simplicity(&item.cards), n));
        }
    }
    kinds.sort_by_key(|k| std::cmp::Reverse(k.pairs));
    failing.sort();
    let mut counterexamples = Vec::new();
    for kind in kinds.iter().map(|k| k.kind) {
        for &(_, _, n) in failing.iter().filter(|f| f.0 == kind).take(EXAMPLES) {
            let (item, got) = checked[n];
            counterexamples.push(counterexample(kind, &item.cards, got));
        }
    }
    DeepHandValue {
        classes: asked.len(),
        classes_checked: checked.len(),
        pairs: asked.iter().map(|a| a.weight).sum(),
        pairs_checked,
        stopped: None,
        failing_pairs: kinds.iter().map(|k| k.pairs).sum(),
        failing_classes: kinds.iter().map(|k| k.items).sum(),
        kinds,
        probes: Probes::default(),
        counterexamples,
        diagnosis: diagnosis::diagnose(&observations),
        children: 0,
        elapsed_ms: 0,
    }
}

/// Counts one more failing item of `kind`, standing for `pairs` pairs, in `kinds`.
pub(crate) fn count(kinds: &mut Vec<KindCount>, kind: FailureKind, pairs: u64) {
    match kinds.iter_mut().find(|k| k.kind == kind) {
        Some(k) => {
            k.items += 1;
            k.pairs += pairs;
        }
        None => kinds.push(KindCount {
            kind,
            items: 1,
            pairs,
        }),
    }
}

/// The answers to the items, judged and explained.
fn analyse(items: &[ClassItem], answers: &[Option<ItemOutcome>]) -> DeepHandValue {
    let all = classes::classes();
    // The probes come first ([`classes::items`]), the `k`th asking again the class of the
    // `k`th item after them.
    let p = items.iter().take_while(|i| i.probe).count();
    let main: Vec<Asked> = items[p..]
        .iter()
        .map(|item| Asked {
            cards: item.cards,
            weight: u64::from(all[item.class as usize].weight),
            expected: all[item.class as usize].expected,
        })
        .collect();
    let mut probes = Probes::default();
    for (k, item) in items[..p].iter().enumerate() {
        let j = p + k;
        if let (Some(a), Some(b)) = (&answers[k], &answers[j]) {
            probes.asked += 1;
            if shape(a) != shape(b) {
                probes.differed += 1;
                probes.example.get_or_insert_with(|| {
                    format!(
                        "{} gave {}, {} gave {}",
                        show_goal(&item.cards),
                        got_text(a),
                        show_goal(&items[j].cards),
                        got_text(b)
                    )
                });
            }
        }
    }
    DeepHandValue {
        probes,
        ..judge(&main, &answers[p..])
    }
}

/// Orders failing pairs (`cards`: the hand then the start) from simplest: fewest scoring
/// combinations, no flush or nob, lowest ranks, then by the cards.
pub(crate) fn simplicity(cards: &[Card; 5]) -> (u32, u32, [u8; 5]) {
    let (combos, extras) = breakdown(cards).map_or((u32::MAX, 0), |b| {
        let extras = u32::from(!b.flush.is_empty()) + u32::from(b.nob.is_some());
        (
            (b.fifteens.len() + b.pairs.len() + b.runs.len()) as u32 + extras,
            extras,
        )
    });
    let ranks: u32 = cards.iter().map(|c| u32::from(c.rank().number())).sum();
    let mut indices = cards.map(|c| c.index());
    indices.sort();
    (combos * 100 + extras * 10, ranks, indices)
}

/// Returns crib-core's points per rule for `cards` (none for cards that are not a hand).
pub(crate) fn points_of(cards: &[Card; 5]) -> Points {
    breakdown(cards).map(|b| b.points()).unwrap_or_default()
}

pub(crate) fn show_goal(cards: &[Card; 5]) -> String {
    format!(
        "hand_value({}, {}, V)",
        crib_testset::draw::prolog_list(&hand_of(cards)),
        cards[4].prolog()
    )
}

pub(crate) fn counterexample(
    kind: FailureKind,
    cards: &[Card; 5],
    got: &ItemOutcome,
) -> Counterexample {
    let (points, words) = match &breakdown(cards) {
        Some(b) => (b.points(), breakdown_words(b)),
        None => (Points::default(), String::new()),
    };
    Counterexample {
        kind,
        hand: hand_of(cards).to_vec(),
        start: cards[4],
        expected: points.total(),
        got: got_text(got),
        points,
        breakdown: words,
        goal: show_goal(cards),
    }
}

/// Returns crib-core's breakdown in words: `fifteens 2 (7H+8C), runs 3 (7H 8C 9D)`.
fn breakdown_words(b: &Breakdown) -> String {
    let p = b.points();
    let sets = |sets: &[Vec<Card>], join: &str| -> String {
        sets.iter()
            .map(|s| s.iter().map(Card::to_string).collect::<Vec<_>>().join(join))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if p.fifteens > 0 {
        parts.push(format!(
            "fifteens {} ({})",
            p.fifteens,
            sets(&b.fifteens, "+")
        ));
    }
    if p.pairs > 0 {
        parts.push(format!("pairs {} ({})", p.pairs, sets(&b.pairs, " ")));
    }
    if p.runs > 0 {
        parts.push(format!("runs {} ({})", p.runs, sets(&b.runs, " ")));
    }
    if p.flush > 0 {
        parts.push(format!("flush {} ({})", p.flush, cards_text(&b.flush)));
    }
    if let Some(jack) = b.nob {
        parts.push(format!("nob 1 ({jack})"));
    }
    if parts.is_empty() {
        "no points".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests;
