//! Printer for both target-env syntaxes (see the parent module's docs).

use super::limits::{
    CoopMatrixPropertiesKhr, CoopMatrixPropertiesNv, ResourceLimits,
    DEFAULT_MAX_COMPUTE_SHARED_MEMORY_SIZE, DEFAULT_MAX_COMPUTE_WORKGROUP_INVOCATIONS,
    DEFAULT_MAX_COMPUTE_WORKGROUP_SIZE, DEFAULT_SUBGROUP_SIZE,
};
use super::{ClientApi, DeviceType, TargetEnv, TargetEnvSyntax, Vendor};
use crate::ir::{Attr, AttrKind, AttrStore, DenseValues, FloatKind, Module, TypeStore};
use crate::text::{print_vce, Prefix};

/// The text between the angle brackets of `#<prefix>.target_env<...>`.
pub(super) fn body(env: &TargetEnv, prefix: Prefix, syntax: TargetEnvSyntax) -> String {
    let mut out = print_vce(&env.vce, prefix);
    let dev = &env.device;
    if dev.client_api != ClientApi::Unknown {
        out.push_str(&format!(", api={}", dev.client_api));
    }
    if dev.vendor != Vendor::Unknown {
        out.push_str(&format!(", {}", dev.vendor));
        if dev.device_type != DeviceType::Unknown {
            out.push_str(&format!(":{}", dev.device_type));
            if let Some(id) = dev.device_id {
                out.push_str(&format!(":{id}"));
            }
        }
    }
    out.push_str(", ");
    match syntax {
        TargetEnvSyntax::Mlir => out.push_str(&mlir_limits(&env.limits, prefix)),
        TargetEnvSyntax::Dictionary => out.push_str(&dictionary(&env.limits, prefix, true)),
    }
    out
}

/// `#<prefix>.resource_limits<...>` with the parameters that differ from
/// MLIR's defaults, in MLIR's order.
fn mlir_limits(l: &ResourceLimits, prefix: Prefix) -> String {
    let p = prefix.as_str();
    let mut params: Vec<String> = Vec::new();
    if l.max_compute_shared_memory_size != DEFAULT_MAX_COMPUTE_SHARED_MEMORY_SIZE {
        params.push(format!(
            "max_compute_shared_memory_size = {}",
            l.max_compute_shared_memory_size
        ));
    }
    if l.max_compute_workgroup_invocations != DEFAULT_MAX_COMPUTE_WORKGROUP_INVOCATIONS {
        params.push(format!(
            "max_compute_workgroup_invocations = {}",
            l.max_compute_workgroup_invocations
        ));
    }
    if l.max_compute_workgroup_size != DEFAULT_MAX_COMPUTE_WORKGROUP_SIZE {
        let [x, y, z] = l.max_compute_workgroup_size;
        params.push(format!(
            "max_compute_workgroup_size = [{x} : i32, {y} : i32, {z} : i32]"
        ));
    }
    if l.subgroup_size != DEFAULT_SUBGROUP_SIZE {
        params.push(format!("subgroup_size = {}", l.subgroup_size));
    }
    if let Some(v) = l.min_subgroup_size {
        params.push(format!("min_subgroup_size = {v}"));
    }
    if let Some(v) = l.max_subgroup_size {
        params.push(format!("max_subgroup_size = {v}"));
    }
    if !l.cooperative_matrix_properties_khr.is_empty() {
        params.push(format!(
            "cooperative_matrix_properties_khr = {}",
            khr_list(&l.cooperative_matrix_properties_khr, prefix)
        ));
    }
    if !l.cooperative_matrix_properties_nv.is_empty() {
        params.push(format!(
            "cooperative_matrix_properties_nv = {}",
            nv_list(&l.cooperative_matrix_properties_nv, prefix)
        ));
    }
    format!("#{p}.resource_limits<{}>", params.join(", "))
}

