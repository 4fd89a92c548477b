//! Reductions whose body folds each output with one associative op
//! ("combinable"): `yield combine(acc, x)` where `acc` is the output's
//! argument, read nowhere else, and `x` does not depend on any
//! accumulator — or an arg-reduction, a value and its index folded by
//! one comparison ([`ArgPart`]). Their iterations can be split across invocations,
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
    /// The folding op (for an arg-reduction's value, the extremum it
    /// keeps: `maximumf`/`maxsi`/`maxui` or their minimum forms; for its
    /// index, `minsi`: ties keep the smallest index).
    pub op: ArithOp,
    /// The body op applying it (its result is yielded).
    pub combine_op: TOp,
    /// The value folded in at each iteration.
    pub x: TValue,
    /// The output's element type.
    pub elem: ElemType,
    /// For the two outputs of an arg-reduction (argmax, argmin), which
    /// part this is and where the other is in the combiner list.
    pub arg: Option<ArgPart>,
}

/// A part of an arg-reduction: `(v, i) = x > v ? (x, k) : (v, i)` (or
/// `<` for argmin), folded as pairs: a partial result replaces another
/// where its value is better, or equal with a smaller index — which is
/// what the sequential fold gives over any split of the iterations (the
/// first index of the extremum; a value that never compares better, a
/// NaN, never enters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgPart {
    /// The extremum; `index` is the position of its index's combiner.
    Value {
        /// Where the index part is.
        index: usize,
    },
    /// The index; `value` is the position of its value's combiner.
    Index {
        /// Where the value part is.
        value: usize,
    },
}

