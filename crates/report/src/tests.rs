use super::*;

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn an_empty_directory_is_an_error() {
    let d = dir();
    std::fs::write(d.path().join("notes.txt"), "not a result").unwrap();
    let err = read_results(d.path()).unwrap_err();
    assert!(matches!(err, ReportError::Empty { .. }), "{err}");
    assert!(
        err.to_string().starts_with("no results (*.json) in "),
        "{err}"
    );
    let missing = d.path().join("nope");
    assert!(
        matches!(read_results(&missing), Err(ReportError::Read { path, .. }) if path == missing)
    );
}

#[test]
fn a_file_that_is_not_a_result_is_named_with_its_line() {
    let d = dir();
    std::fs::write(d.path().join("bad.json"), "{\n  \"name\": 3\n}\n").unwrap();
    let err = read_results(d.path()).unwrap_err().to_string();
    assert!(err.contains("bad.json:2:"), "{err}");
    assert!(
        err.contains("not a crib grade result: invalid type"),
        "{err}"
    );
    assert!(
        !err.contains(" at line "),
        "the location is said once: {err}"
    );
}

#[test]
fn results_are_read_sorted_and_unknown_fields_ignored() {
    let d = dir();
    for name in ["zed", "amy"] {
        let report = crate::class::tests::report(name, &[("sh:named:keep-the-run", "pass")]);
        let mut json = serde_json::to_value(&report).unwrap();
        json["a_later_field"] = serde_json::json!({"unknown": true});
        std::fs::write(d.path().join(format!("{name}.json")), json.to_string()).unwrap();
    }
    std::fs::write(d.path().join("amy.json.tmp"), "half written").unwrap();
    let reports = read_results(d.path()).unwrap();
    let names: Vec<&str> = reports.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["amy", "zed"]);
}
