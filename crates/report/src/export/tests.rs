use super::*;
use crate::feedback::tests::broken_runs;
use crate::MarksExtras;
use crib_results::VisibilityPolicy;

const FEEDBACK: FeedbackOptions<'static> = FeedbackOptions {
    assignment: DEFAULT_ASSIGNMENT,
    extras: MarksExtras {
        quality: None,
        deadline: None,
    },
    sources: None,
    visibility: VisibilityPolicy::AllVisible,
};

#[test]
fn formats_parse_by_name() {
    for f in GradebookFormat::ALL {
        assert_eq!(f.name().parse::<GradebookFormat>(), Ok(f));
    }
    let err = "blackboard"
        .parse::<GradebookFormat>()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"blackboard\"") && err.contains("canvas, moodle"),
        "{err}"
    );
}

#[test]
fn an_lms_format_needs_that_lms_s_ids_and_writes_nothing_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("back");
    let err = export(&[broken_runs()], GradebookFormat::Moodle, FEEDBACK, &out).unwrap_err();
    assert!(matches!(err, ExportError::NotFromLms { .. }));
    assert_eq!(
        err.to_string(),
        "--export moodle needs results graded from a moodle download (crib grade on the \
         download as it comes); 1 of 1 are not: broken_runs"
    );
    assert!(!out.exists(), "nothing is written");
    let done = export(&[broken_runs()], GradebookFormat::Csv, FEEDBACK, &out).unwrap();
    assert_eq!(done.rows, 1);
    assert!(done.missing.is_empty());
    let csv = std::fs::read_to_string(out.join("gradebook.csv")).unwrap();
    assert!(csv.contains("\nbroken_runs,39.00,18.85,57.84,"), "{csv}");
}

#[test]
fn moodle_folders_keep_the_participant_id_where_moodle_reads_it() {
    assert_eq!(
        moodle_folder("Jane Smith", "55"),
        "Jane Smith_55_assignfeedback_file_"
    );
    // Moodle splits on `_`: the id must be the second part whatever the name holds.
    let folder = moodle_folder("Jo_Anne/O'Neil", "7");
    assert_eq!(folder.split('_').nth(1), Some("7"), "{folder}");
    assert!(!folder.contains('/'));
}

#[test]
fn file_names_stay_in_the_directory() {
    assert_eq!(safe_stem("smithjane-1001"), "smithjane-1001");
    assert_eq!(safe_stem("../x"), "_._x");
    assert_eq!(safe_stem(""), "_");
}
