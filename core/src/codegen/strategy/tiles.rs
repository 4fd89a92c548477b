//! The matmul-like tiles (contractions, convolutions): register tiles
//! (GPU and CPU-texel seeds) and workgroup-memory tiles (their seed
//! tables), shared by the heuristic, split-K and the tuner's candidates.

use crate::tensor::types::ElemType;

use super::super::host::Size;
use super::super::target::CodegenTarget;
use super::choose::pow2_floor;
use super::seeds::{
    SharedTileSeed, TileSeed, CPU_TEXEL_TILES, GPU_SHARED_TILES, GPU_TILES, TUNE_DEEP_CPU_TILES,
    TUNE_TILES,
};
use super::{DispatchShape, Distribution, TILE_DEPTH};

/// The register tile of a reduction whose operands a tile's points share
/// (contractions, convolutions), one invocation running the reduction
/// whole: `(invocations, rows, cols)`, or `None` where a tile would not
/// share any load (no such operand, or one row and one column).
///
/// Columns: 4 per invocation where the last dimension has at least 4 per
/// invocation of a subgroup-sized workgroup, else 1; invocations: enough
/// to cover the columns (a power of two from the subgroup size up to
/// 64); rows: up to [`GPU_TILES`]' most (at most its accumulators).
pub(super) fn register_tile(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<RegisterTile> {
    if !shape.operands.tile_shares_loads() {
        return None;
    }
    let n = shape.points.len();
    if n < 2 {
        return None;
    }
    let sg = target.subgroup_size().clamp(1, 64).min(max_inv);
    let (rows, cols) = (shape.points[n - 2].fixed(), shape.points[n - 1].fixed());
    let tile_cols: u32 = match cols {
        Some(c) if c < 4 * u64::from(sg) => 1,
        _ => 4,
    };
    let per_col = cols.map_or(u64::MAX, |c| c.div_ceil(u64::from(tile_cols)));
    let wg = u32::try_from(per_col.min(64))
        .unwrap_or(64)
        .max(1)
        .next_power_of_two()
        .clamp(sg, 64.min(max_inv).max(sg));
    if let Some(tile) = cpu_texel_tile(target, shape, max_inv) {
        return Some(tile);
    }
    let max_rows = (GPU_TILES.accumulators / tile_cols).clamp(1, GPU_TILES.max_rows);
    let mut tile_rows = rows.map_or(max_rows, |r| r.clamp(1, u64::from(max_rows)) as u32);
    let mut tile_cols = tile_cols;
    // On a GPU, smaller tiles where the tiles would be too few to fill the
    // device (rows first, then columns), down to an eighth of the fill
    // (a tile's shared loads are worth more than the last factor of
    // occupancy): the transformer block's 128 x 256 projections took 8
    // workgroups of 16x4 tiles on an H200, 512 invocations for 132
    // multiprocessors.
    if let (Some(fill), Some(points)) = (target.fill_invocations(), shape.static_points()) {
        let want = fill / 8;
        let tiles = |r: u32, c: u32| points.div_ceil(u64::from(r * c));
        while tile_rows > 1 && tiles(tile_rows, tile_cols) < want {
            tile_rows /= 2;
        }
        while tile_cols > 1 && tiles(tile_rows, tile_cols) < want {
            tile_cols /= 2;
        }
    }
    (tile_rows * tile_cols > 1).then_some(RegisterTile {
        workgroup: wg,
        rows: tile_rows,
        cols: tile_cols,
        depth: GPU_TILES.depth,
    })
}

/// A register tile ([`Distribution::Tile`]) and its workgroup size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RegisterTile {
    /// Invocations per workgroup.
    pub workgroup: u32,
    /// The tile's rows.
    pub rows: u32,
    /// The tile's columns.
    pub cols: u32,
    /// Reduction steps per iteration.
    pub depth: u32,
}

impl RegisterTile {
    /// The tile as a distribution.
    pub fn distribution(self) -> Distribution {
        Distribution::Tile {
            rows: self.rows,
            cols: self.cols,
            depth: self.depth,
        }
    }
}

