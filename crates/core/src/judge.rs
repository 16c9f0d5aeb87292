//! Judging an answer to select_hand: is it a keep of the deal, and how good (spec/rules.md §7).

use std::fmt;

use crate::select::{rank_keeps, Keep};
use crate::{Card, CardError, CardSet};

/// Where a card of an answer was given: in the hand kept or in the crib.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The four cards kept (select_hand's `Hand`).
    Hand,
    /// The cards discarded (select_hand's `Cribcards`).
    Crib,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Hand => "hand",
            Side::Crib => "crib",
        })
    }
}

/// What is wrong with an answer that is not a keep of its deal, with the card at fault.
///
/// An answer is a keep when its hand is four of the dealt cards and its crib is the rest, in
/// any order: every dealt card given once, in one of the two, and no other card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeepError {
    /// The hand does not hold four cards.
    #[error("the hand has {got} cards, not 4")]
    HandSize {
        /// How many it holds.
        got: usize,
    },
    /// A card of the hand or the crib was not dealt.
    #[error("{card} in the {side} was not dealt")]
    NotDealt {
        /// The first such card, the hand's before the crib's.
        card: Card,
        /// Where it was given.
        side: Side,
    },
    /// A dealt card is given twice: in the hand, in the crib, or in both.
    #[error("{card} is given twice")]
    Repeated {
        /// The first card seen again, reading the hand and then the crib.
        card: Card,
    },
    /// A dealt card is in neither the hand nor the crib.
    #[error("{card} was dealt but is in neither the hand nor the crib")]
    Missing {
        /// The first such card, in the order dealt.
        card: Card,
    },
}

/// How an answer to select_hand stands against its deal ([`judge_keep`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeepJudgement {
    /// The answer is a keep of the deal.
    Keep {
        /// The keep as [`rank_keeps`] gives it: cards in the order dealt, its total over the
        /// start cards not dealt.
        keep: Keep,
        /// The greatest total of any keep of the deal.
        best_total: u32,
        /// How many keeps of the deal total more than this one: 0 for a best keep.
        better: usize,
    },
    /// The answer is not a keep of the deal.
    Wrong(KeepError),
}

/// Judges `hand` and `crib`, an answer to select_hand on the deal `dealt` (5 or 6 cards):
/// whether it is a keep of the deal and, when it is, its total and how many keeps are better.
/// The order of the cards within the hand and within the crib does not matter.
///
/// The answer's faults are checked in this order, and the first is returned: the hand's
/// size, a card of the hand not dealt, a card of the crib not dealt, a card given twice, a
/// dealt card missing. So a hand of four dealt cards with the wrong crib is a fault of the
/// crib, and a hand and crib swapped is a hand of the wrong size.
///
/// # Errors
/// As [`rank_keeps`]: [`CardError::Count`] unless 5 or 6 cards are dealt,
/// [`CardError::Repeated`] if a card is dealt twice. What is wrong with the answer is not an
/// error: it is [`KeepJudgement::Wrong`].
///
/// # Example
/// ```
/// use crib_core::{judge_keep, parse_cards, KeepJudgement, KeepError, Side};
/// let dealt = parse_cards(&["5H", "5S", "5C", "JD", "2C", "9H"])?;
/// let cards = |t: &[&str]| parse_cards(t).unwrap();
///
/// let best = judge_keep(&dealt, &cards(&["JD", "5C", "5S", "5H"]), &cards(&["9H", "2C"]))?;
/// assert!(matches!(best, KeepJudgement::Keep { better: 0, .. }));
///
/// let worse = judge_keep(&dealt, &cards(&["5H", "5S", "2C", "9H"]), &cards(&["5C", "JD"]))?;
/// let KeepJudgement::Keep { keep, best_total, better } = worse else { panic!() };
/// assert!(keep.total < best_total && better > 0);
///
/// let stray = judge_keep(&dealt, &cards(&["5H", "5S", "5C", "JD"]), &cards(&["2C", "AS"]))?;
/// let not_dealt = KeepError::NotDealt { card: cards(&["AS"])[0], side: Side::Crib };
/// assert_eq!(stray, KeepJudgement::Wrong(not_dealt));
/// assert_eq!(not_dealt.to_string(), "AS in the crib was not dealt");
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn judge_keep(
    dealt: &[Card],
    hand: &[Card],
    crib: &[Card],
) -> Result<KeepJudgement, CardError> {
    let keeps = rank_keeps(dealt)?;
    if let Err(fault) = check_split(dealt, hand, crib) {
        return Ok(KeepJudgement::Wrong(fault));
    }
    let kept = CardSet::of(hand);
    let keep = *keeps
        .iter()
        .find(|k| CardSet::of(&k.keep) == kept)
        .expect("four distinct dealt cards are a keep of the deal");
    Ok(KeepJudgement::Keep {
        keep,
        best_total: keeps[0].total,
        better: keeps.iter().take_while(|k| k.total > keep.total).count(),
    })
}

/// Checks that `hand` is four of the cards `dealt` and `crib` the rest, each given once.
fn check_split(dealt: &[Card], hand: &[Card], crib: &[Card]) -> Result<(), KeepError> {
    if hand.len() != 4 {
        return Err(KeepError::HandSize { got: hand.len() });
    }
    let deal = CardSet::of(dealt);
    let given = [(Side::Hand, hand), (Side::Crib, crib)];
    for (side, cards) in given {
        if let Some(&card) = cards.iter().find(|&&c| !deal.contains(c)) {
            return Err(KeepError::NotDealt { card, side });
        }
    }
    let mut seen = CardSet::EMPTY;
    for &card in hand.iter().chain(crib) {
        if !seen.insert(card) {
            return Err(KeepError::Repeated { card });
        }
    }
    match dealt.iter().find(|&&c| !seen.contains(c)) {
        Some(&card) => Err(KeepError::Missing { card }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
