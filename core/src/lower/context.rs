//! The lowering context: the spv module being built, the map from kernel
//! values to spv values, the insertion point, and builder helpers shared by
//! the per-dialect patterns. It knows no dialect: the dispatch to the
//! dialect files is [`super`]'s (`Lowerer::lower_op`).

use std::collections::HashMap;

use crate::grammar::{BuiltIn, GlslOp, Opcode, OperandKind, StorageClass};
use crate::ir::{
    Attr, AttrKind, Block, DenseValues, Location, Module, Op, OpKind, OpSpec, Type, TypeKind, Value,
};
use crate::kernel::{KAttr, KOp, KType, KValue, KernelModule};

use super::error::{LowerError, TypeError};
use super::types::{MemRefRepr, TypeConverter};
use super::LowerOptions;

/// State of lowering one `gpu.module`.
pub(crate) struct Lowerer<'k> {
    /// The kernel module.
    pub kernels: &'k KernelModule,
    /// The spv module being built.
    pub module: Module,
    /// The type converter.
    pub type_converter: TypeConverter,
    /// Options.
    pub options: &'k LowerOptions,
    values: HashMap<KValue, Value>,
    /// The insertion block.
    pub block: Block,
    /// The entry block of the function being built (function variables go
    /// there).
    pub function_entry: Block,
    builtins: HashMap<BuiltIn, String>,
    /// Counter for `@__workgroup_mem__N` / `@__private_mem__N`.
    pub global_counter: u32,
    /// The kernel op being lowered (for error messages).
    pub current_op: KOp,
    /// The workgroup size of the function being lowered: a kernel's own; in
    /// a helper function the size every kernel of the module shares, `None`
    /// when they differ (or there is no kernel).
    pub function_workgroup_size: Option<[u32; 3]>,
    /// Globals created while the function is detached, in order.
    pub pending_globals: Vec<Op>,
}

impl<'k> Lowerer<'k> {
    /// A lowerer of `kernels` writing into `module`.
    pub fn new(
        kernels: &'k KernelModule,
        module: Module,
        type_converter: TypeConverter,
        options: &'k LowerOptions,
    ) -> Self {
        let body = module.body();
        Lowerer {
            kernels,
            module,
            type_converter,
            options,
            values: HashMap::new(),
            block: body,
            function_entry: body,
            builtins: HashMap::new(),
            global_counter: 0,
            current_op: kernels.top(),
            function_workgroup_size: None,
            pending_globals: Vec::new(),
        }
    }

    // ---- errors ----------------------------------------------------------

