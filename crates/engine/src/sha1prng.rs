//! A bit-exact port of Java's `SecureRandom.getInstance("SHA1PRNG")` seeded with
//! `setSeed(long)`, the generator of the CodinGame SDK 4.x `getRandom()` (Soak Overflow's maps).
//!
//! The algorithm: the state is the SHA-1 digest of
//! the seed's 8 little-endian bytes. Each output block is SHA-1(state); the state then becomes
//! state + block + 1 as a 160-bit number computed byte by byte on signed bytes (if no byte
//! changed, its first byte is incremented). Unused bytes of a block are kept for the next
//! request. On top of the bytes sit `java.util.Random`'s derived methods (`next(bits)`,
//! `nextInt(bound)`, Java 17's `nextInt(origin, bound)`, `nextBoolean`) and
//! `Collections.shuffle`. SHA-1 itself is implemented here (FIPS 180-4), checked against the
//! standard digests.
//!
//! Java ignores `setSeed(0)` and seeds itself from the operating system instead, so seed 0 gives
//! no reproducible stream there. This port is pure: it seeds with the zero bytes like any other
//! value, and games that follow the original refuse seed 0.

/// The length of a SHA-1 digest, in bytes.
const DIGEST: usize = 20;

/// SHA-1 of a message (FIPS 180-4).
pub fn sha1(message: &[u8]) -> [u8; DIGEST] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let bit_len = (message.len() as u64).wrapping_mul(8);
    let mut data = message.to_vec();
    data.push(0x80);
    while data.len() % 64 != 56 {
        data.push(0);
    }
    data.extend_from_slice(&bit_len.to_be_bytes());
    for block in data.chunks_exact(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (hi, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *hi = hi.wrapping_add(v);
        }
    }
    let mut out = [0u8; DIGEST];
    for (chunk, v) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&v.to_be_bytes());
    }
    out
}

/// Java's SHA1PRNG `SecureRandom` after `setSeed(seed)`, with `java.util.Random`'s methods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sha1Prng {
    state: [u8; DIGEST],
    /// The last output block; its first `used` bytes have been handed out (and zeroed).
    block: [u8; DIGEST],
    used: usize,
}

impl Sha1Prng {
    /// `SecureRandom.getInstance("SHA1PRNG")` followed by `setSeed(seed)`.
    pub fn new(seed: i64) -> Self {
        Sha1Prng {
            state: sha1(&seed.to_le_bytes()),
            block: [0; DIGEST],
            used: 0,
        }
    }

    /// The state step after an output block: state + block + 1, bytewise on signed bytes.
    fn update_state(&mut self) {
        let mut carry: i32 = 1;
        let mut changed = false;
        for (s, o) in self.state.iter_mut().zip(self.block) {
            let v = i32::from(*s as i8) + i32::from(o as i8) + carry;
            let t = v as u8;
            changed |= *s != t;
            *s = t;
            carry = v >> 8;
        }
        if !changed {
            self.state[0] = self.state[0].wrapping_add(1);
        }
    }

    /// `nextBytes`: fills `out`, first from the rest of the last block, then from new blocks.
    pub fn next_bytes(&mut self, out: &mut [u8]) {
        let mut index = 0;
        if self.used > 0 {
            while index < out.len() && self.used < DIGEST {
                out[index] = self.block[self.used];
                self.block[self.used] = 0;
                self.used += 1;
                index += 1;
            }
        }
        while index < out.len() {
            self.block = sha1(&self.state);
            self.update_state();
            self.used = 0;
            while index < out.len() && self.used < DIGEST {
                out[index] = self.block[self.used];
                self.block[self.used] = 0;
                self.used += 1;
                index += 1;
            }
        }
        self.used %= DIGEST;
    }

    /// `next(bits)`: ceil(bits / 8) bytes, big-endian, shifted right to `bits` bits.
    pub fn next(&mut self, bits: u32) -> i32 {
        let bits = bits.clamp(1, 32);
        let count = bits.div_ceil(8) as usize;
        let mut bytes = [0u8; 4];
        self.next_bytes(&mut bytes[..count]);
        let mut value: u32 = 0;
        for &b in &bytes[..count] {
            value = (value << 8) | u32::from(b);
        }
        (value >> (count as u32 * 8 - bits)) as i32
    }

    /// `nextInt()`.
    pub fn next_int(&mut self) -> i32 {
        self.next(32)
    }

    /// `nextBoolean()`.
    pub fn next_boolean(&mut self) -> bool {
        self.next(1) != 0
    }

