//! Disguised copies of the project's own correct solutions rank above every pair of
//! independently written ones; a file made of halves of two others matches its two
//! sources best; code given to everyone (`base`) is not counted. One comparison, many
//! assertions. The independent solutions: the Prolog reference (prolog/cribbage.pl), the
//! grade corpus's plain student-style one (correct.pl) and tests/independent/tally.pl,
//! written apart from both (70 of 70 in `crib grade`). The corpus's two-module submission
//! (module/) is correct.pl restructured, so it counts as a disguised copy.

use std::collections::{BTreeMap, BTreeSet};

use crib_similar::token::{tokenize, Kind};
use crib_similar::{compare, Options, Pair, Source};

use crate::common::{chunks, independent, predicate_groups, read, rewrite, score};

/// Rewrites every identifier outside comments and quotes for which `f` gives a new name.
fn rename(text: &str, f: impl Fn(&str) -> Option<String>) -> String {
    rewrite(text, |w, _| f(w))
}

fn source(name: &str, files: &[(&str, String)]) -> Source {
    Source {
        name: name.into(),
        files: files
            .iter()
            .map(|(n, t)| (n.to_string(), t.clone()))
            .collect(),
    }
}

/// The names of the predicates `text` defines.
fn own(text: &str) -> BTreeSet<String> {
    crib_similar::token::clauses(tokenize(text))
        .iter()
        .filter_map(|c| c.first())
        .filter(|t| t.kind == Kind::Atom && t.text != ":-")
        .map(|t| t.text.clone())
        .collect()
}

/// `text` with each predicate's clauses kept together, predicates in reverse order.
fn reorder(text: &str) -> String {
    let mut groups = predicate_groups(text);
    groups.reverse();
    groups.into_iter().flat_map(|(_, cs)| cs).collect()
}

