//! `crib report`: the class report page and the marks CSV of a results directory, and the
//! markers' code-quality sheet.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

#[derive(Debug, Args)]
#[command(after_long_help = AFTER_LONG_HELP)]
#[command(group(clap::ArgGroup::new("quality").args(["quality_sheet", "quality_marks"])))]
pub struct ReportArgs {
    /// The results directory `crib grade --out` wrote (one <name>.json per submission).
    #[arg(value_name = "RESULTS_DIR")]
    results: PathBuf,
    /// Write the class report, one self-contained HTML page, to FILE.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the marks, one CSV row per submission, to FILE ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// The submissions graded (the PATH given to crib grade: a directory, or an LMS's
    /// download, read again as crib grade read it): the page and the --export feedback show
    /// each submission's code-quality findings inline in its source, and the page the ten
    /// most similar pairs as crib similar ranks them. A submission not found there is said so on the
    /// page; that is not an error.
    #[arg(long, value_name = "DIR")]
    submissions: Option<PathBuf>,
    /// Where the similar pairs link to: the page `crib similar --html FILE DIR` writes,
    /// relative to the report.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "similar.html",
        requires = "submissions"
    )]
    similar_page: String,
    /// Write the markers' code-quality sheet to FILE: one row per submission with its
    /// findings summary, an empty column per rubric criterion, and notes. Refuses to
    /// overwrite FILE unless --force.
    #[arg(long, value_name = "FILE", conflicts_with = "quality_marks")]
    quality_sheet: Option<PathBuf>,
    /// With --quality-sheet: overwrite FILE if it exists.
    #[arg(long, requires = "quality_sheet")]
    force: bool,
    /// Read the filled code-quality sheet FILE: --csv gains code_quality (/30) and final
    /// (/100) and the page shows each submission's marks. A blank cell is not marked yet.
    #[arg(long, value_name = "FILE")]
    quality_marks: Option<PathBuf>,
    /// The rubric of the sheet, a TOML file of [[criterion]] tables (id, description, max;
    /// maxima totalling 30). Default: documentation, readability, design, 10 each.
    #[arg(long, value_name = "FILE", requires = "quality")]
    rubric: Option<PathBuf>,
    /// The due time, with its UTC offset (2026-09-01T17:00+10:00): with --late, marks.csv
    /// gains lateness (days), late_penalty and final, and the page a lateness line per
    /// submission, computed from the submission times now (never stored in the results).
    #[arg(long, value_name = "TIME", requires = "late", value_parser = crib_report::parse_due)]
    due: Option<jiff::Timestamp>,
    /// The late policy: "<P>% per day[, at most <N> days[, then 0]]", P% of the mark off per
    /// day late (any part of a day counting as a day), counted up to N days, and 0 past
    /// them with "then 0".
    #[arg(long, value_name = "POLICY", requires = "due", value_parser = crib_report::Policy::parse)]
    late: Option<crib_report::Policy>,
    /// How late a submission may be without penalty (15m, 1h, 1h 30m); past it, days count
    /// from the due time.
    #[arg(long, value_name = "DURATION", requires = "due", value_parser = crib_report::parse_grace)]
    grace: Option<jiff::SignedDuration>,
    /// Per-student extensions, CSV: student (submission name, LMS id, name, email or SIS
    /// id), then a new due time or days added ("3 days").
    #[arg(long, value_name = "FILE", requires = "due")]
    extensions: Option<PathBuf>,
    /// Submission times, CSV: submission (or student as for --extensions), then its time;
    /// they win over the times in the results (Gradescope's created_at).
    #[arg(long, value_name = "FILE", requires = "due")]
    times: Option<PathBuf>,
    /// Blind marking: every submission is named by a stable pseudonym (anon- and 10 hex
    /// digits, an HMAC of its name under the key) in the page, marks.csv and the sheet, and
    /// its name, ids and email are replaced wherever they appear (paths, findings, what it
    /// printed, its source).
    #[arg(long, conflicts_with = "reveal")]
    anonymous: bool,
    /// The staff's secret key for --anonymous, created owner-only (0600) on first use.
    /// Default: RESULTS_DIR/anonymous.key. Keep it from the markers.
    #[arg(long, value_name = "FILE", requires = "anonymous")]
    anonymous_key: Option<PathBuf>,
    /// Undo blind marking with the key FILE: read the --quality-marks sheet the markers
    /// filled under pseudonyms, and write the page and marks.csv with the real names.
    #[arg(long, value_name = "KEY")]
    reveal: Option<PathBuf>,
    /// Hand the marks back to an LMS: write its gradebook file and one feedback file per
    /// student (HTML and text) into --export-dir DIR; canvas, moodle and gradescope need results
    /// graded from that LMS's download. See FORMAT below.
    #[arg(
        long,
        value_name = "FORMAT",
        requires = "out",
        conflicts_with = "anonymous"
    )]
    export: Option<crib_report::GradebookFormat>,
    /// The directory --export writes into (created if need be). `--out DIR`, its first
    /// spelling, still works; -o/--output is the class report page, a file.
    #[arg(
        long = "export-dir",
        visible_alias = "out",
        value_name = "DIR",
        requires = "export"
    )]
    out: Option<PathBuf>,
    /// The assignment's name: Canvas's gradebook column (give it as Canvas exports it,
    /// "Project 1 (12345)", to fill in that assignment) and the feedback's title.
    #[arg(long, value_name = "NAME", requires = "export", default_value = crib_report::DEFAULT_ASSIGNMENT)]
    assignment: String,
    /// Which tests the feedback shows, as for crib grade --gradescope-visibility: all but
    /// hidden ones are shown, feedback going back with the marks.
    #[arg(
        long,
        value_name = "POLICY",
        requires = "export",
        default_value = "all-visible"
    )]
    visibility: crib_results::VisibilityPolicy,
}

