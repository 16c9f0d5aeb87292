//! The parts of a hand's points that a wrong hand_value/3 leaves out or counts twice, and
//! what a select_hand/3 built on such a hand_value chooses (why: docs/DESIGN.md, "The models
//! of mistakes").
//!
//! Every part is read from crib-core's [`Breakdown`] of the show (fifteens, pairs and runs,
//! which depend on ranks only, once per rank pattern) or from the suits (flush and nob): the
//! rules stay written once. The mistakes are crib-results' [`RuleMistake`]s, the one
//! vocabulary of hand_value mistakes: those valued from the ranks alone ([`RANK_MISTAKES`])
//! or from the order of the hand's cards ([`ORDER_MISTAKES`]) make the select_hand models
//! here, and [`rules`] counts each rule of a hand_value item the way each of them does, for
//! the marked check's diagnosis and the catalog's hand_value mistakes.

use std::sync::OnceLock;

use crib_core::{Breakdown, Card, CardSet, Hand, Rank, Rule};
use crib_results::{Area, RuleMistake};

/// One part of a show's points: a rule, or the points of a rule that come from sets of cards
/// of one kind (with the start card, with a face, ...); or points a mistake adds
/// ([`Part::is_gain`]). Parts overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Every fifteen.
    Fifteens,
    /// The fifteens that use the start card.
    FifteensWithStart,
    /// The fifteens with an ace.
    FifteensWithAce,
    /// The fifteens with a jack, queen or king.
    FifteensWithFace,
    /// The fifteens with a ten.
    FifteensWithTen,
    /// The fifteens of three cards or more.
    FifteensOfThreePlus,
    /// The fifteens of four cards or more.
    FifteensOfFourPlus,
    /// The fifteens with two cards of the same value.
    FifteensWithRepeatedValue,
    /// Every pair.
    Pairs,
    /// The pairs with the start card.
    PairsWithStart,
    /// The pairs within three or four of a kind.
    PairsInTrips,
    /// Every run.
    Runs,
    /// The runs that use the start card.
    RunsWithStart,
    /// The runs of a show with more than one run (double and triple runs).
    RunsSeveral,
    /// The runs of four or five cards.
    RunsOfFourPlus,
    /// The runs with a jack, queen or king.
    RunsWithFace,
    /// The runs with an ace.
    RunsWithAce,
    /// A four-card flush (the start of another suit).
    Flush4,
    /// A five-card flush.
    Flush5,
    /// His nob.
    Nob,
    /// Every flush, of four cards or five.
    Flush,
    /// Not in the rules: the four points of a flush made of three hand cards and the start.
    FlushOfThreeAndStart,
    /// Not in the rules: one point for a jack in the hand when none is the start's suit.
    NobOtherJack,
}

/// How many parts depend on ranks only (the first ones of [`Part::ALL`]).
const RANK_PARTS: usize = Part::Flush4.index();
/// A row of the rank table: the rank parts' points, then each rank mistake's fifteens, pairs
/// and runs.
const ROW: usize = RANK_PARTS + RANK_MISTAKES.len();

impl Part {
    /// Every part: first those that depend on ranks only, then flush and nob.
    pub const ALL: [Part; 23] = [
        Part::Fifteens,
        Part::FifteensWithStart,
        Part::FifteensWithAce,
        Part::FifteensWithFace,
        Part::FifteensWithTen,
        Part::FifteensOfThreePlus,
        Part::FifteensOfFourPlus,
        Part::FifteensWithRepeatedValue,
        Part::Pairs,
        Part::PairsWithStart,
        Part::PairsInTrips,
        Part::Runs,
        Part::RunsWithStart,
        Part::RunsSeveral,
        Part::RunsOfFourPlus,
        Part::RunsWithFace,
        Part::RunsWithAce,
        Part::Flush4,
        Part::Flush5,
        Part::Nob,
        Part::Flush,
        Part::FlushOfThreeAndStart,
        Part::NobOtherJack,
    ];

    /// Returns whether the part is points the rules do not give, that a mistake adds.
    pub const fn is_gain(self) -> bool {
        matches!(self, Part::FlushOfThreeAndStart | Part::NobOtherJack)
    }

