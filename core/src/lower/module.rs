//! `gpu.module` -> `spv.module`, `gpu.func ... kernel` -> `spv.func` with
//! shader-interface attributes, other `gpu.func` / `func.func` -> plain
//! `spv.func`s (MLIR's `GPUModuleConversion`, `GPUFuncOpConversion` and
//! `FuncOpConversion`), then the pass pipeline (`lower-abi-attrs`,
//! `update-vce`, entry-point interfaces, the verifier:
//! [`crate::passes::pipeline`]).

use kiln_abi::{AbiSyntax, EntryPointAbi, InterfaceVarAbi, StorageClass as AbiStorageClass};

use crate::grammar::{AddressingModel, MemoryModel, Opcode, OperandKind, StorageClass};
use crate::ir::{Attr, AttrKind, Module, OpKind, OpSpec, Type};
use crate::kernel::{KAttr, KOp, KOpKind, KType, KernelModule};
use crate::passes::lower_abi_attrs::LowerAbiOptions;
use crate::passes::{self, PipelineError, PipelineOptions};
use crate::target::TargetEnv;

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::memory::attribution_var;
use super::helpers::texel;
use super::types::{MemRefRepr, TypeConverter};
use super::LowerOptions;

/// Lowers one `gpu.module` (see [`super::convert_gpu_module`]), then runs
/// the pass pipeline ([`passes::pipeline`]) on it.
pub(crate) fn lower_gpu_module(
    km: &KernelModule,
    gm: KOp,
    env: &TargetEnv,
    opts: &LowerOptions,
) -> Result<Module, LowerError> {
    let name = km.symbol_name(gm).unwrap_or("").to_owned();
    let mut m = Module::new(AddressingModel::Logical, MemoryModel::GLSL450, None);
    let sym = m.attrs.string(format!("__spv__{name}"));
    let top = m.top();
    m.set_attr(top, "sym_name", sym);
    let tc = TypeConverter::new(env, opts.index_bits);
    let mut l = Lowerer::new(km, m, tc, opts);
    // A helper function runs with its caller's workgroup size: known only
    // when every kernel of the module has the same one. The sizes are
    // checked against the env's limits here, before anything is lowered, so
    // a helper lowered ahead of its kernel never sees an unchecked size.
    let mut kernel_sizes: Vec<[u32; 3]> = Vec::new();
    for &op in km.body_ops(gm) {
        if km.op(op).kind != KOpKind::GpuFunc || km.attr(op, "gpu.kernel").is_none() {
            continue;
        }
        let name = km.symbol_name(op).unwrap_or("");
        if let Ok((_, wg)) = workgroup_size(&l, op, name) {
            check_workgroup_size(&l, op, name, wg)?;
            kernel_sizes.push(wg);
        }
    }
    let helper_size = match kernel_sizes.split_first() {
        Some((first, rest)) if rest.iter().all(|s| s == first) => Some(*first),
        _ => None,
    };
    for &op in km.body_ops(gm) {
        match km.op(op).kind {
            KOpKind::GpuFunc if km.attr(op, "gpu.kernel").is_some() => lower_gpu_func(&mut l, op)?,
            KOpKind::GpuFunc | KOpKind::FuncFunc => {
                l.function_workgroup_size = helper_size;
                lower_helper_func(&mut l, op)?
            }
            _ => {}
        }
    }
    let mut m = l.module;
    use_vulkan_memory_model_for_cooperative_matrices(&mut m);
    // IEEE's signed zeros, infinities and NaNs wherever the device can keep
    // them: without the mode lavapipe folds `x * 0.0` to +0 (DRIVERS.md).
    let options = PipelineOptions {
        lower_abi_attrs: Some(LowerAbiOptions {
            signed_zero_inf_nan_preserve: true,
            ..LowerAbiOptions::default()
        }),
        update_vce: true,
    };
    passes::pipeline::run(&mut m, env, &options).map_err(|e| match e {
        PipelineError::LowerAbiAttrs(source) => LowerError::Abi {
            module: name,
            source: Box::new(source),
        },
        PipelineError::UpdateVce(source) => LowerError::UpdateVce {
            module: name,
            source: Box::new(source),
        },
        PipelineError::Verify(source) => LowerError::Verify {
            module: name,
            source: Box::new(source),
        },
    })?;
    Ok(m)
}

