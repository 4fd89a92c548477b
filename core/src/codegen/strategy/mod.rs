//! Stage 4: a [`Strategy`] per dispatch — a plain value chosen from the
//! dispatch's shape ([`DispatchShape`]) and the [`CodegenTarget`](super::CodegenTarget) by one
//! small function per op family ([`choose`]), with an always-valid
//! fallback. A tuned strategy from a cache can replace it (the
//! fast-kernels issue). The planner (`planner/`) then turns a dispatch's
//! strategy into its kernel plans (`plan_dispatch`); kernel generation
//! only reads them.
//!
//! Every strategy keeps each invocation's loop iterations (summed over all
//! its loops, the way lavapipe counts them) within the target's loop
//! budget: a reduction longer than that is split across the invocations
//! of a workgroup, across workgroups with a second dispatch combining
//! partial results, or across several dispatches carrying the
//! accumulator in memory.

mod choose;
mod coop_matrix;
mod coop_transposed;
mod elementwise;
mod implicit_gemm;
mod matvec;
mod planner;
mod reduction;
mod row_split;
mod rows;
mod seeds;
mod shape;
mod split_k;
#[cfg(test)]
mod tests;
mod tiles;
mod tuning;
mod type_repr;

use std::fmt;

pub use choose::{candidates, choose};
pub(crate) use coop_matrix::{coop_sizes, coop_staging, stage_slices, StageSlice};
pub use coop_matrix::{plain_matmul, CoopStaging, MatmulLayout, MatmulTypes};
pub use planner::Repeat;
pub(crate) use planner::CHUNKED_SUFFIX;
pub(crate) use planner::{
    plan_dispatch, run_time_variants, Bound, CoopDims, CoopSplit, KernelPlan, Plan, Range,
    RowShare, SharedDims, Slices, TileDims, DECODE_BLOCK,
};
pub use shape::{
    dispatch_shape, loop_sizes, reduction_total, tile_loops, DispatchShape, Fold, OperandReuse,
    ReductionReads, RowStream,
};
pub use split_k::{split_slices, MIN_SLICE};
pub use tiles::double_fills_half;
pub use tuning::{tuning_key, Choice, ChoiceParseError, Tuning, TuningParseError};
pub use type_repr::{type_reprs, TypeRepr};

use super::regions::OpFamily;
use crate::tensor::types::ElemType;

/// How a reduction's partial results are combined inside a workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Combine {
    /// `gpu.subgroup_reduce` (GroupNonUniformArithmetic), then the
    /// subgroups' results through workgroup memory.
    Subgroup,
    /// A tree in workgroup memory, halving the active invocations each
    /// step (no subgroup operations).
    WorkgroupTree,
    /// `gpu.subgroup_reduce` alone: the workgroup is one subgroup (no
    /// more invocations than the device's smallest subgroup), so no
    /// workgroup memory and no barrier.
    OneSubgroup,
}

impl Combine {
    fn name(self) -> &'static str {
        match self {
            Combine::Subgroup => "subgroup reduce (GroupNonUniformArithmetic) + workgroup memory",
            Combine::WorkgroupTree => "workgroup-memory tree",
            Combine::OneSubgroup => {
                "subgroup reduce (GroupNonUniformArithmetic) alone, no workgroup memory"
            }
        }
    }

    pub(crate) fn slice_name(self) -> &'static str {
        match self {
            Combine::Subgroup => "subgroup reduce (GroupNonUniformArithmetic)",
            Combine::WorkgroupTree => "a workgroup-memory tree",
            Combine::OneSubgroup => {
                "subgroup reduce (GroupNonUniformArithmetic), no workgroup memory"
            }
        }
    }
}

/// The reduction steps per iteration of a register tile's loop: one
/// vector group of 4, what GPUs take (CPU devices take deeper tiles; see
/// [`Distribution::Tile`]'s `depth`).
pub const TILE_DEPTH: u32 = 4;

