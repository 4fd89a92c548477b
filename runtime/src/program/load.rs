//! Loading a program's kernels: their pipelines made on several threads.
//!
//! A program has one pipeline per kernel (tens for a transformer block),
//! and the driver's pipeline creation is most of what loading costs. The
//! device's `VkPipelineCache` is internally synchronized (see
//! [`kiln_vulkan::PipelineCache`]), so the kernels are loaded by up to
//! `available_parallelism` scoped threads, each taking the next kernel in
//! order. Errors are deterministic: the error returned is that of the first
//! failing kernel in program order, as a sequential load would return —
//! after a failure no thread starts a later kernel, and every earlier one
//! was already started (kernels are taken in order), so it is reported.
//! A kernel whose code is that of an earlier one (only the names differ:
//! a graph's repeated blocks) is loaded afterwards and shares that one's
//! pipeline (see `spirv_code`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::device::Device;
use crate::error::Result;
use crate::inner::lock;
use crate::kernel::{Kernel, KernelSource};

/// Loads `kernels` (`(name, SPIR-V words)`, in program order; a name seen
/// twice is loaded once) on `device`, on up to `available_parallelism`
/// threads; returns them by name, or the first failure in program order.
pub(super) fn load_kernels(
    device: &Device,
    kernels: &[(&str, &[u32])],
) -> Result<HashMap<String, Kernel>> {
    let mut unique: Vec<(&str, &[u32])> = Vec::with_capacity(kernels.len());
    for &(name, words) in kernels {
        if !unique.iter().any(|(n, _)| *n == name) {
            unique.push((name, words));
        }
    }
    // Kernels of the same code as an earlier one (only their names
    // differ) are loaded after the others, from the device's kernel cache
    // (sharing the earlier one's pipeline; see `spirv_code`), rather than
    // on two threads at once, each making a pipeline.
    let mut codes: Vec<(u64, usize)> = Vec::new();
    let mut same: Vec<(&str, &[u32])> = Vec::new();
    unique.retain(|&(name, words)| match crate::spirv_code::code_key(words) {
        Some(code) if codes.contains(&code) => {
            same.push((name, words));
            false
        }
        Some(code) => {
            codes.push(code);
            true
        }
        None => true,
    });
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(unique.len());
    let load =
        |&(name, words): &(&str, &[u32])| device.load_kernel(KernelSource::spirv(words, name));
    let results: Vec<Result<Kernel>> = if threads <= 1 {
        // Stop at the first failure, as the threads do.
        let mut out = Vec::with_capacity(unique.len());
        for k in &unique {
            let r = load(k);
            let failed = r.is_err();
            out.push(r);
            if failed {
                break;
            }
        }
        out
    } else {
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let slots: Vec<Mutex<Option<Result<Kernel>>>> =
            unique.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    if failed.load(Ordering::Acquire) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::AcqRel);
                    let Some(k) = unique.get(i) else { return };
                    let r = load(k);
                    if r.is_err() {
                        failed.store(true, Ordering::Release);
                    }
                    *lock(&slots[i]) = Some(r);
                });
            }
        });
        slots
            .into_iter()
            .map_while(|s| s.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    };
    let mut out = HashMap::with_capacity(results.len() + same.len());
    for ((name, _), r) in unique.iter().zip(results) {
        out.insert((*name).to_owned(), r?);
    }
    for k in &same {
        out.insert(k.0.to_owned(), load(k)?);
    }
    Ok(out)
}