fn khr_list(props: &[CoopMatrixPropertiesKhr], prefix: Prefix) -> String {
    let items: Vec<String> = props
        .iter()
        .map(|q| {
            format!(
                "#{}.coop_matrix_props_khr<m_size = {}, n_size = {}, k_size = {}, a_type = {}, \
                 b_type = {}, c_type = {}, result_type = {}, acc_sat = {}, scope = <{}>>",
                prefix.as_str(),
                q.m_size,
                q.n_size,
                q.k_size,
                q.a_type,
                q.b_type,
                q.c_type,
                q.result_type,
                q.acc_sat,
                q.scope
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

fn nv_list(props: &[CoopMatrixPropertiesNv], prefix: Prefix) -> String {
    let items: Vec<String> = props
        .iter()
        .map(|q| {
            format!(
                "#{}.coop_matrix_props_nv<m_size = {}, n_size = {}, k_size = {}, a_type = {}, \
                 b_type = {}, c_type = {}, result_type = {}, scope = <{}>>",
                prefix.as_str(),
                q.m_size,
                q.n_size,
                q.k_size,
                q.a_type,
                q.b_type,
                q.c_type,
                q.result_type,
                q.scope
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// MLIR's text for an `f32` attribute value (`1.500000e+00 : f32`).
fn f32_text(v: f32) -> String {
    let mut types = TypeStore::default();
    let mut attrs = AttrStore::default();
    let f32_ty = types.f32();
    let a = attrs.float(f64::from(v), f32_ty);
    crate::text::print_attr(&attrs, &types, a, Prefix::Spirv)
}

/// The integer type a `u32` limit is printed with: `i32`, or `i64` when the
/// value does not fit a signed 32-bit integer (MLIR would print it negative).
fn int_type(v: u32) -> &'static str {
    if i32::try_from(v).is_ok() {
        "i32"
    } else {
        "i64"
    }
}

/// `v : i32` (or `v : i64`, see [`int_type`]).
fn typed(v: u32) -> String {
    format!("{v} : {}", int_type(v))
}

/// Dictionary entries `(name, value text)` of the limits: with `all_mlir`
/// the MLIR limits too (the two workgroup limits always, the rest when not
/// default), kiln's extras when not default.
fn dictionary_entries(
    l: &ResourceLimits,
    prefix: Prefix,
    all_mlir: bool,
) -> Vec<(&'static str, String)> {
    let d = ResourceLimits::default();
    let mut e: Vec<(&'static str, String)> = Vec::new();
    let dense3 = |v: [u32; 3]| format!("dense<[{}, {}, {}]> : vector<3xi32>", v[0], v[1], v[2]);
    if all_mlir {
        e.push((
            "max_compute_workgroup_invocations",
            typed(l.max_compute_workgroup_invocations),
        ));
        e.push((
            "max_compute_workgroup_size",
            dense3(l.max_compute_workgroup_size),
        ));
        if l.max_compute_shared_memory_size != d.max_compute_shared_memory_size {
            e.push((
                "max_compute_shared_memory_size",
                typed(l.max_compute_shared_memory_size),
            ));
        }
        if l.subgroup_size != d.subgroup_size {
            e.push(("subgroup_size", typed(l.subgroup_size)));
        }
        if let Some(v) = l.min_subgroup_size {
            e.push(("min_subgroup_size", typed(v)));
        }
        if let Some(v) = l.max_subgroup_size {
            e.push(("max_subgroup_size", typed(v)));
        }
        if !l.cooperative_matrix_properties_khr.is_empty() {
            e.push((
                "cooperative_matrix_properties_khr",
                khr_list(&l.cooperative_matrix_properties_khr, prefix),
            ));
        }
        if !l.cooperative_matrix_properties_nv.is_empty() {
            e.push((
                "cooperative_matrix_properties_nv",
                nv_list(&l.cooperative_matrix_properties_nv, prefix),
            ));
        }
    }
    if l.max_compute_workgroup_count != d.max_compute_workgroup_count {
        e.push((
            "max_compute_workgroup_count",
            dense3(l.max_compute_workgroup_count),
        ));
    }
    let u32s: [(&'static str, u32, u32); 6] = [
        (
            "max_push_constants_size",
            l.max_push_constants_size,
            d.max_push_constants_size,
        ),
        (
            "max_storage_buffer_range",
            l.max_storage_buffer_range,
            d.max_storage_buffer_range,
        ),
        (
            "max_uniform_buffer_range",
            l.max_uniform_buffer_range,
            d.max_uniform_buffer_range,
        ),
        (
            "max_per_stage_descriptor_storage_buffers",
            l.max_per_stage_descriptor_storage_buffers,
            d.max_per_stage_descriptor_storage_buffers,
        ),
        (
            "max_per_stage_descriptor_uniform_buffers",
            l.max_per_stage_descriptor_uniform_buffers,
            d.max_per_stage_descriptor_uniform_buffers,
        ),
        (
            "max_bound_descriptor_sets",
            l.max_bound_descriptor_sets,
            d.max_bound_descriptor_sets,
        ),
    ];
    for (name, v, default) in u32s {
        if v != default {
            e.push((name, typed(v)));
        }
    }
    if l.min_storage_buffer_offset_alignment != d.min_storage_buffer_offset_alignment {
        e.push((
            "min_storage_buffer_offset_alignment",
            format!("{} : i64", l.min_storage_buffer_offset_alignment),
        ));
    }
    if l.timestamp_period.to_bits() != d.timestamp_period.to_bits() {
        e.push(("timestamp_period", f32_text(l.timestamp_period)));
    }
    if l.signed_zero_inf_nan_preserve_widths != d.signed_zero_inf_nan_preserve_widths {
        e.push((
            "signed_zero_inf_nan_preserve_widths",
            i32_array_text(&l.signed_zero_inf_nan_preserve_widths),
        ));
    }
    if l.denorm_preserve_widths != d.denorm_preserve_widths {
        e.push((
            "denorm_preserve_widths",
            i32_array_text(&l.denorm_preserve_widths),
        ));
    }
    e.sort_by(|a, b| a.0.cmp(b.0));
    e
}

/// MLIR's dense array `array<i32: 16, 32>` (`array<i32>` when empty).
fn i32_array_text(values: &[u32]) -> String {
    if values.is_empty() {
        return "array<i32>".to_string();
    }
    let items: Vec<String> = values.iter().map(u32::to_string).collect();
    format!("array<i32: {}>", items.join(", "))
}

/// `{name = value, ...}` sorted by name.
fn dictionary(l: &ResourceLimits, prefix: Prefix, all_mlir: bool) -> String {
    let entries: Vec<String> = dictionary_entries(l, prefix, all_mlir)
        .into_iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    format!("{{{}}}", entries.join(", "))
}

/// The `kiln.resource_limits` dictionary text, `None` when every extra is
/// default.
pub(super) fn kiln_extras_dictionary(l: &ResourceLimits) -> Option<String> {
    (!l.extras_are_default()).then(|| dictionary(l, Prefix::Spirv, false))
}

/// The `kiln.resource_limits` attribute interned in `m`, `None` when every
/// extra is default.
pub(super) fn kiln_extras_attr(l: &ResourceLimits, m: &mut Module) -> Option<Attr> {
    if l.extras_are_default() {
        return None;
    }
    let d = ResourceLimits::default();
    let i32_ty = m.types.int(32);
    let i64_ty = m.types.int(64);
    let f32_ty = m.types.float(FloatKind::F32);
    let vec3 = m.types.vector(3, i32_ty);
    let mut entries: Vec<(String, Attr)> = Vec::new();
    let mut push_u32 = |m: &mut Module, name: &str, v: u32, default: u32| {
        if v != default {
            let ty = if int_type(v) == "i32" { i32_ty } else { i64_ty };
            let a = m.attrs.int(i128::from(v), ty);
            entries.push((name.to_string(), a));
        }
    };
    push_u32(
        m,
        "max_push_constants_size",
        l.max_push_constants_size,
        d.max_push_constants_size,
    );
    push_u32(
        m,
        "max_storage_buffer_range",
        l.max_storage_buffer_range,
        d.max_storage_buffer_range,
    );
    push_u32(
        m,
        "max_uniform_buffer_range",
        l.max_uniform_buffer_range,
        d.max_uniform_buffer_range,
    );
    push_u32(
        m,
        "max_per_stage_descriptor_storage_buffers",
        l.max_per_stage_descriptor_storage_buffers,
        d.max_per_stage_descriptor_storage_buffers,
    );
    push_u32(
        m,
        "max_per_stage_descriptor_uniform_buffers",
        l.max_per_stage_descriptor_uniform_buffers,
        d.max_per_stage_descriptor_uniform_buffers,
    );
    push_u32(
        m,
        "max_bound_descriptor_sets",
        l.max_bound_descriptor_sets,
        d.max_bound_descriptor_sets,
    );
    if l.max_compute_workgroup_count != d.max_compute_workgroup_count {
        let values = l
            .max_compute_workgroup_count
            .iter()
            .map(|&v| i128::from(v))
            .collect();
        let a = m.attrs.intern(AttrKind::Dense {
            ty: vec3,
            values: DenseValues::Ints(values),
            splat: false,
        });
        entries.push(("max_compute_workgroup_count".to_string(), a));
    }
    if l.min_storage_buffer_offset_alignment != d.min_storage_buffer_offset_alignment {
        let a = m
            .attrs
            .int(i128::from(l.min_storage_buffer_offset_alignment), i64_ty);
        entries.push(("min_storage_buffer_offset_alignment".to_string(), a));
    }
    if l.timestamp_period.to_bits() != d.timestamp_period.to_bits() {
        let a = m.attrs.float(f64::from(l.timestamp_period), f32_ty);
        entries.push(("timestamp_period".to_string(), a));
    }
    // Float widths as a `array<i32: ...>`.
    let widths = [
        (
            "signed_zero_inf_nan_preserve_widths",
            &l.signed_zero_inf_nan_preserve_widths,
            &d.signed_zero_inf_nan_preserve_widths,
        ),
        (
            "denorm_preserve_widths",
            &l.denorm_preserve_widths,
            &d.denorm_preserve_widths,
        ),
    ];
    for (name, have, default) in widths {
        if have != default {
            let a = m.attrs.intern(AttrKind::DenseArray {
                element: i32_ty,
                values: have.iter().map(|&w| i128::from(w)).collect(),
            });
            entries.push((name.to_string(), a));
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Some(m.attrs.intern(AttrKind::Dict(entries)))
}
