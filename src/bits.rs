//! Bit idioms the hot paths share, each named once and tested against its plain definition.
//!
//! * [`ones`]: the indices of the set bits of a word, lowest first (the `x &= x - 1` loop),
//!   and [`pop_lowest`] for a set that grows while it is worked through;
//! * [`once_and_twice`]: over a list of masks, the bits set in at least one and those set in
//!   at least two (the three-way count: none, once, more);
//! * [`nonzero_lanes`]: which fixed-width lanes of a word hold a set bit, all lanes at once
//!   (an add that carries into each lane's top bit and no further).
//!
//! A `u128` (a board of 81 cells) is walked as two 64-bit halves: the machine has no 128-bit
//! count of trailing zeros, and the halves keep the loop as short as a `u64`'s.

use std::ops::{Add, BitAnd, BitOr, Not, Shl, Sub};

/// An unsigned machine word used as a set of bits: `u16`, `u32`, `u64` or `u128`.
pub(crate) trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Shl<u32, Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// The iterator [`ones`] returns.
    type Ones: Iterator<Item = usize>;
    /// The indices of the set bits, lowest first.
    fn ones(self) -> Self::Ones;
}

/// The indices of the set bits of `x`, lowest first.
#[inline(always)]
pub(crate) fn ones<W: Word>(x: W) -> W::Ones {
    x.ones()
}

/// Takes the lowest set bit out of `x`, which is not zero, and returns its index: for a set
/// that grows while it is worked through (a queue), where [`ones`] would walk a copy.
#[inline(always)]
pub(crate) fn pop_lowest(x: &mut u128) -> usize {
    debug_assert!(*x != 0, "no bit to take");
    let lo = *x as u64;
    if lo != 0 {
        *x &= !u128::from(lo & lo.wrapping_neg());
        lo.trailing_zeros() as usize
    } else {
        let hi = (*x >> 64) as u64;
        *x &= !(u128::from(hi & hi.wrapping_neg()) << 64);
        64 + hi.trailing_zeros() as usize
    }
}

/// The set bits of a word of up to 64 bits, lowest first (see [`ones`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ones(u64);

impl Iterator for Ones {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The set bits of a `u128`, lowest first, one 64-bit half after the other (see [`ones`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ones128 {
    lo: u64,
    hi: u64,
}

impl Iterator for Ones128 {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros() as usize;
            self.lo &= self.lo - 1;
            Some(i)
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros() as usize;
            self.hi &= self.hi - 1;
            Some(64 + i)
        } else {
            None
        }
    }
}

macro_rules! small_word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: Self = 0;
            type Ones = Ones;
            #[inline(always)]
            fn ones(self) -> Ones {
                Ones(u64::from(self))
            }
        }
    )*};
}
small_word!(u16, u32, u64);

impl Word for u128 {
    const ZERO: Self = 0;
    type Ones = Ones128;
    #[inline(always)]
    fn ones(self) -> Ones128 {
        Ones128 {
            lo: self as u64,
            hi: (self >> 64) as u64,
        }
    }
}

/// How often each bit is set over a list of masks, in three classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tally<W> {
    /// The bits set in at least one mask (their union).
    pub(crate) any: W,
    /// The bits set in at least two masks.
    pub(crate) twice: W,
}

impl<W: Word> Tally<W> {
    /// The bits set in exactly one mask.
    #[inline(always)]
    pub(crate) fn once(self) -> W {
        self.any & !self.twice
    }
}

/// The bits of `masks` set at least once and at least twice.
#[inline(always)]
pub(crate) fn once_and_twice<W: Word>(masks: impl IntoIterator<Item = W>) -> Tally<W> {
    let (mut any, mut twice) = (W::ZERO, W::ZERO);
    for m in masks {
        twice = twice | (any & m);
        any = any | m;
    }
    Tally { any, twice }
}

