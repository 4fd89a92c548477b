//! Tensor layouts: shape, strides and offset, in elements, over a buffer.
//!
//! A view (reshape, narrow, transpose, permute) is a new [`Layout`] over the
//! same buffer; no data moves. Strides are non-negative. A layout is
//! *contiguous* when its elements are the row-major enumeration of
//! `offset .. offset + numel` (strides of size-1 dimensions do not matter).

use crate::error::{Error, Result};

/// Where a tensor's elements are in its buffer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Extent of each dimension.
    pub shape: Vec<usize>,
    /// Elements between neighbours along each dimension.
    pub strides: Vec<usize>,
    /// The first element's index in the buffer.
    pub offset: usize,
}

impl Layout {
    /// The row-major layout of `shape` at offset 0.
    pub fn contiguous(shape: &[usize]) -> Self {
        let mut strides = vec![0; shape.len()];
        let mut acc = 1usize;
        for (s, &n) in strides.iter_mut().zip(shape).rev() {
            *s = acc;
            acc = acc.saturating_mul(n);
        }
        Self {
            shape: shape.to_vec(),
            strides,
            offset: 0,
        }
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the elements are `offset .. offset + numel` in row-major
    /// order.
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1usize;
        for (&n, &s) in self.shape.iter().zip(&self.strides).rev() {
            if n != 1 && s != expected {
                return false;
            }
            expected = expected.saturating_mul(n);
        }
        true
    }

    /// The buffer indices the view touches, `start..end` (empty for an
    /// empty tensor).
    pub fn span(&self) -> std::ops::Range<usize> {
        if self.numel() == 0 {
            return self.offset..self.offset;
        }
        let last: usize = self
            .shape
            .iter()
            .zip(&self.strides)
            .map(|(&n, &s)| (n - 1) * s)
            .sum();
        self.offset..self.offset + last + 1
    }

    /// The same elements with shape `shape` (same element count); only for
    /// contiguous layouts (anything else needs a copy).
    pub fn reshape(&self, shape: &[usize]) -> Result<Self> {
        let numel: usize = shape.iter().product();
        if numel != self.numel() {
            return Err(Error::Shape {
                what: "reshape",
                reason: format!(
                    "{:?} has {} elements, {:?} has {numel}",
                    self.shape,
                    self.numel(),
                    shape
                ),
            });
        }
        if !self.is_contiguous() {
            return Err(Error::NotContiguous {
                what: "reshape",
                shape: self.shape.clone(),
                strides: self.strides.clone(),
            });
        }
        Ok(Self {
            offset: self.offset,
            ..Self::contiguous(shape)
        })
    }

    /// Elements `start .. start + len` of dimension `dim`.
    pub fn narrow(&self, dim: usize, start: usize, len: usize) -> Result<Self> {
        let Some(&n) = self.shape.get(dim) else {
            return Err(self.bad_dim("narrow", dim));
        };
        if start.checked_add(len).is_none_or(|end| end > n) {
            return Err(Error::Shape {
                what: "narrow",
                reason: format!("{start}..{start}+{len} is outside dimension {dim} of extent {n}"),
            });
        }
        let mut out = self.clone();
        out.shape[dim] = len;
        if len > 0 {
            out.offset += start * self.strides[dim];
        }
        Ok(out)
    }

    /// Dimensions `a` and `b` swapped.
    pub fn transpose(&self, a: usize, b: usize) -> Result<Self> {
        let rank = self.shape.len();
        for d in [a, b] {
            if d >= rank {
                return Err(self.bad_dim("transpose", d));
            }
        }
        let mut out = self.clone();
        out.shape.swap(a, b);
        out.strides.swap(a, b);
        Ok(out)
    }

    /// Dimension `perm[i]` of `self` becomes dimension `i`.
    pub fn permute(&self, perm: &[usize]) -> Result<Self> {
        let rank = self.shape.len();
        let mut seen = vec![false; rank];
        if perm.len() != rank
            || perm
                .iter()
                .any(|&p| p >= rank || std::mem::replace(&mut seen[p], true))
        {
            return Err(Error::Shape {
                what: "permute",
                reason: format!("{perm:?} is not a permutation of {rank} dimensions"),
            });
        }
        Ok(Self {
            shape: perm.iter().map(|&p| self.shape[p]).collect(),
            strides: perm.iter().map(|&p| self.strides[p]).collect(),
            offset: self.offset,
        })
    }

