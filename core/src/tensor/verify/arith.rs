//! `arith` and `math` ops: on scalars, or elementwise on tensors of one
//! shape.

use super::Verifier;
use crate::tensor::entity::{TOp, TType};
use crate::tensor::ops::{Accepts, ArithOp, MathOp, Signature};
use crate::tensor::types::{ElemType, TypeKind};

impl Verifier<'_> {
    /// Whether `e` is an element type `acc` allows.
    fn accepts(acc: Accepts, e: ElemType) -> bool {
        match acc {
            Accepts::Float => e.is_float(),
            Accepts::Int => e.is_int_or_index(),
            Accepts::Any => true,
        }
    }

    fn accepts_text(acc: Accepts) -> &'static str {
        match acc {
            Accepts::Float => "floating-point-like",
            Accepts::Int => "signless-integer-like",
            Accepts::Any => "any",
        }
    }

    /// The shape of a scalar or tensor type (`None` for scalars).
    fn shape_of(&self, t: TType) -> Option<Vec<crate::tensor::types::Dim>> {
        self.m.ty(t).tensor_shape().map(<[_]>::to_vec)
    }

    pub(crate) fn arith(&mut self, op: TOp, a: ArithOp) {
        let data = self.m.op(op).clone();
        let Some(&result) = data.results.first() else {
            self.error(op, "expected one result");
            return;
        };
        let rt = self.m.value_type(result);
        if matches!(self.m.ty(rt), TypeKind::Vector { .. }) {
            self.error(op, "vector operands are not supported");
            return;
        }
        let operand_types: Vec<TType> = data
            .operands
            .iter()
            .map(|&v| self.m.value_type(v))
            .collect();
        match a.signature() {
            Signature::Same(n) => {
                if operand_types.len() != n || operand_types.iter().any(|&t| t != rt) {
                    self.error(
                        op,
                        format!(
                            "requires all operands and the result to have the same type ({})",
                            self.ty(rt)
                        ),
                    );
                    return;
                }
                let e = self.m.ty(rt).elem();
                if !Self::accepts(a.accepts(), e) {
                    self.error(
                        op,
                        format!(
                            "operand #0 must be {}, but got '{}'",
                            Self::accepts_text(a.accepts()),
                            self.ty(rt)
                        ),
                    );
                }
            }
            Signature::Compare => {
                let [x, y] = operand_types[..] else {
                    self.error(op, "expected two operands");
                    return;
                };
                if x != y {
                    self.error(op, "requires both operands to have the same type");
                }
                let e = self.m.ty(x).elem();
                if !Self::accepts(a.accepts(), e) {
                    self.error(
                        op,
                        format!(
                            "operand #0 must be {}, but got '{}'",
                            Self::accepts_text(a.accepts()),
                            self.ty(x)
                        ),
                    );
                }
                if self.m.ty(rt).elem() != ElemType::I1 || self.shape_of(rt) != self.shape_of(x) {
                    self.error(
                        op,
                        format!(
                            "result #0 must be i1 of the operands' shape, but got {}",
                            self.ty(rt)
                        ),
                    );
                }
            }
            Signature::Select => {
                let [c, t, f] = operand_types[..] else {
                    self.error(op, "expected three operands");
                    return;
                };
                if t != f || t != rt {
                    self.error(op, "requires the true value, the false value and the result to have the same type");
                }
                let ck = self.m.ty(c).clone();
                let ok = ck.elem() == ElemType::I1
                    && (ck.scalar().is_some()
                        || ck.tensor_shape().map(<[_]>::to_vec) == self.shape_of(t));
                if !ok {
                    self.error(op, format!("expected condition to be i1 or a tensor of i1 of the values' shape, but got {}", self.ty(c)));
                }
            }
            Signature::FloatInt => self.error(op, "unexpected arith op signature"),
            Signature::Cast => {
                let [from] = operand_types[..] else {
                    self.error(op, "expected one operand");
                    return;
                };
                if self.shape_of(from) != self.shape_of(rt) {
                    self.error(op, format!("operand type {} and result type {} are not cast compatible (shapes differ)", self.ty(from), self.ty(rt)));
                    return;
                }
                let (fe, te) = (self.m.ty(from).elem(), self.m.ty(rt).elem());
                if !cast_ok(a, fe, te) {
                    self.error(
                        op,
                        format!(
                            "operand type {} and result type {} are cast incompatible",
                            self.ty(from),
                            self.ty(rt)
                        ),
                    );
                }
            }
        }
    }

    pub(crate) fn math(&mut self, op: TOp, a: MathOp) {
        let data = self.m.op(op).clone();
        let Some(&result) = data.results.first() else {
            self.error(op, "expected one result");
            return;
        };
        let rt = self.m.value_type(result);
        let n = match a.signature() {
            Signature::Same(n) => n,
            Signature::FloatInt => {
                self.float_int(op, &data.operands, rt);
                return;
            }
            _ => return,
        };
        if data.operands.len() != n || data.operands.iter().any(|&v| self.m.value_type(v) != rt) {
            self.error(
                op,
                format!(
                    "requires all operands and the result to have the same type ({})",
                    self.ty(rt)
                ),
            );
            return;
        }
        let e = self.m.ty(rt).elem();
        if !Self::accepts(a.accepts(), e) || e == ElemType::Index {
            self.error(
                op,
                format!(
                    "operand #0 must be {}, but got '{}'",
                    Self::accepts_text(a.accepts()),
                    self.ty(rt)
                ),
            );
        }
    }
}