/// Register tiles where the device is a CPU that reads operands as texels
/// (llvmpipe), where every operand fetch is an 8-lane gather and a tile's
/// cost is its fetches: per 4 reduction steps a tile of `r` rows and `c`
/// columns fetches `r` A vectors and `c` B vectors for `4 r c`
/// multiply-adds, so the widest columns (32, 16, 8, then 4: groups of 4
/// adjacent columns, see `kernels/tile.rs`) are taken whose workgroup of
/// at least 8 invocations (llvmpipe's SIMD width) covers the output's
/// columns without padding (else, where none does, with padding of at
/// most a sixteenth of them), with as many rows as
/// [`CPU_TEXEL_TILES`] allows (at most its tall rows), the count
/// from the upper quarter of that range that pads the rows least (ties:
/// the taller), and only where the output still has at least 8 tiles
/// (else the range half as high, while its top is at least 8 rows).
/// `kiln tune` on lavapipe, 5 runs: matmul 1024^3 46.1 ms with 32x4
/// tiles, 36.9 with 16x8, 31.4 with 16x16; 512^3 4.9 ms with 32x4, 3.8
/// with 16x8; conv 1x54x54x64 (3x3x64) 5.8 ms with 16x4, 4.4 with 27x4.
/// Since the tile folds 8 steps per iteration, point by
/// point (medians of 4 interleaved `kiln bench` runs, GPU ms): matmul
/// 1024^3 30.6 with the earlier 16x16 tiles 4 steps deep, 29.2 with
/// 8x32 tiles 8 deep, 25.2 with 16x32, 23.5 with 32x32; 512^3 3.88,
/// 3.66, 3.15, 3.11; conv (27x8 either way) 3.33 -> 3.21.
pub(super) fn cpu_texel_tile(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<RegisterTile> {
    // lavapipe's queried env leaves the device type unknown; its facts
    // say it runs workgroups on CPU threads.
    let cpu = target.env.device.device_type == crate::target::DeviceType::Cpu
        || target.facts.barriers_serialize;
    // Only where the operands can be texels (32-bit elements, or f16
    // stored natively, read through RGBA16F views): the f16 matmul's
    // storage-buffer tiles ran slower taller (12.2 -> 15.1 ms); read as
    // RGBA16F texels (`kiln tune`, 5 runs, matmul 512^3 f16 -> f32) it
    // took 7.5 ms with 16x4 tiles, 5.8 with 16x8, 5.1 with 16x16 (f16 ->
    // f16, bound by its per-step rounding: 76 and 74 ms).
    let f16_texels = super::type_repr::f16_stored_natively(target);
    let texels = shape.elems.iter().all(|e| match e {
        ElemType::F32 | ElemType::Int(32) => true,
        ElemType::F16 => f16_texels,
        _ => false,
    });
    if !cpu || !texels || target.facts.texel_reads.is_none() {
        return None;
    }
    // Rows of dynamic length (a batch or a sequence) take the tallest
    // tile, as a large static output would (lavapipe, ? x 1024 by 1024 x
    // 1024: 45 -> 23 ms at 1,024 rows, 4.8 -> 3.0 at 100, 0.75 -> 0.78
    // at 1, against 16x4 tiles); columns of dynamic length the widest
    // (the kernels move them as vec4 where a multiple of 4 at run time).
    let n = shape.points.len();
    let rows = shape.points[n - 2].fixed();
    let cols = shape.points[n - 1].fixed();
    let points = shape.static_points();
    if rows.is_some_and(|r| r <= 16) {
        return None;
    }
    let pad = |t: u32| rows.map_or(0, |r| r.div_ceil(u64::from(t)) * u64::from(t) - r);
    // A 16-bit float accumulator rounds at every step (about 30 integer
    // operations each): there the loop body of a deep, large tile grows
    // past what its shared fetches save (matmul 512^3 f16 -> f16 on
    // lavapipe: 52 ms with 16x16 tiles 4 deep, 94 with 32x32 tiles 8
    // deep), so such tiles stay at most 256 points, 4 steps deep.
    let rounds = shape
        .acc_elems
        .iter()
        .any(|e| matches!(e, ElemType::F16 | ElemType::BF16));
    let seeds = CPU_TEXEL_TILES;
    let (most, depth, widest) = if rounds {
        let r = seeds.rounding;
        (r.accumulators, r.depth, r.widest)
    } else {
        (seeds.accumulators, seeds.depth, seeds.widest)
    };
    // Columns that no workgroup covers exactly (Magika's convolution,
    // 508 output rows as columns) take, after the exact fits, the first
    // whose padding is at most a sixteenth of the columns: lavapipe,
    // conv 1x256xHx1 by 512x256x5x1 (3 runs, load 14 on 2 cores): 5.3 s
    // and 6.0 s with the GPU's 16x4 tiles at 508 columns, 1.26 s and
    // 1.34 s with 32x32 texel tiles at 512.
    let passes = [false, true]
        .into_iter()
        .filter(|&padded| !padded || cols.is_some());
    for (padded, tile_cols) in passes.flat_map(|p| {
        [32u32, 16, 8, 4]
            .into_iter()
            .filter(|&c| c <= widest)
            .map(move |c| (p, c))
    }) {
        let per_col = cols.map_or(u64::MAX, |c| {
            if padded {
                c.div_ceil(u64::from(tile_cols))
            } else {
                c / u64::from(tile_cols)
            }
        });
        let mut wg = pow2_floor(u32::try_from(per_col.min(64)).unwrap_or(64)).min(max_inv);
        // Rows or columns of dynamic length: workgroups of one SIMD row
        // (8), so that few rows still make several workgroups (lavapipe,
        // ? x 1024 by 1024 x 1024: 1 row 1.39 -> 0.78 ms, 1,024 rows
        // 24.8 -> 23.3 against workgroups of 32).
        if rows.is_none() || cols.is_none() {
            wg = wg.min(seeds.simd);
        }
        let span = u64::from(wg) * u64::from(tile_cols);
        let fits = |c: u64| {
            if padded {
                (c.div_ceil(span) * span - c) * 16 <= c
            } else {
                c % span == 0
            }
        };
        if wg < seeds.simd || cols.is_some_and(|c| !fits(c)) {
            continue;
        }
        let tiles = |r: u32| {
            points.map_or(u64::MAX, |p| {
                p.div_ceil(u64::from(r) * u64::from(wg * tile_cols))
            })
        };
        let mut top = (most / tile_cols).clamp(1, seeds.tall_rows);
        while top >= 8 {
            let best = (top * 3 / 4..=top)
                .filter(|&t| rows.is_none_or(|r| u64::from(t) <= r) && tiles(t) >= 8)
                .min_by_key(|&t| (pad(t), std::cmp::Reverse(t)));
            if let Some(best) = best {
                return Some(RegisterTile {
                    workgroup: wg,
                    rows: best,
                    cols: tile_cols,
                    depth,
                });
            }
            top /= 2;
        }
    }
    None
}

/// Whether a `block_rows` x `block_cols` block staged `depth` steps at a
/// time takes more than half of `memory` bytes double-buffered (the
/// heuristic then prefers it single-buffered).
pub fn double_fills_half(block_rows: u32, block_cols: u32, depth: u32, memory: u32) -> bool {
    let doubled = Distribution::SharedTile {
        block_rows,
        block_cols,
        depth,
        rows: 1,
        cols: 1,
        double: true,
    };
    doubled.shared_tile_bytes() > memory / 2
}

/// The workgroup-memory tiles ([`Distribution::SharedTile`]) a dispatch
/// may take on `target`, the preferred first, with their invocations:
/// none unless the root stages operands on both sides
/// ([`OperandReuse::Staged`](super::OperandReuse): contractions, convolutions and
/// generics written as either), its elements compute in 32 bits, and its reduction
/// (static) fits the loop budget. Each tile fits the target's
/// invocations and workgroup memory, and its staging divides evenly over
/// its invocations. Each block comes double-buffered (preferred where its
/// two stages take at most half the workgroup memory) and
/// single-buffered.
pub(super) fn shared_tiles(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Vec<(u32, Distribution)> {
    if !shape.operands.stages_operands() || !shape.operands.tile_shares_loads() {
        return Vec::new();
    }
    let fits_32 = |e: &ElemType| {
        matches!(e, ElemType::F32 | ElemType::F16 | ElemType::BF16)
            || matches!(e, ElemType::Int(w) if *w <= 32)
    };
    if !shape.elems.iter().all(fits_32) {
        return Vec::new();
    }
    let n = shape.points.len();
    if n < 2 {
        return Vec::new();
    }
    let budget = target.loop_budget();
    let Some(red) = shape.reduction.and_then(|r| r.fixed()).filter(|&r| r > 0) else {
        return Vec::new();
    };
    let (rows, cols) = (shape.points[n - 2].fixed(), shape.points[n - 1].fixed());
    let batch = shape.points[..n - 2]
        .iter()
        .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?));
    let big = match (rows, cols, batch) {
        (Some(r), Some(c), Some(b)) => r >= 128 && c >= 128 && r * c * b >= 2048 * 2048,
        _ => true,
    };
    let small = rows.is_some_and(|r| r < 64) || cols.is_some_and(|c| c < 64);
    let table = if big {
        GPU_SHARED_TILES.big
    } else if small {
        GPU_SHARED_TILES.small
    } else {
        GPU_SHARED_TILES.medium
    };
    let memory = target.env.limits.max_compute_shared_memory_size;
    table
        .iter()
        .flat_map(|seed| {
            let SharedTileSeed {
                block_rows,
                block_cols,
                depth,
                rows: r,
                cols: c,
            } = *seed;
            // Double buffering first, unless the two stages would take more
            // than half the workgroup memory: fewer workgroups then share
            // a compute unit (an H200's 4096^3 matmul: 128x128x16 blocks
            // 4.24 ms double-buffered, 3.79 ms single, in two runs).
            let order = if double_fills_half(block_rows, block_cols, depth, memory) {
                [false, true]
            } else {
                [true, false]
            };
            order.map(|double| Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                rows: r,
                cols: c,
                double,
            })
        })
        .filter_map(|d| {
            let Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                ..
            } = d
            else {
                return None;
            };
            let wg = d.shared_tile_invocations()?;
            let loops = red + red.div_ceil(u64::from(depth));
            (wg <= max_inv
                && (block_rows * depth) % wg == 0
                && (block_cols * depth) % wg == 0
                && d.shared_tile_bytes() <= memory
                && loops <= budget)
                .then_some((wg, d))
        })
        .collect()
}