/// For `x` cut into lanes of `WIDTH` bits (2 or more) whose lowest bits are `lanes`: the top
/// bit of each of those lanes that holds a set bit of `x`, all lanes at once. The lanes' bits
/// below the top plus all ones there carry into the top bit when any is set, and no further;
/// the top bit itself is ORed in.
#[inline(always)]
pub(crate) fn nonzero_lanes<const WIDTH: u32, W: Word>(x: W, lanes: W) -> W {
    let tops = lanes << (WIDTH - 1);
    let below = tops - lanes;
    (((x & below) + below) | x) & tops
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The set bits by testing each one.
    fn plain_ones(x: u128, width: u32) -> Vec<usize> {
        (0..width as usize).filter(|&i| x >> i & 1 != 0).collect()
    }

    /// Per bit, the masks that hold it counted: (at least one, at least two, exactly one).
    fn plain_tally(masks: &[u128]) -> (u128, u128, u128) {
        let (mut any, mut twice, mut once) = (0, 0, 0);
        for bit in 0..128 {
            let n = masks.iter().filter(|&&m| m >> bit & 1 != 0).count();
            any |= u128::from(n >= 1) << bit;
            twice |= u128::from(n >= 2) << bit;
            once |= u128::from(n == 1) << bit;
        }
        (any, twice, once)
    }

    /// Lane by lane: its top bit when any of its bits is set.
    fn plain_lanes(x: u128, width: u32, count: u32) -> u128 {
        let mut out = 0;
        for lane in 0..count {
            let mask = ((1u128 << width) - 1) << (lane * width);
            if x & mask != 0 {
                out |= 1 << (lane * width + width - 1);
            }
        }
        out
    }

    fn lanes_of(width: u32, count: u32) -> u128 {
        (0..count).fold(0, |a, k| a | 1 << (k * width))
    }

    #[test]
    fn ones_lists_the_set_bits() {
        assert_eq!(ones(0u16).count(), 0);
        assert_eq!(ones(0b1010_0001u16).collect::<Vec<_>>(), [0, 5, 7]);
        assert_eq!(
            ones(1u128 << 80 | 1 << 63 | 1).collect::<Vec<_>>(),
            [0, 63, 80]
        );
        assert_eq!(ones(u128::MAX).count(), 128);
        assert_eq!(ones(u64::MAX).last(), Some(63));
    }

    #[test]
    fn pop_lowest_takes_the_bits_in_order() {
        let mut x = 1u128 << 100 | 1 << 64 | 1 << 3;
        let mut got = Vec::new();
        while x != 0 {
            got.push(pop_lowest(&mut x));
        }
        assert_eq!(got, [3, 64, 100]);
    }

    #[test]
    fn the_tally_counts_to_two() {
        let t = once_and_twice([0b0110u16, 0b0011, 0b1000]);
        assert_eq!((t.any, t.twice, t.once()), (0b1111, 0b0010, 0b1101));
        assert_eq!(once_and_twice::<u32>([]), Tally { any: 0, twice: 0 });
    }

    #[test]
    fn lanes_at_the_widths_used() {
        // Three-bit row segments, 16-bit lanes, and a lane whose only bit is its top.
        let rows = lanes_of(3, 27);
        assert_eq!(nonzero_lanes::<3, u128>(0b100_000_011, rows), 0b100_000_100);
        let lanes = lanes_of(16, 4) as u64;
        assert_eq!(
            nonzero_lanes::<16, u64>(0x8000_0000_0001_0000, lanes),
            0x8000_0000_8000_0000
        );
        assert_eq!(nonzero_lanes::<16, u64>(u64::MAX, lanes), 0x8000 * lanes);
    }

    proptest! {
        #[test]
        fn ones_agrees_with_testing_each_bit(x in any::<u128>()) {
            prop_assert_eq!(ones(x).collect::<Vec<_>>(), plain_ones(x, 128));
            prop_assert_eq!(ones(x as u64).collect::<Vec<_>>(), plain_ones(x as u64 as u128, 64));
            prop_assert_eq!(ones(x as u32).collect::<Vec<_>>(), plain_ones(x as u32 as u128, 32));
            prop_assert_eq!(ones(x as u16).collect::<Vec<_>>(), plain_ones(x as u16 as u128, 16));
            let (mut rest, mut popped) = (x, Vec::new());
            while rest != 0 {
                popped.push(pop_lowest(&mut rest));
            }
            prop_assert_eq!(popped, plain_ones(x, 128));
        }

        #[test]
        fn the_tally_agrees_with_counting(masks in proptest::collection::vec(any::<u128>(), 0..12)) {
            let t = once_and_twice(masks.iter().copied());
            let (any, twice, once) = plain_tally(&masks);
            prop_assert_eq!((t.any, t.twice, t.once()), (any, twice, once));
            let small = once_and_twice(masks.iter().map(|&m| m as u16));
            prop_assert_eq!((small.any, small.twice), (any as u16, twice as u16));
        }

        #[test]
        fn lanes_agree_with_each_lane(x in any::<u128>()) {
            for (width, count) in [(3u32, 27u32), (4, 32), (10, 12), (16, 8)] {
                let used = lanes_of(width, count);
                let x = x & (((1u128 << (width * count - 1)) << 1).wrapping_sub(1));
                prop_assert_eq!(
                    match width {
                        3 => nonzero_lanes::<3, u128>(x, used),
                        4 => nonzero_lanes::<4, u128>(x, used),
                        10 => nonzero_lanes::<10, u128>(x, used),
                        _ => nonzero_lanes::<16, u128>(x, used),
                    },
                    plain_lanes(x, width, count),
                    "width {}", width
                );
            }
            let x64 = x as u64;
            prop_assert_eq!(
                u128::from(nonzero_lanes::<16, u64>(x64, lanes_of(16, 4) as u64)),
                plain_lanes(u128::from(x64), 16, 4)
            );
        }
    }
}
