//! `kiln devices`: list the Vulkan devices and their target envs.
//!
//! Each device is printed with its index (what `--device N` and
//! `KILN_DEVICE=N` refer to), name, type, driver, Vulkan version, ids and
//! the target env kiln compiles for on it (`kiln_vulkan::DeviceQuery::target_env`),
//! in kiln's lossless text form (`#spirv.target_env<vce, api=Vulkan,
//! {limits}>`, which every `--target-env` accepts), or with `--mlir` in MLIR
//! 19's syntax (without kiln's extra limits).
//!
//! `--target-env-only` prints just the env of one device (`--device SEL`,
//! default: the device a context would pick), so that
//! `kiln devices --target-env-only > dev.env` and then
//! `kiln opt --update-vce --target-env @dev.env` compiles offline exactly as
//! next to the device. With `--driver-facts` a second line carries the
//! facts of its driver that no query reports (`#kiln.driver_facts<...>`,
//! `DriverFacts::to_text`), so that `kiln compile --target-env @dev.env`
//! chooses the same kernels as `kiln compile --device` there (with no
//! tuned strategies). `--json` prints an array of objects instead (keys:
//! `index`, `name`, `device_type`, `driver_name`, `driver_info`,
//! `api_version`, `vendor_id`, `device_id`, `target_env`, `spirv_version`,
//! `capabilities`, `extensions`, `limits`).

use std::fmt::Write as _;

use anyhow::{Context as _, Result};
use clap::Args;
use kiln_core::target::{
    CoopMatrixPropertiesKhr, CoopMatrixPropertiesNv, ResourceLimits, TargetEnv, TargetEnvSyntax,
};
use kiln_core::text::{mlir_capability_name, Prefix};
use kiln_vulkan::{DeviceQuery, DeviceSelector};
use serde_json::{json, Value};

use crate::Outcome;

/// Arguments of `kiln devices`.
#[derive(Args, Debug)]
pub struct DevicesArgs {
    /// Print a JSON array, one object per device.
    #[arg(long, conflicts_with = "target_env_only")]
    pub json: bool,
    /// Print only the target env of one device (see `--device`).
    #[arg(long = "target-env-only")]
    pub target_env_only: bool,
    /// With `--target-env-only`: a second line with the facts of the
    /// device's driver (what `kiln compile --device` assumes).
    #[arg(long = "driver-facts", requires = "target_env_only")]
    pub driver_facts: bool,
    /// The device: an index, a part of its name, or `default` (the device
    /// a context picks; `KILN_DEVICE` applies). Without it, `kiln devices`
    /// lists every device.
    #[arg(long)]
    pub device: Option<String>,
    /// Print target envs in MLIR 19's syntax (`#spirv.resource_limits<...>`),
    /// which drops kiln's extra limits; the default form is lossless.
    #[arg(long)]
    pub mlir: bool,
}

/// Runs `kiln devices`.
pub fn run(args: &DevicesArgs) -> Result<Outcome> {
    let devices: Vec<DeviceQuery> = match (&args.device, args.target_env_only) {
        (Some(sel), _) => vec![kiln_vulkan::query_device(&DeviceSelector::parse(sel))
            .context("cannot query the Vulkan device")?],
        (None, true) => vec![kiln_vulkan::query_device(&DeviceSelector::Default)
            .context("cannot query the Vulkan device")?],
        (None, false) => kiln_vulkan::query_devices().context("cannot query the Vulkan devices")?,
    };
    let text = if args.target_env_only {
        let mut out = String::new();
        for d in &devices {
            out.push_str(&env_text(&d.target_env(), args.mlir));
            out.push('\n');
            if args.driver_facts {
                out.push_str(&driver_facts(d).to_text());
                out.push('\n');
            }
        }
        out
    } else if args.json {
        let list: Vec<Value> = devices.iter().map(|d| device_json(d, args.mlir)).collect();
        let mut out = serde_json::to_string_pretty(&list)?;
        out.push('\n');
        out
    } else {
        let mut out = String::new();
        for d in &devices {
            out.push_str(&device_text(d, args.mlir));
        }
        out
    };
    crate::input::write_output(std::path::Path::new("-"), text.as_bytes())?;
    Ok(Outcome::Success)
}

/// The facts of `d`'s driver, as `kiln compile --device` assumes them
/// (`kiln_runtime::target::target_of`, the one place they are assembled).
fn driver_facts(d: &DeviceQuery) -> kiln_core::codegen::DriverFacts {
    let s = &d.summary;
    kiln_runtime::target::target_of(
        d.target_env(),
        &s.name,
        s.driver_name.as_deref(),
        d.limits.max_texel_buffer_elements.into(),
        kiln_core::codegen::strategy::Tuning::default(),
    )
    .facts
}

