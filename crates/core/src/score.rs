//! The rules of hand scoring (spec/rules.md §2–§6), written once.
//!
//! Fifteens, pairs and runs depend only on the five ranks of the show; each is a function
//! from ranks to the sets of cards that score, as bit masks over the five positions (the
//! four hand cards, then the start). [`Breakdown`] turns those masks into cards for people;
//! the rank table behind [`PreparedHand`] adds up their points once per rank combination,
//! so the fast path and the breakdown cannot disagree.

use std::sync::OnceLock;

use crate::{Card, CardError, CardSet, Rank};

/// Which flush rule applies: the assignment's hand rule, or the crib rule players use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Rule {
    /// A flush scores 4 when the four hand cards share a suit, 5 when the start does too.
    #[default]
    Hand,
    /// A flush scores 5 only when all five cards share a suit (the crib, or box).
    Crib,
}

/// Four distinct cards: a hand as kept, before the start card is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand([Card; 4]);

impl Hand {
    /// Returns the hand of these four cards, in the order given.
    ///
    /// # Errors
    /// [`CardError::Repeated`] if a card appears twice.
    ///
    /// # Example
    /// ```
    /// use crib_core::{Card, Hand};
    /// let five = Card::parse("5H")?;
    /// assert!(Hand::new([five, Card::parse("5S")?, Card::parse("5C")?, Card::parse("JD")?]).is_ok());
    /// assert!(Hand::new([five, five, Card::parse("5C")?, Card::parse("JD")?]).is_err());
    /// # Ok::<(), crib_core::CardError>(())
    /// ```
    pub fn new(cards: [Card; 4]) -> Result<Hand, CardError> {
        crate::card::check_distinct(&cards)?;
        Ok(Hand(cards))
    }

    /// Returns the hand of the given cards.
    ///
    /// # Errors
    /// [`CardError::Count`] unless there are exactly four cards; [`CardError::Repeated`] if a
    /// card appears twice.
    pub fn from_slice(cards: &[Card]) -> Result<Hand, CardError> {
        let cards: [Card; 4] = cards.try_into().map_err(|_| CardError::Count {
            expected: "4 cards",
            got: cards.len(),
        })?;
        Hand::new(cards)
    }

    /// Returns the four cards in the order given to [`Hand::new`].
    pub fn cards(&self) -> [Card; 4] {
        self.0
    }

    fn check_start(&self, start: Card) -> Result<(), CardError> {
        if self.0.contains(&start) {
            Err(CardError::StartInHand { card: start })
        } else {
            Ok(())
        }
    }
}

/// Returns the points `hand` scores with `start` as the start card, under `rule`.
///
/// # Errors
/// [`CardError::StartInHand`] if `start` is one of the hand's cards.
///
/// # Example
/// ```
/// use crib_core::{hand_value, parse_cards, Hand, Rule, Card};
/// let hand = Hand::from_slice(&parse_cards(&["5H", "5S", "5C", "JD"])?)?;
/// assert_eq!(hand_value(&hand, Card::parse("5D")?, Rule::Hand)?, 29);
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn hand_value(hand: &Hand, start: Card, rule: Rule) -> Result<u8, CardError> {
    hand.check_start(start)?;
    Ok(PreparedHand::new(hand).value(start, rule))
}

/// A hand with everything that does not depend on the start card worked out, for valuing it
/// against many start cards. This is the fast path behind [`hand_value`], [`crate::select_hand`]
/// and the sweeps.
#[derive(Debug, Clone, Copy)]
pub struct PreparedHand {
    table: &'static [u8],
    /// Index of the first of the 13 table entries for this hand's ranks (one per start rank).
    row: usize,
    /// The suit the four hand cards share, or 4 when they don't.
    flush_suit: u8,
    /// Bit `s` is set when the hand holds the jack of suit `s`.
    jack_suits: u8,
}

impl PreparedHand {
    /// Prepares `hand` for valuing against start cards.
    pub fn new(hand: &Hand) -> PreparedHand {
        PreparedHand::from_cards(hand.0)
    }

