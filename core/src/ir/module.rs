//! [`Module`]: the container owning one `spv.module` op and everything in it.
//!
//! All ops, values, blocks and regions live in arenas owned by the module;
//! types and attributes are interned in its stores. Ops are created detached
//! ([`Module::create_op`]) and then placed into a block
//! ([`Module::append_op`], [`Module::insert_op_before`]).

use super::attr::{AttrKind, AttrStore, Vce};
use super::entity::{Arena, Attr, Block, Op, Region, Type, Value};
use super::op::{BlockData, Location, OpData, OpKind, RegionData, Successor, ValueData, ValueDef};
use super::types::TypeStore;
use crate::grammar::{AddressingModel, MemoryModel, OperandKind};

/// Everything needed to create one op.
#[derive(Clone, Debug)]
pub struct OpSpec {
    /// What the op is.
    pub kind: OpKind,
    /// SSA operands.
    pub operands: Vec<Value>,
    /// Types of the results to create.
    pub result_types: Vec<Type>,
    /// Named attributes (sorted on creation).
    pub attrs: Vec<(String, Attr)>,
    /// Successors.
    pub successors: Vec<Successor>,
    /// Number of (empty) regions to create.
    pub regions: usize,
    /// Source location.
    pub loc: Location,
}

impl OpSpec {
    /// A spec for `kind` with nothing else set.
    pub fn new(kind: OpKind) -> Self {
        Self {
            kind,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: Vec::new(),
            successors: Vec::new(),
            regions: 0,
            loc: Location::UNKNOWN,
        }
    }
    /// Sets the operands.
    pub fn operands(mut self, operands: impl Into<Vec<Value>>) -> Self {
        self.operands = operands.into();
        self
    }
    /// Sets the result types.
    pub fn results(mut self, types: impl Into<Vec<Type>>) -> Self {
        self.result_types = types.into();
        self
    }
    /// Adds an attribute.
    pub fn attr(mut self, name: impl Into<String>, value: Attr) -> Self {
        self.attrs.push((name.into(), value));
        self
    }
    /// Sets the number of regions.
    pub fn regions(mut self, n: usize) -> Self {
        self.regions = n;
        self
    }
    /// Adds a successor.
    pub fn successor(mut self, block: Block, args: Vec<Value>) -> Self {
        self.successors.push(Successor { block, args });
        self
    }
    /// Sets the location.
    pub fn loc(mut self, loc: Location) -> Self {
        self.loc = loc;
        self
    }
}

/// One `spv.module` and its contents, plus the attributes of an enclosing
/// builtin `module attributes {...}` when the text had one.
#[derive(Clone, Debug)]
pub struct Module {
    /// Interned types.
    pub types: TypeStore,
    /// Interned attributes.
    pub attrs: AttrStore,
    ops: Arena<Op, OpData>,
    values: Arena<Value, ValueData>,
    blocks: Arena<Block, BlockData>,
    regions: Arena<Region, RegionData>,
    top: Op,
    /// Attributes of the enclosing builtin module; `None` when the
    /// `spv.module` stood alone.
    pub wrapper: Option<Vec<(String, Attr)>>,
}

impl Module {
    /// A module holding an empty `spv.module` with the given addressing
    /// model, memory model and VCE triple (when `vce` is `None` the module has
    /// no `requires` clause).
    pub fn new(addressing: AddressingModel, memory: MemoryModel, vce: Option<Vce>) -> Self {
        let mut m = Module::empty();
        let am = m
            .attrs
            .enumerant(OperandKind::AddressingModel, addressing as u32);
        let mm = m.attrs.enumerant(OperandKind::MemoryModel, memory as u32);
        let mut spec = OpSpec::new(OpKind::Module)
            .attr("addressing_model", am)
            .attr("memory_model", mm)
            .regions(1);
        if let Some(vce) = vce {
            let v = m.attrs.intern(AttrKind::Vce(vce));
            spec = spec.attr("vce_triple", v);
        }
        let top = m.create_op(spec);
        let region = m.ops[top].regions[0];
        m.append_block(region, &[]);
        m.top = top;
        m
    }

    /// A module whose top op is a placeholder, to be replaced by
    /// [`Module::set_top`] (used by the parser).
    pub fn empty() -> Self {
        let mut m = Module {
            types: TypeStore::default(),
            attrs: AttrStore::default(),
            ops: Arena::default(),
            values: Arena::default(),
            blocks: Arena::default(),
            regions: Arena::default(),
            top: Op::from_index(0),
            wrapper: None,
        };
        // Op 0 is a detached placeholder so `top` is always a valid handle.
        m.top = m.create_op(OpSpec::new(OpKind::Module).regions(1));
        m
    }

