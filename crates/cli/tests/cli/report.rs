//! `crib report` end to end on the corpus's real results (crates/report/tests/results).

use std::path::Path;

use crate::common::{crib, results_corpus, submission, write_zip};

#[test]
fn writes_the_page_and_the_marks() {
    let dir = tempfile::tempdir().unwrap();
    let (page, csv) = (dir.path().join("r.html"), dir.path().join("m.csv"));
    crib()
        .arg("report")
        .arg(results_corpus())
        .arg("-o")
        .arg(&page)
        .arg("--csv")
        .arg(&csv)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<svg"));
    let marks = std::fs::read_to_string(&csv).unwrap();
    assert!(marks.starts_with("student,hand_value,select_hand,total,problems,test_set\n"));
    let out = crib()
        .args(["report", "--csv", "-"])
        .arg(results_corpus())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        marks,
        "stdout gets the same CSV"
    );
}

#[test]
fn a_bad_results_directory_exits_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = crib()
        .args(["report", "--csv", "-"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("no results (*.json) in") && err.contains(&dir.path().display().to_string()),
        "{err}"
    );
    std::fs::write(dir.path().join("x.json"), "[]").unwrap();
    let out = crib()
        .args(["report", "--csv", "-"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("x.json:1:"), "{err}");
}

/// Returns the commands of the README's console blocks under `### Handing marks back to
/// the LMS` that follow the line `The whole loop for **LMS**`: each `$ ` line with its `\`
/// continuations, without the comment lines.
fn readme_loop(lms: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme
        .split("### Handing marks back to the LMS")
        .nth(1)
        .expect("the README has the section");
    let start = format!("The whole loop for **{lms}**");
    let block = section
        .split(start.as_str())
        .nth(1)
        .and_then(|rest| rest.split("```console\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_else(|| panic!("the README has {start} and its console block"));
    let mut commands: Vec<String> = Vec::new();
    let mut continued = false;
    for line in block.lines() {
        let line = line.trim();
        let text = line.trim_end_matches('\\').trim();
        if continued {
            commands.last_mut().unwrap().push_str(&format!(" {text}"));
        } else if let Some(command) = text.strip_prefix("$ ") {
            if !command.starts_with('#') {
                commands.push(command.to_string());
            }
        }
        continued = line.ends_with('\\') && !commands.is_empty();
    }
    commands
}

/// Runs the README's loop for `lms` in `dir`: crib grade with small limits, the sheet
/// filled (8 for every criterion) where the markers would fill it.
fn run_loop(lms: &str, dir: &Path, lint: bool) {
    let crib = assert_cmd::cargo::cargo_bin("crib");
    let path = format!(
        "{}:{}",
        crib.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = readme_loop(lms);
    assert!(commands.len() >= 3, "{lms}: {commands:?}");
    for command in commands {
        let limits = match lint {
            true => "crib grade --hand-value-patterns 200 --jobs 2 ",
            false => "crib grade --hand-value-patterns 200 --no-lint --jobs 2 ",
        };
        let command = command.replace("crib grade ", limits);
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{lms}: `{command}` failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if command.contains("--quality-sheet sheet.csv") {
            let sheet = std::fs::read_to_string(dir.join("sheet.csv")).unwrap();
            let filled: String = sheet
                .lines()
                .enumerate()
                .map(|(i, line)| match i {
                    0 => format!("{line}\n"),
                    _ => format!("{},8,8,8,well done\n", line.trim_end_matches(",,,,")),
                })
                .collect();
            std::fs::write(dir.join("sheet.csv"), filled).unwrap();
        }
    }
}

/// Issue 27: the README's loop for Canvas, every command run as written (grading with small
/// limits), on a download named as Canvas names it.
#[test]
fn the_readme_loop_for_canvas_runs() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read(submission("correct.pl")).unwrap();
    write_zip(
        &dir.path().join("submissions.zip"),
        &[
            ("smithjane_1001_5001_cribbage.pl", &correct),
            ("doejohn_LATE_1002_5002_cribbage.pl", &correct),
        ],
    );
    std::fs::write(
        dir.path().join("grades.csv"),
        "Student,ID,SIS User ID,SIS Login ID,Section,Project 1 (81)\r\n\
         Points Possible,,,,,70\r\n\
         \"Smith, Jane\",1001,S1001,jsmith,Lab 1,\r\n\
         \"Doe, John\",1002,S1002,jdoe,Lab 2,\r\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("times.csv"),
        "submission,time\n1002,2026-09-02T18:00+10:00\n",
    )
    .unwrap();
    run_loop("Canvas", dir.path(), true);
    let gradebook = std::fs::read_to_string(dir.path().join("back/canvas-gradebook.csv")).unwrap();
    assert_eq!(
        gradebook,
        "Student,ID,SIS User ID,SIS Login ID,Section,Project 1 (81)\n\
         Points Possible,,,,,100\n\
         \"Doe, John\",1002,S1002,jdoe,Lab 2,75.20\n\
         \"Smith, Jane\",1001,S1001,jsmith,Lab 1,94.00\n"
    );
    let page =
        std::fs::read_to_string(dir.path().join("back/feedback/smithjane-1001.html")).unwrap();
    assert!(
        page.contains("well done") && page.contains("94.00 / 100"),
        "{page}"
    );
}

/// Issue 27: the README's loop for Moodle, on a download with a folder per participant.
#[test]
fn the_readme_loop_for_moodle_runs() {
    let dir = tempfile::tempdir().unwrap();
    let correct = std::fs::read(submission("correct.pl")).unwrap();
    write_zip(
        &dir.path().join("COMP1-Project 1-123.zip"),
        &[
            ("Jane Smith_55_assignsubmission_file_/cribbage.pl", &correct),
            ("John Doe_56_assignsubmission_file_/cribbage.pl", &correct),
        ],
    );
    run_loop("Moodle", dir.path(), false);
    let sheet =
        std::fs::read_to_string(dir.path().join("back/moodle-grading-worksheet.csv")).unwrap();
    let rows: Vec<&str> = sheet.lines().collect();
    assert!(
        rows[0].starts_with("Identifier,Full name,Email address,Status,Grade,"),
        "{sheet}"
    );
    assert!(
        rows[1].starts_with("Participant 55,Jane Smith,,,94.00,100,"),
        "{sheet}"
    );
    assert!(
        rows[2].starts_with("Participant 56,John Doe,,,94.00,100,"),
        "{sheet}"
    );
    let zip = std::fs::read(dir.path().join("back/moodle-feedback.zip")).unwrap();
    let archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let names: Vec<String> = archive
        .file_names()
        .map(|n| n.unwrap().to_string())
        .collect();
    assert!(
        names.contains(&"Jane Smith_55_assignfeedback_file_/feedback.html".to_string()),
        "{names:?}"
    );
}

#[test]
fn an_lms_export_of_results_not_from_that_lms_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = crib()
        .arg("report")
        .arg(results_corpus())
        .args(["--export", "moodle", "--out"])
        .arg(dir.path().join("back"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--export moodle needs results graded from a moodle download")
            && err.contains("binary_garbage"),
        "{err}"
    );
    assert!(!dir.path().join("back").exists());
    let out = crib()
        .arg("report")
        .arg(results_corpus())
        .args(["--export", "canvas", "--anonymous", "--out"])
        .arg(dir.path().join("back"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "clap refuses --anonymous");
}
