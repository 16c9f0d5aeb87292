//! Ranking pairs through an inverted index: only submissions that share a fingerprint are
//! ever put side by side, so a class is not compared pair by pair.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde::Serialize;

use crate::fingerprint::{fingerprints, Fingerprint, Winnowing};

/// A submission, or a known source, as files of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Its name.
    pub name: String,
    /// Its files: (name relative to the submission, text).
    pub files: Vec<(String, String)>,
}

/// How sources are compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// The winnowing parameters.
    pub winnowing: Winnowing,
    /// A fingerprint found in more than this share of the class's submissions (and in more
    /// than [`Options::min_common`] of them) is ignored: it is what everyone writes.
    pub max_share: f64,
    /// The fewest submissions a fingerprint must be in before it can be ignored as common.
    pub min_common: usize,
}

impl Default for Options {
    /// `max_share` 0.1 and `min_common` 10: as MOSS's `-m 10` for a class of up to 100, a
    /// tenth of a bigger class (fifty of 500): a fingerprint in more submissions than that is
    /// the assignment's idiom, not a copy.
    fn default() -> Options {
        Options {
            winnowing: Winnowing::default(),
            max_share: 0.1,
            min_common: 10,
        }
    }
}

/// Lines matched in both files of a pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fragment {
    /// The file of `a`.
    pub a_file: String,
    /// First and last line in `a`'s file.
    pub a_lines: [u32; 2],
    /// The file of `b`.
    pub b_file: String,
    /// First and last line in `b`'s file.
    pub b_lines: [u32; 2],
}

/// Two sources that share code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    /// A submission.
    pub a: String,
    /// Another submission, or a known source.
    pub b: String,
    /// 2 |A ∩ B| / (|A| + |B|): fingerprints shared (other than the class's common ones)
    /// over all of the two files' fingerprints (given code left out), in [0, 1].
    pub similarity: f64,
    /// The share of `a`'s fingerprints found in `b`.
    pub share_a: f64,
    /// The share of `b`'s fingerprints found in `a`.
    pub share_b: f64,
    /// The matched lines, in `a`'s order.
    pub fragments: Vec<Fragment>,
}

struct Doc<'a> {
    source: &'a Source,
    known: bool,
    fps: Vec<Fingerprint>,
    /// Distinct kept hashes.
    set: HashSet<u64>,
    /// Distinct hashes before the class-common ones were cut: the file's size.
    total: usize,
}

/// Compares every submission with every other and with every known source (`against`),
/// never two known sources with each other; code in `base` (given to every student) is
/// removed first. Returns the pairs that share anything, most similar first.
pub fn compare(
    submissions: &[Source],
    against: &[Source],
    base: &[Source],
    options: &Options,
) -> Vec<Pair> {
    let w = options.winnowing;
    let base_hashes: HashSet<u64> = base
        .par_iter()
        .flat_map_iter(|s| fingerprints(&s.files, w).kept.into_iter().map(|f| f.hash))
        .collect();
    let sources: Vec<(&Source, bool)> = submissions
        .iter()
        .map(|s| (s, false))
        .chain(against.iter().map(|s| (s, true)))
        .collect();
    let mut docs: Vec<Doc> = sources
        .par_iter()
        .map(|&(source, known)| {
            let fps: Vec<Fingerprint> = fingerprints(&source.files, w)
                .kept
                .into_iter()
                .filter(|f| !base_hashes.contains(&f.hash))
                .collect();
            let set: HashSet<u64> = fps.iter().map(|f| f.hash).collect();
            let total = set.len();
            Doc {
                source,
                known,
                fps,
                set,
                total,
            }
        })
        .collect();
    // The inverted index, and what the class has in common.
    let mut index: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, doc) in docs.iter().enumerate() {
        for &h in &doc.set {
            index.entry(h).or_default().push(i as u32);
        }
    }
    let class = submissions.len();
    let limit = ((options.max_share * class as f64).ceil() as usize).max(options.min_common);
    let common: HashSet<u64> = index
        .iter()
        .filter(|(_, ds)| ds.iter().filter(|&&d| !docs[d as usize].known).count() > limit)
        .map(|(&h, _)| h)
        .collect();
    for doc in &mut docs {
        doc.set.retain(|h| !common.contains(h));
        doc.fps.retain(|f| !common.contains(&f.hash));
    }
    let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
    for (h, ds) in &index {
        if common.contains(h) {
            continue;
        }
        for (x, &i) in ds.iter().enumerate() {
            for &j in &ds[x + 1..] {
                if docs[i as usize].known && docs[j as usize].known {
                    continue;
                }
                *shared.entry((i.min(j), i.max(j))).or_default() += 1;
            }
        }
    }
    let mut pairs: Vec<Pair> = shared
        .into_par_iter()
        .map(|((i, j), n)| {
            // A submission is always `a`; a known source, when there is one, `b`.
            let (i, j) = if docs[i as usize].known {
                (j, i)
            } else {
                (i, j)
            };
            pair(&docs[i as usize], &docs[j as usize], n)
        })
        .collect();
    pairs.sort_by(|x, y| {
        y.similarity
            .total_cmp(&x.similarity)
            .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
    });
    pairs
}

fn pair(a: &Doc, b: &Doc, shared: u32) -> Pair {
    // Over the whole file: code the class has in common is not a match, but it is still
    // part of the file.
    let (na, nb) = (a.total.max(1) as f64, b.total.max(1) as f64);
    let shared = f64::from(shared);
    Pair {
        a: a.source.name.clone(),
        b: b.source.name.clone(),
        similarity: (2.0 * shared / (na + nb)).min(1.0),
        share_a: (shared / na).min(1.0),
        share_b: (shared / nb).min(1.0),
        fragments: fragments(a, b),
    }
}

/// The matched fingerprints, in `a`'s order, merged into runs of lines that are contiguous
/// in both files.
fn fragments(a: &Doc, b: &Doc) -> Vec<Fragment> {
    let mut first_in_b: HashMap<u64, &Fingerprint> = HashMap::new();
    for f in &b.fps {
        first_in_b.entry(f.hash).or_insert(f);
    }
    let mut matches: Vec<(&Fingerprint, &Fingerprint)> = a
        .fps
        .iter()
        .filter_map(|f| first_in_b.get(&f.hash).map(|g| (f, *g)))
        .collect();
    matches.sort_by_key(|(f, g)| (f.file, f.lines, g.file, g.lines));
    let mut out: Vec<(u16, [u32; 2], u16, [u32; 2])> = Vec::new();
    for (f, g) in matches {
        if let Some(last) = out.last_mut() {
            let near = |range: [u32; 2], lines: (u32, u32)| {
                lines.0 <= range[1] + 2 && lines.1 + 2 >= range[0]
            };
            if last.0 == f.file
                && last.2 == g.file
                && near(last.1, f.lines)
                && near(last.3, g.lines)
            {
                last.1 = [last.1[0].min(f.lines.0), last.1[1].max(f.lines.1)];
                last.3 = [last.3[0].min(g.lines.0), last.3[1].max(g.lines.1)];
                continue;
            }
        }
        out.push((
            f.file,
            [f.lines.0, f.lines.1],
            g.file,
            [g.lines.0, g.lines.1],
        ));
    }
    out.into_iter()
        .map(|(fa, la, fb, lb)| Fragment {
            a_file: a.source.files[fa as usize].0.clone(),
            a_lines: la,
            b_file: b.source.files[fb as usize].0.clone(),
            b_lines: lb,
        })
        .collect()
}
