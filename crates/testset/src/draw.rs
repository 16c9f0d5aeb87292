//! The test set drawn from a run's [`Seed`]: the marked hand_value items (one per rank
//! pattern, [`crate::patterns`]) and the select_hand deals, with the answers crib-core
//! expects.

use std::fmt::Write as _;

use crib_core::{Card, Keep};
use crib_results::{fnv1a, fnv1a_from, SelectCredit, TestSource};
use rayon::prelude::*;

use crate::patterns::{self, PatternItem, PATTERNS};
use crate::seed::Seed;
use crate::strategy::{
    balance_models, misvalued_strategies, Deal, Strategy, TieBreak, SELECT_MISTAKES,
};

/// How many select_hand cases come from the seed's pool of deals (after the named ones).
pub const POOL_DEALS: usize = 45;
/// How many seeded deals the select_hand cases are chosen from.
pub const POOL: u64 = 3000;
/// What one unit of ambiguity (a strategy whose tied keeps differ by all of a deal's credit)
/// costs in the balance, against a squared gap of one credit ([`pool_deals`]).
const AMBIGUITY_COST: f64 = 0.5;
/// How many swaps are tried to balance the chosen deals ([`pool_deals`]).
const BALANCE_STEPS: usize = 1_000_000;
/// How many select_hand cases must expose each mistake of [`SELECT_MISTAKES`].
pub const COVER_DEPTH: usize = 3;
/// The version of the test set's design, the start of every fingerprint.
pub(crate) const DESIGN: &str = "v8";

/// The deals of spec/ and the assignment's hints that every select_hand test set should
/// contain, before the others, their cards in an order drawn from the seed (so that a file
/// memorising the goals of one run does not answer them in another). The best keep is never
/// the first four cards shown, so that keeping those earns nothing here.
pub(crate) const NAMED_DEALS: &[(&str, &[&str])] = &[
    (
        "keep-three-fives-and-jack",
        &["2C", "5H", "9H", "5S", "5C", "JD"],
    ),
    ("keep-the-run", &["9C", "AS", "KD", "2D", "3H", "4S"]),
    ("five-cards-flush", &["KS", "2H", "4H", "6H", "8H"]),
];

/// One select_hand test: a deal with an id, where it comes from, and every keep crib-core
/// values for it, which are never sent to the child. (hand_value/3 is asked in batches of
/// rank-pattern items, [`crate::patterns`], not as test cases.)
#[derive(Debug, Clone)]
pub struct TestCase {
    /// A short unique name, such as `sh:named:keep-the-run` or `sh:pool-3`.
    pub id: String,
    /// Where the deal comes from.
    pub source: TestSource,
    /// The dealt cards (five or six), in the order given to the submission.
    pub cards: Vec<Card>,
    /// Every keep of the deal, best total first.
    pub keeps: Vec<Keep>,
}

impl TestCase {
    /// Returns the goal as the submission sees it, e.g.
    /// `select_hand([card(5,hearts),...],Hand,Cribcards)`.
    pub fn goal(&self) -> String {
        format!("select_hand({},Hand,Cribcards)", prolog_list(&self.cards))
    }
}

/// The whole test set of one seed: the marked hand_value items and the select_hand cases.
#[derive(Debug)]
pub struct TestSet {
    /// The seed's public id ([`Seed::id`]).
    pub seed_id: String,
    /// The select_hand cases, in the order they run.
    pub cases: Vec<TestCase>,
    /// The marked hand_value items, one per rank pattern, in the order they are asked.
    pub hand_value: Vec<PatternItem>,
    /// A hash of every input (and so of the seed); results graded against another test set
    /// are not resumed.
    pub fingerprint: String,
}

impl TestSet {
    /// Returns the test set drawn from `seed`: every draw (hand_value suits and card orders,
    /// the select_hand pool, the random deals, the order of the named deals' cards) comes
    /// from it, and every expected answer from crib-core. Takes a second or so of CPU, most
    /// of it the balance's annealing, spread over every core.
    ///
    /// # Example
    /// ```
    /// let seed = crib_testset::Seed::from_bytes([9; 32]);
    /// let set = crib_testset::TestSet::new(&seed);
    /// assert!(set.hand_value.len() > 23_647); // every rank pattern, some twice
    /// assert!(set.cases.len() >= 20);
    /// assert!(set.fingerprint.ends_with(&seed.id()));
    /// ```
    pub fn new(seed: &Seed) -> TestSet {
        let named = named_deals(seed);
        let pool = pool_deals(seed, &named, targets::calibrated());
        TestSet::of(DESIGN, seed, &named, pool, patterns::items(seed))
    }

