//! `crib lint` as a user meets it: findings are not failures, bad input exits 2 and names
//! the token, `--json` is one object per submission per line, `--explain` and `--rules`.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::crib;

fn style(file: &str) -> String {
    format!("{}/../lint/tests/style/{file}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn findings_are_printed_and_are_not_a_failure() {
    let out = crib()
        .args(["lint", "--json"])
        .arg(style("messy.pl"))
        .arg(style("documented.pl"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let messy = lines.iter().find(|l| l["name"] == "messy").unwrap();
    let findings = messy["findings"].as_array().unwrap();
    assert!(findings
        .iter()
        .any(|f| f["rule"] == "X301" && f["predicate"] == "unused/1" && f["file"] == "messy.pl"));
    assert_eq!(messy["summary"]["findings"], findings.len());
    let documented = lines.iter().find(|l| l["name"] == "documented").unwrap();
    assert_eq!(documented["findings"].as_array().unwrap().len(), 0);

    // The text form, with --ignore and a threshold: file:line: RULE [pred] message.
    crib()
        .args(["lint", "--ignore", "D102,X301", "--max-line", "200"])
        .arg(style("messy.pl"))
        .assert()
        .success()
        .stdout(predicate::str::contains("messy.pl:").and(predicate::str::contains("X301").not()))
        .stdout(predicate::str::contains("L401").not());
}

#[test]
fn bad_input_exits_2_and_names_the_token() {
    crib()
        .args(["lint", "--explain", "Z999"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Z999"));
    crib()
        .args(["lint", "--ignore", "D102,Q1"])
        .arg(style("messy.pl"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\"Q1\""));
    crib()
        .args(["lint", "--max-line", "0"])
        .arg(style("messy.pl"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\"0\""));
    crib()
        .args(["lint", "/no/such/submission.pl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/submission.pl"));
}

#[test]
fn explain_and_rules_need_no_path() {
    crib()
        .args(["lint", "--explain", "i503"])
        .assert()
        .success()
        .stdout(predicate::str::contains("aggregate_all(count"));
    crib()
        .args(["lint", "--rules"])
        .assert()
        .success()
        .stdout(predicate::str::contains("W204").and(predicate::str::contains("I504")));
}
