//! [`TensorModule`]: the container of a tensor program — functions, ops,
//! values and blocks in arenas addressed by typed handles, and the interned
//! types.
//!
//! Invariants (checked by the [verifier](mod@super::verify), relied on by the
//! evaluator and the compiler):
//!
//! * every region is one block; a function body and every op region end in
//!   their terminator (`func.return`, `linalg.yield`, `tensor.yield`);
//! * a value is defined before its uses in program order, and a use inside
//!   a region may refer to values of enclosing blocks (regions are not
//!   isolated, except function bodies);
//! * `OpData::parent` / `BlockData::parent` point back at the container.

use super::entity::{TBlock, TFunc, TOp, TType, TValue};
use super::ops::OpKind;
use super::types::{TypeKind, TypeStore};
use crate::ir::entity::Arena;
use crate::ir::Location;

/// What defines a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result {
        /// The op.
        op: TOp,
        /// Which result.
        index: u32,
    },
    /// Argument `index` of `block`.
    BlockArg {
        /// The block.
        block: TBlock,
        /// Which argument.
        index: u32,
    },
}

/// An SSA value.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// Its type.
    pub ty: TType,
    /// Where it is defined.
    pub def: ValueDef,
}

/// An op.
#[derive(Clone, Debug)]
pub struct OpData {
    /// Which op, with its static attributes.
    pub kind: OpKind,
    /// SSA operands in MLIR's generic order.
    pub operands: Vec<TValue>,
    /// Results.
    pub results: Vec<TValue>,
    /// Regions, each one block (structured op bodies, `tensor.pad`'s
    /// padding value).
    pub regions: Vec<TBlock>,
    /// Where it was parsed from ([`Location::UNKNOWN`] when built).
    pub loc: Location,
    /// The block holding it (`None` while detached).
    pub parent: Option<TBlock>,
}

/// Who owns a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockParent {
    /// The body of a function.
    Func(TFunc),
    /// A region of an op.
    Op(TOp),
    /// Not attached yet.
    Detached,
}

/// A block: arguments and ops in order.
#[derive(Clone, Debug)]
pub struct BlockData {
    /// Block arguments.
    pub args: Vec<TValue>,
    /// Ops in program order, the terminator last.
    pub ops: Vec<TOp>,
    /// The owner.
    pub parent: BlockParent,
}

/// A `func.func`.
#[derive(Clone, Debug)]
pub struct FuncData {
    /// The symbol name (without `@`).
    pub name: String,
    /// `public` / `private` when written.
    pub visibility: Option<String>,
    /// Argument types.
    pub inputs: Vec<TType>,
    /// Result types.
    pub results: Vec<TType>,
    /// The body (`None` for a declaration); its arguments are the
    /// function's arguments.
    pub body: Option<TBlock>,
    /// Where it was parsed from.
    pub loc: Location,
    /// `attributes {name = value, ...}` as written (`name`, value text;
    /// the text is empty for a unit attribute). Importers attach their
    /// metadata here (`torch.onnx_meta.*`); kiln keeps it for printing and
    /// gives it no meaning.
    pub attributes: Vec<(String, String)>,
    /// Each argument's attribute dictionary as written (empty when none),
    /// kept like [`attributes`](Self::attributes); empty or one per argument.
    pub arg_attrs: Vec<Vec<(String, String)>>,
    /// Each result's attribute dictionary, like [`arg_attrs`](Self::arg_attrs).
    pub result_attrs: Vec<Vec<(String, String)>>,
}

/// A tensor program.
#[derive(Clone, Debug, Default)]
pub struct TensorModule {
    /// `module @name { ... }`'s name, if the text had one.
    pub name: Option<String>,
    /// The builtin module's attributes as written (`name`, value text), e.g.
    /// a `spirv.target_env` for the compiler to parse.
    pub attributes: Vec<(String, String)>,
    /// Interned types.
    pub types: TypeStore,
    ops: Arena<TOp, OpData>,
    values: Arena<TValue, ValueData>,
    blocks: Arena<TBlock, BlockData>,
    funcs: Arena<TFunc, FuncData>,
    order: Vec<TFunc>,
}

impl TensorModule {
    /// An empty module.
    pub fn new() -> TensorModule {
        TensorModule::default()
    }

    /// An op.
    pub fn op(&self, op: TOp) -> &OpData {
        &self.ops[op]
    }

    /// An op, mutably.
    pub fn op_mut(&mut self, op: TOp) -> &mut OpData {
        &mut self.ops[op]
    }

    /// A value.
    pub fn value(&self, v: TValue) -> &ValueData {
        &self.values[v]
    }

    /// A value's type handle.
    pub fn value_type(&self, v: TValue) -> TType {
        self.values[v].ty
    }

    /// A value's type.
    pub fn value_kind(&self, v: TValue) -> &TypeKind {
        self.types.get(self.values[v].ty)
    }

    /// A type.
    pub fn ty(&self, t: TType) -> &TypeKind {
        self.types.get(t)
    }

    /// A block.
    pub fn block(&self, b: TBlock) -> &BlockData {
        &self.blocks[b]
    }

    /// A block, mutably.
    pub fn block_mut(&mut self, b: TBlock) -> &mut BlockData {
        &mut self.blocks[b]
    }