/// How the dispatch's points (its parallel iteration space, linearized)
/// map to invocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Distribution {
    /// Each invocation computes `per_invocation` points, strided by the
    /// workgroup size within its workgroup's block of points.
    Points {
        /// Points per invocation (unrolled, no loop).
        per_invocation: u32,
    },
    /// One workgroup per point: its invocations split the point's
    /// reduction.
    WorkgroupPerPoint,
    /// Each invocation computes `per_invocation` groups of 4 consecutive
    /// points along the last dimension (groups strided by the workgroup
    /// size); the 32-bit tensors it reads and writes over the whole
    /// iteration space move as `vector<4x...>` (128-bit loads and
    /// stores), everything else element by element.
    Vector4 {
        /// Groups of 4 points per invocation (unrolled, no loop).
        per_invocation: u32,
    },
    /// A register tile per invocation over the last two dimensions of the
    /// points (`rows` x `cols` points, the columns strided by the
    /// workgroup size so that neighbouring invocations touch neighbouring
    /// elements), all its reductions run by one loop: an operand element
    /// that several of the tile's points read (a row of A for every column
    /// of a matmul tile, an input pixel for every filter of a convolution
    /// tile) is loaded once per iteration. A workgroup covers `rows` rows
    /// and `cols * invocations` columns, so the rows' loads are the same
    /// for all its invocations.
    Tile {
        /// Rows of the tile (the second-to-last point dimension).
        rows: u32,
        /// Columns of the tile (the last point dimension).
        cols: u32,
        /// Reduction steps each point folds per iteration of the loop
        /// ([`TILE_DEPTH`] or a multiple of it): the innermost reduction
        /// loop is unrolled by `depth` where its size is a multiple of
        /// it, else by [`TILE_DEPTH`] where a multiple of that, else not
        /// at all. Each group of 4 steps is a vector group (an operand
        /// indexed last by the reduction, a matmul's A row, is read as
        /// vec4); a deeper step folds more multiply-adds per accumulator
        /// between the loop's back-edges, which a CPU device that spills
        /// a large tile's accumulators pays a reload and a store for.
        /// Deeper than [`TILE_DEPTH`], a loop of at most 4 iterations just
        /// outside the innermost (a convolution's window column) is
        /// unrolled into each step too, so that the tile's rows share the
        /// input pixels their taps read.
        depth: u32,
    },
    /// Workgroup-memory tiles (GPUs): a workgroup computes a
    /// `block_rows` x `block_cols` block of the last two point dimensions,
    /// each invocation a `rows` x `cols` register tile of it (rows and
    /// columns strided by the block's invocation rows and columns). Per
    /// step of `depth` reduction iterations the workgroup loads the
    /// operands that are shared along the block's rows or columns (a
    /// matmul's A and B blocks) into workgroup memory together, then
    /// every invocation folds its tile from there. With `double`, two
    /// buffers: the next step's blocks are loaded from memory into
    /// registers before the step's fold and stored into the other buffer
    /// after it, one barrier per step.
    SharedTile {
        /// Output rows of a workgroup's block.
        block_rows: u32,
        /// Output columns of a workgroup's block.
        block_cols: u32,
        /// Reduction iterations staged per step.
        depth: u32,
        /// Rows of each invocation's register tile.
        rows: u32,
        /// Columns of each invocation's register tile.
        cols: u32,
        /// Whether the staged blocks are double-buffered.
        double: bool,
    },
    /// Cooperative matrices (`SPV_KHR_cooperative_matrix`, a matmul, or a
    /// convolution as an implicit GEMM): each subgroup computes a
    /// `tiles[0]` x `tiles[1]` grid of `m` x `n` output tiles with `k`-deep
    /// multiply-adds of `Subgroup` cooperative matrices loaded from and
    /// stored to memory (each A tile it loads serves `tiles[1]`
    /// multiply-adds, each B tile `tiles[0]`); a workgroup is a
    /// `subgroups[0]` x `subgroups[1]` grid of such subgroups, whose
    /// neighbours read the same A rows and B columns through the cache.
    CoopMatrix {
        /// Rows of the tile (the env's `m_size`).
        m: u32,
        /// Columns of the tile (`n_size`).
        n: u32,
        /// Reduction iterations per multiply-add (`k_size`).
        k: u32,
        /// Tiles per subgroup: rows x columns.
        tiles: [u32; 2],
        /// Subgroups per workgroup: rows x columns.
        subgroups: [u32; 2],
        /// Whether whole blocks stage their A and B slices in workgroup
        /// memory (and how), or load their tiles straight from memory
        /// (`None`; edge blocks and K tails are staged either way).
        stage: Option<CoopStage>,
    },
    /// Matrix x vector ([`RowStream::WithVector`]): the workgroup's
    /// invocations are cut into slices of `slice` consecutive
    /// invocations (a subgroup where the reduction combines by subgroup
    /// operations), each slice owns one point: its invocations stride
    /// over the point's row (vec4 loads where the row is a multiple of 4
    /// long), combine their partial results (the reduction's
    /// [`Combine`], within the slice), and the slice's first invocation
    /// applies the epilogue and stores.
    RowSlices {
        /// Invocations per slice (a power of two dividing the workgroup).
        slice: u32,
    },
}

