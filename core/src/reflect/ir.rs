//! Reflection of a [`PipelineInterface`] from the spv IR.
//!
//! [`reflect_module`] finds the `spv.EntryPoint` whose function is named
//! `entry_point` (a compute entry point's name is its function's symbol) and
//! reports:
//!
//! - **bindings**: every `spv.GlobalVariable` in the `StorageBuffer`,
//!   `Uniform` or `UniformConstant` storage class that the entry function or
//!   a function it calls (transitively, through `spv.FunctionCall`) takes the
//!   address of. Each needs `descriptor_set` and `binding`. `StorageBuffer`
//!   gives a storage buffer, `Uniform` a uniform buffer (the serializer
//!   decorates its struct `Block`), `UniformConstant` an image, sampler or
//!   combined image-sampler by its pointee type; an image with `Dim = Buffer`
//!   is a uniform (`NeedSampler`) or storage (`NoSampler`) texel buffer whose
//!   format is the binding's `texel_format`. Arrays of descriptors are
//!   unsupported.
//! - **access**: a `NonWritable` (`NonReadable`) decoration attribute on the
//!   variable, or that member decoration on every member of its block, makes
//!   the binding read-only (write-only); uniform buffers, uniform texel
//!   buffers, samplers and sampled images are read-only.
//! - **sizes**: from the block's explicit layout (see [`crate::reflect`]).
//! - **push constants**: the used `PushConstant` variable (at most one), a
//!   range at offset 0 of its block's extent rounded up to 4 bytes.
//! - **workgroup size**: a `spv.SpecConstantComposite` with
//!   `built_in = "WorkgroupSize"` wins (its constituents' `spec_id`s are
//!   reported per dimension); else `LocalSize`; else `LocalSizeId`.
//! - **specialization constants**: every `spv.SpecConstant` of the module
//!   with a `spec_id`, with its type and default value.
//! - **workgroup memory**: the natural sizes of the used `Workgroup`
//!   variables, summed.
//!
//! Bindings shared by two variables merge when their descriptor types agree
//! (access widens to read-write when they differ) and are an error
//! otherwise.

use std::collections::{BTreeMap, HashSet};

use kiln_abi::{
    Access, DescriptorType, EntryPointAbi, InterfaceVarAbi, PipelineInterface, PushConstantRange,
    ResourceBinding, SpecConstant, SpecType,
};

use super::common::{self, access_from, merge_alias, select_entry_point};
use super::size::{block_extent, natural_size};
use super::ReflectError;
use crate::grammar::{
    Decoration, Dim, ExecutionMode, ExecutionModel, Opcode, OperandKind, StorageClass,
};
use crate::ir::{AttrKind, ImageSamplerUse, Module, Op, OpKind, Signedness, Type, TypeKind};

/// The module's entry points as `(name, execution model)`, in order.
pub fn entry_points(m: &Module) -> Vec<(String, String)> {
    m.module_ops()
        .iter()
        .filter(|&&op| m.op(op).kind == OpKind::EntryPoint)
        .filter_map(|&op| {
            let name = m.attr(op, "fn").and_then(|a| m.attrs.as_symbol(a))?;
            let model = m
                .attr(op, "execution_model")
                .and_then(|a| m.attrs.as_enum(a, OperandKind::ExecutionModel))
                .and_then(ExecutionModel::from_u32)
                .map_or("?", ExecutionModel::name);
            Some((name.to_owned(), model.to_owned()))
        })
        .collect()
}

