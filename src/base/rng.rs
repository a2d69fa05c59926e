//! The seeded generator and shuffle, specified so that any implementation can reproduce a deal.
//!
//! Generator: SplitMix64. State is a `u64` set to the seed. Each step:
//! `state += 0x9E3779B97F4A7C15` (wrapping); `z = state`;
//! `z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9`; `z = (z ^ (z >> 27)) * 0x94D049BB133111EB`
//! (wrapping); output `z ^ (z >> 31)`.
//!
//! Bounded draw `below(n)` (n ≥ 1): `limit = (2^64 - 1) - ((2^64 - 1) % n)`; draw outputs until one
//! is `< limit`, return it `% n`. (Rejection keeps it unbiased.)
//!
//! Shuffle of a list `a[0..len]`: for `i` from `len - 1` down to `1`: `j = below(i + 1)`, swap
//! `a[i]` and `a[j]` (Fisher–Yates).

/// SplitMix64, as specified in the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The current state: `Rng::new(r.state())` continues exactly where `r` is (the conformance
    /// protocol hands it to another implementation).
    pub fn state(&self) -> u64 {
        self.state
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n`; `n` must be at least 1 (0 is treated as 1).
    pub fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        // A shuffle asks for every `n` up to the deck's size: for those, the limit and the
        // remainder come from `SMALL` without a division (the same numbers, `tests` below).
        let prepared = usize::try_from(n).ok().and_then(|i| SMALL.get(i));
        let limit = prepared.map_or_else(|| u64::MAX - (u64::MAX % n), |d| d.limit);
        loop {
            let x = self.next_u64();
            if x < limit {
                return match prepared {
                    Some(d) => x - d.quotient(x) * n,
                    None => x % n,
                };
            }
        }
    }

    /// Fisher–Yates from the end, as specified in the module documentation.
    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            a.swap(i, j);
        }
    }
}

/// Division by one small `n`, prepared: the rejection limit of [`Rng::below`] and a
/// multiplier for the quotient (Granlund and Montgomery, "Division by invariant integers using
/// multiplication", 1994, figure 4.1: exact for every 64-bit dividend).
#[derive(Clone, Copy)]
struct Divisor {
    /// `(2^64 - 1) - ((2^64 - 1) % n)`.
    limit: u64,
    multiplier: u64,
    /// `min(l, 1)` and `max(l - 1, 0)`, where `l` is the least with `n <= 2^l`.
    shifts: (u32, u32),
}

impl Divisor {
    const fn new(n: u64) -> Divisor {
        let l = if n <= 1 {
            0
        } else {
            64 - (n - 1).leading_zeros()
        };
        let m = ((1u128 << 64) * ((1u128 << l) - n as u128)) / n as u128 + 1;
        Divisor {
            limit: u64::MAX - (u64::MAX % n),
            multiplier: m as u64,
            shifts: (if l == 0 { 0 } else { 1 }, if l == 0 { 0 } else { l - 1 }),
        }
    }

    /// `x / n`.
    fn quotient(&self, x: u64) -> u64 {
        let t = ((u128::from(self.multiplier) * u128::from(x)) >> 64) as u64;
        (t + ((x - t) >> self.shifts.0)) >> self.shifts.1
    }
}

/// [`Divisor`]s for `n` in `0..=256` (entry 0 unused: `below` asks for at least 1), more than
/// any built-in deck's size.
static SMALL: [Divisor; 257] = {
    let mut t = [Divisor {
        limit: 0,
        multiplier: 0,
        shifts: (0, 0),
    }; 257];
    let mut n = 1;
    while n < t.len() {
        t[n] = Divisor::new(n as u64);
        n += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned outputs: another implementation of the generator must print the same numbers.
    #[test]
    fn splitmix64_reference_values() {
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = Rng::new(42);
        let mut v: Vec<u32> = (0..10).collect();
        r.shuffle(&mut v);
        // Checked against an independent Python implementation of the specification.
        assert_eq!(v, vec![0, 9, 5, 8, 6, 4, 7, 2, 1, 3]);
    }

    /// The prepared divisions give the quotients and limits of plain division: at the edges
    /// (zero, around each multiple of `n` near both ends, the limit, the largest number) and
    /// for a stream of generator outputs, for every `n` prepared.
    #[test]
    fn prepared_division_is_division() {
        let mut r = Rng::new(7);
        for n in 1..SMALL.len() as u64 {
            let d = SMALL[n as usize];
            assert_eq!(d.limit, u64::MAX - (u64::MAX % n), "limit of {n}");
            let top = u64::MAX - u64::MAX % n;
            let edges = [
                0,
                1,
                n - 1,
                n,
                n + 1,
                2 * n - 1,
                2 * n,
                top - 1,
                top,
                u64::MAX,
            ];
            let stream = (0..20_000).map(|_| r.next_u64());
            for x in edges.into_iter().chain(stream) {
                assert_eq!(d.quotient(x), x / n, "{x} / {n}");
            }
        }
    }

    /// `below` answers as the specification's plain division does, for every `n`, prepared or
    /// not (the same numbers drawn, the same rejections).
    #[test]
    fn below_is_the_specified_draw() {
        let spec = |r: &mut Rng, n: u64| {
            let n = n.max(1);
            let limit = u64::MAX - (u64::MAX % n);
            loop {
                let x = r.next_u64();
                if x < limit {
                    return x % n;
                }
            }
        };
        let ns = (0..300).chain([1 << 20, (1 << 63) + 1, u64::MAX - 1, u64::MAX]);
        for n in ns {
            let (mut a, mut b) = (Rng::new(n), Rng::new(n));
            for _ in 0..200 {
                assert_eq!(a.below(n), spec(&mut b, n), "below({n})");
            }
            assert_eq!(a, b, "the same draws for {n}");
        }
    }
}
