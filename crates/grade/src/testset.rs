//! The fixed test set: inputs, where each comes from, and the answers crib-core expects.

use std::fmt::Write as _;
use std::sync::OnceLock;

use crib_core::{hand_value, Card, Hand, Keep, Rule};

use crate::strategy::{Deal, Strategy, SELECT_MISTAKES};

use crate::hash::fnv1a;

/// The seed of the random cases; changing it changes the test set (and its fingerprint).
pub const SEED: u64 = 0x00c2_1b5e_ed20_2611;
/// How many random hand_value cases follow the named ones.
pub const RANDOM_HAND_VALUE: usize = 40;
/// How many random select_hand cases have six dealt cards.
pub const RANDOM_SIX: usize = 12;
/// How many random select_hand cases have five dealt cards.
pub const RANDOM_FIVE: usize = 4;
/// How many seeded deals the select_hand cases that expose mistakes are chosen from.
pub const POOL: u64 = 3000;
/// How many select_hand cases must expose each mistake of [`SELECT_MISTAKES`].
pub const COVER_DEPTH: usize = 3;

/// The worked examples of spec/, read at compile time; the ones scored with the crib rule are
/// left out, since the assignment's hand_value/3 has no crib.
const SPEC_EXAMPLES: &str = include_str!("../../../spec/examples.jsonl");

/// Named hand_value cases beyond spec/'s examples: each is (id, four hand cards, start).
const TRAPS: &[(&str, [&str; 4], &str)] = &[
    ("flush-start-only", ["2C", "4D", "6S", "8C"], "TH"),
    ("flush-four-with-nob-suit", ["JH", "3H", "5H", "7H"], "9S"),
    ("flush-five-with-nob", ["JS", "3S", "5S", "7S"], "9S"),
    ("nob-jack-start-suit", ["JD", "AC", "3H", "7S"], "9D"),
    ("two-jacks-one-nob", ["JD", "JC", "3H", "7S"], "9C"),
    ("double-run", ["3C", "4D", "4H", "5S"], "9C"),
    ("double-run-of-four", ["9C", "TD", "JH", "JS"], "QC"),
    ("triple-run-face", ["JC", "JD", "JH", "QS"], "KC"),
    ("double-double-run-face", ["TC", "TD", "JH", "JS"], "QC"),
    ("fifteens-face-cards", ["TC", "JD", "QH", "KS"], "5C"),
    ("fifteens-many-fives", ["5C", "5D", "TH", "KS"], "QC"),
    ("run-ace-low", ["AC", "2D", "3H", "9S"], "KC"),
    ("run-no-wrap-king-ace", ["KC", "AD", "2H", "8S"], "QD"),
    ("start-completes-run", ["4C", "6D", "9H", "KS"], "5C"),
    ("nineteen-is-zero", ["2C", "4D", "6H", "8S"], "KC"),
];

/// The deals of spec/ and the assignment's hints that every select_hand test set should
/// contain, before the others. The best keep is never the first four cards dealt, so that
/// keeping those earns nothing here.
const NAMED_DEALS: &[(&str, &[&str])] = &[
    (
        "keep-three-fives-and-jack",
        &["2C", "5H", "9H", "5S", "5C", "JD"],
    ),
    ("keep-the-run", &["9C", "AS", "KD", "2D", "3H", "4S"]),
    ("five-cards-flush", &["KS", "2H", "4H", "6H", "8H"]),
];

/// Which predicate a test calls, with its inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// `hand_value(Hand, Start, Value)`.
    HandValue {
        /// The four hand cards, in the order given to the submission.
        hand: Hand,
        /// The start card.
        start: Card,
    },
    /// `select_hand(Cards, Hand, Cribcards)` with five or six cards.
    SelectHand {
        /// The dealt cards, in the order given to the submission.
        cards: Vec<Card>,
    },
}

/// What crib-core answers for a test; never sent to the child.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// The value of the hand.
    Value(u8),
    /// Every keep of the deal, best total first.
    Keeps(Vec<Keep>),
}

/// One test: an id, where it comes from, its input and the reference answer.
#[derive(Debug, Clone)]
pub struct TestCase {
    /// A short unique name, such as `hv:spec:assignment-6` or `sh:random-3`.
    pub id: String,
    /// Where the input comes from: `spec/examples.jsonl`, `trap`, `named`, `cover` or
    /// `random`.
    pub source: &'static str,
    /// The ids of the mistakes of [`SELECT_MISTAKES`] that choose a worse keep than the best
    /// on this deal (select_hand cases; empty for hand_value).
    pub exposes: Vec<&'static str>,
    /// The inputs sent to the child.
    pub input: Input,
    /// The answer crib-core computes for the input.
    pub expected: Expected,
}