    /// Returns the set of `design` drawn from `seed`: a case for each of the `named` deals
    /// (of [`NAMED_DEALS`]) and each `(index, deal)` of the pool, and the `hand_value` items.
    pub(crate) fn of(
        design: &str,
        seed: &Seed,
        named: &[Deal],
        pool: impl IntoIterator<Item = (u64, Deal)>,
        hand_value: Vec<PatternItem>,
    ) -> TestSet {
        let case = |id: String, source: TestSource, deal: Deal| TestCase {
            id,
            source,
            cards: deal.cards,
            keeps: deal.keeps,
        };
        let named = NAMED_DEALS
            .iter()
            .zip(named)
            .map(|((id, _), deal)| case(format!("sh:named:{id}"), TestSource::Named, deal.clone()));
        let pool = pool
            .into_iter()
            .map(|(index, deal)| case(format!("sh:pool-{index}"), TestSource::Pool, deal));
        let cases: Vec<TestCase> = named.chain(pool).collect();
        TestSet {
            seed_id: seed.id(),
            fingerprint: fingerprint(design, &cases, &hand_value, seed),
            cases,
            hand_value,
        }
    }

    /// Returns each hand_value item as (the hand in the order asked, the start, crib-core's
    /// value), in the order they are asked.
    pub fn hand_value_items(&self) -> Vec<(Vec<Card>, Card, u8)> {
        self.hand_value
            .iter()
            .map(|i| (i.hand().to_vec(), i.start(), i.expected))
            .collect()
    }

    /// Returns one paragraph saying what the tests are and where they come from, for
    /// `--help` and the README.
    pub fn provenance(&self) -> String {
        let by = |source: TestSource| self.cases.iter().filter(|c| c.source == source).count();
        format!(
            "hand_value/3 is judged on every one of the {PATTERNS} rank patterns (the ranks of \
             the four hand cards and of the start), {} hands in all, their suits and card \
             order drawn from the run's secret seed, flushes and nobs made common; \
             select_hand/3 on {} deals ({} named deals, {POOL_DEALS} from a pool of {POOL} \
             seeded deals, chosen so that every modelled mistake meets at least \
             {COVER_DEPTH} deals where it errs and the rest balanced so that marks hardly \
             depend on the seed, for those mistakes and for select_hand/3 built on a wrong \
             hand value), all drawn from the seed. Every expected answer is computed by \
             crib-core and never sent to the submission.",
            self.hand_value.len(),
            self.cases.len(),
            by(TestSource::Named),
        )
    }
}

/// Returns the fingerprint of a test set of `design` (`DESIGN`, or a salted set's
/// [`crate::course::SALTED_DESIGN`]) and `seed` asking `cases` and `hand_value`:
/// `<design>-<hash of every goal and item>-<seed id>`.
pub(crate) fn fingerprint(
    design: &str,
    cases: &[TestCase],
    hand_value: &[PatternItem],
    seed: &Seed,
) -> String {
    let mut text = String::new();
    for case in cases {
        let _ = writeln!(text, "{}", case.goal());
    }
    let hash = fnv1a_from(fnv1a(text.as_bytes()), &patterns::batch_bytes(hand_value));
    format!("{design}-{hash:016x}-{}", seed.id())
}

/// Returns the [`NAMED_DEALS`] as `seed` presents them: each one's cards in an order drawn
/// from the seed, then [`presented`].
pub(crate) fn named_deals(seed: &Seed) -> Vec<Deal> {
    NAMED_DEALS
        .iter()
        .enumerate()
        .map(|(i, (_, dealt))| {
            let mut dealt = crib_core::parse_cards(dealt).expect("the named deals are cards");
            seed.dealer("named", i as u64).shuffle(&mut dealt);
            presented(dealt)
        })
        .collect()
}