/// How a cooperative-matrix workgroup stages the A and B slices of a
/// whole block ([`Distribution::CoopMatrix`]'s `stage`): per step of `k`
/// reduction iterations (a multiple of the tile's `k`), the workgroup's
/// invocations copy the block's `BM x k` A slice and `k x BN` B slice
/// into workgroup memory with wide loads (16 bytes where the alignment
/// allows), rows padded, and after a barrier its subgroups load their
/// tiles from there, `k / tile k` multiply-adds per tile pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CoopStage {
    /// Reduction iterations per staged step.
    pub k: u32,
    /// Two buffers: the next step's slices are loaded into registers
    /// before the step's multiply-adds and stored into the other buffer
    /// after them, one barrier per step.
    pub double: bool,
}

impl Distribution {
    /// The invocations a [`Distribution::SharedTile`] needs (`None` for
    /// the others, which take any workgroup size).
    pub fn shared_tile_invocations(&self) -> Option<u32> {
        match *self {
            Distribution::SharedTile {
                block_rows,
                block_cols,
                rows,
                cols,
                ..
            } => Some((block_rows / rows.max(1)) * (block_cols / cols.max(1))),
            _ => None,
        }
    }

    /// The bytes of workgroup memory a [`Distribution::SharedTile`]
    /// stages for a matmul's two operands (32-bit compute values, each of
    /// the `depth` rows padded by one element against bank conflicts,
    /// twice with `double`); 0 for the others.
    pub fn shared_tile_bytes(&self) -> u32 {
        match *self {
            Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                double,
                ..
            } => 4 * depth * (block_rows + 1 + block_cols + 1) * if double { 2 } else { 1 },
            _ => 0,
        }
    }
}

