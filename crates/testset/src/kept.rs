//! The one cache that keeps what is drawn from a seed beside it, so that a seed's costly draw
//! (half a second of CPU, most of it the select_hand balance) is done once: an unsalted seed's
//! whole [`TestSet`] in `<seed id>.testset` ([`crate::Tests::Kept`]), a course seed's
//! [`crate::Course`] in `<seed id>.course` ([`crate::Tests::Salted`]).
//!
//! A kept file is only ever a copy of what is drawn, never a second source. It is written
//! readable by its owner only (it holds expected answers, or is keyed by the secret seed),
//! aside and renamed, and read back only when:
//! - it is this very build's: its key line names what it keeps, the design's version and the
//!   running executable (path, size, modification time), so a change to the draw or to
//!   crib-core's rules can never meet an old file;
//! - it is this seed's, and its last 32 bytes are the SHA-256 of the rest keyed by the secret
//!   seed, which no one without the seed can make for a changed file;
//! - what it holds is whole, and every expected answer is crib-core's again (a test set's keeps
//!   are valued anew as it is read, its items' values checked; a course's draws value both).
//!
//! Anything else (no file, another build, a damaged file) draws again and writes the file.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use crib_core::{rank_keeps, Card, PreparedHand, Rule};
use crib_results::TestSource;

use crate::draw::{self, TestCase, TestSet, DESIGN};
use crate::patterns::{self, PatternItem};
use crate::seed::Seed;

/// What can be kept beside its seed: made from the seed, written as bytes and read back.
pub(crate) trait Keep: Sized {
    /// What is kept: the end of the file's name (`<seed id>.<KIND>`), and the key's first word.
    const KIND: &'static str;
    /// The version of its kept form, part of the key: bump it when the form changes.
    const VERSION: &'static str;
    /// Returns what `seed` makes, drawn afresh.
    fn make(seed: &Seed) -> Self;
    /// Appends what is kept to `out`.
    fn put(&self, out: &mut Vec<u8>);
    /// Returns what `r` holds for `seed`, or `None` unless it is whole and checks.
    fn take(r: &mut Reader<'_>, seed: &Seed) -> Option<Self>;
}

/// Returns what `seed` makes of `T`, and whether it was read back: read from `dir` when this
/// build kept it there for this seed and it checks (see the module's documentation), else
/// made and written there (`dir` is created if need be; a failed write is not an error: the
/// draw is the same).
pub(crate) fn kept<T: Keep>(seed: &Seed, dir: &Path) -> (T, bool) {
    let path = path::<T>(seed, dir);
    let key = key::<T>();
    if let Some(found) = key.as_deref().and_then(|k| read(&path, seed, k)) {
        return (found, true);
    }
    let made = T::make(seed);
    if let Some(k) = key {
        let _ = write(&path, seed, &k, &made);
    }
    (made, false)
}

/// Returns the file that keeps `seed`'s `T` in `dir`.
pub(crate) fn path<T: Keep>(seed: &Seed, dir: &Path) -> PathBuf {
    dir.join(format!("{}.{}", seed.id(), T::KIND))
}

/// Returns what names this build's `T`: its kind and version, the test-set design's version
/// and the running executable's path, size and modification time (`None` when it cannot be
/// known: then nothing is kept).
pub(crate) fn key<T: Keep>() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "{} {} {DESIGN} {} {} {}.{:09}",
        T::KIND,
        T::VERSION,
        exe.display(),
        meta.len(),
        modified.as_secs(),
        modified.subsec_nanos()
    ))
}

/// The first line of a kept file.
const MAGIC: &[u8] = b"crib kept\n";

/// Returns the keyed hash of a kept file's `body`: only the secret seed makes it.
fn mac(seed: &Seed, body: &[u8]) -> [u8; 32] {
    seed.hash(b"crib-kept-mac\0", &[body])
}

/// Writes `what` to `path` under `key`: the magic line, the key, the seed's id, what is kept,
/// and the keyed hash of all that.
pub(crate) fn write<T: Keep>(path: &Path, seed: &Seed, key: &str, what: &T) -> std::io::Result<()> {
    let mut body = Vec::with_capacity(1 << 20);
    body.extend_from_slice(MAGIC);
    for line in [key, &seed.id()] {
        body.extend_from_slice(line.as_bytes());
        body.push(b'\n');
    }
    what.put(&mut body);
    let tag = mac(seed, &body);
    body.extend_from_slice(&tag);
    write_private(path, &body)
}