    /// The `spv.module` op.
    pub fn top(&self) -> Op {
        self.top
    }

    /// Makes `op` (a `spv.module` op) the module's top op.
    pub fn set_top(&mut self, op: Op) {
        self.top = op;
    }

    /// The single block of the `spv.module` region.
    pub fn body(&self) -> Block {
        let region = self.ops[self.top].regions[0];
        self.regions[region].blocks[0]
    }

    // ---- access ------------------------------------------------------

    /// The contents of `op`.
    #[inline]
    pub fn op(&self, op: Op) -> &OpData {
        &self.ops[op]
    }
    /// The contents of `op`, mutably.
    #[inline]
    pub fn op_mut(&mut self, op: Op) -> &mut OpData {
        &mut self.ops[op]
    }
    /// The contents of `value`.
    #[inline]
    pub fn value(&self, value: Value) -> &ValueData {
        &self.values[value]
    }
    /// The type of `value`.
    #[inline]
    pub fn value_type(&self, value: Value) -> Type {
        self.values[value].ty
    }
    /// The contents of `block`.
    #[inline]
    pub fn block(&self, block: Block) -> &BlockData {
        &self.blocks[block]
    }
    /// The contents of `block`, mutably.
    #[inline]
    pub fn block_mut(&mut self, block: Block) -> &mut BlockData {
        &mut self.blocks[block]
    }
    /// The contents of `region`.
    #[inline]
    pub fn region(&self, region: Region) -> &RegionData {
        &self.regions[region]
    }
    /// The contents of `region`, mutably.
    #[inline]
    pub fn region_mut(&mut self, region: Region) -> &mut RegionData {
        &mut self.regions[region]
    }
    /// Number of ops ever created (including detached and erased ones).
    pub fn op_count(&self) -> usize {
        self.ops.len()
    }
    /// Number of values ever created.
    pub fn value_count(&self) -> usize {
        self.values.len()
    }
    /// Number of blocks ever created.
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// The attribute `name` of `op`.
    pub fn attr(&self, op: Op, name: &str) -> Option<Attr> {
        self.ops[op].attr(name)
    }

    /// The attribute `name` of `op`, as a structure.
    pub fn attr_kind(&self, op: Op, name: &str) -> Option<&AttrKind> {
        self.attr(op, name).map(|a| self.attrs.kind(a))
    }

