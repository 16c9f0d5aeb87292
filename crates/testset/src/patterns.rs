//! The marked hand_value/3 items: one per rank pattern, its suits and card order drawn from
//! the run's [`Seed`]. Why they are drawn so: docs/DESIGN.md, "hand_value/3: every rank
//! pattern".
//!
//! Every one of the [`PATTERNS`] rank patterns (the multiset of the hand's ranks with the
//! start's: every (hand, start) pair has exactly one) is asked once from its ordinary suit
//! configurations and, with probability at least [`SPECIAL_SHARE`], once more from its
//! special ones (a four-card flush, or the jack of the start's suit), the classes drawn by
//! systematic sampling (`draws`). An item stands for `weight` pairs (`draw`): the weights of
//! wrong items estimate without bias how many pairs a submission gets wrong, exactly when its
//! answers depend on ranks only. The patterns are asked in a seeded order, a pattern's items
//! together, so any prefix is a uniform sample of the patterns.

use std::sync::OnceLock;

use rayon::prelude::*;

use crib_core::{Card, Dealer, PreparedHand, Rank, Rule, Suit, PAIRS};

pub(crate) use crib_results::PATTERNS;

use crate::seed::Seed;

/// The least probability with which an item is drawn from its pattern's special
/// configurations (four-card flush or his nob), when it has any.
pub const SPECIAL_SHARE: f64 = 1.0 / 3.0;

/// The draws' purposes, for [`Seed::dealer`].
const ORDER: &str = "hand_value-order";
const DRAW: &str = "hand_value-item";
const SPECIAL: &str = "hand_value-special";
const FLUSH: &str = "hand_value-flush";
const FIVE: &str = "hand_value-five";
const NOB_FLUSH: &str = "hand_value-nob-flush";
const NOB_THREE: &str = "hand_value-nob-three";
const THREE: &str = "hand_value-three";

/// One rank pattern with how many pairs it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pattern {
    /// How many hand cards have each rank (index = rank number - 1).
    pub counts: [u8; 13],
    /// The start's rank, 0-based.
    pub start: u8,
    /// How many (hand, start) pairs have this pattern.
    pub pairs: u32,
    /// How many of them are special (four-card flush or his nob).
    pub special: u32,
    /// How many of the special ones are a flush (of four or five cards) without his nob.
    pub flush_only: u32,
    /// How many of those are a five-card flush.
    pub flush5: u32,
    /// How many of the special ones are his nob with a flush (of five cards: the jack is of
    /// the start's suit).
    pub nob_flush: u32,
    /// How many of the special ones are his nob, not a flush, with exactly three hand cards
    /// of the start's suit.
    pub nob_three: u32,
    /// How many of the ordinary ones have exactly three hand cards of the start's suit.
    pub three: u32,
}

impl Pattern {
    /// How many of its pairs are ordinary (not special).
    pub fn ordinary(&self) -> u32 {
        self.pairs - self.special
    }
}

/// One question for the child: a pattern asked as these cards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatternItem {
    /// The pattern's index in `patterns`.
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
        let mut shapes = Vec::with_capacity(PATTERNS);
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
                                shapes.push((counts, start));
                            }
                        }
                    }
                }
            }
        }
        // Counting a pattern's configurations is the work, and patterns with one count key
        // ([`count_key`]) count alike: each key once, on every core, then each pattern its key's.
        let keys: Vec<CountKey> = shapes
            .iter()
            .map(|&(counts, start)| count_key(counts, start))
            .collect();
        let mut firsts: Vec<(CountKey, usize)> = Vec::new();
        let mut seen = std::collections::HashMap::new();
        for (i, k) in keys.iter().enumerate() {
            seen.entry(*k).or_insert_with(|| {
                firsts.push((*k, i));
                firsts.len() - 1
            });
        }
        let counted = firsts
            .par_iter()
            .map(|&(_, i)| {
                let (counts, start) = shapes[i];
                count(counts, start)
            })
            .collect::<Vec<_>>();
        let out: Vec<Pattern> = shapes
            .iter()
            .zip(&keys)
            .map(|(&(counts, start), k)| Pattern {
                counts,
                start,
                ..counted[seen[k]]
            })
            .collect();
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

