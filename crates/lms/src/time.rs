//! Submission times as LMSs write them.

use jiff::Timestamp;

/// Returns the instant `text` names: RFC 3339 (`2026-09-01T17:00:00+10:00`) or the form
/// Gradescope's Ruby-written YAML uses (`2019-01-15 17:23:11.123456000 -08:00`).
///
/// # Example
/// ```
/// let a = crib_lms::parse_time("2019-01-15 17:23:11.123456000 -08:00").unwrap();
/// let b = crib_lms::parse_time("2019-01-16T01:23:11.123456Z").unwrap();
/// assert_eq!(a, b);
/// assert!(crib_lms::parse_time("yesterday").is_none());
/// ```
pub fn parse_time(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if let Ok(t) = text.parse::<Timestamp>() {
        return Some(t);
    }
    ["%Y-%m-%d %H:%M:%S%.f %:z", "%Y-%m-%d %H:%M:%S%.f %z"]
        .iter()
        .find_map(|format| jiff::fmt::strtime::parse(format, text).ok())
        .and_then(|t| t.to_timestamp().ok())
}