/// The heuristic's workgroup-memory tile: the first of
/// [`shared_tiles`], or on a GPU whose fill is known
/// ([`CodegenTarget::fill_invocations`]) and a static space, the first
/// whose blocks run half the fill's invocations, else the first that
/// runs an eighth of it (as register tiles are sized), else none (the
/// register tile's finer split fills the device better).
pub(super) fn shared_tile_pick(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<(u32, Distribution)> {
    let all = shared_tiles(target, shape, max_inv);
    if all.is_empty() {
        return None;
    }
    let (Some(fill), Some(_)) = (target.fill_invocations(), shape.static_points()) else {
        return all.first().copied();
    };
    let n = shape.points.len();
    let fixed = |s: &Size| s.fixed().unwrap_or(1);
    let batch: u64 = shape.points[..n - 2].iter().map(fixed).product();
    let (rows, cols) = (fixed(&shape.points[n - 2]), fixed(&shape.points[n - 1]));
    let invocations = |wg: u32, d: &Distribution| match *d {
        Distribution::SharedTile {
            block_rows,
            block_cols,
            ..
        } => {
            batch
                * rows.div_ceil(u64::from(block_rows))
                * cols.div_ceil(u64::from(block_cols))
                * u64::from(wg)
        }
        _ => 0,
    };
    [fill / 2, fill / 8].into_iter().find_map(|want| {
        all.iter()
            .find(|(wg, d)| invocations(*wg, d) >= want)
            .copied()
    })
}

/// The register tiles `kiln tune` may time for a tileable reduction:
/// [`TUNE_TILES`], and where the device is a CPU reading texels that
/// takes deep tiles, [`TUNE_DEEP_CPU_TILES`] at its depth.
pub(super) fn register_tile_candidates(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Vec<(u32, Distribution)> {
    let deep: &[TileSeed] = match cpu_texel_tile(target, shape, max_inv) {
        Some(t) if t.depth > TILE_DEPTH => TUNE_DEEP_CPU_TILES,
        _ => &[],
    };
    let with_depth = |list: &[TileSeed], depth: u32| {
        list.iter()
            .map(move |t| {
                let dist = Distribution::Tile {
                    rows: t.rows,
                    cols: t.cols,
                    depth,
                };
                (t.workgroup, dist)
            })
            .collect::<Vec<_>>()
    };
    let mut out = with_depth(TUNE_TILES, TILE_DEPTH);
    out.extend(with_depth(deep, CPU_TEXEL_TILES.depth));
    out
}
