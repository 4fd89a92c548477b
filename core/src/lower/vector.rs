//! `vector` (1-D, 2 to 4 lanes) -> spv (MLIR's `VectorToSPIRV` patterns).
//!
//! `vector<1xT>` values are plain scalars. `vector.load`/`store` access the
//! memref element by element (correct for any alignment and for packed
//! narrow elements); shuffles with two real vectors use
//! `spv.VectorShuffle`, other lane permutations extract and rebuild.
//! Reductions combine the lanes in order, then the accumulator.

use crate::grammar::Opcode;
use crate::ir::{Type, Value};
use crate::kernel::{KOpKind, KType, KValue};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::ints::normalize;
use super::helpers::memory::{load_element, store_element};
use super::helpers::reduce::reduction_ops;

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::VectorLoad => vload(l),
        KOpKind::VectorStore => vstore(l),
        KOpKind::VectorExtract | KOpKind::VectorExtractElement => {
            let v = l.operand(0)?;
            let ty = l.result_type(0)?;
            let pos = position(l, kind == KOpKind::VectorExtract, 1)?;
            let r = extract_lane(l, v, pos, ty);
            l.set_result(0, r)
        }
        KOpKind::VectorInsert | KOpKind::VectorInsertElement => {
            let x = l.operand(0)?;
            let dest = l.operand(1)?;
            let ty = l.result_type(0)?;
            let pos = position(l, kind == KOpKind::VectorInsert, 2)?;
            let r = if l.module.types.component_count(ty) == 1 {
                x
            } else {
                match pos {
                    Lane::Static(i) => {
                        let a = l.indices_attr(&[i]);
                        l.core_op_with_attrs(
                            Opcode::CompositeInsert,
                            vec![x, dest],
                            ty,
                            vec![("indices", a)],
                        )
                    }
                    Lane::Dynamic(i) => {
                        l.core_op(Opcode::VectorInsertDynamic, vec![dest, x, i], ty)
                    }
                }
            };
            l.set_result(0, r)
        }
        KOpKind::VectorSplat | KOpKind::VectorBroadcast => {
            let x = l.operand(0)?;
            let ty = l.result_type(0)?;
            let r = if l.module.value_type(x) == ty {
                x
            } else {
                l.splat(x, ty)
            };
            l.set_result(0, r)
        }
        KOpKind::VectorShuffle => {
            let (a, b) = (l.operand(0)?, l.operand(1)?);
            let mask: Vec<u32> = l
                .kernel_i64_array("mask")?
                .iter()
                .map(|&m| m as u32)
                .collect();
            let ty = l.result_type(0)?;
            let r = shuffle(l, a, b, &mask, ty)?;
            l.set_result(0, r)
        }
        KOpKind::VectorInterleave => {
            let (a, b) = (l.operand(0)?, l.operand(1)?);
            let n = l.module.types.component_count(l.module.value_type(a));
            let mask: Vec<u32> = (0..n).flat_map(|i| [i, n + i]).collect();
            let ty = l.result_type(0)?;
            let r = shuffle(l, a, b, &mask, ty)?;
            l.set_result(0, r)
        }
        KOpKind::VectorDeinterleave => {
            let a = l.operand(0)?;
            let n = l.module.types.component_count(l.module.value_type(a));
            let ty = l.result_type(0)?;
            let even: Vec<u32> = (0..n / 2).map(|i| 2 * i).collect();
            let odd: Vec<u32> = (0..n / 2).map(|i| 2 * i + 1).collect();
            let e = shuffle(l, a, a, &even, ty)?;
            let o = shuffle(l, a, a, &odd, ty)?;
            l.set_result(0, e)?;
            l.set_result(1, o)
        }
        KOpKind::VectorReduction => reduction(l),
        KOpKind::VectorBitcast => {
            let a = l.operand(0)?;
            let ty = l.result_type(0)?;
            let r = if l.module.value_type(a) == ty {
                a
            } else {
                l.core_op(Opcode::Bitcast, vec![a], ty)
            };
            l.set_result(0, r)
        }
        KOpKind::VectorFma => {
            let args = l.operands()?;
            let ty = l.result_type(0)?;
            let [a, b, c] = args[..] else {
                return Err(l.malformed("vector.fma takes three operands"));
            };
            let r = super::libm::fma::fma(l, a, b, c, ty);
            l.set_result(0, r)
        }
        _ => Err(l.unsupported("no lowering for this vector op")),
    }
}

/// A lane position.
enum Lane {
    Static(u32),
    Dynamic(Value),
}

/// The lane of `vector.extract`/`insert` (`static_position`, dynamic
/// operands from `first_dynamic`) or `extractelement`/`insertelement`.
fn position(l: &Lowerer, static_form: bool, first_dynamic: usize) -> Result<Lane, LowerError> {
    let n_ops = l.kernels.op(l.current_op).operands.len();
    if static_form {
        let pos = l.kernel_i64_array("static_position")?;
        match pos {
            [] => Ok(Lane::Static(0)),
            [p] if *p != i64::MIN => Ok(Lane::Static(*p as u32)),
            [_] if n_ops > first_dynamic => Ok(Lane::Dynamic(l.operand(first_dynamic)?)),
            _ => Err(l.unsupported("only 1-D vector positions are supported")),
        }
    } else if n_ops > first_dynamic {
        Ok(Lane::Dynamic(l.operand(first_dynamic)?))
    } else {
        Ok(Lane::Static(0))
    }
}

