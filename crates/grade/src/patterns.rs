//! The marked hand_value/3 items: one per rank pattern, its suits and card order drawn from
//! the run's [`Seed`].
//!
//! **Rank patterns.** Fifteens, pairs and runs depend only on ranks. A rank pattern is the
//! multiset of the four hand cards' ranks with the start's rank: there are [`PATTERNS`]
//! (23,647) of them, and every (hand, start) pair has exactly one. Every pattern is asked,
//! so every combination of ranks that can matter for fifteens, pairs and runs is judged.
//!
//! **Suits, stratified.** A pattern's pairs differ by their suits (its *configurations*:
//! which suits each rank's cards have, and the start's suit). Flush and nob depend on them,
//! and they are rare among uniformly drawn configurations (a hand of four distinct ranks is
//! a flush once in 64). So each pattern's configurations are split into the *special* ones
//! (the hand is a four-card flush, or it holds the jack of the start's suit) and the rest,
//! and every pattern is asked once from its ordinary configurations and, with probability at
//! least [`SPECIAL_SHARE`], once more from its special ones: flushes, five-card flushes (a
//! quarter of the flushes), nobs and two-jack hands with one jack of the start's suit become
//! common (about 4,200 of some 27,900 items). Within its stratum a configuration is uniform,
//! and the hand's cards are in a uniformly drawn order.
//!
//! **Weights.** An item stands for `weight` pairs ([`draw`]). The weights of wrong items,
//! summed, are an unbiased estimate of how many of the 12,994,800 pairs the submission gets
//! wrong, and exact for a submission whose answers depend on ranks only (most mistakes), so
//! that its marks are the same under every seed.
//!
//! **Order.** The patterns are asked in a seeded random order, a pattern's items together,
//! so any prefix (a check cut short by its time budget) is a uniform sample of the patterns.

use std::sync::OnceLock;

use crib_core::{Card, Dealer, PreparedHand, Rank, Rule, Suit, PAIRS};

pub use crib_results::PATTERNS;

use crate::seed::Seed;

/// The least probability with which an item is drawn from its pattern's special
/// configurations (four-card flush or his nob), when it has any.
pub const SPECIAL_SHARE: f64 = 1.0 / 3.0;

/// The draws' purposes, for [`Seed::dealer`].
const ORDER: &str = "hand_value-order";
const DRAW: &str = "hand_value-item";

/// One rank pattern with how many pairs it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pattern {
    /// How many hand cards have each rank (index = rank number - 1).
    pub counts: [u8; 13],
    /// The start's rank, 0-based.
    pub start: u8,
    /// How many (hand, start) pairs have this pattern.
    pub pairs: u32,
    /// How many of them are special (four-card flush or his nob).
    pub special: u32,
}

/// One question for the child: a pattern asked as these cards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PatternItem {
    /// The pattern's index in [`patterns`].
    pub pattern: u32,
    /// The four hand cards in the order sent, then the start.
    pub cards: [Card; 5],
    /// How many pairs the item stands for.
    pub weight: f64,
    /// What crib-core answers.
    pub expected: u8,
}

impl PatternItem {
    /// Returns the hand as sent.
    pub fn hand(&self) -> [Card; 4] {
        [self.cards[0], self.cards[1], self.cards[2], self.cards[3]]
    }

    /// Returns the start.
    pub fn start(&self) -> Card {
        self.cards[4]
    }
}

/// Returns every rank pattern, by start rank, then hand ranks. Their pairs add up to
/// [`PAIRS`].
pub(crate) fn patterns() -> &'static [Pattern] {
    static ALL: OnceLock<Vec<Pattern>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::with_capacity(PATTERNS);
        for start in 0..13u8 {
            for a in 0..13u8 {
                for b in a..13 {
                    for c in b..13 {
                        for d in c..13 {
                            let mut counts = [0u8; 13];
                            for r in [a, b, c, d] {
                                counts[r as usize] += 1;
                            }
                            if counts[start as usize] < 4 {
                                out.push(count(counts, start));
                            }
                        }
                    }
                }
            }
        }
        debug_assert_eq!(out.len(), PATTERNS);
        debug_assert_eq!(out.iter().map(|p| u64::from(p.pairs)).sum::<u64>(), PAIRS);
        out
    })
}

