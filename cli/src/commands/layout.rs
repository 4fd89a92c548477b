//! `kiln layout`: the size and alignment of a type under a data layout or a
//! Vulkan block layout.
//!
//! ```text
//! kiln layout '!spirv.struct<(i8, vector<3xf32>)>' --rules std430
//! size: 32
//! abi_align: 16
//! preferred_align: 16
//! offsets: 0, 16
//! ```
//!
//! TYPE is spv type text (`i32`, `vector<3xf32>`, `!spirv.array<4 x f32>`,
//! `!spirv.struct<...>`, `!spirv.ptr<f32, StorageBuffer>`) or a kernel type
//! (`memref<4x8xf32>`, `vector<4x3xf32>`). `--rules default` (the default)
//! asks the data layout of a scope with `--spec` (a `#dlti.dl_spec<...>`) or
//! none; `std140`, `std430` and `scalar` lay the type out as a member of a
//! Vulkan interface block, where there is one alignment (printed as both);
//! a struct or array that already carries offsets or a stride is checked
//! against those rules instead (an error names the first member that breaks
//! them).
//! `offsets` (struct member offsets) and `stride` (array element or matrix
//! column/row stride) are printed for aggregates; `--json` prints one object
//! with the keys `size`, `abi_align`, `preferred_align`, `offsets` and
//! `stride` (the last two `null` where they do not apply).

use anyhow::{anyhow, bail, Result};
use clap::{Args, ValueEnum};
use kiln_core::ir::{TypeKind, TypeStore};
use kiln_core::kernel;
use kiln_core::layout::block::{self, BlockRules};
use kiln_core::layout::{DataLayout, DataLayoutSpec};
use kiln_core::text;

use crate::Outcome;

/// Which layout to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Rules {
    /// The data layout (MLIR's size and alignment rules, `--spec` entries).
    Default,
    /// GLSL std140 block layout.
    Std140,
    /// GLSL std430 block layout.
    Std430,
    /// Scalar block layout (`VK_EXT_scalar_block_layout`).
    Scalar,
}

/// Arguments of `kiln layout`.
#[derive(Args, Debug)]
pub struct LayoutArgs {
    /// The type: spv type text (`!spirv.struct<(i8, f32)>`, `vector<3xf32>`)
    /// or a kernel type (`memref<4x8xf32>`).
    #[arg(value_name = "TYPE")]
    pub ty: String,
    /// Layout rules.
    #[arg(long, value_enum, default_value = "default")]
    pub rules: Rules,
    /// A `#dlti.dl_spec<...>` for `--rules default`.
    #[arg(long, value_name = "SPEC")]
    pub spec: Option<String>,
    /// Print one JSON object instead of `key: value` lines.
    #[arg(long)]
    pub json: bool,
}

/// What `kiln layout` reports.
#[derive(Debug, PartialEq, Eq)]
struct Report {
    size: u64,
    abi_align: u64,
    preferred_align: u64,
    offsets: Option<Vec<u64>>,
    stride: Option<u64>,
}

/// Runs `kiln layout`.
pub fn run(args: &LayoutArgs) -> Result<Outcome> {
    let report = compute(args)?;
    if args.json {
        let value = serde_json::json!({
            "size": report.size,
            "abi_align": report.abi_align,
            "preferred_align": report.preferred_align,
            "offsets": report.offsets,
            "stride": report.stride,
        });
        println!("{value}");
    } else {
        println!("size: {}", report.size);
        println!("abi_align: {}", report.abi_align);
        println!("preferred_align: {}", report.preferred_align);
        if let Some(offsets) = &report.offsets {
            let list: Vec<String> = offsets.iter().map(u64::to_string).collect();
            println!("offsets: {}", list.join(", "));
        }
        if let Some(stride) = report.stride {
            println!("stride: {stride}");
        }
    }
    Ok(Outcome::Success)
}

fn compute(args: &LayoutArgs) -> Result<Report> {
    let mut types = TypeStore::default();
    let spec = match &args.spec {
        Some(_) if args.rules != Rules::Default => {
            bail!("--spec applies to --rules default only (block layouts take no specification)")
        }
        Some(text) => Some(
            DataLayoutSpec::parse(&mut types, text.trim())
                .map_err(|e| anyhow!("invalid --spec: {e}"))?,
        ),
        None => None,
    };
    let dl = spec.as_ref().map(DataLayout::new).unwrap_or_default();
    let src = args.ty.trim();
    let ty = match text::parse_type(&mut types, src) {
        Ok(ty) => ty,
        Err(spv_err) => {
            // Not spv type text: a kernel type (memref, n-D vector)?
            return match kernel::parse_type(src) {
                Ok(kty) => {
                    if args.rules != Rules::Default {
                        bail!("'{src}' is a kernel type; block layouts apply to spv types only");
                    }
                    let l = dl.kernel_layout(&kty)?;
                    Ok(Report {
                        size: l.size(),
                        abi_align: l.abi_align,
                        preferred_align: l.preferred_align,
                        offsets: None,
                        stride: None,
                    })
                }
                Err(kernel_err) if src.starts_with("memref") => {
                    Err(anyhow!("invalid type '{src}': {kernel_err}"))
                }
                Err(_) => Err(anyhow!("invalid type '{src}': {spv_err}")),
            };
        }
    };
    let rules = match args.rules {
        Rules::Default => {
            let l = dl.layout(&types, ty)?;
            let (offsets, stride) = match types.kind(ty) {
                TypeKind::Struct(_) => (Some(dl.struct_offsets(&types, ty)?), None),
                TypeKind::Array { .. }
                | TypeKind::RuntimeArray { .. }
                | TypeKind::Matrix { .. } => (None, Some(dl.element_stride(&types, ty)?)),
                _ => (None, None),
            };
            return Ok(Report {
                size: l.size(),
                abi_align: l.abi_align,
                preferred_align: l.preferred_align,
                offsets,
                stride,
            });
        }
        Rules::Std140 => BlockRules::Std140,
        Rules::Std430 => BlockRules::Std430,
        Rules::Scalar => BlockRules::Scalar,
    };
    // A type that carries its own layout is checked against the rules.
    let explicit = match types.kind(ty) {
        TypeKind::Struct(s) => s.members.iter().any(|m| m.offset.is_some()),
        TypeKind::Array { stride, .. } | TypeKind::RuntimeArray { stride, .. } => stride.is_some(),
        _ => false,
    };
    let l = if explicit {
        block::check(&types, ty, rules)?
    } else {
        block::layout(&types, ty, rules)?
    };
    Ok(Report {
        size: l.size,
        abi_align: l.align,
        preferred_align: l.align,
        offsets: l.offsets(),
        stride: l.stride(),
    })
}
