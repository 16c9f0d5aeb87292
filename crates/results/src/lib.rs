//! The typed data of one graded submission, as written to JSON and read back.
//!
//! `crib grade` writes one [`SubmissionResult`] per submission as soon as it is graded;
//! `crib grade --resume` reads them back to skip what is done, `crib report` draws the class
//! report and each student's feedback from them, and `crib report --export` hands their marks
//! to an LMS. A result holds how the submission loaded ([`Load`]), one [`TestResult`] per
//! select_hand test with its [`Verdict`], the marked hand_value check ([`HandValueCheck`]),
//! the [`Marks`], the deep check when it ran ([`DeepReport`]), the code-quality findings when
//! the linter ran ([`Lint`]) and what the LMS said of the submission ([`Record`]).
//! Every type keeps the JSON results have always had: a result written by an earlier crib
//! still reads.
//!
//! Besides the data: how the marks follow from it ([`Marks::new`], [`SelectCredit`],
//! [`hand_value_credit`]), the data in words ([`Verdict::describe`], [`DeepReport::lines`],
//! [`SubmissionResult::problems`]), and Gradescope's results.json of a result under a course's
//! [`VisibilityPolicy`] ([`gradescope_with`]).
//!
//! Nothing here runs Prolog or a child: crib-grade fills these types, crib-lint fills
//! [`Lint`], and reading them links neither (nor crib-sandbox, seccompiler or Landlock).
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
pub use gradescope::{gradescope, gradescope_with, shown_problems};
pub use hand_value::{
    Area, AreaCount, HandValueCheck, RuleFinding, RuleMistake, RuleVerdict, PATTERNS,
};
pub use hash::{fnv1a, fnv1a_from, FNV_OFFSET};
pub use lint::{Finding, Lint, Summary};
pub use names::{escape_name, escape_path};
pub use producer::{swipl_version_number, Producer};
pub use record::{Layout, Record, Student};
pub use result::{
    problems_text, Diagnostic, KeepDiagnosis, KeepExample, KeepMistake, KeepVerdict, Load, Marks,
    Predicate, Problem, ProblemArea, Skipped, SubmissionResult, TestResult, TestSource,
    CODE_QUALITY_MARKS, HAND_VALUE_MARKS, SELECT_HAND_MARKS,
};
pub use verdict::{Cards, KeepValue, Verdict};
pub use visibility::{TestVisibility, VisibilityPolicy, VisibilityPolicyError};
