//! The marking sheet: a round trip through marks.csv, and every way a sheet is refused.

use super::*;
use crate::class::tests::report;
use crate::quality::tests::linted;

fn reports() -> Vec<SubmissionResult> {
    let id = "sh:named:keep-the-run";
    let mut bob = report("bob", &[(id, "pass")]);
    bob.quality = Some(linted("bob", &[("D102", 3), ("L401", 9), ("L401", 12)]));
    vec![report("alice", &[(id, "pass")]), bob, report("carol", &[])]
}

fn header() -> &'static str {
    "submission,findings,documentation,readability,design,notes\n"
}

/// Returns the sheet `text`, read as the file `path`.
fn parse_as(text: &str, path: &str) -> Result<QualityMarks, SheetError> {
    let rubric = Rubric::default_rubric();
    parse_sheet(text.as_bytes(), Path::new(path), &reports(), &rubric)
}

fn parse(rows: &str) -> Result<QualityMarks, SheetError> {
    parse_as(&format!("{}{rows}", header()), "sheet.csv")
}

fn error(rows: &str) -> String {
    parse(rows).unwrap_err().to_string()
}

#[test]
fn a_sheet_round_trips_into_the_marks_csv() {
    let reports = reports();
    let rubric = Rubric::default_rubric();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sheet.csv");
    write_sheet_file(&reports, &rubric, &path, false).unwrap();
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written,
        format!(
            "{}alice,not linted,,,,\nbob,3: D102x1 L401x2,,,,\ncarol,not linted,,,,\n",
            header()
        )
    );
    // A second write is refused unless forced.
    let again = write_sheet_file(&reports, &rubric, &path, false).unwrap_err();
    assert_eq!(
        again.to_string(),
        format!("{} exists; pass --force to overwrite it", path.display())
    );
    write_sheet_file(&reports, &rubric, &path, true).unwrap();

    // The markers fill it in as a spreadsheet would: columns by name, alice complete,
    // bob half marked, carol untouched.
    let mut reader = csv::Reader::from_path(&path).unwrap();
    let columns = reader.headers().unwrap().clone();
    let mut writer = csv::Writer::from_path(path.with_extension("filled.csv")).unwrap();
    writer.write_record(&columns).unwrap();
    for record in reader.records() {
        let mut row: Vec<String> = record.unwrap().iter().map(String::from).collect();
        let set = |row: &mut Vec<String>, column: &str, value: &str| {
            let i = columns.iter().position(|c| c == column).unwrap();
            row[i] = value.into();
        };
        match row[0].as_str() {
            "alice" => {
                set(&mut row, "documentation", "8");
                set(&mut row, "readability", " 9.5 ");
                set(&mut row, "design", "7");
                set(&mut row, "notes", "tidy, \"clear\" names");
            }
            "bob" => set(&mut row, "design", "0"),
            _ => {}
        }
        writer.write_record(&row).unwrap();
    }
    writer.flush().unwrap();
    let marks = read_sheet(&path.with_extension("filled.csv"), &reports, &rubric).unwrap();
    assert_eq!(marks.rows["alice"].marks, [Some(8.0), Some(9.5), Some(7.0)]);
    assert_eq!(marks.rows["alice"].notes, "tidy, \"clear\" names");
    assert_eq!(marks.rows["bob"].marks, [None, None, Some(0.0)]);
    assert_eq!(marks.code_quality("alice"), Some(24.5));
    assert_eq!(
        marks.code_quality("bob"),
        None,
        "a blank is not marked, never 0"
    );
    assert_eq!(marks.complete(), 1);

    let mut csv = Vec::new();
    let extras = crate::MarksExtras {
        quality: Some(&marks),
        deadline: None,
    };
    crate::marks_csv(&reports, extras, &mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "student,hand_value,select_hand,total,problems,test_set,code_quality,final"
    );
    let alice_total = reports[0].marks.total;
    assert!(
        lines[1].ends_with(&format!(",24.50,{:.2}", alice_total + 24.5)),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("bob,") && lines[2].ends_with(",,"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].starts_with("carol,") && lines[3].ends_with(",,"),
        "{}",
        lines[3]
    );
}