impl TestCase {
    /// Returns the predicate the test calls: `hand_value` or `select_hand`.
    pub fn predicate(&self) -> &'static str {
        match self.input {
            Input::HandValue { .. } => "hand_value",
            Input::SelectHand { .. } => "select_hand",
        }
    }

    /// Returns the goal as the submission sees it, e.g.
    /// `hand_value([card(5,hearts),...],card(5,diamonds),Value)`.
    pub fn goal(&self) -> String {
        match &self.input {
            Input::HandValue { hand, start } => format!(
                "hand_value({},{},Value)",
                prolog_list(&hand.cards()),
                start.prolog()
            ),
            Input::SelectHand { cards } => {
                format!("select_hand({},Hand,Cribcards)", prolog_list(cards))
            }
        }
    }
}

/// The whole test set, in the order it runs: hand_value cases, then select_hand cases.
#[derive(Debug)]
pub struct TestSet {
    /// The cases.
    pub cases: Vec<TestCase>,
    /// A hash of every input; results graded against another test set are not resumed.
    pub fingerprint: String,
}

impl TestSet {
    /// Returns how many cases call `predicate`.
    pub fn count(&self, predicate: &str) -> usize {
        self.cases
            .iter()
            .filter(|c| c.predicate() == predicate)
            .count()
    }

    /// Returns one paragraph saying how many tests there are and where they come from, for
    /// `--help` and the README.
    pub fn provenance(&self) -> String {
        let by = |pred: &str, source: &str| {
            self.cases
                .iter()
                .filter(|c| c.predicate() == pred && c.source == source)
                .count()
        };
        format!(
            "{} tests ({}): {} hand_value/3 cases ({} worked examples from spec/examples.jsonl \
             scored with the hand rule, {} named traps, {} random) and {} select_hand/3 cases \
             ({} named deals, {} random with 6 cards, {} random with 5). Random cases come \
             from seed {SEED:#x}; every expected answer is computed by crib-core and never \
             sent to the submission.",
            self.cases.len(),
            self.fingerprint,
            self.count("hand_value"),
            by("hand_value", "spec/examples.jsonl"),
            by("hand_value", "trap"),
            by("hand_value", "random"),
            self.count("select_hand"),
            by("select_hand", "named"),
            RANDOM_SIX,
            RANDOM_FIVE,
        )
    }
}

/// Returns the fixed test set, built once from spec/, the traps above and [`SEED`].
///
/// # Example
/// ```
/// let set = crib_grade::test_set();
/// assert!(set.count("hand_value") > 50);
/// assert!(set.count("select_hand") >= 10);
/// ```
pub fn test_set() -> &'static TestSet {
    static SET: OnceLock<TestSet> = OnceLock::new();
    SET.get_or_init(build)
}

fn build() -> TestSet {
    let mut cases = Vec::new();
    let mut hv = |id: String, source: &'static str, hand: Hand, start: Card| {
        let value = hand_value(&hand, start, Rule::Hand).expect("test inputs are distinct cards");
        cases.push(TestCase {
            id,
            source,
            exposes: Vec::new(),
            input: Input::HandValue { hand, start },
            expected: Expected::Value(value),
        });
    };
    for (id, hand, start) in spec_examples() {
        hv(format!("hv:spec:{id}"), "spec/examples.jsonl", hand, start);
    }
    for (id, hand, start) in TRAPS {
        let hand = cards(hand);
        hv(
            format!("hv:trap:{id}"),
            "trap",
            Hand::from_slice(&hand).expect("traps are four distinct cards"),
            card(start),
        );
    }
    let mut rng = crib_core::Dealer::new(SEED);
    for i in 0..RANDOM_HAND_VALUE {
        let dealt = rng.deal(5);
        let hand = Hand::from_slice(&dealt[..4]).expect("deal gives distinct cards");
        hv(format!("hv:random-{i}"), "random", hand, dealt[4]);
    }
    let mut sh = |id: String, source: &'static str, deal: Deal| {
        cases.push(TestCase {
            id,
            source,
            exposes: exposed_by(&deal),
            input: Input::SelectHand { cards: deal.cards },
            expected: Expected::Keeps(deal.keeps),
        });
    };
    for (id, dealt) in NAMED_DEALS {
        sh(format!("sh:named:{id}"), "named", Deal::new(cards(dealt)));
    }
    for (k, (index, deal)) in cover_deals().into_iter().enumerate() {
        sh(format!("sh:cover-{k}:pool-{index}"), "cover", deal);
    }
    for i in 0..RANDOM_SIX {
        sh(format!("sh:random6-{i}"), "random", presented(rng.deal(6)));
    }
    for i in 0..RANDOM_FIVE {
        sh(format!("sh:random5-{i}"), "random", presented(rng.deal(5)));
    }
    let mut text = String::new();
    for case in &cases {
        let _ = writeln!(text, "{}", case.goal());
    }
    TestSet {
        fingerprint: format!("v2-{:016x}", fnv1a(text.as_bytes())),
        cases,
    }
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

