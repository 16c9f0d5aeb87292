//! The disguise corpus: three solutions of the assignment written for these tests in three
//! styles (tests/independent/alpha.pl, beta.pl, gamma.pl), each disguised in every way a
//! student hides a copy, one change at a time and all together, must score at least
//! [`COPY`] against its original, while every pair of independently written solutions
//! (those three, tally.pl, grade's correct.pl and prolog/cribbage.pl) scores at most
//! [`INDEPENDENT`]. Each copy is compared in a class of those six and itself, where nothing
//! is common enough to be cut: the hardest case for the score.
//!
//! The changes: variables renamed, predicates renamed (every one but hand_value/3 and
//! select_hand/3, by name and arity, as an editor renames them: data such as `card(R, S)`
//! is left alone), predicates reordered, comments removed and others written, and four
//! written by hand in the solutions between `%{ change`, `%|` and `%}`: a helper inlined
//! (`inline`), a predicate split in two (`split`), an if-then-else turned into clauses
//! (`clauses`), a count or sum by recursion or findall/3 turned into aggregate_all/3
//! (`aggregate`).
//!
//! Then one source copied by many: a class of 60 in which alpha.pl and 29 disguised copies
//! of it are half the class, with ten each of beta, gamma and tally (original and nine
//! copies). The copies' code is in more submissions than the class-common cut allows, so it
//! must be recognised as a source copied by many rather than cut as what everyone writes.

use std::collections::{BTreeMap, BTreeSet};

use crib_similar::token::{clauses, tokenize, Kind};
use crib_similar::{compare, Comparison, Options, Pair, Source};

/// Every disguised copy scores at least this against its original.
const COPY: f64 = 0.7;
/// Every pair of independent solutions scores at most this.
const INDEPENDENT: f64 = 0.3;

/// The changes written by hand in the solutions.
const HAND_CHANGES: [&str; 4] = ["inline", "split", "clauses", "aggregate"];
/// Every change, in the table's order.
const CHANGES: [&str; 8] = [
    "vars",
    "preds",
    "reorder",
    "comments",
    "inline",
    "split",
    "clauses",
    "aggregate",
];
const SOLUTIONS: [&str; 3] = ["alpha", "beta", "gamma"];

use crate::common::{arguments, chunks, independent, predicate_groups, read, rewrite, score};

/// The independently written solutions, as written.
fn independents() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&str, String)> = SOLUTIONS
        .iter()
        .map(|s| (*s, variant(&independent(s), &[])))
        .collect();
    out.push(("tally", independent("tally")));
    out.push(("correct", read("crates/grade/tests/submissions/correct.pl")));
    out.push(("reference", read("prolog/cribbage.pl")));
    out
}

