//! Discard advice that counts the crib (dealer and pone), and the exhaustive discard table.
//!
//! [`select_hand`](crate::select_hand) keeps the four cards with the greatest expected hand
//! value, as the assignment asks. A player also owns or concedes the crib: as dealer the two
//! discards score for them, as pone (the dealer's opponent) they score for the other side.
//! [`analyze_crib`] values every keep of a two-player (six-card) deal both ways, under the
//! convention it states. [`discard_summary`] is in `table.rs`.

use crate::score::{nob_points, PreparedHand};
use crate::select::keep_positions;
use crate::{check_distinct, rank_table, Card, CardError, CardSet, Rank, Rule};

mod table;

pub use table::{discard_summary, discard_summary_over, DealClass, DiscardSummary};

/// Whose crib it is: the player's own (dealer) or the opponent's (pone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Role {
    /// The crib scores for the player: net = hand + crib.
    Dealer,
    /// The crib scores for the opponent: net = hand − crib.
    Pone,
}

/// The number of equally likely outcomes of a six-card deal's crib: C(46,2) opponent discards
/// times the 44 start cards left, 45,540 (= 46 starts × 990 opponent discards).
pub const CRIB_OUTCOMES: u32 = 1035 * 44;

/// Opponent discards possible once the start card is also known: C(45,2).
const PAIRS_PER_START: u32 = 990;

/// Exact statistics of one score (hand, crib or net) over equally likely outcomes.
///
/// `sum` and `sum_of_squares` are exact, so means compare exactly through `sum` when the
/// number of outcomes is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// How many equally likely outcomes were counted.
    pub outcomes: u32,
    /// The score summed over all outcomes.
    pub sum: i64,
    /// The square of the score summed over all outcomes.
    pub sum_of_squares: u64,
    /// The least score of any outcome.
    pub min: i32,
    /// The greatest score of any outcome.
    pub max: i32,
}

impl Spread {
    /// Returns the mean score, `sum / outcomes` (0 when nothing was counted).
    ///
    /// # Example
    /// ```
    /// let s = crib_core::Spread { outcomes: 4, sum: 10, sum_of_squares: 30, min: 1, max: 4 };
    /// assert_eq!(s.mean(), 2.5);
    /// ```
    pub fn mean(&self) -> f64 {
        if self.outcomes == 0 {
            0.0
        } else {
            self.sum as f64 / f64::from(self.outcomes)
        }
    }

    /// Returns the (population) standard deviation of the score over the outcomes, computed
    /// from the exact integer sums (0 when nothing was counted).
    ///
    /// # Example
    /// ```
    /// // scores 1, 2, 3, 4
    /// let s = crib_core::Spread { outcomes: 4, sum: 10, sum_of_squares: 30, min: 1, max: 4 };
    /// assert!((s.std_dev() - 1.25f64.sqrt()).abs() < 1e-12);
    /// ```
    pub fn std_dev(&self) -> f64 {
        if self.outcomes == 0 {
            return 0.0;
        }
        let n = i128::from(self.outcomes);
        let s = i128::from(self.sum);
        let scaled = n * i128::from(self.sum_of_squares) - s * s; // n² × variance, exact
        (scaled as f64).sqrt() / n as f64
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Spread {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Spread", 6)?;
        s.serialize_field("mean", &self.mean())?;
        s.serialize_field("std_dev", &self.std_dev())?;
        s.serialize_field("min", &self.min)?;
        s.serialize_field("max", &self.max)?;
        s.serialize_field("sum", &self.sum)?;
        s.serialize_field("outcomes", &self.outcomes)?;
        s.end()
    }
}

/// One keep of a six-card deal valued with the crib: the hand, the crib, and the net for the
/// dealer and for the pone, each over the same [`CRIB_OUTCOMES`] outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CribKeep {
    /// The four cards kept, in the order they were dealt.
    pub keep: [Card; 4],
    /// The two cards put in the crib, in the order they were dealt.
    pub discard: [Card; 2],
    /// The hand's points (assignment's rule). Its mean is
    /// [`Keep::expected_value`](crate::Keep::expected_value), and `hand.sum` is 990 times
    /// [`Keep::total`](crate::Keep::total).
    pub hand: Spread,
    /// The crib's points ([`Rule::Crib`]).
    pub crib: Spread,
    /// Hand plus crib, outcome by outcome.
    pub dealer: Spread,
    /// Hand minus crib, outcome by outcome.
    pub pone: Spread,
}

impl CribKeep {
    /// Returns the net score for `role`: [`CribKeep::dealer`] or [`CribKeep::pone`].
    pub fn net(&self, role: Role) -> &Spread {
        match role {
            Role::Dealer => &self.dealer,
            Role::Pone => &self.pone,
        }
    }
}

