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
//! **Batches.** The inputs are a file of 5 bytes per item in the grader's directory (written
//! once per grader), read by `prolog/deep_child.pl` in the same sandbox and limits as
//! grading; answers come back as one frame per 1,000 items (or half a second). Each call has
//! the hand_value limit, enforced by one watchdog thread; a child that crashes or ignores the
//! limit is replaced and only the item it was on is lost. Classes are checked in a seeded
//! random order, split between [`DeepOptions::children`] children, so a check cut short by
//! [`DeepOptions::budget`] is a uniform sample and says how far it got.
//!
//! The deep result is a section of the [`Report`](crate::Report), never part of the marks.

mod classes;
mod diagnosis;
mod driver;
mod features;
mod select;
mod text;

pub use text::{percent, thousands};

use std::fmt;
use std::fs;
use std::num::NonZeroUsize;
use std::path::Path;
use std::time::{Duration, Instant};

use crib_core::{Breakdown, Card, Hand, Keep, Points, Rule};
use serde::{Deserialize, Serialize};

use crate::report::TestVisibility;

use crate::runner::Limits;
use crib_sandbox::Jail;

pub(crate) use driver::RawAnswer;

use classes::Item;
use diagnosis::Observation;
use driver::{Batch, Got};

/// The file of hand_value inputs in the grader's directory.
const HAND_VALUE_FILE: &str = "deep_hand_value.bin";
/// The file of select_hand inputs in the grader's directory.
const SELECT_HAND_FILE: &str = "deep_select_hand.bin";
/// How many counterexamples are kept per kind of failure.
const EXAMPLES: usize = 3;

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

/// The deep check of one submission: a section of its report, not marked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeepReport {
    /// hand_value/3 over every class of pairs (or the classes asked for); `None` when the
    /// predicate is missing.
    pub hand_value: Option<DeepHandValue>,
    /// select_hand/3 over the seeded deals; `None` when not asked for or missing.
    pub select_hand: Option<DeepSelectHand>,
    /// Who sees it on Gradescope.
    pub visibility: TestVisibility,
    /// Wall-clock time of the whole deep check, milliseconds.
    pub elapsed_ms: u64,
}

/// hand_value/3 checked class by class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeepHandValue {
    /// Classes in the check: all 652,353, or as many as asked for.
    pub classes: usize,
    /// Classes answered.
    pub classes_checked: usize,
    /// Pairs the classes in the check stand for (12,994,800 for all).
    pub pairs: u64,
    /// Pairs the classes answered stand for.
    pub pairs_checked: u64,
    /// Why the check stopped before every class was answered, if it did.
    pub stopped: Option<String>,
    /// Pairs (weighted) whose answer was anything but right.
    pub failing_pairs: u64,
    /// Classes whose answer was anything but right.
    pub failing_classes: usize,
    /// The failing ones by kind, most first.
    pub kinds: Vec<KindCount>,
    /// The second asking of some classes under another relabelling and card order.
    pub probes: Probes,
    /// The simplest failing pairs, a few per kind.
    pub counterexamples: Vec<Counterexample>,
    /// What the failing pairs share.
    pub diagnosis: Diagnosis,
    /// Children started.
    pub children: usize,
    /// Wall-clock time, milliseconds.
    pub elapsed_ms: u64,
}

/// A kind of failure in the deep check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// An integer other than the expected one (or, for select_hand, a keep that is not
    /// optimal).
    WrongAnswer,
    /// Not an integer (or not a split of the dealt cards).
    WrongType,
    /// The goal failed.
    NoSolution,
    /// An exception.
    Exception,
    /// Over the per-call limit.
    Timeout,
    /// A resource error.
    Memory,
    /// halt, or the child died.
    Crashed,
}

impl FailureKind {
    /// Returns the kind's name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::WrongAnswer => "wrong_answer",
            FailureKind::WrongType => "wrong_type",
            FailureKind::NoSolution => "no_solution",
            FailureKind::Exception => "exception",
            FailureKind::Timeout => "timeout",
            FailureKind::Memory => "memory",
            FailureKind::Crashed => "crashed",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many failed in one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCount {
    /// The way.
    pub kind: FailureKind,
    /// Classes (or deals).
    pub classes: usize,
    /// Pairs they stand for (for select_hand: deals).
    pub pairs: u64,
}

/// Classes asked twice, to see whether answers depend on suit names or card order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probes {
    /// Classes asked twice (and answered both times).
    pub asked: usize,
    /// Of them, those answered differently.
    pub differed: usize,
    /// One that differed: both askings and both answers.
    pub example: Option<String>,
}

