//! `tensor.extract_slice` and `tensor.insert_slice`.

use super::super::value::{Tensor, Value};
use super::super::{EvalError, Interp};
use super::{for_each_index, one_tensor};
use crate::tensor::attr::Mixed;
use crate::tensor::entity::TOp;
use crate::tensor::types::Dim;

impl Interp<'_> {
    /// `tensor.extract_slice` and (`insert`) `tensor.insert_slice`.
    pub(super) fn slice(
        &self,
        op: TOp,
        env: &[Option<Value>],
        insert: bool,
        [offsets, sizes, steps]: [&[Mixed]; 3],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let full = self.tensor_arg(op, env, ops[usize::from(insert)])?;
        let mut dynamic = ops[1 + usize::from(insert)..].iter();
        let o = self.mixed(op, env, offsets, &mut dynamic)?;
        let sz = self.mixed(op, env, sizes, &mut dynamic)?;
        let stp = self.mixed(op, env, steps, &mut dynamic)?;
        let rank = full.shape.len();
        let mut slice_shape = Vec::with_capacity(rank);
        for d in 0..rank {
            let (off, size, step) = (o[d], sz[d], stp[d]);
            if off < 0 || size < 0 {
                return Err(EvalError::at(
                    m,
                    op,
                    format!("negative offset or size along dimension {d}"),
                ));
            }
            if size > 0 && off as i128 + (size as i128 - 1) * step as i128 >= full.shape[d] as i128
            {
                return Err(EvalError::at(m, op, format!(
                    "slice along dimension {d} runs out of bounds: offset {off} + (size {size} - 1) * stride {step} >= dimension size {}",
                    full.shape[d]
                )));
            }
            if size > 0 && off as i128 + (size as i128 - 1) * (step as i128) < 0 {
                return Err(EvalError::at(
                    m,
                    op,
                    format!("slice along dimension {d} reaches a negative index"),
                ));
            }
            slice_shape.push(size as usize);
        }
        let fst = full.strides();
        // Element positions of the slice in row-major order (the
        // order does not depend on dropped unit dims).
        let mut positions = Vec::new();
        for_each_index(&slice_shape, |idx| {
            let p: usize = (0..rank)
                .map(|d| (o[d] + idx[d] as i64 * stp[d]) as usize * fst[d])
                .sum();
            positions.push(p);
            Ok(())
        })?;
        if insert {
            let src = self.tensor_arg(op, env, ops[0])?;
            if src.len() != positions.len() {
                return Err(EvalError::at(
                    m,
                    op,
                    format!(
                        "source has {} elements, the slice {}",
                        src.len(),
                        positions.len()
                    ),
                ));
            }
            let mut out = (*full).clone();
            for (k, &p) in positions.iter().enumerate() {
                out.data.copy_from(p, &src.data, k);
            }
            one_tensor(out)
        } else {
            let r = result.ok_or_else(|| EvalError::at(m, op, "expects a result"))?;
            let want = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
            let shape = reduced_shape(&slice_shape, sizes, &want);
            one_tensor(Tensor {
                elem: full.elem,
                shape,
                data: full.data.gather(&positions),
            })
        }
    }
}

/// The result shape of a (possibly rank-reducing) slice: `sizes` with the
/// unit dims the result type drops removed (the first assignment, left to
/// right, that fits the result type).
fn reduced_shape(sizes: &[usize], written: &[Mixed], want: &[Dim]) -> Vec<usize> {
    fn fit(sizes: &[usize], written: &[Mixed], want: &[Dim], out: &mut Vec<usize>) -> bool {
        let Some((&n, rest)) = sizes.split_first() else {
            return want.is_empty();
        };
        let w_rest = written.get(1..).unwrap_or(&[]);
        if let Some((&d, want_rest)) = want.split_first() {
            if d.fixed().is_none_or(|s| s as usize == n) {
                out.push(n);
                if fit(rest, w_rest, want_rest, out) {
                    return true;
                }
                out.pop();
            }
        }
        written.first() == Some(&Mixed::Static(1)) && fit(rest, w_rest, want, out)
    }
    let mut out = Vec::with_capacity(want.len());
    if fit(sizes, written, want, &mut out) {
        out
    } else {
        sizes.to_vec()
    }
}
