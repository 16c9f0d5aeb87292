//! Code quality in the class report: how many submissions break each rule
//! ([`QualityClass`]), and the submissions' source to show the findings in
//! ([`Sources`]).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Component, Path};

use crib_results::SubmissionResult;

use crate::ReportError;

/// The most bytes of one source file the page shows.
pub const MAX_SOURCE_BYTES: u64 = 256 * 1024;

/// One rule in the class: how many submissions break it, and how often.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCount {
    /// The rule's code, e.g. `D102`.
    pub rule: String,
    /// How many linted submissions have at least one finding of it.
    pub submissions: usize,
    /// How many findings of it there are in all.
    pub findings: usize,
}

/// The code-quality findings of the class, from the results' `quality` sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualityClass {
    /// How many results have a quality section.
    pub linted: usize,
    /// How many of those have no finding.
    pub clean: usize,
    /// Every rule with a finding, most submissions first (ties by code).
    pub rules: Vec<RuleCount>,
}

impl QualityClass {
    /// Returns the class's findings by rule, or `None` when no result has a quality section.
    pub fn new(reports: &[SubmissionResult]) -> Option<QualityClass> {
        let linted: Vec<&crib_results::Lint> =
            reports.iter().filter_map(|r| r.quality.as_ref()).collect();
        if linted.is_empty() {
            return None;
        }
        let mut by_rule: BTreeMap<&str, RuleCount> = BTreeMap::new();
        for (rule, n) in linted.iter().flat_map(|l| &l.summary.by_rule) {
            let count = by_rule.entry(rule).or_insert_with(|| RuleCount {
                rule: rule.clone(),
                submissions: 0,
                findings: 0,
            });
            count.submissions += 1;
            count.findings += n;
        }
        let mut rules: Vec<RuleCount> = by_rule.into_values().collect();
        rules.sort_by(|a, b| b.submissions.cmp(&a.submissions).then(a.rule.cmp(&b.rule)));
        Some(QualityClass {
            linted: linted.len(),
            clean: linted.iter().filter(|l| l.findings.is_empty()).count(),
            rules,
        })
    }
}

/// One source file of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The file, relative to the submission, as findings name it.
    pub file: String,
    /// Its text (invalid UTF-8 replaced), at most `MAX_SOURCE_BYTES`.
    pub text: String,
    /// Whether the text was cut at `MAX_SOURCE_BYTES`.
    pub truncated: bool,
}

/// What was found of one submission's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubmissionSource {
    /// Its files, in the order it loaded them.
    Found(Vec<SourceFile>),
    /// Why it is not shown (not in the directory, unreadable...).
    Missing(String),
}

/// The source of each submission, found in the directory the results were graded from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// By submission name.
    pub by_name: BTreeMap<String, SubmissionSource>,
}

impl Sources {
    /// Returns the source of each of `reports`, found in `dir` with `crib grade`'s naming
    /// rules ([`crib_submission::survey`]: a `.pl` file or a directory per submission, named by
    /// its stem or directory name). A submission not found, or whose files cannot be read,
    /// gets [`SubmissionSource::Missing`] saying why; that is not an error. A directory
    /// submission shows the files its result says were loaded (else its `.pl` files); symbolic
    /// links are never followed.
    ///
    /// # Errors
    /// [`ReportError::Submissions`] if `dir` itself cannot be surveyed.
    pub fn read(dir: &Path, reports: &[SubmissionResult]) -> Result<Sources, ReportError> {
        let found = crib_submission::survey(&[dir.to_path_buf()], false).map_err(|source| {
            ReportError::Submissions {
                path: dir.to_path_buf(),
                source,
            }
        })?;
        Ok(Sources::of_submissions(&found.submissions, reports, dir))
    }

    /// Returns the source of each of `reports` among `submissions` (found in `from`, which
    /// messages name), matched by name as [`Sources::read`] does: what `crib report
    /// --submissions` reads of an LMS's download, once it is extracted.
    pub fn of_submissions(
        submissions: &[crib_submission::Submission],
        reports: &[SubmissionResult],
        from: &Path,
    ) -> Sources {
        let submissions: BTreeMap<&str, &crib_submission::Submission> =
            submissions.iter().map(|s| (s.name.as_str(), s)).collect();
        let by_name = reports
            .iter()
            .map(|r| {
                let source = match submissions.get(r.name.as_str()) {
                    None => SubmissionSource::Missing(format!(
                        "no submission named {:?} in {}",
                        r.name,
                        from.display()
                    )),
                    Some(submission) => read_submission(submission, r),
                };
                (r.name.clone(), source)
            })
            .collect();
        Sources { by_name }
    }
}

fn read_submission(
    submission: &crib_submission::Submission,
    report: &SubmissionResult,
) -> SubmissionSource {
    let path = submission.path.as_path();
    if path.is_file() {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return match read_file(path) {
            Ok((text, truncated)) => SubmissionSource::Found(vec![SourceFile {
                file,
                text,
                truncated,
            }]),
            Err(why) => SubmissionSource::Missing(why),
        };
    }
    let mut names: Vec<String> = report.load.files.clone();
    let named = report.quality.iter().flat_map(|q| &q.findings);
    for finding in named {
        if !names.contains(&finding.file) {
            names.push(finding.file.clone());
        }
    }
    if names.is_empty() {
        // Nothing loaded and nothing found: the files the grader would load.
        names = submission
            .listing(crib_submission::MAX_BYTES)
            .map(|staged| staged.load)
            .unwrap_or_default();
    }
    let inside = |name: &String| {
        Path::new(name)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    };
    let files: Vec<SourceFile> = (names.into_iter().filter(inside))
        .filter_map(|file| {
            let (text, truncated) = read_file(&path.join(&file)).ok()?;
            Some(SourceFile {
                file,
                text,
                truncated,
            })
        })
        .collect();
    if files.is_empty() {
        SubmissionSource::Missing(format!("no readable .pl file in {}", path.display()))
    } else {
        SubmissionSource::Found(files)
    }
}

/// Returns the start of the regular file `path` and whether it was cut; never follows a
/// symbolic link.
fn read_file(path: &Path) -> Result<(String, bool), String> {
    let why = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let meta = std::fs::symlink_metadata(path).map_err(why)?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SOURCE_BYTES).read_to_end(&mut bytes))
        .map_err(why)?;
    Ok((
        String::from_utf8_lossy(&bytes).into_owned(),
        meta.len() > MAX_SOURCE_BYTES,
    ))
}

#[cfg(test)]
pub(crate) mod tests;
