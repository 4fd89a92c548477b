//! Rewrites at import: ops that importers emit, read as ops kiln already
//! compiles (the program prints back in the rewritten form).
//!
//! - `tensor.reshape %src(%shape) : (S, tensor<Nxi64>) -> R` becomes a
//!   `tensor.collapse_shape` to one dim, a `tensor.cast` where the static
//!   sizes need it (checked at run time) and a `tensor.expand_shape` to
//!   `R`, whose dynamic sizes are read from `%shape` (`tensor.extract` and
//!   `arith.index_cast`), as MLIR's own reshape semantics define them.
//! - `tensor.generate %d... { ^bb0(%i: index, ...): ... tensor.yield %v }`
//!   becomes `tensor.empty(%d...)` and a `linalg.generic` with no inputs
//!   whose body reads the position with `linalg.index`.

use super::{PResult, ParsedOp, Parser};
use crate::ir::Location;
use crate::tensor::affine::AffineMap;
use crate::tensor::attr::{ConstAttr, IteratorType, Mixed};
use crate::tensor::entity::{TOp, TType, TValue};
use crate::tensor::module::ValueDef;
use crate::tensor::ops::{ArithOp, LinalgKind, LinalgOp, OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType, TypeKind};
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// Creates a detached op with one result for a rewrite, recording it in
    /// `before`; returns its result.
    pub(crate) fn emit(
        &mut self,
        before: &mut Vec<TOp>,
        kind: OpKind,
        operands: Vec<TValue>,
        result: TType,
        loc: Location,
    ) -> TValue {
        let op = self.m.create_op(kind, operands, &[result], vec![], loc);
        before.push(op);
        self.m.op(op).results[0]
    }

    /// `arith.constant N : index` for a rewrite.
    pub(crate) fn emit_index(&mut self, before: &mut Vec<TOp>, n: i64, loc: Location) -> TValue {
        let ty = self.m.types.scalar(ElemType::Index);
        self.emit(
            before,
            OpKind::Constant(ConstAttr::Int { value: n, ty }),
            vec![],
            ty,
            loc,
        )
    }

    /// An `arith` op for a rewrite (no flags).
    pub(crate) fn emit_arith(
        &mut self,
        before: &mut Vec<TOp>,
        op: ArithOp,
        operands: Vec<TValue>,
        result: TType,
        loc: Location,
    ) -> TValue {
        let kind = OpKind::Arith {
            op,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        self.emit(before, kind, operands, result, loc)
    }

    /// `tensor.reshape %src(%shape) : (S, tensor<Nxi64>) -> R`.
    pub(crate) fn parse_reshape(&mut self, loc: Location) -> PResult<ParsedOp> {
        let src = self.value_use()?;
        self.expect_punct("(")?;
        let shape = self.value_use()?;
        self.expect_punct(")")?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        self.expect_punct("(")?;
        let src_ty = self.parse_type()?;
        self.expect_punct(",")?;
        let shape_ty = self.parse_type()?;
        self.expect_punct(")")?;
        self.check_types(&[src, shape], &[src_ty, shape_ty], tloc)?;
        self.expect_punct("->")?;
        let result_ty = self.parse_type()?;
        let op_err = |p: &Self, msg: String| p.err_at(loc, format!("'tensor.reshape' op {msg}"));
        let (src_shape, elem) = match self.m.ty(src_ty) {
            TypeKind::Tensor { shape, elem } => (shape.clone(), *elem),
            _ => return op_err(self, "expects a tensor source".into()),
        };
        let (res_shape, res_elem) = match self.m.ty(result_ty) {
            TypeKind::Tensor { shape, elem } => (shape.clone(), *elem),
            _ => return op_err(self, "expects a tensor result".into()),
        };
        let shape_elem = match self.m.ty(shape_ty) {
            TypeKind::Tensor { shape, elem }
                if shape.len() == 1 && (elem.is_int_or_index() && *elem != ElemType::I1) =>
            {
                if shape[0] != Dim::Static(res_shape.len() as u64) {
                    return op_err(
                        self,
                        "length of shape operand differs from the result's tensor rank".into(),
                    );
                }
                *elem
            }
            _ => {
                return op_err(
                    self,
                    "expects a 1-D shape operand of integer or index elements".into(),
                )
            }
        };
        if elem != res_elem {
            return op_err(
                self,
                "element types of source and destination tensor types should be the same".into(),
            );
        }
        let src_count = self.m.ty(src_ty).static_num_elements();
        let res_count = self.m.ty(result_ty).static_num_elements();
        if let (Some(a), Some(b)) = (src_count, res_count) {
            if a != b {
                return op_err(
                    self,
                    "source and destination tensor should have the same number of elements".into(),
                );
            }
        }
        let mut before = Vec::new();
        // The source as one dim.
        let flat_dim = src_count.map_or(Dim::Dynamic, Dim::Static);
        let flat_ty = self.m.types.tensor(&[flat_dim], elem);
        let mut flat = match src_shape.len() {
            1 => src,
            0 => {
                let kind = OpKind::Tensor(TensorOp::ExpandShape {
                    reassociation: vec![],
                    output_shape: vec![Mixed::Static(1)],
                });
                self.emit(&mut before, kind, vec![src], flat_ty, loc)
            }
            n => {
                let kind = OpKind::Tensor(TensorOp::CollapseShape {
                    reassociation: vec![(0..n as u64).collect()],
                });
                self.emit(&mut before, kind, vec![src], flat_ty, loc)
            }
        };
        // The one dim as the result needs it: static when every result dim
        // is, dynamic otherwise (MLIR's expand_shape rule).
        let want_dim = res_count.map_or(Dim::Dynamic, Dim::Static);
        let want_ty = self.m.types.tensor(&[want_dim], elem);
        if res_shape.len() == 1 {
            // One dim: a cast to the result type (checked at run time where a
            // static size meets a dynamic one) is the reshape.
            let p = ParsedOp::new(OpKind::Tensor(TensorOp::Cast), vec![flat], vec![result_ty]);
            return Ok(ParsedOp { before, ..p });
        }
        if self.m.value_type(flat) != want_ty {
            flat = self.emit(
                &mut before,
                OpKind::Tensor(TensorOp::Cast),
                vec![flat],
                want_ty,
                loc,
            );
        }
        if res_shape.is_empty() {
            let kind = OpKind::Tensor(TensorOp::CollapseShape {
                reassociation: vec![],
            });
            let p = ParsedOp::new(kind, vec![flat], vec![result_ty]);
            return Ok(ParsedOp { before, ..p });
        }
        let index_ty = self.m.types.scalar(ElemType::Index);
        let shape_scalar = self.m.types.scalar(shape_elem);
        let mut output_shape = Vec::new();
        let mut dynamic = Vec::new();
        for (i, d) in res_shape.iter().enumerate() {
            match d {
                Dim::Static(n) => output_shape.push(Mixed::Static(*n as i64)),
                Dim::Dynamic => {
                    // A shape built by tensor.from_elements gives its
                    // element itself (a size the host computes, when it is
                    // one); another shape tensor is read at run time.
                    let size = match self.shape_entry_of_from_elements(shape, i) {
                        Some(v) => v,
                        None => {
                            let at = self.emit_index(&mut before, i as i64, loc);
                            self.emit(
                                &mut before,
                                OpKind::Tensor(TensorOp::Extract),
                                vec![shape, at],
                                shape_scalar,
                                loc,
                            )
                        }
                    };
                    let size = if shape_elem == ElemType::Index {
                        size
                    } else {
                        self.emit_arith(&mut before, ArithOp::IndexCast, vec![size], index_ty, loc)
                    };
                    output_shape.push(Mixed::Dynamic);
                    dynamic.push(size);
                }
            }
        }
        let kind = OpKind::Tensor(TensorOp::ExpandShape {
            reassociation: vec![(0..res_shape.len() as u64).collect()],
            output_shape,
        });
        let operands = std::iter::once(flat).chain(dynamic).collect();
        let p = ParsedOp::new(kind, operands, vec![result_ty]);
        Ok(ParsedOp { before, ..p })
    }

    /// Operand `i` of the `tensor.from_elements` defining `v`, if it is one.
    fn shape_entry_of_from_elements(&self, v: TValue, i: usize) -> Option<TValue> {
        let ValueDef::Result { op, .. } = self.m.value(v).def else {
            return None;
        };
        let d = self.m.op(op);
        match d.kind {
            OpKind::Tensor(TensorOp::FromElements) => d.operands.get(i).copied(),
            _ => None,
        }
    }

    /// `tensor.generate %d... { ^bb0(%i: index, ...): ... tensor.yield %v : T } : R`.
    pub(crate) fn parse_generate(&mut self, loc: Location) -> PResult<ParsedOp> {
        let sizes = self.value_list()?;
        let region = self.parse_region(None)?;
        self.expect_punct(":")?;
        let result_ty = self.parse_type()?;
        let op_err = |p: &Self, msg: String| p.err_at(loc, format!("'tensor.generate' op {msg}"));
        let (shape, elem) = match self.m.ty(result_ty) {
            TypeKind::Tensor { shape, elem } => (shape.clone(), *elem),
            _ => return op_err(self, "expects a tensor result".into()),
        };
        let index_ty = self.m.types.scalar(ElemType::Index);
        let dynamic = shape.iter().filter(|d| **d == Dim::Dynamic).count();
        if sizes.len() != dynamic {
            return op_err(
                self,
                format!(
                    "must have as many index operands as dynamic extents in the result type ({dynamic}), found {}",
                    sizes.len()
                ),
            );
        }
        if sizes.iter().any(|&s| self.m.value_type(s) != index_ty) {
            return op_err(
                self,
                "expects index operands for the dynamic extents".into(),
            );
        }
        let args = self.m.block(region).args.clone();
        if args.len() != shape.len() || args.iter().any(|&a| self.m.value_type(a) != index_ty) {
            return op_err(
                self,
                format!(
                    "must have one index argument per result dim ({})",
                    shape.len()
                ),
            );
        }
        let ops = self.m.take_ops(region);
        let Some(&last) = ops.last() else {
            return op_err(self, "body must end with tensor.yield".into());
        };
        let yielded_ok = self.m.op(last).kind == OpKind::TensorYield
            && self.m.op(last).operands.len() == 1
            && self.m.value_type(self.m.op(last).operands[0]) == self.m.types.scalar(elem);
        if !yielded_ok {
            return op_err(
                self,
                format!("body must yield one value of the element type {elem}"),
            );
        }
        self.m.op_mut(last).kind = OpKind::LinalgYield;
        let elem_ty = self.m.types.scalar(elem);
        let body = self.m.create_block(&[elem_ty]);
        let mut map = std::collections::HashMap::new();
        for (d, &arg) in args.iter().enumerate() {
            let op = self.m.create_op(
                OpKind::LinalgIndex { dim: d as u32 },
                vec![],
                &[index_ty],
                vec![],
                loc,
            );
            self.m.append_op(body, op);
            map.insert(arg, self.m.op(op).results[0]);
        }
        for op in ops {
            self.m.append_op(body, op);
        }
        self.m.replace_uses(&map);
        let mut before = Vec::new();
        let empty = self.emit(
            &mut before,
            OpKind::Tensor(TensorOp::Empty),
            sizes,
            result_ty,
            loc,
        );
        let rank = shape.len() as u32;
        let kind = OpKind::Linalg(LinalgOp {
            kind: LinalgKind::Generic {
                indexing_maps: vec![AffineMap::identity(rank)],
                iterator_types: vec![IteratorType::Parallel; shape.len()],
            },
            num_inputs: 0,
        });
        let mut p = ParsedOp::new(kind, vec![empty], vec![result_ty]);
        p.regions.push(body);
        p.before = before;
        Ok(p)
    }
}