impl Verifier<'_> {
    /// `math.fpowi %x, %n : F, I`: `%x` of the result's type (float
    /// elements), `%n` a signless integer (not `index`) of the same shape;
    /// the messages are mlir-opt-19's.
    fn float_int(&mut self, op: TOp, operands: &[crate::tensor::entity::TValue], rt: TType) {
        let [x, n] = operands[..] else {
            self.error(op, "expected two operands");
            return;
        };
        let (xt, nt) = (self.m.value_type(x), self.m.value_type(n));
        if xt != rt {
            self.error(
                op,
                format!(
                    "requires the first operand and the result to have the same type ({})",
                    self.ty(rt)
                ),
            );
            return;
        }
        if !self.m.ty(rt).elem().is_float() {
            self.error(
                op,
                format!(
                    "operand #0 must be floating-point-like, but got '{}'",
                    self.ty(rt)
                ),
            );
        }
        let ne = self.m.ty(nt).elem();
        if !matches!(ne, ElemType::Int(_)) {
            self.error(
                op,
                format!(
                    "operand #1 must be signless-integer-like, but got '{}'",
                    self.ty(nt)
                ),
            );
        } else if self.shape_of(nt) != self.shape_of(rt) {
            self.error(op, "requires the same shape for all operands and results");
        }
    }
}

/// Whether a cast from `from` to `to` elements is what `op` allows.
fn cast_ok(op: ArithOp, from: ElemType, to: ElemType) -> bool {
    let int = |e: ElemType| matches!(e, ElemType::Int(_));
    match op {
        ArithOp::ExtF => from.is_float() && to.is_float() && to.bits() > from.bits(),
        ArithOp::TruncF => from.is_float() && to.is_float() && to.bits() < from.bits(),
        ArithOp::ExtSI | ArithOp::ExtUI => int(from) && int(to) && to.bits() > from.bits(),
        ArithOp::TruncI => int(from) && int(to) && to.bits() < from.bits(),
        ArithOp::SIToFP | ArithOp::UIToFP => int(from) && to.is_float(),
        ArithOp::FPToSI | ArithOp::FPToUI => from.is_float() && int(to),
        ArithOp::IndexCast | ArithOp::IndexCastUI => {
            (from == ElemType::Index && int(to)) || (int(from) && to == ElemType::Index)
        }
        ArithOp::Bitcast => {
            from.bits() == to.bits() && from != ElemType::Index && to != ElemType::Index
        }
        _ => false,
    }
}
