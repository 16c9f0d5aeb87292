//! Which SWI-Prolog crib's marks are proven on, and what a grader says of another.

use crib_results::swipl_version_number;

/// The SWI-Prolog versions `cargo xtask compat` grades the submissions corpus and a sample
/// of the catalog under (a Debian root of each), comparing every total, verdict and
/// diagnosis with the host's: bullseye's, bookworm's and trixie's. Marks under a version
/// between the first and the last are taken as proven; outside them, `crib grade` warns.
pub const PROVEN_SWIPL: [&str; 3] = ["8.2.4", "9.0.4", "9.2.9"];

/// The oldest SWI-Prolog a grader starts with: the children use what 8.2 has, and nothing
/// older was ever tried.
pub const OLDEST_SWIPL: &str = "8.2.0";

/// What crib knows of a SWI-Prolog, from the first line of its `--version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SwiplSupport {
    /// Within [`PROVEN_SWIPL`]'s range.
    Proven,
    /// Newer than the newest proven version, or older than the oldest but not older than
    /// [`OLDEST_SWIPL`], or a version number crib cannot read: the grader warns.
    Untried(String),
    /// Older than [`OLDEST_SWIPL`]: the grader refuses it.
    TooOld(String),
}

/// Returns what crib knows of the SWI-Prolog whose `--version` line is `text`.
///
/// ```
/// use crib_grade::{swipl_support, SwiplSupport};
/// assert_eq!(swipl_support("SWI-Prolog version 9.0.4 for x86_64-linux"), SwiplSupport::Proven);
/// assert!(matches!(swipl_support("SWI-Prolog version 9.3.8 for x86_64-linux"), SwiplSupport::Untried(_)));
/// assert!(matches!(swipl_support("SWI-Prolog version 7.6.4 for amd64"), SwiplSupport::TooOld(_)));
/// ```
pub fn swipl_support(text: &str) -> SwiplSupport {
    let Some(number) = swipl_version_number(text).and_then(parse) else {
        return SwiplSupport::Untried(format!(
            "cannot read a SWI-Prolog version in `{text}`: crib's marks are proven on SWI-Prolog {}",
            proven_range()
        ));
    };
    let (first, last) = (
        parse(PROVEN_SWIPL[0]).expect("a version"),
        parse(PROVEN_SWIPL[PROVEN_SWIPL.len() - 1]).expect("a version"),
    );
    let shown = swipl_version_number(text).unwrap_or(text);
    if number < parse(OLDEST_SWIPL).expect("a version") {
        SwiplSupport::TooOld(format!(
            "SWI-Prolog {shown} is too old: crib's children need {OLDEST_SWIPL} or newer \
             (its marks are proven on {})",
            proven_range()
        ))
    } else if (first..=last).contains(&number) {
        SwiplSupport::Proven
    } else {
        SwiplSupport::Untried(format!(
            "SWI-Prolog {shown} is outside the versions crib's marks are proven on ({}; \
             `cargo xtask compat` proves them): marks may differ from theirs",
            proven_range()
        ))
    }
}

/// `8.2.4 to 9.2.9`.
fn proven_range() -> String {
    format!(
        "{} to {}",
        PROVEN_SWIPL[0],
        PROVEN_SWIPL[PROVEN_SWIPL.len() - 1]
    )
}

fn parse(number: &str) -> Option<(u32, u32, u32)> {
    let mut parts = number.split('.').map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}
