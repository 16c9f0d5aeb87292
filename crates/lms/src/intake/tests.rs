//! Sample downloads of each layout, written from the LMSs' documented naming: a student
//! with two files, a resubmission, a late file, a zip in a Moodle folder, hostile zips.

use super::*;
use crate::testing::{write_zip, zeros, zip_of, Entry};

/// Returns the files of a submission directory, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path().strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// Reads `source` into `dest`, made for it.
fn read_into(source: &Path, layout: Option<Layout>, dest: PathBuf) -> Result<Download, LmsError> {
    fs::create_dir(&dest).unwrap();
    read(source, layout, &dest, &DownloadLimits::default())
}

fn names(download: &Download) -> Vec<&str> {
    download
        .submissions
        .iter()
        .map(|s| s.name.as_str())
        .collect()
}

fn messages(download: &Download) -> Vec<String> {
    download.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn a_canvas_download() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("submissions.zip");
    let project = zip_of(&[
        ("project/", Entry::Dir),
        ("project/cribbage.pl", Entry::File(b"% lee's\n")),
        ("__MACOSX/project/._cribbage.pl", Entry::File(b"junk")),
    ]);
    let bomb = zeros();
    let hostile = zip_of(&[
        ("../escape.pl", Entry::File(b"evil.")),
        ("/abs.pl", Entry::File(b"evil.")),
        ("link.pl", Entry::Link("/etc/passwd")),
        ("bomb.pl", Entry::File(&bomb)),
        ("inner.zip", Entry::File(&project)),
        ("ok.pl", Entry::File(b"% fine\n")),
    ]);
    write_zip(
        &zip,
        &[
            // Two files of one submission.
            ("smithjane_1001_5001_cribbage.pl", Entry::File(b"% jane\n")),
            (
                "smithjane_1001_5001_helpers.pl",
                Entry::File(b"% helpers\n"),
            ),
            // Late, and re-uploaded (Canvas renamed it).
            (
                "doejohn_LATE_1002_5002_cribbage-1.pl",
                Entry::File(b"% john\n"),
            ),
            // A zip of a folder.
            ("leeann_1003_5003_project.zip", Entry::File(&project)),
            // Two submission ids of one student: the higher is kept.
            ("kimbo_1004_5004_cribbage.pl", Entry::File(b"% old\n")),
            ("kimbo_1004_5010_cribbage.pl", Entry::File(b"% new\n")),
            // A hostile zip costs only its bad entries.
            ("badguy_1005_5005_evil.zip", Entry::File(&hostile)),
            // Not Canvas's.
            ("notes.txt", Entry::File(b"?")),
        ],
    );
    assert_eq!(detect(&zip).unwrap(), Layout::Canvas);
    let d = read_into(&zip, None, dir.path().join("work")).unwrap();
    assert_eq!(d.layout, Layout::Canvas);
    assert_eq!(
        names(&d),
        [
            "badguy-1005",
            "doejohn-1002",
            "kimbo-1004",
            "leeann-1003",
            "smithjane-1001"
        ]
    );
    let sub = |name: &str| d.submissions.iter().find(|s| s.name == name).unwrap();
    assert_eq!(
        files(&sub("smithjane-1001").dir),
        ["cribbage.pl", "helpers.pl"]
    );
    let jane = &sub("smithjane-1001").record;
    assert_eq!(jane.students[0].id, "1001");
    assert_eq!(jane.students[0].name.as_deref(), Some("smithjane"));
    assert_eq!(jane.submission_id.as_deref(), Some("5001"));
    assert_eq!(jane.late, Some(false));
    assert_eq!(
        jane.entries,
        [
            "smithjane_1001_5001_cribbage.pl",
            "smithjane_1001_5001_helpers.pl"
        ]
    );
    let john = &sub("doejohn-1002");
    assert_eq!(john.record.late, Some(true));
    assert_eq!(files(&john.dir), ["cribbage.pl"]);
    assert_eq!(fs::read(john.dir.join("cribbage.pl")).unwrap(), b"% john\n");
    // The zip's folder is moved up, its __MACOSX left out.
    assert_eq!(files(&sub("leeann-1003").dir), ["cribbage.pl"]);
    // The resubmission.
    let kim = sub("kimbo-1004");
    assert_eq!(kim.record.submission_id.as_deref(), Some("5010"));
    assert_eq!(fs::read(kim.dir.join("cribbage.pl")).unwrap(), b"% new\n");
    assert_eq!(d.set_aside.len(), 1);
    assert_eq!(d.set_aside[0].kept, "kimbo-1004");
    assert_eq!(d.set_aside[0].record.submission_id.as_deref(), Some("5004"));
    // The hostile zip: its good file only, each bad entry named.
    assert_eq!(files(&sub("badguy-1005").dir), ["inner.zip", "ok.pl"]);
    let shown = zip.display().to_string();
    let evil = format!("{shown}: badguy_1005_5005_evil.zip");
    let problems = messages(&d);
    assert_eq!(problems.len(), 5, "{problems:#?}");
    assert_eq!(
        problems[0],
        format!("{evil}: ../escape.pl: a path outside the destination (`..`)")
    );
    assert_eq!(problems[1], format!("{evil}: /abs.pl: an absolute path"));
    assert_eq!(
        problems[2],
        format!("{evil}: link.pl: a symbolic link (links and special files are never extracted)")
    );
    assert!(problems[3].starts_with(&format!("{evil}: bomb.pl: inflates more than 200 times")));
    assert_eq!(
        problems[4],
        format!("{evil}: inner.zip: a zip inside a zip a student uploaded: zips are opened one level deep, so it is left closed")
    );
    assert!(!dir.path().join("work/escape.pl").exists() && !dir.path().join("escape.pl").exists());
    assert_eq!(d.ignored, ["notes.txt"]);
}

