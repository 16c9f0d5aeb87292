//! Classes of (hand, start) pairs equal up to relabelling suits, and the items the child is
//! asked: one seeded relabelling of each class, the hand cards in a seeded order.

use std::sync::OnceLock;

use crib_core::{Card, Dealer, PreparedHand, Rule, Suit, PAIRS};

/// The seed of the order the classes are checked in.
pub(crate) const ORDER_SEED: u64 = 0x00c2_1b5e_dee9_0001;
/// The seed of the relabelling and card order each class is asked with.
pub(crate) const ASK_SEED: u64 = 0x00c2_1b5e_dee9_0002;
/// The seed of the second relabelling of the probed classes.
pub(crate) const PROBE_SEED: u64 = 0x00c2_1b5e_dee9_0003;
/// How many classes are asked twice, under two relabellings, to see whether the answers
/// depend on the suits' names or the cards' order.
pub(crate) const PROBES: usize = 2000;

/// The 24 permutations of the four suits, as suit index -> suit index.
pub(crate) fn permutations() -> &'static [[u8; 4]; 24] {
    static PERMS: OnceLock<[[u8; 4]; 24]> = OnceLock::new();
    PERMS.get_or_init(|| {
        // In lexicographic order: the base-4 digits of 0..256 that use every suit once.
        let perms: Vec<[u8; 4]> = (0..256u32)
            .map(|n| [6, 4, 2, 0].map(|shift| (n >> shift & 3) as u8))
            .filter(|p| p.iter().fold(0u8, |m, &x| m | 1 << x) == 0xF)
            .collect();
        perms.try_into().expect("24 permutations")
    })
}

/// Returns `card` with its suit relabelled by `perm`.
pub(crate) fn relabel(card: Card, perm: &[u8; 4]) -> Card {
    let suit = Suit::ALL[perm[card.suit().index() as usize] as usize];
    Card::new(card.rank(), suit)
}

/// Returns a set of cards (bit `i` is the card of index `i`) with its suits relabelled.
fn relabel_mask(mask: u64, nibbles: &[u8; 16]) -> u64 {
    (0..13).fold(0u64, |out, r| {
        out | u64::from(nibbles[(mask >> (4 * r) & 0xF) as usize]) << (4 * r)
    })
}

/// One class of (hand, start) pairs equal up to relabelling suits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SuitClass {
    /// A representative's hand, cards in increasing index order; its start is a club.
    pub hand: [Card; 4],
    /// The representative's start.
    pub start: Card,
    /// How many distinct (hand, start) pairs the class holds: 24 over the number of suit
    /// permutations that leave the pair unchanged.
    pub weight: u8,
    /// The points crib-core gives every pair of the class.
    pub expected: u8,
}

/// Returns every class, ordered by start rank and then by the representative's hand.
/// Their weights add up to [`PAIRS`].
pub(crate) fn classes() -> &'static [SuitClass] {
    static CLASSES: OnceLock<Vec<SuitClass>> = OnceLock::new();
    CLASSES.get_or_init(enumerate)
}

fn enumerate() -> Vec<SuitClass> {
    // Every class has a member whose start is a club; among those (the images of one member
    // under the six permutations fixing clubs) the representative has the smallest hand.
    let fixing: Vec<[u8; 16]> = permutations()
        .iter()
        .filter(|p| p[0] == 0)
        .map(|p| {
            let mut nib = [0u8; 16];
            for (n, out) in nib.iter_mut().enumerate() {
                *out = (0..4)
                    .filter(|s| n >> s & 1 == 1)
                    .fold(0, |m, s| m | 1 << p[s]);
            }
            nib
        })
        .collect();
    let mut out = Vec::with_capacity(560_000);
    let card = |i: u8| Card::from_index(i).expect("indices below 52");
    for rank in 0..13u8 {
        let start = 4 * rank;
        let others: Vec<u8> = (0..52).filter(|&i| i != start).collect();
        for a in 0..others.len() {
            for b in a + 1..others.len() {
                for c in b + 1..others.len() {
                    for d in c + 1..others.len() {
                        let idx = [others[a], others[b], others[c], others[d]];
                        let mask = idx.iter().fold(0u64, |m, &i| m | 1 << i);
                        let mut stable = 0u8;
                        let mut smallest = true;
                        for nib in &fixing {
                            let image = relabel_mask(mask, nib);
                            if image < mask {
                                smallest = false;
                                break;
                            }
                            stable += u8::from(image == mask);
                        }
                        if smallest {
                            let hand = idx.map(card);
                            let expected =
                                PreparedHand::from_cards(hand).value(card(start), Rule::Hand);
                            out.push(SuitClass {
                                hand,
                                start: card(start),
                                weight: 24 / stable,
                                expected,
                            });
                        }
                    }
                }
            }
        }
    }
    debug_assert_eq!(out.iter().map(|c| u64::from(c.weight)).sum::<u64>(), PAIRS);
    out
}

/// One question for the child: a class, asked as these cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClassItem {
    /// The class's index in [`classes`].
    pub class: u32,
    /// The four hand cards in the order sent, then the start.
    pub cards: [Card; 5],
    /// Whether this is the second asking of a class (a probe of suit and order dependence).
    pub probe: bool,
}

/// Returns class `class` asked under the relabelling and card order that `seed` picks for it.
pub(crate) fn ask(class: u32, seed: u64) -> ClassItem {
    let c = &classes()[class as usize];
    let mut dealer = Dealer::for_item(seed, u64::from(class));
    let perm = &permutations()[(dealer.next_u64() % 24) as usize];
    let mut hand = c.hand.map(|card| relabel(card, perm));
    dealer.shuffle(&mut hand);
    ClassItem {
        class,
        cards: [hand[0], hand[1], hand[2], hand[3], relabel(c.start, perm)],
        probe: false,
    }
}

/// Returns the items of a check of the first `limit` classes (all when `None`) in the seeded
/// order: first up to [`PROBES`] of them asked a second time, then each once.
pub(crate) fn items(limit: Option<usize>) -> Vec<ClassItem> {
    let n = classes().len();
    let mut order: Vec<u32> = (0..n as u32).collect();
    Dealer::new(ORDER_SEED).shuffle(&mut order);
    order.truncate(limit.unwrap_or(n).min(n));
    let probes = order.iter().take(PROBES).map(|&c| ClassItem {
        probe: true,
        ..ask(c, PROBE_SEED)
    });
    let mut items: Vec<ClassItem> = probes.collect();
    items.extend(order.iter().map(|&c| ask(c, ASK_SEED)));
    items
}