/// SPIR-V requires the `VulkanMemoryModel` capability, and with it the
/// `Vulkan` memory model, in a shader that uses cooperative matrices (the
/// lowered MMA ops); other modules keep `GLSL450`. Under that model a
/// barrier orders only non-private accesses, so every access to
/// workgroup memory (which barriers separate between invocations: a
/// cooperative-matrix kernel's staged tiles) gets `NonPrivatePointer`.
fn use_vulkan_memory_model_for_cooperative_matrices(m: &mut Module) {
    let types = &m.types;
    let any = (0..types.len()).any(|i| {
        matches!(
            types.kind(crate::ir::Type::from_index(i)),
            crate::ir::TypeKind::CoopMatrix(_)
        )
    });
    if any {
        let mm = m.attrs.enumerant(
            crate::grammar::OperandKind::MemoryModel,
            MemoryModel::Vulkan as u32,
        );
        let top = m.top();
        m.set_attr(top, "memory_model", mm);
        mark_workgroup_accesses_non_private(m);
    }
}

/// Adds `NonPrivatePointer` to the memory operands of every load and
/// store (plain or of a cooperative matrix) through a `Workgroup`
/// pointer.
fn mark_workgroup_accesses_non_private(m: &mut Module) {
    const NON_PRIVATE_POINTER: u32 = 0x20;
    let mut ops = Vec::new();
    let top = m.top();
    m.walk(top, &mut |op| ops.push(op));
    for op in ops {
        let kind = &m.op(op).kind;
        // The attribute of the memory operands (MLIR's names).
        let attr = if kind.is_core(Opcode::Load) || kind.is_core(Opcode::Store) {
            "memory_access"
        } else if kind.is_core(Opcode::CooperativeMatrixLoadKHR)
            || kind.is_core(Opcode::CooperativeMatrixStoreKHR)
        {
            "memory_operand"
        } else {
            continue;
        };
        let Some(&ptr) = m.op(op).operands.first() else {
            continue;
        };
        let workgroup = matches!(
            m.types.kind(m.value_type(ptr)),
            crate::ir::TypeKind::Pointer {
                storage_class: StorageClass::Workgroup,
                ..
            }
        );
        if !workgroup {
            continue;
        }
        let bits = match m.attr_kind(op, attr) {
            Some(AttrKind::Enum { value, .. }) => *value,
            _ => 0,
        };
        let value = m
            .attrs
            .enumerant(OperandKind::MemoryAccess, bits | NON_PRIVATE_POINTER);
        m.set_attr(op, attr, value);
    }
}

/// The workgroup size of kernel `op`.
fn workgroup_size(
    l: &Lowerer,
    op: KOp,
    name: &str,
) -> Result<(EntryPointAbi, [u32; 3]), LowerError> {
    let km = l.kernels;
    let mut abi = EntryPointAbi::default();
    for n in ["spirv.entry_point_abi", "spv.entry_point_abi"] {
        if let Some(KAttr::EntryPointAbi(a)) = km.attr(op, n) {
            abi = *a;
        }
    }
    if let Some(size) = abi.workgroup_size {
        return Ok((abi, size));
    }
    let known = match km.attr(op, "known_block_size") {
        Some(KAttr::DenseI64(v)) if v.len() == 3 => Some([v[0] as u32, v[1] as u32, v[2] as u32]),
        _ => None,
    };
    let size = known
        .or_else(|| l.options.workgroup_sizes.get(name).copied())
        .or(l.options.default_workgroup_size)
        .ok_or_else(|| {
            l.unsupported(format!(
                "kernel @{name} has no spirv.entry_point_abi workgroup_size (nor known_block_size)"
            ))
        })?;
    abi.workgroup_size = Some(size);
    Ok((abi, size))
}