impl Combiner {
    /// A combiner folding with `op` alone.
    pub fn plain(op: ArithOp, combine_op: TOp, x: TValue, elem: ElemType) -> Combiner {
        Combiner {
            op,
            combine_op,
            x,
            elem,
            arg: None,
        }
    }

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
/// folds with one associative op, or its two outputs are an
/// arg-reduction ([`ArgPart`]); `None` otherwise.
pub fn combiners(m: &TensorModule, s: &Structured) -> Option<Vec<Combiner>> {
    single_op_combiners(m, s).or_else(|| arg_combiners(m, s))
}

fn single_op_combiners(m: &TensorModule, s: &Structured) -> Option<Vec<Combiner>> {
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
        out.push(Combiner::plain(op, c, x, elem));
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

/// An arg-reduction's combiners: two outputs `(v, i)` whose body yields
/// `select(p, x, v)` and `select(p, k, i)` for `p = cmpf ogt(x, v)`
/// (`cmpi sgt`/`ugt`; `olt`/`slt`/`ult` for argmin, or the comparison
/// written the other way round), with `v` read only by the comparison
/// and its select, `i` only by its select, and neither `x` nor `k`
/// depending on them. The value is f32 or a 32-bit integer, the index a
/// 32- or 64-bit integer. An integer value may be yielded by the
/// matching extremum op instead of its select (`maxsi(x, v)` with `sgt`,
/// as torch-mlir lowers an integer argmax). torch-mlir's float argmax
/// (`maximumf(x, v)` with `ogt`) is not recognised: `maximumf` carries a
/// NaN into the value while the index stops at the last maximum before
/// it, which a split would need a third partial result to reproduce.
fn arg_combiners(m: &TensorModule, s: &Structured) -> Option<Vec<Combiner>> {
    use crate::tensor::attr::{CmpFPred, CmpIPred};
    let block = m.block(s.body);
    let n_in = s.inputs.len();
    let accs: Vec<TValue> = block.args[n_in..].to_vec();
    let [acc_a, acc_b] = accs[..] else {
        return None;
    };
    let yield_op = *block.ops.last()?;
    let yields = m.op(yield_op).operands.clone();
    let [y_a, y_b] = yields[..] else {
        return None;
    };
    // (select op, condition, taken value, kept accumulator)
    let select = |y: TValue| -> Option<(TOp, TValue, TValue, TValue)> {
        let ValueDef::Result { op, .. } = m.value(y).def else {
            return None;
        };
        match (&m.op(op).kind, m.op(op).operands.as_slice()) {
            (
                OpKind::Arith {
                    op: ArithOp::Select,
                    ..
                },
                [c, t, f],
            ) => Some((op, *c, *t, *f)),
            _ => None,
        }
    };
    // An integer value may instead be folded by its extremum op, as
    // torch-mlir writes an integer argmax (`maxsi(x, v)` beside
    // `select(x > v, k, i)`): the same values. (op, x, accumulator)
    let extremum = |y: TValue| -> Option<(TOp, ArithOp, TValue, TValue)> {
        let ValueDef::Result { op, .. } = m.value(y).def else {
            return None;
        };
        let OpKind::Arith { op: kind, .. } = m.op(op).kind else {
            return None;
        };
        if !matches!(
            kind,
            ArithOp::MaxSI | ArithOp::MinSI | ArithOp::MaxUI | ArithOp::MinUI
        ) {
            return None;
        }
        match m.op(op).operands[..] {
            [a, b] if b == acc_a || b == acc_b => Some((op, kind, a, b)),
            [a, b] if a == acc_a || a == acc_b => Some((op, kind, b, a)),
            _ => None,
        }
    };
    // The extremum op, where the value is folded by one: (output, op).
    let (sel_a, p_a, x_a, keep_a, sel_b, x_b, keep_b, by_extremum) =
        match (select(y_a), select(y_b)) {
            (Some((sa, pa, xa, ka)), Some((sb, pb, xb, kb))) if pa == pb => {
                (sa, pa, xa, ka, sb, xb, kb, None)
            }
            (Some((sa, pa, xa, ka)), None) => {
                let (sb, kind, xb, kb) = extremum(y_b)?;
                (sa, pa, xa, ka, sb, xb, kb, Some((1, kind)))
            }
            (None, Some((sb, pb, xb, kb))) => {
                let (sa, kind, xa, ka) = extremum(y_a)?;
                (sa, pb, xa, ka, sb, xb, kb, Some((0, kind)))
            }
            _ => return None,
        };
    if keep_a != acc_a || keep_b != acc_b {
        return None;
    }
    let ValueDef::Result { op: cmp, .. } = m.value(p_a).def else {
        return None;
    };
    let [l, r] = m.op(cmp).operands[..] else {
        return None;
    };
    // Which output is the value: the one compared against its own
    // accumulator; `greater` when the new element must be larger.
    let greater_of = |kind: &OpKind| -> Option<(bool, bool)> {
        // (x on the left, greater)
        match kind {
            OpKind::Arith {
                op: ArithOp::CmpF(CmpFPred::Ogt),
                ..
            }
            | OpKind::Arith {
                op: ArithOp::CmpI(CmpIPred::Sgt | CmpIPred::Ugt),
                ..
            } => Some((true, true)),
            OpKind::Arith {
                op: ArithOp::CmpF(CmpFPred::Olt),
                ..
            }
            | OpKind::Arith {
                op: ArithOp::CmpI(CmpIPred::Slt | CmpIPred::Ult),
                ..
            } => Some((true, false)),
            _ => None,
        }
    };
    let (_, greater_if_left) = greater_of(&m.op(cmp).kind)?;
    let unsigned = matches!(
        m.op(cmp).kind,
        OpKind::Arith {
            op: ArithOp::CmpI(CmpIPred::Ugt | CmpIPred::Ult),
            ..
        }
    );
    let (value, index, x, k, sel_v, sel_i, greater) = if (l, r) == (x_a, acc_a) {
        (0, 1, x_a, x_b, sel_a, sel_b, greater_if_left)
    } else if (l, r) == (acc_a, x_a) {
        (0, 1, x_a, x_b, sel_a, sel_b, !greater_if_left)
    } else if (l, r) == (x_b, acc_b) {
        (1, 0, x_b, x_a, sel_b, sel_a, greater_if_left)
    } else if (l, r) == (acc_b, x_b) {
        (1, 0, x_b, x_a, sel_b, sel_a, !greater_if_left)
    } else {
        return None;
    };
    let v_elem = m.value_kind(accs[value]).elem();
    let i_elem = m.value_kind(accs[index]).elem();
    let float = v_elem == ElemType::F32;
    if !(float || v_elem == ElemType::I32) || !matches!(i_elem, ElemType::Int(32 | 64)) {
        return None;
    }
    if float
        == matches!(
            m.op(cmp).kind,
            OpKind::Arith {
                op: ArithOp::CmpI(_),
                ..
            }
        )
    {
        return None;
    }
    // The accumulators read only where the pattern reads them.
    let mut uses = [0usize; 2];
    for &o in &block.ops {
        for &v in &m.op(o).operands {
            for (j, &a) in accs.iter().enumerate() {
                uses[j] += usize::from(v == a);
            }
        }
    }
    if uses[value] != 2 || uses[index] != 1 {
        return None;
    }
    if depends_on(m, s, x, &accs) || depends_on(m, s, k, &accs) {
        return None;
    }
    let value_op = match (float, greater, unsigned) {
        (true, true, _) => ArithOp::MaximumF,
        (true, false, _) => ArithOp::MinimumF,
        (false, true, false) => ArithOp::MaxSI,
        (false, false, false) => ArithOp::MinSI,
        (false, true, true) => ArithOp::MaxUI,
        (false, false, true) => ArithOp::MinUI,
    };
    // An extremum op must fold the value, the way the comparison does.
    if by_extremum.is_some_and(|(j, kind)| j != value || kind != value_op) {
        return None;
    }
    let mut out = vec![
        Combiner::plain(ArithOp::AddF, sel_v, x, v_elem),
        Combiner::plain(ArithOp::AddF, sel_i, k, i_elem),
    ];
    out[value] = Combiner {
        op: value_op,
        combine_op: sel_v,
        x,
        elem: v_elem,
        arg: Some(ArgPart::Value { index }),
    };
    out[index] = Combiner {
        op: ArithOp::MinSI,
        combine_op: sel_i,
        x: k,
        elem: i_elem,
        arg: Some(ArgPart::Index { value }),
    };
    Some(out)
}

/// Whether `c` folds f16/bf16 with one float op (not an arg-reduction):
/// such a reduction accumulates in f32 and rounds once at the end.
pub(crate) fn accumulates_in_f32(c: &Combiner) -> bool {
    matches!(c.elem, ElemType::F16 | ElemType::BF16)
        && c.arg.is_none()
        && matches!(
            c.op,
            ArithOp::AddF
                | ArithOp::MulF
                | ArithOp::MaximumF
                | ArithOp::MinimumF
                | ArithOp::MaxNumF
                | ArithOp::MinNumF
        )
}

/// The element type of the scratch buffer that holds output `j` of `s`
/// between dispatches (chunks, slices, partials): f32 where the reduction
/// accumulates in f32 ([`accumulates_in_f32`]), so nothing is rounded
/// before the end; else the output's own type.
pub(crate) fn scratch_elem(m: &TensorModule, s: &Structured, j: usize) -> ElemType {
    let wide = combiners(m, s).is_some_and(|cs| cs.get(j).is_some_and(accumulates_in_f32));
    if wide {
        ElemType::F32
    } else {
        m.value_kind(s.outputs[j]).elem()
    }
}
