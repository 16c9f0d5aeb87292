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
//! Partial copies (issue 42): a third, a half and two thirds of one solution mixed into
//! another written in the student's own style ([`partial`]) are each reported at the default
//! threshold by the share of their source ([`Pair::reported`]), though many have a
//! similarity under 0.5; no pair of independent solutions is.
//!
//! Then one source copied by many: a class of 60 in which alpha.pl and 29 disguised copies
//! of it are half the class, with ten each of beta, gamma and tally (original and nine
//! copies). The copies' code is in more submissions than the class-common cut allows, so it
//! must be recognised as a source copied by many rather than cut as what everyone writes.

use std::collections::{BTreeMap, BTreeSet};

use crib_core::Dealer;
use crib_similar::fingerprint::fingerprints;
use crib_similar::token::{clauses, tokenize, Kind};
use crib_similar::{compare, Comparison, Options, Pair, Source, Winnowing};

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
fn rename_variables(text: &str, rng: &mut Dealer) -> String {
    let salt = rng.next_u64() % 1000;
    rewrite(text, |w, _| {
        (w.starts_with(|c: char| c.is_uppercase()) || (w.starts_with('_') && w.len() > 1))
            .then(|| format!("Q{salt}{}", w.chars().rev().collect::<String>()))
    })
}

/// Every predicate but hand_value/3 and select_hand/3 renamed, wherever it is called or
/// defined, and as a closure passed with fewer arguments (maplist(pip, ...)); never a data
/// term with more arguments than any definition of its name (`card(R, S)` in a file that
/// defines card/1).
fn rename_predicates(text: &str, rng: &mut Dealer) -> String {
    let own = defined(text);
    let salt = rng.next_u64() % 1000;
    rewrite(text, |w, arity| {
        let called = own.iter().any(|(n, a)| n == w && *a >= arity);
        let entry = w == "hand_value" || w == "select_hand";
        (called && !entry).then(|| format!("z{salt}_{}", w.chars().rev().collect::<String>()))
    })
}

