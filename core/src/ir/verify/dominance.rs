//! Dominators of the blocks of one region, and the visibility of a value at
//! a use (invariants D1, D2).
//!
//! A region's control-flow graph has its blocks as nodes and the successors
//! of their ops (only those inside the same region) as edges; the first
//! block is the entry. Immediate dominators are computed with the iterative
//! algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
//! Algorithm") over a reverse post-order: regions are small, so the
//! quadratic worst case does not matter.

use std::collections::HashMap;

use super::Verifier;
use crate::ir::entity::{Block, Op, Region, Value};
use crate::ir::op::{OpKind, ValueDef};

/// Immediate dominators of the blocks of one region.
pub(crate) struct DomTree {
    /// Position of each block in the region.
    index: HashMap<Block, usize>,
    /// Immediate dominator (by position) of each reachable block; the entry
    /// is its own dominator; `None` for unreachable blocks.
    idom: Vec<Option<usize>>,
}

impl DomTree {
    /// Computes the dominator tree of `blocks` (entry first), whose
    /// successor lists (positions) are `succs`.
    fn compute(blocks: &[Block], succs: &[Vec<usize>]) -> DomTree {
        let n = blocks.len();
        let index = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut idom = vec![None; n];
        if n == 0 {
            return DomTree { index, idom };
        }
        // Post-order by an explicit-stack DFS from the entry.
        let mut post = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some(top) = stack.last_mut() {
            let b = top.0;
            if let Some(&s) = succs[b].get(top.1) {
                top.1 += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        let mut po_num = vec![usize::MAX; n];
        for (i, &b) in post.iter().enumerate() {
            po_num[b] = i;
        }
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            if seen[b] {
                for &s in ss {
                    preds[s].push(b);
                }
            }
        }
        idom[0] = Some(0);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in post.iter().rev().skip(1) {
                let mut new_idom: Option<usize> = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &po_num, p, cur),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        DomTree { index, idom }
    }

    /// Whether block `a` dominates block `b` (both in this region). Every
    /// block dominates a block unreachable from the entry (MLIR's
    /// convention: uses in dead code are not checked).
    pub(crate) fn dominates(&self, a: Block, b: Block) -> bool {
        let (Some(&a), Some(&b)) = (self.index.get(&a), self.index.get(&b)) else {
            return false;
        };
        if self.idom[b].is_none() {
            return true;
        }
        let mut cur = b;
        loop {
            if cur == a {
                return true;
            }
            match self.idom[cur] {
                Some(d) if d != cur => cur = d,
                _ => return false,
            }
        }
    }
}

fn intersect(idom: &[Option<usize>], po_num: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while po_num[a] < po_num[b] {
            a = idom[a].expect("processed blocks have a dominator");
        }
        while po_num[b] < po_num[a] {
            b = idom[b].expect("processed blocks have a dominator");
        }
    }
    a
}

/// Why a value is not usable at a use.
pub(crate) enum Invisible {
    /// Defined by an op that is not placed in any block.
    Detached,
    /// Defined outside the function holding the use.
    OutsideFunction,
    /// Defined in the same function, but it does not dominate the use.
    NotDominating,
}

impl Verifier<'_> {
    /// The dominator tree of `region`, computed on first use.
    fn dom_tree(&mut self, region: Region) -> &DomTree {
        let m = self.m;
        self.doms.entry(region).or_insert_with(|| {
            let blocks = &m.region(region).blocks;
            let pos: HashMap<Block, usize> =
                blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
            let succs: Vec<Vec<usize>> = blocks
                .iter()
                .map(|&b| {
                    m.block(b)
                        .ops
                        .iter()
                        .flat_map(|&op| m.op(op).successors.iter())
                        .filter_map(|s| pos.get(&s.block).copied())
                        .collect()
                })
                .collect();
            DomTree::compute(blocks, &succs)
        })
    }

    /// The `spv.func` enclosing `block`, if any.
    pub(crate) fn enclosing_func_of_block(&self, block: Block) -> Option<Op> {
        let mut b = block;
        loop {
            let owner = self.m.block_parent_op(b)?;
            if self.m.op(owner).kind == OpKind::Func {
                return Some(owner);
            }
            b = self.m.op(owner).parent?;
        }
    }

    /// Checks that `value` may be used by `user`, an op placed inside
    /// function `func`.
    pub(crate) fn visibility(&mut self, value: Value, user: Op, func: Op) -> Result<(), Invisible> {
        let m = self.m;
        let (def_block, def_pos) = match m.value(value).def {
            ValueDef::Result(op, _) => match m.op(op).parent {
                Some(b) => (b, Some(self.op_pos[op.index()])),
                None => return Err(Invisible::Detached),
            },
            ValueDef::BlockArg(b, _) => (b, None),
        };
        if self.enclosing_func_of_block(def_block) != Some(func) {
            return Err(Invisible::OutsideFunction);
        }
        let def_region = m.block(def_block).parent;
        // Walk up from the user through the ops enclosing it.
        let mut cur = user;
        loop {
            let Some(block) = m.op(cur).parent else {
                return Err(Invisible::NotDominating);
            };
            if block == def_block {
                return match def_pos {
                    None => Ok(()),
                    Some(p) if p < self.op_pos[cur.index()] => Ok(()),
                    Some(_) => Err(Invisible::NotDominating),
                };
            }
            let region = m.block(block).parent;
            if let Some(region) = region.filter(|&r| Some(r) == def_region) {
                return if self.dom_tree(region).dominates(def_block, block) {
                    Ok(())
                } else {
                    Err(Invisible::NotDominating)
                };
            }
            match m.block_parent_op(block) {
                Some(owner) if owner != func => cur = owner,
                _ => return Err(Invisible::NotDominating),
            }
        }
    }
}
