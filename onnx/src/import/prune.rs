//! Removes the ops of an imported function whose results nothing reads.
//! The importer builds some values speculatively — the ONNX-layout
//! transpose of every activation kept in a convolution's layout
//! ([`crate::value::Permuted`]), read only where an op needs that layout —
//! and the compiler never computes an unread value anyway; pruning keeps
//! the printed program to what runs.

use std::collections::HashSet;

use kiln_core::tensor::ops::OpKind;
use kiln_core::tensor::{TFunc, TValue, TensorModule};

/// Detaches every top-level op of `f` that has results, none of them read
/// (directly or inside a later op's regions), and no effect of its own
/// (returns, calls, asserts, checks and optimization barriers stay).
pub fn prune_unread(m: &mut TensorModule, f: TFunc) {
    let Some(body) = m.func(f).body else {
        return;
    };
    let ops = m.block(body).ops.clone();
    let mut read: HashSet<TValue> = HashSet::new();
    let mut dead = Vec::new();
    for &op in ops.iter().rev() {
        let data = m.op(op);
        let kept = data.results.is_empty()
            || matches!(
                data.kind,
                OpKind::Return
                    | OpKind::Call { .. }
                    | OpKind::Assert { .. }
                    | OpKind::Check(_)
                    | OpKind::OptimizationBarrier
            )
            || data.results.iter().any(|r| read.contains(r));
        if !kept {
            dead.push(op);
            continue;
        }
        read.extend(data.operands.iter().copied());
        for &r in &data.regions {
            m.walk(r, &mut |o| read.extend(m.op(o).operands.iter().copied()));
        }
    }
    for op in dead {
        m.detach_op(op);
    }
}
