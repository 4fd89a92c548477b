//! Successors and block arguments (B1-B4), structured control flow
//! (C1-C4), and returns (F5, F6).

use super::structure::FuncCtx;
use super::Verifier;
use crate::grammar::{Opcode, OperandKind};
use crate::ir::attr::AttrKind;
use crate::ir::entity::{Block, Op};
use crate::ir::op::OpKind;

impl<'m> Verifier<'m> {
    /// B1-B3: the successors of `op` and the arguments passed to them.
    pub(crate) fn check_successors(&mut self, op: Op) {
        let m = self.m;
        let data = m.op(op);
        let region = data.parent.and_then(|b| m.block(b).parent);
        let entry = region.and_then(|r| m.region(r).blocks.first().copied());
        for (s, succ) in data.successors.iter().enumerate() {
            let target = succ.block;
            if m.block(target).parent != region || region.is_none() {
                let label = self.block_label(target);
                self.error(
                    op,
                    format!(
                        "successor #{s} ({label}) is not a block of the region holding this op; branches cannot leave or enter a region"
                    ),
                );
                continue;
            }
            if Some(target) == entry {
                let label = self.block_label(target);
                self.error(
                    op,
                    format!(
                        "successor #{s} is the entry block {label} of its region; the entry block of a region cannot have predecessors"
                    ),
                );
            }
            let params = &m.block(target).args;
            if params.len() != succ.args.len() {
                let label = self.block_label(target);
                self.error(
                    op,
                    format!(
                        "successor #{s} ({label}) takes {} argument(s), but {} were passed",
                        params.len(),
                        succ.args.len()
                    ),
                );
                continue;
            }
            for (j, (&arg, &param)) in succ.args.iter().zip(params).enumerate() {
                let (have, want) = (m.value_type(arg), m.value_type(param));
                if have != want {
                    let label = self.block_label(target);
                    self.error(
                        op,
                        format!(
                            "argument #{j} of successor #{s} has type {}, expected {} (the type of {label}'s argument #{j})",
                            self.ty(have),
                            self.ty(want)
                        ),
                    );
                }
            }
        }
    }

    /// Whether `block` holds exactly one op, a `spv.mlir.merge`.
    fn is_merge_block(&self, block: Block) -> bool {
        let ops = &self.m.block(block).ops;
        ops.len() == 1 && self.m.op(ops[0]).kind == OpKind::Merge
    }

