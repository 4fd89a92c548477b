//! Kernel plans: what each kernel of a dispatch computes ([`Plan`]), over
//! how many workgroups, under which run-time [`Guard`] and how often, as
//! `dispatch.rs` chooses them from the dispatch's strategy. A plan is data:
//! `emit_plan.rs` turns it into kernel IR and decides nothing, and
//! `--explain` prints it ([`Plan::describe`]).
//!
//! Each variant carries the sizes, tiles and scratch buffers its kernel
//! needs; the dispatch's root and its combiners are still looked up at
//! emission (an [`Invariant`](super::super::error::Invariant) error where
//! the plan and the dispatch disagree).

use super::super::guard::Guard;
use super::super::host::{HostProgram, Size};
use super::super::strategy::Combine;
use super::split_k::Slices;
use super::Repeat;

/// A kernel of a dispatch as planned.
#[derive(Clone, Debug)]
pub(super) struct KernelPlan {
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
}

impl KernelPlan {
    /// A kernel dispatched once, whenever its dispatch runs.
    pub fn once(name: String, plan: Plan, workgroups: Size) -> KernelPlan {
        KernelPlan {
            name,
            plan,
            workgroups,
            guard: Guard::always(),
            repeat: Repeat::Once,
        }
    }

    /// This kernel, run only where `guard` holds.
    pub fn when(self, guard: Guard) -> KernelPlan {
        KernelPlan { guard, ..self }
    }
}

/// How a kernel of a dispatch computes its points.
#[derive(Clone, Debug)]
pub(super) enum Plan {
    /// `per` points per invocation; roots serially.
    Points { per: u32, range: Range },
    /// A workgroup per point, the root folded cooperatively; with `split`
    /// (the split count and the partial buffers) the first of two kernels,
    /// which with `per_invocation` writes every invocation's partial
    /// result instead of the workgroup's.
    Coop {
        combine: Combine,
        split: Option<(Size, Vec<usize>)>,
        per_invocation: bool,
    },
    /// The second kernel of a split: combine the partials.
    CombinePartials {
        combine: Combine,
        split: Size,
        partials: Vec<usize>,
    },
    /// Softmax: a row per slice of `slice` invocations (a workgroup, or
    /// one subgroup of it with [`Combine::OneSubgroup`]).
    Rows { combine: Combine, slice: u32 },
    /// Softmax rows split over `slices` workgroups each: the first kernel
    /// (the slices' partial maxima and sums into `partials`) or, with
    /// `second`, the second (combine them, write the quotients).
    SplitRows {
        combine: Combine,
        slices: u32,
        partials: [usize; 2],
        second: bool,
    },
    /// A register tile per invocation; with `split`, the first kernel of
    /// a split-K (one slice per workgroup).
    Tile {
        dims: super::tile::TileDims,
        split: Option<Slices>,
        /// The output's columns, of dynamic length, where this kernel
        /// runs only when they are a multiple of 4 (vector columns).
        fours: Option<Size>,
    },
    /// `per` groups of 4 points per invocation, moved as vectors.
    Vector4 { per: u32 },
    /// Workgroup-memory tiles; with split-K slices, the first kernel.
    SharedTile(super::shared_tile::SharedDims, Option<Slices>),
    /// The second kernel of a split-K: sum the slices, then the epilogue.
    SumSlices(Slices),
    /// Cooperative matrices: `tiles` of `m` x `n` per subgroup, a grid of
    /// `subgroups` per workgroup (see [`Distribution::CoopMatrix`]).
    CoopMatrix(super::coop_matmul::CoopDims),
    /// `rows` points per slice of `slice` invocations (more than one only
    /// for a matvec over quantized weights,
    /// [`super::matvec::rows_per_invocation`]), combined with `combine`
    /// within the slice.
    RowSlices {
        slice: u32,
        combine: Combine,
        rows: u32,
        /// Quantized blocks per step of the row loop
        /// ([`super::matvec::blocks_per_step`]; 0: not a decoding).
        blocks: u32,
    },
}

/// The part of the root's reduction a [`Plan::Points`] kernel folds.
#[derive(Clone, Debug)]
pub(super) enum Range {
    /// The whole reduction in one dispatch.
    Whole,
    /// A chunk per dispatch, the accumulators kept between dispatches in
    /// these scratch buffers (one per root output).
    Chunk(Vec<usize>),
}

fn scratch(ids: &[usize]) -> String {
    let ids: Vec<String> = ids.iter().map(|b| format!("#{b}")).collect();
    format!("scratch buffer(s) {}", ids.join(", "))
}

