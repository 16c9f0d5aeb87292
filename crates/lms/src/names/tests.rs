//! Canvas's and Moodle's names, as their downloads write them.

use super::*;

#[test]
fn canvas_names_split_at_the_two_ids() {
    let n = canvas_name("smithjane_123456_7890123_cribbage.pl").unwrap();
    assert_eq!(n.lastfirst, "smithjane");
    assert!(!n.late);
    assert_eq!(n.user_id, "123456");
    assert_eq!(n.submission_id, "7890123");
    assert_eq!(n.original, "cribbage.pl");
    // An original name with underscores and digits of its own.
    let n = canvas_name("obrien-kate_LATE_55_66_my_file_2_3.pl").unwrap();
    assert_eq!((n.lastfirst.as_str(), n.late), ("obrien-kate", true));
    assert_eq!(
        (n.user_id.as_str(), n.original.as_str()),
        ("55", "my_file_2_3.pl")
    );
    // Canvas lowercases the part before the ids: `_late_`.
    let n = canvas_name("doejohn_late_1002_70003_cribbage-1.pl").unwrap();
    assert_eq!((n.lastfirst.as_str(), n.late), ("doejohn", true));
    // Not Canvas's.
    for name in [
        "cribbage.pl",
        "smith_12_cribbage.pl",
        "_1_2_x.pl",
        "smith_1_2_",
        "smith_x_2_y",
    ] {
        assert_eq!(canvas_name(name), None, "{name}");
    }
}

#[test]
fn moodle_names_folders_and_flat_files() {
    let n = moodle_name("Jane Smith_4242_assignsubmission_file").unwrap();
    assert_eq!(
        (n.name.as_deref(), n.plugin.as_str()),
        (Some("Jane Smith"), "file")
    );
    let n = moodle_name("Jane Smith_4242_assignsubmission_onlinetext_").unwrap();
    assert_eq!(n.plugin, "onlinetext");
    let n = moodle_name("Jane Smith_4242_assignsubmission_file_my_code.pl").unwrap();
    assert_eq!(n.original.as_deref(), Some("my_code.pl"));
    for name in [
        "Jane_assignsubmission_file_",
        "Jane Smith_x1_assignsubmission_file_",
        "x.pl",
    ] {
        assert_eq!(moodle_name(name), None, "{name}");
    }
}

#[test]
fn renamed_uploads_and_slugs() {
    assert_eq!(
        canvas_original("cribbage-1.pl").as_deref(),
        Some("cribbage.pl")
    );
    assert_eq!(canvas_original("cribbage-12").as_deref(), Some("cribbage"));
    assert_eq!(canvas_original("cribbage.pl"), None);
    assert_eq!(canvas_original("-1.pl"), None);
    assert_eq!(slug("Jane O'Brien"), "jane-o-brien");
    assert_eq!(slug("Ünsal"), "ünsal");
    assert_eq!(slug(" --- "), "student");
}
