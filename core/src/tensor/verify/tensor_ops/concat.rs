//! `tensor.concat`.

use super::super::{compatible, Verifier};
use super::Parts;

impl Verifier<'_> {
    /// `tensor.concat` along `dim`.
    pub(super) fn concat(
        &mut self,
        Parts {
            op,
            ops,
            result,
            rshape,
            relem,
            ..
        }: Parts<'_>,
        dim: &u64,
    ) {
        let rank = rshape.len();
        if *dim as usize >= rank {
            self.error(
                op,
                format!("concatenation dim must be less than the tensor rank ({rank}), got {dim}"),
            );
            return;
        }
        let mut sum: Option<u64> = Some(0);
        for &v in ops {
            let Some((s, e)) = self.tensor_shape(v) else {
                self.error(op, "expected tensor operands");
                return;
            };
            if s.len() != rank || e != relem {
                self.error(
                    op,
                    format!(
                        "operand {} does not have the result's rank and element type",
                        self.vty(v)
                    ),
                );
                return;
            }
            for d in 0..rank {
                if d == *dim as usize {
                    sum = sum.and_then(|acc| Some(acc + s[d].fixed()?));
                } else if !compatible(&[s[d]], &[rshape[d]]) {
                    self.error(op, format!("static concatenation size mismatch along non-concatenated dimension {d}"));
                    return;
                }
            }
        }
        if let (Some(total), Some(r)) = (sum, rshape[*dim as usize].fixed()) {
            if total != r {
                self.error(
                    op,
                    format!(
                        "result type {} does not match inferred shape (dimension {dim} is {total})",
                        result.map(|r| self.vty(r)).unwrap_or_default()
                    ),
                );
            }
        }
        if ops.is_empty() {
            self.error(op, "requires at least one input");
        }
    }
}
