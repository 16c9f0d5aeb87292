//! Ranking pairs through an inverted index: only submissions that share a fingerprint are
//! ever put side by side, so a class is not compared pair by pair.

use crate::hash::{FastMap as HashMap, FastSet as HashSet};

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

/// The name crib's own reference solution is compared under: [`reference()`].
pub const REFERENCE: &str = "crib:prolog/cribbage.pl";

/// Returns crib's own reference solution, `prolog/cribbage.pl`, as a known source named
/// [`REFERENCE`]. It is public and written for students to read; submitted as it is, it
/// passes every test, so every submission is compared with it unless told otherwise
/// ([`Options::reference`]).
pub fn reference() -> Source {
    Source {
        name: REFERENCE.to_string(),
        files: vec![(
            "cribbage.pl".to_string(),
            include_str!("../../../prolog/cribbage.pl").to_string(),
        )],
    }
}

/// How sources are compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// The winnowing parameters.
    pub winnowing: Winnowing,
    /// A fingerprint found in more than `max(MIN_COMMON, ceil(max_share × submissions))`
    /// submissions is common: what everyone writes, left out of matches and sizes alike
    /// (unless the submissions holding it are copies of one source: [`Common::copied`]).
    pub max_share: f64,
    /// Whether crib's own reference ([`reference()`]) is a known source.
    pub reference: bool,
}

/// A fingerprint in at most this many submissions is never common.
const MIN_COMMON: usize = 10;

impl Default for Options {
    /// `max_share` 0.1: with [`MIN_COMMON`], as MOSS's `-m 10` for a class of up to 100, a
    /// tenth of a bigger class (fifty of 500): a fingerprint in more submissions than that is
    /// the assignment's idiom, not a copy. crib's reference is a known source.
    fn default() -> Options {
        Options {
            winnowing: Winnowing::default(),
            max_share: 0.1,
            reference: true,
        }
    }
}

/// What a comparison found: the pairs, and what a person must know to read them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparison {
    /// Every pair that shares a fingerprint that is not common, in [`Pair::rank`]'s order:
    /// the larger share first, then the similarity.
    pub pairs: Vec<Pair>,
    /// The class-common cut.
    pub common: Common,
    /// Files that gave no evidence: no tokens, or not Prolog.
    pub unread: Vec<Unread>,
}

/// The class-common cut: fingerprints in more than `limit` submissions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Common {
    /// A fingerprint in more than this many submissions is common.
    pub limit: usize,
    /// Distinct fingerprints left out as common.
    pub cut: usize,
    /// Submissions most of whose fingerprints (more than half) are in more than `limit`
    /// submissions: copies of one source, when the class is not mostly copies. Their code
    /// is not cut unless it is also in more than `limit` of the other submissions, so each
    /// copy still matches the others.
    pub copied: Vec<String>,
    /// Whether more than half the class is mostly common code, so nothing could be told
    /// apart as copies: given code not passed as base, or one source copied by most.
    pub mostly_common: bool,
}

/// A file that gave no evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    /// Its submission or known source.
    pub source: String,
    /// The file, relative to it.
    pub file: String,
    /// Why: no Prolog tokens, or not read as Prolog.
    pub problem: &'static str,
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

/// Two sources that share code. Both shares are kept beside the similarity because copying
/// is often one-sided: a third of a solution copied into one's own is a third of the source
/// found in the copy (`share_b`) with a similarity well below it. A pair is reported by the
/// larger of the two ([`Pair::reported`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    /// A submission.
    pub a: String,
    /// Another submission, or a known source.
    pub b: String,
    /// 2 |A ∩ B| / (|A| + |B|) over the two sources' fingerprints, given code and the
    /// class's common code left out of both the match and the sizes, in [0, 1].
    pub similarity: f64,
    /// The share of `a`'s fingerprints found in `b`.
    pub share_a: f64,
    /// The share of `b`'s fingerprints found in `a`.
    pub share_b: f64,
    /// Whether `b` is a known source (`--against`, or crib's reference).
    pub known: bool,
    /// Whether `b` is crib's own reference solution ([`REFERENCE`]).
    pub reference: bool,
    /// The matched lines, in `a`'s order.
    pub fragments: Vec<Fragment>,
}

impl Pair {
    /// The larger of [`share_a`](Pair::share_a) and [`share_b`](Pair::share_b), in [0, 1];
    /// never below [`similarity`](Pair::similarity), which lies between the two shares.
    pub fn larger_share(&self) -> f64 {
        self.share_a.max(self.share_b)
    }

