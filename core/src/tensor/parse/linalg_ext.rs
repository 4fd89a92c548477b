//! torch-mlir's `tm_tensor` and IREE's `iree_linalg_ext` `scan`, `sort`,
//! `scatter` and `topk` (what importers emit for cumulative sums, sorts,
//! top-k and index updates), rewritten at import into `linalg.generic` ops kiln
//! compiles (the program prints back in that form). The op's region (the
//! combiner or comparator) is parsed again into each body that applies it.
//!
//! - `scan dimension(d) inclusive(b) ins(%x) outs(%y, %acc)`: the scan of
//!   the torch-mlir/IREE reference (`y[0] = x[0]`, `y[i] = f(y[i-1], x[i])`;
//!   exclusive: `y[0] = acc`, `y[i] = f(y[i-1], x[i-1])`; the accumulator
//!   result is `y[n-1]` when `n >= 2`, `acc` otherwise) as `ceil(log2 n)`
//!   element-wise steps (Hillis and Steele: `y[i] = f(y[i-2^k], y[i])`),
//!   the runtime's cumsum strategy. The combiner must be associative (every
//!   combiner importers emit is: add, mul, max, min); float sums are
//!   combined in that tree order, not left to right (last-bit differences).
//!   The scanned dimension needs a static size (the number of steps).
//! - `sort dimension(d) outs(%k, %v, ...)`: a stable sort by rank (the
//!   runtime's sort strategy): each element's rank is the number of
//!   elements of its row the comparator puts before it, ties by position;
//!   output position `r` takes the element of rank `r`, for every operand.
//!   `j` goes before `i` when the comparator orders them one way only;
//!   when it orders them both ways or neither (equal keys under a strict
//!   `<`, as StableHLO writes comparators, or a non-strict `<=`, as
//!   torch-mlir writes them) their positions decide. The comparator must
//!   be a strict or non-strict weak ordering on the values sorted.
//! - `scatter dimension_map = [...] ins(%updates, %indices) outs(%original)`:
//!   a reduction over the updates in order: each original element folds
//!   in, with the region, every update whose index row points at it (so
//!   duplicates apply in order: the last wins for a plain write, all add
//!   up for an add). An update's slice dims line up with the original's
//!   trailing dims (TMTensor's definition); the original dims before them
//!   must all be indexed, and an indexed dim inside the slice must have
//!   extent 1 (its position is the index: torch-mlir's `index_put` writes
//!   `tensor<N x 1 x ...>` updates); with no indexed dim inside the slice
//!   this is `rank(updates) - 1 == rank(original) - index depth`, IREE's
//!   form. An index out of range of the dim it indexes: IREE's
//!   `iree_linalg_ext.scatter` (what StableHLO's scatter lowers to) updates
//!   nothing there, XLA's rule that JAX's `.at[].set` relies on (its
//!   default mode drops out-of-bounds updates); torch-mlir's
//!   `tm_tensor.scatter` (PyTorch's `index_put`, `scatter`) fails the call
//!   at the op's line, PyTorch's rule (a `cf.assert` on every index before
//!   the scatter).
//! - `topk dimension(d) ins(%x [, %idx]) outs(%v, %i)` (IREE's, and
//!   TMTensor's, which torch-mlir writes for `torch.kthvalue`): the
//!   candidates are the outputs' initial entries and the inputs (with their
//!   indices, or positions as `i32`), ranked by the comparator, ties by
//!   the smaller index; the first `k` are the result.

use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::affine::{AffineExpr, AffineMap};
use crate::tensor::attr::{CmpIPred, ConstAttr, IteratorType};
use crate::tensor::entity::{TBlock, TType, TValue};
use crate::tensor::ops::{ArithOp, LinalgKind, LinalgOp, OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType, TypeKind};
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

/// The most elements a sort, scan or top-k row may have at import.
const MAX_ROW: u64 = 1 << 20;

/// A region parsed into a block: its argument types, the values bound to
/// its arguments, the values it yields.
type Inlined = (Vec<TType>, Vec<TValue>, Vec<TValue>);

/// A region kept as text, parsed again at each use.
struct Region {
    /// The byte offset of its `{`.
    at: usize,
    /// Its block argument types.
    args: Vec<TType>,
    /// The types it yields.
    yields: Vec<TType>,
    /// Whether each argument is used (an unused one need not be read).
    used: Vec<bool>,
}

