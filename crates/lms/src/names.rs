//! The names Canvas and Moodle give the files of a download.

/// A Canvas download's file name, `<lastfirst>[_LATE]_<userid>_<attachmentid>_<original>`:
/// Canvas's `ContentZipper` names each file of a student's current submission by the
/// student's sortable name and the file's own attachment id, lowercasing the part before
/// the ids (so its late flag is `_late_` where older downloads wrote `_LATE_`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CanvasName {
    /// The student's `lastfirst` (last name then first, lowercase, no spaces).
    pub(crate) lastfirst: String,
    /// Whether Canvas marked the submission late.
    pub(crate) late: bool,
    /// The student's Canvas user id.
    pub(crate) user_id: String,
    /// The file's attachment id: each file of a submission has its own (the field keeps
    /// the name it has in results, `submission_id`).
    pub(crate) submission_id: String,
    /// The file's name as uploaded; Canvas may have renamed a re-uploaded file
    /// `cribbage-1.pl`.
    pub(crate) original: String,
}

/// Returns the parts of a Canvas download's file name, or `None` if `name` is not one.
pub(crate) fn canvas_name(name: &str) -> Option<CanvasName> {
    let parts: Vec<&str> = name.split('_').collect();
    // The first two all-digit parts in a row, after a name and before an original name.
    let i =
        (1..parts.len().saturating_sub(2)).find(|&i| digits(parts[i]) && digits(parts[i + 1]))?;
    let late = parts[i - 1].eq_ignore_ascii_case("LATE") && i >= 2;
    let lastfirst = parts[..if late { i - 1 } else { i }].join("_");
    let original = parts[i + 2..].join("_");
    if lastfirst.is_empty() || original.is_empty() {
        return None;
    }
    Some(CanvasName {
        lastfirst,
        late,
        user_id: parts[i].to_string(),
        submission_id: parts[i + 1].to_string(),
        original,
    })
}

/// A Moodle download's folder or file name,
/// `<Full Name>_<participant id>_assignsubmission_<plugin>[_[<original>]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MoodleName {
    /// The participant's full name (Moodle writes `_` in a name as a space); `None` under
    /// blind marking, where Moodle writes `Participant`.
    pub(crate) name: Option<String>,
    /// The participant id (not the user id: Moodle's grading worksheet has it as
    /// `Participant <id>`).
    pub(crate) participant_id: String,
    /// The submission plugin: `file`, `onlinetext`...
    pub(crate) plugin: String,
    /// For a flat file (downloads not in folders), the name it was uploaded as.
    pub(crate) original: Option<String>,
}

/// Returns the parts of a Moodle download's folder or file name, or `None` if `name` is
/// not one.
pub(crate) fn moodle_name(name: &str) -> Option<MoodleName> {
    let (prefix, rest) = name.split_once("_assignsubmission_")?;
    let (full, id) = prefix.rsplit_once('_')?;
    if !digits(id) || full.trim().is_empty() {
        return None;
    }
    let (plugin, original) = match rest.split_once('_') {
        Some((plugin, "")) => (plugin, None),
        Some((plugin, original)) => (plugin, Some(original.to_string())),
        None => (rest, None),
    };
    if plugin.is_empty() || !plugin.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let full = full.trim();
    Some(MoodleName {
        name: (full != "Participant").then(|| full.to_string()),
        participant_id: id.to_string(),
        plugin: plugin.to_string(),
        original,
    })
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Returns `cribbage.pl` for Canvas's `cribbage-1.pl` (a re-uploaded file renamed), or
/// `None` when `name` has no such suffix.
pub(crate) fn canvas_original(name: &str) -> Option<String> {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, Some(ext)),
        _ => (name, None),
    };
    let (base, n) = stem.rsplit_once('-')?;
    if base.is_empty() || !digits(n) {
        return None;
    }
    Some(match ext {
        Some(ext) => format!("{base}.{ext}"),
        None => base.to_string(),
    })
}

/// Returns `text` as a file-name-safe slug: lowercase letters and digits, other runs of
/// characters as one `-`; `student` when nothing is left.
pub(crate) fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "student".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests;
