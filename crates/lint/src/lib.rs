//! Evidence for the markers who give the assignment's 30 marks for code quality.
//!
//! `crib-lint` reads a Prolog submission with SWI-Prolog itself (its reader with positions,
//! `library(prolog_xref)` and the compiler's own warnings), always in a sandboxed child, and
//! reports [`Finding`](crib_results::Finding)s: each names a stable [rule code](crib_results::Finding::rule), where it is, the
//! predicate it concerns and one line saying what is wrong. It never gives a mark: findings
//! are for a marker to check in seconds.
//!
//! The data model ([`crib_results::Lint`], [`crib_results::Finding`],
//! [`crib_results::Summary`]) is crib-results': it is what `crib lint --json` prints and what `crib grade` stores in each result's
//! `quality` section.

#![deny(missing_docs)]

mod check;
mod engine;
mod facts;
mod rules;

pub use check::{LintConfig, ENTRY_POINTS};
pub use engine::{JailedLinter, LintError, Linter};
pub use rules::{explain, rule, LintRule, RULES};
