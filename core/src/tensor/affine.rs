//! Affine maps: how a structured op's iteration space indexes its operands.
//!
//! An [`AffineMap`] `(d0, ..., dN-1)[s0, ...] -> (e0, ..., eR-1)` maps a
//! point of an N-dimensional iteration space to R coordinates; each result
//! is an [`AffineExpr`] over the dims, symbols and integer constants with
//! `+`, `*`, `floordiv`, `ceildiv` and `mod` (convolutions use
//! `d1 * 2 + d4 * 3` for strided, dilated windows).
//!
//! Expressions are built through the simplifying constructors
//! ([`AffineExpr::add`], [`AffineExpr::mul`], ...), which apply MLIR's local
//! canonicalizations (constant folding, constants on the right of `+` and
//! `*`, `x + 0 = x`, `x * 1 = x`, `(x + c1) + c2 = x + (c1 + c2)`,
//! `(x * c1) * c2 = x * (c1 * c2)`, `c1 * x + c2 * x = (c1 + c2) * x`,
//! `(x * c) floordiv d = x * (c / d)` when `d` divides `c`, ...), so the same
//! text gives the same tree as in MLIR for the forms linalg uses, and
//! printing then parsing gives back the same tree.

use std::fmt;

/// An affine expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// `dN`: an iteration-space dimension.
    Dim(u32),
    /// `sN`: a symbol.
    Symbol(u32),
    /// An integer constant.
    Const(i64),
    /// `lhs + rhs`.
    Add(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs * rhs` (one side symbolic or constant).
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs floordiv rhs` (rounds toward negative infinity).
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs ceildiv rhs` (rounds toward positive infinity).
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs mod rhs` (non-negative for a positive `rhs`).
    Mod(Box<AffineExpr>, Box<AffineExpr>),
}

use AffineExpr::*;

fn bx(e: AffineExpr) -> Box<AffineExpr> {
    Box::new(e)
}

/// `floor(a / b)` for `b != 0`.
pub(crate) fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

/// `ceil(a / b)` for `b != 0`.
pub(crate) fn ceil_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) == (b < 0)) {
        q + 1
    } else {
        q
    })
}

/// `a mod b` as MLIR defines it: `a - floor(a / b) * b`.
pub(crate) fn modulo(a: i64, b: i64) -> Option<i64> {
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    })
}

impl AffineExpr {
    /// The constant value, if this is a constant.
    pub fn as_const(&self) -> Option<i64> {
        match self {
            Const(c) => Some(*c),
            _ => None,
        }
    }

    /// The dimension position, if this is a bare `dN`.
    pub fn as_dim(&self) -> Option<u32> {
        match self {
            Dim(d) => Some(*d),
            _ => None,
        }
    }

    /// Whether the expression uses dimension `d`.
    pub fn uses_dim(&self, d: u32) -> bool {
        match self {
            Dim(x) => *x == d,
            Symbol(_) | Const(_) => false,
            Add(a, b) | Mul(a, b) | FloorDiv(a, b) | CeilDiv(a, b) | Mod(a, b) => {
                a.uses_dim(d) || b.uses_dim(d)
            }
        }
    }