    /// Whether a marker must read the pair at `threshold`: at least `threshold` of either
    /// source's fingerprints are found in the other, whatever the similarity (0 reports
    /// every pair that shares code).
    pub fn reported(&self, threshold: f64) -> bool {
        self.larger_share() >= threshold
    }

    /// The order pairs are ranked in, the ones a marker must read first: the larger share
    /// (descending), then the similarity (descending), then the names.
    pub fn rank(x: &Pair, y: &Pair) -> std::cmp::Ordering {
        y.larger_share()
            .total_cmp(&x.larger_share())
            .then_with(|| y.similarity.total_cmp(&x.similarity))
            .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Submission,
    /// A known source given by the user: what it shares with many is never common.
    Known,
    /// crib's reference: a known source whose idioms are common like anyone's.
    Reference,
}

struct Doc<'a> {
    source: &'a Source,
    role: Role,
    fps: Vec<Fingerprint>,
    /// Distinct kept hashes.
    set: HashSet<u64>,
}

impl Doc<'_> {
    fn known(&self) -> bool {
        self.role != Role::Submission
    }
}

/// Compares every submission with every other and with every known source (`against`,
/// and crib's reference unless [`Options::reference`] is false), never two known sources
/// with each other; code in `base` (given to every student) is removed first, and the
/// class's common code ([`Options::max_share`]) is left out of matches and sizes alike.
/// Returns the pairs that share anything, ranked by [`Pair::rank`] (the larger share first),
/// with what was cut and which files gave nothing.
pub fn compare(
    submissions: &[Source],
    against: &[Source],
    base: &[Source],
    options: &Options,
) -> Comparison {
    let w = options.winnowing;
    let base_hashes: HashSet<u64> = base
        .par_iter()
        .flat_map_iter(|s| fingerprints(&s.files, w).kept.into_iter().map(|f| f.hash))
        .collect();
    let reference = options.reference.then(reference);
    let sources: Vec<(&Source, Role)> = submissions
        .iter()
        .map(|s| (s, Role::Submission))
        .chain(against.iter().map(|s| (s, Role::Known)))
        .chain(reference.iter().map(|s| (s, Role::Reference)))
        .collect();
    let (mut docs, unread): (Vec<Doc>, Vec<Vec<Unread>>) = sources
        .par_iter()
        .map(|&(source, role)| {
            let found = fingerprints(&source.files, w);
            let unread = found
                .files
                .iter()
                .zip(&source.files)
                .filter_map(|(reading, (file, _))| {
                    reading.problem().map(|problem| Unread {
                        source: source.name.clone(),
                        file: file.clone(),
                        problem,
                    })
                })
                .collect();
            let fps: Vec<Fingerprint> = found
                .kept
                .into_iter()
                .filter(|f| !base_hashes.contains(&f.hash))
                .collect();
            let set: HashSet<u64> = fps.iter().map(|f| f.hash).collect();
            (
                Doc {
                    source,
                    role,
                    fps,
                    set,
                },
                unread,
            )
        })
        .unzip();
    // The inverted index, and what the class has in common.
    let postings: usize = docs.iter().map(|d| d.set.len()).sum();
    let mut index: HashMap<u64, Vec<u32>> =
        HashMap::with_capacity_and_hasher(postings / 4, Default::default());
    for (i, doc) in docs.iter().enumerate() {
        for &h in &doc.set {
            index.entry(h).or_default().push(i as u32);
        }
    }
    let common = common_cut(&docs, &index, submissions.len(), options);
    let cut = &common.1;
    for doc in &mut docs {
        doc.set.retain(|h| !cut.contains(h));
        doc.fps.retain(|f| !cut.contains(&f.hash));
    }
    let mut shared: HashMap<(u32, u32), u32> = HashMap::default();
    for (h, ds) in &index {
        if cut.contains(h) {
            continue;
        }
        for (x, &i) in ds.iter().enumerate() {
            for &j in &ds[x + 1..] {
                if docs[i as usize].known() && docs[j as usize].known() {
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
            let (i, j) = if docs[i as usize].known() {
                (j, i)
            } else {
                (i, j)
            };
            pair(&docs[i as usize], &docs[j as usize], n)
        })
        .collect();
    pairs.sort_by(Pair::rank);
    Comparison {
        pairs,
        common: common.0,
        unread: unread.into_iter().flatten().collect(),
    }
}

/// The class-common cut and the fingerprints it removes. A fingerprint is common when it
/// is in more than the limit of submissions; but when some submissions are mostly such
/// code (copies of one source) and they are at most half the class, only what is also in
/// more than the limit of the other submissions is common. A user's known source is never
/// common: it is what staff asked to find.
fn common_cut(
    docs: &[Doc],
    index: &HashMap<u64, Vec<u32>>,
    class: usize,
    options: &Options,
) -> (Common, HashSet<u64>) {
    let limit = ((options.max_share * class as f64).ceil() as usize).max(MIN_COMMON);
    let in_submissions = |ds: &[u32], counted: &dyn Fn(usize) -> bool| {
        ds.iter()
            .filter(|&&d| docs[d as usize].role == Role::Submission && counted(d as usize))
            .count()
    };
    let asked = |ds: &[u32]| ds.iter().any(|&d| docs[d as usize].role == Role::Known);
    let mut cut: HashSet<u64> = index
        .iter()
        .filter(|(_, ds)| !asked(ds) && in_submissions(ds, &|_| true) > limit)
        .map(|(&h, _)| h)
        .collect();
    let copied: Vec<usize> = docs
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            d.role == Role::Submission
                && 2 * d.set.iter().filter(|h| cut.contains(h)).count() > d.set.len()
        })
        .map(|(i, _)| i)
        .collect();
    let mostly_common = 2 * copied.len() > class;
    if !copied.is_empty() && !mostly_common {
        let is_copy: HashSet<usize> = copied.iter().copied().collect();
        cut.retain(|h| in_submissions(&index[h], &|d| !is_copy.contains(&d)) > limit);
    }
    let common = Common {
        limit,
        cut: cut.len(),
        copied: if mostly_common {
            Vec::new()
        } else {
            copied
                .iter()
                .map(|&i| docs[i].source.name.clone())
                .collect()
        },
        mostly_common,
    };
    (common, cut)
}

