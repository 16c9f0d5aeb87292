//! Lateness: a penalty [`Policy`], the due date, per-student extensions and submission
//! times, and each submission's penalty ([`Deadline::assess`]), recomputed from the dates
//! every time (never stored in a result).

use std::fmt;
use std::path::{Path, PathBuf};

use crib_results::{round2, SubmissionResult};
use jiff::{SignedDuration, Timestamp};

const DAY_SECONDS: i64 = 24 * 60 * 60;

/// A late-penalty policy, as [`Policy::parse`] reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    /// The share of the mark taken off per day late, 0 to 1.
    pub per_day: f64,
    /// The most days counted (`at most N days`), if any.
    pub max_days: Option<u32>,
    /// Whether more than `max_days` days late is worth 0 (`then 0`).
    pub then_zero: bool,
}

/// Why a policy, a duration, a due date, an extensions file or a times file is refused.
/// Every message names the bad part; a file's, its line as an editor shows it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LatenessError {
    /// The policy text is not `<P>% per day[, at most <N> days[, then 0]]`.
    #[error("late policy {text:?}: {part:?}: {why} (expected e.g. \"10% per day, at most 5 days, then 0\")")]
    Policy {
        /// The whole text.
        text: String,
        /// The clause at fault.
        part: String,
        /// What is wrong with it.
        why: String,
    },
    /// A due date is neither RFC 3339 (`2026-09-01T17:00+10:00`) nor Gradescope's form.
    #[error("due date {text:?}: not a time with its UTC offset (e.g. 2026-09-01T17:00+10:00)")]
    Time {
        /// The text.
        text: String,
    },
    /// A grace period is not a duration.
    #[error("grace {text:?}: not a duration (e.g. 15m, 2h, 1h 30m)")]
    Grace {
        /// The text.
        text: String,
    },
    /// A file cannot be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line of an extensions or times file is bad.
    #[error("{}:{line}: {message}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line an editor shows, 1-based.
        line: u64,
        /// What is wrong.
        message: String,
    },
}

impl Policy {
    /// Returns the policy `text` states: `<P>% per day`, then optionally `at most <N> days`,
    /// then optionally `then 0`, separated by commas; case and extra spaces do not count.
    ///
    /// # Errors
    /// [`LatenessError::Policy`] naming the clause at fault: a missing or unknown clause, a
    /// percentage outside 0 to 100, a count of days that is not a whole number of at least
    /// 1, `then 0` without `at most`, or a clause repeated or out of order.
    ///
    /// # Example
    /// ```
    /// let p = crib_report::Policy::parse("10% per day, at most 5 days, then 0")?;
    /// assert_eq!((p.per_day, p.max_days, p.then_zero), (0.1, Some(5), true));
    /// assert!(crib_report::Policy::parse("10% a day").is_err());
    /// # Ok::<(), crib_report::LatenessError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Policy, LatenessError> {
        let mut policy = Policy {
            per_day: 0.0,
            max_days: None,
            then_zero: false,
        };
        for (i, clause) in text.split(',').enumerate() {
            let words = normal_words(clause);
            let words: Vec<&str> = words.split_whitespace().collect();
            policy.add(i, &words).map_err(|why| LatenessError::Policy {
                text: text.to_string(),
                part: clause.trim().to_string(),
                why: why.to_string(),
            })?;
        }
        Ok(policy)
    }

    /// Adds clause `i` of a policy, its [`normal_words`], or says why it cannot.
    fn add(&mut self, i: usize, words: &[&str]) -> Result<(), &'static str> {
        match (i, words) {
            (0, [pct, "per", "day"]) => {
                let number = pct
                    .strip_suffix('%')
                    .ok_or("a percentage needs its % sign")?;
                let p: f64 = number.parse().or(Err("the percentage is not a number"))?;
                if !(0.0..=100.0).contains(&p) {
                    return Err("the percentage is outside 0 to 100");
                }
                self.per_day = p / 100.0;
            }
            (0, []) => return Err("empty: the policy starts with \"<P>% per day\""),
            (0, _) => return Err("the policy starts with \"<P>% per day\""),
            (_, ["at", "most", n, "day" | "days"]) => {
                if self.max_days.is_some() || self.then_zero {
                    return Err("given twice or after \"then 0\"");
                }
                match n.parse::<u32>() {
                    Ok(n) if n >= 1 => self.max_days = Some(n),
                    _ => return Err("the days must be a whole number, 1 or more"),
                }
            }
            (_, ["then", "0"]) => {
                if self.then_zero {
                    return Err("given twice");
                }
                if self.max_days.is_none() {
                    return Err("needs \"at most <N> days\" before it");
                }
                self.then_zero = true;
            }
            (_, []) => return Err("an empty clause"),
            _ => return Err("unknown clause: expected \"at most <N> days\" or \"then 0\""),
        }
        Ok(())
    }

    /// Returns the share of the mark taken off for `days` days late, 0 to 1: `days × P`,
    /// counted up to `at most`'s days, 1 (all) past them under `then 0`, never above 1.
    ///
    /// # Example
    /// ```
    /// let p = crib_report::Policy::parse("10% per day, at most 5 days, then 0")?;
    /// assert_eq!(p.fraction(0), 0.0);
    /// assert_eq!(p.fraction(5), 0.5);
    /// assert_eq!(p.fraction(6), 1.0);
    /// # Ok::<(), crib_report::LatenessError>(())
    /// ```
    pub fn fraction(&self, days: u32) -> f64 {
        let counted = match self.max_days {
            Some(max) if days > max => {
                if self.then_zero {
                    return 1.0;
                }
                max
            }
            _ => days,
        };
        round_fraction(self.per_day * f64::from(counted)).min(1.0)
    }
}

