//! Digits and 9-bit candidate sets.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A Sudoku value, 1 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Digit(u8);

impl Digit {
    /// The digit `n`, if `1 <= n <= 9`.
    #[inline]
    pub const fn new(n: u8) -> Option<Digit> {
        if n >= 1 && n <= 9 {
            Some(Digit(n))
        } else {
            None
        }
    }

    /// The digit written as the character `c` (`'1'..='9'`).
    pub fn from_char(c: char) -> Option<Digit> {
        c.to_digit(10).and_then(|n| Digit::new(n as u8))
    }

    /// The digit's value, 1 to 9.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Zero-based index, 0 to 8.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// The digit with zero-based index `i` (0 to 8).
    #[inline]
    pub const fn from_index(i: usize) -> Digit {
        Digit((i % 9) as u8 + 1)
    }

    /// The character `'1'..='9'`.
    pub fn to_char(self) -> char {
        (b'0' + self.0) as char
    }

    /// All nine digits in ascending order.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).map(Digit)
    }
}

impl TryFrom<u8> for Digit {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        Digit::new(n).ok_or_else(|| format!("digit out of range: {n}"))
    }
}

impl From<Digit> for u8 {
    fn from(d: Digit) -> u8 {
        d.0
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of digits as a 9-bit mask (bit `d-1` for digit `d`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Candidates(u16);

impl Candidates {
    /// No value.
    pub const NONE: Candidates = Candidates(0);
    /// All nine values.
    pub const ALL: Candidates = Candidates(0x1ff);

    /// The set of the single digit `d`.
    #[inline]
    pub const fn single(d: Digit) -> Candidates {
        Candidates(1 << (d.0 - 1))
    }

    /// The set with the given raw mask (bits above the ninth are dropped).
    #[inline]
    pub const fn from_bits(bits: u16) -> Candidates {
        Candidates(bits & 0x1ff)
    }

    /// The raw mask, in place, for propagation (which only removes bits).
    #[inline]
    pub(crate) fn bits_mut(&mut self) -> &mut u16 {
        &mut self.0
    }

    /// The raw mask, by reference.
    #[inline]
    pub(crate) fn bits_ref(&self) -> &u16 {
        &self.0
    }

    /// The raw 9-bit mask.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Number of values in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has no value.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `d` is in the set.
    #[inline]
    pub const fn contains(self, d: Digit) -> bool {
        self.0 & (1 << (d.0 - 1)) != 0
    }

    /// Whether every value of `self` is in `other`.
    #[inline]
    pub const fn is_subset_of(self, other: Candidates) -> bool {
        self.0 & !other.0 == 0
    }

    /// The only value, when the set has exactly one.
    #[inline]
    pub const fn single_value(self) -> Option<Digit> {
        if self.0 != 0 && self.0 & (self.0 - 1) == 0 {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        } else {
            None
        }
    }

    /// The smallest value in the set.
    #[inline]
    pub const fn first(self) -> Option<Digit> {
        if self.0 == 0 {
            None
        } else {
            Some(Digit(self.0.trailing_zeros() as u8 + 1))
        }
    }

    /// The values in ascending order.
    #[inline]
    pub fn iter(self) -> CandidateIter {
        CandidateIter(self.0)
    }

    /// Renames the digits: `map[d-1]` is the new name of `d`.
    pub fn relabel(self, map: &[Digit; 9]) -> Candidates {
        self.iter().fold(Candidates::NONE, |acc, d| {
            acc | Candidates::single(map[d.index()])
        })
    }

    /// The values as digit characters, ascending, with no separator (`"2379"`).
    pub fn to_digit_string(self) -> String {
        self.iter().map(Digit::to_char).collect()
    }
}

impl FromIterator<Digit> for Candidates {
    fn from_iter<I: IntoIterator<Item = Digit>>(iter: I) -> Self {
        iter.into_iter()
            .fold(Candidates::NONE, |acc, d| acc | Candidates::single(d))
    }
}

/// Iterator over the values of a [`Candidates`] set, ascending.
#[derive(Clone, Debug)]
pub struct CandidateIter(u16);

impl Iterator for CandidateIter {
    type Item = Digit;
    #[inline]
    fn next(&mut self) -> Option<Digit> {
        if self.0 == 0 {
            return None;
        }
        let tz = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Digit(tz as u8 + 1))
    }
}

impl BitOr for Candidates {
    type Output = Candidates;
    #[inline]
    fn bitor(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 | rhs.0)
    }
}
impl BitOrAssign for Candidates {
    #[inline]
    fn bitor_assign(&mut self, rhs: Candidates) {
        self.0 |= rhs.0;
    }
}
impl BitAnd for Candidates {
    type Output = Candidates;
    #[inline]
    fn bitand(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 & rhs.0)
    }
}
impl BitAndAssign for Candidates {
    #[inline]
    fn bitand_assign(&mut self, rhs: Candidates) {
        self.0 &= rhs.0;
    }
}
impl Sub for Candidates {
    type Output = Candidates;
    #[inline]
    fn sub(self, rhs: Candidates) -> Candidates {
        Candidates(self.0 & !rhs.0)
    }
}
impl Not for Candidates {
    type Output = Candidates;
    #[inline]
    fn not(self) -> Candidates {
        Candidates(!self.0 & 0x1ff)
    }
}

/// Written as in the notation: values ascending, comma-separated (`3,9`).
impl fmt::Display for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for d in self.iter() {
            if !first {
                f.write_str(",")?;
            }
            first = false;
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: u8) -> Digit {
        Digit::new(n).unwrap()
    }

    #[test]
    fn set_operations() {
        let a: Candidates = [d(3), d(9)].into_iter().collect();
        assert_eq!(a.len(), 2);
        assert_eq!(a.to_string(), "3,9");
        assert!(a.contains(d(9)) && !a.contains(d(1)));
        assert_eq!((!a).len(), 7);
        assert_eq!(a - Candidates::single(d(3)), Candidates::single(d(9)));
        assert_eq!((a - Candidates::single(d(3))).single_value(), Some(d(9)));
        assert_eq!(a.single_value(), None);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![d(3), d(9)]);
    }

    #[test]
    fn digit_range() {
        assert!(Digit::new(0).is_none() && Digit::new(10).is_none());
        assert_eq!(Digit::from_char('7'), Some(d(7)));
        assert_eq!(Digit::from_char('0'), None);
    }
}