/// The classes of a pattern's configurations that its items are drawn from: the special
/// stratum is [`SuitKind::Nob`], [`SuitKind::NobFlush`], [`SuitKind::NobThree`], [`SuitKind::Flush4`]
/// and [`SuitKind::Flush5`], the ordinary one [`SuitKind::Three`] and [`SuitKind::Plain`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SuitKind {
    /// His nob, without a flush.
    Nob,
    /// His nob, in a five-card flush.
    NobFlush,
    /// His nob, not a flush, with exactly three hand cards of the start's suit.
    NobThree,
    /// A four-card flush (the start of another suit), without his nob.
    Flush4,
    /// A five-card flush, without his nob.
    Flush5,
    /// Neither, with exactly three hand cards of the start's suit.
    Three,
    /// The rest.
    Plain,
}

impl SuitKind {
    fn special(self) -> bool {
        !matches!(self, SuitKind::Three | SuitKind::Plain)
    }
}

impl Config {
    fn class(&self, start_rank: u8) -> SuitKind {
        let jack = Rank::Jack.number() - 1;
        let nob = start_rank != jack
            && self
                .ranks
                .iter()
                .any(|&(r, set)| r == jack && set >> self.start & 1 == 1);
        let flush = self.ranks.len() == 4 && self.ranks.iter().all(|r| r.1 == self.ranks[0].1);
        let of_start: u32 = self
            .ranks
            .iter()
            .map(|&(_, set)| u32::from(set >> self.start & 1))
            .sum();
        if nob && flush {
            SuitKind::NobFlush
        } else if nob && of_start == 3 {
            SuitKind::NobThree
        } else if nob {
            SuitKind::Nob
        } else if flush && of_start == 4 {
            SuitKind::Flush5
        } else if flush {
            SuitKind::Flush4
        } else if of_start == 3 {
            SuitKind::Three
        } else {
            SuitKind::Plain
        }
    }
}

/// What a pattern's counts ([`count`]) depend on: for each rank of the hand, sorted, how
/// many cards it has, whether it is the jack and whether it is the start's rank; and whether
/// the start is a jack. A configuration's [`SuitKind`] ([`Config::class`]) reads ranks only through
/// these (his nob: a hand jack of the start's suit when the start is no jack; the flush and
/// the cards of the start's suit: suit sets alone; the start's suit: not one its rank holds in
/// the hand), so two patterns with one key have the same counts.
type CountKey = ([(u8, bool, bool); 4], bool);

/// Returns the [`CountKey`] of the pattern of hand rank `counts` and start rank `start`.
fn count_key(counts: [u8; 13], start: u8) -> CountKey {
    let jack = Rank::Jack.number() - 1;
    let mut ranks = [(0u8, false, false); 4];
    for (slot, r) in ranks
        .iter_mut()
        .zip((0..13u8).filter(|&r| counts[r as usize] > 0))
    {
        *slot = (counts[r as usize], r == jack, r == start);
    }
    ranks.sort_unstable();
    (ranks, start == jack)
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
        ..Pattern::default()
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
                let class = config.class(start);
                p.pairs += 1;
                p.special += u32::from(class.special());
                p.flush_only += u32::from(matches!(class, SuitKind::Flush4 | SuitKind::Flush5));
                p.flush5 += u32::from(class == SuitKind::Flush5);
                p.nob_flush += u32::from(class == SuitKind::NobFlush);
                p.nob_three += u32::from(class == SuitKind::NobThree);
                p.three += u32::from(class == SuitKind::Three);
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

/// How one pattern is asked: whether it gets a special item, and the class of each item's
/// configuration ([`draws`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Draw {
    /// The ordinary item's class ([`SuitKind::Three`] or [`SuitKind::Plain`]).
    ordinary: SuitKind,
    /// The special item's class (one of the special stratum's), if it has one.
    special: Option<SuitKind>,
}

/// Returns the items of pattern `index` drawn for `seed` as `how` says: one from its ordinary
/// configurations (when it has any), then, when it gets one (always, when it has no ordinary
/// configurations), one from its special configurations.
///
/// Their weights make every pattern's estimate unbiased and, for a submission whose answers
/// do not depend on suits, exact: with only the ordinary item, it stands for all the
/// pattern's pairs; with both, the ordinary item stands for `pairs - special / p` and the
/// special one for `special / p`, so that the special pairs are counted at the ordinary
/// item's answer plus, from the special item, the difference its suits make.
fn draw(seed: &Seed, index: u32, how: Draw) -> Vec<PatternItem> {
    let pattern = &patterns()[index as usize];
    let mut dealer = seed.dealer(DRAW, u64::from(index));
    let (pairs, specials) = (f64::from(pattern.pairs), f64::from(pattern.special));
    match how.special {
        Some(class) if pattern.special == pattern.pairs => {
            vec![item(pattern, index, class, pairs, &mut dealer)]
        }
        Some(class) => {
            let p = special_probability(pattern);
            vec![
                item(
                    pattern,
                    index,
                    how.ordinary,
                    pairs - specials / p,
                    &mut dealer,
                ),
                item(pattern, index, class, specials / p, &mut dealer),
            ]
        }
        None => vec![item(pattern, index, how.ordinary, pairs, &mut dealer)],
    }
}

