//! Deterministic random number generators.
//!
//! The games whose originals draw their maps from `java.util.Random` use [`JavaRandom`], a
//! bit-exact port, so that a CodinGame seed gives the CodinGame map. Test vectors taken from
//! Java itself pin it (this file's tests).

/// A bit-exact port of `java.util.Random`: a 48-bit linear congruential generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaRandom {
    state: u64,
}

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const ADDEND: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;

impl JavaRandom {
    /// `new Random(seed)`.
    pub fn new(seed: i64) -> Self {
        JavaRandom {
            state: (seed as u64 ^ MULTIPLIER) & MASK,
        }
    }

    /// `next(bits)`: advances the state and returns its top `bits` bits as a signed int.
    pub fn next(&mut self, bits: u32) -> i32 {
        self.state = (self.state.wrapping_mul(MULTIPLIER).wrapping_add(ADDEND)) & MASK;
        (self.state >> (48 - bits)) as i64 as i32
    }

    /// `nextInt()`.
    pub fn next_int(&mut self) -> i32 {
        self.next(32)
    }

    /// `nextInt(bound)`, for `bound > 0`. A non-positive bound (an exception in Java) returns 0.
    pub fn next_int_bounded(&mut self, bound: i32) -> i32 {
        if bound <= 0 {
            return 0;
        }
        if bound & bound.wrapping_neg() == bound {
            return ((bound as i64 * self.next(31) as i64) >> 31) as i32;
        }
        loop {
            let bits = self.next(31);
            let val = bits % bound;
            if bits.wrapping_sub(val).wrapping_add(bound - 1) >= 0 {
                return val;
            }
        }
    }

    /// `nextFloat()`.
    pub fn next_float(&mut self) -> f32 {
        self.next(24) as f32 / (1u32 << 24) as f32
    }

    /// `nextBoolean()`.
    pub fn next_boolean(&mut self) -> bool {
        self.next(1) != 0
    }

    /// `nextDouble()`.
    pub fn next_double(&mut self) -> f64 {
        let hi = (self.next(26) as i64) << 27;
        let lo = self.next(27) as i64;
        (hi + lo) as f64 * (1.0f64 / (1u64 << 53) as f64)
    }

    /// `nextLong()`.
    pub fn next_long(&mut self) -> i64 {
        ((self.next(32) as i64) << 32).wrapping_add(self.next(32) as i64)
    }

    /// `Collections.shuffle(list, rnd)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        java_shuffle(items, |n| self.next_int_bounded(n));
    }
}

/// `Collections.shuffle(list, rnd)` for any `rnd` whose `nextInt(n)` is `next_int_bounded`: Java's
/// swaps from the end, so that the same draws give the same order.
pub(crate) fn java_shuffle<T>(items: &mut [T], mut next_int_bounded: impl FnMut(i32) -> i32) {
    for i in (2..=items.len()).rev() {
        let j = next_int_bounded(i as i32) as usize;
        items.swap(i - 1, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Java's values per seed: nextFloat×3, nextInt(12)×5, nextInt(17)×3, nextInt()×2, in one
    /// stream.
    fn check(seed: i64, floats: [f32; 3], twelves: [i32; 5], seventeens: [i32; 3], ints: [i32; 2]) {
        let mut r = JavaRandom::new(seed);
        for f in floats {
            assert_eq!(r.next_float(), f, "seed {seed}");
        }
        for v in twelves {
            assert_eq!(r.next_int_bounded(12), v, "seed {seed}");
        }
        for v in seventeens {
            assert_eq!(r.next_int_bounded(17), v, "seed {seed}");
        }
        for v in ints {
            assert_eq!(r.next_int(), v, "seed {seed}");
        }
    }

    #[test]
    fn java_test_vectors() {
        check(
            42,
            [0.727_563_7, 0.054_665_208, 0.683_223_4],
            [8, 6, 1, 5, 2],
            [1, 7, 14],
            [1_938_135_004, 1_583_910_553],
        );
        check(
            -7_095_413_993_656_790_854,
            [0.954_201_1, 0.057_409_108, 0.526_698],
            [1, 2, 5, 9, 8],
            [8, 14, 12],
            [229_933_320, -831_302_480],
        );
        check(
            1,
            [0.730_878_2, 0.100_473_166, 0.410_080_8],
            [9, 2, 4, 2, 10],
            [8, 13, 6],
            [655_996_946, -155_886_662],
        );
    }

    #[test]
    fn non_positive_bound_is_harmless() {
        let mut r = JavaRandom::new(7);
        assert_eq!(r.next_int_bounded(0), 0);
        assert_eq!(r.next_int_bounded(-3), 0);
    }
}
