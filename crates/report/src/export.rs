//! Handing marks back to the LMS: the gradebook file in its own import format, one feedback
//! file per student (HTML and text), and for Moodle the feedback zip in its upload layout.
//! Every grade is [`crate::marks`]'s; a cell crib does not know stays blank
//! ([`Exported::missing`]).

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crib_results::{Layout, SubmissionResult};

use crate::feedback::{feedback_html, feedback_text, student_name, FeedbackOptions};
use crate::marks::{graded, out_of, write_marks, MarksExtras};

/// The assignment's name when `--assignment` does not give one.
pub const DEFAULT_ASSIGNMENT: &str = "Project 1";

/// Which LMS the gradebook is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GradebookFormat {
    /// Canvas's gradebook import, whose rows Canvas matches on `ID`; the assignment's column
    /// (`Project 1 (12345)`) names an existing assignment by its id.
    Canvas,
    /// Moodle's assignment "offline grading worksheet", and the feedback files zip
    /// ([`moodle_folder`]).
    Moodle,
    /// A score upload for Gradescope.
    Gradescope,
    /// crib's own gradebook: marks.csv with every column the sheet and the policy add.
    Csv,
}

impl GradebookFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [GradebookFormat; 4] = [
        GradebookFormat::Canvas,
        GradebookFormat::Moodle,
        GradebookFormat::Gradescope,
        GradebookFormat::Csv,
    ];

    /// Returns the format's name on the command line: `canvas`, `moodle`, `gradescope`,
    /// `csv`.
    pub fn name(self) -> &'static str {
        match self {
            GradebookFormat::Canvas => "canvas",
            GradebookFormat::Moodle => "moodle",
            GradebookFormat::Gradescope => "gradescope",
            GradebookFormat::Csv => "csv",
        }
    }

    /// Returns the gradebook file's name in the output directory.
    pub fn gradebook_file(self) -> &'static str {
        match self {
            GradebookFormat::Canvas => "canvas-gradebook.csv",
            GradebookFormat::Moodle => "moodle-grading-worksheet.csv",
            GradebookFormat::Gradescope => "gradescope-scores.csv",
            GradebookFormat::Csv => "gradebook.csv",
        }
    }

    /// Returns the download layout whose ids the format's rows need, if any.
    pub fn layout(self) -> Option<Layout> {
        match self {
            GradebookFormat::Canvas => Some(Layout::Canvas),
            GradebookFormat::Moodle => Some(Layout::Moodle),
            GradebookFormat::Gradescope => Some(Layout::Gradescope),
            GradebookFormat::Csv => None,
        }
    }
}

