//! The typed data of one graded submission ([`SubmissionResult`]), as written to JSON and
//! read back, with the marks that follow from it, the data in words and Gradescope's
//! results.json. Every type keeps the JSON results have always had; nothing here runs
//! Prolog or a child. The crate's README is its codemap.
//!
//! # Example
//! ```
//! use crib_results::{Marks, SubmissionResult};
//! // A submission that loaded nothing earns nothing.
//! let marks = Marks::new(&[], None);
//! assert_eq!((marks.hand_value, marks.select_hand, marks.total), (0.0, 0.0, 0.0));
//! // Fields a result has that this crib does not know are ignored; missing ones are errors.
//! assert!(serde_json::from_str::<SubmissionResult>("{}").is_err());
//! ```

#![deny(missing_docs)]

mod credit;
mod deep;
mod gradescope;
mod hand_value;
mod hash;
mod lint;
mod names;
mod producer;
mod record;
mod result;
mod verdict;
mod visibility;

pub use credit::{hand_value_credit, SelectCredit};
pub use deep::{
    kinds_text, percent, thousands, Counterexample, DeepHandValue, DeepReport, DeepSelectHand,
    Diagnosis, DiagnosisFinding, ErrorShape, FailureKind, KindCount, Literal, Probes,
    SelectExample,
};
pub use gradescope::{gradescope, shown_problems};
pub use hand_value::{
    Area, AreaCount, HandValueCheck, RuleFinding, RuleMistake, RuleVerdict, PATTERNS,
};
pub use hash::{fnv1a, fnv1a_from, FNV_OFFSET};
pub use lint::{Finding, Lint, Summary};
pub use names::{escape_name, escape_path};
pub use producer::{swipl_version_number, Producer};
pub use record::{Layout, Record, Student};
pub use result::{
    problems_text, round2, Diagnostic, KeepDiagnosis, KeepExample, KeepMistake, KeepVerdict, Load,
    Marks, Predicate, Problem, ProblemArea, Skipped, SubmissionResult, TestResult, TestSource,
    CODE_QUALITY_MARKS, HAND_VALUE_MARKS, SELECT_HAND_MARKS,
};
pub use verdict::{Cards, KeepValue, Verdict};
pub use visibility::{TestVisibility, VisibilityPolicy, VisibilityPolicyError};
