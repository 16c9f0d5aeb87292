//! Seeded deals: one portable pseudo-random sequence for every test set, sample, table and
//! benchmark that needs reproducible cards.

use crate::Card;

/// Deals cards from a seeded SplitMix64 sequence (Steele, Lea and Flood, 2014): the same seed
/// gives the same deals on every machine and in every version of crib.
#[derive(Debug, Clone)]
pub struct Dealer(u64);

impl Dealer {
    /// Returns a dealer whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Dealer {
        Dealer(seed)
    }

    /// Returns the dealer for item `index` of a run seeded with `seed`, so that items can be
    /// dealt in parallel, in any order, and still depend only on the seed and the index.
    pub fn for_item(seed: u64, index: u64) -> Dealer {
        let mut dealer = Dealer(seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03));
        dealer.next_u64();
        dealer
    }

    /// Returns the next 64 bits of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Returns a uniform draw in [0, 1): the next 53 bits of the sequence as a fraction.
    ///
    /// ```
    /// let x = crib_core::Dealer::new(3).next_unit();
    /// assert!((0.0..1.0).contains(&x));
    /// ```
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Returns `n` distinct cards (`n <= 52`): the first `n` of a Fisher-Yates shuffle of the
    /// deck.
    ///
    /// # Panics
    /// If `n > 52`.
    ///
    /// # Example
    /// ```
    /// let mut dealer = crib_core::Dealer::new(7);
    /// let six = dealer.deal(6);
    /// assert_eq!(six, crib_core::Dealer::new(7).deal(6));
    /// assert!(crib_core::check_distinct(&six).is_ok());
    /// ```
    pub fn deal(&mut self, n: usize) -> Vec<Card> {
        assert!(n <= 52, "a deck has 52 cards, not {n}");
        let mut deck: Vec<Card> = Card::deck().collect();
        self.shuffle_first(&mut deck, n);
        deck.truncate(n);
        deck
    }

    /// Shuffles `items` uniformly (Fisher-Yates): one draw for each item but the last.
    ///
    /// # Example
    /// ```
    /// let mut order = [0, 1, 2, 3, 4];
    /// crib_core::Dealer::new(7).shuffle(&mut order);
    /// let mut sorted = order;
    /// sorted.sort();
    /// assert_eq!(sorted, [0, 1, 2, 3, 4]);
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.shuffle_first(items, items.len().saturating_sub(1));
    }

    /// The first `k` steps of Fisher-Yates (`k <= items.len()`): position `i < k` gets an item
    /// drawn uniformly from positions `i..`, one draw each, so the first `k` items are a
    /// uniform draw without replacement in a uniform order.
    fn shuffle_first<T>(&mut self, items: &mut [T], k: usize) {
        let n = items.len();
        for i in 0..k {
            let j = i + (self.next_u64() % (n - i) as u64) as usize;
            items.swap(i, j);
        }
    }
}