fn read<T: Keep>(path: &Path, seed: &Seed, key: &str) -> Option<T> {
    let file = std::fs::read(path).ok()?;
    let (body, tag) = file.split_at_checked(file.len().checked_sub(32)?)?;
    if mac(seed, body) != tag {
        return None;
    }
    let mut r = Reader(body);
    if r.take(MAGIC.len())? != MAGIC || r.line()? != key || r.line()? != seed.id() {
        return None;
    }
    let found = T::take(&mut r, seed)?;
    r.0.is_empty().then_some(found)
}

/// Writes `bytes` to `path` (mode 0600), its directory made if need be: aside and renamed, so
/// that a reader never sees half a file.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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

/// Reads a kept file's fields in order; every read fails past the end.
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    pub(crate) fn line(&mut self) -> Option<&'a str> {
        let end = self.0.iter().position(|&b| b == b'\n')?;
        let line = std::str::from_utf8(self.take(end)?).ok()?;
        self.take(1)?;
        Some(line)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    pub(crate) fn f32(&mut self) -> Option<f64> {
        Some(f64::from(f32::from_le_bytes(
            self.take(4)?.try_into().ok()?,
        )))
    }

    pub(crate) fn f64(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// Reads `n` distinct cards.
    pub(crate) fn cards(&mut self, n: usize) -> Option<Vec<Card>> {
        let cards: Vec<Card> = self
            .take(n)?
            .iter()
            .map(|&i| Card::from_index(i))
            .collect::<Option<_>>()?;
        crib_core::check_distinct(&cards).ok()?;
        Some(cards)
    }

    /// Reads what [`put_items`] wrote: hand_value items of every rank pattern.
    pub(crate) fn items(&mut self) -> Option<Vec<PatternItem>> {
        let count = self.u32()? as usize;
        let mut items = Vec::with_capacity(count);
        for _ in 0..count {
            let pattern = self.u32()?;
            if pattern as usize >= patterns::PATTERNS {
                return None;
            }
            let cards = self.cards(5)?;
            let cards = [cards[0], cards[1], cards[2], cards[3], cards[4]];
            let (weight, expected) = (self.f64()?, self.u8()?);
            items.push(PatternItem {
                pattern,
                cards,
                weight,
                expected,
            });
        }
        (patterns::patterns_in(&items) == patterns::PATTERNS).then_some(items)
    }
}

/// Appends hand_value `items` to `out`, as [`Reader::items`] reads them.
pub(crate) fn put_items(out: &mut Vec<u8>, items: &[PatternItem]) {
    out.extend_from_slice(&(items.len() as u32).to_le_bytes());
    for item in items {
        out.extend_from_slice(&item.pattern.to_le_bytes());
        out.extend(item.cards.map(|c| c.index()));
        out.extend_from_slice(&item.weight.to_le_bytes());
        out.push(item.expected);
    }
}

/// An unsalted seed's whole set: each case's id, source and cards (crib-core values its keeps
/// again as it is read), and the hand_value items (each value checked against crib-core's).
impl Keep for TestSet {
    const KIND: &'static str = "testset";
    const VERSION: &'static str = "t2";

    fn make(seed: &Seed) -> TestSet {
        TestSet::new(seed)
    }

    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.cases.len() as u32).to_le_bytes());
        for case in &self.cases {
            out.extend_from_slice(case.id.as_bytes());
            out.push(b'\n');
            out.push(match case.source {
                TestSource::Named => 0,
                TestSource::Pool => 1,
            });
            out.push(case.cards.len() as u8);
            out.extend(case.cards.iter().map(|c| c.index()));
        }
        put_items(out, &self.hand_value);
    }

    fn take(r: &mut Reader<'_>, seed: &Seed) -> Option<TestSet> {
        let count = r.u32()? as usize;
        let mut cases = Vec::with_capacity(count);
        for _ in 0..count {
            let id = r.line()?.to_owned();
            let source = match r.u8()? {
                0 => TestSource::Named,
                1 => TestSource::Pool,
                _ => return None,
            };
            let n = usize::from(r.u8()?);
            let cards = r.cards(n)?;
            cases.push(TestCase {
                id,
                source,
                keeps: rank_keeps(&cards).ok()?,
                cards,
            });
        }
        let hand_value = r.items()?;
        let valued = |item: &PatternItem| {
            PreparedHand::from_cards(item.hand()).value(item.start(), Rule::Hand) == item.expected
        };
        if !hand_value.iter().all(valued) {
            return None;
        }
        Some(TestSet {
            seed_id: seed.id(),
            fingerprint: draw::fingerprint(DESIGN, &cases, &hand_value, seed),
            cases,
            hand_value,
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
