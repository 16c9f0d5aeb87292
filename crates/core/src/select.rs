//! Choosing which four of five or six dealt cards to keep (spec/rules.md §7).

use crate::score::PreparedHand;
use crate::{check_distinct, Card, CardError, CardSet, Rule};

/// One way to keep four of the dealt cards, with its exact value summed over every start card
/// that was not dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// The four cards kept, in the order they were dealt.
    pub keep: [Card; 4],
    discard: [Card; 2],
    discard_len: u8,
    /// The hand's points summed over every possible start card.
    pub total: u32,
    /// How many start cards were possible: 52 minus the cards dealt (46 or 47).
    pub starts: u32,
}

impl Keep {
    /// Returns the cards put in the crib, in the order they were dealt.
    pub fn discard(&self) -> &[Card] {
        &self.discard[..self.discard_len as usize]
    }

    /// Returns the expected hand value: `total / starts`.
    pub fn expected_value(&self) -> f64 {
        f64::from(self.total) / f64::from(self.starts)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Keep {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Keep", 5)?;
        s.serialize_field("keep", &self.keep)?;
        s.serialize_field("discard", self.discard())?;
        s.serialize_field("expected_value", &self.expected_value())?;
        s.serialize_field("expected_total", &self.total)?;
        s.serialize_field("starts", &self.starts)?;
        s.end()
    }
}

/// The best keep of a deal and every other keep whose total equals it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The chosen keep: of those with the greatest total, the first in enumeration order.
    pub best: Keep,
    /// The other keeps with the same total, in enumeration order.
    pub ties: Vec<Keep>,
}

/// Returns the keep of `cards` (5 or 6 dealt cards) with the greatest expected hand value over
/// every start card not dealt, valued with the hand rule, and the keeps that tie with it.
///
/// Keeps are enumerated by the positions of the kept cards in `cards`, in lexicographic order
/// (for six cards: 0123, 0124, .., 2345). On a tie the first in that order is `best`; the rest
/// are in `ties`. Totals are exact integers, so ties are exact.
///
/// # Errors
/// [`CardError::Count`] unless there are 5 or 6 cards; [`CardError::Repeated`] if a card is
/// given twice.
///
/// # Example
/// ```
/// use crib_core::{parse_cards, select_hand};
/// let dealt = parse_cards(&["5H", "5S", "5C", "JD", "2C", "9H"])?;
/// let choice = select_hand(&dealt)?;
/// assert_eq!(choice.best.discard(), &parse_cards(&["2C", "9H"])?[..]);
/// assert_eq!(choice.best.starts, 46);
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn select_hand(cards: &[Card]) -> Result<Selection, CardError> {
    let keeps = value_keeps(cards)?;
    let best_total = keeps
        .iter()
        .map(|k| k.total)
        .max()
        .expect("5 or 6 cards give keeps");
    let mut tied = keeps.into_iter().filter(|k| k.total == best_total);
    let best = tied.next().expect("the maximum is attained");
    Ok(Selection {
        best,
        ties: tied.collect(),
    })
}

/// Returns every keep of `cards` (5 or 6 dealt cards), greatest total first; keeps with equal
/// totals stay in enumeration order (see [`select_hand`]).
///
/// # Errors
/// As [`select_hand`].
pub fn rank_keeps(cards: &[Card]) -> Result<Vec<Keep>, CardError> {
    let mut keeps = value_keeps(cards)?;
    keeps.sort_by_key(|k| std::cmp::Reverse(k.total));
    Ok(keeps)
}

/// Returns every keep of `cards` with its total, in enumeration order.
fn value_keeps(cards: &[Card]) -> Result<Vec<Keep>, CardError> {
    if !(5..=6).contains(&cards.len()) {
        return Err(CardError::Count {
            expected: "5 or 6 cards",
            got: cards.len(),
        });
    }
    check_distinct(cards)?;
    let starts = CardSet::of(cards).complement();
    let n = cards.len();
    Ok(keep_positions(n)
        .iter()
        .map(|&(kept, discarded)| {
            let keep = kept.map(|i| cards[i]);
            let hand = PreparedHand::from_cards(keep);
            Keep {
                keep,
                discard: discarded.map(|i| cards[i]),
                discard_len: (n - 4) as u8,
                total: hand.total_over(starts, Rule::Hand),
                starts: starts.len(),
            }
        })
        .collect())
}

/// The positions kept and the positions discarded for one way to keep four of five or six
/// dealt cards. Of five, only the first discarded position is meaningful (the second repeats
/// it).
pub(crate) type KeepPositions = ([usize; 4], [usize; 2]);

/// Returns every way to keep four of `n` positions, in lexicographic order of the kept
/// positions (0123, 0124, .., 2345): the order every keep of crib-core is enumerated in.
/// Empty unless `n` is 5 or 6.
pub(crate) fn keep_positions(n: usize) -> &'static [KeepPositions] {
    const FIVE: [KeepPositions; 5] = positions::<5, 5>();
    const SIX: [KeepPositions; 15] = positions::<6, 15>();
    match n {
        5 => &FIVE,
        6 => &SIX,
        _ => &[],
    }
}

/// The `K` = C(`N`, 4) ways to keep four of `N` positions (see [`keep_positions`]). A set of
/// positions read as bits, position 0 the highest, is greater the earlier it comes in
/// lexicographic order, so the sets of four are taken from the greatest down.
const fn positions<const N: usize, const K: usize>() -> [KeepPositions; K] {
    let mut out = [([0; 4], [0; 2]); K];
    let (mut k, mut set) = (0, 1usize << N);
    while set > 0 {
        set -= 1;
        if set.count_ones() != 4 {
            continue;
        }
        let (mut kept, mut rest) = ([0; 4], [0; 2]);
        let (mut kept_len, mut rest_len, mut i) = (0, 0, 0);
        while i < N {
            if set >> (N - 1 - i) & 1 == 1 {
                kept[kept_len] = i;
                kept_len += 1;
            } else {
                rest[rest_len] = i;
                rest_len += 1;
            }
            i += 1;
        }
        if rest_len == 1 {
            rest[1] = rest[0];
        }
        out[k] = (kept, rest);
        k += 1;
    }
    assert!(k == K, "K must be C(N, 4)");
    out
}

#[cfg(test)]
mod tests;