/// Rounds away float noise (0.1 × 3 = 0.30000000000000004).
fn round_fraction(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

/// Returns `text` lowercased, its words one space apart and each `%` joined to its number.
fn normal_words(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").to_lowercase().replace(" %", "%")
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}% per day", round_fraction(self.per_day * 100.0))?;
        if let Some(n) = self.max_days {
            write!(f, ", at most {n} day{}", if n == 1 { "" } else { "s" })?;
        }
        if self.then_zero {
            f.write_str(", then 0")?;
        }
        Ok(())
    }
}

/// Returns the instant `text` names, as [`crib_lms::parse_time`] reads it.
///
/// # Errors
/// [`LatenessError::Time`] naming the text if it is not a time with an offset.
pub fn parse_due(text: &str) -> Result<Timestamp, LatenessError> {
    crib_lms::parse_time(text).ok_or_else(|| LatenessError::Time {
        text: text.to_string(),
    })
}

/// Returns the grace period `text` names: `15m`, `2h`, `1h 30m`, `90s` or ISO 8601
/// (`PT15M`); not negative.
///
/// # Errors
/// [`LatenessError::Grace`] naming the text otherwise.
pub fn parse_grace(text: &str) -> Result<SignedDuration, LatenessError> {
    match text.trim().parse::<SignedDuration>() {
        Ok(d) if !d.is_negative() => Ok(d),
        _ => Err(LatenessError::Grace {
            text: text.to_string(),
        }),
    }
}

/// A student's extension: a new due time, or days added to the class's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extension {
    /// A new due time.
    Until(Timestamp),
    /// Whole days added to the due time.
    Days(u32),
}

/// One keyed line of an extensions or times file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keyed<T> {
    /// The student as the file names them (see [`Deadline::assess`]).
    pub key: String,
    /// The line the file gives it on.
    pub line: u64,
    /// The value.
    pub value: T,
}

/// The lines of an extensions or times file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedFile<T> {
    /// The file read.
    pub path: PathBuf,
    /// Its lines, in order.
    pub lines: Vec<Keyed<T>>,
}

/// Per-student extensions (`--extensions FILE`).
pub type Extensions = KeyedFile<Extension>;

/// Submission times (`--times FILE`), which win over the LMS's.
pub type Times = KeyedFile<Timestamp>;

impl<T> Default for KeyedFile<T> {
    fn default() -> Self {
        KeyedFile {
            path: PathBuf::new(),
            lines: Vec::new(),
        }
    }
}