fn dialect_attr(m: &mut Module, name: &str, body: String) -> Attr {
    m.attrs.intern(AttrKind::Dialect {
        name: name.to_string(),
        body,
    })
}

/// The `spirv.interface_var_abi` of kernel argument `i`.
fn arg_abi(km: &KernelModule, op: KOp, i: usize) -> Option<InterfaceVarAbi> {
    let Some(KAttr::Array(dicts)) = km.attr(op, "arg_attrs") else {
        return None;
    };
    let KAttr::Dict(entries) = dicts.get(i)? else {
        return None;
    };
    entries.iter().find_map(|(n, a)| match a {
        KAttr::InterfaceVarAbi(abi) if n.ends_with("interface_var_abi") => Some(*abi),
        _ => None,
    })
}

fn lower_gpu_func(l: &mut Lowerer, op: KOp) -> Result<(), LowerError> {
    let km = l.kernels;
    l.current_op = op;
    let name = km.symbol_name(op).unwrap_or("").to_owned();
    let n_inputs = match km.attr(op, "function_type") {
        Some(KAttr::Type(KType::Function { inputs, results })) => {
            if !results.is_empty() {
                return Err(l.malformed("a kernel returns nothing"));
            }
            inputs.len()
        }
        _ => return Err(l.malformed("missing function_type")),
    };
    let n_workgroup = match km.attr(op, "workgroup_attributions") {
        Some(KAttr::Int { value, .. }) => *value as usize,
        _ => 0,
    };
    // Checked against the env's limits by the module's pre-pass.
    let (entry_abi, wg) = workgroup_size(l, op, &name)?;
    l.function_workgroup_size = Some(wg);
    let kentry = km.entry_block(op, 0);
    let kargs = km.block(kentry).args.clone();
    if kargs.len() < n_inputs + n_workgroup {
        return Err(l.malformed("entry block has fewer arguments than the signature"));
    }

    // Signature and argument ABIs.
    let mut arg_types = Vec::new();
    let mut arg_dicts = Vec::new();
    for (i, &ka) in kargs[..n_inputs].iter().enumerate() {
        let kty = l.kernel_type(ka);
        let (ty, scalar) = match kty {
            KType::MemRef { .. } if texel::is_texel_memref(kty) => {
                let kty = kty.clone();
                (texel::argument_type(l, &kty)?, false)
            }
            KType::MemRef { .. } => {
                let repr = l.memref_repr(kty)?;
                if repr.storage_class != StorageClass::StorageBuffer {
                    return Err(l.unsupported(format!(
                        "kernel argument {i} lives in {}; only storage-buffer memrefs can be kernel arguments",
                        repr.storage_class.name()
                    )));
                }
                let binding = arg_abi(km, op, i).map_or(i as u32, |a| a.binding);
                let listed = l.options.split_bindings.get(&binding).copied();
                (split_argument(l, &repr, listed)?.unwrap_or(repr.ptr), false)
            }
            KType::Int(_) | KType::Float(_) | KType::Index | KType::Vector { .. } => {
                if l.type_converter.emulated_bits(kty).is_some() || matches!(kty, KType::Int(1)) {
                    return Err(l.unsupported(format!(
                        "scalar kernel argument {i} of type {} is not supported",
                        crate::kernel::print::type_to_string(kty)
                    )));
                }
                (l.convert_type(kty)?, true)
            }
            _ => {
                return Err(l.unsupported(format!(
                    "kernel argument {i} of type {} is not supported",
                    crate::kernel::print::type_to_string(kty)
                )))
            }
        };
        let mut abi = arg_abi(km, op, i).unwrap_or_else(|| InterfaceVarAbi::new(0, i as u32));
        if scalar && abi.storage_class.is_none() {
            abi.storage_class = Some(AbiStorageClass::StorageBuffer);
        }
        let a = dialect_attr(&mut l.module, InterfaceVarAbi::MNEMONIC, abi.body());
        let d = l.module.attrs.intern(AttrKind::Dict(vec![(
            InterfaceVarAbi::ATTR_NAME.to_string(),
            a,
        )]));
        arg_types.push(ty);
        arg_dicts.push(d);
    }

    let fty = l.module.types.function(arg_types.clone(), vec![]);
    let mut spec = OpSpec::new(OpKind::Func).regions(1).loc(km.op(op).loc);
    let a = l.module.attrs.string(name.clone());
    spec = spec.attr("sym_name", a);
    let a = l.module.attrs.ty(fty);
    spec = spec.attr("function_type", a);
    let a = l.module.attrs.enumerant(OperandKind::FunctionControl, 0);
    spec = spec.attr("function_control", a);
    if !arg_dicts.is_empty() {
        let a = l.module.attrs.array(arg_dicts);
        spec = spec.attr("arg_attrs", a);
    }
    let a = dialect_attr(
        &mut l.module,
        EntryPointAbi::MNEMONIC,
        entry_abi.body(AbiSyntax::Mlir),
    );
    spec = spec.attr(EntryPointAbi::ATTR_NAME, a);
    let func = l.module.create_op(spec);
    let region = l.module.op(func).regions[0];
    let entry = l.module.append_block(region, &arg_types);
    l.block = entry;
    l.function_entry = entry;
    let sargs = l.module.block(entry).args.clone();
    for (&ka, &sa) in kargs.iter().zip(&sargs) {
        l.set_lowered(ka, sa);
    }

    // Workgroup and private attributions become module-level variables.
    for (j, &ka) in kargs[n_inputs..].iter().enumerate() {
        let kty = l.kernel_type(ka);
        let repr = l.memref_repr(kty)?;
        let want = if j < n_workgroup {
            StorageClass::Workgroup
        } else {
            StorageClass::Private
        };
        if repr.storage_class != want || repr.len.is_none() {
            return Err(l.malformed(format!(
                "attribution {j} must be a statically shaped memref in {} memory",
                want.name()
            )));
        }
        let v = attribution_var(l, &repr)?;
        l.set_lowered(ka, v);
    }

    let term = l.lower_block(kentry)?;
    match term.map(|t| km.op(t).kind) {
        Some(KOpKind::GpuReturn) | None => {
            l.emit(OpSpec::new(Opcode::Return.into()));
        }
        Some(_) => {
            l.current_op = op;
            return Err(l.malformed("kernel body must end with gpu.return"));
        }
    }
    check_workgroup_memory(l, op, &name)?;
    let body = l.module.body();
    for g in std::mem::take(&mut l.pending_globals) {
        l.module.append_op(body, g);
    }
    l.module.append_op(body, func);
    Ok(())
}

