//! `crib report` end to end on the corpus's real results (crates/report/tests/results).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../report/tests/results")
}

#[test]
fn writes_the_page_and_the_marks() {
    let dir = tempfile::tempdir().unwrap();
    let (page, csv) = (dir.path().join("r.html"), dir.path().join("m.csv"));
    Command::cargo_bin("crib")
        .unwrap()
        .arg("report")
        .arg(results())
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
    let out = Command::cargo_bin("crib")
        .unwrap()
        .args(["report", "--csv", "-"])
        .arg(results())
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
    let out = Command::cargo_bin("crib")
        .unwrap()
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
    let out = Command::cargo_bin("crib")
        .unwrap()
        .args(["report", "--csv", "-"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("x.json:1:"), "{err}");
}