/// Reflects the interface of the `GLCompute` entry point `entry_point` of a
/// lowered module. See the module documentation for the rules.
pub fn reflect_module(m: &Module, entry_point: &str) -> Result<PipelineInterface, ReflectError> {
    check_lowered(m)?;
    select_entry_point(
        entry_points(m).into_iter().map(|(n, model)| (n, model, ())),
        entry_point,
    )?;
    let func = m
        .lookup_symbol(entry_point)
        .filter(|&f| m.op(f).kind == OpKind::Func)
        .ok_or_else(|| ReflectError::Malformed {
            resource: format!("entry point \"{entry_point}\""),
            reason: format!("no spv.func @{entry_point}"),
        })?;
    let used = statically_used(m, func);

    let mut bindings: BTreeMap<(u32, u32), (ResourceBinding, String)> = BTreeMap::new();
    let mut push: Option<(PushConstantRange, String)> = None;
    let mut workgroup_memory = 0u64;
    for &op in m.module_ops() {
        if m.op(op).kind != OpKind::GlobalVariable {
            continue;
        }
        let Some(name) = m.symbol_name(op) else {
            continue;
        };
        if !used.contains(name) {
            continue;
        }
        let desc = format!("global @{name}");
        let (pointee, class) = var_type(m, op).ok_or_else(|| ReflectError::Malformed {
            resource: desc.clone(),
            reason: "its type is not a pointer".to_owned(),
        })?;
        match class {
            StorageClass::StorageBuffer | StorageClass::Uniform | StorageClass::UniformConstant => {
                let b = resource_binding(m, op, &desc, pointee, class)?;
                match bindings.get_mut(&b.key()) {
                    None => {
                        bindings.insert(b.key(), (b, desc));
                    }
                    Some((prev, prev_desc)) => merge_alias(prev, prev_desc, b, desc)?,
                }
            }
            StorageClass::PushConstant => {
                let range = push_constant_range(m, &desc, pointee)?;
                if let Some((_, first)) = push {
                    return Err(ReflectError::MultiplePushConstantBlocks {
                        name: entry_point.to_owned(),
                        first,
                        second: desc,
                    });
                }
                push = Some((range, desc));
            }
            StorageClass::Workgroup => {
                let (size, _) = natural_size(&m.types, pointee).map_err(|reason| {
                    ReflectError::Unsupported {
                        resource: desc.clone(),
                        what: reason.to_string(),
                    }
                })?;
                workgroup_memory += size;
            }
            _ => {}
        }
    }

    let spec_constants = spec_constants(m);
    let (workgroup_size, workgroup_size_spec_ids) = workgroup_size(m, entry_point)?;
    Ok(PipelineInterface {
        entry_point: entry_point.to_owned(),
        bindings: bindings.into_values().map(|(b, _)| b).collect(),
        push_constants: push.map(|(r, _)| r),
        workgroup_size,
        workgroup_size_spec_ids,
        spec_constants,
        workgroup_memory,
    })
}