/// `text` with the hand-written side of each block whose change is in `changes`, and the
/// side as written of every other block; the block markers removed.
fn variant(text: &str, changes: &[&str]) -> String {
    let mut out = String::new();
    // None outside a block; Some(keep this line?) inside one.
    let mut block: Option<(bool, bool)> = None; // (changed, in the second side)
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("%{ ") {
            assert!(HAND_CHANGES.contains(&name.trim()), "unknown change {name}");
            block = Some((changes.contains(&name.trim()), false));
            continue;
        }
        if line == "%|" {
            if let Some((changed, _)) = block {
                block = Some((changed, true));
                continue;
            }
        }
        if line == "%}" {
            block = None;
            continue;
        }
        let keep = match block {
            None => true,
            Some((changed, second)) => changed == second,
        };
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A tiny seeded generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The predicates `text` defines, by name and arity: each clause's head.
fn defined(text: &str) -> BTreeSet<(String, usize)> {
    let mut out = BTreeSet::new();
    for clause in clauses(tokenize(text)) {
        let Some(first) = clause.first() else {
            continue;
        };
        if first.kind != Kind::Atom || first.text == ":-" {
            continue;
        }
        let arity = match clause.get(1) {
            Some(t) if t.text == "(" && !t.spaced => {
                let rest: String = clause[1..]
                    .iter()
                    .map(|t| match t.kind {
                        Kind::Atom | Kind::Str => "x".to_string(),
                        _ => t.text.clone(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                arguments(&rest.chars().collect::<Vec<_>>(), 0).0
            }
            _ => 0,
        };
        out.insert((first.text.clone(), arity));
    }
    out
}

/// Every variable renamed (`_` kept).
fn rename_variables(text: &str, rng: &mut Rng) -> String {
    let salt = rng.next() % 1000;
    rewrite(text, |w, _| {
        (w.starts_with(|c: char| c.is_uppercase()) || (w.starts_with('_') && w.len() > 1))
            .then(|| format!("Q{salt}{}", w.chars().rev().collect::<String>()))
    })
}

/// Every predicate but hand_value/3 and select_hand/3 renamed, wherever it is called or
/// defined, and as a closure passed with fewer arguments (maplist(pip, ...)); never a data
/// term with more arguments than any definition of its name (`card(R, S)` in a file that
/// defines card/1).
fn rename_predicates(text: &str, rng: &mut Rng) -> String {
    let own = defined(text);
    let salt = rng.next() % 1000;
    rewrite(text, |w, arity| {
        let called = own.iter().any(|(n, a)| n == w && *a >= arity);
        let entry = w == "hand_value" || w == "select_hand";
        (called && !entry).then(|| format!("z{salt}_{}", w.chars().rev().collect::<String>()))
    })
}

/// Each predicate's clauses kept together, the predicates shuffled.
fn reorder(text: &str, rng: &mut Rng) -> String {
    let mut groups = predicate_groups(text);
    // Fisher-Yates; reversed first so that no seed leaves the order as it was.
    groups.reverse();
    for i in (1..groups.len()).rev() {
        groups.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    groups.into_iter().flat_map(|(_, cs)| cs).collect()
}

/// Every comment removed, and one of the copier's own before each clause.
fn recomment(text: &str) -> String {
    let bare = text
        .lines()
        .map(|l| match l.find('%') {
            Some(i) if !l[..i].contains('\'') && !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    chunks(&(bare + "\n"))
        .into_iter()
        .enumerate()
        .map(|(i, c)| format!("% step {i} of my solution\n{c}\n"))
        .collect()
}

/// `original` disguised by `changes` (names from [`CHANGES`]).
fn disguise(original: &str, changes: &[&str], rng: &mut Rng) -> String {
    let mut text = variant(original, changes);
    if changes.contains(&"comments") {
        text = recomment(&text);
    }
    if changes.contains(&"preds") {
        text = rename_predicates(&text, rng);
    }
    if changes.contains(&"vars") {
        text = rename_variables(&text, rng);
    }
    if changes.contains(&"reorder") {
        text = reorder(&text, rng);
    }
    text
}

fn source(name: &str, text: String) -> Source {
    Source {
        name: name.into(),
        files: vec![(format!("{name}.pl"), text)],
    }
}

/// The class compared with the default options but without crib's reference as a known
/// source: the reference is one of the independent solutions here.
fn comparison(class: &[Source]) -> Comparison {
    let options = Options {
        reference: false,
        ..Options::default()
    };
    compare(class, &[], &[], &options)
}

fn pairs(class: &[Source]) -> Vec<Pair> {
    comparison(class).pairs
}

#[test]
fn the_disguise_table() {
    let originals = independents();
    let class: Vec<Source> = originals
        .iter()
        .map(|(n, t)| source(n, t.clone()))
        .collect();
    let alone = pairs(&class);
    let mut failures = Vec::new();
    let mut best_independent: f64 = 0.0;
    for (i, (a, _)) in originals.iter().enumerate() {
        for (b, _) in &originals[i + 1..] {
            let s = score(&alone, a, b);
            eprintln!("independent {a:>9} / {b:<9} {s:.3}");
            best_independent = best_independent.max(s);
            if s > INDEPENDENT {
                failures.push(format!("independent {a} / {b}: {s:.3} > {INDEPENDENT}"));
            }
        }
    }
    let mut rows: Vec<(String, Vec<&str>)> =
        CHANGES.iter().map(|c| (c.to_string(), vec![*c])).collect();
    rows.push(("all together".into(), CHANGES.to_vec()));
    eprintln!(
        "\n{:<14} {}",
        "change",
        SOLUTIONS.map(|s| format!("{s:>7}")).join("")
    );
    let mut rng = Rng(29);
    for (row, changes) in &rows {
        let mut line = format!("{row:<14}");
        for solution in SOLUTIONS {
            let copy = disguise(&independent(solution), changes, &mut rng);
            assert_ne!(
                copy,
                variant(&independent(solution), &[]),
                "{row} changed nothing"
            );
            let mut with_copy = class.clone();
            with_copy.push(source("copy", copy));
            let s = score(&pairs(&with_copy), solution, "copy");
            line.push_str(&format!(" {s:>6.3}"));
            if s < COPY {
                failures.push(format!("{solution} {row}: {s:.3} < {COPY}"));
            }
        }
        eprintln!("{line}");
    }
    eprintln!("highest independent pair: {best_independent:.3}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Half of a class of 60 is alpha.pl and 29 disguised copies of it; the rest is ten each of
/// beta, gamma and tally, each an original and nine copies.
fn class_of_60() -> (Vec<Source>, BTreeMap<String, &'static str>) {
    let mut rng = Rng(60);
    let mut class = Vec::new();
    let mut origin = BTreeMap::new();
    for (solution, copies) in [("alpha", 29), ("beta", 9), ("gamma", 9), ("tally", 9)] {
        let text = independent(solution);
        class.push(source(solution, variant(&text, &[])));
        origin.insert(solution.to_string(), solution);
        for i in 0..copies {
            // The first copy has every change; the others a random half of them.
            let changes: Vec<&str> = CHANGES
                .iter()
                .copied()
                .filter(|_| i == 0 || rng.next().is_multiple_of(2))
                .collect();
            let name = format!("{solution}_copy{i:02}");
            class.push(source(&name, disguise(&text, &changes, &mut rng)));
            origin.insert(name, solution);
        }
    }
    (class, origin)
}

#[test]
fn a_source_copied_by_half_the_class_still_stands_out() {
    let (class, origin) = class_of_60();
    assert_eq!(class.len(), 60);
    let found = comparison(&class);
    // The copies are named as such, and only they.
    let copied: BTreeSet<&str> = found.common.copied.iter().map(String::as_str).collect();
    let alphas: BTreeSet<&str> = origin
        .iter()
        .filter(|(_, s)| **s == "alpha")
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(copied, alphas);
    assert!(
        found.common.cut > 0 && !found.common.mostly_common,
        "{:?}",
        found.common
    );
    let pairs = found.pairs;
    let mut failures = Vec::new();
    let mut lowest_copy = (1.0f64, String::new());
    let mut highest_apart = (0.0f64, String::new());
    for (name, solution) in &origin {
        if name != solution {
            let s = score(&pairs, solution, name);
            if s < lowest_copy.0 {
                lowest_copy = (s, name.clone());
            }
            if s < COPY {
                failures.push(format!("{name} against {solution}: {s:.3} < {COPY}"));
            }
        }
    }
    for p in &pairs {
        if origin[&p.a] != origin[&p.b] && p.similarity > highest_apart.0 {
            highest_apart = (p.similarity, format!("{} / {}", p.a, p.b));
        }
    }
    eprintln!(
        "class of 60: lowest copy against its source {:.3} ({}), highest pair of different sources {:.3} ({})",
        lowest_copy.0, lowest_copy.1, highest_apart.0, highest_apart.1
    );
    if highest_apart.0 > INDEPENDENT {
        failures.push(format!(
            "{}: {:.3} > {INDEPENDENT}",
            highest_apart.1, highest_apart.0
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
