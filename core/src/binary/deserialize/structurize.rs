//! The structurizer: which region every block of a function belongs to.
//!
//! The binary's constructs (a header with `OpSelectionMerge` /
//! `OpLoopMerge`, its merge block, a loop's continue target) nest. In the
//! IR a construct is one op, `spv.mlir.selection` or `spv.mlir.loop`,
//! whose region holds the construct's blocks and ends in a merge block
//! (`spv.mlir.merge`, "leave the construct"); the code after the construct
//! — its merge block's instructions — follows the op in the same block.
//! This file decides, for each function:
//!
//! * the parent of every construct (the function or another construct),
//!   found by walking each construct's blocks from its header (plus, for a
//!   loop, its continue target) without crossing its merge block, a loop's
//!   back edge, or a label of an enclosing construct (merge, continue
//!   target, header);
//! * the owner of every block's instructions (the innermost construct, or
//!   the function); a block reached from two constructs is an error naming
//!   it;
//! * how each construct is entered from its parent: *inline* right after
//!   the previous construct whose merge block is its header (consecutive
//!   constructs), *absorbed* into the one block that branches to its
//!   header (the serializer's own layout), or through a block of its own
//!   (*slot*) when several blocks branch to its header;
//! * which merge blocks continue *inline* after their construct's op;
//! * the *exits* of every construct: branches from inside it to a label of
//!   an enclosing construct other than its own merge (`break` and
//!   `continue` from inside a selection). The region form cannot branch
//!   out of a region, so such an exit leaves each construct in between
//!   through its merge block with a code in a function variable, and the
//!   enclosing construct that owns the target dispatches on the code
//!   ([`super::emit`]).
//!
//! All of it is iterative: a worklist of constructs, each walked once, so
//! deeply nested input costs heap, not stack.

use super::cfg::{Cfg, Kind};
use super::error::DeserializeError;
use super::{FxHashSet, Result};
use crate::grammar::Opcode;

/// The owner of a region: the function (`None`) or a construct.
pub(super) type Owner = Option<usize>;

/// How a construct is entered from its parent region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// Not reached (its header is unreachable).
    Unreached,
    /// Its header is the merge block of construct `.0`: the op follows that
    /// construct's op.
    Inline(usize),
    /// Its header's one entering predecessor, block `.0`, ends in
    /// `OpBranch` to it: the op is placed in that block.
    Absorbed(usize),
    /// A block of its own in the parent region holds the op.
    Slot,
}

/// The structure of one function.
pub(super) struct Plan {
    /// The parent of each construct (`None` inside: the function).
    pub parent: Vec<Option<Owner>>,
    /// How each construct is entered.
    pub entry: Vec<Entry>,
    /// Nesting depth of each construct (1 for a child of the function).
    pub depth: Vec<usize>,
    /// The owner of each block's instructions; `None` outside: the block is
    /// dropped (unreachable).
    pub member: Vec<Option<Owner>>,
    /// Whether a block is a merge block continuing inline after its
    /// construct.
    pub inline: Vec<bool>,
    /// Constructs in parent-before-child order.
    pub order: Vec<usize>,
    /// Children of each construct and of the function (last entry), in
    /// discovery order.
    pub children: Vec<Vec<usize>>,
    /// The exit targets of each construct (blocks), in discovery order.
    pub exits: Vec<Vec<usize>>,
    /// The constructs each block is a label of (merge block; a loop's
    /// header or continue target).
    labels_of: Vec<Vec<usize>>,
    /// A jump pointer of each placed construct: an ancestor (itself at
    /// depth 1) chosen as in skew-binary lists, so that the ancestor of a
    /// construct at any depth is found in O(log depth) steps
    /// ([`Plan::ancestor_at`]); queries then stay linear in deep input.
    jump: Vec<usize>,
}

impl Plan {
    /// Walks the function of `cfg`; constructs nested deeper than
    /// `max_depth` are an error (found as soon as the walk gets there, so
    /// rejecting deep input stays linear).
    pub fn new(cfg: &Cfg, max_depth: usize) -> Result<Plan> {
        let n = cfg.blocks.len();
        let c = cfg.constructs.len();
        let mut p = Plan {
            parent: vec![None; c],
            entry: vec![Entry::Unreached; c],
            depth: vec![0; c],
            member: vec![None; n],
            inline: vec![false; n],
            order: Vec::with_capacity(c),
            children: vec![Vec::new(); c + 1],
            exits: vec![Vec::new(); c],
            labels_of: vec![Vec::new(); n],
            jump: (0..c).collect(),
        };
        for (x, k) in cfg.constructs.iter().enumerate() {
            p.labels_of[k.merge].push(x);
            if k.kind == Kind::Loop {
                p.labels_of[k.header].push(x);
                if k.cont != k.header {
                    p.labels_of[k.cont].push(x);
                }
            }
        }
        let mut done = vec![false; n];
        let mut worklist: Vec<Owner> = vec![None];
        let mut next = 0;
        while next < worklist.len() {
            let ctx = worklist[next];
            next += 1;
            p.walk(cfg, ctx, &mut done, &mut worklist, max_depth)?;
        }
        p.order = worklist.into_iter().flatten().collect();
        p.compute_exits(cfg)?;
        Ok(p)
    }