fn extract_lane(l: &mut Lowerer, v: Value, pos: Lane, ty: Type) -> Value {
    if l.module.types.component_count(l.module.value_type(v)) == 1 {
        return v;
    }
    match pos {
        Lane::Static(i) => l.extract(v, i, ty),
        Lane::Dynamic(i) => l.core_op(Opcode::VectorExtractDynamic, vec![v, i], ty),
    }
}

/// Lane `i` of `v` (a scalar stands for a one-lane vector).
fn lane(l: &mut Lowerer, v: Value, i: u32) -> Value {
    let vt = l.module.value_type(v);
    if l.module.types.component_count(vt) == 1 {
        return v;
    }
    let st = l.module.types.scalar_of(vt);
    l.extract(v, i, st)
}

fn shuffle(
    l: &mut Lowerer,
    a: Value,
    b: Value,
    mask: &[u32],
    ty: Type,
) -> Result<Value, LowerError> {
    let na = l.module.types.component_count(l.module.value_type(a));
    let nb = l.module.types.component_count(l.module.value_type(b));
    if mask.iter().any(|&m| m >= na + nb) {
        return Err(l.malformed("shuffle mask out of range"));
    }
    let n = l.module.types.component_count(ty);
    if na > 1 && nb > 1 && n > 1 {
        let i32t = l.i32_type();
        let items = mask
            .iter()
            .map(|&m| l.module.attrs.int(m as i128, i32t))
            .collect();
        let comps = l.module.attrs.array(items);
        return Ok(l.core_op_with_attrs(
            Opcode::VectorShuffle,
            vec![a, b],
            ty,
            vec![("components", comps)],
        ));
    }
    let lanes: Vec<Value> = mask
        .iter()
        .map(|&m| {
            if m < na {
                lane(l, a, m)
            } else {
                lane(l, b, m - na)
            }
        })
        .collect();
    Ok(if n == 1 {
        lanes[0]
    } else {
        l.core_op(Opcode::CompositeConstruct, lanes, ty)
    })
}

/// The kernel memref operand at `mem`, its indices after it, with the last
/// index advanced by `k` for lane `k`.
fn lane_indices(l: &mut Lowerer, first_index: usize, k: u32) -> Result<Vec<Value>, LowerError> {
    let n = l.kernels.op(l.current_op).operands.len();
    let mut idx = (first_index..n)
        .map(|i| l.operand(i))
        .collect::<Result<Vec<_>, _>>()?;
    if k > 0 {
        let Some(last) = idx.last_mut() else {
            return Err(l.malformed("vector access of a rank-0 memref"));
        };
        let it = l.module.value_type(*last);
        let c = l.const_int(it, k as i128);
        *last = l.core_op(Opcode::IAdd, vec![*last, c], it);
    }
    Ok(idx)
}

fn vload(l: &mut Lowerer) -> Result<(), LowerError> {
    let base = l.kernel_operand(0)?;
    let ty = l.result_type(0)?;
    let n = l.module.types.component_count(ty);
    check_elem(l, base)?;
    let mut lanes = Vec::new();
    for k in 0..n {
        let idx = lane_indices(l, 1, k)?;
        lanes.push(load_element(l, base, &idx)?);
    }
    let r = if n == 1 {
        lanes[0]
    } else {
        l.core_op(Opcode::CompositeConstruct, lanes, ty)
    };
    l.set_result(0, r)
}

fn vstore(l: &mut Lowerer) -> Result<(), LowerError> {
    let v = l.operand(0)?;
    let base = l.kernel_operand(1)?;
    check_elem(l, base)?;
    let n = l.module.types.component_count(l.module.value_type(v));
    for k in 0..n {
        let idx = lane_indices(l, 2, k)?;
        let x = lane(l, v, k);
        store_element(l, base, &idx, x)?;
    }
    Ok(())
}

fn check_elem(l: &Lowerer, base: KValue) -> Result<(), LowerError> {
    match l.kernel_type(base).memref_elem() {
        Some(e) if e.is_scalar() => Ok(()),
        _ => Err(l.unsupported("vector.load/store of memrefs of vectors")),
    }
}

fn reduction(l: &mut Lowerer) -> Result<(), LowerError> {
    let kind = l.kernel_enum("kind")?;
    let v = l.operand(0)?;
    let ty = l.result_type(0)?;
    let kty: &KType = l.result_kernel_type(0)?;
    let float = matches!(kty, KType::Float(_));
    let (_, combine) = reduction_ops(kind, float)
        .ok_or_else(|| l.unsupported(format!("reduction kind '{kind}' on this type")))?;
    let n = l.module.types.component_count(l.module.value_type(v));
    let mut acc = lane(l, v, 0);
    for k in 1..n {
        let x = lane(l, v, k);
        acc = combine.apply(l, acc, x, ty);
    }
    if l.kernels.op(l.current_op).operands.len() > 1 {
        let a = l.operand(1)?;
        acc = combine.apply(l, acc, a, ty);
    }
    let acc = normalize(l, acc, kty);
    l.set_result(0, acc)
}
