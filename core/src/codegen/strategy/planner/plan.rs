//! Kernel plans: what each kernel of a dispatch computes ([`Plan`]), over
//! how many workgroups, under which run-time [`Guard`] and how often
//! ([`Repeat`]), as the planner chooses them from the dispatch's strategy.
//! A plan is data: `codegen/kernels/emit_plan.rs` turns it into kernel IR
//! and decides nothing, and `--explain` prints it (`describe.rs`).
//!
//! Each variant carries the sizes, tiles and scratch buffers its kernel
//! needs; the dispatch's root and its combiners are still looked up at
//! emission (an [`Invariant`](super::super::super::error::Invariant) error
//! where the plan and the dispatch disagree).

use super::super::super::bufferize::BufferId;
use super::super::super::guard::Guard;
use super::super::super::host::Size;
use super::super::Combine;
use super::dims::{CoopDims, SharedDims, Slices, TileDims};

/// How many times a kernel is dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Repeat {
    /// Once.
    Once,
    /// `ceil(total / chunk)` times (at least once), with the chunk
    /// push constants of each.
    Chunks {
        /// The reduction's iterations.
        total: Size,
        /// Iterations per dispatch.
        chunk: u64,
    },
}

/// A kernel of a dispatch as planned.
#[derive(Clone, Debug)]
pub(crate) struct KernelPlan {
    /// Its entry point name.
    pub name: String,
    /// What it computes.
    pub plan: Plan,
    /// Its workgroups when it runs (a host size).
    pub workgroups: Size,
    /// The run-time condition under which it runs.
    pub guard: Guard,
    /// How often the host dispatches it.
    pub repeat: Repeat,
    /// The buffers it binds in chunks, an array of descriptors each,
    /// where it binds them as storage buffers: `(buffer, chunks)`
    /// (`chunks.rs`).
    pub chunked: Vec<(BufferId, u32)>,
    /// Buffers sized at run time of `chunked` that it binds in chunks also
    /// where the plain kernels read them through texel views (a
    /// `_chunked` variant's, `chunks.rs`): the emitter keeps them storage
    /// buffers.
    pub unviewed: Vec<BufferId>,
}

impl KernelPlan {
    /// A kernel dispatched once, whenever its dispatch runs.
    pub(crate) fn once(name: String, plan: Plan, workgroups: Size) -> KernelPlan {
        KernelPlan {
            name,
            plan,
            workgroups,
            guard: Guard::always(),
            repeat: Repeat::Once,
            chunked: Vec::new(),
            unviewed: Vec::new(),
        }
    }

    /// This kernel, run only where `guard` holds.
    pub(crate) fn when(self, guard: Guard) -> KernelPlan {
        KernelPlan { guard, ..self }
    }
}

/// How a kernel of a dispatch computes its points.
#[derive(Clone, Debug)]
pub(crate) enum Plan {
    /// `per` points per invocation; roots serially.
    Points {
        /// Points per invocation.
        per: u32,
        /// The part of the root's reduction each dispatch folds.
        range: Range,
    },
    /// A workgroup per point, the root folded cooperatively; with `split`
    /// the first of two kernels.
    Coop {
        /// How the workgroup combines its invocations' partial results.
        combine: Combine,
        /// Several workgroups per point, their partial results into
        /// scratch for [`Plan::CombinePartials`].
        split: Option<CoopSplit>,
    },
    /// The second kernel of a split: combine the partials.
    CombinePartials {
        /// How the workgroup combines them.
        combine: Combine,
        /// Partial results per point (a host size).
        split: Size,
        /// Their scratch buffers, one per root output.
        partials: Vec<usize>,
    },
    /// Softmax or row group: a row per share of a workgroup.
    Rows {
        /// How the share combines its invocations' values.
        combine: Combine,
        /// The invocations that take a row.
        share: RowShare,
    },
    /// Softmax rows split over `slices` workgroups each: the first kernel
    /// (the slices' partial maxima and sums into `partials`) or, with
    /// `second`, the second (combine them, write the quotients).
    SplitRows {
        /// How a workgroup combines its invocations' values.
        combine: Combine,
        /// Workgroups per row.
        slices: u32,
        /// The scratch buffers of the partial maxima and sums.
        partials: [usize; 2],
        /// The second kernel.
        second: bool,
    },
    /// A register tile per invocation.
    Tile {
        /// The tile.
        dims: TileDims,
        /// The first kernel of a split-K (one slice per workgroup).
        split: Option<Slices>,
        /// The output's columns, of dynamic length, where this kernel
        /// runs only when they are a multiple of 4 (vector columns).
        fours: Option<Size>,
    },
    /// `per` groups of 4 points per invocation, moved as vectors.
    Vector4 {
        /// Groups of 4 per invocation.
        per: u32,
    },
    /// Workgroup-memory tiles; with split-K slices, the first kernel.
    SharedTile(SharedDims, Option<Slices>),
    /// The second kernel of a split-K: sum the slices, then the epilogue.
    SumSlices(Slices),
    /// Cooperative matrices (see
    /// [`Distribution::CoopMatrix`](super::super::Distribution::CoopMatrix)).
    CoopMatrix(CoopDims),
    /// `rows` points per slice of `slice` invocations (more than one only
    /// for a matvec over quantized weights,
    /// [`rows_per_invocation`](super::rows::rows_per_invocation)),
    /// combined with `combine` within the slice.
    RowSlices {
        /// Invocations per slice.
        slice: u32,
        /// How a slice combines its invocations' partial results.
        combine: Combine,
        /// Points per slice.
        rows: u32,
        /// Quantized blocks per step of the row loop
        /// ([`blocks_per_step`](super::rows::blocks_per_step); 0: not a
        /// decoding).
        blocks: u32,
    },
}

/// The workgroups of a point of a split cooperative reduction
/// ([`Plan::Coop`]) and where their partial results go.
#[derive(Clone, Debug)]
pub(crate) struct CoopSplit {
    /// Workgroups per point (a host size).
    pub workgroups: Size,
    /// The partial results' scratch buffers, one per root output.
    pub partials: Vec<usize>,
    /// Every invocation writes its own partial result (each folding a
    /// contiguous span), instead of the workgroup's combined one.
    pub per_invocation: bool,
}

/// The invocations that take a row of a [`Plan::Rows`] kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RowShare {
    /// The whole workgroup of `invocations`.
    Workgroup {
        /// Invocations per workgroup.
        invocations: u32,
    },
    /// One subgroup-sized slice of `slice` invocations; the workgroup
    /// takes several rows.
    Subgroup {
        /// Invocations per slice (less than the workgroup's).
        slice: u32,
    },
}

impl RowShare {
    /// Invocations per row.
    pub(crate) fn invocations(self) -> u32 {
        match self {
            RowShare::Workgroup { invocations } => invocations,
            RowShare::Subgroup { slice } => slice,
        }
    }
}

/// The part of the root's reduction a [`Plan::Points`] kernel folds.
#[derive(Clone, Debug)]
pub(crate) enum Range {
    /// The whole reduction in one dispatch.
    Whole,
    /// A chunk per dispatch, the accumulators kept between dispatches in
    /// these scratch buffers (one per root output).
    Chunk(Vec<usize>),
}
