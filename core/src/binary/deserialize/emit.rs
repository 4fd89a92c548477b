//! Rebuilding a function body as regions, following the [`Plan`].
//!
//! 1. **Layout.** Region by region, parent before child, each region gets
//!    its blocks: a loop's fresh entry block (a single `spv.Branch` to the
//!    header passing the header's initial values), the header, the other
//!    blocks in binary order, the continue block second to last (a fresh
//!    one branching back when the header is its own continue target), the
//!    merge block (`spv.mlir.merge`) last. An IR block is a chain: one
//!    binary block's instructions, then — when it branches to a header it
//!    absorbs, or when a construct's merge block continues after the
//!    construct — the construct's op and its merge block's instructions,
//!    and so on. Before a construct with exits the exit code is reset to
//!    0; after it, the code is dispatched: `continue` to the loop's
//!    continue block, anything else to the region's merge block (and on,
//!    through the enclosing constructs, to the target).
//! 2. **Instructions.** Blocks are decoded in binary order, so a value is
//!    defined before its uses (SPIR-V orders blocks by dominance); each op
//!    goes to its block's chain. Constants, global variables,
//!    specialization constants and module-level undefs are materialized
//!    where they are used, once per IR block. Function variables go to the
//!    start of the function.
//! 3. **Branches.** A branch to a block of the same region passes the
//!    target's phi values as block arguments; a branch that leaves the
//!    region (to its merge block, or an exit) cannot, so those values are
//!    stored in one function variable per phi and loaded where the target
//!    is entered. A conditional exit stores its code through
//!    `spv.Select`, so the branch itself still targets a merge block (as
//!    SPIR-V's structured rules want of a conditional branch without a
//!    merge instruction). Phi operands may be defined later (back edges):
//!    they are resolved last.
//! 4. **Assembly**, then [`super::escapes`] for values used outside the
//!    region that defines them.

use super::cfg::{Cfg, Kind};
use super::error::{At, DeserializeError};
use super::functions::FnBuilder;
use super::reader::{Inst, Val};
use super::structurize::{Entry, Owner, Plan};
use super::{invalid, Def, Deserializer, Result};
use crate::binary::serialize::tables::FxHashMap;
use crate::grammar::{Decoration, OperandKind, StorageClass};
use crate::ir::{Block, Location, Op, OpKind, OpSpec, Region, Type, TypeKind, Value};
use rspirv::spirv::Op as SpvOp;

/// Where ops that materialize a value go.
#[derive(Clone, Copy, Debug)]
pub(super) enum Sink {
    /// At the end of binary block `.0`'s ops, in IR block `.1`.
    Content(usize, Block),
    /// At the start of the function.
    Prologue,
    /// Right before op `.0`.
    Before(Op),
}

/// What a function id stands for.
#[derive(Clone, Copy, Debug)]
enum Local {
    /// A value.
    Value(Value),
    /// The same as another id (a phi with one incoming value).
    Alias(u32),
    /// The result of a dropped (non-semantic) instruction.
    Dropped(At),
}

/// One entry of an IR block's op list.
#[derive(Clone, Copy, Debug)]
enum Item {
    /// The ops of a binary block.
    Content(usize),
    /// One op.
    Op(Op),
}

/// An operand resolved after every block is decoded.
struct Pending {
    op: Op,
    slot: Slot,
    id: u32,
    at: At,
    anchor: Op,
}

#[derive(Clone, Copy)]
enum Slot {
    Operand(usize),
    SuccArg(usize, usize),
}

/// A branch target in a region.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// An IR block whose arguments are the target's phis.
    Direct(Block),
    /// The region's merge block.
    Merge,
    /// An exit (with the target's code), through the region's merge block.
    Exit,
    /// The branch is absorbed by the construct op it leads to.
    Absorbed,
}

/// The IR of one construct.
#[derive(Clone, Debug, Default)]
struct ConsIr {
    op: Option<Op>,
    region: Option<Region>,
    /// Loops: the header block; selections: the first block.
    header: Option<Block>,
    /// Where back edges go (the header, or the fresh continue block).
    back: Option<Block>,
    cont: Option<Block>,
    merge: Option<Block>,
    slot: Option<Block>,
    /// Loops: the values the entry block passes to the header.
    entry_args: Vec<Value>,
    entry_pending: Vec<(u32, At)>,
}

/// The state of rebuilding one function.
pub(super) struct FnEmitter<'d> {
    pub(super) d: &'d mut Deserializer,
    pub(super) cfg: Cfg,
    plan: Plan,
    func: Op,
    pub(super) entry_block: Block,
    prologue: Vec<Op>,
    buffers: Vec<Vec<Op>>,
    home: Vec<Option<Block>>,
    /// The IR block each binary block's terminator ends (its `home`,
    /// except for hoisted selection headers).
    term_home: Vec<Option<Block>>,
    ends_block: Vec<bool>,
    /// Selections whose header's instructions go before the construct op.
    hoist: Vec<bool>,
    start: Vec<Option<Block>>,
    cons: Vec<ConsIr>,
    layout: FxHashMap<Block, Vec<Item>>,
    terms: FxHashMap<Block, Op>,
    /// IR blocks of each region, in order (function region at the end).
    region_blocks: Vec<Vec<Block>>,
    locals: FxHashMap<u32, Local>,
    /// Result ids defined anywhere in the function (for error messages).
    defined_later: super::FxHashSet<u32>,
    pre: FxHashMap<Op, Vec<Op>>,
    pending: Vec<Pending>,
    cache: FxHashMap<(Block, u32), Value>,
    phi_vars: FxHashMap<(usize, usize), Value>,
    flag: Option<Value>,
    codes: FxHashMap<usize, u32>,
    placeholder: Value,
    /// The smallest parameter id (`u32::MAX` without parameters).
    pub(super) first_param_id: u32,
    /// Blocks of each region whose entry is the region's (for the
    /// `spv.Unreachable` fix-up).
    region_entries: Vec<Block>,
    /// Pending successor arguments of the switch being decoded.
    switch_pending: Vec<(usize, Vec<(u32, At)>)>,
}