/// The 4-bit suit sets with `n` suits.
fn suit_sets(n: u8) -> impl Iterator<Item = u8> {
    (1u8..16).filter(move |m| m.count_ones() == u32::from(n))
}

/// A configuration: the suit set of each hand rank present, then the start's suit.
struct Config {
    /// (rank, suit set) for each rank in the hand.
    ranks: Vec<(u8, u8)>,
    start: u8,
}

impl Config {
    fn special(&self, start_rank: u8) -> bool {
        let flush = self.ranks.len() == 4 && self.ranks.iter().all(|r| r.1 == self.ranks[0].1);
        let jack = Rank::Jack.number() - 1;
        let nob = start_rank != jack
            && self
                .ranks
                .iter()
                .any(|&(r, set)| r == jack && set >> self.start & 1 == 1);
        flush || nob
    }
}

/// Counts a pattern's pairs and special pairs by enumerating its configurations.
fn count(counts: [u8; 13], start: u8) -> Pattern {
    let ranks: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (r, counts[r as usize]))
        .collect();
    let mut pattern = Pattern {
        counts,
        start,
        pairs: 0,
        special: 0,
    };
    let mut config = Config {
        ranks: ranks.iter().map(|&(r, _)| (r, 0)).collect(),
        start: 0,
    };
    fn walk(i: usize, ranks: &[(u8, u8)], config: &mut Config, start: u8, p: &mut Pattern) {
        if i == ranks.len() {
            let taken = config
                .ranks
                .iter()
                .find(|r| r.0 == start)
                .map_or(0, |r| r.1);
            for s in (0..4u8).filter(|s| taken >> s & 1 == 0) {
                config.start = s;
                p.pairs += 1;
                p.special += u32::from(config.special(start));
            }
            return;
        }
        for set in suit_sets(ranks[i].1) {
            config.ranks[i].1 = set;
            walk(i + 1, ranks, config, start, p);
        }
    }
    walk(0, &ranks, &mut config, start, &mut pattern);
    pattern
}

/// Returns a uniformly drawn configuration of `pattern`.
fn draw_config(pattern: &Pattern, dealer: &mut Dealer) -> Config {
    let mut ranks = Vec::with_capacity(4);
    for r in 0..13u8 {
        let n = pattern.counts[r as usize];
        if n > 0 {
            let sets: Vec<u8> = suit_sets(n).collect();
            ranks.push((r, sets[(dealer.next_u64() % sets.len() as u64) as usize]));
        }
    }
    let taken = ranks
        .iter()
        .find(|r| r.0 == pattern.start)
        .map_or(0, |r| r.1);
    let free: Vec<u8> = (0..4u8).filter(|s| taken >> s & 1 == 0).collect();
    let start = free[(dealer.next_u64() % free.len() as u64) as usize];
    Config { ranks, start }
}

/// Returns the probability that `pattern`'s item is drawn from its special configurations.
pub(crate) fn special_probability(pattern: &Pattern) -> f64 {
    if pattern.special == 0 {
        0.0
    } else {
        (f64::from(pattern.special) / f64::from(pattern.pairs)).max(SPECIAL_SHARE)
    }
}