    /// Whether the expression uses no dimensions.
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self {
            Dim(_) => false,
            Symbol(_) | Const(_) => true,
            Add(a, b) | Mul(a, b) | FloorDiv(a, b) | CeilDiv(a, b) | Mod(a, b) => {
                a.is_symbolic_or_constant() && b.is_symbolic_or_constant()
            }
        }
    }

    /// The largest integer known to divide every value of the expression.
    fn largest_known_divisor(&self) -> i64 {
        match self {
            Const(c) => c.checked_abs().unwrap_or(1).max(1),
            Mul(a, b) => a
                .largest_known_divisor()
                .saturating_mul(b.largest_known_divisor()),
            Add(a, b) => gcd(a.largest_known_divisor(), b.largest_known_divisor()),
            _ => 1,
        }
    }

    /// `lhs + rhs`, simplified as MLIR's `simplifyAdd` does.
    #[allow(
        clippy::should_implement_trait,
        reason = "a constructor, not an operator on references"
    )]
    pub fn add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (lhs.as_const(), rhs.as_const()) {
            // A sum past i64 stays unfolded (its evaluation reports the
            // overflow); the rules below would swap its sides forever.
            return match a.checked_add(b) {
                Some(s) => Const(s),
                None => Add(bx(lhs), bx(rhs)),
            };
        }
        if lhs.as_const().is_some()
            || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant())
        {
            return AffineExpr::add(rhs, lhs);
        }
        if rhs.as_const() == Some(0) {
            return lhs;
        }
        // (x + c1) + c2 -> x + (c1 + c2).
        if let (Add(x, c1), Some(c2)) = (&lhs, rhs.as_const()) {
            if let Some(c1) = c1.as_const() {
                if let Some(s) = c1.checked_add(c2) {
                    return AffineExpr::add((**x).clone(), Const(s));
                }
            }
        }
        // c1 * x + c2 * x -> (c1 + c2) * x.
        let split = |e: &AffineExpr| -> (AffineExpr, i64) {
            if let Mul(x, c) = e {
                if let Some(c) = c.as_const() {
                    return ((**x).clone(), c);
                }
            }
            (e.clone(), 1)
        };
        let (x1, c1) = split(&lhs);
        let (x2, c2) = split(&rhs);
        if x1 == x2 {
            if let Some(c) = c1.checked_add(c2) {
                return AffineExpr::mul(x1, Const(c));
            }
        }
        // (x + c) + y -> (x + y) + c, for a y that is not a constant (a
        // constant whose sum with c overflows stays where it is).
        if let Add(x, c) = &lhs {
            if c.as_const().is_some() && rhs.as_const().is_none() {
                return AffineExpr::add(AffineExpr::add((**x).clone(), rhs), (**c).clone());
            }
        }
        Add(bx(lhs), bx(rhs))
    }

    /// `lhs * rhs`, simplified as MLIR's `simplifyMul` does.
    #[allow(
        clippy::should_implement_trait,
        reason = "a constructor, not an operator on references"
    )]
    pub fn mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (lhs.as_const(), rhs.as_const()) {
            // A product past i64 stays unfolded (its evaluation reports
            // the overflow); the rules below would swap its sides forever.
            return match a.checked_mul(b) {
                Some(p) => Const(p),
                None => Mul(bx(lhs), bx(rhs)),
            };
        }
        if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
            return Mul(bx(lhs), bx(rhs));
        }
        if !rhs.is_symbolic_or_constant() || lhs.as_const().is_some() {
            return AffineExpr::mul(rhs, lhs);
        }
        match rhs.as_const() {
            Some(1) => return lhs,
            Some(0) => return rhs,
            _ => {}
        }
        if let Mul(x, c1) = &lhs {
            if let Some(c1) = c1.as_const() {
                match rhs.as_const() {
                    // (x * c1) * c2 -> x * (c1 * c2), where that fits.
                    Some(c2) => {
                        if let Some(p) = c1.checked_mul(c2) {
                            return AffineExpr::mul((**x).clone(), Const(p));
                        }
                    }
                    // (x * c) * y -> (x * y) * c.
                    None => return AffineExpr::mul(AffineExpr::mul((**x).clone(), rhs), Const(c1)),
                }
            }
        }
        Mul(bx(lhs), bx(rhs))
    }

    /// `lhs - rhs` (`lhs + rhs * -1`).
    #[allow(
        clippy::should_implement_trait,
        reason = "a constructor, not an operator on references"
    )]
    pub fn sub(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::add(lhs, AffineExpr::mul(rhs, Const(-1)))
    }

    /// `-e` (`e * -1`).
    #[allow(
        clippy::should_implement_trait,
        reason = "a constructor, not an operator on references"
    )]
    pub fn neg(e: AffineExpr) -> AffineExpr {
        AffineExpr::mul(e, Const(-1))
    }

    /// `lhs floordiv rhs`, simplified.
    pub fn floor_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        if let Some(d) = rhs.as_const().filter(|&d| d >= 1) {
            if let Some(a) = lhs.as_const() {
                if let Some(q) = floor_div(a, d) {
                    return Const(q);
                }
            }
            if d == 1 {
                return lhs;
            }
            if let Mul(x, c) = &lhs {
                if let Some(c) = c.as_const().filter(|c| c % d == 0) {
                    return AffineExpr::mul((**x).clone(), Const(c / d));
                }
            }
        }
        FloorDiv(bx(lhs), bx(rhs))
    }

    /// `lhs ceildiv rhs`, simplified.
    pub fn ceil_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        if let Some(d) = rhs.as_const().filter(|&d| d >= 1) {
            if let Some(a) = lhs.as_const() {
                if let Some(q) = ceil_div(a, d) {
                    return Const(q);
                }
            }
            if d == 1 {
                return lhs;
            }
            if let Mul(x, c) = &lhs {
                if let Some(c) = c.as_const().filter(|c| c % d == 0) {
                    return AffineExpr::mul((**x).clone(), Const(c / d));
                }
            }
        }
        CeilDiv(bx(lhs), bx(rhs))
    }

    /// `lhs mod rhs`, simplified.
    pub fn modulo(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        if let Some(d) = rhs.as_const().filter(|&d| d >= 1) {
            if let Some(a) = lhs.as_const() {
                if let Some(r) = modulo(a, d) {
                    return Const(r);
                }
            }
            if lhs.largest_known_divisor() % d == 0 {
                return Const(0);
            }
            if let Mod(x, c) = &lhs {
                if c.as_const().is_some_and(|c| c % d == 0) {
                    return AffineExpr::modulo((**x).clone(), rhs);
                }
            }
        }
        Mod(bx(lhs), bx(rhs))
    }

    /// The value at a point (`None` on division by zero or overflow).
    pub fn eval(&self, dims: &[i64], syms: &[i64]) -> Option<i64> {
        Some(match self {
            Dim(d) => *dims.get(*d as usize)?,
            Symbol(s) => *syms.get(*s as usize)?,
            Const(c) => *c,
            Add(a, b) => a.eval(dims, syms)?.checked_add(b.eval(dims, syms)?)?,
            Mul(a, b) => a.eval(dims, syms)?.checked_mul(b.eval(dims, syms)?)?,
            FloorDiv(a, b) => floor_div(a.eval(dims, syms)?, b.eval(dims, syms)?)?,
            CeilDiv(a, b) => ceil_div(a.eval(dims, syms)?, b.eval(dims, syms)?)?,
            Mod(a, b) => modulo(a.eval(dims, syms)?, b.eval(dims, syms)?)?,
        })
    }

    /// The expression as `Σ coeffs[d] * dd + constant` when it is linear
    /// in the dims (no symbols, divisions or modulos): the form of
    /// permutations, projections, broadcasts and convolution windows.
    pub fn linear(&self, num_dims: usize) -> Option<(Vec<i64>, i64)> {
        match self {
            Dim(d) => {
                let mut c = vec![0; num_dims];
                *c.get_mut(*d as usize)? = 1;
                Some((c, 0))
            }
            Const(k) => Some((vec![0; num_dims], *k)),
            Add(a, b) => {
                let (ca, ka) = a.linear(num_dims)?;
                let (cb, kb) = b.linear(num_dims)?;
                let c = ca
                    .iter()
                    .zip(&cb)
                    .map(|(x, y)| x.checked_add(*y))
                    .collect::<Option<Vec<_>>>()?;
                Some((c, ka.checked_add(kb)?))
            }
            Mul(a, b) => {
                let (e, k) = match (a.as_const(), b.as_const()) {
                    (_, Some(k)) => (a, k),
                    (Some(k), _) => (b, k),
                    _ => return None,
                };
                let (c, off) = e.linear(num_dims)?;
                let c = c
                    .iter()
                    .map(|x| x.checked_mul(k))
                    .collect::<Option<Vec<_>>>()?;
                Some((c, off.checked_mul(k)?))
            }
            _ => None,
        }
    }

    /// The largest dim and symbol positions used, plus one.
    fn arity(&self) -> (u32, u32) {
        match self {
            Dim(d) => (d + 1, 0),
            Symbol(s) => (0, s + 1),
            Const(_) => (0, 0),
            Add(a, b) | Mul(a, b) | FloorDiv(a, b) | CeilDiv(a, b) | Mod(a, b) => {
                let (da, sa) = a.arity();
                let (db, sb) = b.arity();
                (da.max(db), sa.max(sb))
            }
        }
    }

    fn print(&self, f: &mut fmt::Formatter<'_>, strong: bool) -> fmt::Result {
        let (op, a, b) = match self {
            Dim(d) => return write!(f, "d{d}"),
            Symbol(s) => return write!(f, "s{s}"),
            Const(c) => return write!(f, "{c}"),
            Add(a, b) => ("+", a, b),
            Mul(a, b) => ("*", a, b),
            FloorDiv(a, b) => ("floordiv", a, b),
            CeilDiv(a, b) => ("ceildiv", a, b),
            Mod(a, b) => ("mod", a, b),
        };
        if strong {
            f.write_str("(")?;
        }
        if op != "+" {
            if op == "*" && b.as_const() == Some(-1) {
                f.write_str("-")?;
                a.print(f, true)?;
            } else {
                a.print(f, true)?;
                write!(f, " {op} ")?;
                b.print(f, true)?;
            }
        } else {
            a.print(f, false)?;
            match &**b {
                Mul(x, c) if c.as_const() == Some(-1) => {
                    f.write_str(" - ")?;
                    x.print(f, matches!(**x, Add(..)))?;
                }
                Mul(x, c) if c.as_const().is_some_and(|c| c < -1 && c != i64::MIN) => {
                    f.write_str(" - ")?;
                    x.print(f, true)?;
                    write!(f, " * {}", -c.as_const().unwrap_or(0))?;
                }
                Const(c) if *c < 0 && *c != i64::MIN => write!(f, " - {}", -c)?,
                other => {
                    f.write_str(" + ")?;
                    // A right-nested sum keeps its parentheses so the text
                    // parses back to the same tree.
                    other.print(f, matches!(other, Add(..)))?;
                }
            }
        }
        if strong {
            f.write_str(")")?;
        }
        Ok(())
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(1).max(1)
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.print(f, false)
    }
}

