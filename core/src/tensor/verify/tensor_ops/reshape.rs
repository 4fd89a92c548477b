//! `tensor.collapse_shape` and `tensor.expand_shape`.

use super::super::Verifier;
use super::Parts;
use crate::tensor::attr::Mixed;
use crate::tensor::ops::TensorOp;
use crate::tensor::types::Dim;

impl Verifier<'_> {
    /// `tensor.collapse_shape` and `tensor.expand_shape` (`t`).
    pub(super) fn reshape(
        &mut self,
        Parts {
            op,
            ops,
            result,
            rshape,
            relem,
            sshape,
            selem,
            ..
        }: Parts<'_>,
        t: &TensorOp,
        reassociation: &[Vec<u64>],
    ) {
        let expand = matches!(t, TensorOp::ExpandShape { .. });
        let (big, small) = if expand {
            (&rshape, &sshape)
        } else {
            (&sshape, &rshape)
        };
        if selem != relem {
            self.error(op, "expected the same element type");
            return;
        }
        if reassociation.is_empty() && small.is_empty() {
            // To or from a rank-0 tensor: every other dim is a unit dim.
            if big.iter().any(|d| *d != Dim::Static(1)) {
                self.error(
                    op,
                    format!(
                    "expected every dimension of {} to be 1 to reshape from or to a rank-0 tensor",
                    self.vty(if expand { result.unwrap_or(ops[0]) } else { ops[0] })
                ),
                );
            }
            return;
        }
        let flat: Vec<u64> = reassociation.iter().flatten().copied().collect();
        let contiguous = flat.iter().enumerate().all(|(i, &d)| d == i as u64)
            && flat.len() == big.len()
            && reassociation.iter().all(|g| !g.is_empty());
        if !contiguous || reassociation.len() != small.len() {
            self.error(
                op,
                format!(
                    "reassociation {reassociation:?} does not map {} dims onto {} dims",
                    big.len(),
                    small.len()
                ),
            );
            return;
        }
        for (i, g) in reassociation.iter().enumerate() {
            let dims: Vec<Dim> = g.iter().map(|&d| big[d as usize]).collect();
            let product = dims
                .iter()
                .try_fold(1u64, |acc, d| d.fixed().and_then(|n| acc.checked_mul(n)));
            match (product, small[i].fixed()) {
                (Some(p), Some(s)) if p != s => {
                    self.error(
                        op,
                        format!(
                            "expected dimension {i} of collapsed type to be static value of {p}"
                        ),
                    );
                    return;
                }
                (Some(_), None) if !expand => {
                    self.error(
                        op,
                        format!("expected dimension {i} of the collapsed type to be static"),
                    );
                    return;
                }
                (None, Some(_)) if !expand || dims.len() == 1 => {
                    self.error(op, format!(
                        "expected dimension {i} of the collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic"
                    ));
                    return;
                }
                _ => {}
            }
        }
        if let TensorOp::ExpandShape { output_shape, .. } = t {
            if output_shape.len() != rshape.len() {
                self.error(
                    op,
                    format!(
                        "expected {} output_shape entries, got {}",
                        rshape.len(),
                        output_shape.len()
                    ),
                );
                return;
            }
            if ops.len() != 1 + Mixed::count_dynamic(output_shape) || !self.all_index(op, &ops[1..])
            {
                self.error(
                    op,
                    "expected one index operand per dynamic output_shape entry",
                );
                return;
            }
            for (i, (m, d)) in output_shape.iter().zip(&rshape).enumerate() {
                let ok = match (m, d) {
                    (Mixed::Static(v), Dim::Static(n)) => *v >= 0 && *v as u64 == *n,
                    (Mixed::Dynamic, Dim::Dynamic) => true,
                    _ => false,
                };
                if !ok {
                    self.error(
                        op,
                        format!(
                            "output_shape entry {i} does not match the result type {}",
                            result.map(|r| self.vty(r)).unwrap_or_default()
                        ),
                    );
                    return;
                }
            }
        }
    }
}
