//! `crib report`'s code-quality flags end to end: the sheet written, refused, filled and
//! read back into the page and marks.csv, and a bad sheet or rubric exiting 2.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{copy_results, crib, crib_report, json_lines, submissions};

/// Copies the corpus's results into `dir`, giving `correct` and `broken_nob` a quality
/// section with findings on lines of their real source, and the others none (as results
/// graded with `--no-lint`).
fn results(dir: &Path) -> PathBuf {
    copy_results(dir, |json| {
        let name = json["name"].as_str().unwrap().to_string();
        if name == "correct" || name == "broken_nob" {
            json["quality"] = serde_json::json!({
                "name": name,
                "findings": [
                    {"rule": "D101", "file": format!("{name}.pl"), "line": 1,
                     "predicate": null, "message": "no header comment"},
                    {"rule": "L401", "file": format!("{name}.pl"), "line": 2,
                     "predicate": "hand_value/3", "message": "line of 99 characters"}
                ],
                "summary": {"findings": 2, "by_rule": {"D101": 1, "L401": 1}}
            });
        } else if let Some(fields) = json.as_object_mut() {
            fields.remove("quality");
        }
    })
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_sheet_goes_round_into_the_page_and_the_marks() {
    let dir = tempfile::tempdir().unwrap();
    let results = results(dir.path());
    let sheet = dir.path().join("sheet.csv");
    let r = results.as_os_str();
    let out = crib_report(&[r, "--quality-sheet".as_ref(), sheet.as_os_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&sheet).unwrap();
    assert!(text.starts_with("submission,findings,documentation,readability,design,notes\n"));
    assert!(text.contains("\ncorrect,2: D101x1 L401x1,,,,\n"), "{text}");
    assert!(text.contains("\nbroken_flush,not linted,,,,\n"), "{text}");

    let again = crib_report(&[r, "--quality-sheet".as_ref(), sheet.as_os_str()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("exists; pass --force to overwrite it"),
        "{}",
        stderr(&again)
    );

    let filled = text
        .replace(
            "\ncorrect,2: D101x1 L401x1,,,,",
            "\ncorrect,2: D101x1 L401x1,9,8,10,neat",
        )
        .replace(
            "\nbroken_nob,2: D101x1 L401x1,,,,",
            "\nbroken_nob,2: D101x1 L401x1,5,,6,",
        );
    std::fs::write(&sheet, filled).unwrap();
    let (page, marks) = (dir.path().join("r.html"), dir.path().join("m.csv"));
    let submissions = submissions();
    let out = crib_report(&[
        r,
        "--submissions".as_ref(),
        submissions.as_os_str(),
        "--quality-marks".as_ref(),
        sheet.as_os_str(),
        "-o".as_ref(),
        page.as_os_str(),
        "--csv".as_ref(),
        marks.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("code-quality marks of 1 of"),
        "{}",
        stderr(&out)
    );
    let csv = std::fs::read_to_string(&marks).unwrap();
    assert!(csv.starts_with(
        "student,hand_value,select_hand,total,problems,test_set,code_quality,final\n"
    ));
    let row = csv.lines().find(|l| l.starts_with("correct,")).unwrap();
    let cells: Vec<&str> = row.split(',').collect();
    let total: f64 = cells[3].parse().unwrap();
    assert_eq!(cells[6], "27.00");
    assert_eq!(cells[7], format!("{:.2}", total + 27.0));
    let nob = csv.lines().find(|l| l.starts_with("broken_nob,")).unwrap();
    assert!(nob.ends_with(",,"), "half marked: blank, never 0: {nob}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<th class=\"n\">final /100</th>"));
    assert!(html.contains(&format!("; final {:.2} / 100", total + 27.0)));
    assert!(
        html.contains("<span class=\"ln\">1</span><span class=\"hit\">"),
        "inline findings"
    );
    assert!(html.contains("<b>notes: </b>neat"));

    // A bad sheet exits 2 naming the line and column.
    let bad = std::fs::read_to_string(&sheet).unwrap().replace(
        "correct,2: D101x1 L401x1,9,8,10",
        "correct,2: D101x1 L401x1,9,8,11",
    );
    std::fs::write(&sheet, bad).unwrap();
    let line = std::fs::read_to_string(&sheet)
        .unwrap()
        .lines()
        .position(|l| l.starts_with("correct,"))
        .unwrap()
        + 1;
    let out = crib_report(&[
        r,
        "--quality-marks".as_ref(),
        sheet.as_os_str(),
        "--csv".as_ref(),
        "-".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "crib: {}:{line}: column \"design\": 11 is outside 0..=10, the criterion's marks",
            sheet.display()
        )
    );
}

#[test]
fn a_bad_rubric_or_flags_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let results = results(dir.path());
    let rubric = dir.path().join("rubric.toml");
    std::fs::write(
        &rubric,
        "[[criterion]]\nid = \"style\"\ndescription = \"d\"\nmax = 20\n",
    )
    .unwrap();
    let sheet = dir.path().join("sheet.csv");
    let out = crib_report(&[
        results.as_os_str(),
        "--rubric".as_ref(),
        rubric.as_os_str(),
        "--quality-sheet".as_ref(),
        sheet.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "crib: {}: the criteria's maxima total 20, not 30 (the marks for code quality)",
            rubric.display()
        )
    );
    assert!(!sheet.exists());
    let out = crib_report(&[results.as_os_str(), "--rubric".as_ref(), rubric.as_os_str()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--rubric alone is a usage error"
    );
    let out = crib_report(&[results.as_os_str(), "--force".as_ref()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--force without --quality-sheet"
    );
}

/// With `--submissions`, the page ranks the pairs as `crib similar` does (the larger share
/// first) and links each reported one into `crib similar --html`'s side-by-side view.
#[test]
fn the_similar_pairs_match_crib_similar_and_link_into_its_page() {
    let dir = tempfile::tempdir().unwrap();
    let results = results(dir.path());
    let submissions = submissions();
    let similar_page = dir.path().join("similar.html");
    let similar = crib()
        .args(["similar", "--json", "--threshold", "0", "--html"])
        .arg(&similar_page)
        .arg(&submissions)
        .output()
        .unwrap();
    assert!(similar.status.success(), "{}", stderr(&similar));
    let pairs = json_lines(&similar.stdout);
    let first = &pairs[0];
    let larger = |p: &serde_json::Value| {
        p["share_a"]
            .as_f64()
            .unwrap()
            .max(p["share_b"].as_f64().unwrap())
    };
    assert!(larger(first) >= 0.33, "{first}");
    let side_by_side = std::fs::read_to_string(&similar_page).unwrap();
    assert!(side_by_side.contains("id=\"pair-1\""));

    let page = dir.path().join("r.html");
    let out = crib_report(&[
        results.as_os_str(),
        "--submissions".as_ref(),
        submissions.as_os_str(),
        "-o".as_ref(),
        page.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    let section = &html[html.find("<h2 id=\"similar\">").expect("a similar section")..];
    let section = &section[..section.find("</table>").unwrap()];
    assert!(section.contains("never a verdict"), "{section}");
    assert!(
        section.contains("<a href=\"similar.html#pair-1\">1</a>"),
        "{section}"
    );
    let first_row = &section[section.find("<tbody>").unwrap()..];
    let first_row = &first_row[..first_row.find("</tr>").unwrap()];
    for cell in [
        format!("<td>{}</td>", first["a"].as_str().unwrap()),
        format!("<td>{}</td>", first["b"].as_str().unwrap()),
        format!("{:.3}", first["similarity"].as_f64().unwrap()),
    ] {
        assert!(first_row.contains(&cell), "{cell} in {first_row}");
    }
    let rows = section.matches("<tr>").count() - 1;
    assert_eq!(rows, pairs.len().min(10), "the ten most similar pairs");
    let below = pairs.iter().take(10).position(|p| larger(p) < 0.33);
    if let Some(i) = below {
        assert!(
            !section.contains(&format!("#pair-{}\"", i + 1)),
            "no link below the threshold"
        );
    }

    let elsewhere = crib_report(&[
        results.as_os_str(),
        "--submissions".as_ref(),
        submissions.as_os_str(),
        "--similar-page".as_ref(),
        "../sim/page.html".as_ref(),
        "-o".as_ref(),
        page.as_os_str(),
    ]);
    assert!(elsewhere.status.success(), "{}", stderr(&elsewhere));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("href=\"../sim/page.html#pair-1\""));

    let without = crib_report(&[
        results.as_os_str(),
        "--similar-page".as_ref(),
        "x.html".as_ref(),
    ]);
    assert_eq!(
        without.status.code(),
        Some(2),
        "--similar-page needs --submissions"
    );
}