/// Returns the items of pattern `index` drawn for `seed`: one from its ordinary
/// configurations (when it has any), then, with probability [`special_probability`] (always,
/// when it has no ordinary ones), one from its special configurations.
///
/// Their weights make every pattern's estimate unbiased and, for a submission whose answers
/// do not depend on suits, exact: with only the ordinary item, it stands for all the
/// pattern's pairs; with both, the ordinary item stands for `pairs - special / p` and the
/// special one for `special / p`, so that the special pairs are counted at the ordinary
/// item's answer plus, from the special item, the difference its suits make.
pub(crate) fn draw(seed: &Seed, index: u32) -> Vec<PatternItem> {
    let pattern = &patterns()[index as usize];
    let mut dealer = seed.dealer(DRAW, u64::from(index));
    let p = special_probability(pattern);
    let unit = (dealer.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let (pairs, special) = (f64::from(pattern.pairs), f64::from(pattern.special));
    let mut out = Vec::with_capacity(2);
    if pattern.special == pattern.pairs {
        out.push(item(pattern, index, true, pairs, &mut dealer));
    } else if unit < p {
        out.push(item(
            pattern,
            index,
            false,
            pairs - special / p,
            &mut dealer,
        ));
        out.push(item(pattern, index, true, special / p, &mut dealer));
    } else {
        out.push(item(pattern, index, false, pairs, &mut dealer));
    }
    out
}

/// Returns an item of `pattern` (whose index is `index`) from its special configurations or
/// its ordinary ones, standing for `weight` pairs: a configuration drawn uniformly from the
/// stratum (which holds at least one), its hand cards in a uniformly drawn order.
fn item(
    pattern: &Pattern,
    index: u32,
    special: bool,
    weight: f64,
    dealer: &mut Dealer,
) -> PatternItem {
    // Rejection: the stratum holds at least one configuration in 64 of the pattern's.
    let config = loop {
        let config = draw_config(pattern, dealer);
        if config.special(pattern.start) == special {
            break config;
        }
    };
    let card =
        |rank: u8, suit: u8| Card::new(Rank::ALL[rank as usize], Suit::ALL[usize::from(suit)]);
    let mut hand: Vec<Card> = config
        .ranks
        .iter()
        .flat_map(|&(r, set)| {
            (0..4u8)
                .filter(move |s| set >> s & 1 == 1)
                .map(move |s| card(r, s))
        })
        .collect();
    for i in 0..3 {
        let j = i + (dealer.next_u64() % (4 - i) as u64) as usize;
        hand.swap(i, j);
    }
    let start = card(pattern.start, config.start);
    let hand = [hand[0], hand[1], hand[2], hand[3]];
    PatternItem {
        pattern: index,
        cards: [hand[0], hand[1], hand[2], hand[3], start],
        weight,
        expected: PreparedHand::from_cards(hand).value(start, Rule::Hand),
    }
}

/// Returns every pattern's items for `seed` ([`draw`]), the patterns in the seeded order they
/// are asked in.
pub(crate) fn items(seed: &Seed) -> Vec<PatternItem> {
    let n = patterns().len();
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut dealer = seed.dealer(ORDER, 0);
    for i in 0..n.saturating_sub(1) {
        let j = i + (dealer.next_u64() % (n - i) as u64) as usize;
        order.swap(i, j);
    }
    order.into_iter().flat_map(|i| draw(seed, i)).collect()
}

/// Returns how many of `items` (in the order asked) belong to their first `patterns` rank
/// patterns.
pub(crate) fn items_of_first(items: &[PatternItem], patterns: usize) -> usize {
    let (mut seen, mut last) = (0, None);
    for (k, item) in items.iter().enumerate() {
        if last != Some(item.pattern) {
            if seen == patterns {
                return k;
            }
            (seen, last) = (seen + 1, Some(item.pattern));
        }
    }
    items.len()
}

/// Returns how many rank patterns have at least one of `items` answered.
pub(crate) fn patterns_answered<T>(items: &[PatternItem], answers: &[Option<T>]) -> usize {
    distinct(
        items
            .iter()
            .zip(answers)
            .filter(|(_, got)| got.is_some())
            .map(|(i, _)| i),
    )
}

/// Returns how many rank patterns `items` are drawn from.
pub(crate) fn patterns_in(items: &[PatternItem]) -> usize {
    distinct(items.iter())
}

fn distinct<'a>(items: impl Iterator<Item = &'a PatternItem>) -> usize {
    let mut seen = vec![false; PATTERNS];
    items
        .filter(|i| !std::mem::replace(&mut seen[i.pattern as usize], true))
        .count()
}

/// Returns the batch file for `items`: 5 bytes each, the card indices as sent.
pub(crate) fn batch_bytes(items: &[PatternItem]) -> Vec<u8> {
    items
        .iter()
        .flat_map(|item| item.cards.map(|c| c.index()))
        .collect()
}

#[cfg(test)]
mod tests;
