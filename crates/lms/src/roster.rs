//! The LMS's class list: who should have submitted, with their names, emails, sections
//! and SIS ids.

use std::path::{Path, PathBuf};

use crate::error::RosterError;
use crate::intake::Download;
use crib_results::{Layout, Student};

/// A class list, as an LMS exports it: Canvas's gradebook export (Student, ID, SIS User
/// ID, SIS Login ID, Section, ...), Moodle's grading worksheet (Identifier `Participant
/// N`, Full name, Email address, ...) or participants export (First name, Last name, Email
/// address, ...), or Gradescope's roster (First Name, Last Name, SID, Email, Role, ...).
/// Columns are found by their header, in any case and order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roster {
    /// The file read.
    pub path: PathBuf,
    /// The students, in file order, each with the line it is on.
    pub students: Vec<(u64, Student)>,
}

/// The header names of each field, lowercase.
const IDS: &[&str] = &["id", "identifier", "sid", "student id", "user id"];
const NAMES: &[&str] = &["student", "full name", "name"];
const FIRST: &[&str] = &["first name"];
const LAST: &[&str] = &["last name", "surname"];
const EMAILS: &[&str] = &["email", "email address"];
const SIS_IDS: &[&str] = &["sis user id", "id number", "sid"];
const SIS_LOGINS: &[&str] = &["sis login id", "username"];
const SECTIONS: &[&str] = &["section", "sections", "groups"];
const ROLES: &[&str] = &["role", "roles"];

impl Roster {
    /// Reads the class list at `path`. Rows that are not students are passed over:
    /// Canvas's `Points Possible` row and its test student, rows with a role other than
    /// student, rows with neither id nor email.
    ///
    /// # Errors
    /// [`RosterError::Io`] if it cannot be read; [`RosterError::Csv`] for malformed CSV,
    /// naming the line; [`RosterError::NoIdColumn`] if no column holds ids or emails.
    pub fn read(path: &Path) -> Result<Roster, RosterError> {
        let text = std::fs::read(path).map_err(|source| RosterError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Roster::parse(&text, path)
    }

    /// Reads a class list from `text`, read from `path`; see [`Roster::read`].
    ///
    /// # Errors
    /// As [`Roster::read`].
    pub(crate) fn parse(text: &[u8], path: &Path) -> Result<Roster, RosterError> {
        let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
        let csv_error = |e: csv::Error| RosterError::Csv {
            path: path.to_path_buf(),
            line: e.position().map_or(1, |p| line_at(text, p.byte())),
            message: e.to_string(),
        };
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text);
        let header: Vec<String> = reader
            .headers()
            .map_err(csv_error)?
            .iter()
            .map(|h| h.trim().to_lowercase())
            .collect();
        let find = |names: &[&str]| {
            names
                .iter()
                .find_map(|n| header.iter().position(|h| h == n))
        };
        let (id, email) = (find(IDS), find(EMAILS));
        if id.is_none() && email.is_none() {
            return Err(RosterError::NoIdColumn {
                path: path.to_path_buf(),
            });
        }
        let (name, first, last) = (find(NAMES), find(FIRST), find(LAST));
        let (sis_id, sis_login, section, role) =
            (find(SIS_IDS), find(SIS_LOGINS), find(SECTIONS), find(ROLES));
        let mut students = Vec::new();
        for record in reader.records() {
            let record = record.map_err(csv_error)?;
            let line = record.position().map_or(0, |p| line_at(text, p.byte()));
            let cell = |i: Option<usize>| {
                i.and_then(|i| record.get(i))
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
            };
            let full = cell(name).or_else(|| match (cell(first), cell(last)) {
                (Some(f), Some(l)) => Some(format!("{f} {l}")),
                (f, l) => f.or(l),
            });
            if full.as_deref() == Some("Points Possible")
                || full.as_deref() == Some("Student, Test")
                || cell(role).is_some_and(|r| !r.to_lowercase().contains("student"))
            {
                continue;
            }
            let email = cell(email);
            // Moodle's worksheet writes its participant ids `Participant 123`.
            let id = cell(id)
                .map(|i| {
                    i.strip_prefix("Participant ")
                        .map_or(i.clone(), str::to_string)
                })
                .or_else(|| email.clone());
            let Some(id) = id else { continue };
            students.push((
                line,
                Student {
                    id,
                    name: full,
                    email,
                    sis_id: cell(sis_id),
                    sis_login: cell(sis_login),
                    section: cell(section),
                },
            ));
        }
        Ok(Roster {
            path: path.to_path_buf(),
            students,
        })
    }

