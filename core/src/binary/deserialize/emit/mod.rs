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

use super::cfg::Cfg;
use super::error::{At, DeserializeError};
use super::functions::FnBuilder;
use super::reader::Val;
use super::structurize::Plan;
use super::{invalid, Deserializer, Result};
use crate::binary::serialize::tables::FxHashMap;
use crate::grammar::{OperandKind, StorageClass};
use crate::ir::{Block, Op, OpKind, OpSpec, Region, Type, TypeKind, Value};
use rspirv::spirv::Op as SpvOp;

mod branches;
mod layout;
mod values;

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
    /// The IR block whose ops end right before `anchor` (a terminator in
    /// its binary block's home), when a value already materialized there
    /// can serve: a phi operand then reuses the constant placed in id
    /// order instead of getting a second, dead copy (as MLIR reads it).
    in_block: Option<Block>,
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
    /// Values materialized at the top of the function (in its prologue, or
    /// in the function's first binary block when that block's instructions
    /// open the entry block): they dominate every later use, in any block
    /// or nested region, which then needs no copy of its own.
    top: FxHashMap<u32, Value>,
    /// Module-level ids materialized somewhere in the function so far.
    pub(super) materialized: super::FxHashSet<u32>,
    /// Whether the entry block starts with the first binary block's
    /// instructions (set once the layout is built).
    top_block: bool,
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
        let plan = Plan::new(&cfg, self.opts.max_nesting)?;
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
            top: FxHashMap::default(),
            materialized: super::FxHashSet::default(),
            top_block: false,
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
        e.assemble()?;
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

    // ---- pending operands -----------------------------------------------------

    fn resolve_pending(&mut self) -> Result<()> {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let cached = p
                .in_block
                .and_then(|b| self.cache.get(&(b, p.id)).copied())
                .or_else(|| self.top.get(&p.id).copied());
            let v = match cached {
                Some(v) => v,
                None => self.use_value(p.id, p.at, Sink::Before(p.anchor))?,
            };
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

    // ---- assembly ----------------------------------------------------------------

    fn place(&mut self, block: Block, op: Op) {
        if let Some(pre) = self.pre.remove(&op) {
            for p in pre {
                self.d.m.append_op(block, p);
            }
        }
        self.d.m.append_op(block, op);
    }

    fn assemble(&mut self) -> Result<()> {
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