/// Returns how each pattern is asked under `seed`: whether it gets a special item (with
/// probability [`special_probability`], always when all its pairs are special), and each
/// item's class, with the probability of its share of the stratum's pairs; each drawn by
/// systematic sampling ([`systematic`]). Within its class a configuration is uniform, so each
/// item's configuration is uniform in its stratum, as one draw would make it; but how many
/// patterns of each kind get a special item, a flush or three cards of the start's suit is
/// fixed up to one, not left to chance, so a mistake on suits gets nearly the same estimate
/// under every seed.
pub(crate) fn draws(seed: &Seed) -> Vec<Draw> {
    let all = patterns();
    let jack = Rank::Jack.number() - 1;
    let both = |p: &Pattern| p.special > 0 && p.special < p.pairs;
    let special_key = |p: &Pattern| {
        let nob = p.start != jack && p.counts[jack as usize] > 0;
        let flush = p.counts.iter().filter(|&&n| n > 0).count() == 4;
        let stands_for = f64::from(p.special) / special_probability(p);
        (u8::from(nob) * 2 + u8::from(flush)) as f64 * 1e9 + stands_for
    };
    let chances = (0..all.len() as u32)
        .filter(|&i| both(&all[i as usize]))
        .map(|i| {
            let p = &all[i as usize];
            (i, special_probability(p), special_key(p))
        });
    let mut gets_special = systematic(&mut seed.dealer(SPECIAL, 0), chances, all.len());
    for (i, p) in all.iter().enumerate() {
        gets_special[i] |= p.special == p.pairs;
    }
    // The special item's class, drawn among the patterns `among` with the probability
    // `share` gives, in order of what the special item stands for.
    let class = |purpose: &str, among: &dyn Fn(usize) -> bool, share: fn(&Pattern) -> f64| {
        let chances = (0..all.len() as u32)
            .filter(|&i| among(i as usize))
            .map(|i| {
                let p = &all[i as usize];
                (i, share(p), f64::from(p.special) / special_probability(p))
            });
        systematic(&mut seed.dealer(purpose, 0), chances, all.len())
    };
    let flush = class(FLUSH, &|i| gets_special[i], |p| {
        f64::from(p.flush_only) / f64::from(p.special)
    });
    let five = class(FIVE, &|i| flush[i], |p| {
        f64::from(p.flush5) / f64::from(p.flush_only)
    });
    let nob_flush = class(NOB_FLUSH, &|i| gets_special[i] && !flush[i], |p| {
        f64::from(p.nob_flush) / f64::from(p.special - p.flush_only)
    });
    let nob_three = class(
        NOB_THREE,
        &|i| gets_special[i] && !flush[i] && !nob_flush[i],
        |p| f64::from(p.nob_three) / f64::from(p.special - p.flush_only - p.nob_flush),
    );
    let chances = (0..all.len() as u32)
        .filter(|&i| all[i as usize].ordinary() > 0)
        .map(|i| {
            let p = &all[i as usize];
            let stands_for = if gets_special[i as usize] {
                f64::from(p.pairs) - f64::from(p.special) / special_probability(p)
            } else {
                f64::from(p.pairs)
            };
            (i, f64::from(p.three) / f64::from(p.ordinary()), stands_for)
        });
    let three = systematic(&mut seed.dealer(THREE, 0), chances, all.len());
    (0..all.len())
        .map(|i| Draw {
            ordinary: if three[i] {
                SuitKind::Three
            } else {
                SuitKind::Plain
            },
            special: gets_special[i].then_some(
                match (flush[i], five[i], nob_flush[i], nob_three[i]) {
                    (true, true, _, _) => SuitKind::Flush5,
                    (true, false, _, _) => SuitKind::Flush4,
                    (false, _, true, _) => SuitKind::NobFlush,
                    (false, _, false, true) => SuitKind::NobThree,
                    (false, _, false, false) => SuitKind::Nob,
                },
            ),
        })
        .collect()
}