    /// The layout broadcast to `shape` (numpy's rules, as PyTorch's
    /// `expand`): `shape` has at least this layout's rank; leading new
    /// dimensions and dimensions of extent 1 grown to `n` get stride 0
    /// (every index reads the same elements); the others keep their
    /// extent.
    pub fn expand(&self, shape: &[usize]) -> Result<Self> {
        let rank = self.shape.len();
        let bad = || Error::Shape {
            what: "expand",
            reason: format!("a {:?} tensor cannot be expanded to {shape:?}", self.shape),
        };
        if shape.len() < rank {
            return Err(bad());
        }
        let lead = shape.len() - rank;
        let mut strides = vec![0; lead];
        for (d, (&n, &s)) in self.shape.iter().zip(&self.strides).enumerate() {
            let want = shape[lead + d];
            strides.push(match (n, want) {
                _ if n == want => s,
                (1, _) => 0,
                _ => return Err(bad()),
            });
        }
        Ok(Self {
            shape: shape.to_vec(),
            strides,
            offset: self.offset,
        })
    }

    /// The view's elements as runs of consecutive buffer indices, in
    /// row-major view order: `(first index, length)`. One run for a
    /// contiguous layout.
    pub fn runs(&self) -> Vec<(usize, usize)> {
        let numel = self.numel();
        if numel == 0 {
            return Vec::new();
        }
        if self.is_contiguous() {
            return vec![(self.offset, numel)];
        }
        // Fold the innermost dimensions that are contiguous into one run.
        let rank = self.shape.len();
        let mut inner = 1usize;
        let mut k = rank;
        while k > 0 {
            let d = k - 1;
            if self.shape[d] != 1 && self.strides[d] != inner {
                break;
            }
            inner *= self.shape[d];
            k -= 1;
        }
        let outer = &self.shape[..k];
        let mut runs = Vec::with_capacity(numel / inner.max(1));
        let mut index = vec![0usize; k];
        loop {
            let at: usize = self.offset
                + index
                    .iter()
                    .zip(&self.strides[..k])
                    .map(|(i, s)| i * s)
                    .sum::<usize>();
            match runs.last_mut() {
                Some((start, len)) if *start + *len == at => *len += inner,
                _ => runs.push((at, inner)),
            }
            // Next index, row-major.
            let mut d = k;
            loop {
                if d == 0 {
                    return runs;
                }
                d -= 1;
                index[d] += 1;
                if index[d] < outer[d] {
                    break;
                }
                index[d] = 0;
            }
        }
    }

    fn bad_dim(&self, what: &'static str, dim: usize) -> Error {
        Error::Shape {
            what,
            reason: format!("dimension {dim} of a rank-{} tensor", self.shape.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_move_no_data() {
        let l = Layout::contiguous(&[2, 3, 4]);
        assert_eq!(l.strides, vec![12, 4, 1]);
        assert!(l.is_contiguous());
        assert_eq!(l.runs(), vec![(0, 24)]);
        let t = l.transpose(1, 2).unwrap();
        assert_eq!(
            (t.shape.clone(), t.strides.clone()),
            (vec![2, 4, 3], vec![12, 1, 4])
        );
        assert!(!t.is_contiguous());
        assert!(t.reshape(&[24]).is_err());
        // Element 11 (last of the first matrix) and 12 (first of the next) meet.
        assert_eq!(t.runs().len(), 23);
        assert_eq!(&t.runs()[..4], &[(0, 1), (4, 1), (8, 1), (1, 1)]);
        // A narrowed outer dimension stays contiguous.
        let n = l.narrow(0, 1, 1).unwrap();
        assert!(n.is_contiguous());
        assert_eq!(n.offset, 12);
        assert_eq!(n.reshape(&[3, 4]).unwrap().offset, 12);
        // A narrowed inner dimension is rows of runs.
        let n = l.narrow(2, 1, 2).unwrap();
        assert_eq!(
            n.runs(),
            vec![(1, 2), (5, 2), (9, 2), (13, 2), (17, 2), (21, 2)]
        );
        assert_eq!(n.span(), 1..23);
        let p = l.permute(&[2, 0, 1]).unwrap();
        assert_eq!(p.shape, vec![4, 2, 3]);
        assert!(l.permute(&[0, 0, 1]).is_err());
        assert_eq!(
            l.narrow(1, 2, 2).unwrap_err().to_string(),
            "narrow: 2..2+2 is outside dimension 1 of extent 3"
        );
        assert!(Layout::contiguous(&[3, 1])
            .transpose(0, 1)
            .unwrap()
            .is_contiguous());
    }

    #[test]
    fn expand_gives_stride_zero() {
        let l = Layout::contiguous(&[3, 1]);
        let e = l.expand(&[2, 3, 4]).unwrap();
        assert_eq!(e.strides, vec![0, 1, 0]);
        assert!(!e.is_contiguous());
        // Row-major view order: each element read 4 times, twice over.
        let order: Vec<usize> = e.runs().iter().flat_map(|&(at, n)| at..at + n).collect();
        assert_eq!(order, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2].repeat(2));
        assert!(l.expand(&[3, 2]).is_ok());
        assert!(l.expand(&[4, 2]).is_err());
        assert!(l.expand(&[2]).is_err());
        assert_eq!(l.expand(&[3, 1]).unwrap(), l);
    }
}
