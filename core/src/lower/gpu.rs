//! `gpu` ops inside kernels -> spv (MLIR's `GPUToSPIRV` patterns).
//!
//! * ids read builtin variables (created once per module);
//!   `gpu.block_dim` is the constant workgroup size of the entry point ABI,
//!   as in MLIR.
//! * `gpu.barrier` -> `spv.ControlBarrier <Workgroup>, <Workgroup>,
//!   <AcquireRelease|WorkgroupMemory>`.
//! * `gpu.subgroup_reduce` -> `spv.GroupNonUniform<Op> <Subgroup> <Reduce>`
//!   when the env allows the instruction (`GroupNonUniformArithmetic`);
//!   otherwise a workgroup-memory tree reduction. `gpu.shuffle` ->
//!   `spv.GroupNonUniformShuffle*` when allowed, otherwise a
//!   workgroup-memory exchange.
//!
//! The fallbacks emulate a subgroup that spans the whole workgroup: in an
//! env without `GroupNonUniform`, `gpu.subgroup_size` is the workgroup's
//! invocation count, `gpu.lane_id` the local invocation index,
//! `gpu.subgroup_id` 0 and `gpu.num_subgroups` 1, so kernels see one
//! consistent subgroup model. Fallback ops must be reached by every
//! invocation of the workgroup (they contain barriers); vectors reduce
//! lane by lane. The shuffle fallback treats `width` only as the bound of
//! valid source lanes.
//! * The subgroup MMA ops become `Subgroup` cooperative matrices
//!   (`SPV_KHR_cooperative_matrix`, as MLIR's WMMA-to-KHR patterns do):
//!   `gpu.subgroup_mma_load_matrix` / `store_matrix` ->
//!   `spv.KHR.CooperativeMatrixLoad` / `Store` at the element's pointer with
//!   `leadDimension` as an `i32` stride, `<RowMajor>` (`<ColumnMajor>` with
//!   `transpose`); `gpu.subgroup_mma_compute` ->
//!   `spv.KHR.CooperativeMatrixMulAdd`; `gpu.subgroup_mma_constant_matrix`
//!   -> `spv.CompositeConstruct` of the one scalar.

use crate::availability::{enumerant_requirements, Requirement};
use crate::grammar::{
    BuiltIn, Capability, GroupOperation, Opcode, OperandKind, Scope, StorageClass,
};
use crate::ir::{Type, Value};
use crate::kernel::{KOpKind, KType};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::ints::{bool_like, normalize};
use super::helpers::reduce::{reduction_ops, Combine};

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::GpuThreadId => id(l, BuiltIn::LocalInvocationId),
        KOpKind::GpuBlockId => id(l, BuiltIn::WorkgroupId),
        KOpKind::GpuGridDim => id(l, BuiltIn::NumWorkgroups),
        KOpKind::GpuGlobalId => id(l, BuiltIn::GlobalInvocationId),
        KOpKind::GpuBlockDim => {
            let d = dim(l)?;
            let n = l.workgroup_size()?[d as usize];
            let ty = l.result_type(0)?;
            let v = l.const_int(ty, n as i128);
            l.set_result(0, v)
        }
        KOpKind::GpuLaneId => subgroup_builtin(l, BuiltIn::SubgroupLocalInvocationId),
        KOpKind::GpuSubgroupId => subgroup_builtin(l, BuiltIn::SubgroupId),
        KOpKind::GpuSubgroupSize => subgroup_builtin(l, BuiltIn::SubgroupSize),
        KOpKind::GpuNumSubgroups => subgroup_builtin(l, BuiltIn::NumSubgroups),
        KOpKind::GpuBarrier => {
            barrier(l);
            Ok(())
        }
        KOpKind::GpuSubgroupReduce => subgroup_reduce(l),
        KOpKind::GpuShuffle => shuffle(l),
        KOpKind::GpuSubgroupMmaLoadMatrix | KOpKind::GpuSubgroupMmaStoreMatrix => {
            mma_access(l, kind == KOpKind::GpuSubgroupMmaStoreMatrix)
        }
        KOpKind::GpuSubgroupMmaCompute => {
            let ops = l.operands()?;
            let ty = l.result_type(0)?;
            let v = l.core_op(Opcode::CooperativeMatrixMulAddKHR, ops, ty);
            l.set_result(0, v)
        }
        KOpKind::GpuSubgroupMmaConstantMatrix => {
            let ops = l.operands()?;
            let ty = l.result_type(0)?;
            let v = l.core_op(Opcode::CompositeConstruct, ops, ty);
            l.set_result(0, v)
        }
        _ => Err(l.unsupported("no lowering for this gpu op")),
    }
}