/// Systematic sampling (Madow's): draws each of `chances` (an index below `n`, a probability
/// in [0, 1], a sort key) with its own probability. They are taken in a seeded order sorted
/// by key, and one is drawn when the running sum of the probabilities, from a seeded start in
/// [0, 1), passes a whole number within it. So among chances of similar keys the share drawn
/// is fixed up to one, where independent draws would leave it to chance. Returns whether
/// each index was drawn (false for those not given).
fn systematic(
    dealer: &mut Dealer,
    chances: impl Iterator<Item = (u32, f64, f64)>,
    n: usize,
) -> Vec<bool> {
    let mut chances: Vec<(u32, f64, f64)> = chances.collect();
    dealer.shuffle(&mut chances);
    chances.sort_by(|a, b| a.2.total_cmp(&b.2));
    let mut drawn = vec![false; n];
    let mut sum = dealer.next_unit();
    for (i, p, _) in chances {
        let next = sum + p;
        drawn[i as usize] = next.floor() > sum.floor();
        sum = next;
    }
    drawn
}

/// Returns an item of `pattern` (whose index is `index`) from its configurations of `class`
/// (which holds at least one), standing for `weight` pairs: a configuration drawn uniformly
/// from the class, its hand cards in a uniformly drawn order.
fn item(
    pattern: &Pattern,
    index: u32,
    class: SuitKind,
    weight: f64,
    dealer: &mut Dealer,
) -> PatternItem {
    // Rejection: a class that a pattern has holds at least one of its configurations in
    // a few hundred.
    let config = loop {
        let config = draw_config(pattern, dealer);
        if config.class(pattern.start) == class {
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
    dealer.shuffle(&mut hand);
    let start = card(pattern.start, config.start);
    let hand = [hand[0], hand[1], hand[2], hand[3]];
    PatternItem {
        pattern: index,
        cards: [hand[0], hand[1], hand[2], hand[3], start],
        weight,
        expected: PreparedHand::from_cards(hand).value(start, Rule::Hand),
    }
}

/// Returns every pattern's items for `seed` (`draw`), the patterns in the seeded order they
/// are asked in.
pub fn items(seed: &Seed) -> Vec<PatternItem> {
    let mut order: Vec<u32> = (0..patterns().len() as u32).collect();
    seed.dealer(ORDER, 0).shuffle(&mut order);
    let how = draws(seed);
    // Each pattern's items come from a dealer of its own: drawn on every core, kept in order.
    let drawn: Vec<Vec<PatternItem>> = order
        .par_iter()
        .map(|&i| draw(seed, i, how[i as usize]))
        .collect();
    drawn.into_iter().flatten().collect()
}

/// Returns how many of `items` (in the order asked) belong to their first `patterns` rank
/// patterns.
pub fn items_of_first(items: &[PatternItem], patterns: usize) -> usize {
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
pub fn patterns_answered<T>(items: &[PatternItem], answers: &[Option<T>]) -> usize {
    distinct(
        items
            .iter()
            .zip(answers)
            .filter(|(_, got)| got.is_some())
            .map(|(i, _)| i),
    )
}

/// Returns how many rank patterns `items` are drawn from.
pub fn patterns_in(items: &[PatternItem]) -> usize {
    distinct(items.iter())
}

fn distinct<'a>(items: impl Iterator<Item = &'a PatternItem>) -> usize {
    let mut seen = vec![false; PATTERNS];
    items
        .filter(|i| !std::mem::replace(&mut seen[i.pattern as usize], true))
        .count()
}

/// Returns the batch file for `items`: 5 bytes each, the card indices as sent.
pub fn batch_bytes(items: &[PatternItem]) -> Vec<u8> {
    five_card_bytes(items.iter().map(|item| item.cards))
}

/// Returns the batch file of hand_value questions (the marked check's and the deep check's):
/// 5 bytes each, the four hand cards then the start, each card's index (0..52).
pub fn five_card_bytes(questions: impl IntoIterator<Item = [Card; 5]>) -> Vec<u8> {
    questions
        .into_iter()
        .flat_map(|cards| cards.map(|c| c.index()))
        .collect()
}

#[cfg(test)]
mod tests;
