//! Custom assembly of the subgroup MMA ops (`gpu.subgroup_mma_*`, MLIR 19's
//! syntax; the printers `Printer::special_text` dispatches to).

use super::ops::{fits, rest};
use super::Printer;
use crate::kernel::module::KOpData;

impl Printer<'_> {
    /// `gpu.subgroup_mma_load_matrix %m[%i, %j] {leadDimension = N : index}
    /// : memref<...> -> !gpu.mma_matrix<...>`.
    pub(super) fn mma_load_text(&self, d: &KOpData) -> Option<String> {
        let ops = &d.operands;
        fits(!ops.is_empty() && d.results.len() == 1)?;
        Some(format!(
            "{} {}[{}]{} : {} -> {}",
            d.kind.name(),
            self.v(ops[0]),
            self.vs(&ops[1..]),
            rest(d, &[]),
            self.ty(ops[0]),
            self.rty(d, 0)
        ))
    }

    /// `gpu.subgroup_mma_store_matrix %v, %m[%i, %j] {leadDimension = N :
    /// index} : !gpu.mma_matrix<...>, memref<...>`.
    pub(super) fn mma_store_text(&self, d: &KOpData) -> Option<String> {
        let ops = &d.operands;
        fits(ops.len() >= 2 && d.results.is_empty())?;
        Some(format!(
            "{} {}, {}[{}]{} : {}, {}",
            d.kind.name(),
            self.v(ops[0]),
            self.v(ops[1]),
            self.vs(&ops[2..]),
            rest(d, &[]),
            self.ty(ops[0]),
            self.ty(ops[1])
        ))
    }

    /// `gpu.subgroup_mma_compute %a, %b, %c : A, B -> C`.
    pub(super) fn mma_compute_text(&self, d: &KOpData) -> Option<String> {
        let ops = &d.operands;
        fits(ops.len() == 3 && d.results.len() == 1)?;
        Some(format!(
            "{} {}{} : {}, {} -> {}",
            d.kind.name(),
            self.vs(ops),
            rest(d, &[]),
            self.ty(ops[0]),
            self.ty(ops[1]),
            self.rty(d, 0)
        ))
    }

    /// `gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<...>`.
    pub(super) fn mma_constant_text(&self, d: &KOpData) -> Option<String> {
        let ops = &d.operands;
        fits(ops.len() == 1 && d.results.len() == 1)?;
        Some(format!(
            "{} {}{} : {}",
            d.kind.name(),
            self.v(ops[0]),
            rest(d, &[]),
            self.rty(d, 0)
        ))
    }
}
