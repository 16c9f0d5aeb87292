//! What the tests share: reading the project's files, rewriting identifiers outside
//! comments and quotes, splitting a file into clauses, and reading a pair's score.

use std::path::{Path, PathBuf};

use crib_similar::token::{clauses, tokenize, Kind};
use crib_similar::Pair;

/// The workspace's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The project's file at `path`, relative to the workspace's root.
pub fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The independently written solution tests/independent/`name`.pl, as written (its blocks
/// of hand-written changes and all).
pub fn independent(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/independent/{name}.pl")),
    )
    .unwrap()
}

/// The number of arguments of the compound starting with the `(` at `chars[i]`, and the index
/// after its `)`. Quoted items and nested brackets are skipped.
pub fn arguments(chars: &[char], i: usize) -> (usize, usize) {
    let (mut depth, mut commas, mut j) = (0i32, 0usize, i);
    while j < chars.len() {
        match chars[j] {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return (commas + 1, j + 1);
                }
            }
            ',' if depth == 1 => commas += 1,
            q @ ('\'' | '"') => {
                j += 1;
                while j < chars.len() && chars[j] != q {
                    j += 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    (commas + 1, j)
}

/// Rewrites identifiers outside comments and quotes: `f(word, arity)` (arity 0 for a word
/// not followed by `(`) gives the new name, if any.
pub fn rewrite(text: &str, f: impl Fn(&str, usize) -> Option<String>) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '%' {
            while i < chars.len() && chars[i] != '\n' {
                out.push(chars[i]);
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut j = i + 2;
            while j < chars.len() && !(chars[j] == '*' && chars.get(j + 1) == Some(&'/')) {
                j += 1;
            }
            out.extend(&chars[i..(j + 2).min(chars.len())]);
            i = j + 2;
        } else if c == '\'' || c == '"' || (c == '0' && chars.get(i + 1) == Some(&'\'')) {
            let start = i;
            if c == '0' {
                i += 3;
            } else {
                i += 1;
                while i < chars.len() && chars[i] != c {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            }
            out.extend(&chars[start..i.min(chars.len())]);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let arity = if chars.get(i) == Some(&'(') {
                arguments(&chars, i).0
            } else {
                0
            };
            out.push_str(&f(&word, arity).unwrap_or(word));
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The clauses of `text`, each with the comments and blank lines before it.
pub fn chunks(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let ends: Vec<u32> = tokenize(text)
        .iter()
        .filter(|t| t.kind == Kind::End)
        .map(|t| t.line)
        .collect();
    let mut out = Vec::new();
    let mut from = 0usize;
    for end in ends {
        let end = end as usize;
        if end > from {
            out.push(lines[from..end].join("\n") + "\n");
            from = end;
        }
    }
    out
}

/// `text`'s clauses (each with the comments and blank lines before it) grouped by the
/// predicate they define, in the order the predicates first appear.
pub fn predicate_groups(text: &str) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for chunk in chunks(text) {
        let head = clauses(tokenize(&chunk))
            .first()
            .and_then(|c| c.first().map(|t| t.text.clone()))
            .unwrap_or_default();
        match groups.iter_mut().find(|(h, _)| *h == head) {
            Some((_, cs)) => cs.push(chunk),
            None => groups.push((head, vec![chunk])),
        }
    }
    groups
}

/// The similarity of the pair of `a` and `b` (either way round), 0 when it is not listed.
pub fn score(pairs: &[Pair], a: &str, b: &str) -> f64 {
    pairs
        .iter()
        .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
        .map_or(0.0, |p| p.similarity)
}
