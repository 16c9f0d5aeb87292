//! Every (hand, start) pair: the C(52,4) × 48 = 12,994,800 shows of a deck.

use rayon::prelude::*;

use crate::score::PreparedHand;
use crate::{Card, CardSet, Rule};

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

    /// Reads a table in spec/distribution.tsv's format: `#` comment lines, the header
    /// `points<TAB>count`, then one `points<TAB>count` row per score (0 to 29). Scores not
    /// listed occur zero times.
    ///
    /// # Errors
    /// [`CountsError`] with the line number when the header is missing or a row is not two
    /// numbers with points in 0..=29.
    ///
    /// # Example
    /// ```
    /// let counts = crib_core::ScoreCounts::parse("# a note\npoints\tcount\n0\t5\n29\t4\n")?;
    /// assert_eq!((counts.0[0], counts.0[1], counts.0[29]), (5, 0, 4));
    /// # Ok::<(), crib_core::CountsError>(())
    /// ```
    pub fn parse(text: &str) -> Result<ScoreCounts, CountsError> {
        let mut counts = [0u64; 30];
        for (points, count) in read_counts(text, ("points", "count"), 0..=29)? {
            counts[points] = count;
        }
        Ok(ScoreCounts(counts))
    }

    fn add(mut self, other: &ScoreCounts) -> ScoreCounts {
        self.0.iter_mut().zip(other.0).for_each(|(a, b)| *a += b);
        self
    }
}

/// What is wrong with a table given to [`ScoreCounts::parse`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct CountsError {
    /// The 1-based line the problem is on.
    pub line: usize,
    /// What is wrong there.
    pub problem: String,
}

/// Reads a two-column table of counts: `#` comment lines and blank lines, the header
/// `KEY<TAB>VALUE` (`names`), then `key<TAB>count` rows with keys in `keys`. Returns the rows.
pub(crate) fn read_counts(
    text: &str,
    names: (&str, &str),
    keys: std::ops::RangeInclusive<usize>,
) -> Result<Vec<(usize, u64)>, CountsError> {
    let (key_name, value_name) = names;
    let header_line = format!("{key_name}\t{value_name}");
    let mut header = false;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let error = |problem: String| CountsError {
            line: n + 1,
            problem,
        };
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !header {
            if line != header_line {
                return Err(error(format!(
                    "expected the header \"{key_name}<TAB>{value_name}\", found {line:?}"
                )));
            }
            header = true;
            continue;
        }
        let Some((key, value)) = line.split_once('\t') else {
            return Err(error(format!(
                "expected {key_name}<TAB>{value_name}, found {line:?}"
            )));
        };
        let Some(k) = key.parse().ok().filter(|k| keys.contains(k)) else {
            let (lo, hi) = (keys.start(), keys.end());
            return Err(error(format!("{key_name} {key:?} is not {lo}..={hi}")));
        };
        let value = value
            .parse()
            .map_err(|_| error(format!("{value_name} {value:?} is not a number")))?;
        rows.push((k, value));
    }
    if !header {
        return Err(CountsError {
            line: text.lines().count(),
            problem: format!("no \"{key_name}<TAB>{value_name}\" header"),
        });
    }
    Ok(rows)
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
                for start in CardSet::of(&hand).complement().iter() {
                    counts[prepared.value(start, rule) as usize] += 1;
                }
            }
            ScoreCounts(counts)
        })
        .reduce(|| ScoreCounts([0; 30]), |a, b| a.add(&b))
}

#[cfg(test)]
mod tests;