    /// Prepares four cards without checking that they are distinct (callers that enumerate
    /// combinations know it). Values are meaningful only for four distinct cards.
    #[inline]
    pub fn from_cards(cards: [Card; 4]) -> PreparedHand {
        let table = rank_table();
        let r = cards.map(|c| (c.index() / 4) as usize);
        let row = (((r[0] * 13 + r[1]) * 13 + r[2]) * 13 + r[3]) * 13;
        let (flush_suit, jack_suits) = suit_facts(cards);
        PreparedHand {
            table,
            row,
            flush_suit,
            jack_suits,
        }
    }

    /// Returns the hand's points with `start` as the start card, under `rule`.
    /// `start` must not be one of the hand's cards (then the value is meaningless).
    #[inline]
    pub fn value(&self, start: Card, rule: Rule) -> u8 {
        let start_suit = start.index() & 3;
        self.table[self.row + (start.index() / 4) as usize]
            + flush_points(self.flush_suit, start_suit, rule)
            + nob_points(self.jack_suits, start_suit)
    }

    /// Returns the sum of [`PreparedHand::value`] over every start card in `starts`, none of
    /// them in the hand.
    ///
    /// A start card's value is a part that depends only on its rank (fifteens, pairs, runs)
    /// plus a part that depends only on its suit (flush, nob), so the sum is taken per rank
    /// and per suit: 17 terms instead of one per start card, and exactly equal.
    #[inline]
    pub fn total_over(&self, starts: CardSet, rule: Rule) -> u32 {
        const SUIT: u64 = 0x1_1111_1111_1111; // one bit per rank, for the suit with index 0
        let starts = starts.bits();
        let by_rank: u32 = (0..13)
            .map(|r| (starts >> (4 * r) & 0xF).count_ones() * u32::from(self.table[self.row + r]))
            .sum();
        let by_suit: u32 = (0..4u8)
            .map(|s| {
                let points =
                    flush_points(self.flush_suit, s, rule) + nob_points(self.jack_suits, s);
                (starts & SUIT << s).count_ones() * u32::from(points)
            })
            .sum();
        by_rank + by_suit
    }
}

/// Returns what flush and nob need of the hand's suits: the suit all four cards share (4 when
/// they don't) and the set of suits, as bits, of the jacks in the hand.
#[inline]
fn suit_facts(cards: [Card; 4]) -> (u8, u8) {
    let s = cards.map(|c| c.suit().index());
    let shared = if s[0] == s[1] && s[1] == s[2] && s[2] == s[3] {
        s[0]
    } else {
        4
    };
    let jack_suits = cards
        .iter()
        .filter(|c| c.rank() == Rank::Jack)
        .fold(0, |m, c| m | 1 << c.suit().index());
    (shared, jack_suits)
}

/// §5 Flush: `hand_suit` is the suit all four hand cards share (4 when they don't).
#[inline]
fn flush_points(hand_suit: u8, start_suit: u8, rule: Rule) -> u8 {
    match (hand_suit == start_suit, hand_suit < 4, rule) {
        (true, _, _) => 5,
        (false, true, Rule::Hand) => 4,
        _ => 0,
    }
}

/// §6 His nob: one point when the hand holds the jack of the start card's suit.
#[inline]
pub(crate) fn nob_points(jack_suits: u8, start_suit: u8) -> u8 {
    (jack_suits >> start_suit) & 1
}

/// Subsets of the five cards, as bit masks, from which fifteens, pairs and runs are chosen.
const SUBSETS: std::ops::Range<u8> = 1..32;

/// §2 Fifteens: every set of cards whose values add up to 15 (ace 1, faces 10).
fn fifteens(ranks: [u8; 5]) -> impl Iterator<Item = u8> {
    fifteen_sets(ranks.map(|r| r.min(10)))
}

