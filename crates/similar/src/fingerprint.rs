//! From a submission's files to its fingerprints: tokens normalised so that layout,
//! comments, variable names and the names of the student's own predicates do not matter,
//! where a name is the student's predicate only where it is defined or called (by name and
//! arity, in a head, a goal, or a goal or closure inside a control construct or a library
//! meta-predicate: `calls.rs`), never inside data, so that `card(R, S)` stays
//! `card(R, S)` in a file that also defines a predicate card/1; a variable is `V` and, within
//! a k-gram, how far back it was last seen, so that renaming changes nothing but the flow
//! of data between goals still counts; then k-grams that never cross a clause's end (so the order of clauses and predicates matters
//! little), and winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) to keep a few of
//! them with a guarantee: any run of `k + w - 1` normalised tokens shared by two files
//! shares at least one fingerprint.

use crate::calls::{self, Named};
use crate::hash::{fnv, FastMap, FastSet};
use crate::term::read;
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
    /// k = 12, w = 5: a Prolog goal such as `member(card(R, S), Hand)` is 10 tokens, so a
    /// k-gram is about a goal and the start of the next (shorter runs, `X is Y + 1`, are
    /// common to everyone), and any copied run of 16 tokens, a clause head and its first
    /// goal, is always found. Measured on tests/similar/disguise_corpus.rs: k = 10 let two
    /// independently written solutions reach 0.30, k = 12 keeps them at about 0.26 or
    /// below while every disguised copy stays above 0.8.
    fn default() -> Winnowing {
        Winnowing { k: 12, w: 5 }
    }
}

/// Clauses shorter than this many tokens (`a.`, `p(x).`) give no fingerprint.
const MIN_CLAUSE: usize = 5;

/// How one file read: enough to say on stderr that it gave nothing or is not Prolog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reading {
    /// Its tokens (comments and layout are none).
    pub tokens: usize,
    /// Its clauses.
    pub clauses: usize,
    /// Its clauses that do not read as a Prolog term (with SWI-Prolog's default operators).
    pub unread: usize,
}

impl Reading {
    /// Returns why the file gives no evidence worth having, if it does not: no tokens at
    /// all, or more than half its clauses not Prolog (another language, or not code).
    pub fn problem(&self) -> Option<&'static str> {
        if self.tokens == 0 {
            Some("no Prolog tokens (empty, or only comments)")
        } else if 2 * self.unread > self.clauses {
            Some("does not read as Prolog")
        } else {
            None
        }
    }
}

/// A submission's fingerprints and how each of its files read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fingerprints {
    /// The kept k-grams, file by file.
    pub kept: Vec<Fingerprint>,
    /// How each file read, in the order of the files.
    pub files: Vec<Reading>,
}

/// Returns the fingerprints of a submission's `files` (name, text).
pub fn fingerprints(files: &[(String, String)], params: Winnowing) -> Fingerprints {
    let parsed: Vec<Vec<Vec<Token>>> = files
        .iter()
        .map(|(_, text)| clauses(tokenize(text)))
        .collect();
    let named: Vec<Vec<Option<Vec<Named>>>> = parsed
        .iter()
        .map(|file| {
            file.iter()
                .map(|clause| read(clause).map(|term| calls::named(&term, clause)))
                .collect()
        })
        .collect();
    // The predicates the submission defines, by name and arity.
    let mut own: FastSet<(&str, usize)> = FastSet::default();
    for (file, names) in parsed.iter().zip(&named) {
        for (clause, names) in file.iter().zip(names) {
            for n in names.iter().flatten().filter(|n| n.head) {
                own.insert((clause[n.token].text.as_str(), n.arity));
            }
        }
    }
    let mut out = Fingerprints::default();
    let mut marks: Vec<Option<usize>> = Vec::new();
    let mut last: FastMap<&str, usize> = FastMap::default();
    for (file, (file_clauses, names)) in parsed.iter().zip(&named).enumerate() {
        out.files.push(Reading {
            tokens: file_clauses.iter().map(Vec::len).sum(),
            clauses: file_clauses.len(),
            unread: names.iter().filter(|n| n.is_none()).count(),
        });
        for (clause, names) in file_clauses.iter().zip(names) {
            if clause.len() < MIN_CLAUSE {
                continue;
            }
            marks.clear();
            marks.resize(clause.len(), None);
            for n in names.iter().flatten() {
                if own.contains(&(clause[n.token].text.as_str(), n.arity)) {
                    marks[n.token] = Some(n.arity);
                }
            }
            last.clear();
            let normal: Vec<Normal> = clause
                .iter()
                .zip(&marks)
                .enumerate()
                .map(|(i, (t, mark))| {
                    let back = if t.kind == Kind::Var && t.text != "_" {
                        last.insert(t.text.as_str(), i)
                            .map_or(0, |j| (i - j) as u32)
                    } else {
                        0
                    };
                    Normal {
                        hash: token_hash(t, *mark),
                        line: t.line,
                        back,
                    }
                })
                .collect();
            winnow(&normal, params, file as u16, &mut out.kept);
        }
    }
    out
}

/// A normalised token's hash: every variable is `V`, every string `S`, every name of one of
/// the submission's own predicates where it is defined or called (`own`: its arity) `P`
/// with the arity; atoms (data, and library predicates), numbers and punctuation are
/// themselves.
fn token_hash(t: &Token, own: Option<usize>) -> u64 {
    match (t.kind, own) {
        (Kind::Var, _) => fnv(b"\x01V"),
        (Kind::Str, _) => fnv(b"\x01S"),
        (_, Some(arity)) => fnv(b"\x01P") ^ (arity as u64 + 1).wrapping_mul(0xc2b2_ae3d_27d4_eb4f),
        _ => fnv(t.text.as_bytes()),
    }
}

/// A normalised token.
struct Normal {
    hash: u64,
    line: u32,
    /// For a variable, how many tokens back it was last seen in the clause (0: not before).
    back: u32,
}

/// Adds the winnowed fingerprints of one clause's normalised tokens (hash, line).
fn winnow(tokens: &[Normal], p: Winnowing, file: u16, out: &mut Vec<Fingerprint>) {
    let k = p.k.min(tokens.len());
    let grams: Vec<Fingerprint> = tokens
        .windows(k)
        .map(|window| {
            let hash = window.iter().enumerate().fold(0u64, |h, (j, t)| {
                // A variable seen earlier in the k-gram is told by how far back it was.
                let t = if t.back != 0 && t.back as usize <= j {
                    t.hash ^ u64::from(t.back).wrapping_mul(0xff51_afd7_ed55_8ccd)
                } else {
                    t.hash
                };
                h.rotate_left(7) ^ t.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            });
            Fingerprint {
                hash,
                file,
                lines: (window[0].line, window[k - 1].line),
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
mod tests;
