//! The seed tables of the matmul-like tiles, one named struct per device
//! class (as IREE's `AMDConfig`/`NVIDIAConfig`/`MaliConfig` beside one
//! shared configurator): the heuristic ([`super::tiles`]) sizes a tile
//! from them, `kiln tune` times the candidates they list. Each constant
//! keeps the measurement that set it.

use super::TILE_DEPTH;

/// Register tiles on a GPU (and on any device whose operands are not
/// read as texels).
#[derive(Clone, Copy, Debug)]
pub(super) struct GpuTileConfig {
    /// The most accumulators one invocation's tile holds.
    pub accumulators: u32,
    /// The most rows of a tile: on lavapipe 16x4 tiles ran matmul 512^3
    /// and 1024^3 about 15% faster than 8x4 in one quiet `kiln tune` run
    /// (11.4 vs 13.1 ms, 95 vs 113 ms).
    pub max_rows: u32,
    /// Reduction steps per iteration.
    pub depth: u32,
}

/// The GPU register-tile seeds.
pub(super) const GPU_TILES: GpuTileConfig = GpuTileConfig {
    accumulators: 64,
    max_rows: 16,
    depth: TILE_DEPTH,
};

/// Register tiles where the device is a CPU reading operands as texels
/// (llvmpipe): see `tiles::cpu_texel_tile` for how they are sized and
/// the figures.
#[derive(Clone, Copy, Debug)]
pub(super) struct CpuTexelTileConfig {
    /// The most rows of a tile.
    pub tall_rows: u32,
    /// The most accumulators (16x the GPU's: llvmpipe spills what does
    /// not fit its registers, which costs less there than the operand
    /// fetches a larger tile shares).
    pub accumulators: u32,
    /// Reduction steps per iteration: each accumulator, spilled, is
    /// reloaded and stored once per 8 multiply-adds instead of per 4.
    pub depth: u32,
    /// The widest columns of a tile.
    pub widest: u32,
    /// Where the accumulators are 16-bit floats, rounded at every step
    /// (about 30 integer operations each): the loop body of a deep, large
    /// tile grows past what its shared fetches save (matmul 512^3 f16 ->
    /// f16 on lavapipe: 52 ms with 16x16 tiles 4 deep, 94 with 32x32
    /// tiles 8 deep), so such tiles stay smaller and shallower.
    pub rounding: RoundingTileLimits,
    /// The smallest workgroup (llvmpipe's SIMD width).
    pub simd: u32,
}

/// The limits of CPU texel tiles whose accumulators round at every step.
#[derive(Clone, Copy, Debug)]
pub(super) struct RoundingTileLimits {
    /// The most accumulators.
    pub accumulators: u32,
    /// Reduction steps per iteration.
    pub depth: u32,
    /// The widest columns.
    pub widest: u32,
}

/// The CPU-texel register-tile seeds (llvmpipe).
pub(super) const CPU_TEXEL_TILES: CpuTexelTileConfig = CpuTexelTileConfig {
    tall_rows: 32,
    accumulators: 1024,
    depth: 8,
    widest: 32,
    rounding: RoundingTileLimits {
        accumulators: 256,
        depth: TILE_DEPTH,
        widest: 16,
    },
    simd: 8,
};

/// One workgroup-memory tile: a block of `block_rows` x `block_cols`
/// outputs staged `depth` reduction steps at a time, each invocation
/// computing `rows` x `cols` of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SharedTileSeed {
    /// The block's rows.
    pub block_rows: u32,
    /// The block's columns.
    pub block_cols: u32,
    /// Reduction steps staged at a time.
    pub depth: u32,
    /// Rows per invocation.
    pub rows: u32,
    /// Columns per invocation.
    pub cols: u32,
}

const fn shared(
    block_rows: u32,
    block_cols: u32,
    depth: u32,
    rows: u32,
    cols: u32,
) -> SharedTileSeed {
    SharedTileSeed {
        block_rows,
        block_cols,
        depth,
        rows,
        cols,
    }
}

/// The workgroup-memory tiles of a GPU by output size, the preferred
/// first; each list ends with the smaller tiles that fit envs with fewer
/// invocations or less memory.
#[derive(Clone, Copy, Debug)]
pub(super) struct SharedTileConfig {
    /// Large outputs (at least 2048 x 2048 points, or dynamic).
    pub big: &'static [SharedTileSeed],
    /// The others.
    pub medium: &'static [SharedTileSeed],
    /// Small outputs (fewer than 64 rows or columns).
    pub small: &'static [SharedTileSeed],
}

/// The GPU workgroup-memory tile seeds.
pub(super) const GPU_SHARED_TILES: SharedTileConfig = SharedTileConfig {
    big: &[
        shared(128, 128, 16, 8, 8),
        shared(128, 64, 16, 8, 4),
        shared(64, 64, 16, 4, 4),
        shared(64, 64, 16, 8, 4),
        shared(32, 32, 16, 4, 4),
        shared(16, 16, 16, 2, 2),
        shared(16, 16, 8, 4, 4),
    ],
    medium: &[
        shared(64, 64, 16, 4, 4),
        shared(64, 64, 16, 8, 4),
        shared(128, 64, 16, 8, 4),
        shared(32, 32, 16, 4, 4),
        shared(32, 32, 16, 2, 2),
        shared(16, 16, 16, 2, 2),
        shared(16, 16, 8, 4, 4),
    ],
    small: &[
        shared(32, 32, 16, 2, 2),
        shared(32, 32, 16, 4, 4),
        shared(16, 16, 16, 2, 2),
        shared(16, 16, 8, 4, 4),
        shared(64, 64, 16, 4, 4),
    ],
};

/// A register tile `kiln tune` may time: `rows` x `cols` per invocation,
/// `workgroup` invocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TileSeed {
    /// Invocations per workgroup.
    pub workgroup: u32,
    /// Rows per invocation.
    pub rows: u32,
    /// Columns per invocation.
    pub cols: u32,
}

const fn tile(workgroup: u32, rows: u32, cols: u32) -> TileSeed {
    TileSeed {
        workgroup,
        rows,
        cols,
    }
}

/// The register tiles the tuner times for any tileable reduction, at
/// [`TILE_DEPTH`] steps.
pub(super) const TUNE_TILES: &[TileSeed] = &[
    tile(64, 8, 4),
    tile(64, 4, 4),
    tile(32, 8, 4),
    tile(64, 4, 8),
    tile(64, 8, 2),
    tile(16, 8, 4),
    tile(64, 2, 8),
    tile(128, 4, 4),
    tile(64, 16, 4),
    tile(32, 16, 4),
    tile(16, 16, 4),
    tile(64, 2, 4),
    tile(64, 1, 4),
    tile(128, 2, 4),
    // Wider tiles (groups of 4 columns): what a CPU reading texels takes
    // for 16-bit float accumulators (see `tiles::cpu_texel_tile`).
    tile(64, 16, 8),
    tile(32, 16, 8),
    tile(64, 32, 8),
    tile(64, 16, 16),
    tile(32, 16, 16),
    tile(64, 12, 16),
    tile(64, 8, 16),
];

/// Deeper steps ([`CPU_TEXEL_TILES`]' depth) and larger tiles the tuner
/// times where the device is a CPU reading texels that takes deep tiles.
pub(super) const TUNE_DEEP_CPU_TILES: &[TileSeed] = &[
    tile(32, 32, 32),
    tile(32, 16, 32),
    tile(64, 32, 16),
    tile(64, 16, 16),
    tile(32, 16, 16),
    tile(64, 32, 8),
    tile(8, 27, 8),
    tile(8, 18, 8),
];
