//! Points split by rule over every (hand, start) pair, for the tables in fixtures/.
//!
//! Nothing here applies a rule. Each rule's points come from [`Breakdown`], which reads the
//! rule functions in `score.rs`: once per multiset of five ranks (fifteens, pairs and runs
//! depend on nothing else) and once per pattern of suits and jacks (flush and nob depend on
//! nothing else). A show's split is then two lookups, so all 12,994,800 pairs take a fraction
//! of a second instead of the seconds that a [`Breakdown`] per pair would.

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::{hands_from, Breakdown, Card, CardSet, CountsError, Hand, Points, Rank, Rule, Suit};

/// The rules of the show, as spec/ names them, in the order of [`RuleTally`]'s arrays.
pub const RULES: [&str; 5] = ["fifteens", "pairs", "runs", "flush", "nob"];

/// What each rule contributes to the shows of one total score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RuleTally {
    /// How many shows have this total.
    pub shows: u64,
    /// For each rule (see [`RULES`]), in how many of those shows it scores at all.
    pub scoring: [u64; 5],
    /// For each rule (see [`RULES`]), its points summed over those shows.
    pub points: [u64; 5],
}

impl RuleTally {
    fn add(&mut self, other: &RuleTally) {
        self.shows += other.shows;
        for r in 0..5 {
            self.scoring[r] += other.scoring[r];
            self.points[r] += other.points[r];
        }
    }
}

/// A [`RuleTally`] for each total score, 0 to 29.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleDistribution(pub [RuleTally; 30]);

impl RuleDistribution {
    /// Returns the tally over every score: all the shows counted.
    pub fn overall(&self) -> RuleTally {
        let mut all = RuleTally::default();
        self.0.iter().for_each(|t| all.add(t));
        all
    }
}

/// Returns, for each total score, how many (hand, start) pairs of a deck have it and what each
/// rule contributes to them, under `rule`.
///
/// The shows per score are those of [`crate::score_distribution`], and each show's points per
/// rule add up to its total (the tests check both against the rule functions).
///
/// # Example
/// ```no_run
/// use crib_core::{rule_distribution, Rule};
/// let tally = rule_distribution(Rule::Hand).0[29];
/// assert_eq!(tally.shows, 4); // 5-5-5-J with the fourth five cut, one per suit of the jack
/// assert_eq!(tally.points, [4 * 16, 4 * 12, 0, 0, 4]);
/// ```
pub fn rule_distribution(rule: Rule) -> RuleDistribution {
    let table = split_table();
    let tallies = (0..49u8)
        .into_par_iter()
        .map(|first| {
            let mut tallies = [RuleTally::default(); 30];
            for hand in hands_from(first) {
                for start in CardSet::of(&hand).complement().iter() {
                    let points = table.points(hand, start, rule);
                    let tally = &mut tallies[usize::from(points.iter().sum::<u8>())];
                    tally.shows += 1;
                    for (r, p) in points.into_iter().enumerate() {
                        tally.scoring[r] += u64::from(p > 0);
                        tally.points[r] += u64::from(p);
                    }
                }
            }
            tallies
        })
        .reduce(
            || [RuleTally::default(); 30],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(a, b)| a.add(b));
                a
            },
        );
    RuleDistribution(tallies)
}

/// Points per rule for every show, read from two tables filled by [`Breakdown`].
struct SplitTable {
    /// Entry `((((r0*13 + r1)*13 + r2)*13 + r3)*13 + r4)` for 0-based ranks in non-decreasing
    /// order: fifteens, pairs and runs of those five ranks. Other entries are unused.
    ranks: Box<[[u8; 3]]>,
    /// Entry [`suit_key`] of a show, then the rule (hand 0, crib 1): flush and nob.
    suits: Box<[[[u8; 2]; 2]]>,
}

impl SplitTable {
    /// Returns the points per rule, in [`RULES`] order, of four distinct hand cards and a
    /// start card not among them.
    fn points(&self, hand: [Card; 4], start: Card, rule: Rule) -> [u8; 5] {
        let mut ranks = [hand[0], hand[1], hand[2], hand[3], start].map(|c| c.index() / 4);
        ranks.sort_unstable();
        let [fifteens, pairs, runs] = self.ranks[rank_key(ranks)];
        let [flush, nob] = self.suits[suit_key(hand, start)][rule as usize];
        [fifteens, pairs, runs, flush, nob]
    }
}