/// Canvas names each file of a submission by its own attachment id, and lowercases the
/// part before the ids (`_late_`), as its `ContentZipper` writes them: a student's files
/// with different attachment ids are still one submission, none set aside.
#[test]
fn a_canvas_students_files_are_one_submission_whatever_their_attachment_ids() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("submissions.zip");
    write_zip(
        &zip,
        &[
            ("smithjane_1001_70002_notes.pl", Entry::File(b"% notes\n")),
            ("smithjane_1001_70001_cribbage.pl", Entry::File(b"% jane\n")),
            (
                "doejohn_late_1002_70003_cribbage-1.pl",
                Entry::File(b"% john\n"),
            ),
        ],
    );
    let d = read_into(&zip, None, dir.path().join("work")).unwrap();
    assert_eq!(d.layout, Layout::Canvas);
    assert_eq!(names(&d), ["doejohn-1002", "smithjane-1001"]);
    assert!(d.set_aside.is_empty(), "{:?}", d.set_aside);
    let jane = &d.submissions[1];
    assert_eq!(files(&jane.dir), ["cribbage.pl", "notes.pl"]);
    assert_eq!(jane.record.submission_id.as_deref(), Some("70002"));
    assert_eq!(jane.record.entries.len(), 2);
    let john = &d.submissions[0];
    assert_eq!(john.record.late, Some(true));
    assert_eq!(john.record.students[0].name.as_deref(), Some("doejohn"));
    assert_eq!(files(&john.dir), ["cribbage.pl"]);
}