impl Parser<'_> {
    /// An `iree_linalg_ext.*` or `tm_tensor.*` op (after its name), rewritten
    /// into `block`: the values its results are.
    pub(crate) fn parse_linalg_ext(
        &mut self,
        block: TBlock,
        name: &str,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        let (dialect, short) = name.split_once('.').unwrap_or((name, ""));
        match short {
            "scan" => self.parse_ext_scan(block, dialect, loc),
            "sort" => self.parse_ext_sort(block, dialect, loc),
            "scatter" => self.parse_ext_scatter(block, dialect, loc),
            // TMTensor's topk is IREE's (the same definition: insertion
            // into the initialised outputs, ties to the smaller index);
            // torch-mlir writes it for `torch.kthvalue`.
            "topk" => self.parse_ext_topk(block, dialect, loc),
            "yield" => self.err_at(loc, format!("'{name}' outside a {dialect} op's region")),
            _ => self.err_at(
                loc,
                format!(
                    "unsupported op '{name}'; supported {dialect} ops: scan, sort, scatter, topk"
                ),
            ),
        }
    }

    // ---- syntax ------------------------------------------------------------

    /// `keyword(N)`.
    fn ext_paren_uint(&mut self, keyword: &str) -> PResult<u64> {
        self.expect_ident(keyword)?;
        self.expect_punct("(")?;
        let v = self.uint("an integer")?;
        self.expect_punct(")")?;
        Ok(v)
    }

    /// `keyword(true|false)`.
    fn ext_paren_bool(&mut self, keyword: &str) -> PResult<bool> {
        self.expect_ident(keyword)?;
        self.expect_punct("(")?;
        let v = match self.ident("'true' or 'false'")? {
            "true" => true,
            "false" => false,
            _ => return self.expected("'true' or 'false'"),
        };
        self.expect_punct(")")?;
        Ok(v)
    }

    /// `ins(...)` (optional) and `outs(...)`: values and their types.
    fn ext_ins_outs(&mut self) -> PResult<(Vec<TValue>, Vec<TValue>)> {
        let group = |p: &mut Self| -> PResult<Vec<TValue>> {
            p.expect_punct("(")?;
            let values = p.typed_value_list()?;
            p.expect_punct(")")?;
            Ok(values)
        };
        let ins = if self.eat_ident("ins")? {
            group(self)?
        } else {
            Vec::new()
        };
        self.expect_ident("outs")?;
        let outs = group(self)?;
        Ok((ins, outs))
    }

    /// The region, parsed once to check it (into a block the program does
    /// not hold), then `-> T, ...` (the result types, checked against the
    /// outputs').
    fn ext_region_and_results(
        &mut self,
        dialect: &str,
        outs: &[TValue],
        loc: Location,
        what: &str,
    ) -> PResult<Region> {
        let at = self.pos();
        let scratch = self.m.create_block(&[]);
        let (args, bound, yielded) = self.ext_inline(at, dialect, scratch, None)?;
        let yields = yielded.iter().map(|&v| self.m.value_type(v)).collect();
        let mut read: std::collections::HashSet<TValue> = yielded.iter().copied().collect();
        self.m.walk(scratch, &mut |o| {
            read.extend(self.m.op(o).operands.iter().copied())
        });
        let used = bound.iter().map(|a| read.contains(a)).collect();
        let results = if self.eat_punct("->")? {
            if self.is_punct("(") {
                self.parse_result_types()?
            } else {
                self.parse_type_list()?
            }
        } else {
            Vec::new()
        };
        let want: Vec<TType> = outs.iter().map(|&v| self.m.value_type(v)).collect();
        if results != want {
            return self.err_at(
                loc,
                format!("'{what}' op expects its result types to be its outputs' types"),
            );
        }
        Ok(Region {
            at,
            args,
            yields,
            used,
        })
    }

    /// Parses the region at `at` into `block` with its arguments bound to
    /// `args` (or to new values when `None`), ending at its
    /// `dialect.yield`: the argument types, the values bound to the
    /// arguments and the yielded values. The cursor is left after the
    /// region's `}`.
    fn ext_inline(
        &mut self,
        at: usize,
        dialect: &str,
        block: TBlock,
        args: Option<&[TValue]>,
    ) -> PResult<Inlined> {
        self.reset_to(at)?;
        self.expect_punct("{")?;
        self.push_scope(false);
        let r = self.ext_inline_body(dialect, block, args);
        self.pop_scope();
        r
    }

    fn ext_inline_body(
        &mut self,
        dialect: &str,
        block: TBlock,
        args: Option<&[TValue]>,
    ) -> PResult<Inlined> {
        let mut named = Vec::new();
        if let TokKind::Block(_) = self.peek() {
            self.bump()?;
            if self.is_punct("(") {
                named = self.parse_block_args()?;
            }
            self.expect_punct(":")?;
        }
        let types: Vec<TType> = named.iter().map(|a| a.2).collect();
        let bound = match args {
            Some(a) => a.to_vec(),
            None => {
                let b = self.m.create_block(&types);
                self.m.block(b).args.clone()
            }
        };
        for ((n, l, ty), &v) in named.iter().zip(&bound) {
            if self.m.value_type(v) != *ty {
                return self.err_at(
                    *l,
                    "region argument type differs from the operand's element type",
                );
            }
            self.define(n, vec![v], *l)?;
        }
        let yield_name = format!("{dialect}.yield");
        loop {
            if self.is_ident(&yield_name) {
                self.bump()?;
                let values = self.typed_value_list()?;
                self.expect_punct("}")?;
                return Ok((types, bound, values));
            }
            if self.is_punct("}") {
                return self.expected(&format!("'{yield_name}'"));
            }
            if matches!(self.peek(), TokKind::Eof) {
                return self.expected("'}'");
            }
            self.parse_op_into(block)?;
        }
    }

    /// Applies `region` to `args` in `block`: its one yielded value.
    fn ext_apply(
        &mut self,
        region: &Region,
        dialect: &str,
        block: TBlock,
        args: &[TValue],
    ) -> PResult<TValue> {
        let (_, _, y) = self.ext_inline(region.at, dialect, block, Some(args))?;
        Ok(y[0])
    }

    // ---- building ----------------------------------------------------------

    fn put(&mut self, block: TBlock, kind: OpKind, operands: Vec<TValue>, ty: TType) -> TValue {
        let loc = self.loc();
        let op = self.m.create_op(kind, operands, &[ty], vec![], loc);
        self.m.append_op(block, op);
        self.m.op(op).results[0]
    }

    fn put_arith(
        &mut self,
        block: TBlock,
        op: ArithOp,
        operands: Vec<TValue>,
        ty: TType,
    ) -> TValue {
        let kind = OpKind::Arith {
            op,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        self.put(block, kind, operands, ty)
    }

    fn put_int(&mut self, block: TBlock, value: i64, elem: ElemType) -> TValue {
        let ty = self.m.types.scalar(elem);
        self.put(
            block,
            OpKind::Constant(ConstAttr::Int { value, ty }),
            vec![],
            ty,
        )
    }

    fn put_cmpi(&mut self, block: TBlock, p: CmpIPred, a: TValue, b: TValue) -> TValue {
        let i1 = self.m.types.scalar(ElemType::I1);
        self.put_arith(block, ArithOp::CmpI(p), vec![a, b], i1)
    }

    fn put_bool(&mut self, block: TBlock, op: ArithOp, a: TValue, b: TValue) -> TValue {
        let i1 = self.m.types.scalar(ElemType::I1);
        self.put_arith(block, op, vec![a, b], i1)
    }

    fn put_not(&mut self, block: TBlock, a: TValue) -> TValue {
        let t = self.put_int(block, 1, ElemType::I1);
        self.put_bool(block, ArithOp::XOrI, a, t)
    }

    fn put_select(&mut self, block: TBlock, c: TValue, a: TValue, b: TValue) -> TValue {
        let ty = self.m.value_type(a);
        self.put_arith(block, ArithOp::Select, vec![c, a, b], ty)
    }

    /// `linalg.index d`.
    fn put_loop_index(&mut self, block: TBlock, d: usize) -> TValue {
        let index = self.m.types.scalar(ElemType::Index);
        self.put(block, OpKind::LinalgIndex { dim: d as u32 }, vec![], index)
    }

    /// `tensor.extract t[at...]`.
    fn put_extract(&mut self, block: TBlock, t: TValue, at: Vec<TValue>) -> TValue {
        let elem = self.elem_of(t);
        let ty = self.m.types.scalar(elem);
        let operands = std::iter::once(t).chain(at).collect();
        self.put(block, OpKind::Tensor(TensorOp::Extract), operands, ty)
    }

    fn elem_of(&self, t: TValue) -> ElemType {
        match self.m.value_kind(t) {
            TypeKind::Tensor { elem, .. } => *elem,
            TypeKind::Scalar(e) => *e,
            _ => ElemType::F32,
        }
    }

    /// The dimensions of tensor value `t` (none for a scalar).
    pub(super) fn shape_of(&self, t: TValue) -> Vec<Dim> {
        self.m
            .value_kind(t)
            .tensor_shape()
            .map(<[Dim]>::to_vec)
            .unwrap_or_default()
    }

    /// `tensor.empty` of `like`'s shape (dynamic sizes read with
    /// `tensor.dim`) with element type `elem`.
    fn put_empty_like(&mut self, block: TBlock, like: TValue, elem: ElemType) -> TValue {
        let shape = self.shape_of(like);
        let mut sizes = Vec::new();
        for (d, s) in shape.iter().enumerate() {
            if *s == Dim::Dynamic {
                let i = self.put_int(block, d as i64, ElemType::Index);
                let index = self.m.types.scalar(ElemType::Index);
                sizes.push(self.put(block, OpKind::Tensor(TensorOp::Dim), vec![like, i], index));
            }
        }
        let ty = self.m.types.tensor(&shape, elem);
        self.put(block, OpKind::Tensor(TensorOp::Empty), sizes, ty)
    }

    /// A `linalg.generic` appended to `block`: `ins` and `outs` with their
    /// maps, the loops' iterator types, and `body` filling the body block
    /// (given its arguments) and returning the values to yield.
    fn put_generic(
        &mut self,
        block: TBlock,
        ins: &[(TValue, AffineMap)],
        outs: &[(TValue, AffineMap)],
        iterator_types: Vec<IteratorType>,
        body: impl FnOnce(&mut Self, TBlock, &[TValue]) -> PResult<Vec<TValue>>,
    ) -> PResult<Vec<TValue>> {
        let arg_types: Vec<TType> = ins
            .iter()
            .chain(outs)
            .map(|(v, _)| {
                let e = self.elem_of(*v);
                self.m.types.scalar(e)
            })
            .collect();
        let b = self.m.create_block(&arg_types);
        let args = self.m.block(b).args.clone();
        let yielded = body(self, b, &args)?;
        let loc = self.loc();
        let y = self
            .m
            .create_op(OpKind::LinalgYield, yielded, &[], vec![], loc);
        self.m.append_op(b, y);
        let kind = OpKind::Linalg(LinalgOp {
            kind: LinalgKind::Generic {
                indexing_maps: ins.iter().chain(outs).map(|(_, m)| m.clone()).collect(),
                iterator_types,
            },
            num_inputs: ins.len(),
        });
        let operands = ins.iter().chain(outs).map(|(v, _)| *v).collect();
        let results: Vec<TType> = outs.iter().map(|(v, _)| self.m.value_type(*v)).collect();
        let op = self.m.create_op(kind, operands, &results, vec![b], loc);
        self.m.append_op(block, op);
        Ok(self.m.op(op).results.clone())
    }

    /// A tensor of `like`'s shape filled with the integer `value` of `elem`.
    fn put_filled(
        &mut self,
        block: TBlock,
        like: TValue,
        value: i64,
        elem: ElemType,
    ) -> PResult<TValue> {
        let e = self.put_empty_like(block, like, elem);
        let rank = self.shape_of(like).len() as u32;
        let r = self.put_generic(
            block,
            &[],
            &[(e, AffineMap::identity(rank))],
            vec![IteratorType::Parallel; rank as usize],
            |p, b, _| Ok(vec![p.put_int(b, value, elem)]),
        )?;
        Ok(r[0])
    }

    /// Whether every value is a tensor of rank `rank` with one shape.
    fn same_shapes(&self, values: &[TValue]) -> bool {
        let Some(&first) = values.first() else {
            return true;
        };
        let s = self.shape_of(first);
        values
            .iter()
            .all(|&v| self.m.value_kind(v).tensor_shape().is_some() && self.shape_of(v) == s)
    }

    // ---- scan --------------------------------------------------------------

    fn parse_ext_scan(
        &mut self,
        block: TBlock,
        dialect: &str,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        let what = format!("{dialect}.scan");
        let axis = self.ext_paren_uint("dimension")? as usize;
        let inclusive = self.ext_paren_bool("inclusive")?;
        let (ins, outs) = self.ext_ins_outs()?;
        let region = self.ext_region_and_results(dialect, &outs, loc, &what)?;
        let end = self.pos();
        let op_err = |p: &Self, msg: &str| p.err_at(loc, format!("'{what}' op {msg}"));
        let ([x], [y, acc]) = (ins.as_slice(), outs.as_slice()) else {
            return op_err(
                self,
                "expects one input and two outputs (the result and the accumulator)",
            );
        };
        let (x, y, acc) = (*x, *y, *acc);
        if self.m.value_type(x) != self.m.value_type(y)
            || self.m.value_kind(x).tensor_shape().is_none()
        {
            return op_err(
                self,
                "expects its input and output to be tensors of one type",
            );
        }
        let shape = self.shape_of(x);
        let rank = shape.len();
        if axis >= rank {
            return op_err(self, "dimension is out of range");
        }
        let elem = self.elem_of(x);
        let mut acc_shape = shape.clone();
        acc_shape.remove(axis);
        if self.m.value_kind(acc).tensor_shape() != Some(&acc_shape[..])
            || self.elem_of(acc) != elem
        {
            return op_err(
                self,
                "expects the accumulator to have the input's shape without the scanned dimension",
            );
        }
        let e_ty = self.m.types.scalar(elem);
        if region.args != [e_ty, e_ty] || region.yields != [e_ty] {
            return op_err(
                self,
                "expects a region of two arguments of the element type yielding one",
            );
        }
        let Dim::Static(n) = shape[axis] else {
            return op_err(self, "is supported with a static size along the scanned dimension only (kiln unrolls the scan's steps)");
        };
        if n > MAX_ROW {
            return op_err(
                self,
                &format!("scans {n} elements; kiln supports at most {MAX_ROW}"),
            );
        }
        let id = AffineMap::identity(rank as u32);
        let par = vec![IteratorType::Parallel; rank];
        // Exclusive: the inclusive scan of (acc, x[0], ..., x[n-2]).
        let mut cur = x;
        if !inclusive && n > 0 {
            let e = self.put_empty_like(block, x, elem);
            cur = self.put_generic(block, &[], &[(e, id.clone())], par.clone(), |p, b, _| {
                let idx: Vec<TValue> = (0..rank).map(|d| p.put_loop_index(b, d)).collect();
                let zero = p.put_int(b, 0, ElemType::Index);
                let one = p.put_int(b, 1, ElemType::Index);
                let first = p.put_cmpi(b, CmpIPred::Eq, idx[axis], zero);
                let index = p.m.types.scalar(ElemType::Index);
                let back = p.put_arith(b, ArithOp::SubI, vec![idx[axis], one], index);
                let back = p.put_select(b, first, zero, back);
                let mut at = idx.clone();
                at[axis] = back;
                let v = p.put_extract(b, x, at);
                let mut acc_at = idx.clone();
                acc_at.remove(axis);
                let a = p.put_extract(b, acc, acc_at);
                Ok(vec![p.put_select(b, first, a, v)])
            })?[0];
        }
        let mut shift = 1u64;
        while shift < n {
            let prev = cur;
            let e = self.put_empty_like(block, x, elem);
            cur = self.put_generic(
                block,
                &[(prev, id.clone())],
                &[(e, id.clone())],
                par.clone(),
                |p, b, args| {
                    let idx: Vec<TValue> = (0..rank).map(|d| p.put_loop_index(b, d)).collect();
                    let s = p.put_int(b, shift as i64, ElemType::Index);
                    let zero = p.put_int(b, 0, ElemType::Index);
                    let has = p.put_cmpi(b, CmpIPred::Uge, idx[axis], s);
                    let index = p.m.types.scalar(ElemType::Index);
                    let back = p.put_arith(b, ArithOp::SubI, vec![idx[axis], s], index);
                    let back = p.put_select(b, has, back, zero);
                    let mut at = idx.clone();
                    at[axis] = back;
                    let w = p.put_extract(b, prev, at);
                    let c = p.ext_apply(&region, dialect, b, &[w, args[0]])?;
                    Ok(vec![p.put_select(b, has, c, args[0])])
                },
            )?[0];
            shift *= 2;
        }
        let acc_out = if n >= 2 {
            let e = self.put_empty_like(block, acc, elem);
            let r = rank - 1;
            let last = cur;
            self.put_generic(
                block,
                &[],
                &[(e, AffineMap::identity(r as u32))],
                vec![IteratorType::Parallel; r],
                |p, b, _| {
                    let mut at: Vec<TValue> = (0..r).map(|d| p.put_loop_index(b, d)).collect();
                    let l = p.put_int(b, n as i64 - 1, ElemType::Index);
                    at.insert(axis, l);
                    Ok(vec![p.put_extract(b, last, at)])
                },
            )?[0]
        } else {
            acc
        };
        self.reset_to(end)?;
        Ok(vec![cur, acc_out])
    }

    // ---- sort --------------------------------------------------------------

    fn parse_ext_sort(
        &mut self,
        block: TBlock,
        dialect: &str,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        let what = format!("{dialect}.sort");
        let axis = self.ext_paren_uint("dimension")? as usize;
        let (ins, outs) = self.ext_ins_outs()?;
        let region = self.ext_region_and_results(dialect, &outs, loc, &what)?;
        let end = self.pos();
        let op_err = |p: &Self, msg: &str| p.err_at(loc, format!("'{what}' op {msg}"));
        if !ins.is_empty() || outs.is_empty() {
            return op_err(self, "expects no inputs and at least one output");
        }
        if !self.same_shapes(&outs) {
            return op_err(self, "expects its operands to be tensors of one shape");
        }
        let rank = self.shape_of(outs[0]).len();
        if axis >= rank {
            return op_err(self, "dimension is out of range");
        }
        let mut want = Vec::new();
        for &o in &outs {
            let e = self.elem_of(o);
            let t = self.m.types.scalar(e);
            want.extend([t, t]);
        }
        let i1 = self.m.types.scalar(ElemType::I1);
        if region.args != want || region.yields != [i1] {
            return op_err(
                self,
                "expects a comparator of two arguments per operand yielding an i1",
            );
        }
        if let Dim::Static(n) = self.shape_of(outs[0])[axis] {
            if n > MAX_ROW {
                return op_err(
                    self,
                    &format!("sorts rows of {n} elements; kiln supports at most {MAX_ROW}"),
                );
            }
        }
        let ranks = self.put_ranks(block, dialect, &region, &outs, axis, |p, b, i, j| {
            // Ties keep their order: j before i when j < i.
            Ok(p.put_cmpi(b, CmpIPred::Ult, j, i))
        })?;
        let results = self.put_picks(block, ranks, &outs, outs[0], axis)?;
        self.reset_to(end)?;
        Ok(results)
    }

    /// The rank of each element along `axis` among its row: how many `j`
    /// the comparator puts before it, `tie(i, j)` deciding between
    /// elements it does not order (i64, of the operands' shape).
    fn put_ranks(
        &mut self,
        block: TBlock,
        dialect: &str,
        region: &Region,
        operands: &[TValue],
        axis: usize,
        tie: impl Fn(&mut Self, TBlock, TValue, TValue) -> PResult<TValue>,
    ) -> PResult<TValue> {
        let rank = self.shape_of(operands[0]).len();
        let n = rank as u32 + 1;
        let lead = AffineMap::select(n, &(0..rank as u32).collect::<Vec<_>>());
        let other = AffineMap::select(
            n,
            &(0..rank as u32)
                .map(|d| if d as usize == axis { rank as u32 } else { d })
                .collect::<Vec<_>>(),
        );
        // Over (the operands' dims, j), j along the axis: an element-wise
        // generic (before[.., i, .., j]: x[j] sorts before x[i]) and its sum
        // over j (two generics the compiler fuses, as the runtime's sort).
        let ext = {
            let mut shape = self.shape_of(operands[0]);
            shape.push(shape[axis]);
            shape
        };
        let mut sizes = Vec::new();
        for (d, s) in ext.iter().enumerate() {
            if *s == Dim::Dynamic {
                let src_dim = if d == rank { axis } else { d };
                let i = self.put_int(block, src_dim as i64, ElemType::Index);
                let index = self.m.types.scalar(ElemType::Index);
                sizes.push(self.put(
                    block,
                    OpKind::Tensor(TensorOp::Dim),
                    vec![operands[0], i],
                    index,
                ));
            }
        }
        let ext_ty = self.m.types.tensor(&ext, ElemType::Int(64));
        let e = self.put(block, OpKind::Tensor(TensorOp::Empty), sizes, ext_ty);
        // Operands the comparator does not read (the indices of an argsort)
        // are not inputs: their arguments are bound to zeros.
        let read: Vec<bool> = (0..operands.len())
            .map(|k| region.used[2 * k] || region.used[2 * k + 1])
            .collect();
        let mut ins = Vec::new();
        for (&o, &r) in operands.iter().zip(&read) {
            if r {
                ins.push((o, lead.clone()));
                ins.push((o, other.clone()));
            }
        }
        let m = operands.len();
        let elems: Vec<ElemType> = operands.iter().map(|&o| self.elem_of(o)).collect();
        let before = self.put_generic(
            block,
            &ins,
            &[(e, AffineMap::identity(n))],
            vec![IteratorType::Parallel; n as usize],
            |p, b, args| {
                let mut xi = Vec::new();
                let mut xj = Vec::new();
                let mut next = 0;
                for k in 0..m {
                    if read[k] {
                        xi.push(args[next]);
                        xj.push(args[next + 1]);
                        next += 2;
                    } else {
                        let z = p.put_zero(b, elems[k]);
                        xi.push(z);
                        xj.push(z);
                    }
                }
                let ji: Vec<TValue> = (0..m).flat_map(|k| [xj[k], xi[k]]).collect();
                let ij: Vec<TValue> = (0..m).flat_map(|k| [xi[k], xj[k]]).collect();
                let j_first = p.ext_apply(region, dialect, b, &ji)?;
                let i_first = p.ext_apply(region, dialect, b, &ij)?;
                let i = p.put_loop_index(b, axis);
                let j = p.put_loop_index(b, rank);
                let bef = p.put_before(b, j_first, i_first, |p, b| tie(p, b, i, j))?;
                let i64t = p.m.types.scalar(ElemType::Int(64));
                Ok(vec![p.put_arith(b, ArithOp::ExtUI, vec![bef], i64t)])
            },
        )?[0];
        self.count_before(block, before, operands[0], rank)
    }

    /// Whether `j` goes before `i`: the comparator orders them one way only
    /// (`j_first` and not `i_first`), or it orders them both ways or
    /// neither (equal under a strict `<` as StableHLO writes it, or under
    /// a non-strict `<=` as torch-mlir writes it) and `tie` says so.
    fn put_before(
        &mut self,
        b: TBlock,
        j_first: TValue,
        i_first: TValue,
        tie: impl FnOnce(&mut Self, TBlock) -> PResult<TValue>,
    ) -> PResult<TValue> {
        let not_i = self.put_not(b, i_first);
        let ordered = self.put_bool(b, ArithOp::AndI, j_first, not_i);
        let equal = self.put_cmpi(b, CmpIPred::Eq, j_first, i_first);
        let t = tie(self, b)?;
        let tied = self.put_bool(b, ArithOp::AndI, equal, t);
        Ok(self.put_bool(b, ArithOp::OrI, ordered, tied))
    }

    /// Position `r` along `axis` of each result (of `like`'s shape) takes
    /// the element of its `xs` operand whose rank is `r`: per operand an
    /// element-wise generic over (the result's dims, j) keeping the one hit
    /// (zeros elsewhere: -0.0 for floats, which leaves every value, -0.0
    /// and NaN included, exact), and one sum over j for all of them (a
    /// reduction the compiler splits; the runtime's sort did the same).
    fn put_picks(
        &mut self,
        block: TBlock,
        ranks: TValue,
        xs: &[TValue],
        like: TValue,
        axis: usize,
    ) -> PResult<Vec<TValue>> {
        let rank = self.shape_of(like).len();
        let n = rank as u32 + 1;
        let lead = AffineMap::select(n, &(0..rank as u32).collect::<Vec<_>>());
        let other = AffineMap::select(
            n,
            &(0..rank as u32)
                .map(|d| if d as usize == axis { rank as u32 } else { d })
                .collect::<Vec<_>>(),
        );
        let mut ext = self.shape_of(like);
        ext.push(self.shape_of(xs[0])[axis]);
        let mut sizes = Vec::new();
        for (d, s) in ext.iter().enumerate() {
            if *s == Dim::Dynamic {
                let (src, sd) = if d == rank { (xs[0], axis) } else { (like, d) };
                let i = self.put_int(block, sd as i64, ElemType::Index);
                let index = self.m.types.scalar(ElemType::Index);
                sizes.push(self.put(block, OpKind::Tensor(TensorOp::Dim), vec![src, i], index));
            }
        }
        let mut picked = Vec::new();
        let mut zeros = Vec::new();
        for &x in xs {
            let elem = self.elem_of(x);
            let ty = self.m.types.tensor(&ext, elem);
            let e = self.put(block, OpKind::Tensor(TensorOp::Empty), sizes.clone(), ty);
            let p = self.put_generic(
                block,
                &[(ranks, other.clone()), (x, other.clone())],
                &[(e, AffineMap::identity(n))],
                vec![IteratorType::Parallel; n as usize],
                |p, b, args| {
                    let r = p.put_loop_index(b, axis);
                    let i64t = p.m.types.scalar(ElemType::Int(64));
                    let ri = p.put_arith(b, ArithOp::IndexCast, vec![r], i64t);
                    let hit = p.put_cmpi(b, CmpIPred::Eq, args[0], ri);
                    let z = p.put_zero(b, elem);
                    Ok(vec![p.put_select(b, hit, args[1], z)])
                },
            )?[0];
            picked.push((p, AffineMap::identity(n)));
            let ez = self.put_empty_like(block, like, elem);
            let rid = AffineMap::identity(rank as u32);
            let z = self.put_generic(
                block,
                &[],
                &[(ez, rid)],
                vec![IteratorType::Parallel; rank],
                |p, b, _| Ok(vec![p.put_zero(b, elem)]),
            )?[0];
            zeros.push((z, lead.clone()));
        }
        let mut red = vec![IteratorType::Parallel; rank];
        red.push(IteratorType::Reduction);
        let m = xs.len();
        self.put_generic(block, &picked, &zeros, red, |p, b, args| {
            let mut out = Vec::new();
            for k in 0..m {
                let (v, acc) = (args[k], args[m + k]);
                let ty = p.m.value_type(v);
                let op = if p.elem_of(v).is_float() {
                    ArithOp::AddF
                } else {
                    ArithOp::AddI
                };
                out.push(p.put_arith(b, op, vec![acc, v], ty));
            }
            Ok(out)
        })
    }

    /// The additive zero of `elem` that leaves every value exact: -0.0 for
    /// floats, 0 for integers.
    fn put_zero(&mut self, block: TBlock, elem: ElemType) -> TValue {
        if elem.is_float() {
            let ty = self.m.types.scalar(elem);
            self.put(
                block,
                OpKind::Constant(ConstAttr::Float { value: -0.0, ty }),
                vec![],
                ty,
            )
        } else {
            self.put_int(block, 0, elem)
        }
    }

    // ---- scatter -----------------------------------------------------------

    fn parse_ext_scatter(
        &mut self,
        block: TBlock,
        dialect: &str,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        let what = format!("{dialect}.scatter");
        let dim_map = self.ext_dimension_map()?;
        self.ext_paren_bool("unique_indices")?;
        let (ins, outs) = self.ext_ins_outs()?;
        let region = self.ext_region_and_results(dialect, &outs, loc, &what)?;
        let end = self.pos();
        let op_err = |p: &Self, msg: &str| p.err_at(loc, format!("'{what}' op {msg}"));
        let ([upd, idx], [orig]) = (ins.as_slice(), outs.as_slice()) else {
            return op_err(self, "expects two inputs (updates, indices) and one output");
        };
        let (upd, idx, orig) = (*upd, *idx, *orig);
        let (us, is, os) = (self.shape_of(upd), self.shape_of(idx), self.shape_of(orig));
        let ielem = self.elem_of(idx);
        let int_idx = matches!(ielem, ElemType::Int(b) if b > 1) || ielem == ElemType::Index;
        if is.len() != 2 || !int_idx {
            return op_err(self, "expects indices of rank 2 with integer elements");
        }
        let Dim::Static(depth) = is[1] else {
            return op_err(self, "expects a static index depth");
        };
        let depth = depth as usize;
        let rank = os.len();
        if dim_map.len() != depth {
            return op_err(self, "expects one dimension_map entry per index");
        }
        let mut seen = vec![false; rank];
        for &d in &dim_map {
            if d >= rank || seen[d] {
                return op_err(self, "has an invalid dimension map");
            }
            seen[d] = true;
        }
        if us.is_empty() || (us[0] != is[0] && us[0] != Dim::Dynamic && is[0] != Dim::Dynamic) {
            return op_err(self, "expects as many updates as index rows");
        }
        // An update's slice dims line up with the original's trailing
        // dims (TMTensor's definition): update dim `1 + t` is original dim
        // `lead + t`. Dims before `lead` are indexed ones (the index is the
        // position); an indexed dim inside the slice adds the index to the
        // slice position, which kiln takes where that slice extent is 1
        // (torch-mlir's `index_put`: `tensor<Nx1x...>` updates).
        let slice = us.len() - 1;
        let Some(lead) = rank.checked_sub(slice) else {
            return op_err(
                self,
                "has updates of higher rank than the original's plus one",
            );
        };
        if (0..lead).any(|d| !dim_map.contains(&d)) {
            return op_err(
                self,
                "needs every original dim before the update slice's to be indexed (dimension_map)",
            );
        }
        let mut slice_src = Vec::with_capacity(slice);
        for (t, &u) in us[1..].iter().enumerate() {
            let d = lead + t;
            if dim_map.contains(&d) {
                if u != Dim::Static(1) {
                    return op_err(
                        self,
                        "is supported where an indexed dim inside the update slice has extent 1",
                    );
                }
                slice_src.push(None);
            } else if u != os[d] || u == Dim::Dynamic {
                return op_err(
                    self,
                    "is supported where the update slices have the original's sizes, static, on the dims not indexed",
                );
            } else {
                slice_src.push(Some(d as u32));
            }
        }
        let elem = self.elem_of(orig);
        let e_ty = self.m.types.scalar(elem);
        if self.elem_of(upd) != elem || region.args != [e_ty, e_ty] || region.yields != [e_ty] {
            return op_err(self, "expects updates and original of one element type and a region of two such arguments yielding one");
        }
        if dialect == "tm_tensor" {
            self.put_scatter_bounds_check(block, idx, orig, &dim_map, loc, &what)?;
        }
        let n = rank as u32 + 1;
        let orig_map = AffineMap::select(n, &(0..rank as u32).collect::<Vec<_>>());
        let upd_map = AffineMap::new(
            n,
            0,
            std::iter::once(AffineExpr::Dim(rank as u32))
                .chain(slice_src.iter().map(|d| match d {
                    Some(d) => AffineExpr::Dim(*d),
                    None => AffineExpr::Const(0),
                }))
                .collect(),
        );
        let mut red = vec![IteratorType::Parallel; rank];
        red.push(IteratorType::Reduction);
        let out = self.put_generic(
            block,
            &[(upd, upd_map)],
            &[(orig, orig_map)],
            red,
            |p, b, args| {
                let k = p.put_loop_index(b, rank);
                let mut hit = p.put_int(b, 1, ElemType::I1);
                let index = p.m.types.scalar(ElemType::Index);
                for (i, &d) in dim_map.iter().enumerate() {
                    let c = p.put_int(b, i as i64, ElemType::Index);
                    let v = p.put_extract(b, idx, vec![k, c]);
                    let v = if ielem == ElemType::Index {
                        v
                    } else {
                        p.put_arith(b, ArithOp::IndexCast, vec![v], index)
                    };
                    let at = p.put_loop_index(b, d);
                    let eq = p.put_cmpi(b, CmpIPred::Eq, v, at);
                    hit = p.put_bool(b, ArithOp::AndI, hit, eq);
                }
                let v = p.ext_apply(&region, dialect, b, &[args[0], args[1]])?;
                Ok(vec![p.put_select(b, hit, v, args[1])])
            },
        )?[0];
        self.reset_to(end)?;
        Ok(vec![out])
    }

    /// PyTorch's rule for `tm_tensor.scatter` (what `index_put` and
    /// `scatter` lower to): an index outside `[0, size)` of the dim it
    /// indexes is an error (PyTorch raises one for an index past either
    /// end; a negative one it would count from the end, which torch-mlir
    /// leaves to the op). Before the scatter: a reduction over every
    /// index, 1 while all are in range, and a `cf.assert` on it at the
    /// scatter's line, so every backend fails the call naming the op.
    fn put_scatter_bounds_check(
        &mut self,
        block: TBlock,
        idx: TValue,
        orig: TValue,
        dim_map: &[usize],
        loc: Location,
        what: &str,
    ) -> PResult<()> {
        let ielem = self.elem_of(idx);
        let ity = self.m.types.scalar(ielem);
        let index = self.m.types.scalar(ElemType::Index);
        // The size of each indexed dim, as an index element.
        let os = self.shape_of(orig);
        let mut sizes = Vec::with_capacity(dim_map.len());
        for &d in dim_map {
            let size = match os[d] {
                Dim::Static(n) => self.put_int(block, n as i64, ielem),
                Dim::Dynamic => {
                    let at = self.put_int(block, d as i64, ElemType::Index);
                    let n = self.put(block, OpKind::Tensor(TensorOp::Dim), vec![orig, at], index);
                    if ielem == ElemType::Index {
                        n
                    } else {
                        self.put_arith(block, ArithOp::IndexCast, vec![n], ity)
                    }
                }
            };
            sizes.push(size);
        }
        let i32_ty = self.m.types.tensor(&[], ElemType::I32);
        let empty = self.put(block, OpKind::Tensor(TensorOp::Empty), vec![], i32_ty);
        let scalar_map = AffineMap::new(2, 0, vec![]);
        let init = self.put_generic(
            block,
            &[],
            &[(empty, AffineMap::new(0, 0, vec![]))],
            vec![],
            |p, b, _| Ok(vec![p.put_int(b, 1, ElemType::I32)]),
        )?[0];
        let ok = self.put_generic(
            block,
            &[(idx, AffineMap::identity(2))],
            &[(init, scalar_map)],
            vec![IteratorType::Reduction; 2],
            |p, b, args| {
                // The bound of column `linalg.index 1`.
                let col = p.put_loop_index(b, 1);
                let mut bound = sizes[sizes.len() - 1];
                for (i, &size) in sizes.iter().enumerate().rev().skip(1) {
                    let c = p.put_int(b, i as i64, ElemType::Index);
                    let here = p.put_cmpi(b, CmpIPred::Eq, col, c);
                    bound = p.put_select(b, here, size, bound);
                }
                let zero = p.put_int(b, 0, ielem);
                let ge = p.put_cmpi(b, CmpIPred::Sge, args[0], zero);
                let lt = p.put_cmpi(b, CmpIPred::Slt, args[0], bound);
                let inside = p.put_bool(b, ArithOp::AndI, ge, lt);
                let no = p.put_int(b, 0, ElemType::I32);
                Ok(vec![p.put_select(b, inside, args[1], no)])
            },
        )?[0];
        let all = self.put_extract(block, ok, vec![]);
        let no = self.put_int(block, 0, ElemType::I32);
        let cond = self.put_cmpi(block, CmpIPred::Ne, all, no);
        let message = format!("'{what}' op index out of bounds: an index is outside the dim it indexes (PyTorch's rule)");
        let op = self
            .m
            .create_op(OpKind::Assert { message }, vec![cond], &[], vec![], loc);
        self.m.append_op(block, op);
        Ok(())
    }

    /// `dimension_map = [0, 1]` (IREE) or `{dimension_map = array<i64: 0, 1>}`
    /// (torch-mlir).
    fn ext_dimension_map(&mut self) -> PResult<Vec<usize>> {
        let braced = self.eat_punct("{")?;
        self.expect_ident("dimension_map")?;
        self.expect_punct("=")?;
        let close = if self.eat_punct("[")? {
            "]"
        } else {
            self.expect_ident("array")?;
            self.expect_punct("<")?;
            self.expect_ident("i64")?;
            if !self.eat_punct(":")? {
                self.expect_punct(">")?;
                if braced {
                    self.expect_punct("}")?;
                }
                return Ok(Vec::new());
            }
            ">"
        };
        let mut out = Vec::new();
        loop {
            out.push(self.uint("a dimension")? as usize);
            if !self.eat_punct(",")? {
                break;
            }
        }
        self.expect_punct(close)?;
        if braced {
            self.expect_punct("}")?;
        }
        Ok(out)
    }

    // ---- topk --------------------------------------------------------------

    fn parse_ext_topk(
        &mut self,
        block: TBlock,
        dialect: &str,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        let what = format!("{dialect}.topk");
        let axis = self.ext_paren_uint("dimension")? as usize;
        let (ins, outs) = self.ext_ins_outs()?;
        let region = self.ext_region_and_results(dialect, &outs, loc, &what)?;
        let end = self.pos();
        let op_err = |p: &Self, msg: &str| p.err_at(loc, format!("'{what}' op {msg}"));
        if !(1..=2).contains(&ins.len()) || outs.len() != 2 {
            return op_err(
                self,
                "expects one or two inputs (values, indices) and two outputs",
            );
        }
        let (x, ov, oi) = (ins[0], outs[0], outs[1]);
        let xs = self.shape_of(x);
        let rank = xs.len();
        if axis >= rank {
            return op_err(self, "dimension exceeds rank");
        }
        let i32e = ElemType::Int(32);
        let elem = self.elem_of(x);
        let e_ty = self.m.types.scalar(elem);
        let i1 = self.m.types.scalar(ElemType::I1);
        if self.elem_of(ov) != elem
            || self.elem_of(oi) != i32e
            || self.shape_of(ov) != self.shape_of(oi)
        {
            return op_err(self, "expects output values of the input's element type and i32 output indices of one shape");
        }
        if ins.len() == 2 && (self.elem_of(ins[1]) != i32e || self.shape_of(ins[1]) != xs) {
            return op_err(self, "expects i32 input indices of the input's shape");
        }
        if region.args != [e_ty, e_ty] || region.yields != [i1] {
            return op_err(
                self,
                "expects a comparator of two arguments of the element type yielding an i1",
            );
        }
        let os = self.shape_of(ov);
        let (Dim::Static(n), Dim::Static(k)) = (xs[axis], os[axis]) else {
            return op_err(
                self,
                "is supported with static sizes along the dimension only",
            );
        };
        let mut same = xs.clone();
        same[axis] = os[axis];
        if os.len() != rank || same != os || xs.contains(&Dim::Dynamic) {
            return op_err(
                self,
                "expects static input and output shapes that differ only along the dimension",
            );
        }
        if n + k > MAX_ROW {
            return op_err(
                self,
                &format!("ranks {} elements; kiln supports at most {MAX_ROW}", n + k),
            );
        }
        // The candidates: the outputs' entries, then the inputs (their
        // indices, or positions along the axis).
        let xi = if ins.len() == 2 {
            ins[1]
        } else {
            let e = self.put_empty_like(block, x, i32e);
            let id = AffineMap::identity(rank as u32);
            self.put_generic(
                block,
                &[],
                &[(e, id)],
                vec![IteratorType::Parallel; rank],
                |p, b, _| {
                    let i = p.put_loop_index(b, axis);
                    let i32t = p.m.types.scalar(i32e);
                    Ok(vec![p.put_arith(b, ArithOp::IndexCast, vec![i], i32t)])
                },
            )?[0]
        };
        let mut cs = xs.clone();
        cs[axis] = Dim::Static(n + k);
        let cv = self.put_concat(block, ov, x, axis, &cs, elem);
        let ci = self.put_concat(block, oi, xi, axis, &cs, i32e);
        // Rank by the comparator on values, ties by the smaller index, then
        // by position; the comparator sees the values only.
        let ranks = self.put_ranks_topk(block, dialect, &region, cv, ci, axis)?;
        let results = self.put_picks(block, ranks, &[cv, ci], ov, axis)?;
        self.reset_to(end)?;
        Ok(results)
    }

    /// `a` then `b` along `axis` (a `tensor.insert_slice` of each into an
    /// empty tensor of `shape`; static shapes).
    fn put_concat(
        &mut self,
        block: TBlock,
        a: TValue,
        b: TValue,
        axis: usize,
        shape: &[Dim],
        elem: ElemType,
    ) -> TValue {
        use crate::tensor::attr::Mixed;
        let ty = self.m.types.tensor(shape, elem);
        let mut cur = self.put(block, OpKind::Tensor(TensorOp::Empty), vec![], ty);
        let mut offset = 0i64;
        for part in [a, b] {
            let ps = self.shape_of(part);
            let sizes: Vec<Mixed> = ps
                .iter()
                .map(|d| Mixed::Static(d.fixed().unwrap_or(0) as i64))
                .collect();
            let mut offsets = vec![Mixed::Static(0); ps.len()];
            offsets[axis] = Mixed::Static(offset);
            let kind = OpKind::Tensor(TensorOp::InsertSlice {
                offsets,
                sizes,
                strides: vec![Mixed::Static(1); ps.len()],
            });
            cur = self.put(block, kind, vec![part, cur], ty);
            offset += ps[axis].fixed().unwrap_or(0) as i64;
        }
        cur
    }

    fn put_ranks_topk(
        &mut self,
        block: TBlock,
        dialect: &str,
        region: &Region,
        values: TValue,
        indices: TValue,
        axis: usize,
    ) -> PResult<TValue> {
        // The comparator sees the values only: a region over (value,
        // index) pairs built here would need its own text, so the rank
        // runs over both operands with the index compared in `tie`.
        let rank = self.shape_of(values).len();
        let n = rank as u32 + 1;
        let lead = AffineMap::select(n, &(0..rank as u32).collect::<Vec<_>>());
        let other = AffineMap::select(
            n,
            &(0..rank as u32)
                .map(|d| if d as usize == axis { rank as u32 } else { d })
                .collect::<Vec<_>>(),
        );
        let mut ext = self.shape_of(values);
        ext.push(ext[axis]);
        let ext_ty = self.m.types.tensor(&ext, ElemType::Int(64));
        let e = self.put(block, OpKind::Tensor(TensorOp::Empty), vec![], ext_ty);
        let before = self.put_generic(
            block,
            &[
                (values, lead.clone()),
                (values, other.clone()),
                (indices, lead.clone()),
                (indices, other),
            ],
            &[(e, AffineMap::identity(n))],
            vec![IteratorType::Parallel; n as usize],
            |p, b, args| {
                let (vi, vj, ii, ij) = (args[0], args[1], args[2], args[3]);
                let j_first = p.ext_apply(region, dialect, b, &[vj, vi])?;
                let i_first = p.ext_apply(region, dialect, b, &[vi, vj])?;
                let i = p.put_loop_index(b, axis);
                let j = p.put_loop_index(b, rank);
                let lower = p.put_cmpi(b, CmpIPred::Slt, ij, ii);
                let same = p.put_cmpi(b, CmpIPred::Eq, ij, ii);
                let earlier = p.put_cmpi(b, CmpIPred::Ult, j, i);
                let pos_tie = p.put_bool(b, ArithOp::AndI, same, earlier);
                let t = p.put_bool(b, ArithOp::OrI, lower, pos_tie);
                let bef = p.put_before(b, j_first, i_first, |_, _| Ok(t))?;
                let i64t = p.m.types.scalar(ElemType::Int(64));
                Ok(vec![p.put_arith(b, ArithOp::ExtUI, vec![bef], i64t)])
            },
        )?[0];
        self.count_before(block, before, values, rank)
    }

    /// Each element's rank: how many `j` go before it, summed along the
    /// last dim of `before` (an `i64` 0/1 tensor of the `rank` dims of
    /// `like` and one more), into `like`'s shape.
    fn count_before(
        &mut self,
        block: TBlock,
        before: TValue,
        like: TValue,
        rank: usize,
    ) -> PResult<TValue> {
        let n = rank as u32 + 1;
        let lead = AffineMap::select(n, &(0..rank as u32).collect::<Vec<_>>());
        let zeros = self.put_filled(block, like, 0, ElemType::Int(64))?;
        let mut red = vec![IteratorType::Parallel; rank];
        red.push(IteratorType::Reduction);
        Ok(self.put_generic(
            block,
            &[(before, AffineMap::identity(n))],
            &[(zeros, lead)],
            red,
            |p, b, args| {
                let i64t = p.m.types.scalar(ElemType::Int(64));
                Ok(vec![p.put_arith(
                    b,
                    ArithOp::AddI,
                    vec![args[1], args[0]],
                    i64t,
                )])
            },
        )?[0])
    }
}