#[test]
fn bad_sheets_name_the_line_and_column() {
    assert_eq!(
        error("alice,,8,9,7,\ndave,,1,1,1,\n"),
        "sheet.csv:3: column \"submission\": \"dave\" is not a submission of these results"
    );
    assert_eq!(
        error("alice,,8,9,7,\nbob,,,,,\nalice,,1,1,1,\n"),
        "sheet.csv:4: column \"submission\": \"alice\" has a row already, on line 2"
    );
    assert_eq!(
        error("alice,,8,11,7,\n"),
        "sheet.csv:2: column \"readability\": 11 is outside 0..=10, the criterion's marks"
    );
    assert_eq!(
        error("bob,,,,-0.5,\n"),
        "sheet.csv:2: column \"design\": -0.5 is outside 0..=10, the criterion's marks"
    );
    assert_eq!(
        error("alice,,eight,9,7,\n"),
        "sheet.csv:2: column \"documentation\": \"eight\" is not a number (leave the cell blank if not marked yet)"
    );
    assert_eq!(
        error("alice,,NaN,9,7,\n"),
        "sheet.csv:2: column \"documentation\": \"NaN\" is not a number (leave the cell blank if not marked yet)"
    );
    assert_eq!(
        error("alice,,8,9\n"),
        "sheet.csv:2: not a marking sheet: 4 cells where the header has 6"
    );
    let missing = parse_as(
        "submission,findings,documentation,design,notes\nalice,,1,1,\n",
        "sheet.csv",
    )
    .unwrap_err();
    assert_eq!(
        missing.to_string(),
        "sheet.csv:1: no column \"readability\" (the sheet needs submission, one column per \
         criterion of the default rubric, and notes)"
    );
    assert!(matches!(missing, SheetError::MissingColumn { .. }));
}

#[test]
fn columns_are_found_by_name_and_blank_rows_skipped() {
    let text = "notes,design,extra,readability,documentation,submission\n\
                ok,1,x,2,3,bob\n,,,,,\n";
    let marks = parse_as(text, "s.csv").unwrap();
    assert_eq!(marks.rows.len(), 1);
    assert_eq!(marks.rows["bob"].marks, [Some(3.0), Some(2.0), Some(1.0)]);
    assert_eq!(marks.code_quality("bob"), Some(6.0));
    assert_eq!(marks.code_quality("alice"), None);
}

/// The line named is the one an editor shows, whatever came before it (issue 27, part 5):
/// blank lines, Windows line endings (a spreadsheet's), old Mac ones, and notes over
/// several lines, before the row or within it before the bad cell.
#[test]
fn bad_cells_are_named_by_the_line_an_editor_shows() {
    let cases = [
        // The bad cell on the file's sixth line, after a blank line.
        (
            "alice,,8,9,7,\nbob,,1,1,1,\ncarol,,1,1,1,\n\n",
            "dave,,1,1,1,\n",
            6,
        ),
        ("alice,,8,9,7,\r\nbob,,1,1,1,\r\n", "carol,,1,11,1,\r\n", 4),
        ("alice,,8,9,7,\rbob,,1,1,1,\r", "carol,,1,11,1,\r", 4),
        ("alice,,8,9,7,\"two\nlines\"\n", "bob,,8,11,7,\n", 4),
        ("alice,,8,9,7,\"two\r\nlines\"\r\n", "bob,,8,11,7,\r\n", 4),
        ("\n\n", "alice,,8,9\n", 4),
    ];
    for (before, bad, line) in cases {
        let message = error(&format!("{before}{bad}"));
        assert!(
            message.starts_with(&format!("sheet.csv:{line}: ")),
            "{before:?} then {bad:?}: {message}"
        );
    }
    // A bad cell after a quoted cell over three lines is on the third.
    let text = "notes,submission,documentation,readability,design\n\
                \"first\nsecond\nthird\",alice,1,11,1\n";
    let error = parse_as(text, "s.csv").unwrap_err();
    assert_eq!(
        error.to_string(),
        "s.csv:4: column \"readability\": 11 is outside 0..=10, the criterion's marks"
    );
    // The row itself is still known by its first line.
    let text = "notes,submission,documentation,readability,design\n\
                \"a\nb\",alice,1,1,1\n\n,alice,1,1,1\n";
    let error = parse_as(text, "s.csv").unwrap_err();
    assert_eq!(
        error.to_string(),
        "s.csv:5: column \"submission\": \"alice\" has a row already, on line 2"
    );
}