/// The pointer type of a storage-buffer argument of representation
/// `repr` that is split across `listed` descriptors
/// ([`LowerOptions::split_bindings`]), or that is statically larger than
/// the env's `maxStorageBufferRange`: an array of `N` blocks of a runtime
/// array, one descriptor per chunk of
/// [`storage_chunk_bytes`](crate::target::ResourceLimits::storage_chunk_bytes)
/// (see [`super::helpers::memory`]); `None` for any other argument, whose
/// type stays as it is.
fn split_argument(
    l: &mut Lowerer,
    repr: &MemRefRepr,
    listed: Option<u32>,
) -> Result<Option<Type>, LowerError> {
    let limits = &l.type_converter.target().env().limits;
    let range = u64::from(limits.max_storage_buffer_range);
    let chunk = limits.storage_chunk_bytes();
    let elem_bytes = type_bytes(&l.module.types, repr.stored);
    let bytes = match (listed, repr.len) {
        (Some(n), _) => u64::from(n).saturating_mul(chunk),
        (None, Some(len)) => {
            let words = match repr.packed_bits {
                Some(bits) => len.div_ceil(u64::from(32 / bits)),
                None => len,
            };
            words.saturating_mul(elem_bytes)
        }
        (None, None) => return Ok(None),
    };
    if bytes <= range || listed == Some(1) {
        return Ok(None);
    }
    if elem_bytes == 0 || !elem_bytes.is_power_of_two() || elem_bytes > chunk {
        return Err(l.unsupported(format!(
            "a storage buffer of {bytes} bytes (more than maxStorageBufferRange, \
             {range}) of {elem_bytes}-byte elements cannot be split into chunks of {chunk} bytes"
        )));
    }
    let chunks = bytes.div_ceil(chunk);
    let max = u64::from(limits.max_per_stage_descriptor_storage_buffers);
    let chunks = u32::try_from(chunks)
        .ok()
        .filter(|&n| u64::from(n) <= max)
        .ok_or_else(|| {
            l.unsupported(format!(
                "a storage buffer of {bytes} bytes needs {chunks} descriptors of \
                 {chunk} bytes (maxStorageBufferRange {range}), more than \
                 maxPerStageDescriptorStorageBuffers ({max})"
            ))
        })?;
    let stride = u32::try_from(elem_bytes).ok();
    let rt = l.module.types.runtime_array(repr.stored, stride);
    let block = l.module.types.struct_of(vec![(rt, Some(0))]);
    let array = l.module.types.array(chunks, block, None);
    Ok(Some(
        l.module.types.pointer(array, StorageClass::StorageBuffer),
    ))
}