/// An affine map `(d0, ...)[s0, ...] -> (results)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// The number of dimensions (the iteration space's rank).
    pub num_dims: u32,
    /// The number of symbols.
    pub num_symbols: u32,
    /// One expression per result coordinate.
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// A map; every dim and symbol used by `results` must be below
    /// `num_dims` / `num_symbols` (see [`AffineMap::is_well_formed`]).
    pub fn new(num_dims: u32, num_symbols: u32, results: Vec<AffineExpr>) -> AffineMap {
        AffineMap {
            num_dims,
            num_symbols,
            results,
        }
    }

    /// `(d0, ..., dn-1) -> (d0, ..., dn-1)`.
    pub fn identity(n: u32) -> AffineMap {
        AffineMap::new(n, 0, (0..n).map(Dim).collect())
    }

    /// `(d0, ..., dn-1) -> (d[dims[0]], d[dims[1]], ...)`: a permutation,
    /// projection or broadcast.
    pub fn select(n: u32, dims: &[u32]) -> AffineMap {
        AffineMap::new(n, 0, dims.iter().map(|&d| Dim(d)).collect())
    }

    /// The number of results.
    pub fn num_results(&self) -> usize {
        self.results.len()
    }

    /// Whether every dim and symbol used is declared.
    pub fn is_well_formed(&self) -> bool {
        self.results.iter().all(|e| {
            let (d, s) = e.arity();
            d <= self.num_dims && s <= self.num_symbols
        })
    }

    /// Whether every result is a distinct bare dim (a permutation of a
    /// subset of the dims: identities, transposes, projections).
    pub fn is_projected_permutation(&self) -> bool {
        let mut seen = vec![false; self.num_dims as usize];
        self.results.iter().all(|e| match e.as_dim() {
            Some(d) if (d as usize) < seen.len() && !seen[d as usize] => {
                seen[d as usize] = true;
                true
            }
            _ => false,
        })
    }

    /// Whether this is the identity map.
    pub fn is_identity(&self) -> bool {
        self.num_symbols == 0
            && self.results.len() == self.num_dims as usize
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, e)| e.as_dim() == Some(i as u32))
    }

    /// The coordinates of the point `dims` (no symbols).
    pub fn eval(&self, dims: &[i64]) -> Option<Vec<i64>> {
        self.results.iter().map(|e| e.eval(dims, &[])).collect()
    }

    /// The map in MLIR's syntax: `affine_map<(d0, d1) -> (d1, d0)>`.
    pub fn to_text(&self) -> String {
        format!("affine_map<{self}>")
    }
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for d in 0..self.num_dims {
            if d > 0 {
                f.write_str(", ")?;
            }
            write!(f, "d{d}")?;
        }
        f.write_str(")")?;
        if self.num_symbols > 0 {
            f.write_str("[")?;
            for s in 0..self.num_symbols {
                if s > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "s{s}")?;
            }
            f.write_str("]")?;
        }
        f.write_str(" -> (")?;
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(i: u32) -> AffineExpr {
        Dim(i)
    }

    #[test]
    fn canonical_forms_print_as_mlir_does() {
        // The forms and texts mlir-opt-19 gives for `2 * d0 + d1`,
        // `3 + d0`, `d0 * 1`, `4 * 2`, `d0 * -1 + 3`, `d0 - d1`, `(d0 * 2) mod 4`.
        let e = AffineExpr::add(AffineExpr::mul(Const(2), d(0)), d(1));
        assert_eq!(e.to_string(), "d0 * 2 + d1");
        assert_eq!(AffineExpr::add(Const(3), d(0)).to_string(), "d0 + 3");
        assert_eq!(AffineExpr::mul(d(0), Const(1)).to_string(), "d0");
        assert_eq!(AffineExpr::mul(Const(4), Const(2)).to_string(), "8");
        let e = AffineExpr::add(AffineExpr::mul(d(0), Const(-1)), Const(3));
        assert_eq!(e.to_string(), "-d0 + 3");
        assert_eq!(AffineExpr::sub(d(0), d(1)).to_string(), "d0 - d1");
        let e = AffineExpr::modulo(AffineExpr::mul(d(0), Const(2)), Const(4));
        assert_eq!(e.to_string(), "(d0 * 2) mod 4");
        assert_eq!(AffineExpr::add(d(0), d(0)).to_string(), "d0 * 2");
        assert_eq!(
            AffineExpr::sub(AffineExpr::mul(d(0), Const(2)), Const(1)).to_string(),
            "d0 * 2 - 1"
        );
    }

    /// Constants whose sum or product is past i64 stay unfolded: the
    /// simplifier swapped the sides of such a pair forever (a stack
    /// overflow on `(d0, d1) -> (d0, 9223372036854775807 * 2)`, found by
    /// fuzzing `tensor_eval`), and re-associated `(d0 * c1) * c2` and
    /// `(d0 + c1) + c2` back and forth.
    #[test]
    fn constants_past_i64_stay_unfolded() {
        let max = Const(i64::MAX);
        let e = AffineExpr::mul(max.clone(), Const(2));
        assert_eq!(e.to_string(), "9223372036854775807 * 2");
        assert_eq!(e.eval(&[], &[]), None);
        let e = AffineExpr::add(max.clone(), Const(1));
        assert_eq!(e.eval(&[], &[]), None);
        let e = AffineExpr::mul(AffineExpr::mul(d(0), max.clone()), Const(2));
        assert_eq!(e.eval(&[1], &[]), None);
        assert_eq!(e.eval(&[0], &[]), Some(0));
        let e = AffineExpr::add(AffineExpr::add(d(0), max.clone()), Const(1));
        assert_eq!(e.eval(&[0], &[]), None);
        assert_eq!(e.eval(&[-1], &[]), Some(i64::MAX));
        let e = AffineExpr::sub(Const(i64::MIN), Const(1));
        assert_eq!(e.eval(&[], &[]), None);
    }

    #[test]
    fn division_semantics() {
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(ceil_div(-7, 2), Some(-3));
        assert_eq!(modulo(-7, 3), Some(2));
        let e = AffineExpr::floor_div(d(0), Const(2));
        assert_eq!(e.eval(&[-3], &[]), Some(-2));
        let e = AffineExpr::add(
            AffineExpr::mul(d(1), Const(2)),
            AffineExpr::mul(d(4), Const(3)),
        );
        assert_eq!(e.linear(5), Some((vec![0, 2, 0, 0, 3], 0)));
    }
}