/// The env in kiln's lossless syntax (`spirv.` prefix, limits as a
/// dictionary), or MLIR 19's.
pub fn env_text(env: &TargetEnv, mlir: bool) -> String {
    let syntax = if mlir {
        TargetEnvSyntax::Mlir
    } else {
        TargetEnvSyntax::Dictionary
    };
    env.print_with(Prefix::Spirv, syntax)
}

/// One device, several lines.
fn device_text(d: &DeviceQuery, mlir: bool) -> String {
    let s = &d.summary;
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", s.index, s.name);
    let _ = writeln!(out, "    type: {}", s.device_type);
    let driver = match (&s.driver_name, &s.driver_info) {
        (Some(n), Some(i)) if !i.is_empty() => format!("{n} ({i})"),
        (Some(n), _) => n.clone(),
        _ => "(not reported)".to_string(),
    };
    let _ = writeln!(out, "    driver: {driver}");
    let _ = writeln!(out, "    Vulkan: {}", s.api_version);
    let vendor = d
        .vendor_name()
        .map(|n| format!(" ({n})"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "    vendor id: {:#06x}{vendor}, device id: {:#06x}",
        s.vendor_id, s.device_id
    );
    let _ = writeln!(out, "    target env: {}", env_text(&d.target_env(), mlir));
    out
}

/// One device as a JSON object.
fn device_json(d: &DeviceQuery, mlir: bool) -> Value {
    let s = &d.summary;
    let env = d.target_env();
    json!({
        "index": s.index,
        "name": s.name,
        "device_type": s.device_type.to_string(),
        "driver_name": s.driver_name,
        "driver_info": s.driver_info,
        "api_version": s.api_version.to_string(),
        "vendor_id": s.vendor_id,
        "device_id": s.device_id,
        "target_env": env_text(&env, mlir),
        "spirv_version": env.vce.version.to_string(),
        "capabilities": env
            .vce
            .capabilities
            .iter()
            .map(|&c| mlir_capability_name(c))
            .collect::<Vec<_>>(),
        "extensions": env.vce.extensions.iter().map(|e| e.name()).collect::<Vec<_>>(),
        "limits": limits_json(&env.limits),
    })
}

/// Every limit, keyed by its target-env name.
fn limits_json(l: &ResourceLimits) -> Value {
    json!({
        "max_compute_shared_memory_size": l.max_compute_shared_memory_size,
        "max_compute_workgroup_invocations": l.max_compute_workgroup_invocations,
        "max_compute_workgroup_size": l.max_compute_workgroup_size,
        "subgroup_size": l.subgroup_size,
        "min_subgroup_size": l.min_subgroup_size,
        "max_subgroup_size": l.max_subgroup_size,
        "cooperative_matrix_properties_khr": l
            .cooperative_matrix_properties_khr
            .iter()
            .map(coop_khr_json)
            .collect::<Vec<_>>(),
        "cooperative_matrix_properties_nv": l
            .cooperative_matrix_properties_nv
            .iter()
            .map(coop_nv_json)
            .collect::<Vec<_>>(),
        "max_compute_workgroup_count": l.max_compute_workgroup_count,
        "max_push_constants_size": l.max_push_constants_size,
        "max_storage_buffer_range": l.max_storage_buffer_range,
        "max_uniform_buffer_range": l.max_uniform_buffer_range,
        "max_per_stage_descriptor_storage_buffers": l.max_per_stage_descriptor_storage_buffers,
        "max_per_stage_descriptor_uniform_buffers": l.max_per_stage_descriptor_uniform_buffers,
        "max_bound_descriptor_sets": l.max_bound_descriptor_sets,
        "min_storage_buffer_offset_alignment": l.min_storage_buffer_offset_alignment,
        "timestamp_period": l.timestamp_period,
        "signed_zero_inf_nan_preserve_widths": l.signed_zero_inf_nan_preserve_widths,
        "denorm_preserve_widths": l.denorm_preserve_widths,
    })
}

fn coop_khr_json(p: &CoopMatrixPropertiesKhr) -> Value {
    json!({
        "m_size": p.m_size,
        "n_size": p.n_size,
        "k_size": p.k_size,
        "a_type": p.a_type.to_string(),
        "b_type": p.b_type.to_string(),
        "c_type": p.c_type.to_string(),
        "result_type": p.result_type.to_string(),
        "acc_sat": p.acc_sat,
        "scope": p.scope.to_string(),
    })
}

fn coop_nv_json(p: &CoopMatrixPropertiesNv) -> Value {
    json!({
        "m_size": p.m_size,
        "n_size": p.n_size,
        "k_size": p.k_size,
        "a_type": p.a_type.to_string(),
        "b_type": p.b_type.to_string(),
        "c_type": p.c_type.to_string(),
        "result_type": p.result_type.to_string(),
        "scope": p.scope.to_string(),
    })
}
