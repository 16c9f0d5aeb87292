//! A small seeded generator for the sampled checks: SplitMix64, so a seed gives the same
//! hands and deals on every machine and in any thread order.

/// SplitMix64 (Steele, Lea and Flood, 2014).
pub struct Rng(u64);

impl Rng {
    /// Returns the generator for item `index` of a run seeded with `seed`, so that items can
    /// be drawn in parallel and still depend only on the seed.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next();
        rng
    }

    /// Returns the next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Returns a number in `0..n` (`n > 0`), with negligible bias for small `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// Returns `n` distinct cards of the deck, in the order drawn.
    pub fn deal(&mut self, n: usize) -> Vec<crib_core::Card> {
        let mut deck: Vec<crib_core::Card> = crib_core::Card::deck().collect();
        for i in 0..n {
            let j = i + self.below((deck.len() - i) as u64) as usize;
            deck.swap(i, j);
        }
        deck.truncate(n);
        deck
    }
}
