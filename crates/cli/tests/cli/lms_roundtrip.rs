//! Issue 27, "from the LMS and back": for each of Canvas, Moodle and Gradescope, a download
//! built as the LMS names it (a student with two files, a resubmission, a late file, a zip
//! a student uploaded, a hostile zip with `../` and a zip bomb), graded by `crib grade` as
//! it comes, then handed back by `crib report --export`; every file the export writes, the
//! intake record and what both commands say on stderr are compared with
//! `tests/lms_roundtrip/<lms>/` (`UPDATE_EXPECT=1` rewrites them).
//!
//! The names follow each LMS's own code, the nearest thing to documentation found:
//! Canvas's `ContentZipper` (canvas-lms `lib/content_zipper.rb`: `<lastfirst>[_late]_<user
//! id>_<attachment id>_<display name>`, a file per attachment, the prefix lowercased),
//! Moodle's "Download all submissions" (a folder `<Full name>_<participant
//! id>_assignsubmission_file_` per participant, `..._file` without the last `_` since 4.1)
//! and Gradescope's "Export Submissions" (`submission_metadata.yml` and a folder
//! `submission_<id>` per submission). Grading is cut to the few tests the flow needs
//! (`--select-hand-deals 3`, a small `--hand-value-patterns`, no lint) under a fixed seed.
//!
//! Volatile values are replaced, not dropped, before comparing: the temporary directory
//! by `<tmp>` and the seed's id by `<seed-id>` (a fixed seed gives a fixed id, but the
//! id is the seed's public face, so it is kept out of the expected files). What crib grade
//! says about this machine's isolation (bubblewrap, seccomp, Landlock: a warning where a
//! layer is missing) differs from machine to machine and is the one thing on stderr not
//! compared; everything it says about the download is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{crib, submission, zip_bytes};

/// The secret seed every round trip grades under (64 hex digits), so that the marks of
/// the submissions that are not all right are the same on every run.
const SEED: &str = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

/// The due time and policy every export assesses lateness under.
const DUE: &str = "2026-09-01T17:00+10:00";
const POLICY: &str = "10% per day, at most 5 days, then 0";

/// One LMS's round trip: the download as the LMS names it, and what the export is given.
struct Case {
    /// `--export`'s format, and the name of the directory of expected files.
    lms: &'static str,
    /// The download's file name.
    download: &'static str,
    /// Its entries, names as the LMS writes them.
    entries: Vec<(String, Vec<u8>)>,
    /// The LMS's class list for `crib grade --roster`, if any.
    roster: Option<&'static str>,
    /// `--times` for `crib report` (submission, time), if any.
    times: Option<&'static str>,
}

/// The grade corpus's submission `name`, read.
fn source(name: &str) -> Vec<u8> {
    std::fs::read(submission(name)).unwrap()
}

/// A zip a student uploaded: their project in a folder.
fn project_zip() -> Vec<u8> {
    zip_bytes(&[("project/cribbage.pl", &source("broken_runs.pl"))])
}

/// A hostile zip a student uploaded: an entry climbing out with `../`, and a file to grade.
fn hostile_zip() -> Vec<u8> {
    zip_bytes(&[
        ("../escape.pl", b"escaped.\n"),
        ("cribbage.pl", &source("empty.pl")),
    ])
}

/// A zip bomb's payload: 8 MiB of zeros, which deflate about a thousand times (the limit
/// is 200 for an entry over 1 MiB).
fn bomb() -> Vec<u8> {
    vec![0u8; 8 << 20]
}

fn canvas() -> Case {
    let entries = vec![
        // Two files of one submission: an attachment id each.
        ("smithjane_1001_70001_cribbage.pl", source("correct.pl")),
        ("smithjane_1001_70002_notes.pl", b"% my notes\n".to_vec()),
        // Late, and a resubmission: Canvas renamed the file uploaded again.
        (
            "doejohn_late_1002_70003_cribbage-1.pl",
            source("broken_runs.pl"),
        ),
        ("leeann_1003_70004_project.zip", project_zip()),
        ("badguy_1005_70005_evil.zip", hostile_zip()),
        // A zip bomb in the download itself, beside a file of the same student.
        ("bomber_1006_70006_cribbage.pl", source("correct.pl")),
        ("bomber_1006_70007_data.pl", bomb()),
    ];
    Case {
        lms: "canvas",
        download: "submissions.zip",
        entries: entries
            .into_iter()
            .map(|(n, b)| (n.to_string(), b))
            .collect(),
        roster: Some(
            "Student,ID,SIS User ID,SIS Login ID,Section,Project 1 (81)\r\n\
             Points Possible,,,,,100\r\n\
             \"Smith, Jane\",1001,S1001,jsmith,Lab 1,\r\n\
             \"Doe, John\",1002,S1002,jdoe,Lab 2,\r\n\
             \"Lee, Ann\",1003,S1003,alee,Lab 1,\r\n\
             \"Kim, Bo\",1004,S1004,bkim,Lab 2,\r\n",
        ),
        times: Some("submission,time\n1002,2026-09-02T18:00+10:00\n"),
    }
}