impl fmt::Display for GradebookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no export [`GradebookFormat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {text:?}: expected canvas, moodle, gradescope or csv")]
pub struct GradebookFormatError {
    /// The text given.
    pub text: String,
}

impl FromStr for GradebookFormat {
    type Err = GradebookFormatError;

    /// Parses a [`GradebookFormat::name`].
    ///
    /// # Errors
    /// [`GradebookFormatError`] quoting `s` when it names none of the formats.
    fn from_str(s: &str) -> Result<GradebookFormat, GradebookFormatError> {
        GradebookFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| GradebookFormatError {
                text: s.to_string(),
            })
    }
}

/// What an export wrote, and what it could not fill in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exported {
    /// The files written, relative to the output directory, in the order written.
    pub files: Vec<PathBuf>,
    /// Gradebook rows written.
    pub rows: usize,
    /// One line per field the LMS's file has but the results do not know, naming the
    /// students: those cells are blank.
    pub missing: Vec<String>,
}

/// What stops an export.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// Some results did not come from that LMS's download, so their rows would have no id
    /// the LMS can match.
    #[error(
        "--export {format} needs results graded from a {layout} download (crib grade on the \
         download as it comes); {} of {total} are not: {}",
        names.len(),
        names.join(", ")
    )]
    NotFromLms {
        /// The format asked for.
        format: GradebookFormat,
        /// The layout it needs.
        layout: Layout,
        /// The submissions without it.
        names: Vec<String>,
        /// How many results there are.
        total: usize,
    },
    /// A file cannot be written.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The gradebook cannot be written.
    #[error("cannot write the gradebook")]
    Csv(#[from] csv::Error),
    /// The Moodle feedback zip cannot be written.
    #[error("cannot write the feedback zip")]
    Zip(#[from] zip::result::ZipError),
}

/// Writes the export of `reports` for `format` into the directory `out` (created if need
/// be): the gradebook ([`GradebookFormat::gradebook_file`]), `feedback/<submission>.html` and
/// `.txt` per submission (made of `feedback`, whose assignment is also Canvas's column and
/// whose marks are the gradebook's), and for Moodle `moodle-feedback.zip`. The same results,
/// sheet and dates always give the same files.
///
/// # Errors
/// [`ExportError::NotFromLms`] (naming them) if any result lacks the LMS's record the
/// format needs (a usage error: nothing is written); [`ExportError::Write`],
/// [`ExportError::Csv`] or [`ExportError::Zip`] if a file cannot be written.
pub fn export(
    reports: &[SubmissionResult],
    format: GradebookFormat,
    feedback: FeedbackOptions<'_>,
    out: &Path,
) -> Result<Exported, ExportError> {
    let mut sorted: Vec<&SubmissionResult> = reports.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(layout) = format.layout() {
        let names: Vec<String> = sorted
            .iter()
            .filter(|r| {
                r.lms
                    .as_ref()
                    .is_none_or(|l| l.layout != layout || l.students.is_empty())
            })
            .map(|r| r.name.clone())
            .collect();
        if !names.is_empty() {
            return Err(ExportError::NotFromLms {
                format,
                layout,
                names,
                total: sorted.len(),
            });
        }
    }
    let mut files = Vec::new();
    let mut write = |relative: PathBuf, body: &[u8]| {
        let path = out.join(&relative);
        std::fs::write(&path, body).map_err(|source| ExportError::Write { path, source })?;
        files.push(relative);
        Ok::<(), ExportError>(())
    };
    let feedback_dir = out.join("feedback");
    std::fs::create_dir_all(&feedback_dir).map_err(|source| ExportError::Write {
        path: feedback_dir,
        source,
    })?;
    let mut buffer = Vec::new();
    let mut missing = Missing::default();
    let rows = match format {
        GradebookFormat::Csv => {
            write_marks(reports, feedback.extras, &mut buffer)?;
            sorted.len()
        }
        _ => lms_gradebook(&sorted, format, feedback, &mut missing, &mut buffer)?,
    };
    write(format.gradebook_file().into(), &buffer)?;
    let mut pages = Vec::with_capacity(sorted.len());
    for r in &sorted {
        let stem = safe_stem(&r.name);
        let html = feedback_html(r, feedback);
        let text = feedback_text(r, feedback);
        write(format!("feedback/{stem}.html").into(), html.as_bytes())?;
        write(format!("feedback/{stem}.txt").into(), text.as_bytes())?;
        pages.push((*r, html, text));
    }
    if format == GradebookFormat::Moodle {
        write("moodle-feedback.zip".into(), &moodle_zip(&pages)?)?;
    }
    Ok(Exported {
        files,
        rows,
        missing: missing.lines(format),
    })
}

/// Fields the results do not know, with the students they are missing for.
#[derive(Default)]
struct Missing(BTreeMap<&'static str, Vec<String>>);

impl Missing {
    /// Returns `value`, or records that `field` is unknown for `who` and returns "".
    fn cell(&mut self, field: &'static str, who: &str, value: Option<&str>) -> String {
        match value {
            Some(v) => v.to_string(),
            None => {
                self.0.entry(field).or_default().push(who.to_string());
                String::new()
            }
        }
    }

    fn lines(self, format: GradebookFormat) -> Vec<String> {
        self.0
            .into_iter()
            .map(|(field, who)| {
                let hint = match field {
                    "grade" => {
                        "the marking sheet is incomplete or the lateness unknown (see marks.csv)"
                    }
                    _ => "give the LMS's class list as crib grade --roster",
                };
                format!(
                    "{format}: {field} unknown for {} (left blank; {hint}): {}",
                    who.len(),
                    who.join(", ")
                )
            })
            .collect()
    }
}

/// Returns the comment Moodle's worksheet carries: the marks in one line, and where the
/// details are.
fn comment(r: &SubmissionResult, extras: MarksExtras<'_>) -> String {
    let m = &r.marks;
    let mut parts = vec![
        format!("hand_value/3 {:.2}/50", m.hand_value),
        format!("select_hand/3 {:.2}/20", m.select_hand),
    ];
    if let Some(q) = extras.quality {
        parts.push(match q.code_quality(&r.name) {
            Some(x) => format!("code quality {x:.2}/30"),
            None => "code quality not marked yet".into(),
        });
    }
    if let Some(d) = extras.deadline {
        parts.push(format!("lateness: {}", d.assess(r).describe()));
    }
    format!("{}. Details in the feedback file.", parts.join("; "))
}

/// Writes the gradebook of an LMS (not [`GradebookFormat::Csv`], which is marks.csv), one row
/// per student (group members each get one), and returns how many rows.
///
/// Each format is checked against what its LMS documents:
/// - Canvas: the columns a gradebook import reads, as the Ohio State University's guide
///   "Import CSV File for Carmen Grades" lists them
///   (<https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades>:
///   a column naming no assignment makes a new one); the export's read-only rows and columns
///   are ignored on re-upload (VCU's "Gradebook Action Menu",
///   <https://ts.vcu.edu/askit/teaching-and-learning/canvas/faculty/grading-faculty/gradebook-action-menu-faculty/>);
///   the `Points Possible` row and the `Name (id)` column are as Canvas's own export writes
///   them. No feedback zip: Canvas's "Re-Upload Submissions" attaches a file under the name
///   of the student's own (<https://github.com/instructure/canvas-lms/issues/2406>), so a
///   feedback page would reach the student as `cribbage.pl`.
/// - Moodle: the offline grading worksheet's columns are those moodle/moodle's
///   `mod/assign/gradingtable.php` writes when downloading, named by
///   `mod/assign/lang/en/assign.php`; its importer,
///   `mod/assign/feedback/offline/importgradeslib.php`, needs `Identifier` (`Participant
///   <id>`), `Grade` and `Last modified (grade)`, finds feedback columns by their name and
///   ignores the rest.
/// - Gradescope: not confirmed against a Gradescope page. Its roster guide ("Adding Students
///   and Staff", <https://help.gradescope.com/article/w59nl02vyt-instructor-course-add-members>)
///   matches students by `Email` (required, unique) and optional `SID`, so the rows carry
///   both; the score columns are those of Gradescope's own grade export.
fn lms_gradebook(
    reports: &[&SubmissionResult],
    format: GradebookFormat,
    feedback: FeedbackOptions<'_>,
    missing: &mut Missing,
    out: &mut Vec<u8>,
) -> Result<usize, ExportError> {
    let max = out_of(feedback.extras.quality).to_string();
    let mut w = csv::Writer::from_writer(out);
    match format {
        GradebookFormat::Canvas => {
            let columns = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"];
            w.write_record(columns.iter().chain([&feedback.assignment]))?;
            w.write_record(["Points Possible", "", "", "", "", &max])?;
        }
        GradebookFormat::Moodle => w.write_record([
            "Identifier",
            "Full name",
            "Email address",
            "Status",
            "Grade",
            "Maximum Grade",
            "Grade can be changed",
            "Last modified (submission)",
            "Last modified (grade)",
            "Feedback comments",
        ])?,
        GradebookFormat::Gradescope => {
            w.write_record(["Name", "SID", "Email", "Total Score", "Max Points"])?
        }
        GradebookFormat::Csv => unreachable!("export writes marks.csv for csv"),
    }
    let mut rows = 0;
    for r in reports {
        let grade = graded(r, feedback.extras).map(|g| format!("{g:.2}"));
        let grade = missing.cell("grade", &r.name, grade.as_deref());
        for s in r.lms.iter().flat_map(|l| &l.students) {
            let name = s.name.clone().unwrap_or_else(|| r.name.clone());
            let row = match format {
                GradebookFormat::Canvas => {
                    let who = format!("{name} ({})", s.id);
                    vec![
                        name,
                        s.id.clone(),
                        missing.cell("SIS User ID", &who, s.sis_id.as_deref()),
                        missing.cell("SIS Login ID", &who, s.sis_login.as_deref()),
                        missing.cell("Section", &who, s.section.as_deref()),
                        grade.clone(),
                    ]
                }
                GradebookFormat::Moodle => {
                    let who = format!("{name} (Participant {})", s.id);
                    let submitted = r.lms.as_ref().and_then(|l| l.submitted_at);
                    vec![
                        format!("Participant {}", s.id),
                        name,
                        missing.cell("Email address", &who, s.email.as_deref()),
                        String::new(),
                        grade.clone(),
                        max.clone(),
                        String::new(),
                        submitted.map_or_else(String::new, |t| {
                            t.strftime("%Y-%m-%d %H:%M:%S UTC").to_string()
                        }),
                        // Moodle's worksheet says "-" for a grade never modified; the
                        // importer skips a row whose grade Moodle changed after this time
                        // unless told to update.
                        "-".into(),
                        comment(r, feedback.extras),
                    ]
                }
                _ => {
                    let who = s.name.clone().unwrap_or_else(|| s.id.clone());
                    vec![
                        missing.cell("Name", &who, s.name.as_deref()),
                        missing.cell("SID", &who, s.sis_id.as_deref()),
                        missing.cell("Email", &who, s.email.as_deref()),
                        grade.clone(),
                        max.clone(),
                    ]
                }
            };
            w.write_record(row)?;
            rows += 1;
        }
    }
    w.flush().map_err(csv::Error::from)?;
    Ok(rows)
}

/// Returns Moodle's folder name for a participant's feedback files:
/// `<Full name>_<participant id>_assignfeedback_file_`. Moodle reads the participant id
/// between the first and second `_`, so the name loses any `_` (and `/`, `\`).
pub fn moodle_folder(full_name: &str, participant: &str) -> String {
    let name = full_name.replace(
        |c: char| matches!(c, '_' | '/' | '\\') || c.is_control(),
        " ",
    );
    format!("{}_{participant}_assignfeedback_file_", name.trim())
}

/// Returns the zip of feedback files Moodle's "Upload multiple feedback files in a zip"
/// takes: `feedback.html` and `feedback.txt` in each participant's folder (every member of a
/// group submission gets their own).
///
/// Checked against Moodle's source: `mod/assign/feedback/file/importziplib.php` splits each
/// path part at `_` into `<full name>_<participant id>_<plugin type>_<plugin name>[_...]`
/// and files what follows under that participant's feedback, as its help text
/// (`feedbackzip_help` in `mod/assign/feedback/file/lang/en/assignfeedback_file.php`) says:
/// "assigned to students based on the participant id which should be the second part of
/// each filename immediately after the users full name".
fn moodle_zip(pages: &[(&SubmissionResult, String, String)]) -> Result<Vec<u8>, ExportError> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    // A fixed time: the same feedback gives the same zip.
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for (r, html, text) in pages {
        for s in r.lms.iter().flat_map(|l| &l.students) {
            let name = s.name.clone().unwrap_or_else(|| student_name(r));
            let folder = moodle_folder(&name, &s.id);
            for (file, body) in [("feedback.html", html), ("feedback.txt", text)] {
                zip.start_file(format!("{folder}/{file}"), options)?;
                zip.write_all(body.as_bytes())
                    .map_err(zip::result::ZipError::Io)?;
            }
        }
    }
    Ok(zip.finish()?.into_inner())
}

/// Returns `name` fit to be a file name: no separators, no leading dot.
fn safe_stem(name: &str) -> String {
    let stem = name.replace(|c: char| matches!(c, '/' | '\\') || c.is_control(), "_");
    match stem.strip_prefix('.') {
        Some(rest) => format!("_{rest}"),
        None if stem.is_empty() => "_".into(),
        None => stem,
    }
}

#[cfg(test)]
mod tests;
