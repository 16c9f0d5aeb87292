//! What the integration tests share: the seed they grade under, and judging a diagnosis.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use crib_grade::{Diagnosis, Seed};

/// The seed the integration tests grade under (tests only: grading never uses it).
pub fn seed() -> Seed {
    Seed::from_bytes([0x7e; 32])
}

/// The feature a mistake's diagnosis must name in its first finding, and whether it is
/// present in the failing hands (`false`: its absence is the cause).
pub type Cause = (&'static str, &'static str, bool);

/// Returns what is wrong with submission `name`'s diagnosis, if anything: no failing pair
/// found (`failing_pairs` is 0), or (when `causes` lists it) a first finding that does not
/// name its cause.
pub fn diagnosis_problem(
    name: &str,
    failing_pairs: u64,
    diagnosis: &Diagnosis,
    causes: &[Cause],
) -> Option<String> {
    if failing_pairs == 0 {
        return Some(format!("{name}: no failing pair found"));
    }
    let &(_, feature, present) = causes.iter().find(|c| c.0 == name)?;
    let named = diagnosis.findings.first().is_some_and(|f| {
        f.features
            .iter()
            .any(|l| l.feature == feature && l.present == present)
    });
    (!named).then(|| {
        format!(
            "{name}: expected {}{feature}, diagnosis: {}",
            if present { "" } else { "no " },
            diagnosis.summary
        )
    })
}
