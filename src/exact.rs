//! Sums of floating-point values that do not depend on the order of the values: each value is
//! counted in units of 2⁻⁷⁰ as an integer, so a sum over rows read in any order (a frames
//! directory in parts, shards merged) is the same to the last bit.
//!
//! Invariant: a value of magnitude 2⁻¹⁸ or more is counted exactly; a smaller one to the
//! nearest unit. An `i128` holds the sum of 2⁴⁷ values below 1024.

/// Units per 1: 2^70.
const UNIT: f64 = 1_180_591_620_717_411_303_424.0;

/// An order-independent sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExactSum(i128);

impl ExactSum {
    /// Adds `x` (finite, below 1024 in magnitude).
    pub(crate) fn add(&mut self, x: f64) {
        self.0 += (x * UNIT).round() as i128;
    }

    /// The sum.
    pub(crate) fn value(self) -> f64 {
        self.0 as f64 / UNIT
    }

    /// The sum in units (for a file that keeps it).
    pub(crate) fn units(self) -> i128 {
        self.0
    }

    /// The sum of `units` units.
    pub(crate) fn from_units(units: i128) -> ExactSum {
        ExactSum(units)
    }
}

impl std::ops::AddAssign for ExactSum {
    fn add_assign(&mut self, o: ExactSum) {
        self.0 += o.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same values summed in two orders give the same bits, where f64 addition does not:
    /// 0.1 + 0.2 + 0.3 = 0.6000000000000001 but 0.3 + 0.2 + 0.1 = 0.6.
    #[test]
    fn the_order_does_not_matter() {
        let xs = [0.1, 0.2, 0.3, 1e-9, 17.25];
        let (mut a, mut b) = (ExactSum::default(), ExactSum::default());
        xs.iter().for_each(|&x| a.add(x));
        xs.iter().rev().for_each(|&x| b.add(x));
        assert_eq!(a, b);
        assert_ne!(0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1);
        assert!((a.value() - 17.850000001).abs() < 1e-15);
        let mut c = ExactSum::default();
        c.add(0.25);
        c += ExactSum::from_units(a.units());
        assert_eq!(c.value(), a.value() + 0.25);
    }
}