    /// The successors of the terminator (last op) of `block`.
    fn terminator_targets(&self, block: Block) -> impl Iterator<Item = Block> + 'm {
        let m = self.m;
        m.block(block)
            .ops
            .last()
            .into_iter()
            .flat_map(move |&op| m.op(op).successors.iter().map(|s| s.block))
    }

    /// C1-C3: a `spv.mlir.selection` or `spv.mlir.loop` op.
    pub(crate) fn check_construct(&mut self, op: Op) {
        let m = self.m;
        let data = m.op(op);
        let is_loop = data.kind == OpKind::Loop;
        let what = if is_loop {
            "spirv.mlir.loop"
        } else {
            "spirv.mlir.selection"
        };
        if !data.operands.is_empty() {
            self.error(
                op,
                format!("expected no operands, found {}", data.operands.len()),
            );
        }
        if !data.results.is_empty() {
            self.error(
                op,
                format!(
                    "expected no results (MLIR 19 constructs yield no values), found {}",
                    data.results.len()
                ),
            );
        }
        if is_loop {
            self.enum_attr(op, "loop_control", OperandKind::LoopControl, false);
        } else {
            self.enum_attr(
                op,
                "selection_control",
                OperandKind::SelectionControl,
                false,
            );
        }
        let blocks = &m.region(data.regions[0]).blocks;
        // An empty region is a degenerate construct MLIR accepts.
        let (Some(&first), Some(&merge)) = (blocks.first(), blocks.last()) else {
            return;
        };
        if !m.block(first).args.is_empty() {
            self.error(
                op,
                format!("entry block of the {what} region must have no arguments"),
            );
        }
        if !self.is_merge_block(merge) {
            self.error(
                op,
                "last block must be the merge block with only one 'spirv.mlir.merge' op",
            );
        } else if blocks.len() > 1 && !m.block(merge).args.is_empty() {
            self.error(op, "merge block must have no arguments");
        }
        if !is_loop {
            if blocks.len() < 2 {
                self.error(
                    op,
                    "must have a selection header block before the merge block (at least 2 blocks)",
                );
                return;
            }
            let header_term = m.block(first).ops.last().map(|&t| &m.op(t).kind);
            let ok = header_term
                .is_some_and(|k| k.is_core(Opcode::BranchConditional) || k.is_core(Opcode::Switch));
            if !ok && header_term.is_some() {
                let found = header_term.map(super::op_name).unwrap_or_default();
                self.error(
                    op,
                    format!(
                        "selection header block (the first block) must end in spirv.BranchConditional or spirv.Switch, found {found}"
                    ),
                );
            }
            return;
        }
        let n = blocks.len();
        if n < 4 {
            self.error(
                op,
                format!(
                    "must have an entry block, a loop header block, a loop continue block and a merge block (at least 4 blocks), found {n} block(s)"
                ),
            );
            return;
        }
        let (entry, header, cont) = (blocks[0], blocks[1], blocks[n - 2]);
        let entry_ops = &m.block(entry).ops;
        let entry_ok = entry_ops.len() == 1 && {
            let br = m.op(entry_ops[0]);
            br.kind.is_core(Opcode::Branch)
                && br.successors.len() == 1
                && br.successors[0].block == header
        };
        if !entry_ok {
            self.error(
                op,
                "entry block must only have one 'spirv.Branch' op to the second (loop header) block",
            );
        }
        if !self.terminator_targets(cont).any(|b| b == header) {
            self.error(
                op,
                "second to last block must be the loop continue block that branches to the loop header block",
            );
        }
        for &b in &blocks[2..n - 2] {
            if self.terminator_targets(b).any(|t| t == header) {
                let label = self.block_label(b);
                self.error(
                    op,
                    format!(
                        "can only have the entry and loop continue block branching to the loop header block, but {label} branches to it"
                    ),
                );
            }
        }
    }

    /// C4: a `spv.mlir.merge` op.
    pub(crate) fn check_merge(&mut self, op: Op) {
        let m = self.m;
        let data = m.op(op);
        if !data.operands.is_empty() || !data.results.is_empty() {
            self.error(
                op,
                "expected no operands and no results (MLIR 19 constructs yield no values)",
            );
        }
        let Some(block) = data.parent else { return };
        let owner = m.block_parent_op(block);
        if !owner.is_some_and(|o| matches!(m.op(o).kind, OpKind::Selection | OpKind::Loop)) {
            self.error(
                op,
                "expected parent op to be 'spirv.mlir.selection' or 'spirv.mlir.loop'",
            );
            return;
        }
        let region = m
            .block(block)
            .parent
            .expect("a block with a parent op has a region");
        let last = m.region(region).blocks.last().copied();
        if last != Some(block) || m.block(block).ops.last() != Some(&op) {
            self.error(
                op,
                "can only be used as the terminator of the last (merge) block of 'spirv.mlir.selection' or 'spirv.mlir.loop'",
            );
        }
    }

    /// F5: `spv.Return` / `spv.ReturnValue` against the function's result.
    pub(crate) fn check_return(&mut self, op: Op, ctx: FuncCtx<'m>, with_value: bool) {
        let m = self.m;
        let Some(results) = ctx.results else { return };
        let name = m.symbol_name(ctx.func).unwrap_or("?");
        match (with_value, results.first()) {
            (false, Some(&r)) => self.error(
                op,
                format!(
                    "returns no value, but function @{name} returns {}; expected spirv.ReturnValue",
                    self.ty(r)
                ),
            ),
            (true, None) => self.error(
                op,
                format!(
                    "returns a value, but function @{name} has no result; expected spirv.Return"
                ),
            ),
            (true, Some(&r)) => {
                if let Some(&v) = m.op(op).operands.first() {
                    let t = m.value_type(v);
                    if t != r {
                        self.error(
                            op,
                            format!(
                                "returns a value of type {}, expected {} (the result type of function @{name})",
                                self.ty(t),
                                self.ty(r)
                            ),
                        );
                    }
                }
            }
            (false, None) => {}
        }
    }

    /// F6: `spv.Unreachable` outside entry blocks.
    pub(crate) fn check_unreachable(&mut self, op: Op) {
        let m = self.m;
        let Some(block) = m.op(op).parent else { return };
        let region = m.block(block).parent;
        if region.and_then(|r| m.region(r).blocks.first().copied()) == Some(block) {
            self.error(
                op,
                "cannot be used in the entry block of a region, which is always reachable",
            );
        }
    }

    /// B4: `spv.BranchConditional`'s condition and weights.
    pub(crate) fn check_branch_conditional(&mut self, op: Op) {
        let m = self.m;
        let data = m.op(op);
        if let Some(&c) = data.operands.first() {
            let t = m.value_type(c);
            if !m.types.is_bool(t) {
                self.error(
                    op,
                    format!("condition has type {}, expected i1", self.ty(t)),
                );
            }
        }
        if let Some(a) = m.attr(op, "branch_weights") {
            let weights: Option<Vec<i128>> = match m.attrs.kind(a) {
                AttrKind::Array(items) => items.iter().map(|&i| m.attrs.as_int(i)).collect(),
                AttrKind::DenseArray { values, .. } => Some(values.clone()),
                _ => None,
            };
            match weights {
                Some(w) if w.len() == 2 => {
                    if w.iter().all(|&x| x == 0) {
                        self.error(op, "branch weights cannot both be zero");
                    }
                }
                Some(w) => self.error(
                    op,
                    format!("expected exactly two branch weights, found {}", w.len()),
                ),
                None => self.error(
                    op,
                    "attribute 'branch_weights' must be an array of integers",
                ),
            }
        }
    }

    /// B4: `spv.Switch`'s selector and case literals.
    pub(crate) fn check_switch(&mut self, op: Op) {
        let m = self.m;
        let data = m.op(op);
        if let Some(&s) = data.operands.first() {
            let t = m.value_type(s);
            if !m.types.is_integer(t) {
                self.error(
                    op,
                    format!(
                        "selector has type {}, expected an integer scalar",
                        self.ty(t)
                    ),
                );
            }
        }
    }
}