/// One failing pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counterexample {
    /// How it failed.
    pub kind: FailureKind,
    /// The hand as sent, in that order.
    pub hand: Vec<Card>,
    /// The start card.
    pub start: Card,
    /// crib-core's value.
    pub expected: u8,
    /// What the submission gave: an integer, a term, or what happened.
    pub got: String,
    /// crib-core's points per rule.
    pub points: Points,
    /// crib-core's breakdown of the expected value, in words.
    pub breakdown: String,
    /// The goal, as a student would type it.
    pub goal: String,
}

/// What the failing pairs share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// One sentence: the best finding and the shape of the errors.
    pub summary: String,
    /// The features, or pairs of features, that best separate failing from passing pairs,
    /// best first.
    pub findings: Vec<Finding>,
    /// How wrong integers differ from the expected ones.
    pub errors: Vec<ErrorShape>,
}

/// A feature, or two, of the failing pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The features, each present or absent.
    pub features: Vec<Literal>,
    /// In words.
    pub text: String,
    /// Of the pairs with it, the share that fail (weighted).
    pub precision: f64,
    /// Of the failing pairs, the share with it (weighted).
    pub recall: f64,
    /// Failing pairs with it.
    pub failing_pairs: u64,
    /// Passing pairs with it.
    pub passing_pairs: u64,
}

/// A feature, present or absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Literal {
    /// The feature's id, e.g. `pair_outside_run`.
    pub feature: String,
    /// Whether the pairs have it (or lack it).
    pub present: bool,
}

/// A pattern in got − expected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorShape {
    /// In words.
    pub text: String,
    /// The share of the wrong integers (weighted) it describes.
    pub share: f64,
    /// The pairs it describes.
    pub pairs: u64,
}

/// select_hand/3 checked on seeded deals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeepSelectHand {
    /// Deals in the check (alternately six and five cards).
    pub deals: usize,
    /// Deals answered.
    pub checked: usize,
    /// Why the check stopped early, if it did.
    pub stopped: Option<String>,
    /// Deals answered with an optimal keep (any of tied best keeps).
    pub optimal: usize,
    /// Deals answered otherwise, by kind (`wrong_answer`: a valid keep that is not optimal).
    pub kinds: Vec<KindCount>,
    /// The greatest loss of expected hand value over the valid keeps, points.
    pub worst_regret: f64,
    /// The mean loss over the deals answered with a valid keep, points.
    pub mean_regret: f64,
    /// The simplest deal answered with a keep that is not optimal.
    pub simplest: Option<SelectExample>,
    /// The deal with the worst loss.
    pub worst: Option<SelectExample>,
    /// The first deal with an invalid answer, a failure or an error.
    pub first_failure: Option<SelectExample>,
    /// Children started.
    pub children: usize,
    /// Wall-clock time, milliseconds.
    pub elapsed_ms: u64,
}

/// One deal and what the submission kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectExample {
    /// How it failed.
    pub kind: FailureKind,
    /// The cards dealt.
    pub dealt: Vec<Card>,
    /// What the submission answered.
    pub got: String,
    /// The expected value of its keep, if valid.
    pub got_value: Option<f64>,
    /// A best keep.
    pub best: Vec<Card>,
    /// Its expected value.
    pub best_value: f64,
}

/// The deep check's inputs and expected answers, prepared once per grader.
pub(crate) struct Deep {
    options: DeepOptions,
    items: Vec<Item>,
    deals: Vec<Vec<Card>>,
    keeps: Vec<Vec<Keep>>,
}

impl fmt::Debug for Deep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deep")
            .field("options", &self.options)
            .field("items", &self.items.len())
            .field("deals", &self.deals.len())
            .finish()
    }
}

/// Where a submission's deep check runs: the grader's sandbox and the submission's copy.
pub(crate) struct Place<'a> {
    /// The sandbox.
    pub jail: &'a Jail,
    /// The grader's directory (the child program and the batch files).
    pub grader: &'a Path,
    /// The submission's work directory (`submission/` and `scratch/` inside).
    pub work: &'a Path,
    /// The files to load, relative to the submission.
    pub files: &'a [String],
    /// The worker's slot.
    pub slot: u32,
    /// Memory and per-call limits.
    pub limits: Limits,
}