/// Returns the deal of `dealt` with its cards in the order the submission is given them: as
/// dealt, rotated (the first card moved to the end) until the first four cards are not a best
/// keep. The order of a deal carries no information, and this way a submission that keeps
/// the first four cards without choosing earns nothing for it.
fn presented(mut dealt: Vec<Card>) -> Deal {
    for _ in 0..dealt.len() {
        let deal = Deal::new(dealt.clone());
        if deal.surely_missed_by(Strategy::FirstFour) {
            return deal;
        }
        dealt.rotate_left(1);
    }
    Deal::new(dealt)
}

/// Returns [`POOL_DEALS`] deals of the seed's pool of [`pool_deal`]s, with their index in it,
/// chosen so that the marks of any strategy hardly depend on the seed (docs/DESIGN.md,
/// "Cover, then balance"):
///
/// 1. **Cover.** Each mistake of [`SELECT_MISTAKES`] chooses a worse keep than the best on
///    at least [`COVER_DEPTH`] of them (where the pool has that many): greedily, the deal
///    exposing the most mistakes still needed first, a deal that exposes a mistake however
///    it breaks ties counting twice.
/// 2. **Balance.** The rest are drawn at random from the pool, then improved by simulated
///    annealing over swaps ([`BALANCE_STEPS`] tried, never breaking the cover) until the
///    sums of [`balance_features`] over every select_hand case (the `named` deals as this
///    seed presents them, and the chosen ones) are as close as they get to `targets` (for a
///    feature with none, the pool's mean times the cases), and their ambiguity is small.
fn pool_deals(seed: &Seed, named: &[Deal], targets: &[Option<f64>]) -> Vec<(u64, Deal)> {
    let indices: Vec<u64> = (0..POOL).collect();
    let (pool, deals) = value_pool(seed, &indices);
    let candidates: Vec<&Candidate> = pool.iter().collect();
    let chosen = choose(
        &candidates,
        named,
        targets,
        &mut seed.dealer("balance", 0),
        BALANCE_STEPS,
    );
    chosen
        .into_iter()
        .map(|p| (pool[p].index, deals[p].clone()))
        .collect()
}

/// One deal of a pool as the cover and the balance see it ([`pool_deals`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    /// Its index in the seed's pool (its dealer `pool` `index`).
    pub index: u64,
    /// The cards as presented ([`presented`]).
    pub cards: Vec<Card>,
    /// The mistakes of [`SELECT_MISTAKES`] that choose a worse keep than the best on it.
    pub missed: Vec<usize>,
    /// The mistakes of [`SELECT_MISTAKES`] that do so however they break ties.
    pub surely: Vec<usize>,
    /// Its ambiguity ([`balance_features`]).
    pub ambiguity: f64,
    /// Its [`balance_features`].
    pub features: Vec<f64>,
}

/// Returns pool deal `index` of `seed`: 6 cards when `index` is even, else 5, dealt by the
/// seed's dealer `pool` `index` and [`presented`].
pub(crate) fn pool_deal(seed: &Seed, index: u64) -> Deal {
    let n = if index.is_multiple_of(2) { 6 } else { 5 };
    presented(seed.dealer("pool", index).deal(n))
}

/// Returns the candidate a deal of the pool is, from its index and its valued deal: the
/// costly part of a draw (every balance model values the deal's keeps).
pub(crate) fn candidate(index: u64, deal: &Deal) -> Candidate {
    let (mut missed, mut surely) = (Vec::new(), Vec::new());
    for (m, mistake) in SELECT_MISTAKES.iter().enumerate() {
        if deal.missed_by(mistake.strategy, mistake.ties) {
            missed.push(m);
        }
        if deal.surely_missed_by(mistake.strategy) {
            surely.push(m);
        }
    }
    let (features, ambiguity) = balance_features(deal);
    Candidate {
        index,
        cards: deal.cards.clone(),
        missed,
        surely,
        ambiguity,
        features,
    }
}

/// Returns the candidates of `seed`'s pool deals `indices`, with their deals, in order (each
/// on its own dealer: on every core).
pub(crate) fn value_pool(seed: &Seed, indices: &[u64]) -> (Vec<Candidate>, Vec<Deal>) {
    indices
        .par_iter()
        .map(|&index| {
            let deal = pool_deal(seed, index);
            (candidate(index, &deal), deal)
        })
        .unzip()
}

