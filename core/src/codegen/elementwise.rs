//! Stage 1: `arith` and `math` ops on tensors become `linalg.generic`
//! (MLIR's `-convert-elementwise-to-linalg`).
//!
//! `%r = arith.addf %a, %b : tensor<?x4xf32>` becomes
//!
//! ```text
//! %c0 = arith.constant 0 : index
//! %d0 = tensor.dim %a, %c0 : tensor<?x4xf32>
//! %e = tensor.empty(%d0) : tensor<?x4xf32>
//! %r = linalg.generic {indexing_maps = [id, id, id], iterator_types = [parallel, parallel]}
//!        ins(%a, %b) outs(%e) { ^bb0(%x: f32, %y: f32, %o: f32):
//!          %s = arith.addf %x, %y : f32
//!          linalg.yield %s : f32 }
//! ```
//!
//! Scalar operands (the `i1` condition of a whole-tensor `arith.select`)
//! are inputs with a map of no results. Dynamic sizes of the result come
//! from the first tensor operand. Named linalg ops are left as they are:
//! a strategy chooses by op family.

use std::collections::HashMap;

use crate::tensor::affine::AffineMap;
use crate::tensor::attr::{ConstAttr, IteratorType};
use crate::tensor::ops::{LinalgKind, LinalgOp, OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType, TypeKind};
use crate::tensor::{TBlock, TOp, TValue, TensorModule};

/// Rewrites every `arith`/`math` op with tensor operands in the bodies of
/// `m`'s functions into a `linalg.generic`; returns how many it rewrote.
pub fn elementwise_to_generic(m: &mut TensorModule) -> usize {
    let mut count = 0;
    for f in m.funcs().to_vec() {
        let Some(body) = m.func(f).body else { continue };
        if !m
            .block(body)
            .ops
            .iter()
            .any(|&op| is_tensor_elementwise(m, op))
        {
            continue;
        }
        // One pass over the block and one over the uses (a chain of
        // 100,000 ops must not cost 100,000 passes over the module).
        let mut replaced = HashMap::new();
        for op in m.take_ops(body) {
            if is_tensor_elementwise(m, op) {
                count += 1;
                if let Some((from, to)) = rewrite(m, body, op) {
                    replaced.insert(from, to);
                    continue;
                }
            }
            m.append_op(body, op);
        }
        m.replace_uses(&replaced);
    }
    count
}

fn is_tensor_elementwise(m: &TensorModule, op: TOp) -> bool {
    let d = m.op(op);
    matches!(d.kind, OpKind::Arith { .. } | OpKind::Math { .. })
        && d.results
            .first()
            .is_some_and(|&r| m.value_kind(r).is_tensor())
}

/// Appends the generic that replaces `op` (and the ops computing its
/// init) to `block`; returns `op`'s result and the generic's, or `None`
/// (nothing appended) when the result is not a ranked tensor.
fn rewrite(m: &mut TensorModule, block: TBlock, op: TOp) -> Option<(TValue, TValue)> {
    let d = m.op(op).clone();
    let loc = d.loc;
    let result = d.results[0];
    let result_ty = m.value_type(result);
    let TypeKind::Tensor { shape, elem } = m.ty(result_ty).clone() else {
        return None;
    };
    let rank = shape.len() as u32;
    // tensor.empty with the dynamic sizes of the first tensor operand.
    let first_tensor = d
        .operands
        .iter()
        .copied()
        .find(|&v| m.value_kind(v).is_tensor());
    let mut dyn_sizes = Vec::new();
    for (i, dim) in shape.iter().enumerate() {
        if *dim != Dim::Dynamic {
            continue;
        }
        let Some(src) = first_tensor else { continue };
        let index_ty = m.types.scalar(ElemType::Index);
        let c = m.create_op(
            OpKind::Constant(ConstAttr::Int {
                value: i as i64,
                ty: index_ty,
            }),
            vec![],
            &[index_ty],
            vec![],
            loc,
        );
        m.append_op(block, c);
        let cv = m.op(c).results[0];
        let dim_op = m.create_op(
            OpKind::Tensor(TensorOp::Dim),
            vec![src, cv],
            &[index_ty],
            vec![],
            loc,
        );
        m.append_op(block, dim_op);
        dyn_sizes.push(m.op(dim_op).results[0]);
    }
    let empty = m.create_op(
        OpKind::Tensor(TensorOp::Empty),
        dyn_sizes,
        &[result_ty],
        vec![],
        loc,
    );
    m.append_op(block, empty);
    let init = m.op(empty).results[0];

    // The body: one argument per operand's element type, then the output's.
    let mut arg_types = Vec::new();
    let mut maps = Vec::new();
    for &v in &d.operands {
        let k = m.value_kind(v).clone();
        arg_types.push(m.types.scalar(k.elem()));
        maps.push(if k.is_tensor() {
            AffineMap::identity(rank)
        } else {
            AffineMap::new(rank, 0, vec![])
        });
    }
    arg_types.push(m.types.scalar(elem));
    maps.push(AffineMap::identity(rank));
    let body = m.create_block(&arg_types);
    let args = m.block(body).args.clone();
    let scalar_res = m.types.scalar(elem);
    let inner = m.create_op(
        d.kind.clone(),
        args[..d.operands.len()].to_vec(),
        &[scalar_res],
        vec![],
        loc,
    );
    m.append_op(body, inner);
    let y = m.op(inner).results[0];
    let yield_op = m.create_op(OpKind::LinalgYield, vec![y], &[], vec![], loc);
    m.append_op(body, yield_op);

    let mut operands: Vec<TValue> = d.operands.clone();
    operands.push(init);
    let generic = m.create_op(
        OpKind::Linalg(LinalgOp {
            kind: LinalgKind::Generic {
                indexing_maps: maps,
                iterator_types: vec![IteratorType::Parallel; rank as usize],
            },
            num_inputs: d.operands.len(),
        }),
        operands,
        &[result_ty],
        vec![body],
        loc,
    );
    m.append_op(block, generic);
    Some((result, m.op(generic).results[0]))
}