/// Returns the ids of the mistakes that choose a worse keep than the best on `deal` (breaking
/// ties as the catalog's submissions do, see [`Deal::missed_by`]).
fn exposed_by(deal: &Deal) -> Vec<&'static str> {
    SELECT_MISTAKES
        .iter()
        .filter(|(_, strategy)| deal.missed_by(*strategy))
        .map(|(id, _)| *id)
        .collect()
}

/// Returns deals of the seeded pool, with their index in it, chosen so that each mistake of
/// [`SELECT_MISTAKES`] chooses a worse keep than the best on at least [`COVER_DEPTH`] of them
/// (where the pool has that many). Greedily: the deal exposing the most mistakes still needed
/// first, where a deal that exposes a mistake however it breaks ties counts twice; the lowest
/// index on a tie. Pool deal `i` has 5 cards when `i % 3 == 2`, else 6, dealt by
/// `Dealer::for_item(SEED, i)` and [`presented`].
fn cover_deals() -> Vec<(u64, Deal)> {
    struct Candidate {
        index: u64,
        deal: Deal,
        missed: Vec<usize>,
        surely: Vec<usize>,
    }
    let pool: Vec<Candidate> = (0..POOL)
        .map(|index| {
            let n = if index % 3 == 2 { 5 } else { 6 };
            let deal = presented(crib_core::Dealer::for_item(SEED, index).deal(n));
            let (mut missed, mut surely) = (Vec::new(), Vec::new());
            for (m, (_, strategy)) in SELECT_MISTAKES.iter().enumerate() {
                if deal.missed_by(*strategy) {
                    missed.push(m);
                }
                if deal.surely_missed_by(*strategy) {
                    surely.push(m);
                }
            }
            Candidate {
                index,
                deal,
                missed,
                surely,
            }
        })
        .collect();
    let mut needed = vec![COVER_DEPTH; SELECT_MISTAKES.len()];
    let mut taken = vec![false; pool.len()];
    let mut chosen = Vec::new();
    loop {
        let gain = |c: &Candidate| {
            let count = |ms: &[usize]| ms.iter().filter(|&&m| needed[m] > 0).count();
            count(&c.missed) + count(&c.surely)
        };
        let best = (0..pool.len())
            .filter(|&p| !taken[p])
            .max_by_key(|&p| (gain(&pool[p]), std::cmp::Reverse(p)));
        let Some(p) = best.filter(|&p| gain(&pool[p]) > 0) else {
            break;
        };
        taken[p] = true;
        for &m in &pool[p].missed {
            needed[m] = needed[m].saturating_sub(1);
        }
        chosen.push(p);
    }
    chosen.sort_unstable();
    chosen
        .into_iter()
        .map(|p| (pool[p].index, pool[p].deal.clone()))
        .collect()
}

/// Returns the worked examples of spec/ scored with the hand rule: (id, hand, start).
fn spec_examples() -> Vec<(String, Hand, Card)> {
    #[derive(serde::Deserialize)]
    struct Example {
        id: String,
        hand: Vec<String>,
        start: String,
        #[serde(default)]
        crib: bool,
    }
    SPEC_EXAMPLES
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str::<Example>(line).expect("spec/examples.jsonl is JSON"))
        .filter(|ex| !ex.crib)
        .map(|ex| {
            let hand = Hand::from_slice(&cards(&ex.hand)).expect("spec hands are valid");
            (ex.id, hand, card(&ex.start))
        })
        .collect()
}

fn card(token: &str) -> Card {
    Card::parse(token).expect("test cards are written correctly")
}

fn cards<S: AsRef<str>>(tokens: &[S]) -> Vec<Card> {
    tokens.iter().map(|t| card(t.as_ref())).collect()
}

/// Returns `[card(..),card(..)]`.
pub(crate) fn prolog_list(cards: &[Card]) -> String {
    let items: Vec<String> = cards.iter().map(|c| c.prolog()).collect();
    format!("[{}]", items.join(","))
}

#[cfg(test)]
mod tests;