/// Returns the positions in `pool` of the [`POOL_DEALS`] deals chosen by the cover and the
/// balance ([`pool_deals`]), ascending: `dealer` draws the random fill and the annealing of
/// `steps` swaps.
pub(crate) fn choose(
    pool: &[&Candidate],
    named: &[Deal],
    targets: &[Option<f64>],
    dealer: &mut crib_core::Dealer,
    steps: usize,
) -> Vec<usize> {
    let k = pool.first().map_or(0, |c| c.features.len());
    let row = |p: usize| &pool[p].features[..];
    // 1. Cover.
    let mut needed = vec![COVER_DEPTH; SELECT_MISTAKES.len()];
    let mut taken = vec![false; pool.len()];
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let gain = |c: &Candidate| {
            let count = |ms: &[usize]| ms.iter().filter(|&&m| needed[m] > 0).count();
            count(&c.missed) + count(&c.surely)
        };
        let best = (0..pool.len())
            .filter(|&p| !taken[p])
            .max_by_key(|&p| (gain(pool[p]), std::cmp::Reverse(p)));
        let Some(p) = best.filter(|&p| gain(pool[p]) > 0) else {
            break;
        };
        taken[p] = true;
        for &m in &pool[p].missed {
            needed[m] = needed[m].saturating_sub(1);
        }
        chosen.push(p);
    }
    // 2. Balance: random fill, then annealing over swaps that keep the cover.
    while chosen.len() < POOL_DEALS {
        let p = (dealer.next_u64() % pool.len() as u64) as usize;
        if !taken[p] {
            taken[p] = true;
            chosen.push(p);
        }
    }
    let named_features: Vec<Vec<f64>> = named.iter().map(|d| balance_features(d).0).collect();
    let cases = (named.len() + chosen.len()) as f64;
    // How far each sum over every case is from its target: the calibrated one, or (for a
    // feature it lacks) the pool's mean times the cases.
    let mut gap: Vec<f64> = (0..k)
        .map(|f| {
            let target = targets.get(f).copied().flatten().unwrap_or_else(|| {
                cases * (0..pool.len()).map(|p| row(p)[f]).sum::<f64>() / pool.len() as f64
            });
            chosen.iter().map(|&p| row(p)[f]).sum::<f64>()
                + named_features.iter().map(|n| n[f]).sum::<f64>()
                - target
        })
        .collect();
    let mut exposures = vec![0usize; SELECT_MISTAKES.len()];
    for &p in &chosen {
        for &m in &pool[p].missed {
            exposures[m] += 1;
        }
    }
    let floor: Vec<usize> = exposures.iter().map(|&e| e.min(COVER_DEPTH)).collect();
    // The cost: the squared gaps, plus the chosen deals' ambiguity (see balance_features).
    let mut ambiguity: f64 = chosen.iter().map(|&p| pool[p].ambiguity).sum();
    let mut current = gap.iter().map(|g| g * g).sum::<f64>() + AMBIGUITY_COST * ambiguity;
    // Simulated annealing over single swaps: a worse state is accepted with probability
    // exp(-increase / temperature), the temperature falling geometrically from 1 (about a
    // deal's credit squared) to 1e-4; the best state seen is kept.
    let mut unit = || dealer.next_unit();
    let (mut best, mut best_cost) = (chosen.clone(), current);
    for step in 0..steps {
        let temperature = (1e-4f64).powf(step as f64 / steps as f64);
        let i = (unit() * chosen.len() as f64) as usize;
        let q = (unit() * pool.len() as f64) as usize;
        if taken[q] {
            continue;
        }
        let p = chosen[i];
        let trial_ambiguity = ambiguity - pool[p].ambiguity + pool[q].ambiguity;
        let trial: f64 = gap
            .iter()
            .zip(row(p).iter().zip(row(q)))
            .map(|(g, (out, into))| (g - out + into).powi(2))
            .sum::<f64>()
            + AMBIGUITY_COST * trial_ambiguity;
        if trial > current && unit() >= (-(trial - current) / temperature).exp() {
            continue;
        }
        let keeps_cover = (0..SELECT_MISTAKES.len()).all(|m| {
            let lost = usize::from(pool[p].missed.contains(&m));
            let won = usize::from(pool[q].missed.contains(&m));
            exposures[m] + won - lost >= floor[m]
        });
        if !keeps_cover {
            continue;
        }
        for &m in &pool[p].missed {
            exposures[m] -= 1;
        }
        for &m in &pool[q].missed {
            exposures[m] += 1;
        }
        for (g, (out, into)) in gap.iter_mut().zip(row(p).iter().zip(row(q))) {
            *g += into - out;
        }
        (taken[p], taken[q], chosen[i]) = (false, true, q);
        (current, ambiguity) = (trial, trial_ambiguity);
        if current < best_cost {
            (best, best_cost) = (chosen.clone(), current);
        }
    }
    let mut chosen = best;
    chosen.sort_unstable();
    chosen
}

