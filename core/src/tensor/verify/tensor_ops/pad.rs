//! `tensor.pad`.

use super::super::Verifier;
use super::Parts;
use crate::tensor::attr::Mixed;
use crate::tensor::types::{ElemType, TypeKind};

impl Verifier<'_> {
    /// `tensor.pad`.
    pub(super) fn pad(
        &mut self,
        Parts {
            op,
            data,
            ops,
            rshape,
            relem,
            sshape,
            selem,
            ..
        }: Parts<'_>,
        low: &[Mixed],
        high: &[Mixed],
    ) {
        let rank = sshape.len();
        if low.len() != rank || high.len() != rank || rshape.len() != rank || selem != relem {
            self.error(op, format!("expected {rank} low and high padding values and a result of the source's rank and element type"));
            return;
        }
        if ops.len() != 1 + Mixed::count_dynamic(low) + Mixed::count_dynamic(high)
            || !self.all_index(op, &ops[1..])
        {
            self.error(op, "expected one index operand per dynamic padding amount");
            return;
        }
        for d in 0..rank {
            if let (Some(n), Mixed::Static(l), Mixed::Static(h)) =
                (sshape[d].fixed(), low[d], high[d])
            {
                if l < 0 || h < 0 {
                    self.error(op, "padding amounts must be non-negative");
                    return;
                }
                if let Some(r) = rshape[d].fixed() {
                    if r != n + l as u64 + h as u64 {
                        self.error(
                            op,
                            format!(
                                "expected result dimension {d} to be {}, but found {r}",
                                n + l as u64 + h as u64
                            ),
                        );
                        return;
                    }
                }
            }
        }
        if let Some(&region) = data.regions.first() {
            let args = self.m.block(region).args.clone();
            let idx_args = args.len() == rank
                && args
                    .iter()
                    .all(|&a| self.m.value_kind(a) == &TypeKind::Scalar(ElemType::Index));
            if !idx_args {
                self.error(
                    op,
                    format!("expected the region to have {rank} index arguments"),
                );
                return;
            }
            if let Some(&last) = self.m.block(region).ops.last() {
                let y = self.m.op(last).operands.clone();
                if y.len() != 1 || self.m.value_kind(y[0]) != &TypeKind::Scalar(selem) {
                    self.error(op, format!("expected the region to yield one {selem}"));
                }
            }
        } else {
            self.error(op, "expected a region");
        }
    }
}