    /// A function.
    pub fn func(&self, f: TFunc) -> &FuncData {
        &self.funcs[f]
    }

    /// A function, mutably.
    pub fn func_mut(&mut self, f: TFunc) -> &mut FuncData {
        &mut self.funcs[f]
    }

    /// The functions in text order.
    pub fn funcs(&self) -> &[TFunc] {
        &self.order
    }

    /// The function called `name`.
    pub fn func_by_name(&self, name: &str) -> Option<TFunc> {
        self.order
            .iter()
            .copied()
            .find(|&f| self.funcs[f].name == name)
    }

    /// The number of ops ever created (handles index `0..num_ops()`).
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }

    /// The number of values ever created.
    pub fn num_values(&self) -> usize {
        self.values.len()
    }

    /// Adds a function with a body block whose arguments have `inputs`
    /// types (a declaration when `with_body` is false).
    pub fn add_func(
        &mut self,
        name: &str,
        inputs: Vec<TType>,
        results: Vec<TType>,
        with_body: bool,
        loc: Location,
    ) -> TFunc {
        let f = self.funcs.push(FuncData {
            name: name.to_string(),
            visibility: None,
            inputs: inputs.clone(),
            results,
            body: None,
            loc,
            attributes: Vec::new(),
            arg_attrs: Vec::new(),
            result_attrs: Vec::new(),
        });
        if with_body {
            let b = self.create_block(&inputs);
            self.blocks[b].parent = BlockParent::Func(f);
            self.funcs[f].body = Some(b);
        }
        self.order.push(f);
        f
    }

    /// A detached block with arguments of the given types.
    pub fn create_block(&mut self, arg_types: &[TType]) -> TBlock {
        let b = self.blocks.push(BlockData {
            args: Vec::new(),
            ops: Vec::new(),
            parent: BlockParent::Detached,
        });
        for (i, &ty) in arg_types.iter().enumerate() {
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::BlockArg {
                    block: b,
                    index: i as u32,
                },
            });
            self.blocks[b].args.push(v);
        }
        b
    }

    /// Creates a detached op with results of `result_types`, owning
    /// `regions`.
    pub fn create_op(
        &mut self,
        kind: OpKind,
        operands: Vec<TValue>,
        result_types: &[TType],
        regions: Vec<TBlock>,
        loc: Location,
    ) -> TOp {
        let op = self.ops.push(OpData {
            kind,
            operands,
            results: Vec::new(),
            regions: regions.clone(),
            loc,
            parent: None,
        });
        for (i, &ty) in result_types.iter().enumerate() {
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::Result {
                    op,
                    index: i as u32,
                },
            });
            self.ops[op].results.push(v);
        }
        for r in regions {
            self.blocks[r].parent = BlockParent::Op(op);
        }
        op
    }

    /// Appends a detached op at the end of `block`.
    pub fn append_op(&mut self, block: TBlock, op: TOp) {
        self.ops[op].parent = Some(block);
        self.blocks[block].ops.push(op);
    }

    /// Inserts a detached op into `block` before position `index`.
    pub fn insert_op(&mut self, block: TBlock, index: usize, op: TOp) {
        self.ops[op].parent = Some(block);
        let ops = &mut self.blocks[block].ops;
        ops.insert(index.min(ops.len()), op);
    }

    /// Removes `op` from its block (it stays in the arena, detached).
    pub fn detach_op(&mut self, op: TOp) {
        if let Some(b) = self.ops[op].parent.take() {
            self.blocks[b].ops.retain(|&o| o != op);
        }
    }

    /// Removes every op from `block` and returns them in order (they stay
    /// in the arena, detached).
    pub fn take_ops(&mut self, block: TBlock) -> Vec<TOp> {
        let ops = std::mem::take(&mut self.blocks[block].ops);
        for &op in &ops {
            self.ops[op].parent = None;
        }
        ops
    }

    /// Replaces every use of a key of `map` by its value in every op of
    /// the module, in one pass.
    pub fn replace_uses(&mut self, map: &std::collections::HashMap<TValue, TValue>) {
        if map.is_empty() {
            return;
        }
        for i in 0..self.ops.len() {
            for v in &mut self.ops[TOp::from_index(i)].operands {
                if let Some(&to) = map.get(v) {
                    *v = to;
                }
            }
        }
    }

    /// Replaces every use of `from` by `to` in every op of the module.
    pub fn replace_all_uses(&mut self, from: TValue, to: TValue) {
        for i in 0..self.ops.len() {
            for v in &mut self.ops[TOp::from_index(i)].operands {
                if *v == from {
                    *v = to;
                }
            }
        }
    }

    /// Calls `f` on every op nested in `block` (regions included), in
    /// program order, parents before the ops of their regions.
    pub fn walk(&self, block: TBlock, f: &mut impl FnMut(TOp)) {
        for &op in &self.blocks[block].ops {
            f(op);
            for &r in &self.ops[op].regions {
                self.walk(r, f);
            }
        }
    }

    /// The function whose body (transitively) holds `block`.
    pub fn func_of_block(&self, mut block: TBlock) -> Option<TFunc> {
        loop {
            match self.blocks[block].parent {
                BlockParent::Func(f) => return Some(f),
                BlockParent::Op(op) => block = self.ops[op].parent?,
                BlockParent::Detached => return None,
            }
        }
    }
}
