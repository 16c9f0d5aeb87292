use super::*;

fn finding(rule: &str, line: u32) -> Finding {
    Finding {
        rule: rule.into(),
        file: "a.pl".into(),
        line,
        column: None,
        predicate: None,
        message: "m".into(),
    }
}

#[test]
fn findings_are_sorted_and_counted() {
    let lint = Lint::new(
        "bob",
        vec![finding("L401", 9), finding("D102", 3), finding("L401", 1)],
    );
    let lines: Vec<u32> = lint.findings.iter().map(|f| f.line).collect();
    assert_eq!(lines, [1, 3, 9]);
    assert_eq!(lint.summary.line(), "3: D102x1 L401x2");
    assert_eq!(Summary::default().line(), "none");
}
