//! The container of a memref-level kernel: ops, values, blocks and regions in
//! arenas addressed by the kernel IR's own typed handles ([`KOp`],
//! [`KValue`], [`KBlock`], [`KRegion`]; see [`super::entity`]).
//!
//! An op is its [`KOpKind`] + operands + results + named attributes + regions,
//! exactly as in MLIR's generic form; what each op expects of them is the
//! kernel verifier's business. The top op is a `builtin.module`.

use super::ops::KOpKind;
use super::types::KType;
use crate::ir::entity::Arena;
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp, KRegion, KValue};
use crate::target::TargetEnv;
use kiln_abi::{EntryPointAbi, InterfaceVarAbi};

/// An attribute value of a kernel op.
#[derive(Clone, Debug, PartialEq)]
pub enum KAttr {
    /// `unit` (presence only: `gpu.kernel`, `gpu.container_module`).
    Unit,
    /// `true` / `false`.
    Bool(bool),
    /// An integer with its type (`42 : i32`, `3 : index`).
    Int {
        /// The value (sign-extended from the type's width).
        value: i128,
        /// The type.
        ty: KType,
    },
    /// A float with its type (`1.5 : f32`); `f64` holds every narrower format.
    Float {
        /// The value.
        value: f64,
        /// The type.
        ty: KType,
    },
    /// A string (`"x"`).
    String(String),
    /// A type (`function_type`, `memref.global` types, ...).
    Type(KType),
    /// A symbol reference `@a::@b` (one entry per nesting level).
    SymbolRef(Vec<String>),
    /// `[a, b, ...]`.
    Array(Vec<KAttr>),
    /// `array<i64: 1, 2>` (dense i64 arrays: static sizes, shuffle masks).
    DenseI64(Vec<i64>),
    /// `dense<...> : vector<...>` with integer elements (splat: one entry).
    DenseInts {
        /// Values in row-major order, or one value for a splat.
        values: Vec<i128>,
        /// The vector or tensor type.
        ty: KType,
    },
    /// `dense<...> : vector<...>` with float elements (splat: one entry).
    DenseFloats {
        /// Values in row-major order, or one value for a splat.
        values: Vec<f64>,
        /// The vector or tensor type.
        ty: KType,
    },
    /// `{name = value, ...}`.
    Dict(Vec<(String, KAttr)>),
    /// An enum keyword of an op's custom syntax (`slt` for `arith.cmpi`,
    /// `add` for `gpu.subgroup_reduce`, `x` for `gpu.thread_id`,
    /// `workgroup` for `#gpu.address_space<workgroup>`).
    Enum(String),
    /// `#spirv.entry_point_abi<...>` / `#spv.entry_point_abi<...>`.
    EntryPointAbi(EntryPointAbi),
    /// `#spirv.interface_var_abi<...>` / `#spv.interface_var_abi<...>`.
    InterfaceVarAbi(InterfaceVarAbi),
    /// `#spirv.target_env<...>` / `#spv.target_env<...>`.
    TargetEnv(Box<TargetEnv>),
}

/// What defines a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KValueDef {
    /// Result `index` of `op`.
    Result {
        /// The defining op.
        op: KOp,
        /// Result position.
        index: u32,
    },
    /// Argument `index` of `block`.
    BlockArg {
        /// The block.
        block: KBlock,
        /// Argument position.
        index: u32,
    },
}

/// An SSA value of a kernel.
#[derive(Clone, Debug)]
pub struct KValueData {
    /// Its type.
    pub ty: KType,
    /// Where it comes from.
    pub def: KValueDef,
}

/// An op of a kernel.
#[derive(Clone, Debug)]
pub struct KOpData {
    /// Which op.
    pub kind: KOpKind,
    /// SSA operands, in MLIR's generic-form order.
    pub operands: Vec<KValue>,
    /// Results.
    pub results: Vec<KValue>,
    /// Named attributes (inherent and discardable together), in order.
    pub attrs: Vec<(String, KAttr)>,
    /// Owned regions.
    pub regions: Vec<KRegion>,
    /// Where it was parsed from.
    pub loc: Location,
    /// The block it sits in (`None` for the top op and detached ops).
    pub parent: Option<KBlock>,
}