impl Extensions {
    /// Reads an extensions file: CSV, two cells a line, the student (a submission name, an
    /// LMS id, a name, an email or a SIS id) then a new due time
    /// (`2026-09-03T17:00+10:00`) or days added (`3`, `3 days`, `+3 days`). A first line
    /// whose first cell is `student`, `submission`, `id` or `name` is a header; blank lines
    /// are skipped.
    ///
    /// # Errors
    /// [`LatenessError::Io`] if the file cannot be read; [`LatenessError::Line`], naming
    /// the line an editor shows, for a line without two cells, an empty student, or a
    /// value that is neither a time nor days.
    pub fn read(path: &Path) -> Result<Extensions, LatenessError> {
        read_keyed(path, |cell| {
            if let Some(t) = crib_lms::parse_time(cell) {
                return Ok(Extension::Until(t));
            }
            let days = |n: &str| n.starts_with(|c: char| c == '+' || c.is_ascii_digit());
            match normal_words(cell).split_whitespace().collect::<Vec<_>>()[..] {
                [n] | [n, "day" | "days"] if days(n) => n
                    .strip_prefix('+')
                    .unwrap_or(n)
                    .parse::<u32>()
                    .map(Extension::Days)
                    .map_err(|_| format!("{cell:?}: the days must be a whole number, 0 or more")),
                _ => Err(format!("{cell:?} is neither a due time with its UTC offset (2026-09-03T17:00+10:00) nor days (3 days)")),
            }
        })
    }
}

impl Times {
    /// Reads a times file: CSV, two cells a line, the submission (its name, or the student
    /// as [`Extensions::read`] says) then its time with its UTC offset. Headers and blank
    /// lines as there.
    ///
    /// # Errors
    /// As [`Extensions::read`], for a time that is not one.
    pub fn read(path: &Path) -> Result<Times, LatenessError> {
        read_keyed(path, |cell| {
            crib_lms::parse_time(cell).ok_or_else(|| {
                format!("{cell:?} is not a time with its UTC offset (2026-09-01T16:59:00+10:00)")
            })
        })
    }
}

impl<T> KeyedFile<T> {
    /// Returns the last line naming a report whose [`keys`] are `keys`.
    fn last_naming(&self, keys: &[String]) -> Option<&Keyed<T>> {
        self.lines.iter().rev().find(|l| names(keys, &l.key))
    }

    /// Returns a `file:line: "key" names no submission` warning for each line naming none of
    /// the reports whose [`keys`] are `all`.
    fn unmatched<'a>(&'a self, all: &'a [Vec<String>]) -> impl Iterator<Item = String> + 'a {
        self.lines
            .iter()
            .filter(|l| !all.iter().any(|keys| names(keys, &l.key)))
            .map(|l| {
                let (path, line, key) = (self.path.display(), l.line, &l.key);
                format!("{path}:{line}: {key:?} names no submission")
            })
    }
}

fn read_keyed<T>(
    path: &Path,
    value: impl Fn(&str) -> Result<T, String>,
) -> Result<KeyedFile<T>, LatenessError> {
    let bytes = std::fs::read(path).map_err(|source| LatenessError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_keyed(&bytes, path, value)
}

fn parse_keyed<T>(
    text: &[u8],
    path: &Path,
    value: impl Fn(&str) -> Result<T, String>,
) -> Result<KeyedFile<T>, LatenessError> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let line_of = |p: Option<&csv::Position>| p.map_or(1, |p| crib_lms::line_at(text, p.byte()));
    let at = |line, message: String| LatenessError::Line {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text);
    let mut lines = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| at(line_of(e.position()), format!("not CSV: {e}")))?;
        let line = line_of(record.position());
        let cells: Vec<&str> = record.iter().map(str::trim).collect();
        if cells.iter().all(|c| c.is_empty()) {
            continue;
        }
        let first = cells[0].to_lowercase();
        if i == 0 && ["student", "submission", "id", "name"].contains(&first.as_str()) {
            continue;
        }
        if cells.len() != 2 {
            let n = cells.len();
            return Err(at(
                line,
                format!("{n} cells; expected two: the student, then the value"),
            ));
        }
        if cells[0].is_empty() {
            return Err(at(line, "the student is empty".into()));
        }
        let value = value(cells[1]).map_err(|m| at(line, m))?;
        lines.push(Keyed {
            key: cells[0].to_string(),
            line,
            value,
        });
    }
    Ok(KeyedFile {
        path: path.to_path_buf(),
        lines,
    })
}