/// `text` as SWI-Prolog's portray_clause/1 writes it back: its own layout and variable
/// names, every comment gone. Reading does not run the code.
fn portray(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.pl");
    std::fs::write(&file, text).unwrap();
    let goal = format!(
        "open('{}', read, S), repeat, read_term(S, T, []), \
         ( T == end_of_file -> ! ; portray_clause(T), fail ), halt",
        file.display()
    );
    let out = std::process::Command::new("swipl")
        .args(["--no-tty", "-q", "-g", &goal, "-t", "halt(1)"])
        .output()
        .expect("these tests need swipl");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn disguised_copies_rank_above_independent_solutions() {
    let reference = read("prolog/cribbage.pl");
    let correct = read("crates/grade/tests/submissions/correct.pl");
    let module = [
        (
            "cribbage.pl",
            read("crates/grade/tests/submissions/module/cribbage.pl"),
        ),
        (
            "scoring.pl",
            read("crates/grade/tests/submissions/module/scoring.pl"),
        ),
    ];
    let preds = own(&correct);
    let vars_renamed = rename(&correct, |w| {
        w.starts_with(|c: char| c.is_uppercase())
            .then(|| format!("Zz{}", w.to_lowercase()))
    });
    let preds_renamed = rename(&correct, |w| preds.contains(w).then(|| format!("my_{w}")));
    let no_comments = portray(&correct).replace("\n\n", "\n% a comment of my own\n");
    let everything = portray(&reorder(&rename(&correct, |w| {
        preds.contains(w).then(|| format!("q_{w}"))
    })));
    let ref_chunks = chunks(&reference);
    let cor_chunks = chunks(&correct);
    let half: String = ref_chunks[..ref_chunks.len() / 2]
        .iter()
        .chain(&cor_chunks[cor_chunks.len() / 2..])
        .cloned()
        .collect();
    let tally = independent("tally");
    let class = vec![
        source("tally", &[("tally.pl", tally)]),
        source("reference", &[("cribbage.pl", reference.clone())]),
        source("correct", &[("correct.pl", correct.clone())]),
        Source {
            name: "module".into(),
            files: module
                .iter()
                .map(|(n, t)| (n.to_string(), t.clone()))
                .collect(),
        },
        source("vars_renamed", &[("a.pl", vars_renamed)]),
        source("preds_renamed", &[("a.pl", preds_renamed)]),
        source("portrayed", &[("a.pl", portray(&correct))]),
        source("reordered", &[("a.pl", reorder(&correct))]),
        source("comments_changed", &[("a.pl", no_comments)]),
        source("everything", &[("a.pl", everything)]),
        source("reference_portrayed", &[("a.pl", portray(&reference))]),
        source("half_and_half", &[("a.pl", half)]),
    ];
    let pairs = compare(&class, &[], &[], &Options::default()).pairs;
    let independent = ["reference", "correct", "tally"];
    let mut best_independent: f64 = 0.0;
    for (i, a) in independent.iter().enumerate() {
        for b in &independent[i + 1..] {
            let s = score(&pairs, a, b);
            eprintln!("independent {a} / {b}: {s:.3}");
            best_independent = best_independent.max(s);
        }
    }
    let disguises = [
        ("correct", "vars_renamed"),
        ("correct", "preds_renamed"),
        ("correct", "portrayed"),
        ("correct", "reordered"),
        ("correct", "comments_changed"),
        ("correct", "everything"),
        ("correct", "module"),
        ("reference", "reference_portrayed"),
    ];
    let mut weak = Vec::new();
    for (original, copy) in disguises {
        let s = score(&pairs, original, copy);
        eprintln!("disguised {copy} of {original}: {s:.3}");
        if s <= best_independent {
            weak.push(format!("{copy}: {s:.3} <= {best_independent:.3}"));
        }
    }
    assert!(weak.is_empty(), "{}", weak.join("; "));

    // The half-and-half file's two best matches are its sources.
    let mut matches: Vec<(&str, f64)> = pairs
        .iter()
        .filter_map(|p| match (p.a.as_str(), p.b.as_str()) {
            ("half_and_half", other) | (other, "half_and_half") => Some((other, p.similarity)),
            _ => None,
        })
        .filter(|(other, _)| independent.contains(other))
        .collect();
    matches.sort_by(|x, y| y.1.total_cmp(&x.1));
    let best: BTreeSet<&str> = matches.iter().take(2).map(|(n, _)| *n).collect();
    eprintln!("half_and_half: {matches:?}");
    assert_eq!(
        best,
        BTreeSet::from(["reference", "correct"]),
        "{matches:?}"
    );
    // Every pair has fragments with lines in both files.
    let top = &pairs[0];
    assert!(!top.fragments.is_empty());
    assert!(top
        .fragments
        .iter()
        .all(|f| f.a_lines[0] <= f.a_lines[1] && f.b_lines[0] <= f.b_lines[1]));
}

#[test]
fn given_code_does_not_count() {
    let given = read("prolog/cribbage.pl");
    let given: String = chunks(&given).into_iter().take(25).collect();
    let correct = read("crates/grade/tests/submissions/correct.pl");
    let scoring = independent("tally");
    let class = vec![
        source("x", &[("x.pl", format!("{given}\n{correct}"))]),
        source("y", &[("y.pl", format!("{given}\n{scoring}"))]),
    ];
    let alone = vec![
        source("x", &[("x.pl", correct)]),
        source("y", &[("y.pl", scoring)]),
    ];
    let base = vec![source("given", &[("given.pl", given)])];
    let options = Options::default();
    let with_given = score(&compare(&class, &[], &[], &options).pairs, "x", "y");
    let based = score(&compare(&class, &[], &base, &options).pairs, "x", "y");
    let own_code = score(&compare(&alone, &[], &[], &options).pairs, "x", "y");
    eprintln!("given code counted {with_given:.3}, removed with --base {based:.3}, own code only {own_code:.3}");
    assert!(with_given > own_code + 0.1, "{with_given} vs {own_code}");
    assert!((based - own_code).abs() < 0.05, "{based} vs {own_code}");
}

#[test]
fn known_sources_are_never_compared_with_each_other() {
    let correct = read("crates/grade/tests/submissions/correct.pl");
    let known = vec![
        source("last_year", &[("a.pl", correct.clone())]),
        source("published", &[("b.pl", correct.clone())]),
    ];
    let class = vec![source("alice", &[("alice.pl", correct)])];
    let options = Options {
        reference: false,
        ..Options::default()
    };
    let pairs = compare(&class, &known, &[], &options).pairs;
    let names: BTreeMap<(String, String), f64> = pairs
        .iter()
        .map(|p| ((p.a.clone(), p.b.clone()), p.similarity))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(pairs.iter().all(|p| p.a == "alice"));
    assert!(pairs.iter().all(|p| p.similarity > 0.99));
}

/// A class that is all one source has nothing to tell apart: its code is common and cut.
/// Given as a known source (`--against`), that code is never common: every copy matches it.
#[test]
fn a_known_source_is_never_cut_as_common() {
    let correct = read("crates/grade/tests/submissions/correct.pl");
    let class: Vec<Source> = (0..12)
        .map(|i| source(&format!("s{i:02}"), &[("a.pl", correct.clone())]))
        .collect();
    let options = Options {
        reference: false,
        ..Options::default()
    };
    let alone = compare(&class, &[], &[], &options);
    assert!(alone.pairs.is_empty(), "{:?}", alone.pairs.first());
    assert!(alone.common.mostly_common && alone.common.cut > 0);
    let known = vec![source("published", &[("p.pl", correct)])];
    let against = compare(&class, &known, &[], &options);
    let with_known: Vec<&Pair> = against.pairs.iter().filter(|p| p.known).collect();
    assert_eq!(with_known.len(), 12);
    assert!(with_known
        .iter()
        .all(|p| p.similarity > 0.99 && p.b == "published"));
}