    /// Sets (or replaces) the attribute `name` of `op`.
    pub fn set_attr(&mut self, op: Op, name: &str, value: Attr) {
        let attrs = &mut self.ops[op].attrs;
        match attrs.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => attrs[i].1 = value,
            Err(i) => attrs.insert(i, (name.to_string(), value)),
        }
    }

    /// Removes the attribute `name` of `op`, returning it.
    pub fn remove_attr(&mut self, op: Op, name: &str) -> Option<Attr> {
        let attrs = &mut self.ops[op].attrs;
        attrs
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| attrs.remove(i).1)
    }

    /// The op that defines `value`, if it is an op result.
    pub fn defining_op(&self, value: Value) -> Option<Op> {
        match self.values[value].def {
            ValueDef::Result(op, _) => Some(op),
            ValueDef::BlockArg(..) => None,
        }
    }

    /// The op whose region holds `block`.
    pub fn block_parent_op(&self, block: Block) -> Option<Op> {
        self.blocks[block]
            .parent
            .and_then(|r| self.regions[r].parent)
    }

    /// The op enclosing `op` (the owner of its block's region).
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        self.ops[op].parent.and_then(|b| self.block_parent_op(b))
    }

    /// The ops of the `spv.module` body, in order.
    pub fn module_ops(&self) -> &[Op] {
        &self.blocks[self.body()].ops
    }

    /// The module-level op defining symbol `name` (`sym_name` attribute).
    pub fn lookup_symbol(&self, name: &str) -> Option<Op> {
        self.module_ops().iter().copied().find(|&op| {
            self.attr(op, "sym_name")
                .and_then(|a| self.attrs.as_str(a))
                .is_some_and(|s| s == name)
        })
    }

    /// The symbol name (`sym_name`) of `op`.
    pub fn symbol_name(&self, op: Op) -> Option<&str> {
        self.attr(op, "sym_name").and_then(|a| self.attrs.as_str(a))
    }

    // ---- construction ------------------------------------------------

    /// Creates a detached op with fresh result values and empty regions.
    pub fn create_op(&mut self, spec: OpSpec) -> Op {
        let mut attrs = spec.attrs;
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        attrs.dedup_by(|a, b| a.0 == b.0);
        let op = self.ops.push(OpData {
            kind: spec.kind,
            operands: spec.operands,
            results: Vec::new(),
            attrs,
            successors: spec.successors,
            regions: Vec::new(),
            loc: spec.loc,
            parent: None,
        });
        let results: Vec<Value> = spec
            .result_types
            .into_iter()
            .enumerate()
            .map(|(i, ty)| {
                self.values.push(ValueData {
                    ty,
                    def: ValueDef::Result(op, i as u32),
                })
            })
            .collect();
        self.ops[op].results = results;
        let regions: Vec<Region> = (0..spec.regions)
            .map(|_| {
                self.regions.push(RegionData {
                    blocks: Vec::new(),
                    parent: Some(op),
                })
            })
            .collect();
        self.ops[op].regions = regions;
        op
    }

    /// Appends a new block with arguments of the given types to `region`.
    pub fn append_block(&mut self, region: Region, arg_types: &[Type]) -> Block {
        let block = self.blocks.push(BlockData {
            args: Vec::new(),
            ops: Vec::new(),
            parent: Some(region),
            loc: Location::UNKNOWN,
        });
        for &ty in arg_types {
            self.add_block_arg(block, ty);
        }
        self.regions[region].blocks.push(block);
        block
    }

    /// Creates a block not yet placed in any region (parser forward refs).
    pub fn create_detached_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Places a detached block at the end of `region`.
    pub fn attach_block(&mut self, region: Region, block: Block) {
        self.blocks[block].parent = Some(region);
        self.regions[region].blocks.push(block);
    }

    /// Adds an argument of type `ty` to `block`.
    pub fn add_block_arg(&mut self, block: Block, ty: Type) -> Value {
        let index = self.blocks[block].args.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::BlockArg(block, index),
        });
        self.blocks[block].args.push(v);
        v
    }

    /// Appends a detached `op` at the end of `block`.
    pub fn append_op(&mut self, block: Block, op: Op) {
        debug_assert!(self.ops[op].parent.is_none(), "op is already placed");
        self.ops[op].parent = Some(block);
        self.blocks[block].ops.push(op);
    }

    /// Inserts a detached `op` right before `anchor`.
    pub fn insert_op_before(&mut self, anchor: Op, op: Op) {
        let block = self.ops[anchor]
            .parent
            .expect("anchor op must be placed in a block");
        let pos = self.blocks[block]
            .ops
            .iter()
            .position(|&o| o == anchor)
            .expect("op is in its parent block");
        self.ops[op].parent = Some(block);
        self.blocks[block].ops.insert(pos, op);
    }

    /// Detaches `op` from its block (it stays in the arena, unreachable).
    pub fn detach_op(&mut self, op: Op) {
        if let Some(block) = self.ops[op].parent.take() {
            self.blocks[block].ops.retain(|&o| o != op);
        }
    }

    /// Creates an op and appends it to `block`, returning it.
    pub fn build(&mut self, block: Block, spec: OpSpec) -> Op {
        let op = self.create_op(spec);
        self.append_op(block, op);
        op
    }

    /// Replaces every use of `from` by `to` inside `root` (operands and
    /// successor arguments, recursively).
    pub fn replace_uses_in(&mut self, root: Op, from: Value, to: Value) {
        let mut stack = vec![root];
        while let Some(op) = stack.pop() {
            let data = &mut self.ops[op];
            for v in data.operands.iter_mut() {
                if *v == from {
                    *v = to;
                }
            }
            for s in data.successors.iter_mut() {
                for v in s.args.iter_mut() {
                    if *v == from {
                        *v = to;
                    }
                }
            }
            for &r in &self.ops[op].regions {
                for &b in &self.regions[r].blocks {
                    stack.extend(self.blocks[b].ops.iter().copied());
                }
            }
        }
    }

    /// Visits `root` and every op nested in it, parents before children.
    pub fn walk(&self, root: Op, f: &mut dyn FnMut(Op)) {
        f(root);
        for &r in &self.ops[root].regions {
            for &b in &self.regions[r].blocks {
                for &op in &self.blocks[b].ops {
                    self.walk(op, f);
                }
            }
        }
    }
}
