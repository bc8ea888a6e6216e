//! Exact non-negative fractions for throughput figures (Definition 23.1.10).

use std::cmp::Ordering;
use std::fmt;

/// A reduced fraction `num / den` with `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u64,
    den: u64,
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `num / den`, reduced. A zero denominator is treated as `0/1`.
    pub fn new(num: u64, den: u64) -> Ratio {
        if den == 0 {
            return Ratio { num: 0, den: 1 };
        }
        let g = gcd(num, den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// The integer `n` as a fraction.
    pub fn int(n: u64) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    /// The numerator, in lowest terms.
    pub fn num(self) -> u64 {
        self.num
    }

    /// The denominator, in lowest terms (at least 1).
    pub fn den(self) -> u64 {
        self.den
    }

    /// The smallest integer not below the fraction.
    pub fn ceil(self) -> u64 {
        self.num.div_ceil(self.den)
    }

    /// The nearest `f64` (for plots and benchmarks, never for comparisons).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// `5/2` style, or `3` for integers (the JSON form).
    pub fn fraction_string(self) -> String {
        if self.den == 1 {
            self.num.to_string()
        } else {
            format!("{}/{}", self.num, self.den)
        }
    }

    /// llvm-mca's one-decimal form: `2.5`, `16.0`.
    pub fn decimal1(self) -> String {
        // Round half up on exact integers: (10*num + den/2) / den tenths.
        let tenths = (10 * self.num as u128 * 2 + self.den as u128) / (2 * self.den as u128);
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.num as u128 * other.den as u128).cmp(&(other.num as u128 * self.den as u128))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fraction_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_and_orders() {
        assert_eq!(Ratio::new(10, 4), Ratio::new(5, 2));
        assert_eq!(Ratio::new(10, 4).fraction_string(), "5/2");
        assert_eq!(Ratio::new(16, 1).decimal1(), "16.0");
        assert_eq!(Ratio::new(5, 2).decimal1(), "2.5");
        assert_eq!(Ratio::new(5, 3).decimal1(), "1.7");
        assert!(Ratio::new(5, 2) > Ratio::new(7, 3));
        assert_eq!(Ratio::new(7, 3).ceil(), 3);
        assert_eq!(Ratio::new(6, 3).ceil(), 2);
    }
}
