//! The program caches behind [`Program::compile`](super::Program::compile):
//! a compiled tensor program is looked up in the device's memory, then in
//! the disk cache (`programs/<hash>.kprog`, see [`crate::cache`]), and only
//! then compiled by the tensor compiler — and stored in both.
//!
//! The key: the program's printed text (its FNV-1a hash and length), kiln's
//! build (crate version and kiln-core's source hash), the archive format
//! version, the codegen target (its env in the lossless text form, the
//! driver facts, the hash of its `kiln tune` choices) and the device's
//! identity (vendor, device, driver version). A file is used only under the same key (compared whole), with
//! a matching checksum, decoding to a consistent program for the same
//! target; anything else is ignored with a warning and counted in
//! [`CacheStats::rejected_files`](crate::CacheStats::rejected_files).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use kiln_core::codegen::{archive, CodegenTarget, CompiledProgram};
use kiln_core::tensor::TensorModule;

use crate::cache;
use crate::device::Device;
use crate::error::{Error, Result};

/// The cache key of tensor program `module` compiled for `target` on
/// `device`: the program's printed text (hashed), kiln's build, the archive
/// format, the target (env in its lossless text, driver facts, tuning) and
/// the device's identity.
fn program_key(device: &Device, module: &TensorModule, target: &CodegenTarget) -> String {
    let text = kiln_core::tensor::print::print(module);
    let id = device.context().pipeline_cache_identity();
    format!(
        "kiln-program-v1|kiln {} {}|archive v{}|{:016x}|{}|{}|{:?}|tuning {}|vendor {:#x} device {:#x} driver {:#x}",
        env!("CARGO_PKG_VERSION"),
        kiln_core::SOURCE_HASH,
        archive::VERSION,
        cache::fnv1a(text.as_bytes()),
        text.len(),
        target.env.print(kiln_core::text::Prefix::Spv),
        target.facts,
        target
            .tuning
            .as_ref()
            .map_or("none".to_owned(), |t| format!(
                "{:016x}",
                cache::fnv1a(t.to_text().as_bytes())
            )),
        id.vendor_id,
        id.device_id,
        id.driver_version,
    )
}

/// `module` compiled for `target`: from the device's memory, else the disk
/// cache, else the tensor compiler (then stored in both).
pub(super) fn compiled_program(
    device: &Device,
    module: &TensorModule,
    target: &CodegenTarget,
) -> Result<Arc<CompiledProgram>> {
    Ok(compiled_program_from(device, module, target, true)?.0)
}

/// [`compiled_program`], and whether the tensor compiler ran (not a hit
/// of the memory or disk cache); without `memory`, the device's memory
/// layer is neither read nor written (the `ops` cache keeps its own, which
/// `ops::clear_cache` empties).
pub(crate) fn compiled_program_from(
    device: &Device,
    module: &TensorModule,
    target: &CodegenTarget,
    memory: bool,
) -> Result<(Arc<CompiledProgram>, bool)> {
    let inner = &device.inner;
    inner.alive()?;
    let count = |c: &AtomicU64| {
        c.fetch_add(1, Ordering::Relaxed);
    };
    let counters = &inner.cache_counters;
    let key = program_key(device, module, target);
    if memory {
        if let Some(p) = crate::inner::lock(&inner.programs).get(&key) {
            count(&counters.program_memory_hits);
            return Ok((Arc::clone(p), false));
        }
    }
    let path = inner
        .cache_dir
        .as_ref()
        .map(|d| cache::program_path(d, &key));
    let from_disk = path.as_ref().and_then(|path| {
        let file = match std::fs::read(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                inner.warn(format!("cannot read {}: {e}", path.display()));
                return None;
            }
        };
        let decoded = cache::decode_program(&file, &key)
            .map_err(str::to_owned)
            .and_then(|bytes| archive::decode(bytes).map_err(|e| e.to_string()))
            .and_then(|p| {
                if p.target == *target {
                    Ok(p)
                } else {
                    Err("compiled for another target".to_owned())
                }
            });
        match decoded {
            Ok(p) => Some(p),
            Err(why) => {
                count(&counters.rejected_files);
                inner.warn(format!(
                    "ignoring program cache file {}: {why}",
                    path.display()
                ));
                None
            }
        }
    });
    let ran_compiler = from_disk.is_none();
    let compiled = match from_disk {
        Some(p) => {
            count(&counters.program_disk_hits);
            p
        }
        None => {
            // The `_chunked` variants are lowered at their first launch
            // (`Program::late_kernel`): most calls never need them.
            let lowering = kiln_core::codegen::Lowering::DeferRunTimeVariants;
            let p = kiln_core::codegen::compile_with(module, target, lowering).map_err(|e| {
                Error::Compile {
                    kernel: "tensor program".to_owned(),
                    message: e.to_string(),
                }
            })?;
            count(&counters.programs_compiled);
            if let Some(path) = &path {
                let written = archive::encode(&p)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| {
                        cache::write_atomic(path, &cache::encode_program(&key, &bytes))
                            .map_err(|e| format!("cannot write {}: {e}", path.display()))
                    });
                match written {
                    Ok(()) => count(&counters.program_disk_writes),
                    Err(e) => inner.warn(format!("the compiled program is not cached: {e}")),
                }
            }
            p
        }
    };
    let compiled = Arc::new(compiled);
    if memory {
        crate::inner::lock(&inner.programs).insert(key, Arc::clone(&compiled));
    }
    Ok((compiled, ran_compiler))
}
