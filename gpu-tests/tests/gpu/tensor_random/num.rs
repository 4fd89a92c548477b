//! Element types of random programs and what is known of a value's
//! elements ([`Num`]): a bound on their magnitude, whether every engine
//! must compute them exactly, and otherwise how far two engines' results
//! may drift apart (the error model the comparison uses).
//!
//! The error model: a float value is *exact* when it is a dyadic rational
//! `k / 2^frac` with `|k| < 2^(mantissa + 1)` computed only by operations
//! whose result is representable (adds, subtracts, multiplies, max/min,
//! negation, floor, selects, data movement, sums and matmuls of such
//! values): then every engine, in any summation order and with or without
//! fused multiply-adds, gives the same bits, and results are compared
//! exactly. Any other float value carries `err`, a bound on its absolute
//! distance from the value computed in exact arithmetic: each rounding
//! adds one ulp of the result's bound (`bound * 2^-mantissa`), and errors
//! propagate by the usual first-order rules (sums add them, a product
//! scales each by the other's bound). Two engines may then differ by
//! `2 * err`; the comparison allows a further factor for the
//! transcendental functions' documented precision (see `compare.rs`).
//! Integers always wrap the same way: exact.

use kiln_core::tensor::types::ElemType;

/// An element type of a random program.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    F32,
    F16,
    BF16,
    F64,
    I64,
    I32,
    I16,
    I8,
    I1,
}

impl Ty {
    /// The MLIR spelling.
    pub fn name(self) -> &'static str {
        match self {
            Ty::F32 => "f32",
            Ty::F16 => "f16",
            Ty::BF16 => "bf16",
            Ty::F64 => "f64",
            Ty::I64 => "i64",
            Ty::I32 => "i32",
            Ty::I16 => "i16",
            Ty::I8 => "i8",
            Ty::I1 => "i1",
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F16 | Ty::BF16 | Ty::F64)
    }

    /// Mantissa bits of a float type.
    pub fn mant(self) -> i32 {
        match self {
            Ty::F16 => 10,
            Ty::BF16 => 7,
            Ty::F64 => 52,
            _ => 23,
        }
    }

    /// Bit width of an integer type.
    pub fn width(self) -> u32 {
        match self {
            Ty::I64 | Ty::F64 => 64,
            Ty::I32 | Ty::F32 => 32,
            Ty::I16 | Ty::F16 | Ty::BF16 => 16,
            Ty::I8 => 8,
            Ty::I1 => 1,
        }
    }

    /// The largest magnitude a value may reach: for integers the type's
    /// range, for floats a margin below overflow (a bound past it would let
    /// one engine overflow where another does not).
    pub fn limit(self) -> f64 {
        match self {
            Ty::F32 | Ty::BF16 => 1e30,
            Ty::F64 => 1e200,
            Ty::F16 => 3e4,
            Ty::I1 => 1.0,
            _ => 2f64.powi(self.width() as i32 - 1),
        }
    }

    pub fn elem(self) -> ElemType {
        match self {
            Ty::F32 => ElemType::F32,
            Ty::F16 => ElemType::F16,
            Ty::BF16 => ElemType::BF16,
            Ty::F64 => ElemType::F64,
            Ty::I64 => ElemType::I64,
            Ty::I32 => ElemType::I32,
            Ty::I16 => ElemType::I16,
            Ty::I8 => ElemType::I8,
            Ty::I1 => ElemType::I1,
        }
    }
}

/// What is known of a value's elements (see the module's error model).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num {
    /// Every finite element's magnitude is at most this.
    pub bound: f64,
    /// Exact floats are multiples of `2^-frac`.
    pub frac: i32,
    /// Every engine gives the same bits.
    pub exact: bool,
    /// For inexact floats: the absolute error bound.
    pub err: f64,
}

impl Num {
    /// An exact value of magnitude at most `bound`, multiple of `2^-frac`.
    pub fn exact(bound: f64, frac: i32) -> Num {
        Num {
            bound,
            frac,
            exact: true,
            err: 0.0,
        }
    }

    /// A float value known only within `err`.
    pub fn inexact(bound: f64, err: f64) -> Num {
        Num {
            bound,
            frac: 0,
            exact: false,
            err,
        }
    }

    /// One ulp of this bound in `ty`.
    pub fn ulp(bound: f64, ty: Ty) -> f64 {
        bound.max(2f64.powi(-14)) * 2f64.powi(-ty.mant())
    }

    /// The result of an operation of type `ty` that computed `self` in
    /// exact arithmetic, then rounded it: exact if it still fits the
    /// mantissa, else one more rounding error. Integers are exact and
    /// bounded by their type.
    pub fn settle(mut self, ty: Ty) -> Num {
        if !ty.is_float() {
            return Num::exact(self.bound.min(ty.limit()), 0);
        }
        if self.exact && self.bound * 2f64.powi(self.frac) > 2f64.powi(ty.mant() + 1) {
            self.exact = false;
        }
        if !self.exact {
            self.frac = 0;
            self.err += Num::ulp(self.bound, ty);
        }
        self
    }

    /// `a + b` or `a - b`.
    pub fn add(a: Num, b: Num, ty: Ty) -> Num {
        Num {
            bound: a.bound + b.bound,
            frac: a.frac.max(b.frac),
            exact: a.exact && b.exact,
            err: a.err + b.err,
        }
        .settle(ty)
    }

    /// `a * b`.
    pub fn mul(a: Num, b: Num, ty: Ty) -> Num {
        Num {
            bound: a.bound * b.bound,
            frac: a.frac + b.frac,
            exact: a.exact && b.exact,
            err: a.bound * b.err + b.bound * a.err + a.err * b.err,
        }
        .settle(ty)
    }

    /// A sum of `n` terms, each `term`, in any order.
    pub fn sum(term: Num, n: usize, ty: Ty) -> Num {
        let n = n.max(1) as f64;
        let mut r = Num {
            bound: term.bound * n,
            frac: term.frac,
            exact: term.exact,
            err: term.err * n,
        };
        if r.exact && r.bound * 2f64.powi(r.frac) > 2f64.powi(ty.mant() + 1) {
            r.exact = false;
        }
        if !r.exact && ty.is_float() {
            // Every partial sum rounds: n roundings of the final bound.
            r.frac = 0;
            r.err += n * Num::ulp(r.bound, ty);
        }
        if !ty.is_float() {
            return Num::exact(r.bound.min(ty.limit()), 0);
        }
        r
    }

    /// Either of two values (max, min, select).
    pub fn either(a: Num, b: Num) -> Num {
        Num {
            bound: a.bound.max(b.bound),
            frac: a.frac.max(b.frac),
            exact: a.exact && b.exact,
            err: a.err.max(b.err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Num, Ty};

    #[test]
    fn exactness_ends_where_the_mantissa_does() {
        let small = Num::exact(1000.0, 2);
        assert!(Num::add(small, small, Ty::F32).exact);
        // 2000 * 4 = 8000 > 2^11: not exact in f16.
        assert!(!Num::add(small, small, Ty::F16).exact);
        let big = Num::mul(Num::exact(4096.0, 0), Num::exact(4096.0, 0), Ty::F32);
        assert!(big.exact, "2^24 is representable");
        let bigger = Num::mul(big, Num::exact(4.0, 0), Ty::F32);
        assert!(!bigger.exact && bigger.err > 0.0);
        assert!(Num::sum(Num::exact(4.0, 0), 1000, Ty::F32).exact);
        assert_eq!(Num::add(big, big, Ty::I8).bound, 128.0);
    }
}
