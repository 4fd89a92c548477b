//! numpy broadcasting: the result shape of several operands, and each
//! operand seen without its broadcast dimensions (a view, no copy), with
//! the loop indices that address it.

use crate::error::Result;
use crate::tensor::Tensor;

use super::text::{dyn_ty, map, shape_error, Operand};

/// The shape `shapes` broadcast to (numpy's rules: dimensions aligned from
/// the right; sizes equal, or one of them 1), or an error naming `op` and
/// the first dimension that does not fit.
pub fn broadcast_shapes(op: &'static str, shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; rank];
    for s in shapes {
        let offset = rank - s.len();
        for (j, &n) in s.iter().enumerate() {
            let o = &mut out[offset + j];
            if *o == 1 {
                *o = n;
            } else if n != 1 && n != *o {
                let list: Vec<String> = shapes.iter().map(|s| format!("{s:?}")).collect();
                return Err(shape_error(
                    op,
                    format!(
                        "shapes {} do not broadcast: dimension {} (from the left of the result) is {} in one and {n} in another",
                        list.join(" and "),
                        offset + j,
                        *o
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// Operands broadcast to one shape.
pub(crate) struct Plan {
    /// The result shape.
    pub(crate) shape: Vec<usize>,
    /// Each operand without its broadcast dimensions (contiguous; the
    /// dimensions of stride 0 of an expanded view count as broadcast).
    pub(crate) views: Vec<Tensor>,
    /// For each operand, the loop index of each of its view's dimensions.
    pub(crate) dims: Vec<Vec<usize>>,
}

impl Plan {
    /// Broadcasts `tensors`.
    pub(crate) fn new(op: &'static str, tensors: &[&Tensor]) -> Result<Plan> {
        let shapes: Vec<&[usize]> = tensors.iter().map(|t| t.shape()).collect();
        let shape = broadcast_shapes(op, &shapes)?;
        let rank = shape.len();
        // The result dimensions some operand reads along (not broadcast,
        // not of stride 0): the program takes their sizes from it.
        let mut given = vec![false; rank];
        for t in tensors {
            let offset = rank - t.shape().len();
            for (j, (&n, &st)) in t.shape().iter().zip(t.strides()).enumerate() {
                given[offset + j] |= n == shape[offset + j] && (st != 0 || n == 1);
            }
        }
        let mut views = Vec::with_capacity(tensors.len());
        let mut dims = Vec::with_capacity(tensors.len());
        for t in tensors {
            // A dimension of stride 0 (`Tensor::expand`) another operand
            // gives is a broadcast one: read once, not copied out.
            let mut t = (*t).clone();
            let offset = rank - t.shape().len();
            for j in 0..t.shape().len() {
                if t.strides()[j] == 0 && t.shape()[j] > 1 && given[offset + j] {
                    t = t.narrow(j, 0, 1)?;
                }
            }
            let mut kept_sizes = Vec::new();
            let mut kept = Vec::new();
            for (j, &n) in t.shape().iter().enumerate() {
                if n == shape[offset + j] {
                    kept_sizes.push(n);
                    kept.push(offset + j);
                }
            }
            views.push(t.contiguous()?.reshape(&kept_sizes)?);
            dims.push(kept);
        }
        Ok(Plan { shape, views, dims })
    }

    /// The program type of operand `i`: every dimension dynamic (the
    /// shape class is the rank and which dimensions broadcast).
    pub(crate) fn ty(&self, i: usize) -> String {
        dyn_ty(self.views[i].shape().len(), self.views[i].dtype().name())
    }

    /// Operand `i` as a `linalg.generic` input named `value`.
    pub(crate) fn operand(&self, i: usize, value: String) -> Operand {
        Operand {
            value,
            ty: self.ty(i),
            elem: self.views[i].dtype().name().to_owned(),
            map: map(self.shape.len(), &self.dims[i]),
        }
    }

    /// The operand and its dimension that give result dimension `d` (one
    /// that is not broadcast there; numpy's rules make one exist).
    pub(crate) fn source(&self, d: usize) -> Option<(usize, usize)> {
        self.dims
            .iter()
            .enumerate()
            .find_map(|(i, dims)| dims.iter().position(|&x| x == d).map(|j| (i, j)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_rules() {
        let s = |a: &[usize], b: &[usize]| broadcast_shapes("t", &[a, b]);
        assert_eq!(s(&[2, 3], &[3]).unwrap(), vec![2, 3]);
        assert_eq!(s(&[4, 1, 5], &[3, 1]).unwrap(), vec![4, 3, 5]);
        assert_eq!(s(&[], &[2]).unwrap(), vec![2]);
        assert_eq!(s(&[0, 1], &[1, 7]).unwrap(), vec![0, 7]);
        let e = s(&[2, 3], &[4, 3]).unwrap_err().to_string();
        assert!(
            e.contains("do not broadcast") && e.contains("dimension 0"),
            "{e}"
        );
    }
}
