//! Functions, blocks and control flow (the seed's "Function conversion"
//! and "Control flow conversion").
//!
//! * `spirv.func` → `llvm.func` with the same parameters (the kernel ABI
//!   adds the context first); `function_control` maps to LLVM function
//!   attributes (`Inline` → `alwaysinline`, `DontInline` → `noinline`,
//!   `Pure` → `memory(read)`, `Const` → `memory(none)`; MLIR 19 passes
//!   `readonly` / `readnone` through instead, which its own
//!   `mlir-translate` rejects on functions); a function without a body is a
//!   declaration.
//! * The entry block's arguments are the parameters; other blocks keep
//!   their arguments (phi nodes).
//! * `spirv.mlir.selection` / `spirv.mlir.loop`: their blocks are inlined
//!   into the function; the region's entry block continues the op's block
//!   (a selection's header branch or a loop's branch to its header ends
//!   it) and `spirv.mlir.merge` branches to a new block holding the ops
//!   after the construct. Selection and loop controls are dropped.
//! * `spirv.Branch` → `llvm.br`, `spirv.BranchConditional` → `llvm.cond_br`
//!   with its `branch_weights`, `spirv.Switch` → `llvm.switch`; when one
//!   terminator reaches the same block with arguments twice, the second
//!   edge goes through a block of its own (LLVM IR has one phi entry per
//!   predecessor).
//! * `spirv.FunctionCall` → `llvm.call`, `spirv.Return(Value)` →
//!   `llvm.return`, `spirv.Unreachable` → `llvm.unreachable`.

use std::collections::HashMap;

use super::super::builder::FnBuilder;
use super::super::error::ConvertError;
use super::super::ir::{Function, InstKind, LBlock, LType, LValue, Linkage};
use super::{constant, Cx};
use crate::grammar::{OperandKind, StorageClass};
use crate::ir::{AttrKind, Block, Module, Op, OpKind, Type, Value};

/// Where a pointer's memory comes from, for bounds checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Root {
    /// A resource slot with this base pointer.
    Slot { index: u32, base: LValue },
    /// A region of known size starting at `base`.
    Region {
        base: LValue,
        bytes: u64,
        region: u32,
    },
    /// Nothing to check (built-ins, the MLIR ABI).
    Unchecked,
}

/// What is known about a pointer value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PtrInfo {
    /// Its memory.
    pub root: Root,
    /// Whether an access chain with a non-constant (or unchecked) index led
    /// here, so accesses need a check.
    pub dynamic: bool,
}

/// Per-function conversion state.
pub(crate) struct Fx<'a, 'm> {
    pub cx: &'a mut Cx<'m>,
    pub b: FnBuilder,
    vals: HashMap<Value, LValue>,
    blocks: HashMap<Block, LBlock>,
    merges: Vec<LBlock>,
    /// The kernel ABI's context parameter.
    pub ctx: Option<LValue>,
    /// Provenance of pointer values.
    pub ptrs: HashMap<LValue, PtrInfo>,
    /// `spirv.mlir.addressof` results that are arrays of descriptors
    /// (kernel ABI): `(first slot, descriptors, block type)`. They have no
    /// LLVM value; only an access chain selecting one descriptor uses them.
    pub descriptor_arrays: HashMap<Value, (u32, u32, Type)>,
}

/// Converts one `spirv.func`.
pub(crate) fn convert_func(cx: &mut Cx<'_>, op: Op) -> Result<Function, ConvertError> {
    let m = cx.m;
    let name = m.symbol_name(op).unwrap_or_default().to_owned();
    let (params, ret) = cx
        .sigs
        .get(&name)
        .cloned()
        .ok_or_else(|| cx.malformed(op, "has no signature"))?;
    let mut b = FnBuilder::new(name, &params, ret);
    if let Some(control) = m
        .attr(op, "function_control")
        .and_then(|a| m.attrs.as_enum(a, OperandKind::FunctionControl))
    {
        for (bit, attr) in [(0x1, "alwaysinline"), (0x2, "noinline")] {
            if control & bit != 0 {
                b.func.passthrough.push(attr);
            }
        }
        if control & 0x8 != 0 {
            b.func.memory = Some("none");
        } else if control & 0x4 != 0 {
            b.func.memory = Some("read");
        }
    }
    let body = m.op(op).regions.first().copied();
    let blocks: Vec<Block> = body.map(|r| m.region(r).blocks.clone()).unwrap_or_default();
    if blocks.is_empty() {
        let mut f = b.finish();
        f.blocks.clear();
        return Ok(f);
    }
    if cx.kernel() {
        b.func.linkage = Linkage::Internal;
    }
    let ctx = cx.kernel().then(|| b.param(0));
    let mut fx = Fx {
        cx,
        b,
        vals: HashMap::new(),
        blocks: HashMap::new(),
        merges: Vec::new(),
        ctx,
        ptrs: HashMap::new(),
        descriptor_arrays: HashMap::new(),
    };
    let skip = usize::from(fx.ctx.is_some());
    let entry_args = m.block(blocks[0]).args.clone();
    for (i, &a) in entry_args.iter().enumerate() {
        let p = fx.b.param(i + skip);
        fx.vals.insert(a, p);
    }
    fx.blocks.insert(blocks[0], LBlock(0));
    fx.map_blocks(&blocks[1..])?;
    for &blk in &blocks {
        fx.convert_block(blk)?;
    }
    Ok(fx.b.finish())
}