/// Returns the sets of five cards that make fifteen when the cards are worth `values`, as
/// bit masks of positions in `values` (bit `i` for card `i`): the rule of fifteens (§2) with
/// the card values given rather than read from ranks, for tools that model a hand value that
/// values cards wrongly.
///
/// # Example
/// ```
/// // 5 5 5 10 10: each five with each ten (6), and the three fives (1)
/// assert_eq!(crib_core::fifteen_sets([5, 5, 5, 10, 10]).count(), 7);
/// // an ace worth 11 makes fifteen with a four
/// assert_eq!(crib_core::fifteen_sets([11, 4, 6, 6, 10]).collect::<Vec<_>>(), [0b00011]);
/// ```
pub fn fifteen_sets(values: [u8; 5]) -> impl Iterator<Item = u8> {
    SUBSETS.filter(move |&m| members(m, values).map(u32::from).sum::<u32>() == 15)
}

/// §3 Pairs: every two cards of the same rank, as bit masks of positions in `ranks` (any
/// numbers: tools model a hand value that reads cards wrongly with other ranks).
///
/// # Example
/// ```
/// // three nines make three pairs
/// assert_eq!(crib_core::pair_sets([9, 2, 9, 9, 5]).count(), 3);
/// ```
pub fn pair_sets(ranks: [u8; 5]) -> impl Iterator<Item = u8> {
    SUBSETS.filter(move |&m| {
        m.count_ones() == 2 && {
            let mut it = members(m, ranks);
            it.next() == it.next()
        }
    })
}

/// §4 Runs: every set of cards of consecutive ranks, no rank twice, of the greatest length
/// found in the show, when that length is at least three. Two sets that differ in one card of
/// a duplicated rank are two runs. As bit masks of positions in `ranks` (any numbers: tools
/// model a hand value that orders ranks wrongly, an ace above the king, faces as tens).
///
/// # Example
/// ```
/// // Q K A 2 9 with the ace above the king (14): Q K A is a run
/// assert_eq!(crib_core::run_sets([12, 13, 14, 2, 9]).collect::<Vec<_>>(), [0b00111]);
/// ```
pub fn run_sets(ranks: [u8; 5]) -> impl Iterator<Item = u8> {
    let is_run = move |m: u8| {
        let seen = members(m, ranks).fold(0u32, |bits, r| bits | 1 << r);
        let len = m.count_ones();
        // distinct ranks, and they span exactly `len` consecutive ranks
        seen.count_ones() == len && (seen >> seen.trailing_zeros()) == (1 << len) - 1
    };
    let longest = SUBSETS
        .filter(|&m| is_run(m))
        .map(u8::count_ones)
        .max()
        .unwrap_or(0);
    SUBSETS.filter(move |&m| longest >= 3 && m.count_ones() == longest && is_run(m))
}

/// The items (ranks, values or cards) at the positions set in `mask`.
fn members<T: Copy>(mask: u8, items: [T; 5]) -> impl Iterator<Item = T> {
    (0..5)
        .filter(move |i| mask >> i & 1 == 1)
        .map(move |i| items[i])
}

/// Points for fifteens, pairs and runs of five ranks (1..=13 each).
fn rank_points(ranks: [u8; 5]) -> u8 {
    let fifteens = fifteens(ranks).count() as u32 * 2;
    let pairs = pair_sets(ranks).count() as u32 * 2;
    let runs: u32 = run_sets(ranks).map(u8::count_ones).sum();
    (fifteens + pairs + runs) as u8
}

/// The number of entries in the rank table: one per ordered choice of five ranks.
const TABLE_LEN: usize = 13 * 13 * 13 * 13 * 13;

/// Returns the rank table: entry `(((r0*13 + r1)*13 + r2)*13 + r3)*13 + r4` (ranks 0-based)
/// holds the fifteens, pairs and runs points of those five ranks. Built on first use from
/// the rule functions above, once per multiset of ranks, then copied to every ordering.
pub fn rank_table() -> &'static [u8] {
    static TABLE: OnceLock<Box<[u8]>> = OnceLock::new();
    TABLE.get_or_init(build_rank_table)
}