    /// The current kernel op's name.
    pub fn op_name(&self) -> &'static str {
        self.kernels.op(self.current_op).kind.name()
    }

    fn location(&self) -> Location {
        self.kernels.op(self.current_op).loc
    }

    /// An "unsupported" error for the current op.
    pub fn unsupported(&self, message: impl Into<String>) -> LowerError {
        LowerError::Unsupported {
            op: self.op_name(),
            loc: self.location(),
            message: message.into(),
        }
    }

    /// A "malformed" error for the current op.
    pub fn malformed(&self, message: impl Into<String>) -> LowerError {
        LowerError::Malformed {
            op: self.op_name(),
            loc: self.location(),
            message: message.into(),
        }
    }

    /// Wraps a type error with the current op.
    pub fn type_error(&self, source: TypeError) -> LowerError {
        LowerError::Type {
            op: self.op_name(),
            loc: self.location(),
            source,
        }
    }

    // ---- kernel side -----------------------------------------------------

    /// Operand `i` of the current op (kernel value).
    pub fn kernel_operand(&self, i: usize) -> Result<KValue, LowerError> {
        self.kernels
            .op(self.current_op)
            .operands
            .get(i)
            .copied()
            .ok_or_else(|| self.malformed(format!("expected at least {} operands", i + 1)))
    }

    /// Operand `i` of the current op, lowered.
    pub fn operand(&self, i: usize) -> Result<Value, LowerError> {
        let kv = self.kernel_operand(i)?;
        self.lowered(kv)
    }

    /// All operands of the current op, lowered.
    pub fn operands(&self) -> Result<Vec<Value>, LowerError> {
        self.kernels
            .op(self.current_op)
            .operands
            .iter()
            .map(|&v| self.lowered(v))
            .collect()
    }

    /// Result `i` of the current op (kernel value).
    pub fn kernel_result(&self, i: usize) -> Result<KValue, LowerError> {
        self.kernels
            .op(self.current_op)
            .results
            .get(i)
            .copied()
            .ok_or_else(|| self.malformed(format!("expected at least {} results", i + 1)))
    }

    /// The kernel type of kernel value `v`.
    pub fn kernel_type(&self, v: KValue) -> &'k KType {
        self.kernels.value_type(v)
    }

    /// The kernel type of result `i` of the current op.
    pub fn result_kernel_type(&self, i: usize) -> Result<&'k KType, LowerError> {
        Ok(self.kernel_type(self.kernel_result(i)?))
    }

    /// The spv value of kernel value `v`.
    pub fn lowered(&self, v: KValue) -> Result<Value, LowerError> {
        self.values.get(&v).copied().ok_or_else(|| {
            self.malformed(format!(
                "operand {v:?} has no lowered value (unsupported producer?)"
            ))
        })
    }

    /// Records that kernel value `kv` is spv value `v`.
    pub fn set_lowered(&mut self, kv: KValue, v: Value) {
        self.values.insert(kv, v);
    }

    /// Maps result `i` of the current op to `v`.
    pub fn set_result(&mut self, i: usize, v: Value) -> Result<(), LowerError> {
        let kv = self.kernel_result(i)?;
        self.set_lowered(kv, v);
        Ok(())
    }

    /// An attribute of the current op.
    pub fn kernel_attr(&self, name: &str) -> Option<&'k KAttr> {
        self.kernels.attr(self.current_op, name)
    }

    /// An enum keyword attribute of the current op.
    pub fn kernel_enum(&self, name: &str) -> Result<&'k str, LowerError> {
        match self.kernel_attr(name) {
            Some(KAttr::Enum(s)) | Some(KAttr::String(s)) => Ok(s),
            _ => Err(self.malformed(format!("missing enum attribute '{name}'"))),
        }
    }

    /// A dense i64 array attribute of the current op.
    pub fn kernel_i64_array(&self, name: &str) -> Result<&'k [i64], LowerError> {
        match self.kernel_attr(name) {
            Some(KAttr::DenseI64(v)) => Ok(v),
            _ => Err(self.malformed(format!("missing array attribute '{name}'"))),
        }
    }

    /// Converts a kernel type for the current op.
    pub fn convert_type(&mut self, ty: &KType) -> Result<Type, LowerError> {
        self.type_converter
            .value_type(&mut self.module.types, ty)
            .map_err(|e| self.type_error(e))
    }

    /// The representation of a memref type for the current op.
    pub fn memref_repr(&mut self, ty: &KType) -> Result<MemRefRepr, LowerError> {
        self.type_converter
            .memref(&mut self.module.types, ty)
            .map_err(|e| self.type_error(e))
    }

    /// The converted type of result `i` of the current op.
    pub fn result_type(&mut self, i: usize) -> Result<Type, LowerError> {
        let kt = self.result_kernel_type(i)?;
        self.convert_type(kt)
    }

    /// The workgroup size the current function runs with, for ops whose
    /// lowering depends on it (`gpu.block_dim`, workgroup-memory
    /// fallbacks); an error in a helper function of kernels that disagree.
    pub fn workgroup_size(&self) -> Result<[u32; 3], LowerError> {
        self.function_workgroup_size.ok_or_else(|| {
            self.unsupported(
                "needs the workgroup size, but this helper function has none: the module's \
                 kernels have different workgroup sizes (or there is no kernel)",
            )
        })
    }

    // ---- spv builders ----------------------------------------------------

    /// Appends an op to the insertion block.
    pub fn emit(&mut self, spec: OpSpec) -> Op {
        self.module.build(self.block, spec)
    }

    /// Appends a core op with one result of type `ty`.
    pub fn core_op(&mut self, opcode: Opcode, operands: Vec<Value>, ty: Type) -> Value {
        let op = self.emit(
            OpSpec::new(opcode.into())
                .operands(operands)
                .results(vec![ty]),
        );
        self.module.op(op).results[0]
    }

    /// Appends a core op without result.
    pub fn core_op_without_result(
        &mut self,
        opcode: Opcode,
        operands: Vec<Value>,
        attrs: Vec<(&str, Attr)>,
    ) -> Op {
        let mut spec = OpSpec::new(opcode.into()).operands(operands);
        for (n, a) in attrs {
            spec = spec.attr(n, a);
        }
        self.emit(spec)
    }

    /// Appends a core op with a result and attributes.
    pub fn core_op_with_attrs(
        &mut self,
        opcode: Opcode,
        operands: Vec<Value>,
        ty: Type,
        attrs: Vec<(&str, Attr)>,
    ) -> Value {
        let mut spec = OpSpec::new(opcode.into())
            .operands(operands)
            .results(vec![ty]);
        for (n, a) in attrs {
            spec = spec.attr(n, a);
        }
        let op = self.emit(spec);
        self.module.op(op).results[0]
    }

    /// Appends a GLSL.std.450 op.
    pub fn glsl_op(&mut self, op: GlslOp, operands: Vec<Value>, ty: Type) -> Value {
        let op = self.emit(OpSpec::new(op.into()).operands(operands).results(vec![ty]));
        self.module.op(op).results[0]
    }

    /// `spv.Constant` of integer type `ty` (scalar, bool or vector splat).
    pub fn const_int(&mut self, ty: Type, v: i128) -> Value {
        let attr = match self.module.types.kind(ty).clone() {
            TypeKind::Vector { .. } => self.module.attrs.intern(AttrKind::Dense {
                ty,
                values: DenseValues::Ints(vec![v]),
                splat: true,
            }),
            TypeKind::Int { width: 1, .. } => self.module.attrs.intern(AttrKind::Bool(v != 0)),
            _ => self.module.attrs.int(v, ty),
        };
        self.constant(attr, ty)
    }

    /// `spv.Constant` of float type `ty` (scalar or vector splat).
    pub fn const_float(&mut self, ty: Type, v: f64) -> Value {
        let attr = match self.module.types.kind(ty).clone() {
            TypeKind::Vector { .. } => self.module.attrs.intern(AttrKind::Dense {
                ty,
                values: DenseValues::Floats(vec![v.to_bits()]),
                splat: true,
            }),
            _ => self.module.attrs.float(v, ty),
        };
        self.constant(attr, ty)
    }

    /// `spv.Constant` with value attribute `attr`.
    pub fn constant(&mut self, attr: Attr, ty: Type) -> Value {
        let op = self.emit(
            OpSpec::new(OpKind::Constant)
                .attr("value", attr)
                .results(vec![ty]),
        );
        self.module.op(op).results[0]
    }

    /// An `i32` constant.
    pub fn const_i32(&mut self, v: i64) -> Value {
        let t = self.module.types.int(32);
        self.const_int(t, v as i128)
    }

    /// The `i1` type.
    pub fn bool_type(&mut self) -> Type {
        self.module.types.bool()
    }

    /// The `i32` type.
    pub fn i32_type(&mut self) -> Type {
        self.module.types.int(32)
    }

    /// An enum attribute.
    pub fn enum_attr(&mut self, kind: OperandKind, value: u32) -> Attr {
        self.module.attrs.enumerant(kind, value)
    }

    /// `i32` array attribute of composite indices.
    pub fn indices_attr(&mut self, idx: &[u32]) -> Attr {
        let t = self.module.types.int(32);
        let items = idx
            .iter()
            .map(|&i| self.module.attrs.int(i as i128, t))
            .collect();
        self.module.attrs.array(items)
    }

    /// `spv.CompositeExtract %v[i]`.
    pub fn extract(&mut self, v: Value, i: u32, ty: Type) -> Value {
        let a = self.indices_attr(&[i]);
        self.core_op_with_attrs(Opcode::CompositeExtract, vec![v], ty, vec![("indices", a)])
    }

    /// A `vector<NxT>` (or the scalar for N = 1) with every lane `v`.
    pub fn splat(&mut self, v: Value, ty: Type) -> Value {
        let n = self.module.types.component_count(ty);
        if n == 1 {
            return v;
        }
        self.core_op(Opcode::CompositeConstruct, vec![v; n as usize], ty)
    }

    /// A module-level global variable named `name` of pointer type `ptr`,
    /// placed before the function being built.
    pub fn global(&mut self, name: &str, ptr: Type, built_in: Option<BuiltIn>) -> Op {
        let mut spec = OpSpec::new(OpKind::GlobalVariable);
        let a = self.module.attrs.string(name);
        spec = spec.attr("sym_name", a);
        let a = self.module.attrs.ty(ptr);
        spec = spec.attr("type", a);
        if let Some(b) = built_in {
            let a = self.module.attrs.string(b.name());
            spec = spec.attr("built_in", a);
        }
        let op = self.module.create_op(spec);
        self.pending_globals.push(op);
        op
    }

    /// `spv.mlir.addressof @name : ptr`.
    pub fn address_of(&mut self, name: &str, ptr: Type) -> Value {
        let a = self.module.attrs.symbol(name);
        let op = self.emit(
            OpSpec::new(OpKind::AddressOf)
                .attr("variable", a)
                .results(vec![ptr]),
        );
        self.module.op(op).results[0]
    }

    /// The value of builtin input `b` (`vector<3xi32>` or `i32`), read at
    /// the insertion point; its variable is created once per module.
    pub fn builtin(&mut self, b: BuiltIn) -> Value {
        let i32t = self.module.types.int(32);
        let ty = match b {
            BuiltIn::LocalInvocationId
            | BuiltIn::WorkgroupId
            | BuiltIn::NumWorkgroups
            | BuiltIn::GlobalInvocationId
            | BuiltIn::WorkgroupSize => self.module.types.vector(3, i32t),
            _ => i32t,
        };
        let ptr = self.module.types.pointer(ty, StorageClass::Input);
        let name = match self.builtins.get(&b) {
            Some(n) => n.clone(),
            None => {
                let n = format!("__builtin__{}__", b.name());
                self.global(&n, ptr, Some(b));
                self.builtins.insert(b, n.clone());
                n
            }
        };
        let addr = self.address_of(&name, ptr);
        self.core_op(Opcode::Load, vec![addr], ty)
    }

    /// A function-storage variable of pointee `pointee`, placed at the top
    /// of the function's entry block.
    pub fn variable(&mut self, pointee: Type) -> Value {
        let ptr = self.module.types.pointer(pointee, StorageClass::Function);
        let sc = self.enum_attr(OperandKind::StorageClass, StorageClass::Function as u32);
        let op = self.module.create_op(
            OpSpec::new(Opcode::Variable.into())
                .attr("storage_class", sc)
                .results(vec![ptr]),
        );
        let entry = self.function_entry;
        self.module.op_mut(op).parent = Some(entry);
        self.module.block_mut(entry).ops.insert(0, op);
        self.module.op(op).results[0]
    }

    /// `spv.Load` of `ptr`.
    pub fn load(&mut self, ptr: Value) -> Value {
        let pty = self.module.value_type(ptr);
        let (pointee, _) = self
            .module
            .types
            .pointer_parts(pty)
            .unwrap_or((pty, StorageClass::Function));
        self.core_op(Opcode::Load, vec![ptr], pointee)
    }

    /// `spv.Store %ptr, %v`.
    pub fn store(&mut self, ptr: Value, v: Value) {
        self.core_op_without_result(Opcode::Store, vec![ptr, v], vec![]);
    }

    /// Creates a structured construct (`kind` is selection or loop) at the
    /// insertion point with `blocks` empty blocks (argument types per
    /// block); returns the op and its blocks.
    pub fn structured(&mut self, kind: OpKind, block_args: &[Vec<Type>]) -> (Op, Vec<Block>) {
        let (name, ek) = if kind == OpKind::Loop {
            ("loop_control", OperandKind::LoopControl)
        } else {
            ("selection_control", OperandKind::SelectionControl)
        };
        let a = self.enum_attr(ek, 0);
        let op = self.emit(OpSpec::new(kind).attr(name, a).regions(1));
        let region = self.module.op(op).regions[0];
        let blocks = block_args
            .iter()
            .map(|args| self.module.append_block(region, args))
            .collect();
        (op, blocks)
    }

    /// `spv.Branch ^target(args)` at the end of the insertion block.
    pub fn branch(&mut self, target: Block, args: Vec<Value>) {
        self.emit(OpSpec::new(Opcode::Branch.into()).successor(target, args));
    }

    /// `spv.BranchConditional %c, ^t, ^f`.
    pub fn conditional_branch(&mut self, c: Value, t: Block, f: Block) {
        self.emit(
            OpSpec::new(Opcode::BranchConditional.into())
                .operands(vec![c])
                .successor(t, vec![])
                .successor(f, vec![]),
        );
    }

    /// `spv.mlir.merge`.
    pub fn merge(&mut self) {
        self.emit(OpSpec::new(OpKind::Merge));
    }

    /// Emits `if (cond) { then }` as a `spv.mlir.selection` and leaves the
    /// insertion point after it.
    pub fn emit_if(
        &mut self,
        cond: Value,
        then: impl FnOnce(&mut Self) -> Result<(), LowerError>,
    ) -> Result<(), LowerError> {
        let outer = self.block;
        let (_, blocks) = self.structured(OpKind::Selection, &[vec![], vec![], vec![]]);
        let (header, body, merge) = (blocks[0], blocks[1], blocks[2]);
        self.block = header;
        self.conditional_branch(cond, body, merge);
        self.block = body;
        then(self)?;
        self.branch(merge, vec![]);
        self.block = merge;
        self.merge();
        self.block = outer;
        Ok(())
    }

    /// Checks the spv ops created since op number `first`.
    pub fn check_legal(&self, first: usize) -> Result<(), LowerError> {
        let target = self.type_converter.target();
        for i in first..self.module.op_count() {
            let op = Op::from_index(i);
            if let Err(e) = target.check_op(&self.module, op) {
                return Err(LowerError::Illegal {
                    op: self.op_name(),
                    loc: self.location(),
                    produced: e.op,
                    requirement: e.requirement,
                    offered: e.offered,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{GroupOperation, Scope};
    use crate::lower::types::{IndexBits, TypeConverter};

    const KERNEL: &str = r#"module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %x = arith.constant 1.0 : f32
      gpu.return
    }
  }
}
"#;

    /// An op whose output the env does not allow is reported with the
    /// kernel op, the unmet requirement and what the env offers.
    #[test]
    fn illegal_output_names_op_requirement_and_env() {
        let km = crate::kernel::parse(KERNEL).expect("parses");
        let gm = km.body_ops(km.top())[0];
        let func = km.body_ops(gm)[0];
        let constant = km.body_ops(func)[0];
        let env = crate::target::TargetEnv::default();
        let opts = LowerOptions::default();
        let m = Module::new(
            crate::grammar::AddressingModel::Logical,
            crate::grammar::MemoryModel::GLSL450,
            None,
        );
        let mut l = Lowerer::new(&km, m, TypeConverter::new(&env, IndexBits::I32), &opts);
        l.current_op = constant;
        let first = l.module.op_count();
        let f32t = l.module.types.f32();
        let x = l.const_float(f32t, 1.0);
        assert!(l.check_legal(first).is_ok());
        let scope = l.enum_attr(OperandKind::Scope, Scope::Subgroup as u32);
        let gop = l.enum_attr(OperandKind::GroupOperation, GroupOperation::Reduce as u32);
        l.core_op_with_attrs(
            Opcode::GroupNonUniformFAdd,
            vec![x],
            f32t,
            vec![("execution_scope", scope), ("group_operation", gop)],
        );
        let err = l
            .check_legal(first)
            .expect_err("GroupNonUniformFAdd is illegal in Vulkan 1.0");
        assert_eq!(
            err.to_string(),
            "4:12: 'arith.constant': no legal lowering: 'spirv.GroupNonUniformFAdd' instruction \
             OpGroupNonUniformFAdd requires SPIR-V v1.3; the target env offers SPIR-V v1.0 with \
             capabilities [Shader] and extensions []"
        );
    }
}
