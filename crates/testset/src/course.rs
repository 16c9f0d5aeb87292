//! A course seed's salted test sets. On Gradescope every submission gets tests of its own:
//! its seed is the course seed [derived](Seed::derive) with the submission's id. Nearly all of a full draw
//! ([`TestSet::new`]) is valuing the pool's deals under every balance model, which depends
//! only on the course seed: a [`Course`] is that part ([`COURSE_POOL`] valued deals and the
//! course seed's hand_value items), kept as `<course seed id>.course` by the one cache
//! ([`crate::kept`], [`crate::Tests::Salted`]). [`Course::draw`] draws from the salt (through
//! the derived seed) what differs from one submission to the next:
//!
//! - **select_hand**: the named deals' card order (as [`TestSet::new`] does), then
//!   [`POOL_DEALS`](crate::POOL_DEALS) of a random [`SALTED_POOL`] of the course's deals,
//!   chosen by the same cover and balance as an unsalted draw over [`SALTED_STEPS`] swaps,
//!   each shown with its suits renamed (`renamed_alike`) and its keeps valued anew.
//! - **hand_value**: the course's items, the patterns in an order of the salt's, each item's
//!   suits renamed and hand cards reordered (`relabelled`): its value and stratum do not
//!   change, and its expected value is crib-core's again.
//!
//! A salted set's fingerprint starts with [`SALTED_DESIGN`], not the unsalted design, and
//! ends with the derived seed's id, as an unsalted set's ends with its seed's.

use crib_core::{Card, PreparedHand, Rule};

use crate::draw::{
    self, balance_feature_names, candidate, choose, named_deals, targets, Candidate, TestSet, POOL,
};
use crate::kept::{put_items, Keep, Reader};
use crate::patterns::{self, PatternItem};
use crate::seed::Seed;
use crate::strategy::{Deal, SELECT_MISTAKES};

/// How many deals of the course seed's pool a [`Course`] values (the unsalted pool's
/// [`POOL`] and as many again).
pub const COURSE_POOL: u64 = 2 * POOL;
/// How many of the course's deals each salt chooses its select_hand deals from.
pub const SALTED_POOL: usize = POOL as usize;
/// How many swaps the balance of a salted draw tries (an unsalted draw: a million).
pub const SALTED_STEPS: usize = 100_000;
/// The design of salted test sets, the start of their fingerprints. Bump it whenever a salt's
/// tests change (and with the unsalted `DESIGN`).
pub const SALTED_DESIGN: &str = "v8s2";

/// The salt-independent part of a course seed's salted test sets (see the module's
/// documentation). Made by [`Course::new`], or read back where it is kept
/// ([`crate::Tests::Salted`]); the same either way.
#[derive(Debug, Clone, PartialEq)]
pub struct Course {
    seed: Seed,
    pool: Vec<Candidate>,
    items: Vec<PatternItem>,
}

impl Course {
    /// Returns the course part of `seed`: its first [`COURSE_POOL`] pool deals valued under
    /// every balance model, and its hand_value items. Costs about as much as a
    /// [`TestSet::new`], spread over every core.
    pub fn new(seed: &Seed) -> Course {
        let indices: Vec<u64> = (0..COURSE_POOL).collect();
        let (mut pool, _) = draw::value_pool(seed, &indices);
        // Kept as f32, half the file to read and hash: the balance needs no more.
        for candidate in &mut pool {
            for f in &mut candidate.features {
                *f = f64::from(*f as f32);
            }
        }
        Course {
            seed: *seed,
            pool,
            items: patterns::items(seed),
        }
    }

    /// Returns the test set of the seed the course seed derives with `salt`
    /// ([`Seed::derive`]): the same salt gives the same set, another salt another one (see
    /// the module's documentation). Its `seed_id` is the derived seed's id. A few
    /// milliseconds of CPU.
    pub fn draw(&self, salt: &str) -> TestSet {
        let derived = self.seed.derive(salt);
        // The named deals' features without the table of every rank pattern, which would cost
        // this draw more than everything else (the pool's features are the course's).
        let named: Vec<Deal> = named_deals(&derived)
            .into_iter()
            .map(Deal::with_parts_untabled)
            .collect();
        let mut positions: Vec<usize> = (0..self.pool.len()).collect();
        derived.dealer("salted-pool", 0).shuffle(&mut positions);
        positions.truncate(SALTED_POOL);
        positions.sort_unstable();
        let pool: Vec<&Candidate> = positions.iter().map(|&p| &self.pool[p]).collect();
        let chosen = choose(
            &pool,
            &named,
            targets::calibrated(),
            &mut derived.dealer("balance", 0),
            SALTED_STEPS,
        );
        let mut dealer = derived.dealer("salted-pool-suits", 0);
        // crib-core values the keeps anew: the course keeps no answer.
        let chosen = chosen
            .into_iter()
            .map(|p| (pool[p].index, renamed_alike(pool[p], &mut dealer)));
        let hand_value = relabelled(&self.items, &derived);
        TestSet::of(SALTED_DESIGN, &derived, &named, chosen, hand_value)
    }
}

