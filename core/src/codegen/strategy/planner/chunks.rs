//! Buffers bound in chunks: a buffer of static size larger than the
//! target's `maxStorageBufferRange` is bound by every kernel that reads or
//! writes it as a storage buffer as an array of descriptors, one per chunk
//! of [`storage_chunk_bytes`](crate::target::ResourceLimits::storage_chunk_bytes)
//! (chunk `k` at byte `k * chunk`; the runtime binds them so, and the
//! lowering splits each access, `lower/helpers/memory.rs`). The planner
//! decides it here, once per dispatch, and every [`KernelPlan`] carries
//! it; the kernel stage only maps the buffers its kernel binds as storage
//! buffers (not those it reads through texel views, whose limit is their
//! own) to their bindings.
//!
//! A buffer sized at run time ([`run_time_variants`], issue 32): a
//! descriptor array's length is static in SPIR-V, so a dispatch whose
//! kernels bind buffers sized at run time that may exceed the range gets
//! a second variant of its kernels, `_chunked`, binding each of them as
//! `N` storage-buffer descriptors — also those the plain kernels read
//! through texel views, which hold at most one allocation (a tensor past
//! one allocation is several, issue 35). `N` comes from a bound the
//! planner can prove: `i32::MAX` elements (kernels index with 32-bit
//! integers), in chunks, capped so that every kernel's storage buffers
//! fit `maxPerStageDescriptorStorageBuffers` (the same `N` for all of
//! them); no variant where that leaves fewer than 2 descriptors, or where
//! no such buffer can exceed the range. A [`Guard`] on the largest of
//! their byte sizes selects the variant (`> range`) or the plain kernels
//! (`<= range`), on top of the plans' own guards. The runtime binds the
//! chunks a buffer has and repeats its last one for the rest (every
//! descriptor a kernel statically uses must be valid; the per-chunk
//! branches never reach those), and the executor refuses a buffer
//! ([`BufferSizeError::TooLarge`](super::super::super::exec::BufferSizeError::TooLarge))
//! only past what every dispatch binding it can bind: `N` chunks where
//! it has a variant, the range where it has none
//! ([`CompiledFunction::chunk_limits`](super::super::super::program::CompiledFunction::chunk_limits)).
//! The planner decides after the dispatch's plain kernels are emitted:
//! which buffers they bind, and how, is the emitter's; every other fact
//! is here. Through a texel view a buffer sized at run time is limited by
//! the view's texels instead (`program.rs` keeps the least limit).
//! Every access to a buffer in chunks is one branch per chunk, so a
//! variant's code grows with `N` (a dynamic matmul's register tiles on
//! lavapipe: its variants hold 2.2 times the words of its plain kernels);
//! `N` is therefore also capped at [`MAX_RUN_TIME_CHUNKS`]. Without the
//! cap a device with a million storage descriptors per stage (NVIDIA's
//! 1,048,576) and a small range gave `N` = 349,525 for a three-buffer add
//! and a kernel of 15 million ids, past SPIR-V's id bound (the H200 run of
//! 2026-11-30 with the range lowered to 4 KiB). With a real range the cap
//! costs nothing where chunks are 2 GiB (a 4 GiB range: `i32::MAX`
//! elements of 8 bytes need 8 of them); past it a buffer sized at run time
//! is refused before anything runs, as past any `N`.
//! The variants cost a compile nothing until a call needs one where the
//! compile is asked so (`codegen/deferred.rs`: the runtime's and the CPU
//! runner's compiles leave them unlowered, and lower one at the first
//! launch that selects it).
//! Not done: bounds from `util.assume.int` (the parser reads its facts and
//! drops the op, `tensor/parse/assume.rs`; nothing keeps them yet), so `N` is the descriptor cap wherever the element bound is past it,
//! and no variant is proven unneeded by a bound on the sizes.
//!
//! [`KernelPlan`]: super::KernelPlan

use crate::target::ResourceLimits;

use super::super::super::bufferize::{element_bytes, BufferId, BufferPlan};
use super::super::super::guard::{Cond, Guard};
use super::super::super::host::{HostProgram, Size, SizeOp};
use super::KernelPlan;