/// Returns the deadline the lateness flags give, if any, with a warning on stderr for each
/// file line naming no submission and a count of the submissions whose lateness is unknown.
fn deadline(args: &ReportArgs, blind: &Blind) -> Result<Option<crib_report::Deadline>> {
    let reports = blind.reports.as_slice();
    let (Some(due), Some(policy)) = (args.due, args.late) else {
        return Ok(None);
    };
    let mut deadline = crib_report::Deadline::new(due, policy);
    if let Some(grace) = args.grace {
        deadline.grace = grace;
    }
    if let Some(path) = &args.extensions {
        deadline.extensions = crib_report::Extensions::read(path)?;
    }
    if let Some(path) = &args.times {
        deadline.times = crib_report::Times::read(path)?;
    }
    if let (true, Some(p)) = (args.anonymous, &blind.pseudonyms) {
        for warning in deadline.unmatched(&blind.real) {
            eprintln!("crib: warning: {warning}");
        }
        deadline = deadline.rekeyed(&blind.real, |r| p.of(&r.name));
    } else {
        for warning in deadline.unmatched(reports) {
            eprintln!("crib: warning: {warning}");
        }
    }
    let unknown: Vec<&str> = reports
        .iter()
        .filter(|r| deadline.assess(r).days.is_none())
        .map(|r| r.name.as_str())
        .collect();
    if !unknown.is_empty() {
        eprintln!(
            "crib: warning: lateness unknown for {} of {} submissions (no submission time; give --times): {}",
            unknown.len(),
            reports.len(),
            unknown.join(", ")
        );
    }
    Ok(Some(deadline))
}

const AFTER_LONG_HELP: &str = "\
With none of -o, --csv and --quality-sheet, the page is written to report.html in the current
directory.

Marks CSV columns: student, hand_value (/50), select_hand (/20), total (/70), problems
(`; `-separated, empty when none), test_set (the fingerprint); with --quality-marks also
code_quality (/30) and final (/100), blank until every criterion of the row is marked; with
--due and --late also lateness and late_penalty before final. One row per submission, sorted by
student.