impl Deep {
    /// Prepares the deep check: writes the child program and the batch files into `grader`.
    ///
    /// # Errors
    /// If a file cannot be written.
    pub(crate) fn prepare(grader: &Path, options: DeepOptions) -> std::io::Result<Deep> {
        let items = classes::items(options.classes);
        fs::write(grader.join("deep_child.pl"), driver::DEEP_CHILD)?;
        fs::write(grader.join(HAND_VALUE_FILE), classes::batch_bytes(&items))?;
        let deals = select::deals(options.select_deals);
        let keeps = deals
            .iter()
            .map(|d| crib_core::rank_keeps(d).unwrap_or_default())
            .collect();
        fs::write(grader.join(SELECT_HAND_FILE), select::batch_bytes(&deals))?;
        Ok(Deep {
            options,
            items,
            deals,
            keeps,
        })
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

    fn hand_value(&self, ctx: &Place<'_>) -> Option<DeepHandValue> {
        let started = Instant::now();
        let file = ctx.grader.join(HAND_VALUE_FILE);
        let batch = Batch {
            mode: "hand_value",
            file: &file,
            len: self.items.len(),
            per_call: ctx.limits.hand_value,
        };
        let run = driver::run(
            ctx,
            &batch,
            self.options.children.get(),
            self.options.budget,
        );
        if run.answers.iter().all(Option::is_none) {
            if let Some(why) = &run.stopped {
                if why.contains("not defined") {
                    return None;
                }
            }
        }
        let mut report = analyse(&self.items, &run.answers);
        report.stopped = run.stopped;
        report.children = run.children;
        report.elapsed_ms = started.elapsed().as_millis() as u64;
        Some(report)
    }
}

/// Returns how an answer to a hand_value item fails, if it does.
fn failure(got: &Got, expected: u8) -> Option<FailureKind> {
    match got {
        Got::Int(v) if *v == i64::from(expected) => None,
        Got::Int(_) => Some(FailureKind::WrongAnswer),
        Got::Term(_) | Got::Keep(..) => Some(FailureKind::WrongType),
        Got::Fail => Some(FailureKind::NoSolution),
        Got::Timeout => Some(FailureKind::Timeout),
        Got::Memory(_) => Some(FailureKind::Memory),
        Got::Exception(_) => Some(FailureKind::Exception),
        Got::Crashed(_) => Some(FailureKind::Crashed),
    }
}

/// Returns what an answer was, for people.
fn got_text(got: &Got) -> String {
    match got {
        Got::Int(v) => v.to_string(),
        Got::Term(t) => format!("Value = {t} (not an integer)"),
        Got::Keep(h, c) => format!("Hand = [{h}], Cribcards = [{c}]"),
        Got::Fail => "no solution (the goal failed)".into(),
        Got::Timeout => "over the time limit".into(),
        Got::Memory(m) => format!("out of memory: {m}"),
        Got::Exception(m) if m.is_empty() => "an exception".into(),
        Got::Exception(m) => format!("exception: {m}"),
        Got::Crashed(m) => format!("crashed: {m}"),
    }
}

/// The answers to the items, judged and explained.
fn analyse(items: &[Item], answers: &[Option<Got>]) -> DeepHandValue {
    let all = classes::classes();
    let main: Vec<(usize, &Item)> = items.iter().enumerate().filter(|(_, i)| !i.probe).collect();
    let pairs: u64 = main
        .iter()
        .map(|(_, i)| u64::from(all[i.class as usize].weight))
        .sum();
    // The probes: the same class asked twice.
    let first_asking: std::collections::HashMap<u32, usize> =
        main.iter().map(|&(k, item)| (item.class, k)).collect();
    let mut probes = Probes {
        asked: 0,
        differed: 0,
        example: None,
    };
    for (k, item) in items.iter().enumerate().filter(|(_, i)| i.probe) {
        let Some(&j) = first_asking.get(&item.class) else {
            continue;
        };
        if let (Some(a), Some(b)) = (&answers[k], &answers[j]) {
            probes.asked += 1;
            if std::mem::discriminant(a) != std::mem::discriminant(b)
                || matches!((a, b), (Got::Int(x), Got::Int(y)) if x != y)
            {
                probes.differed += 1;
                probes.example.get_or_insert_with(|| {
                    format!(
                        "{} gave {}, {} gave {}",
                        show_goal(item),
                        got_text(a),
                        show_goal(&items[j]),
                        got_text(b)
                    )
                });
            }
        }
    }
    let checked: Vec<(&Item, &Got)> = main
        .iter()
        .filter_map(|&(k, item)| answers[k].as_ref().map(|g| (item, g)))
        .collect();
    let features: Vec<u64> = parallel_features(&checked);
    let mut kinds: Vec<KindCount> = Vec::new();
    let mut observations = Vec::with_capacity(checked.len());
    // (kind, simplicity, index in `checked`)
    type Failing = (FailureKind, (u32, u32, [u8; 5]), usize);
    let mut failing: Vec<Failing> = Vec::new();
    let mut pairs_checked = 0u64;
    for (n, (item, got)) in checked.iter().enumerate() {
        let class = &all[item.class as usize];
        let weight = u64::from(class.weight);
        pairs_checked += weight;
        let kind = failure(got, class.expected);
        let wrong = match (got, kind) {
            (Got::Int(v), Some(FailureKind::WrongAnswer)) => Some((
                v - i64::from(class.expected),
                points_of(item.hand(), item.start()),
            )),
            _ => None,
        };
        observations.push(Observation {
            features: features[n],
            weight,
            failing: kind.is_some(),
            wrong,
        });
        if let Some(kind) = kind {
            match kinds.iter_mut().find(|k| k.kind == kind) {
                Some(k) => {
                    k.classes += 1;
                    k.pairs += weight;
                }
                None => kinds.push(KindCount {
                    kind,
                    classes: 1,
                    pairs: weight,
                }),
            }
            failing.push((kind, simplicity(item), n));
        }
    }
    kinds.sort_by_key(|k| std::cmp::Reverse(k.pairs));
    failing.sort();
    let mut counterexamples = Vec::new();
    for kind in kinds.iter().map(|k| k.kind) {
        for &(_, _, n) in failing.iter().filter(|f| f.0 == kind).take(EXAMPLES) {
            let (item, got) = checked[n];
            counterexamples.push(counterexample(kind, item, got));
        }
    }
    DeepHandValue {
        classes: main.len(),
        classes_checked: checked.len(),
        pairs,
        pairs_checked,
        stopped: None,
        failing_pairs: kinds.iter().map(|k| k.pairs).sum(),
        failing_classes: kinds.iter().map(|k| k.classes).sum(),
        kinds,
        probes,
        counterexamples,
        diagnosis: diagnosis::diagnose(&observations),
        children: 0,
        elapsed_ms: 0,
    }
}

/// The features of every checked item, on two threads.
fn parallel_features(checked: &[(&Item, &Got)]) -> Vec<u64> {
    let threads = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let chunk = checked.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = checked
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|(item, _)| features::features(item.hand(), item.start()))
                        .collect::<Vec<u64>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// Orders failing pairs from simplest: fewest scoring combinations, no flush or nob, lowest
/// ranks, then by the cards.
fn simplicity(item: &Item) -> (u32, u32, [u8; 5]) {
    let (combos, extras) = Hand::new(item.hand())
        .ok()
        .and_then(|h| Breakdown::new(&h, item.start(), Rule::Hand).ok())
        .map_or((u32::MAX, 0), |b| {
            let extras = u32::from(!b.flush.is_empty()) + u32::from(b.nob.is_some());
            (
                (b.fifteens.len() + b.pairs.len() + b.runs.len()) as u32 + extras,
                extras,
            )
        });
    let ranks: u32 = item
        .cards
        .iter()
        .map(|c| u32::from(c.rank().number()))
        .sum();
    let mut cards = item.cards.map(|c| c.index());
    cards.sort();
    (combos * 100 + extras * 10, ranks, cards)
}

fn points_of(hand: [Card; 4], start: Card) -> Points {
    Hand::new(hand)
        .ok()
        .and_then(|h| Breakdown::new(&h, start, Rule::Hand).ok())
        .map(|b| b.points())
        .unwrap_or_default()
}

fn show_goal(item: &Item) -> String {
    format!(
        "hand_value({}, {}, V)",
        crate::testset::prolog_list(&item.hand()),
        item.start().prolog()
    )
}

fn counterexample(kind: FailureKind, item: &Item, got: &Got) -> Counterexample {
    let breakdown = Hand::new(item.hand())
        .ok()
        .and_then(|h| Breakdown::new(&h, item.start(), Rule::Hand).ok());
    let (points, words) = match &breakdown {
        Some(b) => (b.points(), text::breakdown_words(b)),
        None => (Points::default(), String::new()),
    };
    Counterexample {
        kind,
        hand: item.hand().to_vec(),
        start: item.start(),
        expected: points.total(),
        got: got_text(got),
        points,
        breakdown: words,
        goal: show_goal(item),
    }
}

#[cfg(test)]
mod tests;
