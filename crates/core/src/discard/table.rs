//! The exhaustive discard table: the best keep of every deal of the deck, by expected hand
//! value (the assignment's rule, as [`crate::select_hand`]).
//!
//! Relabelling the suits changes no score: fifteens, pairs and runs look only at ranks, and a
//! flush or a nob only asks whether two cards share a suit. So the 24 permutations of the
//! suits split the deals into classes whose deals all have the same best keep value. A deal is
//! the four sets of ranks it holds in each suit; its class is the multiset of those four sets.
//! Each class is visited once, through its canonical deal (rank sets sorted into suit order,
//! clubs first), and counted as many times as it has deals: 24 divided by the number of
//! suit permutations that only swap equal rank sets.

use rayon::prelude::*;

use crate::score::PreparedHand;
use crate::select::keep_positions;
use crate::{Card, CardError, CardSet, Rank, Rule};

/// How many of the most and of the least valuable classes a [`DiscardSummary`] lists.
const EXTREMES: usize = 10;

/// One suit-symmetry class of deals: a representative deal and how many deals it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealClass {
    /// The class's canonical deal, in card index order.
    pub cards: Vec<Card>,
    /// How many deals of the deck are the same deal with suits relabelled (1 to 24).
    pub deals: u64,
    /// The best keep's hand value summed over every start card not dealt (as
    /// [`Keep::total`](crate::Keep::total) of [`crate::select_hand`]'s best keep).
    pub best_total: u32,
}

/// How much the best keep of every deal is worth: the distribution of the best total over all
/// deals of a given size, and the most and least valuable deals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscardSummary {
    /// Cards per deal: 5 or 6.
    pub deal_size: usize,
    /// Start cards possible for every deal: 52 − `deal_size`.
    pub starts: u32,
    /// How many deals were counted: C(52, `deal_size`) for the full deck.
    pub deals: u64,
    /// How many suit-symmetry classes were valued to count them.
    pub classes: u64,
    /// Entry `t` is the number of deals whose best keep totals `t` points over its start
    /// cards (expected value `t / starts`).
    pub best_totals: Vec<u64>,
    /// The most valuable classes, best first (ties by cards in index order), at most 10.
    pub most: Vec<DealClass>,
    /// The least valuable classes, worst first (ties by cards in index order), at most 10.
    pub least: Vec<DealClass>,
}

impl DiscardSummary {
    /// Returns the best total summed over every deal (exact).
    pub fn sum_of_best_totals(&self) -> u64 {
        self.best_totals
            .iter()
            .enumerate()
            .map(|(t, n)| t as u64 * n)
            .sum()
    }

    /// Returns the mean over all deals of the best keep's expected hand value:
    /// `sum_of_best_totals / (deals × starts)` (0 when there are no deals).
    pub fn mean(&self) -> f64 {
        if self.deals == 0 {
            0.0
        } else {
            self.sum_of_best_totals() as f64 / (self.deals as f64 * f64::from(self.starts))
        }
    }

    fn empty(deal_size: usize) -> DiscardSummary {
        let starts = 52 - deal_size as u32;
        DiscardSummary {
            deal_size,
            starts,
            deals: 0,
            classes: 0,
            best_totals: vec![0; 29 * starts as usize + 1],
            most: Vec::new(),
            least: Vec::new(),
        }
    }

    fn merge(mut self, other: DiscardSummary) -> DiscardSummary {
        self.deals += other.deals;
        self.classes += other.classes;
        for (a, b) in self.best_totals.iter_mut().zip(&other.best_totals) {
            *a += b;
        }
        for class in other.most {
            offer(&mut self.most, class, true);
        }
        for class in other.least {
            offer(&mut self.least, class, false);
        }
        self
    }

    fn add(&mut self, cards: &[Card], deals: u64, best_total: u32) {
        self.deals += deals;
        self.classes += 1;
        self.best_totals[best_total as usize] += deals;
        for (list, most) in [(&mut self.most, true), (&mut self.least, false)] {
            if list.len() < EXTREMES || better(best_total, cards, list.last(), most) {
                let class = DealClass {
                    cards: cards.to_vec(),
                    deals,
                    best_total,
                };
                offer(list, class, most);
            }
        }
    }
}

/// Whether a class with `total` and `cards` comes before `than` in the most (or least)
/// valuable list.
fn better(total: u32, cards: &[Card], than: Option<&DealClass>, most: bool) -> bool {
    let Some(than) = than else { return true };
    let by_total = if most {
        than.best_total.cmp(&total)
    } else {
        total.cmp(&than.best_total)
    };
    by_total.then_with(|| cards.cmp(&than.cards)).is_lt()
}

/// Inserts `class` in order into `list` and keeps the first [`EXTREMES`].
fn offer(list: &mut Vec<DealClass>, class: DealClass, most: bool) {
    let at = list
        .iter()
        .position(|c| better(class.best_total, &class.cards, Some(c), most))
        .unwrap_or(list.len());
    list.insert(at, class);
    list.truncate(EXTREMES);
}

/// Returns the summary of the best keep of every deal of `deal_size` (5 or 6) cards from the
/// whole deck: C(52,6) = 20,358,520 deals or C(52,5) = 2,598,960. Runs in parallel (rayon);
/// about a second for six cards on two cores.
///
/// # Errors
/// [`CardError::Count`] unless `deal_size` is 5 or 6.
///
/// # Example
/// ```no_run
/// let five = crib_core::discard_summary(5)?;
/// assert_eq!(five.deals, 2_598_960);
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn discard_summary(deal_size: usize) -> Result<DiscardSummary, CardError> {
    discard_summary_over(deal_size, &Rank::ALL)
}