#[test]
fn a_moodle_download_as_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    // Unpacked by hand: a folder wrapping everything.
    let top = dir.path().join("src/COMP1-Project 1-123");
    let jane = top.join("Jane Smith_4242_assignsubmission_file_");
    fs::create_dir_all(&jane).unwrap();
    fs::write(jane.join("cribbage.pl"), b"% jane\n").unwrap();
    fs::write(jane.join("helpers.pl"), b"% helpers\n").unwrap();
    let john = top.join("John Doe_4243_assignsubmission_file_");
    fs::create_dir_all(&john).unwrap();
    write_zip(
        &john.join("work.zip"),
        &[
            ("work/cribbage.pl", Entry::File(b"% john\n")),
            ("__MACOSX/work/._cribbage.pl", Entry::File(b"junk")),
        ],
    );
    // Blind marking, and the online text plugin's folder (not code).
    let anon = top.join("Participant_4244_assignsubmission_file_");
    fs::create_dir_all(&anon).unwrap();
    fs::write(anon.join("a.pl"), b"% anon\n").unwrap();
    let text = top.join("Participant_4244_assignsubmission_onlinetext_");
    fs::create_dir_all(&text).unwrap();
    fs::write(text.join("onlinetext.html"), b"<p>hi</p>").unwrap();
    // Downloaded without folders: flat files.
    fs::write(
        top.join("Ann Lee_4245_assignsubmission_file_cribbage.pl"),
        b"% ann\n",
    )
    .unwrap();
    assert_eq!(detect(&dir.path().join("src")).unwrap(), Layout::Moodle);
    let d = read_into(&dir.path().join("src"), None, dir.path().join("work")).unwrap();
    assert_eq!(d.layout, Layout::Moodle);
    assert_eq!(
        names(&d),
        [
            "ann-lee-4245",
            "jane-smith-4242",
            "john-doe-4243",
            "participant-4244"
        ]
    );
    let sub = |name: &str| d.submissions.iter().find(|s| s.name == name).unwrap();
    assert_eq!(
        files(&sub("jane-smith-4242").dir),
        ["cribbage.pl", "helpers.pl"]
    );
    assert_eq!(files(&sub("john-doe-4243").dir), ["cribbage.pl"]);
    assert_eq!(files(&sub("ann-lee-4245").dir), ["cribbage.pl"]);
    let jane = &sub("jane-smith-4242").record;
    assert_eq!(jane.layout, Layout::Moodle);
    assert_eq!(jane.students[0].id, "4242");
    assert_eq!(jane.students[0].name.as_deref(), Some("Jane Smith"));
    assert_eq!(jane.late, None);
    assert_eq!(jane.entries, ["Jane Smith_4242_assignsubmission_file_/"]);
    assert_eq!(sub("participant-4244").record.students[0].name, None);
    assert_eq!(
        d.ignored,
        ["Participant_4244_assignsubmission_onlinetext_/onlinetext.html"]
    );
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert!(d.set_aside.is_empty());
}

#[test]
fn a_destination_inside_the_folder_read_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("smithjane_1001_5001_cribbage.pl"),
        b"% jane\n",
    )
    .unwrap();
    let d = read_into(dir.path(), None, dir.path().join("work")).unwrap();
    assert_eq!(names(&d), ["smithjane-1001"]);
    assert!(d.ignored.is_empty(), "{:?}", d.ignored);
}

#[test]
fn a_gradescope_export() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("export.zip");
    let metadata = "\
submission_101:
  :submitters:
  - :name: Jane Smith
    :sid: '1001'
    :email: jane@example.edu
  :created_at: 2026-09-01 16:59:00.000000000 +10:00
  :score: 70.0
  :status: graded
submission_102:
  :submitters:
  - :name: Jane Smith
    :sid: '1001'
    :email: jane@example.edu
  :created_at: 2026-09-01 07:10:00.000000000 +00:00
submission_103:
  :submitters:
  - :name: Ann Lee
    :sid: 1003
    :email: ann@example.edu
  - :name: Bo Park
    :email: bo@example.edu
  :created_at: 2026-08-30T10:00:00Z