fn core(op: SpvOp) -> OpKind {
    OpKind::Core(op as u16)
}

impl Deserializer {
    /// Rebuilds the body of `f` into its `spv.func`.
    pub(super) fn emit_function(&mut self, f: FnBuilder) -> Result<()> {
        let cfg = Cfg::new(f.blocks)?;
        let plan = Plan::new(&cfg)?;
        let region = self.m.op(f.op).regions[0];
        let entry_block = self.m.create_detached_block();
        let mut locals = FxHashMap::default();
        for &(id, ty) in &f.params {
            let v = self.m.add_block_arg(entry_block, ty);
            locals.insert(id, Local::Value(v));
        }
        // A value that stands in for operands resolved at the end.
        let i32t = self.m.types.int(32);
        let holder = self
            .m
            .create_op(OpSpec::new(core(SpvOp::Undef)).results([i32t]));
        let placeholder = self.m.op(holder).results[0];
        let mut defined_later = super::FxHashSet::default();
        for b in &cfg.blocks {
            for inst in b.phis.iter().chain(b.body.iter().map(|(i, _)| i)) {
                if let Some(id) = inst.result {
                    defined_later.insert(id);
                }
            }
        }
        let n = cfg.blocks.len();
        let c = cfg.constructs.len();
        let mut e = FnEmitter {
            d: self,
            cfg,
            plan,
            func: f.op,
            entry_block,
            prologue: Vec::new(),
            buffers: vec![Vec::new(); n],
            home: vec![None; n],
            term_home: vec![None; n],
            ends_block: vec![false; n],
            hoist: vec![false; c],
            start: vec![None; n],
            cons: vec![ConsIr::default(); c],
            layout: FxHashMap::default(),
            terms: FxHashMap::default(),
            region_blocks: vec![Vec::new(); c + 1],
            locals,
            defined_later,
            pre: FxHashMap::default(),
            pending: Vec::new(),
            cache: FxHashMap::default(),
            phi_vars: FxHashMap::default(),
            flag: None,
            codes: FxHashMap::default(),
            placeholder,
            first_param_id: f.params.iter().map(|p| p.0).min().unwrap_or(u32::MAX),
            region_entries: Vec::new(),
            switch_pending: Vec::new(),
        };
        e.hoist = e.headers_to_hoist();
        e.build_regions(region)?;
        e.decode_blocks()?;
        e.resolve_pending()?;
        e.assemble(region)?;
        let func = e.func;
        super::escapes::fix_escaping_values(self, func)
    }
}