    /// The index into [`Plan::children`] of `owner`.
    pub fn children_of(&self, owner: Owner) -> &[usize] {
        &self.children[owner.unwrap_or(self.children.len() - 1)]
    }

    /// If block `t` is a label (merge block, continue target, loop header)
    /// of a construct that is a strict ancestor of `ctx`, that construct
    /// (the nearest one).
    pub fn outer_label_owner(&self, ctx: Owner, t: usize) -> Option<usize> {
        let x = ctx?;
        let mut best: Option<usize> = None;
        for &a in &self.labels_of[t] {
            let placed = self.parent[a].is_some();
            if !placed
                || self.depth[a] >= self.depth[x]
                || best.is_some_and(|b| self.depth[b] >= self.depth[a])
            {
                continue;
            }
            if self.ancestor_at(x, self.depth[a]) == a {
                best = Some(a);
            }
        }
        best
    }

    /// The ancestor of placed construct `x` at depth `d` (1 ..= its own).
    fn ancestor_at(&self, mut x: usize, d: usize) -> usize {
        while self.depth[x] > d {
            let j = self.jump[x];
            x = if self.depth[j] >= d {
                j
            } else {
                match self.parent[x] {
                    Some(Some(p)) => p,
                    _ => return x,
                }
            };
        }
        x
    }

    /// Sets the jump pointer of `y`, just placed under `parent`.
    fn set_jump(&mut self, y: usize, parent: Owner) {
        self.jump[y] = match parent {
            None => y,
            Some(p) => {
                let jp = self.jump[p];
                let jjp = self.jump[jp];
                if jp != p && self.depth[p] - self.depth[jp] == self.depth[jp] - self.depth[jjp] {
                    jjp
                } else {
                    p
                }
            }
        };
    }

    /// Whether block `t` ends a walk of `ctx`: its own merge, a loop's
    /// header (back edge) or continue target (walked as a start), or a
    /// label of an enclosing construct.
    fn stops(&self, cfg: &Cfg, ctx: Owner, t: usize) -> bool {
        if let Some(x) = ctx {
            let k = &cfg.constructs[x];
            if t == k.merge || (k.kind == Kind::Loop && (t == k.header || t == k.cont)) {
                return true;
            }
        }
        self.outer_label_owner(ctx, t).is_some()
    }

    /// Why a block reached from two regions cannot be placed.
    fn two_owners(cfg: &Cfg, a: Owner, b: Owner) -> String {
        let name = |o: Owner| match o {
            None => "the function body".to_string(),
            Some(x) => format!(
                "the construct headed by %{}",
                cfg.label(cfg.constructs[x].header)
            ),
        };
        // Constructs first, by header label: one message per pair.
        let key = |o: Owner| o.map_or(u32::MAX, |x| cfg.label(cfg.constructs[x].header));
        let (first, second) = if key(a) <= key(b) { (a, b) } else { (b, a) };
        format!(
            "it is reached both from {} and from {}",
            name(first),
            name(second)
        )
    }

    fn unstructurable(cfg: &Cfg, b: usize, reason: String) -> DeserializeError {
        DeserializeError::Unstructurable {
            at: cfg.blocks[b].at,
            block: cfg.label(b),
            reason,
        }
    }