/// Returns the 15 keeps of a six-card deal, each valued with the crib, in enumeration order:
/// by the positions of the kept cards in `cards`, lexicographically (0123, 0124, .., 2345),
/// as [`crate::select_hand`].
///
/// # The convention: every opponent discard is equally likely
///
/// The crib is the player's two discards, the opponent's two discards and the start card. The
/// opponent's discards are unknown, so every pair of the 46 cards the player has not seen is
/// taken as equally likely (C(46,2) = 1,035 pairs), and then every one of the 44 cards left as
/// the start card (also equally likely). That gives 45,540 equally likely outcomes, the same
/// for every keep; every figure here is an exact integer sum over them, so two keeps tie
/// exactly when their sums are equal. The crib is scored with [`Rule::Crib`]: a flush counts
/// only when all five cards share a suit. Real opponents discard with a purpose; the uniform
/// average is the convention public discard analysers use, and it is the one used here.
///
/// Only six-card deals are covered. Five-card deals (three or four players) make a crib of
/// one card from each player, plus one from the deck with three players, and whether the
/// other discarders are partners depends on the game, so no single convention is clearly right.
///
/// # Errors
/// [`CardError::Count`] unless there are exactly six cards; [`CardError::Repeated`] if a card
/// is given twice.
///
/// # Example
/// ```
/// use crib_core::{analyze_crib, parse_cards, CRIB_OUTCOMES};
/// let dealt = parse_cards(&["5H", "5S", "5C", "JD", "2C", "9H"])?;
/// let keeps = analyze_crib(&dealt)?;
/// assert_eq!(keeps.len(), 15);
/// let k = &keeps[0]; // keep 5H 5S 5C JD, discard 2C 9H
/// assert_eq!(k.discard, [dealt[4], dealt[5]]);
/// assert_eq!(k.hand.outcomes, CRIB_OUTCOMES);
/// assert_eq!(k.dealer.sum, k.hand.sum + k.crib.sum);
/// assert_eq!(k.pone.sum, k.hand.sum - k.crib.sum);
/// assert!(analyze_crib(&dealt[..5]).is_err());
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn analyze_crib(cards: &[Card]) -> Result<Vec<CribKeep>, CardError> {
    let deal: [Card; 6] = cards.try_into().map_err(|_| CardError::Count {
        expected: "6",
        got: cards.len(),
    })?;
    check_distinct(&deal)?;
    let unseen = CardSet::of(&deal).complement();
    let mut rank_counts = [0u8; 13];
    for c in unseen.iter() {
        rank_counts[(c.index() / 4) as usize] += 1;
    }
    let empty = Spread {
        outcomes: CRIB_OUTCOMES,
        sum: 0,
        sum_of_squares: 0,
        min: i32::MAX,
        max: i32::MIN,
    };
    Ok(keep_positions(6)
        .iter()
        .map(|&(kept, discarded)| {
            let cards = kept.map(|i| deal[i]);
            let hand = PreparedHand::from_cards(cards);
            let mut keep = CribKeep {
                keep: cards,
                discard: discarded.map(|i| deal[i]),
                hand: empty,
                crib: empty,
                dealer: empty,
                pone: empty,
            };
            for_each_start(keep.discard, unseen, &rank_counts, |crib| {
                keep.add(i64::from(hand.value(crib.start, Rule::Hand)), &crib);
            });
            keep
        })
        .collect())
}

/// The card bits of the clubs (index = 4 × rank + suit); shift left by a suit's index for
/// that suit.
const CLUBS: u64 = 0x1_1111_1111_1111;

/// A histogram of crib points over opponent discards: entry `v` counts the pairs scoring `v`.
type CribPointCounts = [u32; 30];

/// What the crib is worth with one start card, over the 990 opponent discards left.
#[derive(Debug, Clone, Copy)]
struct CribAtStart {
    start: Card,
    sum: u32,
    sum_of_squares: u32,
    min: u8,
    max: u8,
}

impl CribKeep {
    /// Adds the outcomes with one start card: the hand scores `h` whatever the opponent
    /// discards, the crib as `crib` says.
    fn add(&mut self, h: i64, crib: &CribAtStart) {
        let n = i64::from(PAIRS_PER_START);
        let (c1, c2) = (i64::from(crib.sum), i64::from(crib.sum_of_squares));
        let (lo, hi) = (i64::from(crib.min), i64::from(crib.max));
        self.hand.add(n * h, n * h * h, h, h);
        self.crib.add(c1, c2, lo, hi);
        // (h + c)² = h² + 2hc + c², summed over the opponent discards
        self.dealer
            .add(n * h + c1, n * h * h + 2 * h * c1 + c2, h + lo, h + hi);
        self.pone
            .add(n * h - c1, n * h * h - 2 * h * c1 + c2, h - hi, h - lo);
    }
}