fn slices_text(s: &Slices) -> String {
    format!(
        "slice of {} iterations of {} per workgroup, partial results into {}",
        s.len,
        s.count,
        scratch(&s.partials)
    )
}

impl Plan {
    /// What the kernel computes, in words, with the sizes of `host` by
    /// name (`--explain`).
    pub fn describe(&self, host: &HostProgram) -> String {
        match self {
            Plan::Points { per, range } => {
                let red = match range {
                    Range::Whole => String::new(),
                    Range::Chunk(s) => format!(
                        ", its reduction a chunk per dispatch (accumulators kept in {})",
                        scratch(s)
                    ),
                };
                format!("{per} point(s) per invocation{red}")
            }
            Plan::Coop {
                combine,
                split,
                per_invocation,
            } => match split {
                None => format!(
                    "a workgroup per point, its reduction folded cooperatively ({})",
                    combine.slice_name()
                ),
                Some((g, partials)) => format!(
                    "{} workgroup(s) per point, each a share of its reduction; {} partial result into {}",
                    host.text(*g),
                    if *per_invocation {
                        "every invocation's"
                    } else {
                        "each workgroup's"
                    },
                    scratch(partials)
                ),
            },
            Plan::CombinePartials {
                combine,
                split,
                partials,
            } => format!(
                "a workgroup per point combining its {} partial results from {} ({})",
                host.text(*split),
                scratch(partials),
                combine.slice_name()
            ),
            Plan::Rows { combine, slice } => format!(
                "a row per {slice} invocations ({})",
                combine.slice_name()
            ),
            Plan::SplitRows {
                combine,
                slices,
                partials,
                second,
            } => {
                let [a, b] = partials;
                if *second {
                    format!(
                        "a row's {slices} partial maxima and sums from {} combined, the quotients written ({})",
                        scratch(&[*a, *b]),
                        combine.slice_name()
                    )
                } else {
                    format!(
                        "a row split over {slices} workgroups, each slice's maximum and sum into {} ({})",
                        scratch(&[*a, *b]),
                        combine.slice_name()
                    )
                }
            }
            Plan::Tile { dims, split, fours } => {
                let cols = match fours {
                    Some(c) => format!(", columns as vec4 ({} a multiple of 4)", host.text(*c)),
                    None => String::new(),
                };
                let split = match split {
                    Some(s) => format!(", one {}", slices_text(s)),
                    None => String::new(),
                };
                format!(
                    "a {}x{} register tile per invocation, {} reduction steps per iteration{cols}{split}",
                    dims.rows, dims.cols, dims.depth
                )
            }
            Plan::Vector4 { per } => {
                format!("{per} group(s) of 4 points per invocation, moved as vec4")
            }
            Plan::SharedTile(dims, split) => {
                let split = match split {
                    Some(s) => format!(", one {}", slices_text(s)),
                    None => String::new(),
                };
                format!("{}{split}", dims.text())
            }
            Plan::SumSlices(s) => format!(
                "a point per invocation summing its {} slices from {}, then the epilogue",
                s.count,
                scratch(&s.partials)
            ),
            Plan::CoopMatrix(d) => format!(
                "cooperative matrices of {}x{}x{}, {}x{} tiles per subgroup, {}x{} subgroups per workgroup{}{}",
                d.m,
                d.n,
                d.k,
                d.tiles[0],
                d.tiles[1],
                d.subgroups[0],
                d.subgroups[1],
                if d.staging.operands {
                    ", edge steps staged through workgroup memory with zero padding"
                } else {
                    ""
                },
                if d.staging.results {
                    ", tiles read back through workgroup memory for the epilogue and guarded stores"
                } else {
                    ""
                }
            ),
            Plan::RowSlices {
                slice,
                combine,
                rows: 1,
                blocks: 0 | 1,
            } => format!(
                "a point per {slice} invocations, combined by {}",
                combine.slice_name()
            ),
            Plan::RowSlices {
                slice,
                rows,
                blocks: 0 | 1,
                ..
            } => format!(
                "{rows} points per {slice} invocation(s), each row's quantized blocks (32 weights: one 16-byte code group, one scale) folded beside the vector's 32 elements, which the rows share"
            ),
            Plan::RowSlices {
                slice,
                rows,
                blocks,
                ..
            } => format!(
                "{rows} point(s) per {slice} invocation(s), each row's quantized blocks {blocks} per step ({} weights: {blocks} 16-byte code groups, one group of {blocks} scales) folded beside the vector's {} elements, which the rows share; every load of a step issued before its arithmetic, one row's folds after the other",
                32 * blocks,
                32 * blocks
            ),
        }
    }
}