/// How each point's reduction runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ReductionStrategy {
    /// The invocation runs the point's reduction loop itself. With
    /// `chunked`, the loop runs as one dispatch per `chunk` iterations
    /// (their number is known at run time), the accumulators kept in a
    /// scratch buffer between dispatches.
    Serial {
        /// The most iterations one dispatch runs.
        chunk: u64,
        /// Whether the reduction may need several dispatches.
        chunked: bool,
    },
    /// The workgroup's invocations split the reduction (invocation `t`
    /// takes iterations `t, t + W, ...`, at most `chunk` each) and combine
    /// with `combine`. With `split`, `ceil(iterations / (W * chunk))`
    /// workgroups share a point and write partial results that a second
    /// dispatch combines.
    Cooperative {
        /// How partial results combine in a workgroup.
        combine: Combine,
        /// The most iterations one invocation runs.
        chunk: u64,
        /// Whether several workgroups may share a point.
        split: bool,
        /// With `split`: every invocation writes its own partial result
        /// (no combining in the workgroup, so no barrier in the first
        /// dispatch); the second dispatch combines them all.
        per_invocation: bool,
    },
    /// Split-K for register or workgroup-memory tiles
    /// ([`Distribution::Tile`], [`Distribution::SharedTile`]) whose
    /// outputs are too few to fill the device: the reduction is cut into
    /// `slices` slices of `slice` iterations (the last one takes what
    /// remains); the first dispatch runs every tile once per slice and
    /// writes its partial results (folded from the combining op's
    /// identity) into a scratch buffer `[slices][points]`; a second
    /// dispatch folds each point's partials in slice order into the
    /// output's initial value and applies the fused epilogue. Only for
    /// combinable reductions (reassociating them is allowed, as for
    /// [`ReductionStrategy::Cooperative`]).
    SplitK {
        /// The number of slices.
        slices: u32,
        /// Reduction iterations per slice (a multiple of 16).
        slice: u64,
    },
    /// Row by row: softmax (max, sum of exponentials, normalisation) or
    /// a row group (its row roots, then the row's points; see
    /// [`OpFamily::Normalization`]), by
    /// one invocation per row or, with `combine`, by a workgroup per row
    /// ([`Distribution::WorkgroupPerPoint`]) or a subgroup per row
    /// ([`Distribution::RowSlices`] of the subgroup size, combined by
    /// [`Combine::OneSubgroup`]).
    Rows {
        /// `None`: one invocation per row.
        combine: Option<Combine>,
    },
    /// A softmax's few long rows, each split over `slices` workgroups
    /// ([`Distribution::WorkgroupPerPoint`], a workgroup per slice of a
    /// row): a first dispatch writes each slice's maximum and its sum of
    /// exponentials relative to it (combined in the workgroup by
    /// `combine`) to scratch `[rows][slices]`; a second combines the
    /// row's partials in every workgroup (the sums rescaled to the row's
    /// maximum) and writes its slice's quotients. The row is read twice,
    /// as by the one-dispatch form's two passes; what changes is that a
    /// row's passes run on `slices` workgroups instead of one (an LLM's
    /// last softmax over a vocabulary of 128,256 is one row).
    SplitRows {
        /// How a slice's invocations combine.
        combine: Combine,
        /// Workgroups per row (at least 2).
        slices: u32,
    },
}

/// The strategy of one dispatch.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Strategy {
    /// The op family it was chosen for.
    pub family: OpFamily,
    /// Invocations per workgroup.
    pub workgroup_size: [u32; 3],
    /// How points map to invocations.
    pub distribution: Distribution,
    /// How each point's reduction runs (none without a reduction).
    pub reduction: Option<ReductionStrategy>,
    /// Bytes of workgroup memory the kernel uses.
    pub workgroup_memory: u32,
    /// The loop iterations one invocation may run.
    pub loop_budget: u64,
    /// How each element type is held.
    pub types: Vec<(ElemType, TypeRepr)>,
    /// Where read-only 32-bit (and natively stored f16) tensors that the
    /// kernel reads as vec4 are bound as uniform texel buffers (RGBA32 and
    /// RGBA16F views) instead of storage
    /// buffers: the most texels a view may hold (the driver fetches
    /// texels faster, [`DriverFacts::texel_reads`](super::target::DriverFacts::texel_reads)).
    pub texel_reads: Option<u64>,
    /// Whether dynamically sized tensors are read as texels too (under
    /// [`texel_reads`](Self::texel_reads)): where every range the device
    /// binds as a storage buffer fits a view (`maxStorageBufferRange` at
    /// most 16 bytes times the view limit), so no tensor a kernel could
    /// bind otherwise is refused for its size.
    pub dynamic_texels: bool,
    /// Whether vec4 groups of 32-bit elements (and of natively stored
    /// f16) are stored as 64-bit words — two `i64` (one for f16) through
    /// a view of the buffer as `vector<2xi64>` (`i64`) — rather than as
    /// their elements: where the driver stores per component
    /// ([`DriverFacts::word_stores`](super::target::DriverFacts::word_stores))
    /// and the env has `Int64`.
    pub word_stores: bool,
    /// Whether 16-bit integers are stored natively (`Int16` and 16-bit
    /// storage): bf16 tensors (and f16 ones held as bits) then move as
    /// vec4 groups of `i16` like 32-bit ones.
    pub i16_vectors: bool,
    /// Why this strategy (one line).
    pub reason: String,
}