/// Returns the course's hand_value `items` as the `derived` seed asks them: the patterns in
/// an order of its own (a pattern's items together), each item's suits renamed by a
/// permutation and its hand cards reordered, both drawn from it, and each expected value
/// crib-core's.
fn relabelled(items: &[PatternItem], derived: &Seed) -> Vec<PatternItem> {
    let mut groups: Vec<&[PatternItem]> = items.chunk_by(|a, b| a.pattern == b.pattern).collect();
    derived
        .dealer("salted-hand_value-order", 0)
        .shuffle(&mut groups);
    let mut dealer = derived.dealer("salted-hand_value-suits", 0);
    let mut out = Vec::with_capacity(items.len());
    for item in groups.into_iter().flatten() {
        let mut suits = [0u8, 1, 2, 3];
        dealer.shuffle(&mut suits);
        let renamed = rename_suits(&item.cards, suits);
        let mut hand = [renamed[0], renamed[1], renamed[2], renamed[3]];
        dealer.shuffle(&mut hand);
        let start = renamed[4];
        out.push(PatternItem {
            pattern: item.pattern,
            cards: [hand[0], hand[1], hand[2], hand[3], start],
            weight: item.weight,
            expected: PreparedHand::from_cards(hand).value(start, Rule::Hand),
        });
    }
    out
}

/// How many renamings of its suits a chosen deal tries before it is shown as the course has it.
const RENAMINGS: usize = 4;

/// Returns the deal of `course` (a deal of the course's pool) as a salt shows it: in the
/// course's card order (which the models minding order read), with its suits renamed by the
/// first of [`RENAMINGS`] permutations drawn by `dealer` under which every model reads it as
/// the course does (the same mistakes miss on it, the same features: so the cover and the
/// balance chosen hold); as the course has it when none does. A model that breaks ties by
/// suit, or looks at one suit's starts, may read a renamed deal otherwise.
fn renamed_alike(course: &Candidate, dealer: &mut crib_core::Dealer) -> Deal {
    let as_kept = |c: &Candidate| -> Vec<f32> { c.features.iter().map(|&f| f as f32).collect() };
    let mut suits = [0u8, 1, 2, 3];
    for _ in 0..RENAMINGS {
        dealer.shuffle(&mut suits);
        // Without the table of every rank pattern, which would cost this draw more than
        // everything else.
        let deal = Deal::new(rename_suits(&course.cards, suits)).with_parts_untabled();
        let read = candidate(course.index, &deal);
        if read.missed == course.missed
            && read.surely == course.surely
            && read.ambiguity == course.ambiguity
            && as_kept(&read) == as_kept(course)
        {
            return deal;
        }
    }
    Deal::new(course.cards.clone())
}

/// Returns `cards` with each suit renamed by `suits` (suit `s` becomes `suits[s]`, in
/// [`Card::index`]'s suit order): a permutation changes no hand's value or any keep's.
fn rename_suits(cards: &[Card], suits: [u8; 4]) -> Vec<Card> {
    cards
        .iter()
        .map(|c| {
            Card::from_index(c.index() & !3 | suits[usize::from(c.index() & 3)])
                .expect("a card's rank with a suit is a card")
        })
        .collect()
}

/// A course part as it is kept: each pool deal's index, cards, the mistakes that miss on it,
/// its ambiguity and its features (as f32), then the hand_value items.
impl Keep for Course {
    const KIND: &'static str = "course";
    const VERSION: &'static str = "c2";

    fn make(seed: &Seed) -> Course {
        Course::new(seed)
    }

    fn put(&self, out: &mut Vec<u8>) {
        let k = self.pool.first().map_or(0, |c| c.features.len());
        out.extend_from_slice(&(self.pool.len() as u32).to_le_bytes());
        out.extend_from_slice(&(k as u32).to_le_bytes());
        for c in &self.pool {
            out.extend_from_slice(&c.index.to_le_bytes());
            out.push(c.cards.len() as u8);
            out.extend(c.cards.iter().map(|c| c.index()));
            for list in [&c.missed, &c.surely] {
                out.push(list.len() as u8);
                out.extend(list.iter().map(|&m| m as u8));
            }
            out.extend_from_slice(&c.ambiguity.to_le_bytes());
            for &f in &c.features {
                out.extend_from_slice(&(f as f32).to_le_bytes());
            }
        }
        put_items(out, &self.items);
    }

    fn take(r: &mut Reader<'_>, seed: &Seed) -> Option<Course> {
        let (n, k) = (r.u32()? as usize, r.u32()? as usize);
        if n as u64 != COURSE_POOL || k != balance_feature_names().len() {
            return None;
        }
        let mut pool = Vec::with_capacity(n);
        for position in 0..n as u64 {
            let index = r.u64()?;
            let count = usize::from(r.u8()?);
            if index != position || !(5..=6).contains(&count) {
                return None;
            }
            let cards = r.cards(count)?;
            let missed = mistakes(r)?;
            let surely = mistakes(r)?;
            let ambiguity = r.f64()?;
            let features = (0..k).map(|_| r.f32()).collect::<Option<Vec<f64>>>()?;
            pool.push(Candidate {
                index,
                cards,
                missed,
                surely,
                ambiguity,
                features,
            });
        }
        Some(Course {
            seed: *seed,
            pool,
            items: r.items()?,
        })
    }
}

/// Reads a list of select_hand mistakes (indices into [`SELECT_MISTAKES`]).
fn mistakes(r: &mut Reader<'_>) -> Option<Vec<usize>> {
    let n = usize::from(r.u8()?);
    let list: Vec<usize> = r.take(n)?.iter().map(|&m| usize::from(m)).collect();
    list.iter()
        .all(|&m| m < SELECT_MISTAKES.len())
        .then_some(list)
}

#[cfg(test)]
pub(crate) mod tests;