fn dim(l: &Lowerer) -> Result<u32, LowerError> {
    match l.kernel_enum("dimension")? {
        "x" => Ok(0),
        "y" => Ok(1),
        "z" => Ok(2),
        other => Err(l.malformed(format!("unknown dimension '{other}'"))),
    }
}

/// Converts an `i32` id to the result's index type.
fn to_index(l: &mut Lowerer, v: Value) -> Result<Value, LowerError> {
    let ty = l.result_type(0)?;
    Ok(if l.module.value_type(v) != ty {
        l.core_op(Opcode::UConvert, vec![v], ty)
    } else {
        v
    })
}

fn id(l: &mut Lowerer, b: BuiltIn) -> Result<(), LowerError> {
    let d = dim(l)?;
    let vec3 = l.builtin(b);
    let i32t = l.i32_type();
    let v = l.extract(vec3, d, i32t);
    let v = to_index(l, v)?;
    l.set_result(0, v)
}

/// Whether the env lets kernels read subgroup builtins.
fn has_subgroups(l: &Lowerer) -> bool {
    l.type_converter.has(Capability::GroupNonUniform)
}

fn subgroup_builtin(l: &mut Lowerer, b: BuiltIn) -> Result<(), LowerError> {
    let v = if has_subgroups(l) {
        let reqs = enumerant_requirements(OperandKind::BuiltIn, b as u32);
        if let Err(e) = l.type_converter.target().check(&reqs) {
            return Err(LowerError::Illegal {
                op: l.op_name(),
                loc: l.kernels.op(l.current_op).loc,
                produced: format!("spirv.GlobalVariable built_in(\"{}\")", b.name()),
                requirement: Box::new(e),
                offered: l.type_converter.target().env().summary(),
            });
        }
        l.builtin(b)
    } else {
        // The emulated subgroup is the whole workgroup.
        let total = invocations(l)?;
        match b {
            BuiltIn::SubgroupLocalInvocationId => l.builtin(BuiltIn::LocalInvocationIndex),
            BuiltIn::SubgroupSize => l.const_i32(total as i64),
            BuiltIn::SubgroupId => l.const_i32(0),
            _ => l.const_i32(1),
        }
    };
    let v = to_index(l, v)?;
    l.set_result(0, v)
}

/// `spv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>`.
pub(crate) fn barrier(l: &mut Lowerer) {
    let wg = l.enum_attr(OperandKind::Scope, Scope::Workgroup as u32);
    // AcquireRelease (0x8) | WorkgroupMemory (0x100).
    let sem = l.enum_attr(OperandKind::MemorySemantics, 0x108);
    l.core_op_without_result(
        Opcode::ControlBarrier,
        vec![],
        vec![
            ("execution_scope", wg),
            ("memory_scope", wg),
            ("memory_semantics", sem),
        ],
    );
}

/// Whether the env allows core instruction `inst`.
fn allows_inst(l: &Lowerer, inst: Opcode) -> bool {
    l.type_converter
        .target()
        .check_requirement(&Requirement::for_instruction(inst.desc()))
        .is_ok()
}

fn subgroup_reduce(l: &mut Lowerer) -> Result<(), LowerError> {
    if l.kernel_attr("cluster_size").is_some() {
        return Err(l.unsupported("clustered subgroup reductions"));
    }
    let kind = l.kernel_enum("op")?;
    let x = l.operand(0)?;
    let kty = l.kernel_type(l.kernel_operand(0)?);
    let ty = l.result_type(0)?;
    let float = matches!(kty.scalar(), KType::Float(_));
    let (inst, combine) = reduction_ops(kind, float)
        .ok_or_else(|| l.unsupported(format!("reduction '{kind}' on this type")))?;
    // Best pattern first: the subgroup instruction, when the env allows it.
    if allows_inst(l, inst) {
        let scope = l.enum_attr(OperandKind::Scope, Scope::Subgroup as u32);
        let gop = l.enum_attr(OperandKind::GroupOperation, GroupOperation::Reduce as u32);
        let attrs = vec![("execution_scope", scope), ("group_operation", gop)];
        let mut v = l.core_op_with_attrs(inst, vec![x], ty, attrs.clone());
        if let Combine::NanPropagating(_) = combine {
            // GroupNonUniformFMax/FMin leave a NaN lane undefined (lavapipe
            // skips it): reduce a NaN flag (1.0 or 0.0) with FMax and give
            // NaN when any lane held one.
            let bt = bool_like(l, ty);
            let is_nan = l.core_op(Opcode::IsNan, vec![x], bt);
            let (one, zero) = (l.const_float(ty, 1.0), l.const_float(ty, 0.0));
            let flag = l.core_op(Opcode::Select, vec![is_nan, one, zero], ty);
            let any = l.core_op_with_attrs(Opcode::GroupNonUniformFMax, vec![flag], ty, attrs);
            let any = l.core_op(Opcode::FOrdNotEqual, vec![any, zero], bt);
            let nan = l.const_float(ty, f64::NAN);
            v = l.core_op(Opcode::Select, vec![any, nan, v], ty);
        }
        let v = normalize(l, v, kty);
        return l.set_result(0, v);
    }
    let lanes = l.module.types.component_count(ty);
    let v = if lanes == 1 {
        tree_reduce(l, x, ty, combine)?
    } else {
        // Vectors reduce lane by lane.
        let st = l.module.types.scalar_of(ty);
        let mut parts = Vec::new();
        for k in 0..lanes {
            let e = l.extract(x, k, st);
            parts.push(tree_reduce(l, e, st, combine)?);
        }
        l.core_op(Opcode::CompositeConstruct, parts, ty)
    };
    let v = normalize(l, v, kty);
    l.set_result(0, v)
}

