//! Reductions whose body folds each output with one associative op
//! ("combinable"): `yield combine(acc, x)` where `acc` is the output's
//! argument, read nowhere else, and `x` does not depend on any
//! accumulator. Their iterations can be split across invocations,
//! workgroups and dispatches and the partial results combined with the
//! same op (in another order than the reference's sequential fold: exact
//! for integers and for floats whose partial sums are representable,
//! within rounding otherwise).

use crate::tensor::eval::Scalar;
use crate::tensor::ops::{ArithOp, OpKind};
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue, TensorModule, ValueDef};

/// How one output of a combinable reduction folds.
#[derive(Clone, Debug, PartialEq)]
pub struct Combiner {
    /// The folding op.
    pub op: ArithOp,
    /// The body op applying it (its result is yielded).
    pub combine_op: TOp,
    /// The value folded in at each iteration.
    pub x: TValue,
    /// The output's element type.
    pub elem: ElemType,
}

impl Combiner {
    /// The identity of the op in `elem` (`-0.0` for `addf`: `-0 + x = x`
    /// for every `x`).
    pub fn identity(&self) -> Scalar {
        let e = self.elem;
        let bits = e.bits();
        match self.op {
            ArithOp::AddF => Scalar::Float(-0.0),
            ArithOp::MulF => Scalar::Float(1.0),
            ArithOp::MaxNumF | ArithOp::MaximumF => Scalar::Float(f64::NEG_INFINITY),
            ArithOp::MinNumF | ArithOp::MinimumF => Scalar::Float(f64::INFINITY),
            ArithOp::MulI => Scalar::Int(1),
            ArithOp::AndI | ArithOp::MinUI => Scalar::Int(-1),
            ArithOp::MaxSI => Scalar::Int(if bits >= 64 {
                i64::MIN
            } else {
                -(1i64 << (bits - 1))
            }),
            ArithOp::MinSI => Scalar::Int(if bits >= 64 {
                i64::MAX
            } else {
                (1i64 << (bits - 1)) - 1
            }),
            _ => Scalar::Int(0),
        }
    }

    /// The `gpu.subgroup_reduce` kind of the op.
    pub fn subgroup_kind(&self) -> &'static str {
        match self.op {
            ArithOp::AddF | ArithOp::AddI => "add",
            ArithOp::MulF | ArithOp::MulI => "mul",
            ArithOp::MaxNumF => "maxnumf",
            ArithOp::MaximumF => "maximumf",
            ArithOp::MinNumF => "minnumf",
            ArithOp::MinimumF => "minimumf",
            ArithOp::MaxSI => "maxsi",
            ArithOp::MinSI => "minsi",
            ArithOp::MaxUI => "maxui",
            ArithOp::MinUI => "minui",
            ArithOp::AndI => "and",
            ArithOp::OrI => "or",
            _ => "xor",
        }
    }

    /// Whether narrow integers widen with zero extension for this op.
    pub fn unsigned(&self) -> bool {
        matches!(self.op, ArithOp::MaxUI | ArithOp::MinUI)
    }
}

fn is_combining(op: ArithOp) -> bool {
    use ArithOp::*;
    matches!(
        op,
        AddF | MulF
            | MaxNumF
            | MaximumF
            | MinNumF
            | MinimumF
            | AddI
            | MulI
            | AndI
            | OrI
            | XOrI
            | MaxSI
            | MinSI
            | MaxUI
            | MinUI
    )
}

/// The combiners of structured op `s` (one per output), when every output
/// folds with one associative op; `None` otherwise.
pub fn combiners(m: &TensorModule, s: &Structured) -> Option<Vec<Combiner>> {
    let block = m.block(s.body);
    let n_in = s.inputs.len();
    let accs: Vec<TValue> = block.args[n_in..].to_vec();
    let yield_op = *block.ops.last()?;
    let yields = &m.op(yield_op).operands;
    let mut out = Vec::new();
    for (j, &y) in yields.iter().enumerate() {
        let acc = *accs.get(j)?;
        let ValueDef::Result { op: c, .. } = m.value(y).def else {
            return None;
        };
        let OpKind::Arith { op, .. } = m.op(c).kind else {
            return None;
        };
        if !is_combining(op) {
            return None;
        }
        let ops = &m.op(c).operands;
        let x = match ops.as_slice() {
            [a, b] if *a == acc && *b != acc => *b,
            [a, b] if *b == acc && *a != acc => *a,
            _ => return None,
        };
        // acc read only by c; c's result only yielded (once).
        let mut acc_uses = 0;
        let mut c_uses = 0;
        for &o in &block.ops {
            for &v in &m.op(o).operands {
                acc_uses += usize::from(v == acc);
                c_uses += usize::from(v == y);
            }
        }
        if acc_uses != 1 || c_uses != 1 {
            return None;
        }
        let elem = m.value_kind(acc).elem();
        if elem == ElemType::I1 || elem == ElemType::Index {
            return None;
        }
        out.push(Combiner {
            op,
            combine_op: c,
            x,
            elem,
        });
    }
    // No x may depend on an accumulator.
    for c in &out {
        if depends_on(m, s, c.x, &accs) {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

fn depends_on(m: &TensorModule, s: &Structured, v: TValue, accs: &[TValue]) -> bool {
    if accs.contains(&v) {
        return true;
    }
    match m.value(v).def {
        ValueDef::Result { op, .. } if m.op(op).parent == Some(s.body) => {
            m.op(op).operands.iter().any(|&o| depends_on(m, s, o, accs))
        }
        _ => false,
    }
}