impl FnEmitter<'_> {
    // ---- small builders ---------------------------------------------------------

    fn unstructurable(&self, b: usize, reason: String) -> DeserializeError {
        DeserializeError::Unstructurable {
            at: self.cfg.blocks[b].at,
            block: self.cfg.label(b),
            reason,
        }
    }

    /// A fresh IR block with arguments of `types`, not yet in a region.
    fn new_block(&mut self, types: &[Type]) -> Block {
        let b = self.d.m.create_detached_block();
        for &t in types {
            self.d.m.add_block_arg(b, t);
        }
        b
    }

    fn push_item(&mut self, block: Block, item: Item) {
        self.layout.entry(block).or_default().push(item);
    }

    fn push_op(&mut self, block: Block, spec: OpSpec) -> Op {
        let op = self.d.m.create_op(spec);
        self.push_item(block, Item::Op(op));
        op
    }

    fn result(&self, op: Op) -> Value {
        self.d.m.op(op).results[0]
    }

    fn i32_constant(&mut self, block: Block, value: i128) -> Value {
        let i32t = self.d.m.types.int(32);
        let a = self.d.m.attrs.int(value, i32t);
        let op = self.push_op(
            block,
            OpSpec::new(OpKind::Constant)
                .attr("value", a)
                .results([i32t]),
        );
        self.result(op)
    }

    /// The types of block `b`'s phis.
    fn phi_types(&self, b: usize) -> Result<Vec<Type>> {
        let phis = &self.cfg.blocks[b].phis;
        phis.iter().map(|p| self.d.result_type(p)).collect()
    }

    /// A function variable of type `ty`, at the start of the function.
    fn variable(&mut self, ty: Type, at: At, what: &str) -> Result<Value> {
        if !storable(&self.d.m.types, ty) {
            return Err(DeserializeError::Unsupported {
                at,
                what: format!(
                    "{what} of a pointer, image or sampler type must leave a construct, which the region form can only do through a variable"
                ),
            });
        }
        let ptr = self.d.m.types.pointer(ty, StorageClass::Function);
        let sc = self
            .d
            .m
            .attrs
            .enumerant(OperandKind::StorageClass, StorageClass::Function as u32);
        let op = self.d.m.create_op(
            OpSpec::new(core(SpvOp::Variable))
                .attr("storage_class", sc)
                .results([ptr]),
        );
        self.prologue.push(op);
        Ok(self.result(op))
    }

    /// The variable carrying phi `i` of block `t` across a region exit.
    fn phi_var(&mut self, t: usize, i: usize) -> Result<Value> {
        if let Some(&v) = self.phi_vars.get(&(t, i)) {
            return Ok(v);
        }
        let phi = &self.cfg.blocks[t].phis[i];
        let at = phi.at;
        let ty = self.d.result_type(phi)?;
        let v = self.variable(ty, at, "the value of an OpPhi")?;
        self.phi_vars.insert((t, i), v);
        Ok(v)
    }

    /// The exit-code variable.
    fn flag(&mut self) -> Result<Value> {
        if let Some(v) = self.flag {
            return Ok(v);
        }
        let i32t = self.d.m.types.int(32);
        let at = self.cfg.blocks[0].at;
        let v = self.variable(i32t, at, "the exit code")?;
        self.flag = Some(v);
        Ok(v)
    }

    /// The code of exits to block `t`.
    fn code(&mut self, t: usize) -> u32 {
        let next = self.codes.len() as u32 + 1;
        *self.codes.entry(t).or_insert(next)
    }

    /// Loads of the phi variables of `t`, appended to `block`.
    fn load_phis(&mut self, block: Block, t: usize) -> Result<Vec<Value>> {
        let mut out = Vec::new();
        for i in 0..self.cfg.blocks[t].phis.len() {
            let var = self.phi_var(t, i)?;
            let ty = self.d.result_type(&self.cfg.blocks[t].phis[i])?;
            let op = self.push_op(
                block,
                OpSpec::new(core(SpvOp::Load)).operands([var]).results([ty]),
            );
            out.push(self.result(op));
        }
        Ok(out)
    }

    /// Maps the phis of `t` to `values`.
    fn bind_phis(&mut self, t: usize, values: &[Value]) {
        let ids: Vec<u32> = self.cfg.blocks[t]
            .phis
            .iter()
            .filter_map(|p| p.result)
            .collect();
        for (id, &v) in ids.into_iter().zip(values) {
            self.locals.insert(id, Local::Value(v));
        }
    }

    /// The incoming value id of each phi of `t` for predecessor `pred`.
    fn incoming(&self, t: usize, pred: usize) -> Result<Vec<(u32, At)>> {
        let label = self.cfg.label(pred);
        let mut out = Vec::new();
        for phi in &self.cfg.blocks[t].phis {
            let mut found = None;
            let ops = &phi.operands;
            for pair in ops.chunks(2) {
                if let [v, p] = pair {
                    if p.val == Val::Id(label) {
                        if let Val::Id(id) = v.val {
                            found = Some(id);
                        }
                    }
                }
            }
            let id = found.ok_or_else(|| {
                invalid(
                    phi,
                    format!("the OpPhi has no value for predecessor %{label}"),
                )
            })?;
            out.push((id, phi.at));
        }
        Ok(out)
    }

    // ---- 1. layout ------------------------------------------------------------

    /// Selections whose header defines a value used outside the selection:
    /// the header runs exactly once when the construct is entered, so its
    /// instructions can run before the op, where the value stays visible.
    fn headers_to_hoist(&self) -> Vec<bool> {
        let c = self.cfg.constructs.len();
        let mut defined_in: FxHashMap<u32, usize> = FxHashMap::default();
        for (y, k) in self.cfg.constructs.iter().enumerate() {
            if k.kind != Kind::Selection || self.plan.entry[y] == Entry::Unreached {
                continue;
            }
            for (inst, _) in &self.cfg.blocks[k.header].body {
                if let Some(r) = inst.result {
                    if inst.desc.opname != "Variable" {
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

    fn region_slot(&self, owner: Owner) -> usize {
        owner.unwrap_or(self.cfg.constructs.len())
    }

    fn build_regions(&mut self, func_region: Region) -> Result<()> {
        self.build_region(None, func_region)?;
        let order = self.plan.order.clone();
        for y in order {
            let Some(region) = self.cons[y].region else {
                continue;
            };
            self.build_region(Some(y), region)?;
        }
        Ok(())
    }

    /// Creates the blocks of the region of `owner` and lays out their chains.
    fn build_region(&mut self, owner: Owner, region: Region) -> Result<()> {
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
                    if k.cont == k.header {
                        let cont = self.new_block(&header_types);
                        let cargs = self.d.m.block(cont).args.clone();
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
                        let cont = self.new_block(&cont_types);
                        let cargs = self.d.m.block(cont).args.clone();
                        self.bind_phis(k.cont, &cargs);
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
        for b in 0..self.cfg.blocks.len() {
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
        others.sort_by_key(|(b, _, _)| *b);
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

    /// The single `spv.Branch` of loop `x`'s entry block.
    fn loop_entry_branch(&mut self, x: usize, entry: Block, header: Block) -> Result<()> {
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
            });
        }
        self.terms.insert(entry, br);
        Ok(())
    }

    /// Lays out the chain of IR block `block` starting at `start`; blocks it
    /// creates (dispatch, edge blocks) go to `extra`.
    fn lay_out_chain(
        &mut self,
        owner: Owner,
        mut block: Block,
        mut start: Start,
        extra: &mut Vec<Block>,
    ) -> Result<()> {
        let cont_chain = owner.map(|x| &self.cfg.constructs[x]).is_some_and(|k| {
            k.kind == Kind::Loop && matches!(start, Start::Content(b) if b == k.cont)
        });
        loop {
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
                    let term = self.cfg.blocks[b].term.as_ref().map(|(t, _)| t.desc.opname);
                    let target = self.cfg.succs[b].first().copied();
                    if term == Some("Branch") && self.cfg.blocks[b].merge.is_none() {
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
                            let preds: Vec<usize> = vec![b];
                            let _ = preds;
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
    fn fusable(&self, owner: Owner, b: usize, t: usize) -> bool {
        let Some(x) = owner else { return false };
        let k = &self.cfg.constructs[x];
        t != k.header
            && t != k.merge
            && self.plan.member[t] == Some(owner)
            && !self.plan.inline[t]
            && self.cfg.header_of[t].is_none()
            && self.cfg.entering_preds(t).eq(std::iter::once(b))
            && self.cfg.preds[t].len() == 1
    }

    /// Maps the phis of `t` (entered only from `pred`) to their incoming ids.
    fn alias_phis(&mut self, t: usize, pred: usize) -> Result<()> {
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
    fn lay_out_construct(
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
    fn block_loc(&self, b: usize) -> Location {
        let blk = &self.cfg.blocks[b];
        blk.body
            .first()
            .map(|(_, l)| *l)
            .or_else(|| blk.term.as_ref().map(|(_, l)| *l))
            .unwrap_or(Location::UNKNOWN)
    }

    /// After construct `y` (in `block`, region of `owner`): branches on the
    /// exit code to the continue block or out through the merge block.
    fn dispatch(
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
    fn target(&self, owner: Owner, t: usize, from: Option<usize>) -> Result<Target> {
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
        if self.plan.outer_label_owner(&self.cfg, owner, t).is_some() {
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
    fn branch_to_label(
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

    // ---- 2. instructions ---------------------------------------------------------

    /// The value of `id` for a use; constants and module-level values are
    /// materialized at `sink`.
    pub(super) fn use_value(&mut self, id: u32, at: At, sink: Sink) -> Result<Value> {
        let mut id = id;
        let mut hops = 0usize;
        loop {
            match self.locals.get(&id) {
                Some(Local::Value(v)) => return Ok(*v),
                Some(Local::Alias(next)) => {
                    hops += 1;
                    if hops > self.locals.len() {
                        return Err(DeserializeError::Invalid {
                            at,
                            reason: format!("%{id} is defined by a cycle of OpPhis"),
                        });
                    }
                    id = *next;
                }
                Some(Local::Dropped(def)) => {
                    return Err(DeserializeError::Unsupported {
                        at,
                        what: format!(
                            "%{id} is the result of a non-semantic instruction (word {})",
                            def.offset
                        ),
                    })
                }
                None => break,
            }
        }
        let cache_key = match sink {
            Sink::Content(_, block) => Some((block, id)),
            Sink::Prologue => Some((self.entry_block, id)),
            Sink::Before(_) => None,
        };
        if let Some(v) = cache_key.and_then(|k| self.cache.get(&k)) {
            return Ok(*v);
        }
        let spec = match self.d.defs.get(&id).cloned() {
            Some(Def::Constant { ty, value }) if !constant_op_holds(&self.d.m.types, ty) => {
                let v = self.composite_constant(ty, value, sink, at)?;
                if let Some(k) = cache_key {
                    self.cache.insert(k, v);
                }
                return Ok(v);
            }
            Some(Def::Constant { ty, value }) => OpSpec::new(OpKind::Constant)
                .attr("value", value)
                .results([ty]),
            Some(Def::Undef(ty)) => OpSpec::new(core(SpvOp::Undef)).results([ty]),
            Some(Def::Global { name, ty }) => {
                let a = self.d.m.attrs.symbol(name);
                OpSpec::new(OpKind::AddressOf)
                    .attr("variable", a)
                    .results([ty])
            }
            Some(Def::Spec { name, ty }) => {
                let a = self.d.m.attrs.symbol(name);
                OpSpec::new(OpKind::ReferenceOf)
                    .attr("spec_const", a)
                    .results([ty])
            }
            Some(_) => {
                return Err(DeserializeError::WrongId {
                    at,
                    id,
                    expected: "a value",
                })
            }
            None if self.defined_later.contains(&id) => {
                return Err(DeserializeError::Invalid {
                    at,
                    reason: format!(
                        "%{id} is used before its definition (blocks out of dominance order)"
                    ),
                })
            }
            None => return Err(DeserializeError::Undefined { at, id }),
        };
        let op = self.d.m.create_op(spec);
        let v = self.result(op);
        self.sink_op(sink, op);
        if let Some(k) = cache_key {
            self.cache.insert(k, v);
        }
        Ok(v)
    }

    /// A constant of a type `spv.Constant` cannot hold (a struct, a
    /// matrix, an array of those): `spv.CompositeConstruct` of its parts,
    /// built at `sink`.
    fn composite_constant(
        &mut self,
        ty: Type,
        value: crate::ir::Attr,
        sink: Sink,
        at: At,
    ) -> Result<Value> {
        let parts: Vec<Type> = match self.d.m.types.kind(ty) {
            TypeKind::Struct(st) => st.members.iter().map(|m| m.ty).collect(),
            TypeKind::Matrix { columns, column } => vec![*column; *columns as usize],
            TypeKind::Array { len, element, .. } => vec![*element; *len as usize],
            _ => Vec::new(),
        };
        let items: Vec<crate::ir::Attr> = self
            .d
            .m
            .attrs
            .as_array(value)
            .map(<[_]>::to_vec)
            .unwrap_or_default();
        if parts.is_empty() || items.len() != parts.len() {
            return Err(DeserializeError::Unsupported {
                at,
                what: "a constant of this type".into(),
            });
        }
        let mut operands = Vec::with_capacity(parts.len());
        for (t, a) in parts.into_iter().zip(items) {
            let v = if constant_op_holds(&self.d.m.types, t) {
                let op = self
                    .d
                    .m
                    .create_op(OpSpec::new(OpKind::Constant).attr("value", a).results([t]));
                self.sink_op(sink, op);
                self.result(op)
            } else {
                self.composite_constant(t, a, sink, at)?
            };
            operands.push(v);
        }
        let op = self.d.m.create_op(
            OpSpec::new(core(SpvOp::CompositeConstruct))
                .operands(operands)
                .results([ty]),
        );
        self.sink_op(sink, op);
        Ok(self.result(op))
    }

    /// Puts a materialized op at `sink`.
    fn sink_op(&mut self, sink: Sink, op: Op) {
        match sink {
            Sink::Content(b, _) => self.buffers[b].push(op),
            Sink::Prologue => self.prologue.push(op),
            Sink::Before(anchor) => self.pre.entry(anchor).or_default().push(op),
        }
    }

    /// Defines function id `id` as `v`.
    fn define_local(&mut self, id: u32, v: Local, at: At) -> Result<()> {
        if self.d.defs.contains_key(&id) || self.locals.contains_key(&id) {
            return Err(DeserializeError::Redefined { at, id });
        }
        self.locals.insert(id, v);
        Ok(())
    }

    fn decode_blocks(&mut self) -> Result<()> {
        let mut timeline = self.timeline();
        for b in 0..self.cfg.blocks.len() {
            let Some(block) = self.home[b] else {
                if self.plan.member[b].is_some() {
                    return Err(self.unstructurable(b, "internal: block not placed".into()));
                }
                continue;
            };
            self.check_block_decorations(b)?;
            let label = self.cfg.label(b);
            let key = timeline.key_of_label(label);
            timeline.reach(self, b, block, key, &[])?;
            let phi_keys: Vec<u32> = self.cfg.blocks[b]
                .phis
                .iter()
                .filter_map(|p| p.result)
                .collect();
            for k in phi_keys {
                timeline.reach(self, b, block, k, &[])?;
            }
            let body = std::mem::take(&mut self.cfg.blocks[b].body);
            for (inst, loc) in &body {
                if inst.desc.opname == "Variable" {
                    continue;
                }
                let used: Vec<u32> = inst
                    .operands
                    .iter()
                    .filter_map(|o| match o.val {
                        Val::Id(id) => Some(id),
                        _ => None,
                    })
                    .collect();
                let key = inst.result.unwrap_or(0);
                timeline.reach(self, b, block, key, &used)?;
                self.decode_body_instruction(b, block, inst, *loc)?;
            }
            self.cfg.blocks[b].body = body;
            let mut labels: Vec<u32> = Vec::new();
            if let Some(m) = &self.cfg.blocks[b].merge {
                labels.extend([m.id(0), m.id(1)].into_iter().flatten());
            }
            if let Some((t, _)) = &self.cfg.blocks[b].term {
                labels.extend(super::cfg::successor_labels(t));
            }
            let key = labels
                .into_iter()
                .map(|l| timeline.key_of_label(l))
                .filter(|&k| k != 0)
                .min()
                .unwrap_or(0);
            let used: Vec<u32> = self.cfg.blocks[b]
                .term
                .as_ref()
                .map(|(t, _)| {
                    t.operands
                        .iter()
                        .filter_map(|o| match o.val {
                            Val::Id(id) => Some(id),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            timeline.reach(self, b, block, key, &used)?;
            if self.ends_block[b] {
                let term_block = self.term_home[b].unwrap_or(block);
                self.decode_terminator(b, term_block)?;
            }
        }
        timeline.finish(self)
    }

    /// Decorations of labels and phis: `RelaxedPrecision` on a phi is a
    /// hint a block argument cannot carry and is dropped; others are errors.
    fn check_block_decorations(&mut self, b: usize) -> Result<()> {
        let label = self.cfg.label(b);
        if let Some(d) = self.d.decorations.take(label).first() {
            return Err(DeserializeError::Unsupported {
                at: d.at,
                what: format!("decoration {} on a block label", d.decoration),
            });
        }
        let ids: Vec<u32> = self.cfg.blocks[b]
            .phis
            .iter()
            .filter_map(|p| p.result)
            .collect();
        for id in ids {
            for d in self.d.decorations.take(id) {
                if d.decoration != Decoration::RelaxedPrecision {
                    return Err(DeserializeError::Unsupported {
                        at: d.at,
                        what: format!("decoration {} on an OpPhi (a block argument)", d.decoration),
                    });
                }
            }
            if !self.locals.contains_key(&id) {
                return Err(self.unstructurable(b, "internal: phi not bound".into()));
            }
        }
        Ok(())
    }

    fn decode_body_instruction(
        &mut self,
        b: usize,
        block: Block,
        inst: &Inst,
        loc: Location,
    ) -> Result<()> {
        let Some((spec, result)) = self.decode_op(inst, loc, Sink::Content(b, block))? else {
            if let Some(id) = inst.result {
                self.define_local(id, Local::Dropped(inst.at), inst.at)?;
            }
            return Ok(());
        };
        // A bitcast between two types the IR reads as one (`int` and
        // `uint` of a module that mixes them) is the identity.
        if spec.kind == core(SpvOp::Bitcast)
            && spec.operands.len() == 1
            && spec.result_types.first() == Some(&self.d.m.value_type(spec.operands[0]))
        {
            if let Some(id) = result {
                self.define_local(id, Local::Value(spec.operands[0]), inst.at)?;
            }
            return Ok(());
        }
        let op = self.d.m.create_op(spec);
        let origin = (self.cfg.blocks[b].at, self.cfg.label(b));
        self.d.op_origin.insert(op, origin);
        self.buffers[b].push(op);
        if let Some(id) = result {
            match self.d.m.op(op).result() {
                Some(v) => self.define_local(id, Local::Value(v), inst.at)?,
                None => self.define_local(id, Local::Dropped(inst.at), inst.at)?,
            }
        }
        Ok(())
    }

    /// A function variable: at the end of binary block `b`'s ops in IR
    /// block `block` (the function's entry block), or at the start of the
    /// function.
    pub(super) fn decode_variable(
        &mut self,
        inst: &Inst,
        loc: Location,
        place: Option<(usize, Block)>,
    ) -> Result<()> {
        if inst.word(0) != Some(StorageClass::Function as u32) {
            return Err(invalid(
                inst,
                "a variable inside a function must be in the Function storage class",
            ));
        }
        let sink = match place {
            Some((b, block)) => Sink::Content(b, block),
            None => Sink::Prologue,
        };
        let Some((spec, result)) = self.decode_op(inst, loc, sink)? else {
            return Err(invalid(inst, "a variable cannot be dropped"));
        };
        let op = self.d.m.create_op(spec);
        match place {
            Some((b, _)) => self.buffers[b].push(op),
            None => self.prologue.push(op),
        }
        if let (Some(id), Some(v)) = (result, self.d.m.op(op).result()) {
            self.define_local(id, Local::Value(v), inst.at)?;
        }
        Ok(())
    }

    /// Stores of the phi values of `t` coming from `b`, at the end of `b`.
    fn store_phis(&mut self, b: usize, block: Block, t: usize) -> Result<()> {
        let incoming = self.incoming(t, b)?;
        for (i, (id, at)) in incoming.into_iter().enumerate() {
            let var = self.phi_var(t, i)?;
            let v = self.use_value(id, at, Sink::Content(b, block));
            let v = match v {
                Ok(v) => v,
                // Defined later (a back edge's value): resolve at the end.
                Err(_) if self.defined_later.contains(&id) => {
                    let store = self.d.m.create_op(
                        OpSpec::new(core(SpvOp::Store)).operands([var, self.placeholder]),
                    );
                    self.buffers[b].push(store);
                    self.pending.push(Pending {
                        op: store,
                        slot: Slot::Operand(1),
                        id,
                        at,
                        anchor: store,
                    });
                    continue;
                }
                Err(e) => return Err(e),
            };
            let store = self
                .d
                .m
                .create_op(OpSpec::new(core(SpvOp::Store)).operands([var, v]));
            self.buffers[b].push(store);
        }
        Ok(())
    }

    /// A successor of `b`'s terminator for an edge to `t` of kind `target`:
    /// block arguments are pending phi values.
    fn successor(
        &mut self,
        owner: Owner,
        b: usize,
        t: usize,
        target: Target,
    ) -> Result<(Block, Vec<(u32, At)>)> {
        let x = owner.unwrap_or(0);
        match target {
            Target::Direct(block) => Ok((block, self.incoming(t, b)?)),
            Target::Merge | Target::Exit => {
                let merge = self.cons[x]
                    .merge
                    .ok_or_else(|| self.unstructurable(b, "internal: no merge block".into()))?;
                Ok((merge, Vec::new()))
            }
            Target::Absorbed => Err(self.unstructurable(b, "internal: absorbed edge".into())),
        }
    }

    fn decode_terminator(&mut self, b: usize, block: Block) -> Result<()> {
        let owner = self.plan.member[b].unwrap_or(None);
        let Some((term, loc)) = self.cfg.blocks[b].term.clone() else {
            return Err(self.unstructurable(b, "internal: no terminator".into()));
        };
        let opname = term.desc.opname;
        let succs = self.cfg.succs[b].clone();
        if !matches!(opname, "Branch" | "BranchConditional" | "Switch") {
            let Some((spec, _)) = self.decode_op(&term, loc, Sink::Content(b, block))? else {
                return Err(invalid(&term, "a terminator cannot be dropped"));
            };
            let op = self.d.m.create_op(spec);
            self.terms.insert(block, op);
            return Ok(());
        }
        let mut targets = Vec::with_capacity(succs.len());
        for &t in &succs {
            targets.push(self.target(owner, t, Some(b))?);
        }
        // Stores for edges that leave the region: phi values, exit codes.
        let mut stored: Vec<usize> = Vec::new();
        for (&t, target) in succs.iter().zip(&targets) {
            if matches!(target, Target::Merge | Target::Exit)
                && !self.cfg.blocks[t].phis.is_empty()
                && !stored.contains(&t)
                && opname != "Switch"
            {
                self.store_phis(b, block, t)?;
                stored.push(t);
            }
        }
        let mut spec = match opname {
            "Branch" => {
                if let (Some(&t), Some(Target::Exit)) = (succs.first(), targets.first()) {
                    let code = self.code(t);
                    let c = self.content_constant(b, code);
                    self.store_code(b, c)?;
                }
                OpSpec::new(core(SpvOp::Branch))
            }
            "BranchConditional" => {
                let cond_id = term.id(0).unwrap_or(0);
                let cond = self.use_value(cond_id, term.at, Sink::Content(b, block))?;
                let mut spec = OpSpec::new(core(SpvOp::BranchConditional)).operands([cond]);
                if let (Some(t), Some(f)) = (term.word(3), term.word(4)) {
                    let i32t = self.d.m.types.int(32);
                    let weights = vec![
                        self.d.m.attrs.int(i128::from(t), i32t),
                        self.d.m.attrs.int(i128::from(f), i32t),
                    ];
                    let a = self.d.m.attrs.array(weights);
                    spec = spec.attr("branch_weights", a);
                }
                // Exit codes through a select, so the branch still targets
                // the merge block.
                let codes: Vec<Option<u32>> = succs
                    .iter()
                    .zip(&targets)
                    .map(|(&t, target)| match target {
                        Target::Exit => Some(self.code(t)),
                        _ => None,
                    })
                    .collect();
                if codes.iter().any(Option::is_some) {
                    let value = match (codes[0], codes[1]) {
                        (Some(a), Some(c)) if a == c => self.content_constant(b, a),
                        (a, c) => {
                            let a = self.content_constant(b, a.unwrap_or(0));
                            let c = self.content_constant(b, c.unwrap_or(0));
                            let i32t = self.d.m.types.int(32);
                            let sel = self.d.m.create_op(
                                OpSpec::new(core(SpvOp::Select))
                                    .operands([cond, a, c])
                                    .results([i32t]),
                            );
                            self.buffers[b].push(sel);
                            self.result(sel)
                        }
                    };
                    self.store_code(b, value)?;
                }
                spec
            }
            _ => self.switch_spec(owner, b, block, &term, &succs, &targets)?,
        };
        // Successors with pending arguments.
        let mut pend: Vec<(usize, Vec<(u32, At)>)> = Vec::new();
        if opname != "Switch" {
            for (s, (&t, target)) in succs.iter().zip(&targets).enumerate() {
                if let Target::Absorbed = target {
                    return Err(
                        self.unstructurable(b, "internal: absorbed branch ends a block".into())
                    );
                }
                let (succ, args) = self.successor(owner, b, t, *target)?;
                spec = spec.successor(succ, vec![self.placeholder; args.len()]);
                pend.push((s, args));
            }
        } else {
            pend = self.switch_pending.drain(..).collect();
        }
        let op = self.d.m.create_op(spec.loc(loc));
        for (s, args) in pend {
            for (i, (id, at)) in args.into_iter().enumerate() {
                self.pending.push(Pending {
                    op,
                    slot: Slot::SuccArg(s, i),
                    id,
                    at,
                    anchor: op,
                });
            }
        }
        self.terms.insert(block, op);
        Ok(())
    }

    /// An `i32` constant at the end of binary block `b`'s ops.
    fn content_constant(&mut self, b: usize, value: u32) -> Value {
        let i32t = self.d.m.types.int(32);
        let a = self.d.m.attrs.int(i128::from(value), i32t);
        let op = self.d.m.create_op(
            OpSpec::new(OpKind::Constant)
                .attr("value", a)
                .results([i32t]),
        );
        self.buffers[b].push(op);
        self.result(op)
    }

    /// `Store %flag, code` at the end of binary block `b`'s ops.
    fn store_code(&mut self, b: usize, value: Value) -> Result<()> {
        let flag = self.flag()?;
        let store = self
            .d
            .m
            .create_op(OpSpec::new(core(SpvOp::Store)).operands([flag, value]));
        self.buffers[b].push(store);
        Ok(())
    }

    /// `spv.Switch`: the `literals` attribute and the successors; exits
    /// go through edge blocks that store the code (the switch is a
    /// selection header, which may target any block).
    fn switch_spec(
        &mut self,
        owner: Owner,
        b: usize,
        block: Block,
        term: &Inst,
        succs: &[usize],
        targets: &[Target],
    ) -> Result<OpSpec> {
        let sel_id = term.id(0).unwrap_or(0);
        let sel = self.use_value(sel_id, term.at, Sink::Content(b, block))?;
        let sel_ty = self.d.m.value_type(sel);
        let width = self.d.m.types.bit_width(sel_ty).unwrap_or(32);
        let mut literals = Vec::new();
        for o in term.operands.iter().skip(2) {
            let bits = match o.val {
                Val::Word(w) => u64::from(w),
                Val::Wide(w) => w,
                _ => continue,
            };
            let value = if width >= 64 {
                i128::from(bits as i64)
            } else {
                let shift = 64 - width;
                i128::from(((bits << shift) as i64) >> shift)
            };
            literals.push(self.d.m.attrs.int(value, sel_ty));
        }
        let list = self.d.m.attrs.array(literals);
        let mut spec = OpSpec::new(core(SpvOp::Switch))
            .operands([sel])
            .attr("literals", list);
        let x = owner.unwrap_or(0);
        self.switch_pending.clear();
        for (s, (&t, target)) in succs.iter().zip(targets).enumerate() {
            match target {
                Target::Direct(dest) => {
                    let args = self.incoming(t, b)?;
                    spec = spec.successor(*dest, vec![self.placeholder; args.len()]);
                    self.switch_pending.push((s, args));
                }
                Target::Merge | Target::Exit => {
                    let merge = self.cons[x]
                        .merge
                        .ok_or_else(|| self.unstructurable(b, "internal: no merge block".into()))?;
                    let needs_block =
                        matches!(target, Target::Exit) || !self.cfg.blocks[t].phis.is_empty();
                    if !needs_block {
                        spec = spec.successor(merge, Vec::new());
                        continue;
                    }
                    // An edge block holding the stores.
                    let edge = self.new_block(&[]);
                    self.insert_block(owner, edge);
                    let incoming = self.incoming(t, b)?;
                    for (i, (id, at)) in incoming.into_iter().enumerate() {
                        let var = self.phi_var(t, i)?;
                        let store = self.push_op(
                            edge,
                            OpSpec::new(core(SpvOp::Store)).operands([var, self.placeholder]),
                        );
                        self.pending.push(Pending {
                            op: store,
                            slot: Slot::Operand(1),
                            id,
                            at,
                            anchor: store,
                        });
                    }
                    if matches!(target, Target::Exit) {
                        let code = self.code(t);
                        let flag = self.flag()?;
                        let c = self.i32_constant(edge, i128::from(code));
                        self.push_op(edge, OpSpec::new(core(SpvOp::Store)).operands([flag, c]));
                    }
                    let br = self
                        .d
                        .m
                        .create_op(OpSpec::new(core(SpvOp::Branch)).successor(merge, Vec::new()));
                    self.terms.insert(edge, br);
                    spec = spec.successor(edge, Vec::new());
                }
                Target::Absorbed => {
                    return Err(self.unstructurable(b, "internal: absorbed switch edge".into()))
                }
            }
        }
        Ok(spec)
    }

    /// Adds `block` to the region of `owner`, before its continue and merge
    /// blocks (which stay last).
    fn insert_block(&mut self, owner: Owner, block: Block) {
        let slot = self.region_slot(owner);
        let region = match owner {
            Some(x) => self.cons[x].region,
            None => self.d.m.op(self.func).regions.first().copied(),
        };
        let tail = match owner.map(|x| self.cfg.constructs[x].kind) {
            Some(Kind::Loop) => 2,
            Some(Kind::Selection) => 1,
            None => 0,
        };
        let list = &mut self.region_blocks[slot];
        let at = list.len().saturating_sub(tail);
        list.insert(at, block);
        if let Some(r) = region {
            self.d.m.block_mut(block).parent = Some(r);
            let blocks = &mut self.d.m.region_mut(r).blocks;
            let at = blocks.len().saturating_sub(tail);
            blocks.insert(at, block);
        }
    }

    // ---- 3. pending operands -------------------------------------------------------

    fn resolve_pending(&mut self) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let v = self.use_value(p.id, p.at, Sink::Before(p.anchor))?;
            let data = self.d.m.op_mut(p.op);
            match p.slot {
                Slot::Operand(i) => {
                    if let Some(slot) = data.operands.get_mut(i) {
                        *slot = v;
                    }
                }
                Slot::SuccArg(s, i) => {
                    if let Some(slot) = data.successors.get_mut(s).and_then(|s| s.args.get_mut(i)) {
                        *slot = v;
                    }
                }
            }
        }
        Ok(())
    }

    // ---- 4. assembly ---------------------------------------------------------------

    fn place(&mut self, block: Block, op: Op) {
        if let Some(pre) = self.pre.remove(&op) {
            for p in pre {
                self.d.m.append_op(block, p);
            }
        }
        self.d.m.append_op(block, op);
    }

    fn assemble(&mut self, func_region: Region) -> Result<()> {
        // Edge blocks of switches join their region after the others.
        let _ = func_region;
        let blocks: Vec<Block> = self.region_blocks.iter().flatten().copied().collect();
        for block in blocks {
            if block == self.entry_block {
                let prologue = std::mem::take(&mut self.prologue);
                for op in prologue {
                    self.place(block, op);
                }
            }
            let items = self.layout.remove(&block).unwrap_or_default();
            for item in items {
                match item {
                    Item::Content(b) => {
                        let ops = std::mem::take(&mut self.buffers[b]);
                        for op in ops {
                            self.place(block, op);
                        }
                    }
                    Item::Op(op) => self.place(block, op),
                }
            }
            let Some(term) = self.terms.remove(&block) else {
                return Err(DeserializeError::Unstructurable {
                    at: self.cfg.blocks[0].at,
                    block: self.cfg.label(0),
                    reason: "internal: a block without terminator".into(),
                });
            };
            let unreachable = self.d.m.op(term).kind == core(SpvOp::Unreachable);
            if unreachable && self.region_entries.contains(&block) {
                // `spv.Unreachable` may not end an entry block.
                let region = self.d.m.block(block).parent;
                let next = self.d.m.create_detached_block();
                if let Some(r) = region {
                    self.d.m.attach_block(r, next);
                }
                let br = self
                    .d
                    .m
                    .create_op(OpSpec::new(core(SpvOp::Branch)).successor(next, Vec::new()));
                self.place(block, br);
                self.d.m.append_op(next, term);
                continue;
            }
            self.place(block, term);
        }
        let _ = self.func;
        Ok(())
    }
}

/// Where a chain starts.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// Only the terminator of a binary block whose instructions were
    /// hoisted before its construct.
    TermOf(usize),
    /// The instructions of a binary block.
    Content(usize),
    /// A construct's op.
    Construct(usize),
}

/// Whether `spv.Constant` can hold a value of type `ty`: scalars, vectors,
/// and arrays of those.
fn constant_op_holds(types: &crate::ir::TypeStore, ty: Type) -> bool {
    match types.kind(ty) {
        TypeKind::Int { .. } | TypeKind::Float(_) | TypeKind::Vector { .. } => true,
        TypeKind::Array { element, .. } => constant_op_holds(types, *element),
        _ => false,
    }
}

/// Whether a value of type `ty` may live in a `Function` variable.
pub(super) fn storable(types: &crate::ir::TypeStore, ty: Type) -> bool {
    match types.kind(ty) {
        TypeKind::Pointer { .. }
        | TypeKind::Image(_)
        | TypeKind::SampledImage(_)
        | TypeKind::Sampler
        | TypeKind::None
        | TypeKind::Function { .. } => false,
        TypeKind::Array { element, .. } | TypeKind::RuntimeArray { element, .. } => {
            storable(types, *element)
        }
        TypeKind::Struct(s) => s.members.iter().all(|m| storable(types, m.ty)),
        _ => true,
    }
}