/// Every buffer of `buffers` of static size larger than `limits`'
/// `maxStorageBufferRange`, with its number of chunks, by buffer id.
pub(crate) fn chunked_buffers(
    buffers: &BufferPlan,
    limits: &ResourceLimits,
) -> Vec<(BufferId, u32)> {
    let range = u64::from(limits.max_storage_buffer_range);
    let chunk = limits.storage_chunk_bytes();
    buffers
        .buffers
        .iter()
        .enumerate()
        .filter_map(|(b, info)| {
            let n = info
                .shape
                .iter()
                .map(|s| s.fixed())
                .try_fold(1u64, |acc, d| acc.checked_mul(d?))?;
            let bytes = n.checked_mul(element_bytes(info.elem) as u64)?;
            if bytes <= range {
                return None;
            }
            Some((b, u32::try_from(bytes.div_ceil(chunk)).ok()?))
        })
        .collect()
}

/// What one plan's kernel binds, as the emitter made it: the buffer at
/// each binding and the bindings it reads through texel views (not
/// storage buffers).
pub(crate) struct Bound<'a> {
    /// The buffer at each binding.
    pub bindings: &'a [BufferId],
    /// The bindings read through texel views.
    pub texel: &'a [u32],
}

/// The most descriptors per buffer a `_chunked` variant binds (`N`),
/// whatever the descriptor limits allow: every access is one branch per
/// chunk, so this bounds the variant's code (see the module docs).
pub(crate) const MAX_RUN_TIME_CHUNKS: u64 = 64;

/// The suffix of a `_chunked` variant's kernel names: such a kernel runs
/// only when a buffer sized at run time is past the storage range, so
/// loaders make its pipeline at its first launch, not with the program's
/// (see [`CompiledKernel::runs_only_past_the_storage_range`](crate::codegen::CompiledKernel::runs_only_past_the_storage_range)).
pub(crate) const CHUNKED_SUFFIX: &str = "_chunked";

/// A dispatch's `_chunked` variant ([`run_time_variants`]).
pub(crate) struct RunTimeVariant {
    /// The guard of each plain plan, in order: its own and the buffers'
    /// largest byte size at most the range.
    pub plain_guards: Vec<Guard>,
    /// The variant's plans: each plain plan named `<name>_chunked`, its
    /// own guard and the largest byte size past the range, the buffers in
    /// `N` chunks each added to its chunked ones.
    pub plans: Vec<KernelPlan>,
    /// The buffers bound in chunks at run time and `N`.
    pub buffers: Vec<BufferId>,
    /// `N`: descriptors per buffer.
    pub chunks: u32,
    /// Those of `buffers` the plain kernels read through texel views that
    /// the variant binds in chunks (see [`KernelPlan::unviewed`]).
    pub unviewed: Vec<BufferId>,
}