fn moodle() -> Case {
    let entries = vec![
        // Two files in one participant's folder.
        (
            "Jane Smith_55_assignsubmission_file_/cribbage.pl",
            source("correct.pl"),
        ),
        (
            "Jane Smith_55_assignsubmission_file_/notes.pl",
            b"% my notes\n".to_vec(),
        ),
        // Late (by its time in --times); its online text is not code.
        (
            "John Doe_56_assignsubmission_file_/cribbage.pl",
            source("broken_runs.pl"),
        ),
        (
            "John Doe_56_assignsubmission_onlinetext_/onlinetext.html",
            b"<p>see my file</p>\n".to_vec(),
        ),
        // A zip in a Moodle folder, named as Moodle 4.1 on names folders.
        (
            "Ann Lee_57_assignsubmission_file/project.zip",
            project_zip(),
        ),
        ("Bad Guy_58_assignsubmission_file_/evil.zip", hostile_zip()),
        (
            "Bo Mber_59_assignsubmission_file_/cribbage.pl",
            source("correct.pl"),
        ),
        ("Bo Mber_59_assignsubmission_file_/data.pl", bomb()),
    ];
    Case {
        lms: "moodle",
        download: "COMP1-Project 1-123.zip",
        entries: entries
            .into_iter()
            .map(|(n, b)| (n.to_string(), b))
            .collect(),
        roster: None,
        // Moodle's download gives no times: the grading table's, for every participant.
        times: Some(
            "submission,time\n55,2026-09-01T16:30+10:00\n56,2026-09-02T18:00+10:00\n\
             57,2026-09-01T15:00+10:00\n58,2026-09-01T15:00+10:00\n59,2026-09-01T15:00+10:00\n",
        ),
    }
}

fn gradescope() -> Case {
    let metadata = "\
submission_9001:
  :submitters:
  - :name: Jane Smith
    :sid: '1001'
    :email: jane@example.edu
  :created_at: 2026-09-01 16:30:00.000000000 +10:00
submission_9002:
  :submitters:
  - :name: John Doe
    :sid: '1002'
    :email: john@example.edu
  :created_at: 2026-09-01 12:00:00.000000000 +10:00
submission_9003:
  :submitters:
  - :name: John Doe
    :sid: '1002'
    :email: john@example.edu
  :created_at: 2026-09-02 18:00:00.000000000 +10:00
submission_9004:
  :submitters:
  - :name: Ann Lee
    :sid: '1003'
    :email: ann@example.edu
  - :name: Bo Kim
    :sid: '1004'
    :email: bo@example.edu
  :created_at: 2026-09-01 15:00:00.000000000 +10:00
submission_9005:
  :submitters:
  - :name: Bad Guy
    :sid: '1005'
    :email: bad@example.edu
  :created_at: 2026-09-01 15:00:00.000000000 +10:00
submission_9006:
  :submitters:
  - :name: Bo Mber
    :email: bomber@example.edu
  :created_at: 2026-09-01 15:00:00.000000000 +10:00
";
    let entries = vec![
        ("submission_metadata.yml", metadata.as_bytes().to_vec()),
        // Two files of one submission.
        ("submission_9001/cribbage.pl", source("correct.pl")),
        ("submission_9001/notes.pl", b"% my notes\n".to_vec()),
        // A resubmission, the later one late.
        ("submission_9002/cribbage.pl", source("empty.pl")),
        ("submission_9003/cribbage.pl", source("broken_runs.pl")),
        // A group's zip.
        ("submission_9004/project.zip", project_zip()),
        ("submission_9005/evil.zip", hostile_zip()),
        ("submission_9006/cribbage.pl", source("correct.pl")),
        ("submission_9006/data.pl", bomb()),
    ];
    Case {
        lms: "gradescope",
        download: "export.zip",
        entries: entries
            .into_iter()
            .map(|(n, b)| (n.to_string(), b))
            .collect(),
        roster: None,
        times: None,
    }
}

/// Returns the files below `dir`, relative to it, sorted.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    files
}

/// Returns a zip the export wrote as text: each entry's name and size, and the feedback
/// file (of `feedback`, the export's `feedback/` directory) it is a copy of.
fn zip_listing(zip: &[u8], feedback: &Path) -> String {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let pages: Vec<(PathBuf, Vec<u8>)> = files_below(feedback)
        .into_iter()
        .map(|f| (f.clone(), std::fs::read(feedback.join(&f)).unwrap()))
        .collect();
    let mut listing = String::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let name = entry.name().unwrap().to_string();
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut body).unwrap();
        let copy_of = pages
            .iter()
            .find(|(_, page)| *page == body)
            .map(|(f, _)| f.display().to_string())
            .unwrap_or_else(|| panic!("{name} is no student's feedback file"));
        listing.push_str(&format!(
            "{name}\t{} bytes\tfeedback/{copy_of}\n",
            body.len()
        ));
    }
    listing
}