";
    write_zip(
        &zip,
        &[
            (
                "assignment_9_export/submission_metadata.yml",
                Entry::File(metadata.as_bytes()),
            ),
            (
                "assignment_9_export/submission_101/cribbage.pl",
                Entry::File(b"% first\n"),
            ),
            (
                "assignment_9_export/submission_102/cribbage.pl",
                Entry::File(b"% second\n"),
            ),
            (
                "assignment_9_export/submission_102/helpers.pl",
                Entry::File(b"% helpers\n"),
            ),
            (
                "assignment_9_export/submission_103/cribbage.pl",
                Entry::File(b"% group\n"),
            ),
            (
                "assignment_9_export/submission_104/cribbage.pl",
                Entry::File(b"% who?\n"),
            ),
        ],
    );
    assert_eq!(detect(&zip).unwrap(), Layout::Gradescope);
    let d = read_into(&zip, None, dir.path().join("work")).unwrap();
    assert_eq!(d.layout, Layout::Gradescope);
    assert_eq!(
        names(&d),
        ["ann-lee-1003", "jane-smith-1001", "submission_104"]
    );
    let sub = |name: &str| d.submissions.iter().find(|s| s.name == name).unwrap();
    // 102 was made at 07:10 UTC, after 101 at 06:59 UTC (16:59 +10:00).
    let jane = sub("jane-smith-1001");
    assert_eq!(jane.record.submission_id.as_deref(), Some("102"));
    assert_eq!(
        jane.record.submitted_at,
        Some("2026-09-01T07:10:00Z".parse().unwrap())
    );
    assert_eq!(files(&jane.dir), ["cribbage.pl", "helpers.pl"]);
    assert_eq!(
        jane.record.students[0].email.as_deref(),
        Some("jane@example.edu")
    );
    assert_eq!(d.set_aside.len(), 1);
    assert_eq!(d.set_aside[0].record.submission_id.as_deref(), Some("101"));
    assert_eq!(d.set_aside[0].kept, "jane-smith-1001");
    let group = &sub("ann-lee-1003").record;
    let ids: Vec<&str> = group.students.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["1003", "bo@example.edu"]);
    assert!(sub("submission_104").record.students.is_empty());
}

#[test]
fn bad_metadata_and_bad_downloads_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("export.zip");
    write_zip(
        &zip,
        &[
            (
                "submission_metadata.yml",
                Entry::File(b"submission_1:\n  :submitters: [\n"),
            ),
            ("submission_1/a.pl", Entry::File(b"a.")),
        ],
    );
    let err = read_into(&zip, None, dir.path().join("work")).unwrap_err();
    assert!(matches!(err, LmsError::Metadata { .. }));
    assert!(
        err.to_string()
            .starts_with(&format!("{}: ", zip.join(METADATA).display())),
        "{err}"
    );
    let text = dir.path().join("notes.txt");
    fs::write(&text, "hello").unwrap();
    let err = read_into(&text, None, dir.path().join("work2")).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: not a zip archive: a download is a zip archive or a folder",
            text.display()
        )
    );
}

#[test]
fn a_layout_can_be_told() {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("plain.zip");
    write_zip(
        &zip,
        &[
            ("alice.pl", Entry::File(b"a.")),
            ("smithjane_1001_5001_cribbage.pl", Entry::File(b"% jane\n")),
            ("__MACOSX/._alice.pl", Entry::File(b"junk")),
        ],
    );
    let d = read_into(&zip, Some(Layout::Plain), dir.path().join("work")).unwrap();
    assert_eq!(d.layout, Layout::Plain);
    assert!(d.submissions.is_empty());
    assert_eq!(
        files(&d.root),
        ["alice.pl", "smithjane_1001_5001_cribbage.pl"]
    );
    // Half the names are Canvas's: recognised as Canvas, the other ignored.
    let d = read_into(&zip, None, dir.path().join("work2")).unwrap();
    assert_eq!(d.layout, Layout::Canvas);
    assert_eq!(d.ignored, ["alice.pl"]);
}

/// A "billion laughs" in Gradescope's metadata, inside a field crib never reads: the
/// YAML reader's budget refuses it before expanding it (its "budget breached" error, not a
/// wall-clock bound, is the proof: a timed assertion failed on a loaded machine).
#[test]
fn a_yaml_alias_bomb_in_the_metadata_is_refused() {
    let mut yaml = String::from("submission_1:\n  :submitters:\n  - :name: Jane\n    :sid: '1'\n");
    yaml.push_str("  :l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let prev = format!("*l{}", i - 1);
        let list = [prev.as_str(); 10].join(", ");
        yaml.push_str(&format!("  :l{i}: &l{i} [{list}]\n"));
    }
    yaml.push_str("  :score: *l9\n");
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("export.zip");
    write_zip(
        &zip,
        &[
            ("submission_metadata.yml", Entry::File(yaml.as_bytes())),
            ("submission_1/a.pl", Entry::File(b"a.")),
        ],
    );
    let err = read_into(&zip, None, dir.path().join("work")).unwrap_err();
    assert!(matches!(err, LmsError::Metadata { .. }), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("submission_metadata.yml: line 10 column 18: budget breached"),
        "{message}"
    );
}