/// A block: arguments and ops.
#[derive(Clone, Debug, Default)]
pub struct KBlockData {
    /// Block arguments.
    pub args: Vec<KValue>,
    /// Ops in order.
    pub ops: Vec<KOp>,
    /// The region it belongs to.
    pub parent: Option<KRegion>,
}

/// A region: blocks in order.
#[derive(Clone, Debug)]
pub struct KRegionData {
    /// Blocks in order (the first is the entry).
    pub blocks: Vec<KBlock>,
    /// The op owning it.
    pub parent: KOp,
}

/// A memref-level kernel module (`builtin.module` at the top).
#[derive(Clone, Debug)]
pub struct KernelModule {
    ops: Arena<KOp, KOpData>,
    values: Arena<KValue, KValueData>,
    blocks: Arena<KBlock, KBlockData>,
    regions: Arena<KRegion, KRegionData>,
    top: KOp,
}

impl Default for KernelModule {
    fn default() -> Self {
        Self::new()
    }
}

impl KernelModule {
    /// An empty `builtin.module` with one empty body block.
    pub fn new() -> Self {
        let mut m = Self {
            ops: Arena::default(),
            values: Arena::default(),
            blocks: Arena::default(),
            regions: Arena::default(),
            top: KOp::from_index(0),
        };
        let top = m.create_op(
            KOpKind::BuiltinModule,
            &[],
            &[],
            Vec::new(),
            1,
            Location::UNKNOWN,
        );
        m.top = top;
        let region = m.ops[top].regions[0];
        m.append_block(region, &[]);
        m
    }

    /// The top `builtin.module` op.
    pub fn top(&self) -> KOp {
        self.top
    }

    /// The top module's body block.
    pub fn body(&self) -> KBlock {
        self.entry_block(self.top, 0)
    }

    /// The first block of `op`'s region `region`.
    pub fn entry_block(&self, op: KOp, region: usize) -> KBlock {
        self.regions[self.ops[op].regions[region]].blocks[0]
    }

    /// An op.
    pub fn op(&self, op: KOp) -> &KOpData {
        &self.ops[op]
    }

    /// An op, mutably.
    pub fn op_mut(&mut self, op: KOp) -> &mut KOpData {
        &mut self.ops[op]
    }

    /// A value.
    pub fn value(&self, value: KValue) -> &KValueData {
        &self.values[value]
    }

    /// A value's type.
    pub fn value_type(&self, value: KValue) -> &KType {
        &self.values[value].ty
    }

    /// Gives `value` type `ty` (a block argument whose uses accept both
    /// types: a kernel argument rebound through another descriptor type).
    pub fn set_value_type(&mut self, value: KValue, ty: KType) {
        self.values[value].ty = ty;
    }

    /// A block.
    pub fn block(&self, block: KBlock) -> &KBlockData {
        &self.blocks[block]
    }

    /// A region.
    pub fn region(&self, region: KRegion) -> &KRegionData {
        &self.regions[region]
    }