/// Where a submission's time came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeSource {
    /// The times file (`--times`).
    Times,
    /// The LMS's record of the submission.
    Lms,
    /// Only the LMS's late flag: late, by how much unknown (Canvas's `_LATE`).
    LateFlag,
    /// Only the LMS's flag saying it was not late.
    OnTimeFlag,
    /// Nothing: no time, no flag.
    Unknown,
}

/// A submission's lateness under a [`Deadline`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Assessment {
    /// Its due time, after any extension.
    pub due: Timestamp,
    /// Whether an extension applied.
    pub extended: bool,
    /// When it was submitted, if known.
    pub submitted: Option<Timestamp>,
    /// Where that came from.
    pub source: TimeSource,
    /// Days late (any part of a day counts as one; 0 within the grace period, or when only
    /// the LMS's flag says it was not late); `None` when unknown: only the LMS's late flag
    /// (Canvas's `_LATE`), or nothing, and no penalty is guessed.
    pub days: Option<u32>,
    /// The share of the mark taken off, 0 to 1; `None` when the days are unknown.
    pub fraction: Option<f64>,
}

impl Assessment {
    /// Returns the marks taken off a mark of `base`, two decimals; `None` when the days are
    /// unknown.
    pub fn penalty(&self, base: f64) -> Option<f64> {
        self.fraction.map(|f| round2(base * f))
    }

    /// Returns `base` less the [penalty](Assessment::penalty), two decimals; `None` when the
    /// days are unknown.
    pub fn after(&self, base: f64) -> Option<f64> {
        self.penalty(base).map(|p| round2(base - p))
    }

    /// Returns one line saying it: `on time`, `2 days late: −20%`, `late (the LMS's flag),
    /// by how much unknown: no penalty computed`...
    pub fn describe(&self) -> String {
        let ext = if self.extended { " (extended)" } else { "" };
        match (self.days, self.fraction) {
            (Some(0), _) => format!("on time{ext}"),
            (Some(d), Some(f)) => format!(
                "{d} day{} late{ext}: \u{2212}{}%",
                if d == 1 { "" } else { "s" },
                round_fraction(f * 100.0)
            ),
            _ => match self.source {
                TimeSource::LateFlag => "late by the LMS's flag, by how much unknown (give --times): no penalty computed".into(),
                _ => "submission time unknown (give --times): no penalty computed".into(),
            },
        }
    }
}

/// The class's due time with its policy, grace, extensions and times: what
/// [`Deadline::assess`] needs to give each submission its penalty.
#[derive(Debug, Clone)]
pub struct Deadline {
    /// The class's due time.
    pub due: Timestamp,
    /// The penalty policy.
    pub policy: Policy,
    /// How late a submission may be without penalty.
    pub grace: SignedDuration,
    /// Per-student extensions.
    pub extensions: Extensions,
    /// Submission times that win over the LMS's.
    pub times: Times,
}

impl Deadline {
    /// Returns a deadline with no grace, extensions or times.
    pub fn new(due: Timestamp, policy: Policy) -> Deadline {
        Deadline {
            due,
            policy,
            grace: SignedDuration::ZERO,
            extensions: Extensions::default(),
            times: Times::default(),
        }
    }

