//! IREE's `util` and `check` ops in MLIR's generic form, what
//! `mlir-opt-19 --allow-unregistered-dialect` prints for IREE's end-to-end
//! test ops (IREE's dialects are unregistered there):
//!
//! * `"util.unfoldable_constant"() {value = V : T} : () -> T`
//! * `"util.optimization_barrier"(%a) : (T) -> T`
//! * `"check.expect_true"(%i) : (iN) -> ()` (and `expect_false`)
//! * `"check.expect_eq"(%a, %b)`, `"check.expect_almost_eq"(%a, %b)
//!   {atol = A : f32, rtol = R : f32}`
//! * `"check.expect_eq_const"(%a) {value = V}`,
//!   `"check.expect_almost_eq_const"(%a) {value = V, atol = .., rtol = ..}`
//!
//! * `"flow.tensor.dynamic_constant"() {value = V : T} : () -> T2`
//! * `"flow.tensor.tie_shape"(%t, %d0, ...) : (T, index, ...) -> T`
//!
//! Each is written in the custom syntax kiln's parser reads (so every check
//! of that parser applies). The values may be properties (`<{...}>`) or
//! attributes. A `check` op's optional HAL device operand (the first entry
//! of `operandSegmentSizes`) is refused, as in custom syntax.

use super::{typed_value, GenericOp, Out};
use crate::tensor::parse::PResult;

/// The custom syntax of a generic `util.*` op (ops kiln does not know are
/// written with their name, for the parser to refuse).
pub(super) fn render_util(op: &GenericOp, short: &str) -> PResult<Out<'static>> {
    let ops = op.operands.join(", ");
    let ins = op.in_types.join(", ");
    let out1 = op.out_types.first().map_or("", String::as_str);
    Ok(Out::simple(match short {
        "unfoldable_constant" => {
            let Some(v) = op.attr("value") else {
                return Err(op.err("expected a 'value'"));
            };
            format!("util.unfoldable_constant {}", typed_value(v, out1))
        }
        "optimization_barrier" => format!("util.optimization_barrier {ops} : {ins}"),
        _ => unknown(op),
    }))
}

/// An op kiln does not know, written with its name and operands so that
/// the parser refuses it as it refuses the custom form.
fn unknown(op: &GenericOp) -> String {
    format!("{} {}", op.name, op.operands.join(", "))
}

/// The custom syntax of a generic `check.*` op (ops kiln does not know are
/// written with their name).
pub(super) fn render_check(op: &GenericOp, short: &str) -> PResult<Out<'static>> {
    let (operands, types) = (&op.operands, &op.in_types);
    if let Some(seg) = op.attr("operandSegmentSizes") {
        let sizes =
            super::int_array(seg).ok_or_else(|| op.err("cannot read 'operandSegmentSizes'"))?;
        if sizes.len() > 1 && sizes.iter().sum::<i64>() == operands.len() as i64 {
            if sizes[0] != 0 {
                return Err(op.err("check ops with a device operand are not supported"));
            }
        } else {
            return Err(op.err("'operandSegmentSizes' does not match the operands"));
        }
    }
    let want = match short {
        "expect_true" | "expect_false" | "expect_eq_const" | "expect_almost_eq_const" => 1,
        "expect_eq" | "expect_almost_eq" => 2,
        _ => return Ok(Out::simple(unknown(op))),
    };
    if operands.len() != want || types.len() != want {
        return Err(op.err(format!("expected {want} operand(s)")));
    }
    let ty = &types[0];
    let mut args = operands.join(", ");
    if short.ends_with("_const") {
        let Some(v) = op.attr("value") else {
            return Err(op.err("expected a 'value'"));
        };
        args.push_str(&format!(", {}", typed_value(v, ty)));
    }
    if short.starts_with("expect_almost_eq") {
        for key in ["atol", "rtol"] {
            if let Some(v) = op.attr(key) {
                // `5.000000e-01 : f32`: the number.
                let number = v.split(':').next().unwrap_or(v).trim();
                args.push_str(&format!(", {key} {number}"));
            }
        }
    }
    Ok(Out::simple(format!("check.{short}({args}) : {ty}")))
}

/// The custom syntax of a generic `flow.*` op (ops kiln does not know are
/// written with their name).
pub(super) fn render_flow(op: &GenericOp, short: &str) -> PResult<Out<'static>> {
    let out1 = op.out_types.first().map_or("", String::as_str);
    Ok(Out::simple(match short {
        "tensor.dynamic_constant" => {
            let Some(v) = op.attr("value") else {
                return Err(op.err("expected a 'value'"));
            };
            format!(
                "flow.tensor.dynamic_constant {} -> {out1}",
                typed_value(v, out1)
            )
        }
        "tensor.tie_shape" => {
            let (Some(t), Some(ty)) = (op.operands.first(), op.in_types.first()) else {
                return Err(op.err("expected a tensor operand"));
            };
            format!(
                "flow.tensor.tie_shape {t} : {ty}{{{}}}",
                op.operands[1..].join(", ")
            )
        }
        _ => unknown(op),
    }))
}
