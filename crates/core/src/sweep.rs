//! Every (hand, start) pair: the C(52,4) × 48 = 12,994,800 shows of a deck.

use rayon::prelude::*;

use crate::score::PreparedHand;
use crate::{Card, Rule};

/// The number of four-card hands in a deck: C(52,4).
pub const HANDS: usize = 270_725;

/// The number of (hand, start) pairs: C(52,4) × 48.
pub const PAIRS: u64 = 12_994_800;

/// How many shows score each number of points, 0 to 29.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreCounts(pub [u64; 30]);

impl ScoreCounts {
    /// Returns how many shows were counted.
    pub fn shows(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Returns the mean score, or 0 when nothing was counted.
    pub fn mean(&self) -> f64 {
        let points: u64 = self.0.iter().enumerate().map(|(p, n)| p as u64 * n).sum();
        let shows = self.shows();
        if shows == 0 {
            0.0
        } else {
            points as f64 / shows as f64
        }
    }

    fn add(mut self, other: &ScoreCounts) -> ScoreCounts {
        self.0.iter_mut().zip(other.0).for_each(|(a, b)| *a += b);
        self
    }
}

/// Returns the four-card hands of the deck whose lowest card has index `first`, each with
/// cards in increasing index order.
pub fn hands_from(first: u8) -> impl Iterator<Item = [Card; 4]> {
    (first + 1..52).flat_map(move |second| hands_from_pair(first, second))
}

/// Returns the four-card hands whose two lowest cards have indices `first < second`.
fn hands_from_pair(first: u8, second: u8) -> impl Iterator<Item = [Card; 4]> {
    let card = |i: u8| Card::from_index(i).expect("indices below 52");
    (second + 1..52)
        .flat_map(move |c| (c + 1..52).map(move |d| [card(first), card(second), card(c), card(d)]))
}

/// Returns every four-card hand of the deck, cards in increasing index order, hands in
/// lexicographic order.
pub fn hands() -> impl Iterator<Item = [Card; 4]> {
    (0..49).flat_map(hands_from)
}

/// Returns the start cards possible for `hand`: the 48 cards not in it, in index order.
pub fn starts_for(hand: &[Card]) -> impl Iterator<Item = Card> + '_ {
    Card::deck().filter(move |c| !hand.contains(c))
}

/// Values every (hand, start) pair under `rule`, in parallel, and counts the shows per score.
///
/// With [`Rule::Hand`] this reproduces spec/distribution.tsv.
pub fn score_distribution(rule: Rule) -> ScoreCounts {
    crate::rank_table(); // build once, outside the parallel part
    (0..49u8)
        .into_par_iter()
        .flat_map_iter(|a| (a + 1..50).map(move |b| (a, b)))
        .map(|(a, b)| {
            let mut counts = [0u64; 30];
            for hand in hands_from_pair(a, b) {
                let prepared = PreparedHand::from_cards(hand);
                let held = hand.iter().fold(0u64, |m, c| m | 1 << c.index());
                for start in Card::deck().filter(|s| held >> s.index() & 1 == 0) {
                    counts[prepared.value(start, rule) as usize] += 1;
                }
            }
            ScoreCounts(counts)
        })
        .reduce(|| ScoreCounts([0; 30]), |a, b| a.add(&b))
}

#[cfg(test)]
mod tests;