/// Each predicate's clauses kept together, the predicates shuffled.
fn reorder(text: &str, rng: &mut Dealer) -> String {
    let mut groups = predicate_groups(text);
    // Reversed first so that no seed leaves the order as it was.
    groups.reverse();
    rng.shuffle(&mut groups);
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
fn disguise(original: &str, changes: &[&str], rng: &mut Dealer) -> String {
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

/// Returns the independent solutions (name, text), the class of them as sources, and the
/// pairs that class alone gives.
fn independent_class() -> (Vec<(&'static str, String)>, Vec<Source>, Vec<Pair>) {
    let originals = independents();
    let class: Vec<Source> = originals
        .iter()
        .map(|(n, t)| source(n, t.clone()))
        .collect();
    let alone = pairs(&class);
    (originals, class, alone)
}

#[test]
fn the_disguise_table() {
    let (originals, class, alone) = independent_class();
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
    let mut rng = Dealer::new(29);
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
    let mut rng = Dealer::new(60);
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
                .filter(|_| i == 0 || rng.next_u64().is_multiple_of(2))
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

/// The size of `text` as code that can match: how many fingerprints it has on its own.
fn size(text: &str) -> usize {
    let found = fingerprints(
        &[("a.pl".to_string(), text.to_string())],
        Winnowing::default(),
    );
    found
        .kept
        .iter()
        .map(|f| f.hash)
        .collect::<BTreeSet<u64>>()
        .len()
}

/// A partial copy: of `copied`'s predicates (hand_value/3 and select_hand/3 aside), the
/// first from the `offset`-th on (in the order they first appear, wrapping round), each with
/// every predicate of `copied` it calls (one whose callees would take the copy well past
/// `part` skipped), until they hold `part` of `copied`'s fingerprints ([`size`]); with
/// `own`'s predicates from its start until they hold the rest (`1 - part`) of its tokens, or
/// all of them with `keep_own`, those the copied part also defines left out. The whole is
/// disguised: comments rewritten, predicates and variables renamed, predicates reordered.
/// Returns the copy and the share of `copied`'s tokens in it.
fn partial(
    copied: &str,
    own: &str,
    part: f64,
    offset: usize,
    keep_own: bool,
    rng: &mut Dealer,
) -> (String, f64) {
    let groups = predicate_groups(&variant(copied, &[]));
    let total: usize = groups.iter().map(|(_, cs)| size(&cs.concat())).sum();
    let entry = |n: &str| n == "hand_value" || n == "select_hand";
    let calls = |text: &str| -> BTreeSet<usize> {
        let words: BTreeSet<String> = tokenize(text)
            .into_iter()
            .filter(|t| t.kind == Kind::Atom)
            .map(|t| t.text)
            .collect();
        groups
            .iter()
            .enumerate()
            .filter(|(_, (n, _))| words.contains(n) && !entry(n))
            .map(|(i, _)| i)
            .collect()
    };
    let mut taken: BTreeSet<usize> = BTreeSet::new();
    let mut k = 0;
    let got = |taken: &BTreeSet<usize>| {
        taken
            .iter()
            .map(|&i| size(&groups[i].1.concat()))
            .sum::<usize>()
    };
    while (got(&taken) as f64) < part * total as f64 && k < groups.len() {
        let root = (offset + k) % groups.len();
        k += 1;
        if entry(&groups[root].0) || taken.contains(&root) {
            continue;
        }
        let mut with_root = taken.clone();
        let mut todo = vec![root];
        while let Some(i) = todo.pop() {
            if with_root.insert(i) {
                todo.extend(calls(&groups[i].1.concat()));
            }
        }
        // A predicate whose callees would take the copy well past `part` is left to the
        // student's own code.
        if taken.is_empty() || (got(&with_root) as f64) <= (part + 0.05) * total as f64 {
            taken = with_root;
        }
    }
    let names: BTreeSet<&str> = taken.iter().map(|&i| groups[i].0.as_str()).collect();
    let mine = predicate_groups(&variant(own, &[]));
    let mine_total: usize = mine.iter().map(|(_, cs)| size(&cs.concat())).sum();
    let mut kept: Vec<String> = Vec::new();
    let mut own_got = 0usize;
    for (name, cs) in &mine {
        if !keep_own && own_got as f64 >= (1.0 - part) * mine_total as f64 {
            break;
        }
        if names.contains(name.as_str()) {
            continue;
        }
        own_got += size(&cs.concat());
        kept.push(cs.concat());
    }
    let text: String = taken
        .iter()
        .map(|&i| groups[i].1.concat())
        .chain(kept)
        .collect();
    (
        disguise(&text, &["comments", "preds", "vars", "reorder"], rng),
        got(&taken) as f64 / total as f64,
    )
}

/// The shares of a pair: (`x`'s share found in `y`, `y`'s share found in `x`, similarity),
/// zeros when the pair is not listed.
fn shares(pairs: &[Pair], x: &str, y: &str) -> (f64, f64, f64) {
    pairs
        .iter()
        .find_map(|p| {
            if p.a == x && p.b == y {
                Some((p.share_a, p.share_b, p.similarity))
            } else if p.a == y && p.b == x {
                Some((p.share_b, p.share_a, p.similarity))
            } else {
                None
            }
        })
        .unwrap_or((0.0, 0.0, 0.0))
}

/// Partial copies: a third, a half and two thirds of one solution's code (its fingerprints,
/// whole predicates with what they call) mixed into another solution written in the student's
/// own style, in place of as much of that one's code or added to all of it, the whole
/// disguised; each compared in the class of the six independent solutions and itself. Every
/// copy is reported at the default threshold by the share of its source, whatever its
/// similarity; no pair of independent solutions is. Prints the table of every copy's shares
/// (`cargo test -p crib-similar --test similar partial -- --nocapture`).
#[test]
fn partial_copies_are_reported_by_the_share_of_their_source() {
    let threshold = crib_similar::html::DEFAULT_THRESHOLD;
    let (originals, class, alone) = independent_class();
    let mut failures = Vec::new();
    let mut highest = (0.0f64, String::new());
    for (i, (a, _)) in originals.iter().enumerate() {
        for (b, _) in &originals[i + 1..] {
            let (sa, sb, sim) = shares(&alone, a, b);
            if sa.max(sb) > highest.0 {
                highest = (
                    sa.max(sb),
                    format!("{a} / {b}: share_a {sa:.3}, share_b {sb:.3}, similarity {sim:.3}"),
                );
            }
            if sa.max(sb) >= threshold {
                failures.push(format!("independent {a} / {b} reported: {sa:.3} {sb:.3}"));
            }
        }
    }
    eprintln!(
        "highest independent pair by the larger share: {}",
        highest.1
    );
    eprintln!("| copied | into | part | copy share | share_a (copy) | share_b (source) | similarity | reported |");
    eprintln!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut rng = Dealer::new(42);
    let mut lowest = (1.0f64, String::new());
    let mut unrelated = (0.0f64, String::new());
    for keep_own in [false, true] {
        for (copied, own) in [
            ("alpha", "beta"),
            ("beta", "gamma"),
            ("gamma", "alpha"),
            ("alpha", "tally"),
            ("beta", "tally"),
            ("gamma", "tally"),
        ] {
            for (part, label) in [
                (1.0 / 3.0, "a third"),
                (0.5, "a half"),
                (2.0 / 3.0, "two thirds"),
            ] {
                let (text, got) = partial(
                    &independent(copied),
                    &independent(own),
                    part,
                    0,
                    keep_own,
                    &mut rng,
                );
                let mut with_copy = class.clone();
                with_copy.push(source("copy", text));
                let found = pairs(&with_copy);
                let (sa, sb, sim) = shares(&found, "copy", copied);
                let pair = found
                    .iter()
                    .find(|p| p.b == "copy" && p.a == copied || p.a == "copy" && p.b == copied);
                let reported = pair.is_some_and(|p| p.reported(threshold));
                let into = if keep_own {
                    format!("all of {own}")
                } else {
                    format!("{own}, in place")
                };
                eprintln!(
                    "| {copied} | {into} | {label} | {got:.2} | {sa:.3} | {sb:.3} | {sim:.3} | {} |",
                    if reported { "yes" } else { "**no**" }
                );
                if !reported {
                    failures.push(format!(
                        "{label} of {copied} into {into}: {sa:.3} {sb:.3} not reported"
                    ));
                }
                if sa.max(sb) < lowest.0 {
                    lowest = (sa.max(sb), format!("{label} of {copied} into {into}"));
                }
                // The copy against the solutions it took nothing from: reported or not, said.
                for (other, _) in &originals {
                    if *other != copied && *other != own {
                        let (x, y, _) = shares(&found, "copy", other);
                        if x.max(y) > unrelated.0 {
                            unrelated = (
                                x.max(y),
                                format!("{label} of {copied} into {into} / {other}: {x:.3} {y:.3}"),
                            );
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "lowest larger share of a partial copy with its source: {:.3} ({})",
        lowest.0, lowest.1
    );
    eprintln!(
        "highest larger share of a partial copy with a solution it took nothing from: {:.3} ({})",
        unrelated.0, unrelated.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