impl<'m> Fx<'_, 'm> {
    /// The spv module.
    pub fn m(&self) -> &'m Module {
        self.cx.m
    }

    /// The op's name (for errors).
    pub fn op_name(&self, op: Op) -> String {
        self.m().op(op).kind.name().into_owned()
    }

    /// The "no conversion" error for `op`.
    pub fn unsupported(&self, op: Op, reason: impl Into<Option<String>>) -> ConvertError {
        ConvertError::UnsupportedOp {
            op: self.op_name(op),
            loc: self.m().op(op).loc,
            reason: reason.into(),
        }
    }

    /// A "malformed op" error for `op`.
    pub fn malformed(&self, op: Op, message: impl Into<String>) -> ConvertError {
        self.cx.malformed(op, message)
    }

    /// The converted value of `v`.
    pub fn val(&self, op: Op, v: Value) -> Result<LValue, ConvertError> {
        self.vals.get(&v).copied().ok_or_else(|| {
            if self.descriptor_arrays.contains_key(&v) {
                ConvertError::Kernel(format!(
                    "{}: uses an array of descriptors other than through an access chain \
                     selecting one of them with a constant",
                    self.op_name(op)
                ))
            } else {
                self.malformed(op, "uses a value that was not converted")
            }
        })
    }

    /// The `i`-th operand of `op`.
    fn operand(&self, op: Op, i: usize) -> Result<Value, ConvertError> {
        self.m()
            .op(op)
            .operands
            .get(i)
            .copied()
            .ok_or_else(|| self.malformed(op, format!("has no operand #{i}")))
    }

    /// The converted `i`-th operand of `op`.
    pub fn arg(&self, op: Op, i: usize) -> Result<LValue, ConvertError> {
        self.val(op, self.operand(op, i)?)
    }

    /// All converted operands of `op`.
    pub fn args(&self, op: Op) -> Result<Vec<LValue>, ConvertError> {
        let ops = &self.m().op(op).operands;
        ops.iter().map(|&v| self.val(op, v)).collect()
    }

    /// The spv type of operand `i`.
    pub fn arg_ty(&self, op: Op, i: usize) -> Result<Type, ConvertError> {
        Ok(self.m().value_type(self.operand(op, i)?))
    }

    /// The spv result type of `op`.
    pub fn res_spv(&self, op: Op) -> Result<Type, ConvertError> {
        let r = self
            .m()
            .op(op)
            .result()
            .ok_or_else(|| self.malformed(op, "has no result"))?;
        Ok(self.m().value_type(r))
    }

    /// The LLVM result type of `op`.
    pub fn res_ty(&mut self, op: Op) -> Result<LType, ConvertError> {
        let t = self.res_spv(op)?;
        self.cx.tc.convert(t)
    }

    /// Records `v` as the result of `op`.
    pub fn set(&mut self, op: Op, v: LValue) {
        if let Some(r) = self.m().op(op).result() {
            self.vals.insert(r, v);
        }
    }

    /// An enum attribute's value.
    pub fn enum_attr(&self, op: Op, name: &str, kind: OperandKind) -> Option<u32> {
        self.m()
            .attr(op, name)
            .and_then(|a| self.m().attrs.as_enum(a, kind))
    }

    /// An integer attribute.
    pub fn int_attr(&self, op: Op, name: &str) -> Option<i128> {
        self.m()
            .attr(op, name)
            .and_then(|a| self.m().attrs.as_int(a))
    }

    /// An array attribute of integers.
    pub fn ints_attr(&self, op: Op, name: &str) -> Option<Vec<i128>> {
        let m = self.m();
        let items = m.attr(op, name).and_then(|a| m.attrs.as_array(a))?;
        items.iter().map(|&a| m.attrs.as_int(a)).collect()
    }

    /// The constant value of `v` when an integer `spirv.Constant` defines it.
    pub fn const_of(&self, v: Value) -> Option<i128> {
        let m = self.m();
        let def = m.defining_op(v)?;
        if m.op(def).kind != OpKind::Constant {
            return None;
        }
        match m.attr_kind(def, "value")? {
            AttrKind::Int { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// The storage class of a pointer-typed value.
    pub fn storage_class(&self, v: Value) -> Option<StorageClass> {
        self.m()
            .types
            .pointer_parts(self.m().value_type(v))
            .map(|(_, sc)| sc)
    }

    /// Creates LLVM blocks for spv blocks (arguments converted).
    fn map_blocks(&mut self, blocks: &[Block]) -> Result<(), ConvertError> {
        for &blk in blocks {
            let arg_types: Vec<Type> = self
                .m()
                .block(blk)
                .args
                .iter()
                .map(|&a| self.m().value_type(a))
                .collect();
            let mut ltys = Vec::new();
            for t in arg_types {
                ltys.push(self.cx.tc.convert(t)?);
            }
            let (lb, largs) = self.b.block(&ltys);
            for (&a, la) in self.m().block(blk).args.iter().zip(largs) {
                self.vals.insert(a, la);
            }
            self.blocks.insert(blk, lb);
        }
        Ok(())
    }

    fn convert_block(&mut self, blk: Block) -> Result<(), ConvertError> {
        let lb = self.blocks[&blk];
        self.b.set_block(lb);
        for &op in &self.m().block(blk).ops {
            self.op(op)?;
        }
        Ok(())
    }

    /// Converts one op at the insertion point.
    fn op(&mut self, op: Op) -> Result<(), ConvertError> {
        let kind = self.m().op(op).kind.clone();
        match kind {
            OpKind::Constant => {
                let attr = self
                    .m()
                    .attr(op, "value")
                    .ok_or_else(|| self.malformed(op, "has no value"))?;
                let ty = self.res_spv(op)?;
                let v = constant::materialize(self.cx, &mut self.b, attr, ty)?;
                self.set(op, v);
                Ok(())
            }
            OpKind::ReferenceOf => {
                let m = self.m();
                let sym = m
                    .attr(op, "spec_const")
                    .and_then(|a| m.attrs.as_symbol(a))
                    .ok_or_else(|| self.malformed(op, "has no spec constant"))?;
                let spec =
                    *self.cx.specs.get(sym).ok_or_else(|| {
                        self.malformed(op, format!("@{sym} is not a spec constant"))
                    })?;
                let attr = self.cx.spec_value_attr(spec)?;
                let ty = self.res_spv(op)?;
                let v = constant::materialize_spec(self.cx, &mut self.b, &attr, ty)?;
                self.set(op, v);
                Ok(())
            }
            OpKind::AddressOf => self.address_of(op),
            OpKind::Selection | OpKind::Loop => self.structured(op),
            OpKind::Merge => {
                let target = *self
                    .merges
                    .last()
                    .ok_or_else(|| self.malformed(op, "is not inside a selection or loop"))?;
                self.b.br(target, Vec::new());
                Ok(())
            }
            OpKind::Core(_) => {
                let name = kind.core_desc().map(|d| d.opname).unwrap_or("");
                let handled = self.control(op, name)?
                    || self.coop(op, name)?
                    || self.arith(op, name)?
                    || self.int_dot(op, name)?
                    || self.composite(op, name)?
                    || self.memory(op, name)?
                    || self.group(op, name)?;
                if handled {
                    Ok(())
                } else {
                    Err(self.unsupported(op, None))
                }
            }
            OpKind::Glsl(_) => {
                let name = kind.glsl_desc().map(|d| d.opname).unwrap_or("");
                self.glsl(op, name)
            }
            _ => Err(self.unsupported(op, Some("not inside a function".into()))),
        }
    }

    /// `spirv.mlir.selection` / `spirv.mlir.loop`: inline the region. The
    /// region's entry block (no arguments, no predecessors) continues the
    /// current block, so a selection's conditional branch or a loop's
    /// branch to its header ends the block holding the construct, as in
    /// MLIR's conversion; the other blocks follow, then the block holding
    /// the ops after the construct.
    fn structured(&mut self, op: Op) -> Result<(), ConvertError> {
        let m = self.m();
        let Some(&region) = m.op(op).regions.first() else {
            return Ok(());
        };
        let blocks = m.region(region).blocks.clone();
        let Some((&entry, rest)) = blocks.split_first() else {
            return Ok(());
        };
        self.map_blocks(rest)?;
        let (cont, _) = self.b.block(&[]);
        self.merges.push(cont);
        for &inner in &m.block(entry).ops {
            self.op(inner)?;
        }
        for &blk in rest {
            self.convert_block(blk)?;
        }
        self.merges.pop();
        self.b.set_block(cont);
        Ok(())
    }

    /// The LLVM target of a successor, with converted arguments.
    fn successor(&self, op: Op, i: usize) -> Result<(LBlock, Vec<LValue>), ConvertError> {
        let s = self
            .m()
            .op(op)
            .successors
            .get(i)
            .ok_or_else(|| self.malformed(op, format!("has no successor #{i}")))?;
        let target = *self
            .blocks
            .get(&s.block)
            .ok_or_else(|| self.malformed(op, "branches out of its region"))?;
        let args = s
            .args
            .iter()
            .map(|&v| self.val(op, v))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((target, args))
    }

    /// Routes an edge through a block of its own when `taken` already
    /// reaches its target (which has arguments).
    fn split_edge(
        &mut self,
        edge: (LBlock, Vec<LValue>),
        taken: &[(LBlock, Vec<LValue>)],
    ) -> (LBlock, Vec<LValue>) {
        let has_args = !self.b.func.blocks[edge.0 .0 as usize].args.is_empty();
        if !has_args || !taken.iter().any(|(b, _)| *b == edge.0) {
            return edge;
        }
        let here = self.b.current();
        let (mid, _) = self.b.block(&[]);
        self.b.set_block(mid);
        self.b.br(edge.0, edge.1);
        self.b.set_block(here);
        (mid, Vec::new())
    }

    /// Terminators and calls.
    fn control(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        match name {
            "Branch" => {
                let (t, args) = self.successor(op, 0)?;
                self.b.br(t, args);
            }
            "BranchConditional" => {
                let c = self.arg(op, 0)?;
                let t = self.successor(op, 0)?;
                let f = self.successor(op, 1)?;
                let f = self.split_edge(f, std::slice::from_ref(&t));
                let weights = match self.ints_attr(op, "branch_weights") {
                    Some(w) if w.len() == 2 => Some((w[0] as u32, w[1] as u32)),
                    Some(w) if !w.is_empty() => {
                        return Err(self.malformed(op, "needs two branch weights"))
                    }
                    _ => None,
                };
                self.b.cond_br(c, t, f, weights);
            }
            "Switch" => {
                let sel = self.arg(op, 0)?;
                let literals = self.ints_attr(op, "literals").unwrap_or_default();
                let n = self.m().op(op).successors.len();
                if n != literals.len() + 1 {
                    return Err(self.malformed(op, "needs one target per literal and a default"));
                }
                let mut succ: Vec<(LBlock, Vec<LValue>)> = Vec::new();
                for i in 0..n {
                    let e = self.successor(op, i)?;
                    let e = self.split_edge(e, &succ);
                    succ.push(e);
                }
                self.b
                    .terminate(InstKind::Switch(literals), vec![sel], succ);
            }
            "Return" => self.b.terminate(InstKind::Ret, Vec::new(), Vec::new()),
            "ReturnValue" => {
                let v = self.arg(op, 0)?;
                self.b.terminate(InstKind::Ret, vec![v], Vec::new());
            }
            "Unreachable" => self
                .b
                .terminate(InstKind::Unreachable, Vec::new(), Vec::new()),
            "FunctionCall" => {
                let m = self.m();
                let callee = m
                    .attr(op, "callee")
                    .and_then(|a| m.attrs.as_symbol(a))
                    .ok_or_else(|| self.malformed(op, "has no callee"))?
                    .to_owned();
                let (_, ret) = self
                    .cx
                    .sigs
                    .get(&callee)
                    .cloned()
                    .ok_or_else(|| self.malformed(op, format!("calls unknown @{callee}")))?;
                let mut args = Vec::new();
                if let Some(ctx) = self.ctx {
                    args.push(ctx);
                }
                args.extend(self.args(op)?);
                if let Some(v) = self.b.call(&callee, args, ret) {
                    self.set(op, v);
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