Lateness (computed from the dates every time; the results never store a penalty):
  crib report RESULTS --due 2026-09-01T17:00+10:00 --late \"10% per day, at most 5 days, then 0\" \\
      --grace 15m --extensions ext.csv --times times.csv --csv marks.csv
  marks.csv gains lateness (whole days late; any part of a day is a day), late_penalty (marks
  off the mark before it: total, or total + code_quality with --quality-marks) and final. A
  submission's time is from --times, else from its result (Gradescope's created_at). With only
  Canvas's _LATE flag, or no time at all, its lateness is unknown: those cells stay blank and a
  warning names it (no penalty is guessed); a Canvas file without _LATE is on time.
  ext.csv lines:   student,extension    smithjane-1001,3 days    1002,2026-09-05T17:00+10:00
  times.csv lines: submission,time      kimbo-1004,2026-09-01T18:05+10:00

Blind marking:
  crib report RESULTS --anonymous --quality-sheet sheet.csv -o report.html   # pseudonyms
  crib report RESULTS --reveal RESULTS/anonymous.key --quality-marks sheet.csv --csv marks.csv
  The key (RESULTS/anonymous.key unless --anonymous-key) is created owner-only on first use;
  the same key gives the same pseudonyms every run. Names, ids, emails and paths are
  replaced in every string of the page, marks.csv and the sheet, and in the source shown.