/// The `_chunked` variant of a dispatch whose plans are `plans` and whose
/// kernels bind `bound` (one per plan), or `None` when none of the
/// buffers they bind as storage buffers is sized at run time and may
/// exceed `limits`' range, or when too few descriptors are left for `N`
/// (see the module docs). Adds the guard's size to `host`.
pub(crate) fn run_time_variants(
    plans: &[KernelPlan],
    bound: &[Bound<'_>],
    buffers: &BufferPlan,
    host: &mut HostProgram,
    limits: &ResourceLimits,
    texel_reads: Option<u64>,
) -> Option<RunTimeVariant> {
    let range = u64::from(limits.max_storage_buffer_range);
    let chunk = limits.storage_chunk_bytes();
    // The largest bytes a buffer sized at run time can have.
    let most_bytes = |b: BufferId| -> Option<u64> {
        let info = buffers.buffers.get(b)?;
        if info.shape.iter().all(|s| s.fixed().is_some()) {
            return None;
        }
        Some((i32::MAX as u64).saturating_mul(element_bytes(info.elem) as u64))
    };
    let storage = |k: &Bound<'_>| {
        k.bindings
            .iter()
            .enumerate()
            .filter(|(i, _)| !k.texel.contains(&(*i as u32)))
            .map(|(_, &b)| b)
            .collect::<Vec<_>>()
    };
    let texel = |k: &Bound<'_>| {
        k.bindings
            .iter()
            .enumerate()
            .filter(|(i, _)| k.texel.contains(&(*i as u32)))
            .map(|(_, &b)| b)
            .collect::<Vec<_>>()
    };
    let sized_at_run_time = |of: &dyn Fn(&Bound<'_>) -> Vec<BufferId>| {
        let mut v: Vec<BufferId> = bound
            .iter()
            .flat_map(of)
            .filter(|&b| most_bytes(b).is_some_and(|n| n > range))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let in_storage = sized_at_run_time(&storage);
    let in_views = sized_at_run_time(&texel);
    // The bytes a texel view of buffer `b` holds (4 elements a texel).
    let view_bytes = |b: BufferId| {
        let texel = 4 * element_bytes(buffers.buffers[b].elem) as u64;
        texel_reads.map_or(u64::MAX, |t| t.saturating_mul(texel))
    };
    let least_view = in_views.iter().map(|&b| view_bytes(b)).min();
    // `N` for the buffers of `split`, bound in chunks where bound as
    // storage buffers, and where read through texel views for those of
    // `unviewed`.
    let chunks_for = |split: &[BufferId], unviewed: &[BufferId]| -> u64 {
        let need = split
            .iter()
            .filter_map(|&b| most_bytes(b))
            .map(|n| n.div_ceil(chunk))
            .max()
            .unwrap_or(0);
        // The descriptors each kernel has left for them, per binding of one.
        let max = u64::from(limits.max_per_stage_descriptor_storage_buffers);
        let mut chunks = need.min(MAX_RUN_TIME_CHUNKS);
        for (p, k) in plans.iter().zip(bound) {
            let mut others = 0u64;
            let mut n_split = 0u64;
            for (i, b) in k.bindings.iter().enumerate() {
                let viewed = k.texel.contains(&(i as u32));
                if split.contains(b) && (!viewed || unviewed.contains(b)) {
                    n_split += 1;
                } else if !viewed {
                    let n = p.chunked.iter().find(|(c, _)| c == b).map_or(1, |c| c.1);
                    others += u64::from(n);
                }
            }
            if let Some(each) = max.saturating_sub(others).checked_div(n_split) {
                chunks = chunks.min(each);
            }
        }
        chunks
    };
    // The buffers read through texel views join the variant where that
    // lets the dispatch take larger buffers than their views hold: a view
    // holds at most one allocation (the runtime's device target caps its
    // texels so; a tensor past one allocation is several, which one view
    // cannot bind), and binding more buffers in chunks leaves each fewer
    // descriptors. The emitter leaves a buffer sized at run time that a
    // plan binds in chunks a storage buffer.
    let alone = if in_storage.is_empty() {
        0
    } else {
        chunks_for(&in_storage, &[])
    };
    let mut with_views = in_storage.clone();
    with_views.extend(&in_views);
    with_views.sort_unstable();
    with_views.dedup();
    let joined = chunks_for(&with_views, &in_views);
    let most_alone = match (alone, least_view) {
        (0, Some(v)) => v,
        (0, None) => 0,
        (n, v) => (n * chunk).min(v.unwrap_or(u64::MAX)),
    };
    let join = !in_views.is_empty() && joined >= 2 && joined * chunk > most_alone;
    let (run_time, unviewed, chunks, limit) = if join {
        let limit = least_view.map_or(range, |v| v.min(range));
        (with_views, in_views, joined, limit)
    } else {
        (in_storage, Vec::new(), alone, range)
    };
    if run_time.is_empty() {
        return None;
    }
    let chunks = u32::try_from(chunks).ok().filter(|&n| n >= 2)?;
    // The guard's size: the largest of the buffers' bytes.
    let mut sizes: Vec<Size> = Vec::new();
    for &b in &run_time {
        let info = &buffers.buffers[b];
        let n = host.product(&info.shape);
        let bytes = host.arith(
            SizeOp::Mul,
            n,
            Size::Static(element_bytes(info.elem) as u64),
        );
        if !sizes.contains(&bytes) {
            sizes.push(bytes);
        }
    }
    let mut largest = sizes[0];
    for &s in &sizes[1..] {
        largest = host.arith(SizeOp::Max, largest, s);
    }
    // Past the range, or past a view of a buffer that joined.
    let above = Cond::Above {
        size: largest,
        limit,
    };
    let plain_guards = plans.iter().map(|p| p.guard.and(!above)).collect();
    let plans = plans
        .iter()
        .map(|p| {
            let mut chunked = p.chunked.clone();
            chunked.extend(run_time.iter().map(|&b| (b, chunks)));
            KernelPlan {
                name: format!("{}{CHUNKED_SUFFIX}", p.name),
                guard: p.guard.and(above),
                chunked,
                unviewed: unviewed.clone(),
                ..p.clone()
            }
        })
        .collect();
    Some(RunTimeVariant {
        plain_guards,
        plans,
        buffers: run_time,
        chunks,
        unviewed,
    })
}
