use super::*;

fn parse(text: &str) -> Result<Rubric, RubricError> {
    Rubric::parse(text, Path::new("r.toml"))
}

fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

const CRITERION: &str = "[[criterion]]\nid = \"a\"\ndescription = \"d\"\n";

#[test]
fn the_default_rubric_is_three_criteria_of_ten() {
    let rubric = Rubric::default_rubric();
    let ids: Vec<(&str, f64)> = rubric
        .criteria
        .iter()
        .map(|c| (c.id.as_str(), c.max))
        .collect();
    assert_eq!(
        ids,
        [
            ("documentation", 10.0),
            ("readability", 10.0),
            ("design", 10.0)
        ]
    );
    assert_eq!(rubric.source, "default rubric");
}

#[test]
fn integer_and_fractional_maxima_read() {
    let text = "[[criterion]]\nid = \"a\"\ndescription = \"d\"\nmax = 22.5\n\
                [[criterion]]\nid = \"b2\"\ndescription = \"e\"\nmax = 7.5\n";
    let rubric = parse(text).unwrap();
    assert_eq!(rubric.criteria[1].max, 7.5);
    assert_eq!(rubric.source, "r.toml");
}

#[test]
fn bad_rubrics_are_refused_naming_the_file() {
    assert_eq!(
        error(&format!("{CRITERION}max = 10\n")),
        "r.toml: the criteria's maxima total 10, not 30 (the marks for code quality)"
    );
    assert_eq!(error(""), "r.toml: no [[criterion]] in the rubric");
    assert_eq!(
        error(&format!("{CRITERION}max = 30\n{CRITERION}max = 0\n")),
        "r.toml: criterion id \"a\": given twice"
    );
    assert_eq!(
        error(&format!("{CRITERION}max = -1\n").replace("\"a\"", "\"neg\"")),
        "r.toml: criterion \"neg\": max -1 is not a positive number of marks"
    );
    assert_eq!(
        error(&format!("{CRITERION}max = 30\n").replace("\"a\"", "\"notes\"")),
        "r.toml: criterion id \"notes\": the sheet has that column already"
    );
    assert_eq!(
        error(&format!("{CRITERION}max = 30\n").replace("\"a\"", "\"Style\"")),
        "r.toml: criterion id \"Style\": use lower-case letters, digits and _"
    );
    let parse_error = error(&format!("{CRITERION}max = \"ten\"\n"));
    assert!(
        parse_error.starts_with("r.toml: not a rubric: "),
        "{parse_error}"
    );
    let unknown = error(&format!("{CRITERION}max = 30\nweight = 2\n"));
    assert!(unknown.contains("weight"), "{unknown}");
    let missing = Rubric::read(Path::new("/nonexistent/rubric.toml")).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "cannot read the rubric /nonexistent/rubric.toml"
    );
}