Code quality (the markers' 30 marks):
  crib report RESULTS --quality-sheet sheet.csv         # write the sheet, once
  (markers fill in documentation, readability, design and notes in any spreadsheet)
  crib report RESULTS --submissions DIR --quality-marks sheet.csv -o report.html --csv marks.csv

A rubric file (--rubric) looks like:
  [[criterion]]
  id = \"documentation\"
  description = \"Header comment; a comment and modes before each predicate\"
  max = 10
  (one [[criterion]] per sheet column; the maxima must total 30)

Exporting to an LMS (--export FORMAT --export-dir DIR, or --out DIR as before): the mark is
total (/70), or total + code_quality (/100) with --quality-marks, less the late penalty with
--due and --late, as in marks.csv; a blank grade (sheet incomplete, lateness unknown) is said
on stderr. DIR gets the gradebook, feedback/<submission>.html (self-contained, readable on a
phone) and .txt:
  canvas      canvas-gradebook.csv: Student, ID, SIS User ID, SIS Login ID, Section, then
              the --assignment column; a Points Possible row. Gradebook > Import. Canvas
              matches rows on ID (its user id, from the download's file names).
  moodle      moodle-grading-worksheet.csv: Identifier (Participant N), Full name, Email
              address, Status, Grade, Maximum Grade, Grade can be changed, Last modified
              (submission), Last modified (grade) (\"-\": tick \"allow updating records
              modified more recently in Moodle\" if Moodle holds grades already), Feedback
              comments; Status and Grade can be changed stay blank (Moodle's own, its importer
              ignores them). View all submissions > Upload grading worksheet. And
              moodle-feedback.zip: <Full name>_<participant id>_assignfeedback_file_/feedback.html
              and .txt, for \"Upload multiple feedback files in a zip\".
  gradescope  gradescope-scores.csv: Name, SID, Email, Total Score, Max Points, a row per
              group member; match on SID or Email when uploading.
  csv         gradebook.csv: marks.csv with every column the sheet and policy add.
  A cell crib does not know (a SIS id, a section, an email: give crib grade --roster) stays
  blank, and a warning names the students. --export canvas, moodle or gradescope on results
  not graded from that LMS's download exits 2 naming them: their rows would have no id the LMS
  can match. Under --reveal the sheet's marks go to the real students; --export refuses
  --anonymous (an LMS needs the real ids).

Exit codes: 0 written; 2 bad usage, an unreadable RESULTS_DIR or a file in it that is not a
result of crib grade, a bad rubric, an existing sheet without --force, or a bad sheet (an
unknown or repeated submission, a mark that is not a number or is outside 0 to the
criterion's maximum, a missing column: the message names the line and column), a bad --due,
--late or --grace (naming the bad part), or a bad line of --extensions or --times (naming
file:line).";

/// The results as the outputs show them: anonymized under --anonymous, with the
/// pseudonyms to read a sheet with under --reveal.
struct Blind {
    /// The results as the outputs name them.
    reports: Vec<crib_results::SubmissionResult>,
    /// Under --anonymous, the pseudonyms the outputs use; under --reveal, those of the sheet.
    pseudonyms: Option<crib_report::Pseudonyms>,
    /// The real results, under --anonymous or --reveal.
    real: Vec<crib_results::SubmissionResult>,
}

fn blind(args: &ReportArgs, real: Vec<crib_results::SubmissionResult>) -> Result<Blind> {
    let key = if args.anonymous {
        let path = args
            .anonymous_key
            .clone()
            .unwrap_or_else(|| args.results.join("anonymous.key"));
        let (key, created) = crib_report::Key::read_or_create(&path)?;
        if created {
            eprintln!(
                "crib: created the blind-marking key {} (owner-only; keep it from the markers, \
                 --reveal needs it)",
                path.display()
            );
        }
        key
    } else if let Some(path) = &args.reveal {
        crib_report::Key::read(path)?
    } else {
        return Ok(Blind {
            reports: real,
            pseudonyms: None,
            real: Vec::new(),
        });
    };
    let pseudonyms = crib_report::Pseudonyms::new(&key, &real)?;
    Ok(Blind {
        reports: if args.anonymous {
            pseudonyms.anonymize(&real)?
        } else {
            real.clone()
        },
        pseudonyms: Some(pseudonyms),
        real,
    })
}

/// Returns the source of each report from `path`: the directory crib grade graded, or the
/// LMS's download it graded (a zip or a folder in an LMS's layout), read again as crib grade
/// read it into a private work directory, removed once the sources are read.
fn read_sources(
    path: &std::path::Path,
    reports: &[crib_results::SubmissionResult],
) -> Result<crib_report::Sources> {
    if !crate::download::is_download(path, None) {
        return Ok(crib_report::Sources::read(path, reports)?);
    }
    // crib grade said what the download held and left out (and kept it in
    // OUT/lms/intake.json): read again quietly, saying only what stops showing the source.
    let intake = crate::download::take_in(&[path.to_path_buf()], None, None, false, false)?;
    for (source, why) in &intake.unreadable {
        eprintln!(
            "crib: warning: --submissions {}: {why}; no source is shown",
            source.display()
        );
    }
    let mut sources = crib_report::Sources::of_submissions(&intake.submissions, reports, path);
    for dir in &intake.plain {
        // A download in no LMS's layout: its folder graded as crib grades a directory.
        let plain = crib_report::Sources::read(dir, reports)?;
        for (name, source) in plain.by_name {
            if matches!(source, crib_report::SubmissionSource::Found(_)) {
                sources.by_name.insert(name, source);
            }
        }
    }
    Ok(sources)
}

pub fn run(args: &ReportArgs) -> Result<()> {
    let started = Instant::now();
    let blind = blind(args, crib_report::read_results(&args.results)?)?;
    let reports = &blind.reports;
    let rubric = match &args.rubric {
        Some(path) => crib_report::Rubric::read(path)?,
        None => crib_report::Rubric::default_rubric(),
    };
    if let Some(path) = &args.quality_sheet {
        crib_report::write_sheet_file(reports, &rubric, path, args.force)?;
        eprintln!(
            "crib: code-quality sheet of {} submissions in {} (columns: {})",
            reports.len(),
            path.display(),
            crib_report::sheet_columns(&rubric).join(", ")
        );
    }
    let marks = match &args.quality_marks {
        Some(path) => {
            let marks = match (&args.reveal, &blind.pseudonyms) {
                (Some(_), Some(p)) => {
                    // The sheet names the pseudonyms: read it against them, then rename.
                    let under = p.anonymize(reports)?;
                    let mut marks = crib_report::read_sheet(path, &under, &rubric)?;
                    marks.rows = std::mem::take(&mut marks.rows)
                        .into_iter()
                        .map(|(name, row)| {
                            (p.by_pseudonym.get(&name).cloned().unwrap_or(name), row)
                        })
                        .collect();
                    marks
                }
                _ => crib_report::read_sheet(path, reports, &rubric)?,
            };
            eprintln!(
                "crib: code-quality marks of {} of {} submissions complete in {}",
                marks.complete(),
                reports.len(),
                path.display()
            );
            Some(marks)
        }
        None => None,
    };
    let deadline = deadline(args, &blind)?;
    let extras = crib_report::MarksExtras {
        quality: marks.as_ref(),
        deadline: deadline.as_ref(),
    };
    let nothing_asked = args.csv.is_none() && args.quality_sheet.is_none() && args.export.is_none();
    let html = args
        .output
        .clone()
        .or_else(|| nothing_asked.then(|| PathBuf::from("report.html")));
    if let Some(path) = &html {
        if path.is_dir() {
            bail!("{} is a directory; -o takes a file name", path.display());
        }
    }
    // Read once, for the export and the page alike.
    let sources = match &args.submissions {
        Some(dir) if args.export.is_some() || html.is_some() => {
            Some(match (args.anonymous, &blind.pseudonyms) {
                (true, Some(p)) => {
                    p.anonymize_sources(&read_sources(dir, &blind.real)?, &blind.real)
                }
                _ => read_sources(dir, reports)?,
            })
        }
        _ => None,
    };
    if let (Some(format), Some(dir)) = (args.export, &args.out) {
        let feedback = crib_report::FeedbackOptions {
            assignment: &args.assignment,
            extras,
            sources: sources.as_ref(),
            visibility: args.visibility,
        };
        let exported = crib_report::export(reports, format, feedback, dir)?;
        for line in &exported.missing {
            eprintln!("crib: warning: {line}");
        }
        eprintln!(
            "crib: {format} gradebook of {} rows in {}, and {} feedback files in {}",
            exported.rows,
            dir.join(format.gradebook_file()).display(),
            exported
                .files
                .iter()
                .filter(|f| f.starts_with("feedback"))
                .count(),
            dir.join("feedback").display()
        );
        if format == crib_report::GradebookFormat::Moodle {
            eprintln!(
                "crib: moodle feedback files zip in {}",
                dir.join("moodle-feedback.zip").display()
            );
        }
    }
    if let Some(path) = &html {
        let class = crib_report::Class::new(reports);
        let similar = sources
            .as_ref()
            .map(|s| crib_report::SimilarPairs::new(s, &args.similar_page));
        let extras = crib_report::PageExtras {
            sources: sources.as_ref(),
            similar: similar.as_ref(),
            marks: extras,
        };
        let page = crib_report::html(&class, reports, extras);
        std::fs::write(path, &page).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!(
            "crib: class report of {} submissions in {} ({} KiB, {:.2} s)",
            reports.len(),
            path.display(),
            page.len().div_ceil(1024),
            started.elapsed().as_secs_f64()
        );
    }
    if let Some(path) = &args.csv {
        if path.as_os_str() == "-" {
            crib_report::marks_csv(reports, extras, std::io::stdout().lock())?;
        } else {
            let file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            crib_report::marks_csv(reports, extras, std::io::BufWriter::new(file))
                .with_context(|| format!("cannot write {}", path.display()))?;
            eprintln!(
                "crib: marks of {} submissions in {}",
                reports.len(),
                path.display()
            );
        }
    }
    Ok(())
}