    /// Returns the part's place in [`Part::ALL`] and in [`PartPoints`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Each part's points of one show, in the order of [`Part::ALL`].
pub type PartPoints = [u32; Part::ALL.len()];

/// The hand_value mistakes that change which sets of cards score, not only how many of them
/// count, in the order of the rank table's columns and of [`MistakePoints`]: each written
/// with crib-core's rules given other card values or rank numbers
/// ([`crib_core::fifteen_sets`], [`crib_core::run_sets`]) and valued from the ranks alone
/// (`rank_points`). A select_hand/3 built on one is [`crate::Strategy::Mistaken`].
pub const RANK_MISTAKES: [RuleMistake; 19] = {
    use RuleMistake::*;
    [
        FifteensAceEleven,
        FifteensFacesByRank,
        FifteensTensIgnored,
        FifteensDistinctValues,
        FifteensOnce,
        FifteensOnePoint,
        PairsOnePoint,
        RunsAceHigh,
        RunsFacesAsTen,
        RunsOnePointEach,
        RunsLengthMinusOne,
        RunsWrapAround,
        RunsEverySubrun,
        RunsOnlyThree,
        RunsContiguousOnly,
        RunsDistinctRanks,
        RunsNoStart,
        RunsFiveAsTwoFours,
        PairsAdjacentOnly,
    ]
};

/// The hand_value mistakes of a suit rule that depend on the order of the hand's four cards
/// ([`order_points`]). A select_hand/3 built on such a hand value passes each keep in the
/// order the cards were dealt (as choosing four of the list, `subset/2`-style, keeps them),
/// so which keeps it prefers depends on the order of the cards in the goal as well as on the
/// cards. A select_hand/3 built on one is [`crate::Strategy::OrderMistaken`].
pub const ORDER_MISTAKES: [RuleMistake; 2] = [
    RuleMistake::NobFirstCardSuit,
    RuleMistake::FlushStartAsHandCard,
];

/// Each mistake's place in [`RANK_MISTAKES`], by the mistake's place in [`RuleMistake::ALL`].
const RANK_INDEX: [Option<usize>; RuleMistake::ALL.len()] = {
    let mut index = [None; RuleMistake::ALL.len()];
    let mut i = 0;
    while i < RANK_MISTAKES.len() {
        index[RANK_MISTAKES[i] as usize] = Some(i);
        i += 1;
    }
    index
};

/// Returns the mistake's place in [`RANK_MISTAKES`] and in [`MistakePoints`]; `None` for a
/// mistake that is not one of them.
///
/// ```
/// use crib_results::RuleMistake;
/// assert_eq!(crib_testset::rank_index(RuleMistake::FifteensAceEleven), Some(0));
/// assert_eq!(crib_testset::rank_index(RuleMistake::FlushMissing), None);
/// ```
pub const fn rank_index(mistake: RuleMistake) -> Option<usize> {
    RANK_INDEX[mistake as usize]
}

/// Returns the part whose points the mistake counts its own way: its rule
/// ([`RuleMistake::family`]) as a [`Part`].
pub const fn rule_part(mistake: RuleMistake) -> Part {
    match mistake.family() {
        Area::Pairs => Part::Pairs,
        Area::Runs => Part::Runs,
        Area::Flush => Part::Flush,
        Area::Nob => Part::Nob,
        Area::Fifteens | Area::NoPoints | Area::NoAnswer => Part::Fifteens,
    }
}

/// Returns the points `mistake`, one of [`RANK_MISTAKES`], gives for its rule
/// ([`rule_part`]) to five cards of ranks `ranks` (1..=13: the four hand cards', then the
/// start's) whose points for that rule are `right`; `None` for any other mistake.
fn rank_points(mistake: RuleMistake, ranks: [u8; 5], right: u8) -> Option<u8> {
    use RuleMistake::*;
    let value = |r: u8| r.min(10);
    let fifteens = |values: [u8; 5]| 2 * crib_core::fifteen_sets(values).count() as u8;
    let runs = |ranks: [u8; 5], each: fn(u8) -> u8| {
        crib_core::run_sets(ranks)
            .map(|m| each(m.count_ones() as u8))
            .sum::<u8>()
    };
    Some(match mistake {
        FifteensAceEleven => fifteens(ranks.map(|r| if r == 1 { 11 } else { value(r) })),
        FifteensFacesByRank => fifteens(ranks),
        // A value above 15 is in no fifteen.
        FifteensTensIgnored => fifteens(ranks.map(|r| if r == 10 { 16 } else { value(r) })),
        FifteensDistinctValues => fifteens(deduplicated(ranks.map(value))),
        FifteensOnce => right.min(2),
        FifteensOnePoint | PairsOnePoint => right / 2,
        RunsAceHigh => runs(ranks.map(|r| if r == 1 { 14 } else { r }), |n| n).max(right),
        RunsFacesAsTen => runs(ranks.map(value), |n| n),
        RunsOnePointEach => runs(ranks, |_| 1),
        RunsLengthMinusOne => runs(ranks, |n| n - 1),
        RunsWrapAround => (0..13)
            .map(|shift| runs(ranks.map(|r| (r - 1 + shift) % 13 + 1), |n| n))
            .max()
            .unwrap_or(0),
        RunsEverySubrun | RunsOnlyThree => {
            let only_three = mistake == RunsOnlyThree;
            (1u8..32)
                .filter(|m| m.count_ones() == 3 || (m.count_ones() > 3 && !only_three))
                .filter(|&m| is_run(ranks, m))
                .map(|m| m.count_ones() as u8)
                .sum()
        }
        RunsContiguousOnly => {
            let mut sorted = ranks;
            sorted.sort_unstable();
            let (mut longest, mut length) = (1, 1);
            for w in sorted.windows(2) {
                length = if w[1] == w[0] + 1 { length + 1 } else { 1 };
                longest = longest.max(length);
            }
            if longest >= 3 {
                longest
            } else {
                0
            }
        }
        RunsDistinctRanks => runs(deduplicated(ranks), |n| n),
        // The start (`ranks[4]`) taken so far from the other ranks that it is in no run.
        RunsNoStart => {
            let [a, b, c, d, _] = ranks;
            runs([a, b, c, d, 30], |n| n)
        }
        // Five points of runs come from a run of five only (others make 3, 4, 6, 8, 9, 12).
        RunsFiveAsTwoFours if right == 5 => 8,
        RunsFiveAsTwoFours => right,
        PairsAdjacentOnly => {
            let mut sorted = ranks;
            sorted.sort_unstable();
            2 * sorted.windows(2).filter(|w| w[0] == w[1]).count() as u8
        }
        _ => return None,
    })
}

/// Returns the points `mistake`, one of [`ORDER_MISTAKES`], gives for its rule
/// ([`rule_part`]) to the hand `keep`, its cards in the order the hand value is given them,
/// summed over `starts`; `None` for any other mistake.
///
/// ```
/// use crib_core::{parse_cards, CardSet};
/// use crib_results::RuleMistake;
/// use crib_testset::order_points;
///
/// let keep: [_; 4] = parse_cards(&["5H", "JH", "2C", "3D"])?.try_into().unwrap();
/// let starts = CardSet::of(&parse_cards(&["4S", "KC"])?);
/// // The first card is a heart and the jack of hearts is kept: a point with every start
/// assert_eq!(order_points(RuleMistake::NobFirstCardSuit, &keep, starts), Some(2));
/// let keep: [_; 4] = parse_cards(&["3H", "4H", "5H", "6C"])?.try_into().unwrap();
/// let starts = CardSet::of(&parse_cards(&["2H", "2S"])?);
/// // 2H 3H 4H make the flush's first four with the start; the club is the fifth card
/// assert_eq!(order_points(RuleMistake::FlushStartAsHandCard, &keep, starts), Some(4));
/// assert_eq!(order_points(RuleMistake::FlushMissing, &keep, starts), None);
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn order_points(mistake: RuleMistake, keep: &[Card; 4], starts: CardSet) -> Option<u32> {
    Some(match mistake {
        RuleMistake::NobFirstCardSuit => {
            let jack = Card::new(Rank::Jack, keep[0].suit());
            if keep.contains(&jack) {
                starts.len()
            } else {
                0
            }
        }
        RuleMistake::FlushStartAsHandCard => starts
            .iter()
            .map(|start| {
                let suit = start.suit();
                if keep[..3].iter().any(|c| c.suit() != suit) {
                    0
                } else if keep[3].suit() == suit {
                    5
                } else {
                    4
                }
            })
            .sum(),
        _ => return None,
    })
}

/// Returns the points of the four cards of `keep` alone, with no start card: fifteens, pairs
/// and runs among them (crib-core's rules asked with a fifth card that matches nothing) and
/// four points when they share a suit.
pub(crate) fn four_card_value(keep: &[Card; 4]) -> u8 {
    let r = keep.map(|c| c.rank().number());
    let ranks = [r[0], r[1], r[2], r[3], 17];
    let values = [r[0].min(10), r[1].min(10), r[2].min(10), r[3].min(10), 17];
    let fifteens = 2 * crib_core::fifteen_sets(values).count() as u8;
    let pairs = 2 * crib_core::pair_sets(ranks).count() as u8;
    let runs: u8 = crib_core::run_sets(ranks)
        .map(|m| m.count_ones() as u8)
        .sum();
    let flush = if keep.iter().all(|c| c.suit() == keep[0].suit()) {
        4
    } else {
        0
    };
    fifteens + pairs + runs + flush
}

/// Returns whether the four cards of `keep` hold a run of three or more by themselves.
pub(crate) fn holds_run(keep: &[Card; 4]) -> bool {
    let r = keep.map(|c| c.rank().number());
    crib_core::run_sets([r[0], r[1], r[2], r[3], 17])
        .next()
        .is_some()
}

/// Returns `numbers` with each number already seen replaced by a number above 16 that
/// matches nothing: none is in a fifteen, a pair or a run.
fn deduplicated(mut numbers: [u8; 5]) -> [u8; 5] {
    for i in 1..5 {
        if numbers[..i].contains(&numbers[i]) {
            numbers[i] = 17 + 2 * i as u8;
        }
    }
    numbers
}

/// Returns whether the cards at the positions set in `mask` are, by themselves, a run of
/// `ranks` (crib-core's rule of runs asked of those cards alone).
fn is_run(ranks: [u8; 5], mask: u8) -> bool {
    let mut alone = ranks;
    for (i, r) in alone.iter_mut().enumerate() {
        if mask >> i & 1 == 0 {
            *r = 17 + 2 * i as u8;
        }
    }
    crib_core::run_sets(alone).any(|m| m == mask)
}

/// Each rank mistake's value of one show, or summed over start cards, in the order of
/// [`RANK_MISTAKES`]: the whole value (every rule) as the mistake counts it.
pub type MistakePoints = [u32; RANK_MISTAKES.len()];

/// Returns each part's points of `keep` summed over every start card in `starts` (none of
/// them in `keep`), and each rank mistake's value of it summed likewise.
///
/// # Example
/// ```
/// use crib_core::{parse_cards, CardSet};
/// use crib_results::RuleMistake;
/// use crib_testset::{keep_points, rank_index, Part};
/// let keep: [_; 4] = parse_cards(&["5H", "5S", "TD", "JC"])?.try_into().unwrap();
/// let start = crib_core::Card::parse("5C")?;
/// let (points, mistaken) = keep_points(&keep, CardSet::of(&[start]));
/// let of = |part: Part| points[part.index()];
/// // 5 5 5 T J: seven fifteens (each five with the ten or the jack, and 5+5+5), three
/// // pairs, two of them with the start, and his nob (the jack of clubs, the start a club)
/// assert_eq!((of(Part::Fifteens), of(Part::Pairs), of(Part::PairsWithStart)), (14, 6, 4));
/// assert_eq!((of(Part::FifteensWithRepeatedValue), of(Part::Nob)), (2, 1));
/// // With fifteens of distinct values only (5 and 10), one fifteen: 2 + 6 pairs + 1 nob
/// let distinct = rank_index(RuleMistake::FifteensDistinctValues).unwrap();
/// assert_eq!(mistaken[distinct], 9);
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn keep_points(keep: &[Card; 4], starts: CardSet) -> (PartPoints, MistakePoints) {
    let table = rank_parts();
    let row = keep
        .iter()
        .fold(0usize, |i, c| i * 13 + usize::from(c.rank().number() - 1))
        * 13;
    points_of_rows(keep, starts, |rank| table[row + rank])
}

/// Returns what [`keep_points`] returns, each rank row worked out from crib-core's breakdown
/// when needed rather than read from the table of every rank pattern ([`rank_parts`], built
/// once per process in about a tenth of a second): for a draw that values a few deals.
pub(crate) fn keep_points_untabled(
    keep: &[Card; 4],
    starts: CardSet,
) -> (PartPoints, MistakePoints) {
    let mut ranks = keep.map(|c| usize::from(c.rank().number() - 1));
    ranks.sort_unstable();
    points_of_rows(keep, starts, |rank| {
        show_parts(ranks, rank).unwrap_or([0; ROW])
    })
}

/// [`keep_points`] with `row(rank)` the rank parts' row ([`rank_parts`]) of the keep's ranks
/// with a start of that 0-based rank.
fn points_of_rows(
    keep: &[Card; 4],
    starts: CardSet,
    row: impl Fn(usize) -> [u8; ROW],
) -> (PartPoints, MistakePoints) {
    let mut out = [0u32; Part::ALL.len()];
    let mut mistaken = [0u32; RANK_MISTAKES.len()];
    let bits = starts.bits();
    for rank in 0..13 {
        let n = (bits >> (4 * rank) & 0xF).count_ones();
        if n > 0 {
            let entry = row(rank);
            let (parts, mistakes) = entry.split_at(RANK_PARTS);
            for (o, &p) in out.iter_mut().zip(parts) {
                *o += n * u32::from(p);
            }
            for (o, &p) in mistaken.iter_mut().zip(mistakes) {
                *o += n * u32::from(p);
            }
        }
    }
    let suit = keep[0].suit();
    let flush = keep.iter().all(|c| c.suit() == suit);
    for start in starts.iter() {
        if flush {
            if start.suit() == suit {
                out[Part::Flush5.index()] += 5;
            } else {
                out[Part::Flush4.index()] += 4;
            }
        }
        if keep.contains(&Card::new(Rank::Jack, start.suit())) {
            out[Part::Nob.index()] += 1;
        } else if keep.iter().any(|c| c.rank() == Rank::Jack) {
            out[Part::NobOtherJack.index()] += 1;
        }
        if keep.iter().filter(|c| c.suit() == start.suit()).count() == 3 {
            out[Part::FlushOfThreeAndStart.index()] += 4;
        }
    }
    out[Part::Flush.index()] = out[Part::Flush4.index()] + out[Part::Flush5.index()];
    let suits = out[Part::Flush4.index()] + out[Part::Flush5.index()] + out[Part::Nob.index()];
    for m in &mut mistaken {
        *m += suits;
    }
    (out, mistaken)
}

/// Returns the rank parts' table: the entry at `(((r0*13 + r1)*13 + r2)*13 + r3)*13 + s`
/// (0-based ranks of the four hand cards, then of the start) holds the points of the first
/// [`RANK_PARTS`] parts, then each rank mistake's points for fifteens, pairs and runs. Built
/// on first use, once per rank pattern, from crib-core's breakdown of one show with those
/// ranks.
fn rank_parts() -> &'static [[u8; ROW]] {
    static TABLE: OnceLock<Vec<[u8; ROW]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![[0u8; ROW]; 13usize.pow(5)];
        // A hand's ranks sorted ascending give the least index of their orderings, so the
        // sorted hand's rows are filled before any other ordering copies them.
        for hand in 0..13usize.pow(4) {
            let mut ranks = [hand / 2197, hand / 169 % 13, hand / 13 % 13, hand % 13];
            ranks.sort_unstable();
            let sorted = ranks.iter().fold(0, |i, &r| i * 13 + r);
            for start in 0..13 {
                table[hand * 13 + start] = if sorted == hand {
                    show_parts(ranks, start).unwrap_or([0; ROW])
                } else {
                    table[sorted * 13 + start]
                };
            }
        }
        table
    })
}

