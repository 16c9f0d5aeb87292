//! The (hand, start) sweep: crib-core's value of every pair against Prolog's.

use crib_core::{Breakdown, Card, Hand, PreparedHand, Rule};
use crib_oracle::{OracleError, Pool};
use rayon::prelude::*;
use serde_json::{json, Value};

use crate::progress::Progress;
use crate::FIRST;

/// Hands valued per visit to a worker's oracle.
const CHUNK: usize = 64;

/// A pair on which Rust and Prolog disagree.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PairDiff {
    /// Position of the hand in the sweep, so the first differences are the same in any
    /// thread order.
    order: usize,
    /// How Prolog was asked: "batch" (one call for all 48 start cards) or "hand_value" (one
    /// call of hand_value/3 or /4 with card terms).
    via: &'static str,
    hand: [Card; 4],
    start: Card,
    rust: u8,
    prolog: u8,
}

/// What the sweep found.
#[derive(Debug, Default)]
pub struct PairReport {
    /// Pairs valued by the batched call: all 48 of each hand.
    pub pairs: u64,
    /// Pairs also valued by a single hand_value call: one of each hand.
    pub single: u64,
    pub differences: u64,
    /// The first [`FIRST`] differences in sweep order.
    pub first: Vec<PairDiff>,
}

impl PairReport {
    fn compare(&mut self, pair: PairDiff) {
        if pair.rust == pair.prolog {
            return;
        }
        self.differences += 1;
        if self.first.len() < FIRST {
            self.first.push(pair);
        }
    }

    fn merge(mut self, other: PairReport) -> PairReport {
        self.pairs += other.pairs;
        self.single += other.single;
        self.differences += other.differences;
        self.first.extend(other.first);
        self.first.sort();
        self.first.truncate(FIRST);
        self
    }
}

/// Returns the hands to check: every four-card hand, or `sample` hands drawn with `seed`.
pub fn hands(sample: Option<u64>, seed: u64) -> Vec<[Card; 4]> {
    match sample {
        None => crib_core::hands().collect(),
        Some(n) => (0..n)
            .map(|i| {
                let mut cards: [Card; 4] = crib_core::Dealer::for_item(seed, i)
                    .deal(4)
                    .try_into()
                    .expect("deal(4) gives four cards");
                cards.sort();
                cards
            })
            .collect(),
    }
}

/// Values each hand against its 48 start cards in Rust and in Prolog, in parallel.
///
/// Prolog values all 48 in one batched call. The batch may take another path through the
/// Prolog file than `hand_value/3` does (prolog/cribbage.pl has `hand_values_codes/4`), so
/// each hand is also valued once with `hand_value/3` (or `/4`), with card terms, against a
/// start card that moves along with the hand's position: 270,725 single calls in all.
///
/// # Errors
/// The first error Prolog gave; the sweep stops there.
pub fn check(
    pool: &Pool,
    hands: &[[Card; 4]],
    rule: Rule,
    progress: &Progress,
) -> Result<PairReport, OracleError> {
    crib_core::rank_table(); // build it once, before the threads need it
    hands
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(chunk, cards)| {
            let report = pool.with(|oracle| {
                let mut report = PairReport::default();
                for (i, &hand) in cards.iter().enumerate() {
                    let checked = Hand::new(hand).expect("swept hands hold four distinct cards");
                    let starts: Vec<Card> = crib_core::starts_for(&hand).collect();
                    let order = chunk * CHUNK + i;
                    let prolog = oracle.hand_values(&checked, &starts, rule)?;
                    let rust = PreparedHand::from_cards(hand);
                    let pair = |via, start, prolog| PairDiff {
                        order,
                        via,
                        hand,
                        start,
                        rust: rust.value(start, rule),
                        prolog,
                    };
                    for (&start, &prolog) in starts.iter().zip(&prolog) {
                        report.compare(pair("batch", start, prolog));
                    }
                    let start = starts[order % starts.len()];
                    let single = oracle.hand_value(&checked, start, rule)?;
                    report.compare(pair("hand_value", start, single));
                    report.single += 1;
                    report.pairs += starts.len() as u64;
                }
                Ok(report)
            });
            progress.add(cards.len() as u64 * 48);
            report
        })
        .try_reduce(PairReport::default, |a, b| Ok(a.merge(b)))
}

impl PairDiff {
    fn breakdown(&self, rule: Rule) -> crib_core::Points {
        let hand = Hand::new(self.hand).expect("swept hands hold four distinct cards");
        Breakdown::new(&hand, self.start, rule)
            .expect("the start card is not in the hand")
            .points()
    }

    /// One line for people: the hand, the start, Rust's value with its breakdown, Prolog's.
    pub fn line(&self, rule: Rule) -> String {
        let p = self.breakdown(rule);
        format!(
            "hand {} start {}: rust {} (fifteens {}, pairs {}, runs {}, flush {}, nob {}), \
             prolog {} ({})",
            crib_core::cards_text(&self.hand),
            self.start,
            self.rust,
            p.fifteens,
            p.pairs,
            p.runs,
            p.flush,
            p.nob,
            self.prolog,
            self.via,
        )
    }

    /// The same as JSON, with spec/'s names.
    pub fn json(&self, rule: Rule) -> Value {
        json!({
            "hand": self.hand,
            "start": self.start,
            "rust": self.rust,
            "breakdown": self.breakdown(rule),
            "prolog": self.prolog,
            "via": self.via,
        })
    }
}
