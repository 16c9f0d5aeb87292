//! Scoring for cribbage hands.
//!
//! [`hand_value`] scores four cards and a start card exactly as the Prolog assignment
//! "Project 1: Cribbage" specifies (spec/rules.md); [`Breakdown`] shows which cards score
//! under each rule; [`select_hand`] chooses which four of five or six dealt cards to keep for
//! the greatest expected hand value. [`Rule::Crib`] applies the crib's flush rule instead.
//! [`judge_keep`] judges another's choice: a keep of the deal or not, and how good.
//! [`score_distribution`] values all 12,994,800 (hand, start) pairs of a deck.
//! [`analyze_crib`] values the keeps of a six-card deal with the crib, for the dealer and the
//! pone; [`discard_summary`] summarises the best keep of every 5- or 6-card deal.
//!
//! The crate does no I/O and knows nothing of Prolog. Every rule is written once, in
//! `score.rs`; the fast path ([`PreparedHand`]) reads a table that those rule functions fill.
//!
//! # Example
//! ```
//! use crib_core::{parse_cards, hand_value, Card, Hand, Rule};
//! let hand = Hand::from_slice(&parse_cards(&["6C", "7C", "8C", "9C"])?)?;
//! assert_eq!(hand_value(&hand, Card::parse("8S")?, Rule::Hand)?, 20);
//! # Ok::<(), crib_core::CardError>(())
//! ```

mod card;
mod dealer;
mod discard;
mod judge;
mod score;
mod select;
mod sweep;
mod tables;

pub use card::{
    cards_text, check_distinct, parse_card_list, parse_cards, Card, CardSet, Rank, Suit,
};
pub use dealer::Dealer;
pub use discard::{
    analyze_crib, discard_summary, discard_summary_over, CribKeep, DealClass, DiscardSummary, Role,
    Spread, CRIB_OUTCOMES,
};
pub use judge::{judge_keep, KeepError, KeepJudgement, Side};
pub use score::{
    build_rank_table, fifteen_sets, hand_value, pair_sets, rank_table, run_sets, Breakdown, Hand,
    Points, PreparedHand, Rule,
};
pub use select::{rank_keeps, select_hand, Keep, Selection};
pub use sweep::{
    hands, hands_from, score_distribution, starts_for, CountsError, ScoreCounts, PAIRS,
};
pub use tables::{rule_distribution, FifteenWays, RuleDistribution, RuleTally, RULES};

/// What is wrong with the cards given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CardError {
    /// A token is not a card.
    #[error("invalid card {token:?}: {problem}")]
    Parse {
        token: String,
        problem: &'static str,
    },
    /// A card appears twice.
    #[error("card {card} is given twice")]
    Repeated { card: Card },
    /// The start card is also one of the hand's cards.
    #[error("the start card {card} is also in the hand")]
    StartInHand { card: Card },
    /// Too many or too few cards.
    #[error("expected {expected}, got {got}")]
    Count { expected: &'static str, got: usize },
}
