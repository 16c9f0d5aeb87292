//! Who sees a test on Gradescope and in the feedback handed back: a course's
//! [`VisibilityPolicy`], and the [`TestVisibility`] it gives each test.

use serde::{Deserialize, Serialize};

use crate::TestSource;

/// Who sees what on Gradescope: a course policy, mapped onto Gradescope's per-test
/// `visibility` values (`visible`, `hidden`, `after_due_date`, `after_published`). Whatever
/// the policy, the top-level result is `visible`: students always see their total, the marks
/// of each part and the load diagnostics (the top-level `output`).
///
/// # Example
/// ```
/// use crib_results::VisibilityPolicy;
/// assert_eq!("examples-visible".parse::<VisibilityPolicy>(), Ok(VisibilityPolicy::ExamplesVisible));
/// assert_eq!(VisibilityPolicy::Hidden.to_string(), "hidden");
/// assert!("public".parse::<VisibilityPolicy>().is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum VisibilityPolicy {
    /// Every test `visible` as soon as the submission is graded (crib 0.1).
    #[default]
    AllVisible,
    /// The named select_hand deals (the assignment's own hints) `visible`; every other test
    /// `after_published`, shown when the staff publish the marks.
    ExamplesVisible,
    /// The named deals `visible`; every other test `after_due_date`, shown once the (late)
    /// due date has passed.
    AfterDueDate,
    /// Every test `hidden`: students see only the total, the marks of each part and the load
    /// diagnostics, never a test, not even how many tests failed.
    Hidden,
}

impl VisibilityPolicy {
    /// Every policy, in the order `--help` lists them.
    pub const ALL: [VisibilityPolicy; 4] = [
        VisibilityPolicy::AllVisible,
        VisibilityPolicy::ExamplesVisible,
        VisibilityPolicy::AfterDueDate,
        VisibilityPolicy::Hidden,
    ];

    /// Returns Gradescope's `visibility` for a select_hand test from `source` (the
    /// assignment's hints are [`TestSource::Named`]), or for the hand_value check (`None`).
    pub fn of_test(self, source: Option<TestSource>) -> TestVisibility {
        let example = source == Some(TestSource::Named);
        match self {
            VisibilityPolicy::AllVisible => TestVisibility::Visible,
            VisibilityPolicy::ExamplesVisible if example => TestVisibility::Visible,
            VisibilityPolicy::ExamplesVisible => TestVisibility::AfterPublished,
            VisibilityPolicy::AfterDueDate if example => TestVisibility::Visible,
            VisibilityPolicy::AfterDueDate => TestVisibility::AfterDueDate,
            VisibilityPolicy::Hidden => TestVisibility::Hidden,
        }
    }
}

/// The policy's name on the command line and in `CRIB_GRADESCOPE_VISIBILITY`:
/// `all-visible`, `examples-visible`, `after-due-date` or `hidden`.
impl std::fmt::Display for VisibilityPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::names::write_json_name(self, f)
    }
}

/// A text that names no [`VisibilityPolicy`]; its message lists the names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown visibility policy {text:?}: expected one of {names}", names = policy_names())]
pub struct VisibilityPolicyError {
    /// The text given.
    pub text: String,
}

/// Returns the policies' names, joined by commas, in the order `--help` lists them.
fn policy_names() -> String {
    let names: Vec<String> = VisibilityPolicy::ALL
        .iter()
        .map(|v| v.to_string())
        .collect();
    names.join(", ")
}

impl std::str::FromStr for VisibilityPolicy {
    type Err = VisibilityPolicyError;

    /// Parses a policy's name (its Display).
    ///
    /// # Errors
    /// [`VisibilityPolicyError`] quoting `text` when it is none of them.
    fn from_str(text: &str) -> Result<VisibilityPolicy, VisibilityPolicyError> {
        VisibilityPolicy::ALL
            .into_iter()
            .find(|v| v.to_string() == text.trim())
            .ok_or_else(|| VisibilityPolicyError {
                text: text.to_string(),
            })
    }
}

/// Gradescope's visibility of one test: who sees it and when. In JSON, `hidden`,
/// `after_due_date`, `after_published` or `visible`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum TestVisibility {
    /// Only the course staff.
    Hidden,
    /// Students, after the due date.
    AfterDueDate,
    /// Students, once the grades are published.
    AfterPublished,
    /// Students, at once.
    #[default]
    Visible,
}

impl TestVisibility {
    /// Returns whether students see the test once the marks are published and the due date
    /// has passed: always but when [`TestVisibility::Hidden`]. Feedback handed back with the
    /// marks (`crib report --export`) shows what this allows.
    pub fn shown_when_published(self) -> bool {
        self != TestVisibility::Hidden
    }
}

#[cfg(test)]
mod tests;
