//! crib-cli's integration tests, in one binary (one link in the optimised test build, not
//! one per file): the `crib` command run as a user runs it, a module per command (`grade`,
//! `lint`, `report` and its flags, `similar`, `score_select`; `lms_roundtrip`, each LMS's
//! download graded and handed back), with what they share in `common`.
//!
//! The tests run side by side in one process, so none changes what the process shares (its
//! environment, current directory or signal handlers): what a `crib` child needs, such as
//! its own `TMPDIR` or current directory, is set on that child's command alone.

mod common;
mod grade;
mod lint;
mod lms_roundtrip;
mod report;
mod report_anonymous;
mod report_late;
mod report_quality;
mod score_select;
mod similar;