    /// Walks the blocks of `ctx`, recording owners and nested constructs.
    fn walk(
        &mut self,
        cfg: &Cfg,
        ctx: Owner,
        done: &mut [bool],
        worklist: &mut Vec<Owner>,
        max_depth: usize,
    ) -> Result<()> {
        /// How the walk arrived at a block.
        #[derive(Clone, Copy)]
        enum Via {
            /// Popped from the stack (some branch leads here).
            Stack,
            /// The one `OpBranch` of block `.0` leads here.
            Branch(usize),
            /// The merge block of construct `.0`, continuing after it.
            After(usize),
        }
        let own = ctx.map(|x| &cfg.constructs[x]);
        let mut stack: Vec<usize> = Vec::new();
        match own {
            None => stack.push(0),
            Some(k) => {
                if k.kind == Kind::Loop && k.cont != k.header {
                    stack.push(k.cont);
                }
                stack.push(k.header);
            }
        }
        while let Some(start) = stack.pop() {
            let mut cur = start;
            let mut via = Via::Stack;
            loop {
                // A nested construct's header: the construct is a child of
                // ctx; continue at its merge block.
                if let Some(y) = cfg.header_of[cur].filter(|&y| Some(y) != ctx) {
                    match self.parent[y] {
                        Some(parent) if parent == ctx => break,
                        Some(_) => {
                            return Err(Self::unstructurable(
                                cfg,
                                cur,
                                "the header is reached from two different constructs".into(),
                            ))
                        }
                        None => {}
                    }
                    self.parent[y] = Some(ctx);
                    self.depth[y] = ctx.map_or(1, |x| self.depth[x] + 1);
                    self.set_jump(y, ctx);
                    if self.depth[y] > max_depth {
                        return Err(DeserializeError::Unsupported {
                            at: cfg.blocks[cur].at,
                            what: format!(
                                "constructs nested more than {max_depth} deep (the IR's tools handle at most {max_depth})"
                            ),
                        });
                    }
                    self.entry[y] = match via {
                        Via::Stack => Entry::Slot,
                        Via::Branch(b) => Entry::Absorbed(b),
                        Via::After(z) => Entry::Inline(z),
                    };
                    let slot = ctx.unwrap_or(self.children.len() - 1);
                    self.children[slot].push(y);
                    worklist.push(Some(y));
                    let m = cfg.constructs[y].merge;
                    if self.stops(cfg, ctx, m) {
                        break;
                    }
                    let taken = match cfg.header_of[m] {
                        Some(z) => self.parent[z].is_some(),
                        None => self.member[m].is_some(),
                    };
                    if taken || self.inline[m] {
                        return Err(Self::unstructurable(
                            cfg,
                            m,
                            format!(
                                "the merge block of the construct headed by %{} is also reached from outside it",
                                cfg.label(cfg.constructs[y].header)
                            ),
                        ));
                    }
                    self.inline[m] = true;
                    via = Via::After(y);
                    cur = m;
                    continue;
                }
                // Plain content of ctx.
                if let Some(other) = self.member[cur] {
                    if other != ctx {
                        return Err(Self::unstructurable(
                            cfg,
                            cur,
                            Self::two_owners(cfg, ctx, other),
                        ));
                    }
                }
                if done[cur] {
                    break;
                }
                done[cur] = true;
                self.member[cur] = Some(ctx);
                // An unconditional branch to a nested header whose only
                // entering predecessor is this block: the construct's op
                // goes right here.
                let succs = &cfg.succs[cur];
                let block = &cfg.blocks[cur];
                let is_branch = block.merge.is_none()
                    && block
                        .term
                        .as_ref()
                        .is_some_and(|(t, _)| t.desc.op == Opcode::Branch);
                if let (true, Some(&t)) = (is_branch, succs.first()) {
                    let nested = cfg.header_of[t].filter(|&y| Some(y) != ctx);
                    if let Some(y) = nested {
                        let single = cfg.sole_entering_pred(t, cur);
                        if single && self.parent[y].is_none() && !self.stops(cfg, ctx, t) {
                            via = Via::Branch(cur);
                            cur = t;
                            continue;
                        }
                    }
                }
                for &t in succs.iter().rev() {
                    if !self.stops(cfg, ctx, t) {
                        stack.push(t);
                    }
                }
                break;
            }
        }
        Ok(())
    }

    /// The exit targets of every construct, children before parents.
    fn compute_exits(&mut self, cfg: &Cfg) -> Result<()> {
        let mut content: Vec<Vec<usize>> = vec![Vec::new(); cfg.constructs.len()];
        for (b, owner) in self.member.iter().enumerate() {
            if let Some(Some(y)) = owner {
                content[*y].push(b);
            }
        }
        for &y in self.order.iter().rev() {
            let mut exits: Vec<usize> = Vec::new();
            let mut seen: FxHashSet<usize> = FxHashSet::default();
            let k = &cfg.constructs[y];
            let own_label =
                |t: usize| t == k.merge || (k.kind == Kind::Loop && (t == k.cont || t == k.header));
            // Branches from y's own blocks, and continuations of its
            // children that end at a label.
            for &b in &content[y] {
                for &t in &cfg.succs[b] {
                    if !own_label(t)
                        && self.outer_label_owner(Some(y), t).is_some()
                        && seen.insert(t)
                    {
                        exits.push(t);
                    }
                }
            }
            for &z in &self.children[y] {
                let m = cfg.constructs[z].merge;
                let mut targets: Vec<usize> = self.exits[z].clone();
                if !self.inline[m] {
                    targets.push(m);
                }
                for t in targets {
                    if own_label(t) {
                        if k.kind == Kind::Loop && t == k.header {
                            return Err(Self::unstructurable(
                                cfg,
                                cfg.constructs[z].header,
                                format!(
                                    "a branch from inside the construct headed by %{} goes back to the loop header %{} (not from the loop's continue construct)",
                                    cfg.label(cfg.constructs[z].header),
                                    cfg.label(t)
                                ),
                            ));
                        }
                        continue;
                    }
                    if self.outer_label_owner(Some(y), t).is_some() && seen.insert(t) {
                        exits.push(t);
                    }
                }
            }
            self.exits[y] = exits;
        }
        Ok(())
    }
}