/// Fails when a function still carries ABI attributes.
fn check_lowered(m: &Module) -> Result<(), ReflectError> {
    for &op in m.module_ops() {
        if m.op(op).kind != OpKind::Func {
            continue;
        }
        let function = m.symbol_name(op).unwrap_or_default().to_owned();
        let has = |name: &str| {
            m.op(op)
                .attrs
                .iter()
                .any(|(n, _)| n == name || n.strip_prefix("spv.") == name.strip_prefix("spirv."))
        };
        // An entry_point_abi that only keeps a subgroup size or target width
        // (which Vulkan sets outside the module) is what lowering leaves.
        let unlowered_entry = m
            .op(op)
            .attrs
            .iter()
            .filter(|(n, _)| n.ends_with(".entry_point_abi"))
            .any(|(_, a)| match m.attrs.kind(*a) {
                AttrKind::Dialect { body, .. } => EntryPointAbi::parse_body(body)
                    .map(|abi| abi.workgroup_size.is_some())
                    .unwrap_or(true),
                _ => true,
            });
        if unlowered_entry && has(EntryPointAbi::ATTR_NAME) {
            return Err(ReflectError::Unlowered {
                function,
                attr: EntryPointAbi::ATTR_NAME,
            });
        }
        if let Some(dicts) = m.attr(op, "arg_attrs").and_then(|a| m.attrs.as_array(a)) {
            for &d in dicts {
                if let AttrKind::Dict(entries) = m.attrs.kind(d) {
                    if entries
                        .iter()
                        .any(|(n, _)| n.ends_with(".interface_var_abi"))
                    {
                        return Err(ReflectError::Unlowered {
                            function,
                            attr: InterfaceVarAbi::ATTR_NAME,
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// Symbols (global variables and specialization constants) referenced by
/// `func` and the functions it calls, transitively. An address or value
/// whose result nothing uses does not count: it leaves no trace in the
/// binary, so the binary's reflection would not see it either.
fn statically_used(m: &Module, func: Op) -> HashSet<String> {
    let mut used = HashSet::new();
    let mut visited = HashSet::new();
    let mut stack = vec![func];
    while let Some(f) = stack.pop() {
        if !visited.insert(f) {
            continue;
        }
        let mut operands: HashSet<crate::ir::Value> = HashSet::new();
        m.walk(f, &mut |op| {
            let data = m.op(op);
            operands.extend(data.operands.iter().copied());
            for s in &data.successors {
                operands.extend(s.args.iter().copied());
            }
        });
        m.walk(f, &mut |op| {
            let data = m.op(op);
            if matches!(data.kind, OpKind::AddressOf | OpKind::ReferenceOf)
                && !data.results.iter().any(|r| operands.contains(r))
            {
                return;
            }
            let attr = match &data.kind {
                OpKind::AddressOf => "variable",
                OpKind::ReferenceOf => "spec_const",
                k if k.is_core(Opcode::FunctionCall) => "callee",
                _ => return,
            };
            if let Some(sym) = m.attr(op, attr).and_then(|a| m.attrs.as_symbol(a)) {
                if attr == "callee" {
                    if let Some(callee) = m.lookup_symbol(sym) {
                        stack.push(callee);
                    }
                } else {
                    used.insert(sym.to_owned());
                }
            }
        });
    }
    used
}

/// The pointee and storage class of a global variable's type.
fn var_type(m: &Module, var: Op) -> Option<(Type, StorageClass)> {
    let ty = m.attr(var, "type").and_then(|a| m.attrs.as_type(a))?;
    m.types.pointer_parts(ty)
}

/// Whether `op` carries the decoration `d` as an attribute (any spelling:
/// `non_writable`, `NonWritable`).
pub(crate) fn has_decoration_attr(m: &Module, op: Op, d: Decoration) -> bool {
    let want = normalize(d.name());
    m.op(op)
        .attrs
        .iter()
        .any(|(n, a)| normalize(n) == want && !matches!(m.attrs.kind(*a), AttrKind::Bool(false)))
}

fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn int_attr(m: &Module, op: Op, name: &str) -> Option<u32> {
    m.attr(op, name)
        .and_then(|a| m.attrs.as_int(a))
        .and_then(|v| u32::try_from(v).ok())
}

fn resource_binding(
    m: &Module,
    var: Op,
    desc: &str,
    pointee: Type,
    class: StorageClass,
) -> Result<ResourceBinding, ReflectError> {
    let set =
        int_attr(m, var, "descriptor_set").ok_or_else(|| ReflectError::MissingDecoration {
            resource: desc.to_owned(),
            decoration: "descriptor_set (DescriptorSet)",
        })?;
    let binding = int_attr(m, var, "binding").ok_or_else(|| ReflectError::MissingDecoration {
        resource: desc.to_owned(),
        decoration: "binding (Binding)",
    })?;
    let resource = || format!("{desc} (binding {set}:{binding})");
    let unsupported = |what: &str| ReflectError::Unsupported {
        resource: resource(),
        what: what.to_owned(),
    };
    let non_writable = has_decoration_attr(m, var, Decoration::NonWritable);
    let non_readable = has_decoration_attr(m, var, Decoration::NonReadable);
    let mut texel_format = None;
    // An array of blocks is an array of descriptors: the binding describes
    // one element, `count` is the array's length (as the binary reflection).
    let mut pointee = pointee;
    let mut count = 1;
    if matches!(class, StorageClass::StorageBuffer | StorageClass::Uniform) {
        if let TypeKind::Array { len, element, .. } = m.types.kind(pointee) {
            if *len == 0 {
                return Err(unsupported("an empty array of descriptors"));
            }
            count = *len;
            pointee = *element;
        }
    }
    let (descriptor_type, access, min_size, element_stride) = match class {
        StorageClass::StorageBuffer | StorageClass::Uniform => {
            let TypeKind::Struct(st) = m.types.kind(pointee) else {
                return Err(ReflectError::Malformed {
                    resource: resource(),
                    reason: format!("a {} variable must point to a struct", class.name()),
                });
            };
            let all = |d: Decoration| {
                !st.members.is_empty()
                    && st
                        .members
                        .iter()
                        .all(|mb| mb.decorations.iter().any(|x| x.decoration == d))
            };
            let extent =
                block_extent(&m.types, pointee).map_err(|reason| ReflectError::Malformed {
                    resource: resource(),
                    reason: format!("the block is not explicitly laid out: {reason}"),
                })?;
            if class == StorageClass::Uniform {
                (
                    DescriptorType::UniformBuffer,
                    Access::ReadOnly,
                    extent.size,
                    extent.runtime_stride,
                )
            } else {
                (
                    DescriptorType::StorageBuffer,
                    access_from(
                        non_writable || all(Decoration::NonWritable),
                        non_readable || all(Decoration::NonReadable),
                    ),
                    extent.size,
                    extent.runtime_stride,
                )
            }
        }
        _ => match m.types.kind(pointee) {
            TypeKind::Array { .. } | TypeKind::RuntimeArray { .. } => {
                return Err(unsupported("an array of descriptors"))
            }
            TypeKind::Image(img) if img.dim == Dim::Buffer => {
                let sampled = match img.sampler_use {
                    ImageSamplerUse::SamplerUnknown => 0,
                    ImageSamplerUse::NeedSampler => 1,
                    ImageSamplerUse::NoSampler => 2,
                };
                let (descriptor_type, format) = common::texel_buffer(sampled, img.format as u32)
                    .map_err(|what| unsupported(&what.to_string()))?;
                texel_format = Some(format);
                let access = if descriptor_type == DescriptorType::UniformTexelBuffer {
                    Access::ReadOnly
                } else {
                    access_from(non_writable, non_readable)
                };
                (descriptor_type, access, 0, None)
            }
            TypeKind::Image(img) => match img.sampler_use {
                ImageSamplerUse::NoSampler => (
                    DescriptorType::StorageImage,
                    access_from(non_writable, non_readable),
                    0,
                    None,
                ),
                ImageSamplerUse::NeedSampler => {
                    (DescriptorType::SampledImage, Access::ReadOnly, 0, None)
                }
                ImageSamplerUse::SamplerUnknown => {
                    return Err(unsupported("an image with Sampled = 0 (unknown use)"))
                }
            },
            TypeKind::Sampler => (DescriptorType::Sampler, Access::ReadOnly, 0, None),
            TypeKind::SampledImage(_) => (
                DescriptorType::CombinedImageSampler,
                Access::ReadOnly,
                0,
                None,
            ),
            _ => return Err(unsupported("this UniformConstant variable type")),
        },
    };
    Ok(ResourceBinding {
        set,
        binding,
        descriptor_type,
        access,
        min_size,
        element_stride,
        count,
        texel_format,
    })
}

fn push_constant_range(
    m: &Module,
    desc: &str,
    pointee: Type,
) -> Result<PushConstantRange, ReflectError> {
    let resource = || format!("push-constant {desc}");
    let extent = block_extent(&m.types, pointee).map_err(|reason| ReflectError::Malformed {
        resource: resource(),
        reason: format!("the block is not explicitly laid out: {reason}"),
    })?;
    common::push_constant_range(&resource, extent.size, extent.runtime_stride.is_some())
}

/// The spec type and default bits of a `spv.SpecConstant`.
pub(crate) fn spec_value(m: &Module, op: Op) -> Option<(SpecType, u64)> {
    let value = m.attr(op, "default_value")?;
    Some(match m.attrs.kind(value) {
        AttrKind::Bool(b) => (SpecType::Bool, u64::from(*b)),
        AttrKind::Int { value, ty } => match m.types.kind(*ty) {
            TypeKind::Int { width: 1, .. } => (SpecType::Bool, u64::from(*value != 0)),
            TypeKind::Int { width, signedness } => {
                let ty = SpecType::Int {
                    width: *width,
                    signed: *signedness == Signedness::Signed,
                };
                let mask = if *width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                (ty, (*value as u64) & mask)
            }
            _ => return None,
        },
        AttrKind::Float { bits, ty } => {
            let width = m.types.bit_width(*ty)?;
            let ty = SpecType::Float { width };
            (ty, ty.float_bits(f64::from_bits(*bits)))
        }
        _ => return None,
    })
}

/// Every `spv.SpecConstant` with a `spec_id`, sorted by id.
fn spec_constants(m: &Module) -> Vec<SpecConstant> {
    let mut out: Vec<SpecConstant> = m
        .module_ops()
        .iter()
        .filter(|&&op| m.op(op).kind == OpKind::SpecConstant)
        .filter_map(|&op| {
            let id = int_attr(m, op, "spec_id")?;
            let (ty, default) = spec_value(m, op)?;
            Some(SpecConstant {
                id,
                name: m.symbol_name(op).map(str::to_owned),
                ty,
                default,
            })
        })
        .collect();
    out.sort_by_key(|c| c.id);
    out.dedup_by_key(|c| c.id);
    out
}

type WorkgroupSize = ([u32; 3], [Option<u32>; 3]);

/// The workgroup size of `entry` and the spec ids driving it.
fn workgroup_size(m: &Module, entry: &str) -> Result<WorkgroupSize, ReflectError> {
    let resource = || format!("workgroup size of entry point \"{entry}\"");
    // A spec-constant composite decorated WorkgroupSize overrides LocalSize.
    for &op in m.module_ops() {
        if m.op(op).kind != OpKind::SpecConstantComposite {
            continue;
        }
        let is_wg = m
            .attr(op, "built_in")
            .and_then(|a| m.attrs.as_str(a))
            .is_some_and(|s| s == "WorkgroupSize");
        if !is_wg {
            continue;
        }
        let items = m
            .attr(op, "constituents")
            .and_then(|a| m.attrs.as_array(a))
            .unwrap_or_default();
        if items.len() != 3 {
            return Err(ReflectError::Malformed {
                resource: resource(),
                reason: "the WorkgroupSize composite does not have three constituents".to_owned(),
            });
        }
        let mut size = [0u32; 3];
        let mut ids = [None; 3];
        for (d, &item) in items.iter().enumerate() {
            let constituent = m
                .attrs
                .as_symbol(item)
                .and_then(|s| m.lookup_symbol(s))
                .filter(|&c| m.op(c).kind == OpKind::SpecConstant)
                .ok_or_else(|| ReflectError::Malformed {
                    resource: resource(),
                    reason: format!("constituent {d} is not a spv.SpecConstant"),
                })?;
            let (_, bits) = spec_value(m, constituent).ok_or_else(|| ReflectError::Malformed {
                resource: resource(),
                reason: format!("constituent {d} has no integer default value"),
            })?;
            size[d] = u32::try_from(bits).map_err(|_| ReflectError::Malformed {
                resource: resource(),
                reason: format!("constituent {d} = {bits} does not fit in 32 bits"),
            })?;
            ids[d] = int_attr(m, constituent, "spec_id");
        }
        return Ok((size, ids));
    }
    let mut from_id = None;
    for &op in m.module_ops() {
        if m.op(op).kind != OpKind::ExecutionMode
            || m.attr(op, "fn").and_then(|a| m.attrs.as_symbol(a)) != Some(entry)
        {
            continue;
        }
        let mode = m
            .attr(op, "execution_mode")
            .and_then(|a| m.attrs.as_enum(a, OperandKind::ExecutionMode));
        let values: Vec<u32> = m
            .attr(op, "values")
            .and_then(|a| match m.attrs.kind(a) {
                AttrKind::Array(items) => items
                    .iter()
                    .map(|&i| m.attrs.as_int(i).and_then(|v| u32::try_from(v).ok()))
                    .collect(),
                AttrKind::DenseArray { values, .. } => {
                    values.iter().map(|&v| u32::try_from(v).ok()).collect()
                }
                _ => None,
            })
            .unwrap_or_default();
        let as_size = |values: &[u32]| -> Result<[u32; 3], ReflectError> {
            <[u32; 3]>::try_from(values).map_err(|_| ReflectError::Malformed {
                resource: resource(),
                reason: "LocalSize needs three values".to_owned(),
            })
        };
        if mode == Some(ExecutionMode::LocalSize as u32) {
            return Ok((as_size(&values)?, [None; 3]));
        }
        if mode == Some(ExecutionMode::LocalSizeId as u32) {
            from_id = Some(as_size(&values)?);
        }
    }
    match from_id {
        Some(size) => Ok((size, [None; 3])),
        None => Err(ReflectError::MissingWorkgroupSize {
            name: entry.to_owned(),
        }),
    }
}
