//! The order of a loop step's ops: its loads first, then the computation
//! of each of its results in turn.
//!
//! On lavapipe a texel fetch is a call into a JIT helper that clobbers
//! every vector register (`bench/quant/README.md`, from the JIT code), so
//! whatever is live across a fetch is spilled and reloaded around it. A
//! quantized matvec's step of several blocks (`matvec.rs`) emits its
//! fetches where the folds first ask for them, between the arithmetic
//! of the blocks before; this pass moves every load of the step (with
//! the index arithmetic it needs) before the arithmetic, which then
//! follows result by result (one row's accumulator after the other).
//! Only ops without side effects move, every use after its definition:
//! the values computed are the same. Measured in `bench/quant/README.md`.

use crate::kernel::{KBlock, KOp, KOpKind, KValue};

use super::emitter::Emitter;

impl Emitter<'_, '_, '_> {
    /// Reorders the ops of the insertion block from position `from` on:
    /// the loads and what their operands need first, then each of
    /// `results`' computations in the order given, then whatever is
    /// left, each part in its emitted order. Nothing changes where an op
    /// in that range has regions or writes memory.
    pub(super) fn schedule_loads_first(&mut self, from: usize, results: &[KValue]) {
        let block: KBlock = self.b.insertion_block();
        let km = self.b.module();
        let ops: Vec<KOp> = km.block(block).ops.get(from..).unwrap_or(&[]).to_vec();
        let movable = |op: KOp| {
            let d = km.op(op);
            d.regions.is_empty()
                && !matches!(
                    d.kind,
                    KOpKind::MemRefStore | KOpKind::VectorStore | KOpKind::GpuBarrier
                )
                && !d.kind.name().contains("atomic")
        };
        if ops.len() < 2 || !ops.iter().all(|&op| movable(op)) {
            return;
        }
        let at: std::collections::HashMap<KOp, usize> =
            ops.iter().enumerate().map(|(i, &op)| (op, i)).collect();
        // The op (within the range) defining each operand of op `i`.
        let deps = |i: usize| -> Vec<usize> {
            km.op(ops[i])
                .operands
                .iter()
                .filter_map(|&v| km.defining_op(v).and_then(|d| at.get(&d).copied()))
                .collect()
        };
        // The loads' cone: a reverse pass marks loads and the definitions
        // of what marked ops use.
        let mut first = vec![false; ops.len()];
        for i in (0..ops.len()).rev() {
            let kind = km.op(ops[i]).kind;
            if matches!(kind, KOpKind::MemRefLoad | KOpKind::VectorLoad) {
                first[i] = true;
            }
            if first[i] {
                for d in deps(i) {
                    first[d] = true;
                }
            }
        }
        let mut placed = first.clone();
        let mut order: Vec<usize> = (0..ops.len()).filter(|&i| first[i]).collect();
        // Post-order walks from each result: its operands' definitions
        // before it.
        for &r in results {
            let Some(root) = km.defining_op(r).and_then(|d| at.get(&d).copied()) else {
                continue;
            };
            let mut stack = vec![(root, false)];
            while let Some((i, expanded)) = stack.pop() {
                if placed[i] {
                    continue;
                }
                if expanded {
                    placed[i] = true;
                    order.push(i);
                    continue;
                }
                stack.push((i, true));
                let mut ds = deps(i);
                ds.reverse();
                stack.extend(ds.into_iter().filter(|&d| !placed[d]).map(|d| (d, false)));
            }
        }
        order.extend((0..ops.len()).filter(|&i| !placed[i]));
        let new: Vec<KOp> = order.into_iter().map(|i| ops[i]).collect();
        self.b.module().reorder_block_tail(block, from, new);
    }
}