fn rank_key(ranks: [u8; 5]) -> usize {
    ranks.iter().fold(0, |k, &r| k * 13 + r as usize)
}

/// Three bits per card, hand cards first: the suit, and whether the card is a jack.
fn suit_key(hand: [Card; 4], start: Card) -> usize {
    [hand[0], hand[1], hand[2], hand[3], start]
        .iter()
        .enumerate()
        .fold(0, |k, (i, c)| {
            let bits = c.suit().index() as usize | usize::from(c.rank() == Rank::Jack) << 2;
            k | bits << (3 * i)
        })
}

fn split_table() -> &'static SplitTable {
    static TABLE: OnceLock<SplitTable> = OnceLock::new();
    TABLE.get_or_init(|| SplitTable {
        ranks: rank_split(),
        suits: suit_split(),
    })
}

/// Scores one show of each multiset of five ranks: the n-th card of a rank gets the n-th suit.
fn rank_split() -> Box<[[u8; 3]]> {
    let mut table = vec![[0u8; 3]; 13usize.pow(5)].into_boxed_slice();
    let mut ranks = [0u8; 5];
    loop {
        if let Some(points) = show_of_ranks(ranks) {
            table[rank_key(ranks)] = [points.fifteens, points.pairs, points.runs];
        }
        // the next non-decreasing sequence of five ranks 0..13
        let Some(i) = (0..5).rev().find(|&i| ranks[i] < 12) else {
            break;
        };
        let next = ranks[i] + 1;
        ranks[i..].iter_mut().for_each(|r| *r = next);
    }
    table
}

fn show_of_ranks(ranks: [u8; 5]) -> Option<Points> {
    let mut seen = [0u8; 13];
    let cards = ranks.map(|r| {
        let suit = Suit::ALL.get(seen[r as usize] as usize).copied();
        seen[r as usize] += 1;
        Some(Card::new(Rank::ALL[r as usize], suit?))
    });
    let [Some(a), Some(b), Some(c), Some(d), Some(start)] = cards else {
        return None; // five of a rank: no such show
    };
    let hand = Hand::new([a, b, c, d]).ok()?;
    Some(Breakdown::new(&hand, start, Rule::Hand).ok()?.points())
}

/// Scores one show of each [`suit_key`]: a jack where the key says so, otherwise the hand's
/// cards are ace to four and the start a five.
fn suit_split() -> Box<[[[u8; 2]; 2]]> {
    (0..1usize << 15)
        .map(|key| {
            let card = |i: usize, plain: Rank| {
                let bits = key >> (3 * i);
                let rank = if bits & 4 != 0 { Rank::Jack } else { plain };
                Card::new(rank, Suit::ALL[bits & 3])
            };
            let hand = std::array::from_fn(|i| card(i, Rank::ALL[i])); // ace to four
            let start = card(4, Rank::Five);
            let Ok(hand) = Hand::new(hand) else {
                return [[0; 2]; 2]; // two jacks of one suit: no such show
            };
            [Rule::Hand, Rule::Crib].map(|rule| match Breakdown::new(&hand, start, rule) {
                Ok(b) => {
                    let p = b.points();
                    [p.flush, p.nob]
                }
                Err(_) => [0; 2], // the start is a jack in the hand: no such show
            })
        })
        .collect()
}

/// How many ways there are to count fifteen with each number of cards, as spec/fifteens.tsv
/// publishes it: entry `n` is the number of sets of `n` card values adding up to 15.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FifteenWays(pub [usize; 6]);

impl FifteenWays {
    /// Reads spec/fifteens.tsv's format: `#` comment lines, the header `cards<TAB>ways`, then
    /// one `cards<TAB>ways` row per number of cards (2 to 5).
    ///
    /// # Errors
    /// [`CountsError`] with the line number when the header is missing or a row is not two
    /// numbers with cards in 2..=5.
    ///
    /// # Example
    /// ```
    /// let ways = crib_core::FifteenWays::parse("# note\ncards\tways\n2\t3\n5\t28\n")?;
    /// assert_eq!(ways.0, [0, 0, 3, 0, 0, 28]);
    /// # Ok::<(), crib_core::CountsError>(())
    /// ```
    pub fn parse(text: &str) -> Result<FifteenWays, CountsError> {
        let mut ways = [0; 6];
        for (cards, count) in crate::sweep::read_counts(text, ("cards", "ways"), 2..=5)? {
            ways[cards] = count as usize;
        }
        Ok(FifteenWays(ways))
    }
}

#[cfg(test)]
mod tests;
