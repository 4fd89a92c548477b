//! `tensor.extract_slice` and `tensor.insert_slice`.

use super::super::{compatible, Verifier};
use super::Parts;
use crate::tensor::attr::Mixed;
use crate::tensor::ops::TensorOp;
use crate::tensor::types::Dim;

impl Verifier<'_> {
    /// `tensor.extract_slice` and `tensor.insert_slice` (`t`).
    pub(super) fn slice(
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
        [offsets, sizes, strides]: [&[Mixed]; 3],
    ) {
        let insert = matches!(t, TensorOp::InsertSlice { .. });
        let first_dyn = if insert { 2 } else { 1 };
        // The tensor the slice is taken from / inserted into.
        let (full, full_elem) = if insert {
            match ops.get(1).and_then(|&v| self.tensor_shape(v)) {
                Some(s) => s,
                None => {
                    self.error(op, "expected a tensor destination");
                    return;
                }
            }
        } else {
            (sshape.clone(), selem)
        };
        let rank = full.len();
        for (what, list) in [("offset", offsets), ("size", sizes), ("stride", strides)] {
            if list.len() != rank {
                self.error(
                    op,
                    format!("expected {rank} {what} values, got {}", list.len()),
                );
                return;
            }
        }
        let n_dyn = Mixed::count_dynamic(offsets)
            + Mixed::count_dynamic(sizes)
            + Mixed::count_dynamic(strides);
        if ops.len() != first_dyn + n_dyn {
            self.error(
                op,
                format!(
                    "expected {n_dyn} dynamic offset/size/stride operands, got {}",
                    ops.len().saturating_sub(first_dyn)
                ),
            );
            return;
        }
        if !self.all_index(op, &ops[first_dyn..]) {
            return;
        }
        let inferred: Vec<Dim> = sizes
            .iter()
            .map(|s| match s {
                Mixed::Static(v) => Dim::Static((*v).max(0) as u64),
                Mixed::Dynamic => Dim::Dynamic,
            })
            .collect();
        let (slice, slice_elem, slice_ty) = if insert {
            (sshape.clone(), selem, ops[0])
        } else {
            (rshape.clone(), relem, result.unwrap_or(ops[0]))
        };
        if slice_elem != full_elem || !rank_reduced_match(&inferred, &slice) {
            self.error(op, format!(
                "expected {} to be a (rank-reduced) slice of sizes [{}] with element type {full_elem}",
                self.vty(slice_ty),
                inferred.iter().map(|d| d.fixed().map_or("?".to_string(), |n| n.to_string())).collect::<Vec<_>>().join(", ")
            ));
            return;
        }
        for d in 0..rank {
            let (o, s, st) = (offsets[d], sizes[d], strides[d]);
            for (what, m) in [("offset", o), ("size", s)] {
                if let Mixed::Static(v) = m {
                    if v < 0 {
                        self.error(op, format!("{what} {v} along dimension {d} is negative"));
                        return;
                    }
                }
            }
            if let (Mixed::Static(o), Mixed::Static(s), Mixed::Static(st), Some(n)) =
                (o, s, st, full[d].fixed())
            {
                if s > 0 && o as i128 + (s as i128 - 1) * st as i128 >= n as i128 {
                    self.error(op, format!(
                        "slice along dimension {d} runs out of bounds: offset {o} + (size {s} - 1) * stride {st} >= dimension size {n}"
                    ));
                    return;
                }
            }
        }
        if insert {
            if let Some(r) = result {
                if self.m.value_type(r) != self.m.value_type(ops[1]) {
                    self.error(op, "expected the result type to be the destination type");
                }
            }
        }
    }
}

/// Whether `result` is `inferred` with some static unit dims dropped (or
/// equal, where both are static).
fn rank_reduced_match(inferred: &[Dim], result: &[Dim]) -> bool {
    let Some((&d, rest)) = inferred.split_first() else {
        return result.is_empty();
    };
    let keep = result.split_first().is_some_and(|(&r, result_rest)| {
        compatible(&[d], &[r]) && rank_reduced_match(rest, result_rest)
    });
    keep || (d == Dim::Static(1) && rank_reduced_match(rest, result))
}