    /// `nextInt(bound)`, for `bound > 0`. A non-positive bound (an exception in Java) returns 0.
    pub fn next_int_bounded(&mut self, bound: i32) -> i32 {
        if bound <= 0 {
            return 0;
        }
        let r = self.next(31);
        let m = bound - 1;
        if bound & m == 0 {
            return ((i64::from(bound) * i64::from(r)) >> 31) as i32;
        }
        let mut u = r;
        loop {
            let r = u % bound;
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return r;
            }
            u = self.next(31);
        }
    }

    /// Java 17's `nextInt(origin, bound)` (`RandomSupport.boundedNextInt`). An empty range (an
    /// exception in Java) returns `origin`.
    pub fn next_int_range(&mut self, origin: i32, bound: i32) -> i32 {
        if origin >= bound {
            return origin;
        }
        let mut r = self.next_int();
        let n = bound.wrapping_sub(origin);
        let m = n.wrapping_sub(1);
        if n & m == 0 {
            return (r & m).wrapping_add(origin);
        }
        if n > 0 {
            let mut u = ((r as u32) >> 1) as i32;
            loop {
                r = u % n;
                if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                    return r.wrapping_add(origin);
                }
                u = ((self.next_int() as u32) >> 1) as i32;
            }
        }
        // The range does not fit an int: draw until inside it.
        while r < origin || r >= bound {
            r = self.next_int();
        }
        r
    }

    /// `Collections.shuffle(list, rnd)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        crate::rng::java_shuffle(items, |n| self.next_int_bounded(n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha1_known_digests() {
        assert_eq!(hex(&sha1(b"")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            hex(&sha1(b"abc")),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        assert_eq!(
            hex(&sha1(
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
            )),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(
            hex(&sha1(b"The quick brown fox jumps over the lazy dog")),
            "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"
        );
        // Two blocks of padding, and a million bytes.
        assert_eq!(
            hex(&sha1(&[b'a'; 1_000_000])),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
        );
    }

    /// Java's values per seed: the first 24 bytes; then, fresh, nextInt(6,11), nextBoolean×3,
    /// nextInt(10)×6, nextInt()×2 (and for seed 42 nextBytes(8)); then, fresh, a shuffle.
    struct Vector {
        seed: i64,
        first_bytes: &'static str,
        six_to_eleven: i32,
        booleans: [bool; 3],
        tens: [i32; 6],
        ints: [i32; 2],
        bytes: Option<&'static str>,
        shuffled: [usize; 10],
    }

    const VECTORS: [Vector; 3] = [
        Vector {
            seed: 42,
            first_bytes: "d50ac288b90ede2e311b02376bca7c702fb62a27ba1a100e",
            six_to_eleven: 10,
            booleans: [true, false, true],
            tens: [7, 4, 9, 6, 9, 0],
            ints: [-1_123_840_487, -1_066_960_781],
            bytes: Some("10b2f7e00c11e1db"),
            shuffled: [9, 2, 0, 5, 7, 6, 3, 8, 1, 4],
        },
        Vector {
            seed: -7_095_413_993_656_790_854,
            first_bytes: "5f02b4510793c11d32406d9b4d15c8b47f1146a064c18ef3",
            six_to_eleven: 7,
            booleans: [false, true, true],
            tens: [8, 4, 7, 5, 0, 7],
            ints: [-1_276_418_251, 1_474_398_617],
            bytes: None,
            shuffled: [9, 2, 5, 3, 7, 4, 8, 1, 0, 6],
        },
        Vector {
            seed: 1,
            first_bytes: "96cb4cedc6d78a4666351950dd1d06af5561187421065896",
            six_to_eleven: 6,
            booleans: [true, true, true],
            tens: [2, 3, 8, 4, 5, 0],
            ints: [-35_921_106, 1_776_817_591],
            bytes: None,
            shuffled: [9, 5, 7, 8, 1, 2, 4, 3, 6, 0],
        },
    ];

    #[test]
    fn java_test_vectors() {
        for v in &VECTORS {
            let mut r = Sha1Prng::new(v.seed);
            let mut first = [0u8; 24];
            r.next_bytes(&mut first);
            assert_eq!(hex(&first), v.first_bytes, "seed {}", v.seed);

            let mut r = Sha1Prng::new(v.seed);
            assert_eq!(r.next_int_range(6, 11), v.six_to_eleven, "seed {}", v.seed);
            for b in v.booleans {
                assert_eq!(r.next_boolean(), b, "seed {}", v.seed);
            }
            for t in v.tens {
                assert_eq!(r.next_int_bounded(10), t, "seed {}", v.seed);
            }
            for i in v.ints {
                assert_eq!(r.next_int(), i, "seed {}", v.seed);
            }
            if let Some(bytes) = v.bytes {
                let mut out = [0u8; 8];
                r.next_bytes(&mut out);
                assert_eq!(hex(&out), bytes, "seed {}", v.seed);
            }

            let mut r = Sha1Prng::new(v.seed);
            let mut list: Vec<usize> = (0..10).collect();
            r.shuffle(&mut list);
            assert_eq!(list, v.shuffled, "seed {}", v.seed);
        }
    }

    #[test]
    fn bytes_do_not_depend_on_how_they_are_asked_for() {
        let mut whole = [0u8; 97];
        Sha1Prng::new(-5).next_bytes(&mut whole);
        let mut r = Sha1Prng::new(-5);
        let mut pieces = Vec::new();
        for n in [1, 3, 20, 0, 7, 19, 40, 7] {
            let mut part = vec![0u8; n];
            r.next_bytes(&mut part);
            pieces.extend(part);
        }
        assert_eq!(pieces, whole);
    }

    #[test]
    fn odd_arguments_are_harmless() {
        let mut r = Sha1Prng::new(3);
        assert_eq!(r.next_int_bounded(0), 0);
        assert_eq!(r.next_int_bounded(-4), 0);
        assert_eq!(r.next_int_range(5, 5), 5);
        assert_eq!(r.next_int_range(9, 2), 9);
        let wide = r.next_int_range(i32::MIN, i32::MAX);
        assert!(wide < i32::MAX);
        for _ in 0..100 {
            let v = r.next_int_range(-3, 4);
            assert!((-3..4).contains(&v));
            let v = r.next_int_range(6, 11);
            assert!((6..11).contains(&v));
        }
    }
}