    /// The attribute `name` of `op`.
    pub fn attr(&self, op: KOp, name: &str) -> Option<&KAttr> {
        self.ops[op]
            .attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a)
    }

    /// Sets (or replaces) the attribute `name` of `op`.
    pub fn set_attr(&mut self, op: KOp, name: &str, value: KAttr) {
        let attrs = &mut self.ops[op].attrs;
        match attrs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => attrs.push((name.to_owned(), value)),
        }
    }

    /// The `sym_name` of `op`, if it has one.
    pub fn symbol_name(&self, op: KOp) -> Option<&str> {
        match self.attr(op, "sym_name") {
            Some(KAttr::String(s)) => Some(s),
            _ => None,
        }
    }

    /// Creates a detached op with fresh results of `result_types` and
    /// `regions` empty regions.
    pub fn create_op(
        &mut self,
        kind: KOpKind,
        operands: &[KValue],
        result_types: &[KType],
        attrs: Vec<(String, KAttr)>,
        regions: usize,
        loc: Location,
    ) -> KOp {
        let op = self.ops.push(KOpData {
            kind,
            operands: operands.to_vec(),
            results: Vec::new(),
            attrs,
            regions: Vec::new(),
            loc,
            parent: None,
        });
        let results = result_types
            .iter()
            .enumerate()
            .map(|(index, ty)| {
                self.values.push(KValueData {
                    ty: ty.clone(),
                    def: KValueDef::Result {
                        op,
                        index: index as u32,
                    },
                })
            })
            .collect();
        let regions = (0..regions)
            .map(|_| {
                self.regions.push(KRegionData {
                    blocks: Vec::new(),
                    parent: op,
                })
            })
            .collect();
        let data = &mut self.ops[op];
        data.results = results;
        data.regions = regions;
        op
    }

    /// Appends a block with arguments of `arg_types` to `region`.
    pub fn append_block(&mut self, region: KRegion, arg_types: &[KType]) -> KBlock {
        let block = self.blocks.push(KBlockData {
            args: Vec::new(),
            ops: Vec::new(),
            parent: Some(region),
        });
        for ty in arg_types {
            self.add_block_arg(block, ty.clone());
        }
        self.regions[region].blocks.push(block);
        block
    }

    /// Adds an argument of type `ty` to `block`.
    pub fn add_block_arg(&mut self, block: KBlock, ty: KType) -> KValue {
        let index = self.blocks[block].args.len() as u32;
        let v = self.values.push(KValueData {
            ty,
            def: KValueDef::BlockArg { block, index },
        });
        self.blocks[block].args.push(v);
        v
    }

    /// Appends the detached `op` to `block`.
    pub fn append_op(&mut self, block: KBlock, op: KOp) {
        self.ops[op].parent = Some(block);
        self.blocks[block].ops.push(op);
    }

    /// Reorders the ops of `block` from position `from` on as `order`
    /// gives them; `false` (and nothing changed) unless `order` is a
    /// permutation of those ops. Keeping every use after its definition
    /// is the caller's part.
    pub fn reorder_block_tail(&mut self, block: KBlock, from: usize, order: Vec<KOp>) -> bool {
        let ops = &mut self.blocks[block].ops;
        let Some(tail) = ops.get(from..) else {
            return false;
        };
        let mut a = tail.to_vec();
        let mut b = order.clone();
        a.sort_unstable();
        b.sort_unstable();
        if a != b {
            return false;
        }
        ops.truncate(from);
        ops.extend(order);
        true
    }

    /// The op defining `value`, if it is an op result.
    pub fn defining_op(&self, value: KValue) -> Option<KOp> {
        match self.values[value].def {
            KValueDef::Result { op, .. } => Some(op),
            KValueDef::BlockArg { .. } => None,
        }
    }

    /// The op whose region holds `block`.
    pub fn block_parent_op(&self, block: KBlock) -> Option<KOp> {
        self.blocks[block]
            .parent
            .map(|region| self.regions[region].parent)
    }

    /// The op enclosing `op`.
    pub fn parent_op(&self, op: KOp) -> Option<KOp> {
        self.ops[op]
            .parent
            .and_then(|block| self.block_parent_op(block))
    }

    /// The ops directly in the body of `op`'s first region's entry block.
    pub fn body_ops(&self, op: KOp) -> &[KOp] {
        &self.blocks[self.entry_block(op, 0)].ops
    }

    /// The op named `name` among the ops directly inside `scope`.
    pub fn lookup_symbol_in(&self, scope: KOp, name: &str) -> Option<KOp> {
        self.body_ops(scope)
            .iter()
            .copied()
            .find(|&op| self.symbol_name(op) == Some(name))
    }

    /// Visits `root` and every op nested in it, parents before children.
    pub fn walk(&self, root: KOp, f: &mut dyn FnMut(KOp)) {
        f(root);
        for &region in &self.ops[root].regions {
            for &block in &self.regions[region].blocks {
                for &op in &self.blocks[block].ops {
                    self.walk(op, f);
                }
            }
        }
    }

    /// The number of ops ever created.
    pub fn op_count(&self) -> usize {
        self.ops.len()
    }
}
