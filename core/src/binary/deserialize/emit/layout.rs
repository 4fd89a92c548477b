//! Layout: the regions of a function, their blocks, and the chains of
//! binary blocks and construct ops in each block (step 1 of
//! [`super`]); exits and their dispatch after a construct; which
//! selection headers run before their op.

use super::{core, FnEmitter, Item, Local, Pending, Slot, Start, Target};
use crate::binary::deserialize::cfg::Kind;
use crate::binary::deserialize::reader::Val;
use crate::binary::deserialize::structurize::{Entry, Owner};
use crate::binary::deserialize::{invalid, Result};
use crate::binary::serialize::tables::FxHashMap;
use crate::grammar::{Opcode, OperandKind};
use crate::ir::{Block, Location, OpKind, OpSpec, Region, Value};
use rspirv::spirv::Op as SpvOp;

impl FnEmitter<'_> {
    /// Selections whose header defines a value used outside the selection:
    /// the header runs exactly once when the construct is entered, so its
    /// instructions can run before the op, where the value stays visible.
    pub(super) fn headers_to_hoist(&self) -> Vec<bool> {
        let c = self.cfg.constructs.len();
        let mut defined_in: FxHashMap<u32, usize> = FxHashMap::default();
        for (y, k) in self.cfg.constructs.iter().enumerate() {
            if k.kind != Kind::Selection || self.plan.entry[y] == Entry::Unreached {
                continue;
            }
            for (inst, _) in &self.cfg.blocks[k.header].body {
                if let Some(r) = inst.result {
                    if inst.desc.op != Opcode::Variable {
                        defined_in.insert(r, y);
                    }
                }
            }
        }
        let mut hoist = vec![false; c];
        if defined_in.is_empty() {
            return hoist;
        }
        // Whether a use in block `u` is outside construct `y`.
        let outside = |u: usize, y: usize| -> bool {
            let mut cur = self.plan.member[u].flatten();
            while let Some(o) = cur {
                if o == y {
                    return false;
                }
                if self.plan.depth[o] <= self.plan.depth[y] {
                    return true;
                }
                cur = self.plan.parent[o].flatten();
            }
            true
        };
        for (u, block) in self.cfg.blocks.iter().enumerate() {
            if self.plan.member[u].is_none() {
                continue;
            }
            let insts = block
                .body
                .iter()
                .map(|(i, _)| i)
                .chain(block.term.as_ref().map(|(t, _)| t));
            for inst in insts {
                for o in &inst.operands {
                    if let Val::Id(id) = o.val {
                        if let Some(&y) = defined_in.get(&id) {
                            if !hoist[y] && outside(u, y) {
                                hoist[y] = true;
                            }
                        }
                    }
                }
            }
            // A phi's value is used at the end of its predecessor.
            for phi in &block.phis {
                for pair in phi.operands.chunks(2) {
                    let (Some(v), Some(p)) = (pair.first(), pair.get(1)) else {
                        continue;
                    };
                    let (Val::Id(v), Val::Id(p)) = (&v.val, &p.val) else {
                        continue;
                    };
                    let Some(&y) = defined_in.get(v) else {
                        continue;
                    };
                    if let Some(&pred) = self.cfg.index.get(p) {
                        if !hoist[y] && self.plan.member[pred].is_some() && outside(pred, y) {
                            hoist[y] = true;
                        }
                    }
                }
            }
        }
        hoist
    }

    pub(super) fn region_slot(&self, owner: Owner) -> usize {
        owner.unwrap_or(self.cfg.constructs.len())
    }

    pub(super) fn build_regions(&mut self, func_region: Region) -> Result<()> {
        // The member blocks of each region, in block order: one pass, so
        // that deep nesting stays linear.
        let mut members = vec![Vec::new(); self.cfg.constructs.len() + 1];
        for (b, m) in self.plan.member.iter().enumerate() {
            if let Some(owner) = *m {
                members[self.region_slot(owner)].push(b);
            }
        }
        self.build_region(None, func_region, &members)?;
        let order = self.plan.order.clone();
        for y in order {
            let Some(region) = self.cons[y].region else {
                continue;
            };
            self.build_region(Some(y), region, &members)?;
        }
        Ok(())
    }

    /// Creates the blocks of the region of `owner` and lays out their
    /// chains; `members` lists each region's member blocks.
    pub(super) fn build_region(
        &mut self,
        owner: Owner,
        region: Region,
        members: &[Vec<usize>],
    ) -> Result<()> {
        let slot = self.region_slot(owner);
        let mut first: Vec<Block> = Vec::new();
        let mut last: Vec<Block> = Vec::new();
        // Chains to lay out: (block, start).
        let mut chains: Vec<(Block, Start)> = Vec::new();
        let own = owner.map(|x| self.cfg.constructs[x].clone());
        match &own {
            None => {
                let entry = self.entry_block;
                first.push(entry);
                let start = match self.cfg.header_of[0] {
                    Some(y) => Start::Construct(y),
                    None => Start::Content(0),
                };
                if let Start::Content(b) = start {
                    if !self.cfg.blocks[0].phis.is_empty() {
                        return Err(invalid(
                            &self.cfg.blocks[0].phis[0],
                            "OpPhi in the entry block",
                        ));
                    }
                    self.start[b] = Some(entry);
                }
                chains.push((entry, start));
                self.region_entries.push(entry);
            }
            Some(k) => {
                let x = owner.unwrap_or(0);
                let header_types = self.phi_types(k.header)?;
                if k.kind == Kind::Loop {
                    let entry = self.new_block(&[]);
                    let header = self.new_block(&header_types);
                    first.push(entry);
                    first.push(header);
                    let args = self.d.m.block(header).args.clone();
                    self.bind_phis(k.header, &args);
                    self.start[k.header] = Some(header);
                    self.cons[x].header = Some(header);
                    chains.push((header, Start::Content(k.header)));
                    // The entry block: one branch to the header.
                    self.loop_entry_branch(x, entry, header)?;
                    // A continue target no placed block branches to has no
                    // incoming values: its phis (or the header's, passed
                    // back) are undefined, not block arguments no branch
                    // would pass (which the serializer cannot write).
                    // (A header that is its own continue target is
                    // entered from outside too: only back edges count.)
                    let entered = self.cfg.preds[k.cont].iter().any(|&p| {
                        self.plan.member[p].is_some()
                            && (k.cont != k.header || self.cfg.back_edges.contains(&(p, k.cont)))
                    });
                    if k.cont == k.header {
                        let (cont, cargs) = if entered {
                            let cont = self.new_block(&header_types);
                            let cargs = self.d.m.block(cont).args.clone();
                            (cont, cargs)
                        } else {
                            let cont = self.new_block(&[]);
                            let cargs = self.undef_values(cont, &header_types);
                            (cont, cargs)
                        };
                        let br = self
                            .d
                            .m
                            .create_op(OpSpec::new(core(SpvOp::Branch)).successor(header, cargs));
                        self.terms.insert(cont, br);
                        self.cons[x].back = Some(cont);
                        self.cons[x].cont = Some(cont);
                        last.push(cont);
                    } else {
                        let cont_types = self.phi_types(k.cont)?;
                        let cont = if entered {
                            let cont = self.new_block(&cont_types);
                            let cargs = self.d.m.block(cont).args.clone();
                            self.bind_phis(k.cont, &cargs);
                            cont
                        } else {
                            let cont = self.new_block(&[]);
                            let values = self.undef_values(cont, &cont_types);
                            self.bind_phis(k.cont, &values);
                            cont
                        };
                        self.cons[x].back = Some(header);
                        self.cons[x].cont = Some(cont);
                        last.push(cont);
                        let start = match self.cfg.header_of[k.cont] {
                            Some(y) if y != x => Start::Construct(y),
                            _ => {
                                self.start[k.cont] = Some(cont);
                                Start::Content(k.cont)
                            }
                        };
                        if let Start::Construct(y) = start {
                            self.cons[y].slot = Some(cont);
                        }
                        chains.push((cont, start));
                    }
                } else {
                    // The header's phis are bound by the parent (absorbed,
                    // inline or slot entry).
                    let header = self.new_block(&[]);
                    first.push(header);
                    self.start[k.header] = Some(header);
                    self.cons[x].header = Some(header);
                    let start = if self.hoist[x] {
                        Start::TermOf(k.header)
                    } else {
                        Start::Content(k.header)
                    };
                    chains.push((header, start));
                }
                let merge = self.new_block(&[]);
                let m = self.d.m.create_op(OpSpec::new(OpKind::Merge));
                self.terms.insert(merge, m);
                self.cons[x].merge = Some(merge);
                last.push(merge);
            }
        }
        // The other blocks of the region: plain blocks, and the slots of
        // constructs entered from several blocks.
        let mut others: Vec<(usize, Block, Start)> = Vec::new();
        for &b in &members[slot] {
            if self.plan.member[b] != Some(owner)
                || self.plan.inline[b]
                || self.start[b].is_some()
                || self.cfg.header_of[b].is_some_and(|y| Some(y) != owner)
            {
                continue;
            }
            let types = self.phi_types(b)?;
            let block = self.new_block(&types);
            let args = self.d.m.block(block).args.clone();
            self.bind_phis(b, &args);
            self.d
                .block_origin
                .insert(block, (self.cfg.blocks[b].at, self.cfg.label(b)));
            self.start[b] = Some(block);
            others.push((b, block, Start::Content(b)));
        }
        for &y in self.plan.children_of(owner).to_vec().iter() {
            if self.plan.entry[y] != Entry::Slot || self.cons[y].slot.is_some() {
                continue;
            }
            let h = self.cfg.constructs[y].header;
            if owner.is_none() && h == 0 {
                // The function's entry block holds it.
                self.cons[y].slot = Some(self.entry_block);
                continue;
            }
            let types = self.phi_types(h)?;
            let block = self.new_block(&types);
            self.cons[y].slot = Some(block);
            others.push((h, block, Start::Construct(y)));
        }
        // A construct's blocks in breadth-first order from its header, as
        // MLIR's deserializer orders them (the serializer writes blocks
        // depth-first, so the words do not depend on it); the function's
        // own blocks in binary order.
        match owner {
            Some(x) => {
                let rank = self.breadth_first_rank(x);
                others.sort_by_key(|(b, _, _)| (rank.get(b).copied().unwrap_or(usize::MAX), *b));
            }
            None => others.sort_by_key(|(b, _, _)| *b),
        }
        let mut order = first;
        for (_, block, start) in others {
            order.push(block);
            chains.push((block, start));
        }
        let mut extra: Vec<Block> = Vec::new();
        for (block, start) in chains {
            self.lay_out_chain(owner, block, start, &mut extra)?;
        }
        order.extend(extra);
        order.extend(last);
        for &b in &order {
            self.d.m.attach_block(region, b);
        }
        self.region_blocks[slot] = order;
        Ok(())
    }

    /// The breadth-first rank of the blocks reached from construct `x`'s
    /// header without crossing its merge block or going back to its
    /// header; a nested construct counts as its header followed by its
    /// merge block.
    pub(super) fn breadth_first_rank(&self, x: usize) -> FxHashMap<usize, usize> {
        let k = &self.cfg.constructs[x];
        let mut rank: FxHashMap<usize, usize> = FxHashMap::default();
        let mut queue = std::collections::VecDeque::from([k.header]);
        rank.insert(k.header, 0);
        while let Some(b) = queue.pop_front() {
            // A nested construct's blocks are its own: go on after it.
            let from = match self.cfg.header_of[b] {
                Some(y) if y != x => self.cfg.constructs[y].merge,
                _ => b,
            };
            for &t in &self.cfg.succs[from] {
                if t == k.merge || t == k.header || rank.contains_key(&t) {
                    continue;
                }
                rank.insert(t, rank.len());
                queue.push_back(t);
            }
        }
        rank
    }

    /// `spv.Undef` values of `types`, at the start of `block`.
    fn undef_values(&mut self, block: Block, types: &[crate::ir::Type]) -> Vec<Value> {
        types
            .iter()
            .map(|&t| {
                let op = self.push_op(block, OpSpec::new(core(SpvOp::Undef)).results([t]));
                self.result(op)
            })
            .collect()
    }

    /// The single `spv.Branch` of loop `x`'s entry block.
    pub(super) fn loop_entry_branch(
        &mut self,
        x: usize,
        entry: Block,
        header: Block,
    ) -> Result<()> {
        let args = self.cons[x].entry_args.clone();
        let pending = self.cons[x].entry_pending.clone();
        let n = args.len().max(pending.len());
        let br = self
            .d
            .m
            .create_op(OpSpec::new(core(SpvOp::Branch)).successor(
                header,
                if pending.is_empty() {
                    args
                } else {
                    vec![self.placeholder; n]
                },
            ));
        let anchor = self.cons[x].op.unwrap_or(br);
        for (i, (id, at)) in pending.into_iter().enumerate() {
            self.pending.push(Pending {
                op: br,
                slot: Slot::SuccArg(0, i),
                id,
                at,
                anchor,
                in_block: None,
            });
        }
        self.terms.insert(entry, br);
        Ok(())
    }

    /// Lays out the chain of IR block `block` starting at `start`; blocks it
    /// creates (dispatch, edge blocks) go to `extra`.
    pub(super) fn lay_out_chain(
        &mut self,
        owner: Owner,
        mut block: Block,
        mut start: Start,
        extra: &mut Vec<Block>,
    ) -> Result<()> {
        let cont_chain = owner.map(|x| &self.cfg.constructs[x]).is_some_and(|k| {
            k.kind == Kind::Loop && matches!(start, Start::Content(b) if b == k.cont)
        });
        // Each step consumes a block or a construct: a chain is never longer.
        let mut steps = self.cfg.blocks.len() + self.cfg.constructs.len() + 1;
        loop {
            steps = steps.checked_sub(1).ok_or_else(|| {
                self.unstructurable(0, "internal: a block chain does not end".into())
            })?;
            match start {
                Start::TermOf(b) => {
                    self.term_home[b] = Some(block);
                    self.ends_block[b] = true;
                    return Ok(());
                }
                Start::Content(b) => {
                    self.home[b] = Some(block);
                    self.term_home[b] = Some(block);
                    self.push_item(block, Item::Content(b));
                    let term = self.cfg.blocks[b].term.as_ref().map(|(t, _)| t.desc.op);
                    let target = self.cfg.succs[b].first().copied();
                    if term == Some(Opcode::Branch) && self.cfg.blocks[b].merge.is_none() {
                        let t = target.unwrap_or(0);
                        if let Some(y) = self.cfg.header_of[t] {
                            if self.plan.entry[y] == Entry::Absorbed(b)
                                && self.plan.parent[y] == Some(owner)
                            {
                                start = Start::Construct(y);
                                continue;
                            }
                        }
                        if cont_chain && self.fusable(owner, b, t) {
                            self.alias_phis(t, b)?;
                            self.start[t] = Some(block);
                            start = Start::Content(t);
                            continue;
                        }
                    }
                    self.ends_block[b] = true;
                    return Ok(());
                }
                Start::Construct(y) => {
                    block = self.lay_out_construct(owner, block, y, extra)?;
                    let m = self.cfg.constructs[y].merge;
                    if self.plan.inline[m] {
                        match self.cfg.header_of[m] {
                            Some(z) if self.plan.entry[z] == Entry::Inline(y) => {
                                start = Start::Construct(z);
                            }
                            _ => {
                                let values = self.load_phis(block, m)?;
                                self.bind_phis(m, &values);
                                start = Start::Content(m);
                            }
                        }
                        continue;
                    }
                    // The merge block is a label of this or an enclosing
                    // region: branch there.
                    let target = self.target(owner, m, None)?;
                    self.branch_to_label(block, owner, m, target)?;
                    return Ok(());
                }
            }
        }
    }

    /// Whether `t` can join the continue block's chain after `b`: a plain
    /// block of the loop entered only from `b`.
    pub(super) fn fusable(&self, owner: Owner, b: usize, t: usize) -> bool {
        let Some(x) = owner else { return false };
        let k = &self.cfg.constructs[x];
        t != k.header
            && t != k.merge
            && self.plan.member[t] == Some(owner)
            && !self.plan.inline[t]
            && self.cfg.header_of[t].is_none()
            && self.cfg.sole_entering_pred(t, b)
            && self.cfg.preds[t].len() == 1
    }

    /// Maps the phis of `t` (entered only from `pred`) to their incoming ids.
    pub(super) fn alias_phis(&mut self, t: usize, pred: usize) -> Result<()> {
        let incoming = self.incoming(t, pred)?;
        let ids: Vec<u32> = self.cfg.blocks[t]
            .phis
            .iter()
            .filter_map(|p| p.result)
            .collect();
        for (id, (v, _)) in ids.into_iter().zip(incoming) {
            self.locals.insert(id, Local::Alias(v));
        }
        Ok(())
    }

    /// Places construct `y`'s op at the end of `block` (region of `owner`),
    /// with the exit-code reset before and the dispatch after it. Returns
    /// the block the chain continues in.
    pub(super) fn lay_out_construct(
        &mut self,
        owner: Owner,
        block: Block,
        y: usize,
        extra: &mut Vec<Block>,
    ) -> Result<Block> {
        let k = self.cfg.constructs[y].clone();
        let has_exits = !self.plan.exits[y].is_empty();
        if has_exits {
            let flag = self.flag()?;
            let zero = self.i32_constant(block, 0);
            self.push_op(
                block,
                OpSpec::new(core(SpvOp::Store)).operands([flag, zero]),
            );
        }
        let (kind, control_name, control_kind) = match k.kind {
            Kind::Loop => (OpKind::Loop, "loop_control", OperandKind::LoopControl),
            Kind::Selection => (
                OpKind::Selection,
                "selection_control",
                OperandKind::SelectionControl,
            ),
        };
        let control = self.d.m.attrs.enumerant(control_kind, k.control);
        let mut spec = OpSpec::new(kind).regions(1).attr(control_name, control);
        if !k.params.is_empty() {
            let i32t = self.d.m.types.int(32);
            let items = k
                .params
                .iter()
                .map(|&p| self.d.m.attrs.int(i128::from(p), i32t))
                .collect();
            let a = self.d.m.attrs.array(items);
            spec = spec.attr("loop_control_literals", a);
        }
        let op = self.d.m.create_op(spec.loc(self.block_loc(k.header)));
        self.cons[y].op = Some(op);
        self.cons[y].region = Some(self.d.m.op(op).regions[0]);
        // The header's phis: their values on entry.
        let phis = !self.cfg.blocks[k.header].phis.is_empty();
        match (self.plan.entry[y], k.kind) {
            (Entry::Absorbed(p), Kind::Loop) => {
                self.cons[y].entry_pending = self.incoming(k.header, p)?;
            }
            (Entry::Absorbed(p), Kind::Selection) => self.alias_phis(k.header, p)?,
            (Entry::Inline(_), Kind::Loop) => {
                self.cons[y].entry_args = self.load_phis(block, k.header)?;
            }
            (Entry::Inline(_), Kind::Selection) => {
                let values = self.load_phis(block, k.header)?;
                self.bind_phis(k.header, &values);
            }
            (Entry::Slot, kind) => {
                let args = if phis {
                    self.d.m.block(block).args.clone()
                } else {
                    Vec::new()
                };
                if phis && args.len() != self.cfg.blocks[k.header].phis.len() {
                    return Err(self
                        .unstructurable(k.header, "the header's OpPhis cannot be placed".into()));
                }
                if kind == Kind::Loop {
                    self.cons[y].entry_args = args;
                } else {
                    self.bind_phis(k.header, &args);
                }
            }
            (Entry::Unreached, _) => {}
        }
        if self.hoist[y] {
            self.home[k.header] = Some(block);
            self.push_item(block, Item::Content(k.header));
        }
        self.push_item(block, Item::Op(op));
        if !has_exits {
            return Ok(block);
        }
        self.dispatch(owner, block, y, extra)
    }

    /// The location of block `b`'s first instruction, when kept.
    pub(super) fn block_loc(&self, b: usize) -> Location {
        let blk = &self.cfg.blocks[b];
        blk.body
            .first()
            .map(|(_, l)| *l)
            .or_else(|| blk.term.as_ref().map(|(_, l)| *l))
            .unwrap_or(Location::UNKNOWN)
    }

    /// After construct `y` (in `block`, region of `owner`): branches on the
    /// exit code to the continue block or out through the merge block.
    pub(super) fn dispatch(
        &mut self,
        owner: Owner,
        block: Block,
        y: usize,
        extra: &mut Vec<Block>,
    ) -> Result<Block> {
        let Some(x) = owner else {
            let h = self.cfg.constructs[y].header;
            return Err(self.unstructurable(
                h,
                "a branch from inside the construct leaves it for no enclosing construct".into(),
            ));
        };
        let k = self.cfg.constructs[x].clone();
        let exits = self.plan.exits[y].clone();
        let flag = self.flag()?;
        let i32t = self.d.m.types.int(32);
        let bool_t = self.d.m.types.bool();
        let load = self.push_op(
            block,
            OpSpec::new(core(SpvOp::Load))
                .operands([flag])
                .results([i32t]),
        );
        let f = self.result(load);
        let mut to_cont: Option<(Value, usize)> = None;
        let mut to_merge: Option<Value> = None;
        for t in exits {
            if k.kind == Kind::Loop && t == k.header {
                return Err(self.unstructurable(
                    t,
                    "a branch from inside a nested construct goes back to the loop header".into(),
                ));
            }
            let code = self.code(t);
            let c = self.i32_constant(block, i128::from(code));
            let eq = self.push_op(
                block,
                OpSpec::new(core(SpvOp::IEqual))
                    .operands([f, c])
                    .results([bool_t]),
            );
            let eq = self.result(eq);
            if k.kind == Kind::Loop && t == k.cont {
                to_cont = Some((eq, t));
            } else {
                to_merge = Some(match to_merge {
                    None => eq,
                    Some(prev) => {
                        let or = self.push_op(
                            block,
                            OpSpec::new(core(SpvOp::LogicalOr))
                                .operands([prev, eq])
                                .results([bool_t]),
                        );
                        self.result(or)
                    }
                });
            }
        }
        let mut block = block;
        if let Some((cond, t)) = to_cont {
            let args = self.load_phis(block, t)?;
            let cont = self.cons[x].cont.unwrap_or(block);
            let next = self.new_block(&[]);
            extra.push(next);
            let br = self.d.m.create_op(
                OpSpec::new(core(SpvOp::BranchConditional))
                    .operands([cond])
                    .successor(cont, args)
                    .successor(next, Vec::new()),
            );
            self.terms.insert(block, br);
            block = next;
        }
        if let Some(cond) = to_merge {
            let merge = self.cons[x].merge.unwrap_or(block);
            let next = self.new_block(&[]);
            extra.push(next);
            let br = self.d.m.create_op(
                OpSpec::new(core(SpvOp::BranchConditional))
                    .operands([cond])
                    .successor(merge, Vec::new())
                    .successor(next, Vec::new()),
            );
            self.terms.insert(block, br);
            block = next;
        }
        Ok(block)
    }

    /// How a branch to block `t` from the region of `owner` is made; `from`
    /// is the binary block it comes from (`None`: after a construct).
    pub(super) fn target(&self, owner: Owner, t: usize, from: Option<usize>) -> Result<Target> {
        let at_block = from.unwrap_or(t);
        if let Some(x) = owner {
            let k = &self.cfg.constructs[x];
            if t == k.merge {
                return Ok(Target::Merge);
            }
            if k.kind == Kind::Loop && t == k.header {
                if let Some(b) = self.cons[x].back {
                    return Ok(Target::Direct(b));
                }
            }
            if k.kind == Kind::Loop && t == k.cont {
                if let Some(b) = self.cons[x].cont {
                    return Ok(Target::Direct(b));
                }
            }
            if k.kind == Kind::Selection && t == k.header {
                return Err(self.unstructurable(
                    at_block,
                    format!(
                        "it branches back to the selection header %{} (a loop without OpLoopMerge)",
                        self.cfg.label(t)
                    ),
                ));
            }
        }
        if let Some(y) = self.cfg.header_of[t].filter(|&y| Some(y) != owner) {
            if self.plan.parent[y] == Some(owner) {
                return match self.plan.entry[y] {
                    Entry::Absorbed(p) if from == Some(p) => Ok(Target::Absorbed),
                    Entry::Slot => match self.cons[y].slot {
                        Some(s) => Ok(Target::Direct(s)),
                        None => Err(self.unstructurable(at_block, "internal: no slot".into())),
                    },
                    _ => Err(self.unstructurable(
                        at_block,
                        format!(
                            "it branches to %{}, the merge block of another construct, from outside that construct",
                            self.cfg.label(t)
                        ),
                    )),
                };
            }
        }
        if self.plan.member[t] == Some(owner) && !self.plan.inline[t] {
            if let Some(b) = self.start[t] {
                return Ok(Target::Direct(b));
            }
        }
        if self.plan.outer_label_owner(owner, t).is_some() {
            return Ok(Target::Exit);
        }
        let reason = if self.plan.inline[t] {
            format!(
                "it branches to %{}, the merge block of a construct, from outside that construct",
                self.cfg.label(t)
            )
        } else {
            format!(
                "it branches to %{}, which is inside a construct it is not in",
                self.cfg.label(t)
            )
        };
        Err(self.unstructurable(at_block, reason))
    }

    /// The terminator of `block` after a construct whose merge block `t` is
    /// a label: values of `t`'s phis are in their variables.
    pub(super) fn branch_to_label(
        &mut self,
        block: Block,
        owner: Owner,
        t: usize,
        target: Target,
    ) -> Result<()> {
        let x = owner.unwrap_or(0);
        let br = match target {
            Target::Direct(b) => {
                let args = self.load_phis(block, t)?;
                OpSpec::new(core(SpvOp::Branch)).successor(b, args)
            }
            Target::Merge => {
                let merge = self.cons[x].merge.unwrap_or(block);
                OpSpec::new(core(SpvOp::Branch)).successor(merge, Vec::new())
            }
            Target::Exit => {
                let code = self.code(t);
                let flag = self.flag()?;
                let c = self.i32_constant(block, i128::from(code));
                self.push_op(block, OpSpec::new(core(SpvOp::Store)).operands([flag, c]));
                let merge = self.cons[x].merge.unwrap_or(block);
                OpSpec::new(core(SpvOp::Branch)).successor(merge, Vec::new())
            }
            Target::Absorbed => {
                return Err(self.unstructurable(t, "internal: absorbed label".into()))
            }
        };
        let op = self.d.m.create_op(br);
        self.terms.insert(block, op);
        Ok(())
    }
}