impl Strategy {
    /// Invocations per workgroup.
    pub fn invocations(&self) -> u32 {
        self.workgroup_size.iter().product()
    }

    /// How `elem` is held.
    pub fn repr(&self, elem: ElemType) -> TypeRepr {
        self.types
            .iter()
            .find(|(e, _)| *e == elem)
            .map_or(TypeRepr::Native, |(_, r)| *r)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup_size;
        writeln!(f, "  family: {}", self.family.name())?;
        writeln!(f, "  workgroup size: [{x}, {y}, {z}]")?;
        match self.distribution {
            Distribution::Points { per_invocation } => writeln!(
                f,
                "  distribution: {per_invocation} point{} per invocation",
                if per_invocation == 1 { "" } else { "s" }
            )?,
            Distribution::WorkgroupPerPoint => {
                writeln!(f, "  distribution: one workgroup per point")?
            }
            Distribution::Vector4 { per_invocation } => writeln!(
                f,
                "  distribution: {per_invocation} group{} of 4 points per invocation, 32-bit and 16-bit tensors over the whole space loaded and stored 4 elements at a time",
                if per_invocation == 1 { "" } else { "s" }
            )?,
            Distribution::Tile { rows, cols, depth } => writeln!(
                f,
                "  distribution: a {rows}x{cols} register tile per invocation (columns strided by the workgroup size, in groups of 4 adjacent ones where the columns are a multiple of 4), one reduction loop for the tile, {depth} reduction steps per iteration where the innermost reduction's size is a multiple of {depth}{}",
                if depth > TILE_DEPTH {
                    ", a loop of at most 4 just outside it (a window) unrolled too"
                } else {
                    ""
                }
            )?,
            Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                rows,
                cols,
                double,
            } => writeln!(
                f,
                "  distribution: a {block_rows}x{block_cols} block per workgroup, operands staged in workgroup memory {depth} reduction steps at a time{}, a {rows}x{cols} register tile per invocation",
                if double { " (double-buffered)" } else { "" }
            )?,
            Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles: [tr, tc],
                subgroups: [sr, sc],
                stage,
            } => writeln!(
                f,
                "  distribution: a {}x{} block per workgroup of {sr}x{sc} subgroups, each computing {tr}x{tc} output tiles of {m}x{n} with {m}x{n}x{k} cooperative-matrix multiply-adds, {}",
                m * tr * sr,
                n * tc * sc,
                match stage {
                    // A convolution's A is gathered (an implicit GEMM).
                    None if self.family == OpFamily::Convolution => {
                        "every step staged in workgroup memory element by element (A gathered from the input)".to_owned()
                    }
                    None => "whole blocks loading their tiles straight from memory".to_owned(),
                    Some(CoopStage { k: ks, double }) => format!(
                        "whole blocks staging A and B in workgroup memory {ks} reduction steps at a time{}",
                        if double { " (double-buffered)" } else { "" }
                    ),
                }
            )?,
            Distribution::RowSlices { slice } => writeln!(
                f,
                "  distribution: one row per slice of {slice} invocations ({} rows per workgroup), the slice striding over its row",
                self.invocations() / slice.max(1)
            )?,
        }
        if let Some(texels) = self.texel_reads {
            writeln!(
                f,
                "  reads: read-only 32-bit and native f16 tensors read as vec4 through uniform texel buffers (RGBA32 and RGBA16F views, at most {texels} texels)"
            )?;
        }
        if self.word_stores {
            writeln!(
                f,
                "  stores: vec4 groups of 32-bit and native f16 elements stored as 64-bit words (a second view of the buffer as i64 vectors)"
            )?;
        }
        match self.reduction {
            None => {}
            Some(ReductionStrategy::Serial { chunk, chunked }) => {
                if chunked {
                    writeln!(
                        f,
                        "  reduction: serial per invocation, one dispatch per {chunk} iterations (accumulator kept in memory)"
                    )?
                } else {
                    writeln!(f, "  reduction: serial per invocation ({chunk} iterations)")?
                }
            }
            Some(ReductionStrategy::Cooperative {
                combine,
                chunk,
                split,
                per_invocation,
            }) => {
                if per_invocation {
                    writeln!(
                        f,
                        "  reduction: split over invocations (at most {chunk} iterations each), each writing its partial result, no barrier; a second dispatch combines them by {}",
                        combine.name()
                    )?;
                } else if let Distribution::RowSlices { slice: 1 } = self.distribution {
                    writeln!(
                        f,
                        "  reduction: serial per invocation along its row ({chunk} iterations), nothing to combine"
                    )?;
                } else if let Distribution::RowSlices { .. } = self.distribution {
                    writeln!(
                        f,
                        "  reduction: split over the row's slice (at most {chunk} iterations per invocation), combined within the slice by {}",
                        combine.slice_name()
                    )?;
                } else {
                    writeln!(
                        f,
                        "  reduction: split over the workgroup (at most {chunk} iterations per invocation), combined by {}",
                        combine.name()
                    )?;
                }
                if split && !per_invocation {
                    writeln!(
                        f,
                        "  split: several workgroups per point write partial results; a second dispatch combines them"
                    )?;
                }
            }
            Some(ReductionStrategy::SplitK { slices, slice }) => writeln!(
                f,
                "  reduction: split-K into {slices} slices of {slice} iterations (the last takes the rest), each tile's partial sums written to scratch [{slices}][points]; a second dispatch sums the slices and applies the epilogue"
            )?,
            Some(ReductionStrategy::SplitRows { combine, slices }) => writeln!(
                f,
                "  reduction: softmax split into {slices} slices per row: each slice's maximum and sum of exponentials, combined by {}, written as partials; a second dispatch combines the row's partials and writes the quotients",
                combine.name()
            )?,
            Some(ReductionStrategy::Rows { combine }) => {
                let what = if self.family == OpFamily::Normalization {
                    "row reductions then the row's points, fused (no intermediate in memory)"
                } else {
                    "softmax (max, sum, normalise)"
                };
                match combine {
                    None => writeln!(f, "  reduction: {what}, one invocation per row")?,
                    Some(c) => writeln!(
                        f,
                        "  reduction: {what}, one {} per row, combined by {}",
                        match self.distribution {
                            Distribution::RowSlices { .. } => "subgroup",
                            _ => "workgroup",
                        },
                        c.name()
                    )?,
                }
                // Rows of dynamic length on subgroups keep workgroup
                // memory for those too long for a subgroup's budget.
                if matches!(self.distribution, Distribution::RowSlices { .. })
                    && self.workgroup_memory > 0
                {
                    writeln!(
                        f,
                        "  long rows: those whose passes exceed a subgroup's loop budget at run time take a workgroup each (a second kernel), combined by {}",
                        Combine::Subgroup.name()
                    )?;
                }
            }
        }
        writeln!(f, "  workgroup memory: {} bytes", self.workgroup_memory)?;
        writeln!(
            f,
            "  loop budget: {} iterations per invocation",
            self.loop_budget
        )?;
        if !self.types.is_empty() {
            let t: Vec<String> = self
                .types
                .iter()
                .map(|(e, r)| format!("{e}: {}", r.describe()))
                .collect();
            writeln!(f, "  types: {}", t.join("; "))?;
        }
        write!(f, "  why: {}", self.reason)
    }
}
