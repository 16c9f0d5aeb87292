//! The style corpus (tests/style/*.pl): each file's exact findings, with line numbers, are in
//! its `.expected` file (`UPDATE_EXPECT=1 cargo test -p crib-lint --test style` rewrites them
//! after you have read the difference). And each rule's `--explain` example: the code that
//! triggers it does, the code that does not, does not. One linter, every file linted once.

use std::path::{Path, PathBuf};

use crib_lint::{IsolationChoice, Linter, RULES};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/style")
}

fn linter() -> Linter {
    Linter::new("swipl".as_ref(), IsolationChoice::Auto).expect("these tests need swipl")
}

fn render(lint: &crib_lint::Lint) -> String {
    lint.findings.iter().map(|f| format!("{f}\n")).collect()
}

#[test]
fn the_style_corpus_gets_exactly_its_expected_findings() {
    let linter = linter();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pl"))
        .collect();
    files.sort();
    assert!(files.len() >= 2);
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut wrong = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let lint = linter.lint(0, &name, &dir(), std::slice::from_ref(&name));
        let got = render(&lint);
        let expected_path = path.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            wrong.push(format!("{name}:\n--- expected\n{expected}--- got\n{got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Rules whose examples are placeholders (a file that cannot load, sizes too big to show).
const NO_RUNNABLE_EXAMPLE: &[&str] = &["E002", "E003", "L403", "L404"];

#[test]
fn each_rule_example_triggers_it_and_its_fix_does_not() {
    let linter = linter();
    let work = tempfile::tempdir().unwrap();
    let mut wrong = Vec::new();
    for rule in RULES {
        if NO_RUNNABLE_EXAMPLE.contains(&rule.code) {
            continue;
        }
        for (which, code, should) in [("before", rule.before, true), ("after", rule.after, false)] {
            let name = format!("{}_{which}.pl", rule.code);
            std::fs::write(work.path().join(&name), code).unwrap();
            let lint = linter.lint(0, &name, work.path(), std::slice::from_ref(&name));
            let fired = lint.findings.iter().any(|f| f.rule == rule.code);
            if fired != should {
                wrong.push(format!(
                    "{} {which}: {} (findings: {})",
                    rule.code,
                    if should {
                        "does not trigger it"
                    } else {
                        "triggers it"
                    },
                    render(&lint).trim()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_readme_lists_every_rule_as_it_is() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let rows: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("| ") && l.len() > 6)
        .collect();
    for rule in RULES {
        let row = format!(
            "| {} | {} | {} | {} |",
            rule.code,
            rule.family.name(),
            rule.title,
            rule.source
        );
        assert!(rows.contains(&row.as_str()), "README.md has no row {row}");
    }
    let listed = rows
        .iter()
        .filter(|r| r.as_bytes().get(2).is_some_and(u8::is_ascii_uppercase))
        .count();
    assert_eq!(
        listed,
        RULES.len(),
        "README.md lists rules that do not exist"
    );
}