/// Builds a new rank table (see [`rank_table`], which builds it once and keeps it).
pub fn build_rank_table() -> Box<[u8]> {
    let mut table = vec![0u8; TABLE_LEN].into_boxed_slice();
    for index in 0..TABLE_LEN {
        let mut ranks = [0u8; 5];
        let mut rest = index;
        for r in ranks.iter_mut().rev() {
            *r = (rest % 13) as u8;
            rest /= 13;
        }
        ranks.sort_unstable();
        // The ranks in order are the least index of their orderings, so filled already.
        let first = ranks.iter().fold(0usize, |i, &r| i * 13 + r as usize);
        table[index] = match first == index {
            true => rank_points(ranks.map(|r| r + 1)),
            false => table[first],
        };
    }
    table
}

/// Points per rule for one show. Field names are spec/'s rule names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Points {
    pub fifteens: u8,
    pub pairs: u8,
    pub runs: u8,
    pub flush: u8,
    pub nob: u8,
}

impl Points {
    /// Returns the sum over all rules.
    pub fn total(&self) -> u8 {
        self.fifteens + self.pairs + self.runs + self.flush + self.nob
    }
}

/// How a show scores, rule by rule, with the cards behind each point.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Breakdown {
    pub hand: [Card; 4],
    pub start: Card,
    pub rule: Rule,
    /// Each set of cards that adds up to fifteen (2 points each).
    pub fifteens: Vec<Vec<Card>>,
    /// Each two cards of one rank (2 points each).
    pub pairs: Vec<Vec<Card>>,
    /// Each run of the greatest length (1 point per card).
    pub runs: Vec<Vec<Card>>,
    /// The cards of the flush, if one scores (4 or 5 points).
    pub flush: Vec<Card>,
    /// The jack that scores one for his nob, if any.
    pub nob: Option<Card>,
}

impl Breakdown {
    /// Returns the breakdown of `hand` with `start`, under `rule`.
    ///
    /// # Errors
    /// [`CardError::StartInHand`] if `start` is one of the hand's cards.
    ///
    /// # Example
    /// ```
    /// use crib_core::{parse_cards, Breakdown, Card, Hand, Rule};
    /// let hand = Hand::from_slice(&parse_cards(&["7H", "9S", "8C", "7C"])?)?;
    /// let b = Breakdown::new(&hand, Card::parse("8H")?, Rule::Hand)?;
    /// assert_eq!((b.runs.len(), b.points().runs, b.points().total()), (4, 12, 24));
    /// # Ok::<(), crib_core::CardError>(())
    /// ```
    pub fn new(hand: &Hand, start: Card, rule: Rule) -> Result<Breakdown, CardError> {
        hand.check_start(start)?;
        let cards = [hand.0[0], hand.0[1], hand.0[2], hand.0[3], start];
        let ranks = cards.map(|c| c.rank().number());
        let pick = |m: u8| -> Vec<Card> { members(m, cards).collect() };
        let (shared, jacks) = suit_facts(hand.0);
        let flush = match flush_points(shared, start.suit().index(), rule) {
            0 => vec![],
            4 => hand.0.to_vec(),
            _ => cards.to_vec(),
        };
        let nob = (nob_points(jacks, start.suit().index()) == 1)
            .then(|| Card::new(Rank::Jack, start.suit()));
        Ok(Breakdown {
            hand: hand.0,
            start,
            rule,
            fifteens: fifteens(ranks).map(pick).collect(),
            pairs: pair_sets(ranks).map(pick).collect(),
            runs: run_sets(ranks).map(pick).collect(),
            flush,
            nob,
        })
    }

    /// Returns the points each rule scores.
    pub fn points(&self) -> Points {
        Points {
            fifteens: 2 * self.fifteens.len() as u8,
            pairs: 2 * self.pairs.len() as u8,
            runs: self.runs.iter().map(|r| r.len() as u8).sum(),
            flush: self.flush.len() as u8,
            nob: u8::from(self.nob.is_some()),
        }
    }
}

#[cfg(test)]
mod tests;
