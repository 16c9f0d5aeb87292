//! From a submission's files to its fingerprints: tokens normalised so that layout,
//! comments, variable names and the names of the student's own predicates do not matter,
//! k-grams that never cross a clause's end (so the order of clauses and predicates matters
//! little), and winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) to keep a few of
//! them with a guarantee: any run of `k + w - 1` normalised tokens shared by two files
//! shares at least one fingerprint.

use std::collections::HashSet;

use crate::token::{clauses, tokenize, Kind, Token};

/// One kept k-gram: its hash and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    /// The k-gram's hash.
    pub hash: u64,
    /// The file, an index into the submission's files.
    pub file: u16,
    /// The k-gram's first and last lines.
    pub lines: (u32, u32),
}

/// The winnowing parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Winnowing {
    /// Tokens in a k-gram: the noise threshold (a shorter match is never seen).
    pub k: usize,
    /// k-grams in a window: a match of `k + w - 1` tokens or more is always seen.
    pub w: usize,
}

impl Default for Winnowing {
    /// k = 10, w = 5: a Prolog goal such as `member(card(R, S), Hand)` is 10 tokens, so a
    /// k-gram is about one goal (shorter ones, `X is Y + 1`, are common to everyone), and
    /// any copied run of 14 tokens, a clause head and its first goal, is always found.
    fn default() -> Winnowing {
        Winnowing { k: 10, w: 5 }
    }
}

/// Clauses shorter than this many tokens (`a.`, `p(x).`) give no fingerprint.
const MIN_CLAUSE: usize = 5;

/// Returns the fingerprints of a submission's `files` (name, text).
pub fn fingerprints(files: &[(String, String)], params: Winnowing) -> Vec<Fingerprint> {
    let parsed: Vec<Vec<Vec<Token>>> = files
        .iter()
        .map(|(_, text)| clauses(tokenize(text)))
        .collect();
    let own = own_predicates(&parsed);
    let mut out = Vec::new();
    for (file, file_clauses) in parsed.iter().enumerate() {
        for clause in file_clauses {
            if clause.len() < MIN_CLAUSE {
                continue;
            }
            let normal: Vec<(u64, u32)> = clause
                .iter()
                .map(|t| (token_hash(t, &own), t.line))
                .collect();
            winnow(&normal, params, file as u16, &mut out);
        }
    }
    out
}

/// The names the submission defines: the functor of each clause's head.
fn own_predicates(files: &[Vec<Vec<Token>>]) -> HashSet<String> {
    let mut own = HashSet::new();
    for clause in files.iter().flatten() {
        if let Some(first) = clause.first() {
            if first.kind == Kind::Atom && first.text != ":-" && first.text != "?-" {
                own.insert(first.text.clone());
            }
        }
    }
    own
}

/// A normalised token's hash: every variable is `V`, every name of the submission's own
/// predicates `P`, every string `S`; atoms, numbers and punctuation are themselves.
fn token_hash(t: &Token, own: &HashSet<String>) -> u64 {
    match t.kind {
        Kind::Var => fnv(b"\x01V"),
        Kind::Str => fnv(b"\x01S"),
        Kind::Atom if own.contains(&t.text) => fnv(b"\x01P"),
        _ => fnv(t.text.as_bytes()),
    }
}

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Adds the winnowed fingerprints of one clause's normalised tokens (hash, line).
fn winnow(tokens: &[(u64, u32)], p: Winnowing, file: u16, out: &mut Vec<Fingerprint>) {
    let k = p.k.min(tokens.len());
    let grams: Vec<Fingerprint> = tokens
        .windows(k)
        .map(|window| {
            let hash = window.iter().fold(0u64, |h, (t, _)| {
                h.rotate_left(7) ^ t.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            });
            Fingerprint {
                hash,
                file,
                lines: (window[0].1, window[k - 1].1),
            }
        })
        .collect();
    let w = p.w.min(grams.len());
    let mut last: Option<usize> = None;
    for start in 0..=grams.len() - w {
        // The rightmost minimum of the window.
        let mut best = start;
        for i in start..start + w {
            if grams[i].hash <= grams[best].hash {
                best = i;
            }
        }
        if last != Some(best) {
            out.push(grams[best]);
            last = Some(best);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fps(text: &str) -> Vec<u64> {
        let mut h: Vec<u64> = fingerprints(&[("a.pl".into(), text.into())], Winnowing::default())
            .into_iter()
            .map(|f| f.hash)
            .collect();
        h.sort();
        h.dedup();
        h
    }

    #[test]
    fn renaming_and_layout_change_nothing() {
        let a = "score(Hand, Start, Points) :- append(Hand, [Start], All), count15(All, N), Points is 2 * N.";
        let b = "% renamed\nvalue(H,S,P):-\n    append(H,[S],Cards),\n    fifteens(Cards,Count),\n    P is 2*Count.";
        assert!(!fps(a).is_empty());
        // count15 and fifteens are not defined here: they stay names, so they differ.
        let b_same_calls = b.replace("fifteens", "count15");
        assert_eq!(fps(a), fps(&b_same_calls));
        assert_ne!(fps(a), fps(b));
    }
}
