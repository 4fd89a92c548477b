//! Scalar bodies of elementwise ops, chosen by ONNX element type (float,
//! signed, unsigned or bool).

use kiln_core::tensor::attr::{CmpFPred, CmpIPred, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use crate::dtype::DataType;

/// A float constant of `dt` (an integer one for integer types).
pub fn cst(b: &mut BodyBuilder<'_>, dt: DataType, v: f64) -> TValue {
    if dt.is_float() {
        b.constant(ScalarBits::Float(v), dt.elem())
    } else {
        b.constant(ScalarBits::Int(v as i64), dt.elem())
    }
}

/// `x op y` of one type: the float, signed or unsigned arith op.
pub fn arith(b: &mut BodyBuilder<'_>, dt: DataType, op: Bin, x: TValue, y: TValue) -> TValue {
    use ArithOp::*;
    let f = dt.is_float();
    let u = dt.is_unsigned() || dt == DataType::Bool;
    let o = match op {
        Bin::Add if f => AddF,
        Bin::Add => AddI,
        Bin::Sub if f => SubF,
        Bin::Sub => SubI,
        Bin::Mul if f => MulF,
        Bin::Mul => MulI,
        Bin::Div if f => DivF,
        Bin::Div if u => DivUI,
        Bin::Div => DivSI,
        Bin::Max if f => MaximumF,
        Bin::Max if u => MaxUI,
        Bin::Max => MaxSI,
        Bin::Min if f => MinimumF,
        Bin::Min if u => MinUI,
        Bin::Min => MinSI,
    };
    b.arith(o, vec![x, y], dt.elem())
}

/// Binary arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "the operation of the same name")]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
}

/// A comparison of two values of `dt`, giving an i1.
pub fn cmp(b: &mut BodyBuilder<'_>, dt: DataType, c: Cmp, x: TValue, y: TValue) -> TValue {
    let op = if dt.is_float() {
        ArithOp::CmpF(match c {
            Cmp::Eq => CmpFPred::Oeq,
            Cmp::Ne => CmpFPred::Une,
            Cmp::Lt => CmpFPred::Olt,
            Cmp::Le => CmpFPred::Ole,
            Cmp::Gt => CmpFPred::Ogt,
            Cmp::Ge => CmpFPred::Oge,
        })
    } else {
        let u = dt.is_unsigned() || dt == DataType::Bool;
        ArithOp::CmpI(match c {
            Cmp::Eq => CmpIPred::Eq,
            Cmp::Ne => CmpIPred::Ne,
            Cmp::Lt if u => CmpIPred::Ult,
            Cmp::Le if u => CmpIPred::Ule,
            Cmp::Gt if u => CmpIPred::Ugt,
            Cmp::Ge if u => CmpIPred::Uge,
            Cmp::Lt => CmpIPred::Slt,
            Cmp::Le => CmpIPred::Sle,
            Cmp::Gt => CmpIPred::Sgt,
            Cmp::Ge => CmpIPred::Sge,
        })
    };
    b.arith(op, vec![x, y], ElemType::I1)
}

/// Comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "the comparison of the same name")]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// `select(c, x, y)`.
pub fn select(b: &mut BodyBuilder<'_>, c: TValue, x: TValue, y: TValue) -> TValue {
    let ty = b.elem(x);
    b.arith(ArithOp::Select, vec![c, x, y], ty)
}

/// A `math` op.
pub fn math(b: &mut BodyBuilder<'_>, op: MathOp, x: TValue) -> TValue {
    b.math(op, vec![x])
}

/// Converts `x` of `from` to `to` (ONNX's Cast: floats to integers
/// truncate, to bool is `!= 0`).
pub fn convert(b: &mut BodyBuilder<'_>, from: DataType, to: DataType, x: TValue) -> TValue {
    convert_with(b, from, to, x, true, true)
}

/// [`convert`] with Cast's `saturate` (narrow floats) and `round_mode`
/// (`up` when `round_up`, else `down`; E8M0).
pub fn convert_with(
    b: &mut BodyBuilder<'_>,
    from: DataType,
    to: DataType,
    x: TValue,
    saturate: bool,
    round_up: bool,
) -> TValue {
    use crate::narrow;
    if from == to {
        return x;
    }
    if from.is_narrow_float() {
        let f = narrow::decode_body(b, from, x);
        return convert_with(b, DataType::Float, to, f, saturate, round_up);
    }
    if to.is_narrow_float() {
        let f = convert_with(b, from, DataType::Float, x, saturate, round_up);
        return narrow::encode_body(b, to, f, saturate, round_up);
    }
    if let Some(s) = narrow::int_standin(from) {
        return convert_with(b, s, to, x, saturate, round_up);
    }
    if let Some(s) = narrow::int_standin(to) {
        let v = if from.is_float() {
            // Through i32 so that values past a byte wrap too.
            let i = convert_with(b, from, DataType::Int32, x, saturate, round_up);
            b.arith(ArithOp::TruncI, vec![i], ElemType::I8)
        } else {
            convert_with(b, from, s, x, saturate, round_up)
        };
        return narrow::wrap_int(b, to, v);
    }
    if from.elem() == to.elem() {
        return x;
    }
    let (fe, te) = (from.elem(), to.elem());
    if to == DataType::Bool {
        let z = cst(b, from, 0.0);
        return cmp(b, from, Cmp::Ne, x, z);
    }
    let op = match (from.is_float(), to.is_float()) {
        (true, true) if te.bits() > fe.bits() || (fe.bits() == 16 && te.bits() == 16) => {
            if fe.bits() == 16 && te.bits() == 16 {
                // f16 <-> bf16 through f32.
                let w = b.arith(ArithOp::ExtF, vec![x], ElemType::F32);
                return b.arith(ArithOp::TruncF, vec![w], te);
            }
            ArithOp::ExtF
        }
        (true, true) => ArithOp::TruncF,
        (false, true) if from.is_unsigned() || from == DataType::Bool => ArithOp::UIToFP,
        (false, true) => ArithOp::SIToFP,
        (true, false) if to.is_unsigned() => ArithOp::FPToUI,
        (true, false) => ArithOp::FPToSI,
        (false, false) if te.bits() > fe.bits() => {
            if from.is_unsigned() || from == DataType::Bool {
                ArithOp::ExtUI
            } else {
                ArithOp::ExtSI
            }
        }
        (false, false) => ArithOp::TruncI,
    };
    b.arith(op, vec![x], te)
}
