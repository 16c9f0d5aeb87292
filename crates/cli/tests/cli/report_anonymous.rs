//! `crib report --anonymous` end to end on the corpus's real results renamed as an LMS
//! download names them: no real name in the page, marks.csv or the sheet, and `--reveal`
//! bringing the names back with the markers' marks.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{copy_results, crib_report};

const NAMES: [&str; 7] = [
    "smith", "jane", "kimbo", "kim, bo", "z5551234", "z5559999", "1004",
];

/// Copies the corpus's results into `dir`: `correct` becomes Jane Smith's Canvas
/// submission and `broken_nob` Bo Kim's, each with findings in its own file; and writes
/// their sources, each signed in its header, to `dir/subs`.
fn results(dir: &Path) -> (PathBuf, PathBuf) {
    let subs = dir.join("subs");
    std::fs::create_dir(&subs).unwrap();
    let out = copy_results(dir, |json| {
        let renamed = match json["name"].as_str().unwrap() {
            "correct" => Some(("smithjane-1001", "1001", "Smith, Jane", "z5551234")),
            "broken_nob" => Some(("kimbo-1004", "1004", "Kim, Bo", "z5559999")),
            _ => None,
        };
        if let Some((name, id, student, sis)) = renamed {
            let source = format!("{}.pl", json["name"].as_str().unwrap());
            json["name"] = name.into();
            json["path"] = format!("/staff/subs/{name}").into();
            json["lms"] = serde_json::json!({"layout": "canvas",
                "students": [{"id": id, "name": student, "sis_id": sis,
                              "email": format!("{name}@uni.example")}],
                "submission_id": "5001", "late": false,
                "entries": [format!("{name}_{id}_5001_cribbage.pl")]});
            json["quality"] = serde_json::json!({
                "name": name,
                "findings": [{"rule": "D101", "file": format!("{name}/{source}"), "line": 1,
                              "predicate": null, "message": "no header comment"}],
                "summary": {"findings": 1, "by_rule": {"D101": 1}}
            });
            std::fs::create_dir(subs.join(name)).unwrap();
            std::fs::write(
                subs.join(name).join(&source),
                format!("% cribbage, by {student} ({sis})\nhand_value(_, _, 0).\n"),
            )
            .unwrap();
        }
    });
    (out, subs)
}

/// Runs `crib report ARGS`, which must succeed.
fn crib(args: &[&Path]) -> Output {
    let args: Vec<&OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let out = crib_report(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Returns `text` with every pseudonym (`anon-` and 10 hex digits of a keyed hash) taken
/// out: drawn afresh with each key, one may hold a student's id ("1004") by chance, about
/// once in 2,000 runs.
fn without_pseudonyms(text: &str) -> String {
    let prefix = crib_report::PSEUDONYM_PREFIX;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        out.push_str(&rest[..at]);
        let after = &rest[at + prefix.len()..];
        // A pseudonym's 10 hex digits, no more.
        let hex = after
            .bytes()
            .take(10)
            .take_while(u8::is_ascii_hexdigit)
            .count();
        out.push_str(prefix);
        rest = &after[hex..];
    }
    out.push_str(rest);
    out
}

#[test]
fn anonymous_outputs_name_no_student_and_reveal_restores_them() {
    let dir = tempfile::tempdir().unwrap();
    let (results, subs) = results(dir.path());
    let p = |s: &str| dir.path().join(s);
    let a = |s: &'static str| Path::new(s);
    let out = crib(&[
        &results,
        a("--anonymous"),
        a("--submissions"),
        &subs,
        a("-o"),
        &p("report.html"),
        a("--csv"),
        &p("marks.csv"),
        a("--quality-sheet"),
        &p("sheet.csv"),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("created the blind-marking key"), "{err}");
    let key = results.join("anonymous.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let page = std::fs::read_to_string(p("report.html")).unwrap();
    assert!(
        page.contains("hand_value(_, _, 0)."),
        "the source is on the page"
    );
    for file in ["report.html", "marks.csv", "sheet.csv"] {
        let text = without_pseudonyms(&std::fs::read_to_string(p(file)).unwrap().to_lowercase());
        for name in NAMES {
            assert!(!text.contains(name), "{name:?} in {file}");
        }
    }
    // The same key, the same pseudonyms: a second run gives the same sheet rows.
    let sheet = std::fs::read_to_string(p("sheet.csv")).unwrap();
    crib(&[
        &results,
        a("--anonymous"),
        a("--quality-sheet"),
        &p("again.csv"),
    ]);
    assert_eq!(std::fs::read_to_string(p("again.csv")).unwrap(), sheet);

    // The markers fill in one row, under its pseudonym; --reveal gives the real names.
    let jane_row = sheet
        .lines()
        .find(|l| l.contains(",1: D101x1,"))
        .expect("a row with one finding");
    let pseudonym = jane_row.split(',').next().unwrap();
    let other = sheet
        .lines()
        .filter(|l| l.contains(",1: D101x1,"))
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let filled = sheet.replace(
        jane_row,
        &format!("{pseudonym},1: D101x1,9,8,7,header lacks the author"),
    );
    std::fs::write(p("filled.csv"), filled).unwrap();
    crib(&[
        &results,
        a("--reveal"),
        &key,
        a("--quality-marks"),
        &p("filled.csv"),
        a("--csv"),
        &p("real.csv"),
    ]);
    let real = std::fs::read_to_string(p("real.csv")).unwrap();
    assert!(!real.contains(pseudonym) && !real.contains(other), "{real}");
    let marked: Vec<&str> = real
        .lines()
        .filter(|l| l.split(',').nth_back(1) == Some("24.00"))
        .collect();
    assert_eq!(marked.len(), 1, "{real}");
    assert!(
        marked[0].starts_with("smithjane-1001,") || marked[0].starts_with("kimbo-1004,"),
        "{real}"
    );
    // The export takes the revealed marks: the real student's gradebook row and feedback
    // carry the markers' marks and notes, and no pseudonym is left.
    crib(&[
        &results,
        a("--reveal"),
        &key,
        a("--quality-marks"),
        &p("filled.csv"),
        a("--export"),
        a("csv"),
        a("--out"),
        &p("back"),
    ]);
    let gradebook = std::fs::read_to_string(p("back/gradebook.csv")).unwrap();
    let student = marked[0].split(',').next().unwrap();
    assert!(
        gradebook.contains(&format!("{}\n", marked[0])),
        "the gradebook has marks.csv's row: {gradebook}"
    );
    assert!(!gradebook.contains(pseudonym), "{gradebook}");
    let feedback = std::fs::read_to_string(p(&format!("back/feedback/{student}.txt"))).unwrap();
    assert!(
        feedback.contains("header lacks the author") && !feedback.contains(pseudonym),
        "{feedback}"
    );
}