fn limit_error(l: &Lowerer, op: KOp, kernel: &str, message: String) -> LowerError {
    LowerError::Limit {
        kernel: kernel.to_string(),
        loc: l.kernels.op(op).loc,
        message,
    }
}

/// The workgroup size against the env's `max_compute_workgroup_size` and
/// `max_compute_workgroup_invocations`.
fn check_workgroup_size(
    l: &Lowerer,
    op: KOp,
    kernel: &str,
    wg: [u32; 3],
) -> Result<(), LowerError> {
    let limits = &l.type_converter.target().env().limits;
    for (d, (&n, &max)) in wg
        .iter()
        .zip(&limits.max_compute_workgroup_size)
        .enumerate()
    {
        if n == 0 || n > max {
            return Err(limit_error(
                l,
                op,
                kernel,
                format!(
                    "workgroup size {n} in dimension {} is outside 1..={max} (max_compute_workgroup_size)",
                    ["x", "y", "z"][d]
                ),
            ));
        }
    }
    // Three u32 factors always fit in a u128.
    let total = wg.iter().map(|&n| n as u128).product::<u128>();
    let max = limits.max_compute_workgroup_invocations as u128;
    if total > max {
        return Err(limit_error(
            l,
            op,
            kernel,
            format!("{total} invocations per workgroup exceed max_compute_workgroup_invocations = {max}"),
        ));
    }
    Ok(())
}

/// Bytes of the workgroup variables the kernel created, against the env's
/// `max_compute_shared_memory_size`.
fn check_workgroup_memory(l: &Lowerer, op: KOp, kernel: &str) -> Result<(), LowerError> {
    let types = &l.module.types;
    let mut bytes: u64 = 0;
    for &g in &l.pending_globals {
        let Some(ty) = l
            .module
            .attr(g, "type")
            .and_then(|a| l.module.attrs.as_type(a))
        else {
            continue;
        };
        if let Some((pointee, StorageClass::Workgroup)) = types.pointer_parts(ty) {
            bytes += type_bytes(types, pointee);
        }
    }
    let max = l
        .type_converter
        .target()
        .env()
        .limits
        .max_compute_shared_memory_size as u64;
    if bytes > max {
        return Err(limit_error(
            l,
            op,
            kernel,
            format!(
                "{bytes} bytes of workgroup memory exceed max_compute_shared_memory_size = {max}"
            ),
        ));
    }
    Ok(())
}

