//! A small seeded pseudo-random generator (SplitMix64): the same seed gives the same numbers
//! on every platform, which is what makes a generation run repeatable. Not for cryptography.

/// SplitMix64 (Steele, Lea and Flood): one 64-bit state, a Weyl step and a mixing function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// The generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The generator of one numbered stream of a seed: streams of the same seed are unrelated,
    /// so that attempt `index` draws the same numbers whichever thread runs it.
    pub fn stream(seed: u64, index: u64) -> Rng {
        let mut mix = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Rng::new(mix.next_u64() ^ index)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` at least 1), by multiply-and-shift (bias below 2^-32 for the
    /// small `n` used here).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_repeat_and_differ() {
        let a: Vec<u64> = (0..4).map(|_| Rng::stream(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::stream(7, 3).next_u64(), Rng::stream(7, 4).next_u64());
        assert_ne!(Rng::stream(7, 3).next_u64(), Rng::stream(8, 3).next_u64());
        let mut r = Rng::new(1);
        let mut seen = [0usize; 9];
        for _ in 0..9000 {
            seen[r.below(9)] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
    }
}