/// Returns the names of [`balance_features`], in its order: [`balance_models`]' names (each
/// modelled select_hand mistake's id, then each select_hand built on a wrong hand value:
/// `Misvalued(Runs, Dropped)`, `Misvalued(Runs, Dropped) first found`), then `best keep with a run`, `random keep` and
/// `five cards dealt`.
pub(crate) fn balance_feature_names() -> Vec<String> {
    balance_models()
        .map(|(name, ..)| name)
        .chain(["best keep with a run", "random keep", "five cards dealt"].map(String::from))
        .collect()
}

/// Returns the numbers the chosen deals are balanced on, and how much they leave to chance.
///
/// The numbers: the credit on the deal (graded scale) of each modelled select_hand mistake
/// (breaking ties as its catalog submission does, [`Deal::choice`]) and of each select_hand
/// built on a wrong hand value ([`misvalued_strategies`]); the best credit of a keep with a
/// run among its four cards (0 when there is none: what a select_hand earns whose hand value
/// fails without a run); the mean credit of a keep chosen at random; and whether five cards
/// were dealt. A select_hand built on a wrong hand value may rank several keeps equal and
/// take one as its code happens to break ties, which depends on the order the cards come in:
/// it gives two numbers, the credit of the keep each way the catalog's submissions break ties
/// takes ([`TieBreak::GreatestHand`], `max_member/2`'s, and [`TieBreak::FirstFound`]), and
/// the spread of the tied keeps' credits (summed over the strategies) is the deal's
/// *ambiguity*, which the balance keeps small so that yet another way of breaking ties fares
/// about as well.
pub(crate) fn balance_features(deal: &Deal) -> (Vec<f64>, f64) {
    let credit = |total: u32| SelectCredit::Graded.credit(total, &deal.keeps);
    let mut out: Vec<f64> = SELECT_MISTAKES
        .iter()
        .map(|m| credit(deal.choice(m.strategy, m.ties).total))
        .collect();
    let mut ambiguity = 0.0;
    for strategy in misvalued_strategies() {
        let credits: Vec<f64> = deal
            .choices(strategy)
            .into_iter()
            .map(|i| credit(deal.keeps[i].total))
            .collect();
        let (least, most) = credits
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, m), &c| {
                (l.min(c), m.max(c))
            });
        ambiguity += most - least;
        out.extend(TieBreak::ALL.map(|ties| credit(deal.choice(strategy, ties).total)));
    }
    let with_run = deal
        .keeps
        .iter()
        .filter(|k| crate::misvalue::holds_run(&k.keep))
        .map(|k| credit(k.total))
        .fold(0.0, f64::max);
    out.push(with_run);
    let random = deal.keeps.iter().map(|k| credit(k.total)).sum::<f64>();
    out.push(random / deal.keeps.len() as f64);
    out.push(if deal.cards.len() == 5 { 1.0 } else { 0.0 });
    (out, ambiguity)
}

/// Returns `[card(..),card(..)]`.
pub fn prolog_list(cards: &[Card]) -> String {
    let items: Vec<String> = cards.iter().map(|c| c.prolog()).collect();
    format!("[{}]", items.join(","))
}

pub mod targets;

#[cfg(test)]
pub(crate) mod tests;
