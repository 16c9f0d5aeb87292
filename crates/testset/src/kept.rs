//! A drawn test set kept on disk beside its seed, so that a seed's test set is drawn once.
//!
//! Drawing a test set costs about half a second of CPU (most of it the select_hand balance),
//! which a course pays on every `crib grade` run under its seed. [`TestSet::kept`] keeps the
//! set in a file of the seed's directory, `<seed id>.testset.json` (readable by its owner
//! only: it holds every expected answer), and reads it back on later runs.
//!
//! The file is only ever a copy of what [`TestSet::new`] draws, never a second source:
//! - it is read only by the very build of the program that wrote it (`build_key`: the
//!   running executable's size and modification time, and the test-set design's version), so
//!   a change to the draw or to crib-core's rules can never meet an old file;
//! - its fingerprint is computed again from what was read and must equal the one written;
//! - every expected answer is crib-core's again: each item's value is checked against it and
//!   each deal's keeps are valued anew as the file is read;
//! - anything else (no file, another build, a damaged file) draws the set again and writes it.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use crib_core::{rank_keeps, Card, PreparedHand, Rule};
use crib_results::TestSource;
use serde::{Deserialize, Serialize};

use crate::draw::{self, TestCase, TestSet, DESIGN};
use crate::patterns::PatternItem;
use crate::seed::Seed;

/// What the file holds.
#[derive(Serialize, Deserialize)]
struct KeptSet {
    /// [`build_key`] of the program that wrote it.
    build: String,
    seed_id: String,
    fingerprint: String,
    cases: Vec<KeptCase>,
    /// Each hand_value item: pattern, the five cards' indices, weight, expected value.
    items: Vec<(u32, [u8; 5], f64, u8)>,
}

/// One select_hand case, without its keeps (crib-core values them again).
#[derive(Serialize, Deserialize)]
struct KeptCase {
    id: String,
    source: TestSource,
    cards: Vec<u8>,
}

/// How a kept set ([`TestSet::kept`], or a course part, [`crate::Course::kept`]) was had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// Read from the seed's file.
    Read,
    /// Drawn now and written to the seed's file.
    Drawn,
    /// Drawn now; the file could not be written (the reason is not kept: the set is the same).
    DrawnNotWritten,
}

impl TestSet {
    /// Returns the test set of `seed`, the same as [`TestSet::new`], read from `dir` when this
    /// build of the program drew it there before, else drawn and written there (see the
    /// module's documentation), with how it was had. `dir` is created if need be; it should be
    /// as private as the seed (crib-grade keeps it beside the seeds of a results directory).
    pub fn kept(seed: &Seed, dir: &Path) -> (TestSet, Kept) {
        let path = kept_path(seed, dir);
        let build = build_key();
        if let Some(set) = build.as_deref().and_then(|b| read(&path, seed, b)) {
            return (set, Kept::Read);
        }
        let set = TestSet::new(seed);
        let written = build.is_some_and(|b| write(&path, &set, &b).is_ok());
        let how = if written {
            Kept::Drawn
        } else {
            Kept::DrawnNotWritten
        };
        (set, how)
    }
}

/// Returns the file that keeps `seed`'s test set in `dir`.
pub fn kept_path(seed: &Seed, dir: &Path) -> PathBuf {
    dir.join(format!("{}.testset.json", seed.id()))
}

/// Returns what names this build of the program: the test-set design's version and the
/// running executable's size and modification time (`None` when it cannot be known: then
/// nothing is kept).
pub(crate) fn build_key() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{DESIGN} {} {} {}.{:09}",
        exe.display(),
        meta.len(),
        modified.as_secs(),
        modified.subsec_nanos()
    ))
}

fn read(path: &Path, seed: &Seed, build: &str) -> Option<TestSet> {
    let text = std::fs::read(path).ok()?;
    let kept: KeptSet = serde_json::from_slice(&text).ok()?;
    if kept.build != build || kept.seed_id != seed.id() {
        return None;
    }
    let card = |i: u8| Card::from_index(i);
    let mut cases = Vec::with_capacity(kept.cases.len());
    for case in kept.cases {
        let cards: Vec<Card> = case.cards.iter().map(|&i| card(i)).collect::<Option<_>>()?;
        cases.push(TestCase {
            id: case.id,
            source: case.source,
            keeps: rank_keeps(&cards).ok()?,
            cards,
        });
    }
    let mut hand_value = Vec::with_capacity(kept.items.len());
    for (pattern, cards, weight, expected) in kept.items {
        let cards = [
            card(cards[0])?,
            card(cards[1])?,
            card(cards[2])?,
            card(cards[3])?,
            card(cards[4])?,
        ];
        let hand = [cards[0], cards[1], cards[2], cards[3]];
        if PreparedHand::from_cards(hand).value(cards[4], Rule::Hand) != expected {
            return None;
        }
        hand_value.push(PatternItem {
            pattern,
            cards,
            weight,
            expected,
        });
    }
    if draw::fingerprint(&cases, &hand_value, seed) != kept.fingerprint {
        return None;
    }
    Some(TestSet {
        seed_id: kept.seed_id,
        fingerprint: kept.fingerprint,
        cases,
        hand_value,
    })
}

fn write(path: &Path, set: &TestSet, build: &str) -> std::io::Result<()> {
    let index = |cards: &[Card]| cards.iter().map(|c| c.index()).collect::<Vec<u8>>();
    let kept = KeptSet {
        build: build.to_owned(),
        seed_id: set.seed_id.clone(),
        fingerprint: set.fingerprint.clone(),
        cases: set
            .cases
            .iter()
            .map(|case| KeptCase {
                id: case.id.clone(),
                source: case.source,
                cards: index(&case.cards),
            })
            .collect(),
        items: set
            .hand_value
            .iter()
            .map(|item| {
                let c = item.cards.map(|c| c.index());
                (item.pattern, c, item.weight, item.expected)
            })
            .collect(),
    };
    let text = serde_json::to_vec(&kept).map_err(std::io::Error::other)?;
    write_private(path, &text)
}

/// Writes `bytes` to `path` (mode 0600: what is kept holds expected answers or is keyed by
/// the secret seed), its directory made if need be: aside and renamed, so that a reader
/// never sees half a file.
pub(crate) fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)?;
    file.write_all(bytes)?;
    drop(file);
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
pub(crate) mod tests;
