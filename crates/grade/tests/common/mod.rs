//! What the deep test and the catalog test share: judging a deep check's diagnosis.

use crib_grade::DeepHandValue;

/// The feature a mistake's diagnosis must name in its first finding, and whether it is
/// present in the failing hands (`false`: its absence is the cause).
pub type Cause = (&'static str, &'static str, bool);

/// Returns what is wrong with submission `name`'s deep hand_value check, if anything: no
/// failing pair found, or (when `causes` lists it) a first finding that does not name its
/// cause.
pub fn diagnosis_problem(name: &str, hv: &DeepHandValue, causes: &[Cause]) -> Option<String> {
    if hv.failing_pairs == 0 || hv.counterexamples.is_empty() {
        return Some(format!("{name}: no failing pair found"));
    }
    let &(_, feature, present) = causes.iter().find(|c| c.0 == name)?;
    let named = hv.diagnosis.findings.first().is_some_and(|f| {
        f.features
            .iter()
            .any(|l| l.feature == feature && l.present == present)
    });
    (!named).then(|| {
        format!(
            "{name}: expected {}{feature}, diagnosis: {}",
            if present { "" } else { "no " },
            hv.diagnosis.summary
        )
    })
}