/// Runs `crib ARGS` in `dir` and returns its stderr; fails the test unless it exits 0.
fn run(dir: &Path, args: &[&str]) -> String {
    let out = crib().current_dir(dir).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "crib {args:?}:\n{err}");
    err
}

/// Returns whether a line of crib grade's stderr is about this machine's isolation.
fn about_isolation(line: &str) -> bool {
    ["bubblewrap", "seccomp", "Landlock"]
        .iter()
        .any(|layer| line.contains(layer))
}

/// Runs the round trip of `case` and compares what it wrote with the expected files.
fn round_trip(case: Case) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let entries: Vec<(&str, &[u8])> = case
        .entries
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    std::fs::write(dir.join(case.download), zip_bytes(&entries)).unwrap();
    std::fs::write(dir.join("seed"), format!("{SEED}\n")).unwrap();
    let mut grade = vec![
        "grade",
        "--no-lint",
        "--hand-value-patterns",
        "20",
        "--select-hand-deals",
        "3",
        "--jobs",
        "2",
        "--seed-file",
        "seed",
        "--out",
        "results",
    ];
    if let Some(roster) = case.roster {
        std::fs::write(dir.join("grades.csv"), roster).unwrap();
        grade.extend(["--roster", "grades.csv"]);
    }
    grade.push(case.download);
    let graded = run(dir, &grade);
    let mut report = vec![
        "report",
        "results",
        "--due",
        DUE,
        "--late",
        POLICY,
        "--submissions",
        case.download,
        "--export",
        case.lms,
        "--assignment",
        "Project 1 (81)",
        "--export-dir",
        "back",
    ];
    if let Some(times) = case.times {
        std::fs::write(dir.join("times.csv"), times).unwrap();
        report.extend(["--times", "times.csv"]);
    }
    let reported = run(dir, &report);

    // What was written, as text: the export's files (a zip as its listing), the intake
    // record, and both commands' stderr.
    let back = dir.join("back");
    let mut got: BTreeMap<PathBuf, String> = BTreeMap::new();
    for file in files_below(&back) {
        let bytes = std::fs::read(back.join(&file)).unwrap();
        if file.extension().is_some_and(|x| x == "zip") {
            let listing = zip_listing(&bytes, &back.join("feedback"));
            got.insert(file.with_extension("zip.txt"), listing);
        } else {
            let text = String::from_utf8(bytes).unwrap();
            got.insert(file, text);
        }
    }
    let intake = std::fs::read_to_string(dir.join("results/lms/intake.json")).unwrap();
    got.insert("intake.json".into(), intake);
    let graded: String = graded
        .lines()
        .filter(|line| !about_isolation(line))
        .map(|line| format!("{line}\n"))
        .collect();
    got.insert("grade.stderr".into(), graded);
    got.insert("report.stderr".into(), reported);

    // Volatile values, replaced.
    let seed_id = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            json["seed_id"].as_str().unwrap().to_string()
        })
        .next()
        .expect("some result");
    assert!(!seed_id.is_empty());
    let tmp_path = dir.display().to_string();
    for text in got.values_mut() {
        *text = text
            .replace(&tmp_path, "<tmp>")
            .replace(&seed_id, "<seed-id>");
    }

    let expected_dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lms_roundtrip")
        .join(case.lms);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let _ = std::fs::remove_dir_all(&expected_dir);
        for (file, text) in &got {
            let path = expected_dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        return;
    }
    let names: Vec<PathBuf> = got.keys().cloned().collect();
    assert_eq!(
        files_below(&expected_dir),
        names,
        "{}: the files written (UPDATE_EXPECT=1 rewrites tests/lms_roundtrip)",
        case.lms
    );
    for (file, text) in &got {
        let want = std::fs::read_to_string(expected_dir.join(file)).unwrap();
        if want != *text {
            let line = want
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| want.lines().count().min(text.lines().count()));
            panic!(
                "{}: {} differs from tests/lms_roundtrip/{}/{} at line {} \
                 (UPDATE_EXPECT=1 rewrites it):\n--- expected\n{}\n--- got\n{}",
                case.lms,
                file.display(),
                case.lms,
                file.display(),
                line + 1,
                want.lines().nth(line).unwrap_or("<end>"),
                text.lines().nth(line).unwrap_or("<end>"),
            );
        }
    }
}

#[test]
fn a_canvas_download_goes_round_to_the_gradebook_and_feedback() {
    round_trip(canvas());
}

#[test]
fn a_moodle_download_goes_round_to_the_worksheet_and_feedback_zip() {
    round_trip(moodle());
}

#[test]
fn a_gradescope_export_goes_round_to_the_score_upload() {
    round_trip(gradescope());
}