/// Returns the rank table's row ([`rank_parts`]) of a show whose hand has the 0-based
/// `ranks` (sorted) and whose start has rank `start`, or `None` when no such show exists
/// (five cards of a rank).
fn show_parts(ranks: [usize; 4], start: usize) -> Option<[u8; ROW]> {
    let mut next_suit = [0u8; 13];
    let mut card = |rank: usize| {
        let suit = next_suit[rank];
        next_suit[rank] += 1;
        // A fifth card of a rank has no suit left (4 * rank + 4 is the next rank's card).
        (suit < 4)
            .then(|| Card::from_index(rank as u8 * 4 + suit))
            .flatten()
    };
    let hand: Vec<Card> = ranks.iter().map(|&r| card(r)).collect::<Option<_>>()?;
    let start = card(start)?;
    let hand = Hand::from_slice(&hand).expect("distinct suits make distinct cards");
    let show = Breakdown::new(&hand, start, Rule::Hand).expect("the start is not in the hand");
    // Two points a fifteen or a pair, a point a card of a run, for the sets `keep` takes.
    let count = |sets: &[Vec<Card>], points: fn(&[Card]) -> u8, keep: &dyn Fn(&[Card]) -> bool| {
        sets.iter()
            .filter(|s| keep(s))
            .map(|s| points(s))
            .sum::<u8>()
    };
    let two: fn(&[Card]) -> u8 = |_| 2;
    let cards: fn(&[Card]) -> u8 = |s| s.len() as u8;
    let with = |rank: fn(Rank) -> bool| move |s: &[Card]| s.iter().any(|c| rank(c.rank()));
    let has_start = |s: &[Card]| s.contains(&start);
    let repeated = |s: &[Card]| {
        let mut values: Vec<u8> = s.iter().map(|c| c.rank().value()).collect();
        values.sort_unstable();
        values.windows(2).any(|w| w[0] == w[1])
    };
    let in_trips = |s: &[Card]| {
        let rank = s[0].rank();
        hand.cards()
            .iter()
            .chain([&start])
            .filter(|c| c.rank() == rank)
            .count()
            >= 3
    };
    let face = |r: Rank| r >= Rank::Jack;
    let several = show.runs.len() > 1;
    let (f, p, r) = (&show.fifteens, &show.pairs, &show.runs);
    let parts = [
        count(f, two, &|_| true),
        count(f, two, &has_start),
        count(f, two, &with(|r| r == Rank::Ace)),
        count(f, two, &with(face)),
        count(f, two, &with(|r| r == Rank::Ten)),
        count(f, two, &|s| s.len() >= 3),
        count(f, two, &|s| s.len() >= 4),
        count(f, two, &repeated),
        count(p, two, &|_| true),
        count(p, two, &has_start),
        count(p, two, &in_trips),
        count(r, cards, &|_| true),
        count(r, cards, &has_start),
        count(r, cards, &|_| several),
        count(r, cards, &|s| s.len() >= 4),
        count(r, cards, &with(face)),
        count(r, cards, &with(|r| r == Rank::Ace)),
    ];
    let mut row = [0u8; ROW];
    row[..RANK_PARTS].copy_from_slice(&parts);
    let c = hand.cards();
    let numbers = [c[0], c[1], c[2], c[3], start].map(|c| c.rank().number());
    let rules =
        parts[Part::Fifteens.index()] + parts[Part::Pairs.index()] + parts[Part::Runs.index()];
    for (k, mistake) in RANK_MISTAKES.into_iter().enumerate() {
        let right = parts[rule_part(mistake).index()];
        let points = rank_points(mistake, numbers, right).expect("RANK_MISTAKES are valued");
        row[RANK_PARTS + k] = rules - right + points;
    }
    Some(row)
}

pub mod rules;

#[cfg(test)]
mod tests;