/// Size in bytes of a workgroup variable's type (scalars, vectors, arrays,
/// structs without padding).
fn type_bytes(types: &crate::ir::TypeStore, ty: crate::ir::Type) -> u64 {
    use crate::ir::TypeKind;
    match types.kind(ty) {
        TypeKind::Array { len, element, .. } => *len as u64 * type_bytes(types, *element),
        TypeKind::Struct(st) => st.members.iter().map(|m| type_bytes(types, m.ty)).sum(),
        TypeKind::Vector { len, element } => *len as u64 * type_bytes(types, *element),
        _ => (types.bit_width(ty).unwrap_or(32) as u64).div_ceil(8),
    }
}

/// A function of the `gpu.module` that is not a kernel (`func.func` or a
/// `gpu.func` without `kernel`) becomes a plain `spv.func` with converted
/// scalar, vector or memref (pointer) arguments and at most one result
/// (MLIR's `FuncOpConversion`). `gpu.block_dim` inside it uses the
/// workgroup size all the module's kernels share (an error when they
/// differ).
fn lower_helper_func(l: &mut Lowerer, op: KOp) -> Result<(), LowerError> {
    let km = l.kernels;
    l.current_op = op;
    let name = km.symbol_name(op).unwrap_or("").to_owned();
    let (inputs, results) = match km.attr(op, "function_type") {
        Some(KAttr::Type(KType::Function { inputs, results })) => (inputs.clone(), results.clone()),
        _ => return Err(l.malformed("missing function_type")),
    };
    if results.len() > 1 {
        return Err(l.unsupported("functions with several results"));
    }
    if km.op(op).regions.is_empty() || km.region(km.op(op).regions[0]).blocks.is_empty() {
        // A declaration: nothing to lower.
        return Ok(());
    }
    let mut arg_types = Vec::new();
    for t in &inputs {
        arg_types.push(l.convert_type(t)?);
    }
    let mut res_types = Vec::new();
    for t in &results {
        res_types.push(l.convert_type(t)?);
    }
    let fty = l
        .module
        .types
        .function(arg_types.clone(), res_types.clone());
    let mut spec = OpSpec::new(OpKind::Func).regions(1).loc(km.op(op).loc);
    let a = l.module.attrs.string(name);
    spec = spec.attr("sym_name", a);
    let a = l.module.attrs.ty(fty);
    spec = spec.attr("function_type", a);
    let a = l.module.attrs.enumerant(OperandKind::FunctionControl, 0);
    spec = spec.attr("function_control", a);
    let func = l.module.create_op(spec);
    let region = l.module.op(func).regions[0];
    let entry = l.module.append_block(region, &arg_types);
    l.block = entry;
    l.function_entry = entry;
    let kentry = km.entry_block(op, 0);
    let kargs = km.block(kentry).args.clone();
    if kargs.len() != arg_types.len() {
        return Err(l.malformed("entry block arguments differ from the signature"));
    }
    let sargs = l.module.block(entry).args.clone();
    for (&ka, &sa) in kargs.iter().zip(&sargs) {
        l.set_lowered(ka, sa);
    }
    let term = l.lower_block(kentry)?;
    l.current_op = op;
    let Some(term) = term else {
        return Err(l.malformed("function body must end with a return"));
    };
    let vals: Vec<_> = km
        .op(term)
        .operands
        .iter()
        .map(|&v| l.lowered(v))
        .collect::<Result<_, _>>()?;
    match vals.as_slice() {
        [] => {
            l.emit(OpSpec::new(Opcode::Return.into()));
        }
        [v] => {
            l.emit(OpSpec::new(Opcode::ReturnValue.into()).operands(vec![*v]));
        }
        _ => return Err(l.malformed("return value count differs from the signature")),
    }
    let body = l.module.body();
    for g in std::mem::take(&mut l.pending_globals) {
        l.module.append_op(body, g);
    }
    l.module.append_op(body, func);
    Ok(())
}