/// A workgroup-shared scratch array of `n` elements of `ty`; returns its
/// address.
fn scratch(l: &mut Lowerer, n: u32, ty: Type) -> Value {
    let arr = l.module.types.array(n, ty, None);
    let st = l.module.types.struct_of(vec![(arr, None)]);
    let ptr = l.module.types.pointer(st, StorageClass::Workgroup);
    let name = format!("__workgroup_mem__{}", l.global_counter);
    l.global_counter += 1;
    l.global(&name, ptr, None);
    l.address_of(&name, ptr)
}

fn slot(l: &mut Lowerer, base: Value, i: Value, ty: Type) -> Value {
    let zero = l.const_i32(0);
    let p = l.module.types.pointer(ty, StorageClass::Workgroup);
    l.core_op(Opcode::AccessChain, vec![base, zero, i], p)
}

/// Invocations per workgroup of the current function. The kernels' sizes
/// were checked against the env's limits, so this overflows only past them.
fn invocations(l: &Lowerer) -> Result<u32, LowerError> {
    let [x, y, z] = l.workgroup_size()?;
    x.checked_mul(y)
        .and_then(|xy| xy.checked_mul(z))
        .ok_or_else(|| l.unsupported(format!("a workgroup of {x}x{y}x{z} invocations")))
}

/// Reduces `x` over the workgroup with a tree in workgroup memory.
fn tree_reduce(l: &mut Lowerer, x: Value, ty: Type, combine: Combine) -> Result<Value, LowerError> {
    let total = invocations(l)?;
    let p2 = total
        .max(1)
        .checked_next_power_of_two()
        .ok_or_else(|| l.unsupported(format!("a tree reduction over {total} invocations")))?;
    let buf = scratch(l, p2, ty);
    let lid = l.builtin(BuiltIn::LocalInvocationIndex);
    let i32t = l.i32_type();
    let bt = l.bool_type();
    let mine = slot(l, buf, lid, ty);
    l.store(mine, x);
    barrier(l);
    let mut s = p2 / 2;
    while s >= 1 {
        let sv = l.const_i32(s as i64);
        let tv = l.const_i32(total as i64);
        let other = l.core_op(Opcode::IAdd, vec![lid, sv], i32t);
        let c1 = l.core_op(Opcode::ULessThan, vec![lid, sv], bt);
        let c2 = l.core_op(Opcode::ULessThan, vec![other, tv], bt);
        let c = l.core_op(Opcode::LogicalAnd, vec![c1, c2], bt);
        l.emit_if(c, |l| {
            let pa = slot(l, buf, lid, ty);
            let pb = slot(l, buf, other, ty);
            let a = l.load(pa);
            let b = l.load(pb);
            let r = combine.apply(l, a, b, ty);
            l.store(pa, r);
            Ok(())
        })?;
        barrier(l);
        s /= 2;
    }
    let zero = l.const_i32(0);
    let p0 = slot(l, buf, zero, ty);
    let r = l.load(p0);
    // Keep the next use of the scratch array from racing with this read.
    barrier(l);
    Ok(r)
}