    /// Fills in what `download`'s records do not say from the roster (a name, email, SIS
    /// id and login, section; the roster's name replaces Canvas's `lastfirst`), and lists
    /// in [`Download::missing`] the roster's students with no submission. A student is
    /// matched by id, else by email, else by name (letters and digits, in any case: Canvas's
    /// `smithjane` is the roster's `Smith, Jane`) when only one roster student has it.
    pub fn apply(&self, download: &mut Download) {
        let mut matched = vec![false; self.students.len()];
        let records = download
            .submissions
            .iter_mut()
            .map(|s| &mut s.record)
            .chain(download.set_aside.iter_mut().map(|s| &mut s.record));
        for record in records {
            let canvas = record.layout == Layout::Canvas;
            for student in &mut record.students {
                let Some(i) = self.find(student) else {
                    continue;
                };
                matched[i] = true;
                let from = &self.students[i].1;
                if canvas || student.name.is_none() {
                    student.name = from.name.clone().or(student.name.take());
                }
                for (to, from) in [
                    (&mut student.email, &from.email),
                    (&mut student.sis_id, &from.sis_id),
                    (&mut student.sis_login, &from.sis_login),
                    (&mut student.section, &from.section),
                ] {
                    if to.is_none() {
                        to.clone_from(from);
                    }
                }
            }
        }
        download.missing = self
            .students
            .iter()
            .zip(&matched)
            .filter(|(_, &m)| !m)
            .map(|((_, s), _)| s.clone())
            .collect();
    }

    /// Returns the index of the roster's student `student` is.
    fn find(&self, student: &Student) -> Option<usize> {
        let by = |f: &dyn Fn(&Student) -> Option<String>| {
            let want = f(student)?;
            let mut hits = self
                .students
                .iter()
                .enumerate()
                .filter(|(_, (_, s))| f(s).as_ref() == Some(&want));
            let first = hits.next()?.0;
            hits.next().is_none().then_some(first)
        };
        by(&|s| Some(s.id.clone()))
            .or_else(|| by(&|s| s.sis_id.clone()))
            .or_else(|| by(&|s| s.email.as_ref().map(|e| e.to_lowercase())))
            .or_else(|| by(&|s| s.name.as_deref().map(name_key)))
    }
}

/// Returns a name's letters and digits, lowercase: `Smith, Jane` and `smithjane` alike.
fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Returns the line, 1-based, that an editor or a spreadsheet shows for byte `at` of `text`,
/// where the csv crate says a record starts: that is before the blank lines it skipped, which
/// are passed over. (The csv crate's own line count leaves out blank lines and lines ended by
/// `\r\n`.) Every CSV file crib reads names its lines so.
pub fn line_at(text: &[u8], at: u64) -> u64 {
    let mut at = (at as usize).min(text.len());
    while matches!(text.get(at), Some(b'\r' | b'\n')) {
        at += 1;
    }
    line_breaks(&text[..at]) + 1
}

/// Returns how many line breaks `bytes` holds: `\r\n`, `\n` or a lone `\r` each count one.
pub fn line_breaks(bytes: &[u8]) -> u64 {
    let lone = |i: usize, b: u8| b == b'\n' || b == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| lone(i, b))
        .count() as u64
}

#[cfg(test)]
mod tests;
