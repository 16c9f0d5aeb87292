//! The corpora, each submission with its exact findings, with line numbers, in a `.expected`
//! file beside it (`UPDATE_EXPECT=1 cargo test -p crib-lint --test style` rewrites them after
//! you have read the difference):
//!
//! - the style corpus (tests/style/*.pl): at least one file for each rule, each with a case
//!   just under its limit;
//! - the precision corpus (tests/precision/): student-style solutions, in the styles real
//!   students use (banners, `%%` and `/** */` headers with and without modes, helpers passed
//!   to maplist/foldl/call, nested if-then-else, assert, grammar rules, two modules, a
//!   syntax error in the middle), on which no finding may be false or misplaced. A
//!   directory is one submission of several files.
//!
//! Every finding of both is placed on its own predicate (checked against the file's text,
//! not the linter's facts). And each rule's `--explain` example: the code that triggers it
//! does, the code that does not, does not.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crib_isolation::IsolationChoice;
use crib_lint::{JailedLinter, Linter, RULES};
use crib_results::{Finding, Lint};
use crib_submission::{Submission, MAX_BYTES};

fn dir(corpus: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(corpus)
}

fn linter() -> JailedLinter {
    JailedLinter::new("swipl".as_ref(), IsolationChoice::Auto, Linter::default())
        .expect("these tests need swipl")
}

fn render(lint: &Lint) -> String {
    lint.findings.iter().map(|f| format!("{f}\n")).collect()
}

/// One submission of a corpus: its name (a `.pl` file's or a directory's), where its files
/// are, its files and its lint.
struct Linted {
    name: String,
    root: PathBuf,
    lint: Lint,
}

/// Lints every submission of `corpus` once (the tests share the result).
fn linted(corpus: &'static str) -> &'static [Linted] {
    static STYLE: OnceLock<Vec<Linted>> = OnceLock::new();
    static PRECISION: OnceLock<Vec<Linted>> = OnceLock::new();
    let cell = match corpus {
        "style" => &STYLE,
        "precision" => &PRECISION,
        _ => panic!("no corpus {corpus}"),
    };
    cell.get_or_init(|| {
        let linter = linter();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir(corpus))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "pl"))
            .collect();
        entries.sort();
        entries
            .iter()
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                // A directory's top-level .pl files load together, in name order.
                let root = if path.is_dir() {
                    path.clone()
                } else {
                    dir(corpus)
                };
                let submission = Submission {
                    name: name.clone(),
                    path: path.clone(),
                    lms: None,
                };
                let lint = linter.lint(crib_sandbox::Worker::FIRST, &submission, MAX_BYTES);
                Linted { name, root, lint }
            })
            .collect()
    })
}

/// Checks each submission of `corpus` against its `.expected` file.
fn expect(corpus: &'static str) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut wrong = Vec::new();
    for linted in linted(corpus) {
        let expected_path = dir(corpus).join(&linted.name).with_extension("expected");
        let got = render(&linted.lint);
        if update {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            wrong.push(format!(
                "{}:\n--- expected\n{expected}--- got\n{got}",
                linted.name
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_style_corpus_gets_exactly_its_expected_findings() {
    assert!(linted("style").len() >= 2);
    expect("style");
}

#[test]
fn the_precision_corpus_gets_exactly_its_expected_findings() {
    let linted = linted("precision");
    assert!(
        linted.len() >= 20,
        "the precision corpus has {} submissions",
        linted.len()
    );
    let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
    for l in linted {
        for f in &l.lint.findings {
            *by_rule.entry(f.rule.as_str()).or_default() += 1;
        }
    }
    // The table for the notes: cargo test -p crib-lint --test style -- --nocapture
    println!("precision corpus, {} submissions:", linted.len());
    for rule in RULES {
        println!("  {} {}", rule.code, by_rule.get(rule.code).unwrap_or(&0));
    }
    expect("precision");
}

/// Rules whose findings concern a file, not a predicate.
const FILE_RULES: &[&str] = &["E001", "E002", "E003", "D101", "D104", "L401", "L402"];

/// Whether `line` (1-based) of `text` is a clause of predicate `name`: the nearest line at
/// or above it that starts a term (text in the first column, not a comment) starts with
/// `name`; or, for a comment (D103), the first such line below it.
fn placed(text: &str, line: u32, name: &str, comment: bool) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let starts_term = |l: &str| {
        l.starts_with(|c: char| !c.is_whitespace() && c != '%' && c != '/' && c != '*')
            && !l.starts_with(":-")
    };
    let index = line as usize - 1;
    let head = if comment {
        lines[index..].iter().find(|l| starts_term(l))
    } else {
        lines[..=index].iter().rev().find(|l| starts_term(l))
    };
    head.is_some_and(|h| {
        h.strip_prefix(name)
            .is_some_and(|rest| rest.starts_with(['(', ' ', '.', ':', '-']))
    })
}

#[test]
fn every_finding_is_placed_on_its_own_predicate() {
    let mut wrong = Vec::new();
    for corpus in ["style", "precision"] {
        for l in linted(corpus) {
            for f in &l.lint.findings {
                let Finding {
                    rule,
                    file,
                    line,
                    predicate,
                    ..
                } = f;
                if *line == 0 {
                    wrong.push(format!("{}: no line: {f}", l.name));
                    continue;
                }
                if FILE_RULES.contains(&rule.as_str()) {
                    continue;
                }
                let Some(pi) = predicate else {
                    // Only a call from a directive or a comment followed by no predicate
                    // concerns no predicate.
                    if !(f.message.contains("from a directive")
                        || f.message.contains("no predicate follows"))
                    {
                        wrong.push(format!("{}: no predicate: {f}", l.name));
                    }
                    continue;
                };
                let text = std::fs::read_to_string(l.root.join(file)).unwrap();
                let name = pi.rsplit_once('/').map_or(pi.as_str(), |(n, _)| n);
                if !placed(&text, *line, name, rule == "D103") {
                    wrong.push(format!("{}: not on a clause of {pi}: {f}", l.name));
                }
            }
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
            let submission = Submission {
                name: name.clone(),
                path: work.path().join(&name),
                lms: None,
            };
            let lint = linter.lint(crib_sandbox::Worker::FIRST, &submission, MAX_BYTES);
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
            rule.family(),
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