impl Spread {
    /// Adds outcomes: their sum, the sum of their squares (never negative), their least and
    /// greatest score.
    fn add(&mut self, sum: i64, sum_of_squares: i64, min: i64, max: i64) {
        self.sum += sum;
        self.sum_of_squares += sum_of_squares as u64;
        self.min = self.min.min(min as i32);
        self.max = self.max.max(max as i32);
    }
}

/// Calls `f` for every start card in `unseen` (the 46 cards not dealt) with what the crib of
/// `discard` is worth, over every opponent discard of two of the other 45 unseen cards.
///
/// Fifteens, pairs and runs depend only on ranks, so opponent discards are counted by rank
/// pair against the rank table once per start rank. Only flush and nob look at suits. Under
/// the crib rule a flush needs all five cards in the start card's suit, and the nob is the
/// jack of that suit; so an opponent discard scores differently from its rank class only if it
/// holds that jack, or if both its cards and both discards share the start card's suit. Those
/// discards are rescored one by one with [`PreparedHand`]; every other one scores its ranks'
/// points plus the nob the player's own discards may hold.
fn for_each_start(
    discard: [Card; 2],
    unseen: CardSet,
    rank_counts: &[u8; 13],
    mut f: impl FnMut(CribAtStart),
) {
    let table = rank_table();
    let [d1, d2] = discard.map(|c| (c.index() / 4) as usize);
    let row = (d1 * 13 + d2) * 13;
    // Histograms of rank points over opponent discards, one per start rank.
    let mut by_start_rank = [[0u32; 30]; 13];
    for (sr, hist) in by_start_rank.iter_mut().enumerate() {
        if rank_counts[sr] == 0 {
            continue;
        }
        let mut left = *rank_counts;
        left[sr] -= 1;
        for a in 0..13 {
            let na = u32::from(left[a]);
            if na == 0 {
                continue;
            }
            let base = (row + a) * 13;
            if na > 1 {
                hist[usize::from(table[(base + a) * 13 + sr])] += na * (na - 1) / 2;
            }
            for b in a + 1..13 {
                let nb = u32::from(left[b]);
                if nb > 0 {
                    hist[usize::from(table[(base + b) * 13 + sr])] += na * nb;
                }
            }
        }
    }
    let own_jacks = discard
        .iter()
        .filter(|c| c.rank() == Rank::Jack)
        .fold(0u8, |m, c| m | 1 << c.suit().index());
    let suited_discard = discard[0].suit() == discard[1].suit();
    for start in unseen.iter() {
        let sr = (start.index() / 4) as usize;
        let suit = start.suit();
        let others = unseen.without(start);
        // Every opponent discard scores its ranks' points plus the nob of the own discards...
        let nob = nob_points(own_jacks, suit.index()) as usize;
        let mut hist: CribPointCounts = [0; 30];
        hist[nob..].copy_from_slice(&by_start_rank[sr][..30 - nob]);
        // ...except those the start's suit can change, rescored in full.
        let generic = |x: Card, y: Card| {
            let (xr, yr) = ((x.index() / 4) as usize, (y.index() / 4) as usize);
            usize::from(table[((row + xr) * 13 + yr) * 13 + sr]) + nob
        };
        let mut rescore = |x: Card, y: Card| {
            let actual =
                PreparedHand::from_cards([discard[0], discard[1], x, y]).value(start, Rule::Crib);
            hist[generic(x, y)] -= 1;
            hist[usize::from(actual)] += 1;
        };
        let nob_jack = Card::new(Rank::Jack, suit);
        let mut rest = others;
        if others.contains(nob_jack) {
            rest = rest.without(nob_jack);
            for x in rest.iter() {
                rescore(nob_jack, x);
            }
        }
        if suited_discard && discard[0].suit() == suit {
            let same_suit = rest & CardSet::from_bits(CLUBS << suit.index());
            for x in same_suit.iter() {
                for y in (same_suit & CardSet::from_bits(!((2u64 << x.index()) - 1))).iter() {
                    rescore(x, y);
                }
            }
        }
        let scored = || (0u32..).zip(hist).filter(|&(_, n)| n > 0);
        f(CribAtStart {
            start,
            sum: scored().map(|(v, n)| v * n).sum(),
            sum_of_squares: scored().map(|(v, n)| v * v * n).sum(),
            min: scored().next().map_or(0, |(v, _)| v as u8),
            max: scored().last().map_or(0, |(v, _)| v as u8),
        });
    }
}

#[cfg(test)]
mod tests;
