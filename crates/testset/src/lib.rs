//! The grader's test set, and the models of students' mistakes it is designed against.
//!
//! A run's test set is drawn from its secret [`Seed`] ([`TestSet::new`]): one hand_value/3
//! item per rank pattern ([`patterns`]: 23,647 patterns, ~27,900 items, suits drawn so that
//! flushes and his nob are tested where a pattern allows them) and 48 select_hand/3 deals (the
//! named deals of spec/, then 45 of a pool of 3,000 seeded deals, chosen so that every modelled
//! mistake is exposed and every modelled strategy's marks hardly depend on the seed). The
//! expected answers come from crib-core. [`TestSet::fingerprint`](TestSet#structfield.fingerprint) names a test set without
//! revealing its seed.
//!
//! The models of mistakes ([`misvalue`], [`strategy`], [`misvalue::rules`]) are read from
//! crib-core's rules: the grader uses them to explain a submission's wrong answers, the
//! balance to choose deals, and docs/DESIGN.md's tables to give every modelled submission's
//! marks under many seeds without Prolog. Nothing here runs Prolog; the contracts, and how to
//! add a mistake or change the balance, are in this crate's README.
//!
//! # Example
//! ```
//! use crib_testset::{Seed, TestSet};
//! let set = TestSet::new(&Seed::from_bytes([7; 32]));
//! assert_eq!(set.cases.len(), 48);
//! assert_eq!(set.fingerprint, TestSet::new(&Seed::from_bytes([7; 32])).fingerprint);
//! ```

#![deny(missing_docs)]

pub mod course;
pub mod draw;
pub mod kept;
pub mod misvalue;
pub mod patterns;
pub mod seed;
pub mod source;
pub mod strategy;

pub use course::{Course, COURSE_POOL, SALTED_DESIGN, SALTED_POOL};
pub use draw::targets as balance_targets;
pub use draw::{prolog_list, TestCase, TestSet, COVER_DEPTH, POOL, POOL_DEALS};
pub use misvalue::rules::{
    rule_points, HandValueMistake, HandValueModel, RulePoints, HAND_VALUE_MISTAKES,
};
pub use misvalue::{
    keep_points, order_points, rank_index, rule_part, MistakePoints, Part, PartPoints,
    ORDER_MISTAKES, RANK_MISTAKES,
};
pub use patterns::{PatternItem, SPECIAL_SHARE};
pub use seed::{Seed, SeedError, SEED_BYTES};
pub use source::Tests;
pub use strategy::{
    balance_models, misvalued_strategies, model_name, Deal, Misvaluation, ModelledMistake, Starts,
    Strategy, TieBreak, BASELINE_MODELS, MODELLED_MISTAKES, SELECT_MISTAKES,
};
