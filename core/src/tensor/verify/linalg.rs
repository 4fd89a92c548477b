//! `linalg` ops: the structured-op rules every linalg op shares, and each
//! named op's own.

use super::Verifier;
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::module::BlockParent;
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::structured::{operand_elem, structured};
use crate::tensor::types::{Dim, TypeKind};

impl Verifier<'_> {
    fn shape(&self, v: TValue) -> Option<Vec<Dim>> {
        self.m.value_kind(v).tensor_shape().map(<[_]>::to_vec)
    }

    fn rank(&self, v: TValue) -> usize {
        self.shape(v).map_or(0, |s| s.len())
    }

    pub(crate) fn linalg(&mut self, op: TOp) {
        let data = self.m.op(op).clone();
        let OpKind::Linalg(l) = &data.kind else {
            return;
        };
        if l.num_inputs > data.operands.len() {
            self.error(op, "has more inputs than operands");
            return;
        }
        let (ins, outs) = data.operands.split_at(l.num_inputs);
        let (ins, outs) = (ins.to_vec(), outs.to_vec());
        for (i, &o) in outs.iter().enumerate() {
            if !self.m.value_kind(o).is_tensor() {
                self.error(
                    op,
                    format!(
                        "expected output #{i} to be a tensor, but got {}",
                        self.vty(o)
                    ),
                );
                return;
            }
        }
        if data.results.len() != outs.len() {
            self.error(
                op,
                format!(
                    "expected one result per output ({} outputs, {} results)",
                    outs.len(),
                    data.results.len()
                ),
            );
            return;
        }
        for (i, (&r, &o)) in data.results.iter().zip(&outs).enumerate() {
            if self.m.value_type(r) != self.m.value_type(o) {
                self.error(
                    op,
                    format!(
                        "expected type of result #{i} ({}) to match the type of output #{i} ({})",
                        self.vty(r),
                        self.vty(o)
                    ),
                );
                return;
            }
        }
        for (i, &v) in ins.iter().enumerate() {
            let scalar_ok = matches!(l.kind, LinalgKind::Fill | LinalgKind::Generic { .. });
            if !self.m.value_kind(v).is_tensor() && !scalar_ok {
                self.error(
                    op,
                    format!(
                        "expected input #{i} to be a tensor, but got {}",
                        self.vty(v)
                    ),
                );
                return;
            }
        }
        if !self.named_rules(op, &l.kind, &ins, &outs) {
            return;
        }
        if matches!(l.kind, LinalgKind::Softmax { .. }) {
            return;
        }
        self.structured_rules(op);
    }

    /// Each named op's own rules; `false` stops further checks.
    fn named_rules(&mut self, op: TOp, kind: &LinalgKind, ins: &[TValue], outs: &[TValue]) -> bool {
        let counts = |n_in: usize, n_out: usize| ins.len() == n_in && outs.len() == n_out;
        let (n_in, n_out) = match kind {
            LinalgKind::Fill
            | LinalgKind::Copy
            | LinalgKind::Transpose { .. }
            | LinalgKind::Broadcast { .. } => (1, 1),
            LinalgKind::Softmax { .. } => (1, 1),
            LinalgKind::Contraction(_) | LinalgKind::Conv(..) => (2, 1),
            LinalgKind::Elementwise(e) => (e.arity(), 1),
            LinalgKind::Map => (ins.len(), 1),
            LinalgKind::Reduce { .. } => (outs.len(), outs.len()),
            LinalgKind::Generic { .. } => (ins.len(), outs.len()),
        };
        if !counts(n_in, n_out) || outs.is_empty() {
            self.error(
                op,
                format!(
                    "expected {n_in} input(s) and {n_out} output(s), got {} and {}",
                    ins.len(),
                    outs.len()
                ),
            );
            return false;
        }
        let out_shape = self.shape(outs[0]).unwrap_or_default();
        match kind {
            LinalgKind::Fill if self.m.value_kind(ins[0]).is_tensor() => {
                self.error(op, "expected op with scalar input");
                return false;
            }
            LinalgKind::Map => {
                for &i in ins {
                    let s = self.shape(i).unwrap_or_default();
                    if !super::compatible(&s, &out_shape) {
                        self.error(
                            op,
                            format!(
                                "expected shape of input ({}) to match shape of output ({})",
                                self.vty(i),
                                self.vty(outs[0])
                            ),
                        );
                        return false;
                    }
                }
            }
            LinalgKind::Reduce { dimensions } => {
                let in_rank = self.rank(ins[0]);
                let sorted = dimensions.windows(2).all(|w| w[0] < w[1]);
                if !sorted || dimensions.iter().any(|&d| d as usize >= in_rank) {
                    self.error(op, format!(
                        "dimensions {dimensions:?} must be increasing and below the input rank {in_rank}"
                    ));
                    return false;
                }
                for &o in outs {
                    if self.rank(o) + dimensions.len() != in_rank {
                        self.error(op, format!(
                            "expected output rank {} (input rank {in_rank} minus {} reduced), got {}",
                            in_rank - dimensions.len(),
                            dimensions.len(),
                            self.vty(o)
                        ));
                        return false;
                    }
                }
            }
            LinalgKind::Transpose { permutation } => {
                let rank = out_shape.len();
                let mut seen = vec![false; rank];
                let valid = permutation.len() == rank
                    && self.rank(ins[0]) == rank
                    && permutation.iter().all(|&p| {
                        let ok = (p as usize) < rank && !seen[p as usize];
                        if ok {
                            seen[p as usize] = true;
                        }
                        ok
                    });
                if !valid {
                    self.error(
                        op,
                        format!(
                            "permutation {permutation:?} is not valid for input {} and result {}",
                            self.vty(ins[0]),
                            self.vty(outs[0])
                        ),
                    );
                    return false;
                }
                let in_shape = self.shape(ins[0]).unwrap_or_default();
                for (k, &p) in permutation.iter().enumerate() {
                    if let (Some(a), Some(b)) = (out_shape[k].fixed(), in_shape[p as usize].fixed())
                    {
                        if a != b {
                            self.error(op, format!(
                                "dim(result, {k}) = {a} doesn't match dim(input, permutation[{k}]) = {b}"
                            ));
                            return false;
                        }
                    }
                }
            }
            LinalgKind::Broadcast { dimensions } => {
                let rank = out_shape.len();
                let sorted = dimensions.windows(2).all(|w| w[0] < w[1]);
                if !sorted
                    || dimensions.iter().any(|&d| d as usize >= rank)
                    || self.rank(ins[0]) + dimensions.len() != rank
                {
                    self.error(
                        op,
                        format!(
                            "dimensions {dimensions:?} do not broadcast {} to {}",
                            self.vty(ins[0]),
                            self.vty(outs[0])
                        ),
                    );
                    return false;
                }
            }
            LinalgKind::Conv(c, _) => {
                let filter_rank = c.filter_rank();
                let rank = c.spatial_rank() + 2;
                if self.rank(ins[0]) != rank
                    || self.rank(ins[1]) != filter_rank
                    || out_shape.len() != rank
                {
                    self.error(op, format!(
                        "expected a rank-{rank} input, a rank-{filter_rank} filter and a rank-{rank} output, got {}, {} and {}",
                        self.vty(ins[0]),
                        self.vty(ins[1]),
                        self.vty(outs[0])
                    ));
                    return false;
                }
            }
            LinalgKind::Softmax { dimension } => {
                let in_ty = self.m.value_type(ins[0]);
                if !super::compatible(&self.shape(ins[0]).unwrap_or_default(), &out_shape)
                    || self.m.ty(in_ty).elem() != self.m.value_kind(outs[0]).elem()
                {
                    self.error(op, "incompatible output shape");
                    return false;
                }
                if *dimension as usize >= out_shape.len() {
                    self.error(
                        op,
                        format!(
                            "dimension {dimension} is out of range for rank {}",
                            out_shape.len()
                        ),
                    );
                    return false;
                }
                if !self.m.ty(in_ty).elem().is_float() {
                    self.error(
                        op,
                        format!("expected floating-point elements, got {}", self.vty(ins[0])),
                    );
                    return false;
                }
            }
            _ => {}
        }
        true
    }

    /// The rules of the structured-op interface.
    fn structured_rules(&mut self, op: TOp) {
        let data = self.m.op(op).clone();
        let Some(body) = data.regions.first().copied() else {
            self.error(op, "expected a region");
            return;
        };
        let Some(s) = structured(self.m, op) else {
            self.error(op, "operand ranks do not fit the op");
            return;
        };
        let operands: Vec<TValue> = s.operands().collect();
        if s.indexing_maps.len() != operands.len() {
            self.error(op, format!(
                "expected the number of indexing_map ({}) to be equal to the number of input/output operands ({})",
                s.indexing_maps.len(),
                operands.len()
            ));
            return;
        }
        let loops = s.num_loops();
        for (k, (map, &v)) in s.indexing_maps.iter().zip(&operands).enumerate() {
            if map.num_symbols != 0 {
                self.error(op, format!("unexpected symbols in indexing_map #{k}"));
                return;
            }
            if map.num_dims as usize != loops {
                self.error(
                    op,
                    format!(
                    "expected indexing_map #{k} to have {loops} dim(s) to match the number of loops"
                ),
                );
                return;
            }
            if !map.is_well_formed() {
                self.error(op, format!("indexing_map #{k} uses undeclared dims"));
                return;
            }
            let rank = self.rank(v);
            if map.num_results() != rank {
                self.error(op, format!(
                    "expected operand rank ({rank}) to match the result rank of indexing_map #{k} ({})",
                    map.num_results()
                ));
                return;
            }
        }
        // Body arguments.
        let args = self.m.block(body).args.clone();
        if args.len() != operands.len() {
            self.error(op, format!(
                "expected as many non-induction variable region arguments as the number of input/output operands ({}), got {}",
                operands.len(),
                args.len()
            ));
            return;
        }
        for (k, (&a, &v)) in args.iter().zip(&operands).enumerate() {
            let want = operand_elem(self.m, v);
            if self.m.value_kind(a) != &TypeKind::Scalar(want) {
                self.error(op, format!(
                    "expected type of bb argument #{k} ({}) to match element or self type of the corresponding operand ({want})",
                    self.vty(a)
                ));
                return;
            }
        }
        // Loop sizes.
        let sources = s.loop_sources();
        if let Some(d) = sources.iter().position(Option::is_none) {
            self.error(op, format!(
                "expected every loop to be indexed by a bare dimension of some operand, but loop d{d} is not"
            ));
            return;
        }
        let ranges: Vec<Option<u64>> = sources
            .iter()
            .map(|src| {
                let (k, r) = (*src)?;
                self.shape(operands[k])?.get(r)?.fixed()
            })
            .collect();
        for (k, (map, &v)) in s.indexing_maps.iter().zip(&operands).enumerate() {
            let shape = self.shape(v).unwrap_or_default();
            for (r, e) in map.results.iter().enumerate() {
                let Some(size) = shape[r].fixed() else {
                    continue;
                };
                if let Some(d) = e.as_dim() {
                    if let Some(range) = ranges[d as usize] {
                        if range != size {
                            self.error(op, format!(
                                "inferred input/output operand #{k} has shape's dimension #{r} to be {range}, but found {size}"
                            ));
                            return;
                        }
                    }
                    continue;
                }
                let Some((coef, c)) = e.linear(loops) else {
                    continue;
                };
                let mut lo = c as i128;
                let mut hi = c as i128;
                let mut known = true;
                for (d, &a) in coef.iter().enumerate() {
                    if a == 0 {
                        continue;
                    }
                    match ranges[d] {
                        Some(n) if n > 0 => {
                            let ext = a as i128 * (n as i128 - 1);
                            if ext < 0 {
                                lo += ext
                            } else {
                                hi += ext
                            }
                        }
                        Some(_) => {}
                        None => known = false,
                    }
                }
                if known && ranges.iter().all(|r| r != &Some(0)) {
                    if hi >= size as i128 {
                        self.error(op, format!(
                            "inferred input/output operand #{k} has shape's dimension #{r} to be greater than or equal to {}, but found {size}",
                            hi + 1
                        ));
                        return;
                    }
                    if lo < 0 {
                        self.error(
                            op,
                            format!("indexing_map #{k} result #{r} reaches index {lo}, below 0"),
                        );
                        return;
                    }
                }
            }
        }
    }

    /// The linalg op whose body holds `op`.
    fn enclosing_linalg(&self, op: TOp) -> Option<TOp> {
        let b = self.m.op(op).parent?;
        match self.m.block(b).parent {
            BlockParent::Op(o) if matches!(self.m.op(o).kind, OpKind::Linalg(_)) => Some(o),
            _ => None,
        }
    }

    pub(crate) fn linalg_yield(&mut self, op: TOp) {
        let Some(owner) = self.enclosing_linalg(op) else {
            self.error(op, "expects its parent to be a linalg op");
            return;
        };
        let OpKind::Linalg(l) = &self.m.op(owner).kind else {
            return;
        };
        let outs =
            self.m.op(owner).operands[l.num_inputs.min(self.m.op(owner).operands.len())..].to_vec();
        let operands = self.m.op(op).operands.clone();
        if operands.len() != outs.len() {
            self.error(op, format!(
                "expected number of yield values ({}) to match the number of inits / outs operands of the enclosing LinalgOp ({})",
                operands.len(),
                outs.len()
            ));
            return;
        }
        for (k, (&y, &o)) in operands.iter().zip(&outs).enumerate() {
            let want = operand_elem(self.m, o);
            if self.m.value_kind(y) != &TypeKind::Scalar(want) {
                self.error(op, format!(
                    "type of yield operand {} ('{}') doesn't match the element type of the enclosing linalg.generic op ('{want}')",
                    k + 1,
                    self.vty(y)
                ));
            }
        }
    }

    pub(crate) fn linalg_index(&mut self, op: TOp, dim: u32) {
        let Some(owner) = self.enclosing_linalg(op) else {
            self.error(op, "expected parent op with LinalgOp interface");
            return;
        };
        if let Some(s) = structured(self.m, owner) {
            if dim as usize >= s.num_loops() {
                self.error(op, format!(
                    "expected dim ({dim}) to be lower than the number of loops ({}) of the enclosing LinalgOp",
                    s.num_loops()
                ));
            }
        }
    }
}
