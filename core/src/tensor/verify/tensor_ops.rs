//! `tensor` ops.

use super::{compatible, Verifier};
use crate::tensor::attr::Mixed;
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType, TypeKind};

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

impl Verifier<'_> {
    fn tensor_shape(&self, v: TValue) -> Option<(Vec<Dim>, ElemType)> {
        match self.m.value_kind(v) {
            TypeKind::Tensor { shape, elem } => Some((shape.clone(), *elem)),
            _ => None,
        }
    }

    fn all_index(&mut self, op: TOp, values: &[TValue]) -> bool {
        for &v in values {
            if self.m.value_kind(v) != &TypeKind::Scalar(ElemType::Index) {
                self.error(op, format!("expected index operands, got {}", self.vty(v)));
                return false;
            }
        }
        true
    }

    pub(crate) fn tensor_op(&mut self, op: TOp) {
        let data = self.m.op(op).clone();
        let OpKind::Tensor(t) = &data.kind else {
            return;
        };
        let ops = &data.operands;
        let result = data.results.first().copied();
        let res = result.and_then(|r| self.tensor_shape(r));
        let need_tensor_result = !matches!(t, TensorOp::Dim | TensorOp::Extract);
        if need_tensor_result && res.is_none() {
            self.error(op, "expected a tensor result");
            return;
        }
        let src = ops.first().and_then(|&v| self.tensor_shape(v));
        let needs_src = !matches!(
            t,
            TensorOp::Empty | TensorOp::Splat | TensorOp::FromElements | TensorOp::Insert
        );
        if needs_src && src.is_none() {
            self.error(
                op,
                format!(
                    "expected a tensor operand, got {}",
                    ops.first().map(|&v| self.vty(v)).unwrap_or_default()
                ),
            );
            return;
        }
        let (rshape, relem) = res.clone().unwrap_or((vec![], ElemType::F32));
        let (sshape, selem) = src.clone().unwrap_or((vec![], ElemType::F32));
        match t {
            TensorOp::Empty => {
                let dynamic = rshape.iter().filter(|d| **d == Dim::Dynamic).count();
                if ops.len() != dynamic {
                    self.error(
                        op,
                        format!(
                            "incorrect number of dynamic sizes, has {}, expected {dynamic}",
                            ops.len()
                        ),
                    );
                    return;
                }
                self.all_index(op, ops);
            }
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides,
            }
            | TensorOp::InsertSlice {
                offsets,
                sizes,
                strides,
            } => {
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
                                self.error(
                                    op,
                                    format!("{what} {v} along dimension {d} is negative"),
                                );
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
            TensorOp::CollapseShape { reassociation }
            | TensorOp::ExpandShape { reassociation, .. } => {
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
                        self.error(op, format!(
                            "expected every dimension of {} to be 1 to reshape from or to a rank-0 tensor",
                            self.vty(if expand { result.unwrap_or(ops[0]) } else { ops[0] })
                        ));
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
                                format!(
                                    "expected dimension {i} of the collapsed type to be static"
                                ),
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
                    if ops.len() != 1 + Mixed::count_dynamic(output_shape)
                        || !self.all_index(op, &ops[1..])
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
            TensorOp::Pad { low, high, .. } => {
                let rank = sshape.len();
                if low.len() != rank || high.len() != rank || rshape.len() != rank || selem != relem
                {
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
            TensorOp::Cast => {
                if selem != relem || !compatible(&sshape, &rshape) {
                    self.error(
                        op,
                        format!(
                            "operand type {} and result type {} are cast incompatible",
                            self.vty(ops[0]),
                            result.map(|r| self.vty(r)).unwrap_or_default()
                        ),
                    );
                }
            }
            TensorOp::Dim => {
                if ops.len() != 2 {
                    self.error(op, "expected a tensor and an index");
                    return;
                }
                self.all_index(op, &ops[1..]);
            }
            TensorOp::Extract => {
                if ops.len() != 1 + sshape.len() {
                    self.error(
                        op,
                        format!(
                            "incorrect number of indices for extract_element (expected {})",
                            sshape.len()
                        ),
                    );
                    return;
                }
                if !self.all_index(op, &ops[1..]) {
                    return;
                }
                if let Some(r) = result {
                    if self.m.value_kind(r) != &TypeKind::Scalar(selem) {
                        self.error(op, "expected the result to be the element type");
                    }
                }
            }
            TensorOp::Insert => {
                let Some((dshape, delem)) = ops.get(1).and_then(|&v| self.tensor_shape(v)) else {
                    self.error(op, "expected a tensor destination");
                    return;
                };
                if ops.len() != 2 + dshape.len() {
                    self.error(
                        op,
                        format!("incorrect number of indices (expected {})", dshape.len()),
                    );
                    return;
                }
                if !self.all_index(op, &ops[2..]) {
                    return;
                }
                if self.m.value_kind(ops[0]) != &TypeKind::Scalar(delem) {
                    self.error(op, format!("expected the inserted value to be {delem}"));
                }
            }
            TensorOp::Concat { dim } => {
                let rank = rshape.len();
                if *dim as usize >= rank {
                    self.error(op, format!("concatenation dim must be less than the tensor rank ({rank}), got {dim}"));
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
                        self.error(op, format!("result type {} does not match inferred shape (dimension {dim} is {total})", result.map(|r| self.vty(r)).unwrap_or_default()));
                    }
                }
                if ops.is_empty() {
                    self.error(op, "requires at least one input");
                }
            }
            TensorOp::Splat => {
                let dynamic = rshape.iter().filter(|d| **d == Dim::Dynamic).count();
                if ops.is_empty() || self.m.value_kind(ops[0]) != &TypeKind::Scalar(relem) {
                    self.error(op, format!("expected a {relem} operand"));
                    return;
                }
                if ops.len() != 1 + dynamic || !self.all_index(op, &ops[1..]) {
                    self.error(op, format!("expected {dynamic} dynamic sizes"));
                }
            }
            TensorOp::FromElements => {
                let n = rshape
                    .iter()
                    .try_fold(1u64, |a, d| d.fixed().map(|x| a * x));
                if n != Some(ops.len() as u64) {
                    self.error(
                        op,
                        format!(
                            "expected {} elements for a static result, got {}",
                            n.map_or("?".into(), |n| n.to_string()),
                            ops.len()
                        ),
                    );
                    return;
                }
                if ops
                    .iter()
                    .any(|&v| self.m.value_kind(v) != &TypeKind::Scalar(relem))
                {
                    self.error(op, format!("expected {relem} elements"));
                }
            }
        }
    }
}
