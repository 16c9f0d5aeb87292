//! One submission's result is crib-results' data ([`crib_results::SubmissionResult`], its
//! tests, verdicts and marks), re-exported at the crate root. This module holds the tests of
//! that data that need the grader: marks and problems of a marked check judged here, and the
//! table and Gradescope's results.json of them.

#[cfg(test)]
mod tests;
