//! The sizes a kernel plan carries for its family: a register tile
//! ([`TileDims`]), a workgroup-memory tile ([`SharedDims`]), a
//! cooperative-matrix grid ([`CoopDims`]) and the slices of a split-K
//! ([`Slices`]). The kernels (`codegen/kernels/`) read them and decide
//! nothing about them.

use super::super::{CoopStaging, Distribution};

/// A register tile's shape (see [`Distribution::Tile`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TileDims {
    /// Rows of the tile.
    pub rows: u32,
    /// Columns of the tile.
    pub cols: u32,
    /// Reduction steps per iteration (a multiple of 4).
    pub depth: u32,
}

/// The sizes of a workgroup-memory tile (see [`Distribution::SharedTile`]):
/// a `bm` x `bn` block per workgroup staged `bk` deep, a `tm` x `tn`
/// register tile per invocation of `wg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SharedDims {
    /// Rows of the block.
    pub bm: u32,
    /// Columns of the block.
    pub bn: u32,
    /// Reduction iterations per staged step.
    pub bk: u32,
    /// Rows of an invocation's register tile.
    pub tm: u32,
    /// Columns of an invocation's register tile.
    pub tn: u32,
    /// Invocations per workgroup.
    pub wg: u32,
    /// Two staging buffers, one step loaded while the other is folded.
    pub double: bool,
}

impl SharedDims {
    /// The sizes of `d` run by `wg` invocations, if consistent: the
    /// block a whole number of register tiles, one per invocation, and
    /// both staged blocks a whole number of elements per invocation.
    pub(crate) fn of(d: Distribution, wg: u32) -> Option<SharedDims> {
        let Distribution::SharedTile {
            block_rows: bm,
            block_cols: bn,
            depth: bk,
            rows: tm,
            cols: tn,
            double,
        } = d
        else {
            return None;
        };
        let ok = [bm, bn, bk, tm, tn, wg].iter().all(|&x| x > 0)
            && bm % tm == 0
            && bn % tn == 0
            && (bm / tm) * (bn / tn) == wg
            && (bm * bk) % wg == 0
            && (bn * bk) % wg == 0;
        ok.then_some(SharedDims {
            bm,
            bn,
            bk,
            tm,
            tn,
            wg,
            double,
        })
    }

    /// What a workgroup computes, in words (`--explain`).
    pub(crate) fn text(&self) -> String {
        format!(
            "a {}x{} block per workgroup staged {} deep in workgroup memory{}, a {}x{} register tile per invocation",
            self.bm,
            self.bn,
            self.bk,
            if self.double { " (double-buffered)" } else { "" },
            self.tm,
            self.tn
        )
    }
}

/// The sizes of a cooperative-matrix kernel (the fields of
/// [`Distribution::CoopMatrix`]) and what it stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CoopDims {
    /// Rows of a tile (the env's `m_size`).
    pub m: u32,
    /// Columns of a tile (`n_size`).
    pub n: u32,
    /// Reduction iterations per multiply-add (`k_size`).
    pub k: u32,
    /// Tiles per subgroup: rows x columns.
    pub tiles: [u32; 2],
    /// Subgroups per workgroup: rows x columns.
    pub subgroups: [u32; 2],
    /// What goes through workgroup memory.
    pub staging: CoopStaging,
}

impl CoopDims {
    /// Rows and columns of the output block a workgroup computes.
    pub(crate) fn block(&self) -> [u64; 2] {
        [
            u64::from(self.m) * u64::from(self.tiles[0]) * u64::from(self.subgroups[0]),
            u64::from(self.n) * u64::from(self.tiles[1]) * u64::from(self.subgroups[1]),
        ]
    }
}

/// The slices of a split tile kernel (see
/// [`ReductionStrategy::SplitK`](super::super::ReductionStrategy::SplitK)).
#[derive(Clone, Debug)]
pub(crate) struct Slices {
    /// The number of slices.
    pub count: u32,
    /// Reduction iterations per slice (the last takes what remains).
    pub len: u64,
    /// The partial results' scratch buffers, one per root output.
    pub partials: Vec<usize>,
}
