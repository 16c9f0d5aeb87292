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
//! The models: crib-results' `RuleMistake`s are the ways a student miscounts a rule of
//! hand_value/3, one vocabulary for every model; those of [`RANK_MISTAKES`] and
//! [`ORDER_MISTAKES`] ([`misvalue`]) are valued from crib-core's breakdown ([`keep_points`])
//! for the select_hand models; [`Strategy`]
//! is how a select_hand/3 ranks keeps (the rules, or one of the catalog's mistakes,
//! [`SELECT_MISTAKES`], [`MODELLED_MISTAKES`], or baselines, [`BASELINE_MODELS`]);
//! [`rule_points`] counts each rule of an item as each of crib-results' `RuleMistake`s does,
//! and [`HAND_VALUE_MISTAKES`] names the catalog's hand_value mistakes as such models. The
//! grader's runtime uses them to explain a submission's wrong answers; the balance uses them
//! to choose deals; docs/DESIGN.md's tables (crib-lab's `lab/src/bin/tables.rs`) use them to give every
//! modelled submission's marks under many seeds without Prolog.
//!
//! crib-grade asks this crate for a test set and its items; nothing here runs Prolog. How to
//! add a mistake or change the balance: this crate's README.
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
pub use patterns::{PatternItem, PATTERNS, SPECIAL_SHARE};
pub use seed::{Seed, SeedError, SEED_BYTES};
pub use source::Tests;
pub use strategy::{
    balance_models, misvalued_models, misvalued_strategies, model_name, Deal, Misvaluation,
    ModelledMistake, Starts, Strategy, TieBreak, BASELINE_MODELS, MODELLED_MISTAKES,
    SELECT_MISTAKES,
};