/// Returns the summary (as [`discard_summary`]) of the deals drawn only from the cards of
/// `ranks`, in all four suits. Start cards still range over the whole deck. A rank given twice
/// counts once. This is a slice of the full table that can be checked deal by deal.
///
/// # Errors
/// [`CardError::Count`] unless `deal_size` is 5 or 6.
///
/// # Example
/// ```
/// use crib_core::{discard_summary_over, Rank};
/// let s = discard_summary_over(6, &[Rank::Four, Rank::Five, Rank::Six])?;
/// assert_eq!(s.deals, 924); // C(12, 6)
/// assert!(s.classes < s.deals);
/// assert!(discard_summary_over(4, &[Rank::Five]).is_err());
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn discard_summary_over(deal_size: usize, ranks: &[Rank]) -> Result<DiscardSummary, CardError> {
    if !(5..=6).contains(&deal_size) {
        return Err(CardError::Count {
            expected: "5 or 6",
            got: deal_size,
        });
    }
    let allowed = ranks.iter().fold(0u16, |m, r| m | 1 << (r.number() - 1));
    let sets = RankSets::new(allowed, deal_size as u32);
    crate::rank_table(); // build once, outside the parallel part
    let summary = (0..sets.list.len())
        .into_par_iter()
        .filter(|&i| 4 * sets.list[i].count_ones() >= deal_size as u32)
        .fold(
            || DiscardSummary::empty(deal_size),
            |mut summary, first| {
                sets.classes_from(first, deal_size as u32, |masks, deals| {
                    let mut cards = [Card::from_index(0).expect("0 < 52"); 6];
                    let n = deal_of(masks, &mut cards);
                    let deal = &cards[..n];
                    summary.add(deal, deals, best_total(deal));
                });
                summary
            },
        )
        .reduce(|| DiscardSummary::empty(deal_size), DiscardSummary::merge);
    Ok(summary)
}

/// Every set of allowed ranks that one suit of a deal can hold (as 13-bit masks, bit `r` for
/// 0-based rank `r`), sorted by size, largest first, then by mask, greatest first.
struct RankSets {
    list: Vec<u16>,
    /// `start[p]..end[p]` are the positions in `list` of the sets of `p` ranks.
    start: [usize; 8],
    end: [usize; 8],
}

impl RankSets {
    fn new(allowed: u16, max_size: u32) -> RankSets {
        let mut list: Vec<u16> = (0..1u16 << 13)
            .filter(|m| m & !allowed == 0 && m.count_ones() <= max_size)
            .collect();
        list.sort_by(|a, b| (b.count_ones(), b).cmp(&(a.count_ones(), a)));
        // Largest first: the sets of `p` ranks start at the first set of fewer than `p + 1`.
        let first_below = |p: usize| list.partition_point(|m| m.count_ones() as usize >= p);
        let start = std::array::from_fn(|p| first_below(p + 1));
        let end = std::array::from_fn(first_below);
        RankSets { list, start, end }
    }

    /// Positions in `list` of the sets of `size` ranks, from position `from` on.
    fn of_size(&self, size: u32, from: usize) -> std::ops::Range<usize> {
        let p = size as usize;
        self.start[p].max(from)..self.end[p]
    }

    /// Calls `f` with the four rank sets (clubs to spades) of every class of deals of `n`
    /// cards whose clubs hold `list[first]`, and the number of deals in the class.
    fn classes_from(&self, first: usize, n: u32, mut f: impl FnMut([u16; 4], u64)) {
        let mut picked = [first; 4];
        self.pick(&mut picked, 1, n - self.list[first].count_ones(), &mut f);
    }

    /// Picks positions `level..4` of `picked`, non-decreasing, so that the sets hold `left`
    /// ranks between them.
    fn pick(
        &self,
        picked: &mut [usize; 4],
        level: usize,
        left: u32,
        f: &mut impl FnMut([u16; 4], u64),
    ) {
        let prev = picked[level - 1];
        if level == 3 {
            for i in self.of_size(left, prev) {
                picked[3] = i;
                f(picked.map(|i| self.list[i]), orbit_size(picked));
            }
            return;
        }
        let suits_left = (4 - level) as u32;
        let largest = self.list[prev].count_ones().min(left);
        for size in left.div_ceil(suits_left)..=largest {
            for i in self.of_size(size, prev) {
                picked[level] = i;
                self.pick(picked, level + 1, left - size, f);
            }
        }
    }
}

/// The number of distinct deals the suit permutations make of a deal whose suits hold the
/// sets at sorted positions `picked`: 24 over the product of factorials of repeats.
fn orbit_size(picked: &[usize; 4]) -> u64 {
    let mut stabiliser = 1;
    let mut run = 1;
    for w in picked.windows(2) {
        if w[0] == w[1] {
            run += 1;
            stabiliser *= run;
        } else {
            run = 1;
        }
    }
    24 / stabiliser
}

/// Writes the cards of the deal whose suits hold `masks` (clubs first) into `out`, in index
/// order, and returns how many there are.
fn deal_of(masks: [u16; 4], out: &mut [Card; 6]) -> usize {
    let mut n = 0;
    for r in 0..13u8 {
        for (s, m) in masks.iter().enumerate() {
            if m >> r & 1 == 1 {
                out[n] = Card::from_index(4 * r + s as u8).expect("rank < 13, suit < 4");
                n += 1;
            }
        }
    }
    n
}

/// Returns the greatest hand total over the start cards not dealt, among every keep of four
/// of `deal` (5 or 6 distinct cards): [`crate::select_hand`]'s best total, without allocating.
fn best_total(deal: &[Card]) -> u32 {
    let starts = CardSet::of(deal).complement();
    keep_positions(deal.len())
        .iter()
        .map(|(kept, _)| {
            PreparedHand::from_cards(kept.map(|i| deal[i])).total_over(starts, Rule::Hand)
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests;