fn pair(a: &Doc, b: &Doc, shared: u32) -> Pair {
    // Over what is left of each file once given and common code are cut: common code is
    // neither a match nor part of what could have matched.
    let (na, nb) = (a.set.len().max(1) as f64, b.set.len().max(1) as f64);
    let shared = f64::from(shared);
    Pair {
        a: a.source.name.clone(),
        b: b.source.name.clone(),
        similarity: (2.0 * shared / (na + nb)).min(1.0),
        share_a: (shared / na).min(1.0),
        share_b: (shared / nb).min(1.0),
        known: b.known(),
        reference: b.role == Role::Reference,
        fragments: fragments(a, b),
    }
}

/// The matched fingerprints, in `a`'s order, merged into runs of lines that are contiguous
/// in both files.
fn fragments(a: &Doc, b: &Doc) -> Vec<Fragment> {
    let mut first_in_b: HashMap<u64, &Fingerprint> = HashMap::default();
    for f in &b.fps {
        first_in_b.entry(f.hash).or_insert(f);
    }
    let mut matches: Vec<(&Fingerprint, &Fingerprint)> = a
        .fps
        .iter()
        .filter_map(|f| first_in_b.get(&f.hash).map(|g| (f, *g)))
        .collect();
    matches.sort_by_key(|(f, g)| (f.file, f.lines, g.file, g.lines));
    // Runs of (a's file, a's lines, b's file, b's lines).
    let mut out = Vec::new();
    let near = |run: (u32, u32), lines: (u32, u32)| lines.0 <= run.1 + 2 && lines.1 + 2 >= run.0;
    let join =
        |run: &mut (u32, u32), lines: (u32, u32)| *run = (run.0.min(lines.0), run.1.max(lines.1));
    for (f, g) in matches {
        match out.last_mut() {
            Some((fa, la, fb, lb))
                if (*fa, *fb) == (f.file, g.file) && near(*la, f.lines) && near(*lb, g.lines) =>
            {
                join(la, f.lines);
                join(lb, g.lines);
            }
            _ => out.push((f.file, f.lines, g.file, g.lines)),
        }
    }
    out.into_iter()
        .map(|(fa, la, fb, lb)| Fragment {
            a_file: a.source.files[fa as usize].0.clone(),
            a_lines: [la.0, la.1],
            b_file: b.source.files[fb as usize].0.clone(),
            b_lines: [lb.0, lb.1],
        })
        .collect()
}
