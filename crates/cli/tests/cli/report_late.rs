//! `crib report`'s lateness flags end to end on the corpus's real results: the penalty in
//! marks.csv and on the page, extensions and times, and bad policies and files exiting 2.

use std::path::{Path, PathBuf};

use crate::common::{copy_results, crib_report};

/// Copies the corpus's results into `dir`, giving `correct`, `broken_nob` and
/// `broken_flush` the LMS records a Gradescope (a time) and a Canvas (a flag) download give.
fn results(dir: &Path) -> PathBuf {
    copy_results(dir, |json| {
        let lms = match json["name"].as_str().unwrap() {
            "correct" => Some(serde_json::json!({"layout": "gradescope",
                "students": [{"id": "s1", "name": "Jane Smith"}],
                "submitted_at": "2026-09-01T06:30:00Z"})),
            "broken_nob" => Some(serde_json::json!({"layout": "gradescope",
                "students": [{"id": "s2", "name": "Bo Kim"}],
                "submitted_at": "2026-09-02T08:00:00Z"})),
            "broken_flush" => Some(serde_json::json!({"layout": "canvas",
                "students": [{"id": "1003", "name": "leeann"}], "late": true})),
            _ => None,
        };
        if let Some(lms) = lms {
            json["lms"] = lms;
        }
    })
}

fn row<'a>(csv: &'a str, name: &str) -> Vec<&'a str> {
    let line = csv
        .lines()
        .find(|l| l.starts_with(&format!("{name},")))
        .unwrap_or_else(|| panic!("no row {name} in {csv}"));
    line.rsplitn(4, ',')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

#[test]
fn the_penalty_is_a_column_and_a_line_computed_from_the_dates() {
    let dir = tempfile::tempdir().unwrap();
    let results = results(dir.path());
    let marks = dir.path().join("marks.csv");
    let page = dir.path().join("report.html");
    let before = std::fs::read_to_string(results.join("broken_nob.json")).unwrap();
    let out = crib_report(&[
        results.as_os_str(),
        "--due".as_ref(),
        "2026-09-01T17:00+10:00".as_ref(),
        "--late".as_ref(),
        "10% per day, at most 5 days, then 0".as_ref(),
        "--csv".as_ref(),
        marks.as_os_str(),
        "-o".as_ref(),
        page.as_os_str(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("crib: warning: lateness unknown for 33 of 35 submissions"),
        "{err}"
    );
    let csv = std::fs::read_to_string(&marks).unwrap();
    assert!(
        csv.starts_with(
            "student,hand_value,select_hand,total,problems,test_set,lateness,late_penalty,final\n"
        ),
        "{csv}"
    );
    let correct = row(&csv, "correct");
    assert_eq!(correct[1..], ["0", "0.00", "70.00"], "half an hour early");
    let nob = row(&csv, "broken_nob");
    let total: f64 = csv
        .lines()
        .find(|l| l.starts_with("broken_nob,"))
        .unwrap()
        .split(',')
        .nth(3)
        .unwrap()
        .parse()
        .unwrap();
    let penalty = (total * 0.2 * 100.0).round() / 100.0;
    assert_eq!(nob[1], "2", "a day and an hour late is two days");
    assert_eq!(nob[2], format!("{penalty:.2}"));
    assert_eq!(nob[3], format!("{:.2}", total - penalty));
    assert_eq!(
        row(&csv, "broken_flush")[1..],
        ["", "", ""],
        "Canvas's _LATE alone"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<b>Lateness: </b>2 days late: \u{2212}20%; late penalty \u{2212}"));
    assert!(html.contains("late by the LMS's flag, by how much unknown (give --times)"));
    assert_eq!(
        std::fs::read_to_string(results.join("broken_nob.json")).unwrap(),
        before,
        "the results are never changed"
    );

    // An extension for Bo Kim (by name) and a time for broken_flush (by Canvas id).
    let ext = dir.path().join("ext.csv");
    std::fs::write(&ext, "student,extension\nbo kim,1 day\nnobody,2 days\n").unwrap();
    let times = dir.path().join("times.csv");
    std::fs::write(&times, "1003,2026-09-01T17:20+10:00\n").unwrap();
    let out = crib_report(&[
        results.as_os_str(),
        "--due".as_ref(),
        "2026-09-01T17:00+10:00".as_ref(),
        "--late".as_ref(),
        "10% per day, at most 5 days, then 0".as_ref(),
        "--grace".as_ref(),
        "15m".as_ref(),
        "--extensions".as_ref(),
        ext.as_os_str(),
        "--times".as_ref(),
        times.as_os_str(),
        "--csv".as_ref(),
        "-".as_ref(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("ext.csv:3: \"nobody\" names no submission"),
        "{err}"
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        row(&csv, "broken_nob")[1],
        "1",
        "an hour past the extension"
    );
    assert_eq!(
        row(&csv, "broken_flush")[1],
        "1",
        "20 minutes, past the grace"
    );
}

#[test]
fn bad_policies_and_files_exit_2_naming_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let results = results(dir.path());
    let run = |extra: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> = vec![results.as_os_str()];
        args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
        args.extend([std::ffi::OsStr::new("--csv"), std::ffi::OsStr::new("-")]);
        let out = crib_report(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let due = "2026-09-01T17:00+10:00";
    let err = run(&["--due", due, "--late", "10% per day, at most five days"]);
    assert!(
        err.contains("\"at most five days\": the days must be a whole number"),
        "{err}"
    );
    let err = run(&["--due", "tomorrow", "--late", "10% per day"]);
    assert!(err.contains("due date \"tomorrow\": not a time"), "{err}");
    let err = run(&["--due", due, "--late", "10% per day", "--grace", "a bit"]);
    assert!(err.contains("grace \"a bit\": not a duration"), "{err}");
    let err = run(&["--late", "10% per day"]);
    assert!(err.contains("--due"), "{err}");
    let ext = dir.path().join("ext.csv");
    std::fs::write(&ext, "student,extension\n\ncorrect,soon\n").unwrap();
    let err = run(&[
        "--due",
        due,
        "--late",
        "10% per day",
        "--extensions",
        ext.to_str().unwrap(),
    ]);
    assert!(
        err.contains(&format!("{}:3: \"soon\" is neither", ext.display())),
        "{err}"
    );
}