fn shuffle(l: &mut Lowerer) -> Result<(), LowerError> {
    let mode = l.kernel_enum("mode")?;
    let x = l.operand(0)?;
    let offset = l.operand(1)?;
    let width = l.operand(2)?;
    let ty = l.result_type(0)?;
    let bt = l.result_type(1)?;
    let inst = match mode {
        "xor" => Opcode::GroupNonUniformShuffleXor,
        "idx" => Opcode::GroupNonUniformShuffle,
        "up" => Opcode::GroupNonUniformShuffleUp,
        "down" => Opcode::GroupNonUniformShuffleDown,
        other => return Err(l.malformed(format!("unknown shuffle mode '{other}'"))),
    };
    let i32t = l.i32_type();
    let to32 = |l: &mut Lowerer, v: Value| {
        if l.module.value_type(v) != i32t {
            l.core_op(Opcode::UConvert, vec![v], i32t)
        } else {
            v
        }
    };
    let offset = to32(l, offset);
    let width = to32(l, width);
    if allows_inst(l, inst) && has_subgroups(l) {
        let scope = l.enum_attr(OperandKind::Scope, Scope::Subgroup as u32);
        let v = l.core_op_with_attrs(inst, vec![x, offset], ty, vec![("execution_scope", scope)]);
        let lane = l.builtin(BuiltIn::SubgroupLocalInvocationId);
        let valid = shuffle_valid(l, mode, lane, offset, width);
        l.set_result(0, v)?;
        return l.set_result(1, valid);
    }
    // Fallback: exchange through workgroup memory.
    let total = invocations(l)?;
    let buf = scratch(l, total.max(1), ty);
    let lid = l.builtin(BuiltIn::LocalInvocationIndex);
    let mine = slot(l, buf, lid, ty);
    l.store(mine, x);
    barrier(l);
    let src = match mode {
        "xor" => l.core_op(Opcode::BitwiseXor, vec![lid, offset], i32t),
        "idx" => offset,
        "up" => l.core_op(Opcode::ISub, vec![lid, offset], i32t),
        _ => l.core_op(Opcode::IAdd, vec![lid, offset], i32t),
    };
    let valid = shuffle_valid(l, mode, lid, offset, width);
    let tv = l.const_i32(total as i64);
    let in_range = l.core_op(Opcode::ULessThan, vec![src, tv], bt);
    let ok = l.core_op(Opcode::LogicalAnd, vec![valid, in_range], bt);
    let zero = l.const_i32(0);
    let safe = l.core_op(Opcode::Select, vec![ok, src, zero], i32t);
    let p = slot(l, buf, safe, ty);
    let v = l.load(p);
    let r = l.core_op(Opcode::Select, vec![ok, v, x], ty);
    barrier(l);
    l.set_result(0, r)?;
    l.set_result(1, valid)
}

/// Whether the shuffle's source lane lies inside `width`.
fn shuffle_valid(l: &mut Lowerer, mode: &str, lane: Value, offset: Value, width: Value) -> Value {
    let i32t = l.i32_type();
    let bt = l.bool_type();
    match mode {
        "xor" => {
            let s = l.core_op(Opcode::BitwiseXor, vec![lane, offset], i32t);
            l.core_op(Opcode::ULessThan, vec![s, width], bt)
        }
        "idx" => l.core_op(Opcode::ULessThan, vec![offset, width], bt),
        "up" => l.core_op(Opcode::UGreaterThanEqual, vec![lane, offset], bt),
        _ => {
            let s = l.core_op(Opcode::IAdd, vec![lane, offset], i32t);
            l.core_op(Opcode::ULessThan, vec![s, width], bt)
        }
    }
}

/// `gpu.subgroup_mma_load_matrix` / `store_matrix` (`store`): the element
/// pointer, the `leadDimension` stride and the layout.
fn mma_access(l: &mut Lowerer, store: bool) -> Result<(), LowerError> {
    let mpos = usize::from(store);
    let base = l.kernel_operand(mpos)?;
    let n = l.kernels.op(l.current_op).operands.len();
    let idx = (mpos + 1..n)
        .map(|i| l.operand(i))
        .collect::<Result<Vec<_>, _>>()?;
    let ptr = super::helpers::memory::element_pointer(l, base, &idx)?;
    let lead = match l.kernel_attr("leadDimension") {
        Some(crate::kernel::KAttr::Int { value, .. }) => i64::try_from(*value)
            .ok()
            .filter(|v| (1..=i64::from(i32::MAX)).contains(v))
            .ok_or_else(|| l.unsupported("a leadDimension outside 1..2^31"))?,
        _ => return Err(l.malformed("needs a 'leadDimension' index attribute")),
    };
    let stride = l.const_i32(lead);
    let layout = u32::from(l.kernel_attr("transpose").is_some());
    let layout = l.enum_attr(OperandKind::CooperativeMatrixLayout, layout);
    if store {
        let value = l.operand(0)?;
        l.core_op_without_result(
            Opcode::CooperativeMatrixStoreKHR,
            vec![ptr, value, stride],
            vec![("matrix_layout", layout)],
        );
        Ok(())
    } else {
        let ty = l.result_type(0)?;
        let v = l.core_op_with_attrs(
            Opcode::CooperativeMatrixLoadKHR,
            vec![ptr, stride],
            ty,
            vec![("matrix_layout", layout)],
        );
        l.set_result(0, v)
    }
}