    /// Returns `report`'s lateness: its due time (the last extension line naming it, else
    /// the class's), its time (the last times line naming it, else its LMS record's), and
    /// the days late and share taken off.
    ///
    /// A file's line names a report when its student equals (trimmed, in any case) the
    /// report's name, or any of its LMS students' id, name, email, SIS id or SIS login.
    pub fn assess(&self, report: &SubmissionResult) -> Assessment {
        let keys = keys(report);
        let extension = self.extensions.last_naming(&keys);
        let due = match extension.map(|l| l.value) {
            Some(Extension::Until(t)) => t,
            Some(Extension::Days(d)) => self
                .due
                .checked_add(SignedDuration::from_secs(i64::from(d) * DAY_SECONDS))
                .unwrap_or(self.due),
            None => self.due,
        };
        let record = report.lms.as_ref();
        let lms = (
            record.and_then(|r| r.submitted_at),
            record.and_then(|r| r.late),
        );
        let (submitted, source) = match (self.times.last_naming(&keys), lms) {
            (Some(l), _) => (Some(l.value), TimeSource::Times),
            (None, (Some(t), _)) => (Some(t), TimeSource::Lms),
            (None, (None, Some(true))) => (None, TimeSource::LateFlag),
            (None, (None, Some(false))) => (None, TimeSource::OnTimeFlag),
            (None, (None, None)) => (None, TimeSource::Unknown),
        };
        let days = match (submitted, source) {
            (Some(t), _) => Some(days_late(t, due, self.grace)),
            (None, TimeSource::OnTimeFlag) => Some(0),
            _ => None,
        };
        Assessment {
            due,
            extended: extension.is_some(),
            submitted,
            source,
            days,
            fraction: days.map(|d| self.policy.fraction(d)),
        }
    }

    /// Returns this deadline with each extensions and times line that names one of
    /// `reports` keyed by `rename` of that report instead (the line's own words dropped), so
    /// that it still applies to the reports renamed so: blind marking keys them by
    /// pseudonym. Lines naming no report are kept, trimmed and lowercased.
    pub fn rekeyed(
        &self,
        reports: &[SubmissionResult],
        rename: impl Fn(&SubmissionResult) -> String,
    ) -> Deadline {
        let all: Vec<Vec<String>> = reports.iter().map(keys).collect();
        let key_of = |key: &str| match all.iter().position(|keys| names(keys, key)) {
            Some(i) => rename(&reports[i]),
            None => key.trim().to_lowercase(),
        };
        let mut out = self.clone();
        for l in &mut out.extensions.lines {
            l.key = key_of(&l.key);
        }
        for l in &mut out.times.lines {
            l.key = key_of(&l.key);
        }
        out
    }

    /// Returns the lines of the extensions and times files that name no report, as
    /// `file:line: "key" names no submission` warnings.
    pub fn unmatched(&self, reports: &[SubmissionResult]) -> Vec<String> {
        let all: Vec<Vec<String>> = reports.iter().map(keys).collect();
        let extensions = self.extensions.unmatched(&all);
        extensions.chain(self.times.unmatched(&all)).collect()
    }
}

/// Returns the lowercase keys a file's line may name `report` by.
fn keys(report: &SubmissionResult) -> Vec<String> {
    let mut keys = vec![report.name.to_lowercase()];
    for s in report.lms.iter().flat_map(|r| &r.students) {
        keys.push(s.id.to_lowercase());
        let fields = [&s.name, &s.email, &s.sis_id, &s.sis_login]
            .into_iter()
            .flatten();
        keys.extend(fields.map(|field| field.trim().to_lowercase()));
    }
    keys.retain(|k| !k.is_empty());
    keys
}

/// Returns whether a file's `key` names the report whose [`keys`] are `keys`.
fn names(keys: &[String], key: &str) -> bool {
    keys.contains(&key.trim().to_lowercase())
}

/// Returns the days `submitted` is late for `due`: 0 up to `due + grace`, else the days
/// since `due`, any part of a day counting as one.
pub fn days_late(submitted: Timestamp, due: Timestamp, grace: SignedDuration) -> u32 {
    let late = submitted.duration_since(due);
    if late <= grace || late <= SignedDuration::ZERO {
        return 0;
    }
    let secs = late.as_secs() + i64::from(late.subsec_nanos() > 0);
    let days = (secs + DAY_SECONDS - 1) / DAY_SECONDS;
    u32::try_from(days).unwrap_or(u32::MAX)
}

#[cfg(test)]
pub(crate) mod tests;
