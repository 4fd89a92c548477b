//! The gathered A of an implicit-GEMM convolution on cooperative
//! matrices (`MatmulLayout::ImplicitGemm`, `strategy/implicit_gemm.rs`):
//! element `[row, kk]` of the `M x K` matrix is the root's input at the
//! loop point whose parallel loops but the last are `row` (row-major over
//! their sizes: `n, oh, ow`), whose reduction loops are `kk` (row-major:
//! `kh, kw, c`), read through the root's input map (`n, oh * sh + kh *
//! dh, ow * sw + kw * dw, c`). The value comes from
//! [`Emitter::elem`](super::emitter::Emitter::elem), as every kernel
//! reads a tensor: a load, or a padding computed in the dispatch. The
//! staged copies of `coop_matmul.rs` store it in workgroup memory.

use crate::codegen::host::Size;
use crate::kernel::KValue;
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;
use crate::tensor::{AffineMap, TOp, TValue};

use super::super::error::{CodegenError, Invariant};
use super::emitter::Emitter;

/// How an implicit GEMM gathers its A (see the module documentation).
pub(super) struct Gather {
    /// The root (for errors and affine maps).
    root: TOp,
    /// The root's input, read at the gathered points.
    input: TValue,
    /// Its element type.
    elem: ElemType,
    /// The root's input map.
    map: AffineMap,
    /// The root's loop count.
    loops: usize,
    /// The parallel loops that make a row (all but the last), and their
    /// sizes.
    row_sizes: Vec<i64>,
    /// The reduction loops that make a column of A, and their sizes.
    red_sizes: Vec<i64>,
}

impl Gather {
    /// The gather of root `root` (structured as `s`, its loops of static
    /// `sizes`), checked by `strategy::implicit_gemm`: parallel loops
    /// first, then the reductions.
    pub(super) fn new(
        e: &Emitter<'_, '_, '_>,
        root: TOp,
        s: &Structured,
        sizes: &[Size],
    ) -> Result<Gather, CodegenError> {
        let mismatch = |what| {
            e.internal(
                root,
                Invariant::PlanMismatch {
                    kernel: "an implicit-GEMM convolution",
                    what,
                },
            )
        };
        let parallel = s.num_loops() - s.reduction_loops().len();
        let fixed: Option<Vec<i64>> = sizes
            .iter()
            .map(|x| x.fixed().and_then(|n| i64::try_from(n).ok()))
            .collect();
        let fixed = fixed.ok_or_else(|| mismatch("dynamic loop sizes"))?;
        if parallel < 2 || fixed.len() != s.num_loops() {
            return Err(mismatch("not a convolution's loops"));
        }
        let input = *s.inputs.first().ok_or_else(|| mismatch("no input"))?;
        Ok(Gather {
            root,
            input,
            elem: e.c.info.m.value_kind(input).elem(),
            map: s.indexing_maps[0].clone(),
            loops: s.num_loops(),
            row_sizes: fixed[..parallel - 1].to_vec(),
            red_sizes: fixed[parallel..].to_vec(),
        })
    }

    /// The coordinates of the root's point at output row `row` (the
    /// parallel loops but the last, in order).
    pub(super) fn row_coords(&self, e: &mut Emitter<'_, '_, '_>, row: KValue) -> Vec<KValue> {
        let sizes: Vec<KValue> = self.row_sizes.iter().map(|&n| e.index(n)).collect();
        e.delinearize(row, &sizes)
    }

    /// Element `[row, kk]` of A (both inside it), in A's memory type
    /// (what workgroup memory holds).
    pub(super) fn raw(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        row: KValue,
        kk: KValue,
    ) -> Result<KValue, CodegenError> {
        let zero = e.index(0);
        let mut point = vec![zero; self.loops];
        let rows = self.row_coords(e, row);
        let sizes: Vec<KValue> = self.red_sizes.iter().map(|&n| e.index(n)).collect();
        let reds = e.delinearize(kk, &sizes);
        let parallel = self.row_sizes.len() + 1;
        point[..rows.len()].copy_from_slice(&rows);
        point[parallel..].copy_from_slice(&reds);
        let coords = self
            .map
            .results
            .iter()
            .map(|x| e.affine(self.root, x, &point))
            .collect::<Result<Vec<_>, _>>()?;
        let x = e.elem(self.input, &coords)?;
        Ok(e.store_conv(x, self.elem))
    }
}
