//! `scf.for` and `scf.if` at the tensor level, resolved at import (the
//! tensor IR has no control flow; the program prints back without them):
//!
//! - `scf.for` whose bounds and step are known at compile time (constants,
//!   static sizes through `tensor.dim`, and integer arithmetic on those) is
//!   unrolled: its body is parsed once per iteration, with the induction
//!   variable a constant and the `iter_args` the previous iteration's
//!   yielded values; its results are the last ones. Other bounds (read from
//!   tensor data) are refused with the op and its line.
//! - `scf.if` with a known condition is the branch it takes (the other is
//!   parsed and checked, then dropped); with a condition known only at run
//!   time, both branches are computed and each result is an `arith.select`
//!   on the condition (what `tosa.cond_if` lowers to); an op of a branch
//!   that can fail (a `cf.assert`, an index read from tensor data) is given
//!   safe operands on the run where its branch is not taken
//!   (`scf_guard.rs`).
//! - `scf.while` whose condition is known at compile time on every trip
//!   (a counter from constants and static sizes) is unrolled: the `before`
//!   region is parsed with the carried values, its `scf.condition` decides
//!   whether the `do` region runs once more. A condition read from tensor
//!   data is refused with the op and its line.

use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::attr::ConstAttr;
use crate::tensor::entity::{TBlock, TType, TValue};
use crate::tensor::eval::{scalar, Scalar};
use crate::tensor::module::ValueDef;
use crate::tensor::ops::{ArithOp, OpKind, TensorOp};
use crate::tensor::types::{ElemType, TypeKind};
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

/// The most iterations an `scf.for` is unrolled to.
const MAX_UNROLL: i64 = 4096;

impl Parser<'_> {
    /// `scf.for`, `scf.if` (after the name) appended to `block`: the values
    /// its results are.
    pub(crate) fn parse_scf(
        &mut self,
        block: TBlock,
        short: &str,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        match short {
            "for" => self.parse_scf_for(block, loc),
            "if" => self.parse_scf_if(block, loc),
            "while" => self.parse_scf_while(block, loc),
            "yield" => self.err_at(loc, "'scf.yield' outside an scf.for or scf.if region"),
            _ => self.err_at(
                loc,
                format!("unsupported op 'scf.{short}'; supported scf ops: for, if, while, yield"),
            ),
        }
    }

    /// `scf.for %iv = %lb to %ub step %s [iter_args(%a = %x, ...) -> (T, ...)]
    /// [: type] { body; scf.yield ... }`.
    fn parse_scf_for(&mut self, block: TBlock, loc: Location) -> PResult<Vec<TValue>> {
        self.eat_ident("unsigned")?;
        let (iv, iv_loc) = self.def_name()?;
        self.expect_punct("=")?;
        let lb = self.value_use()?;
        self.expect_ident("to")?;
        let ub = self.value_use()?;
        self.expect_ident("step")?;
        let step = self.value_use()?;
        let mut carried: Vec<(String, Location)> = Vec::new();
        let mut inits = Vec::new();
        let mut types = Vec::new();
        if self.eat_ident("iter_args")? {
            self.expect_punct("(")?;
            self.comma_list(")", |p| {
                carried.push(p.def_name()?);
                p.expect_punct("=")?;
                inits.push(p.value_use()?);
                Ok(())
            })?;
            self.expect_punct("->")?;
            types = self.parse_result_types()?;
            if types.len() != inits.len() {
                return self.err_at(
                    loc,
                    "'scf.for' op mismatch in number of loop-carried values and defined values",
                );
            }
            let tloc = self.loc();
            self.check_types(&inits, &types, tloc)?;
        }
        let index = self.m.types.scalar(ElemType::Index);
        let iv_ty = if self.eat_punct(":")? {
            self.parse_type()?
        } else {
            index
        };
        for v in [lb, ub, step] {
            if self.m.value_type(v) != iv_ty {
                return self.err_at(
                    loc,
                    "'scf.for' op expects the bounds and step to have the induction variable's type",
                );
            }
        }
        let bounds = (self.known_int(lb), self.known_int(ub), self.known_int(step));
        let (Some(lb), Some(ub), Some(step)) = bounds else {
            return self.err_at(
                loc,
                "unsupported 'scf.for': its bounds are not known at compile time (kiln unrolls loops whose bounds are constants or static sizes)",
            );
        };
        if step <= 0 {
            return self.err_at(loc, "'scf.for' op constant step operand must be positive");
        }
        let trips = if ub > lb {
            (i128::from(ub) - i128::from(lb) + i128::from(step) - 1) / i128::from(step)
        } else {
            0
        };
        if trips > i128::from(MAX_UNROLL) {
            return self.err_at(
                loc,
                format!(
                    "unsupported 'scf.for': {trips} iterations (kiln unrolls at most {MAX_UNROLL})"
                ),
            );
        }
        self.expect_punct("{")?;
        let body_start = self.pos();
        let mut current = inits;
        // A loop that runs no iteration still has its body checked (into a
        // block the program does not hold).
        let runs = trips.max(1) as i64;
        for i in 0..runs {
            self.reset_to(body_start)?;
            let target = if trips == 0 {
                self.m.create_block(&[])
            } else {
                block
            };
            self.push_scope(false);
            let value = lb + i * step;
            let ivv = self.emit_const_into(target, value, iv_ty, iv_loc);
            self.define(&iv, vec![ivv], iv_loc)?;
            for ((n, l), &v) in carried.iter().zip(&current) {
                self.define(n, vec![v], *l)?;
            }
            let yielded = self.parse_scf_body(target, &types);
            self.pop_scope();
            let yielded = yielded?;
            if trips > 0 {
                current = yielded;
            }
        }
        Ok(current)
    }

    /// `scf.while (%a = %x, ...) : (T, ...) -> (R, ...) { before;
    /// scf.condition(%c) %v, ... : R, ... } do { ^bb0(%r: R, ...): after;
    /// scf.yield ... }`.
    fn parse_scf_while(&mut self, block: TBlock, loc: Location) -> PResult<Vec<TValue>> {
        let mut carried: Vec<(String, Location)> = Vec::new();
        let mut current = Vec::new();
        self.expect_punct("(")?;
        self.comma_list(")", |p| {
            carried.push(p.def_name()?);
            p.expect_punct("=")?;
            current.push(p.value_use()?);
            Ok(())
        })?;
        self.expect_punct(":")?;
        self.expect_punct("(")?;
        let mut arg_types = Vec::new();
        self.comma_list(")", |p| {
            arg_types.push(p.parse_type()?);
            Ok(())
        })?;
        self.expect_punct("->")?;
        let types = self.parse_result_types()?;
        if arg_types.len() != current.len() {
            return self.err_at(
                loc,
                "'scf.while' op expects as many operand types as operands",
            );
        }
        let tloc = self.loc();
        self.check_types(&current, &arg_types, tloc)?;
        let before_at = self.pos();
        let mut trips = 0i64;
        loop {
            self.reset_to(before_at)?;
            self.expect_punct("{")?;
            self.push_scope(false);
            let r = self.parse_scf_before(block, &carried, &current, &types);
            self.pop_scope();
            let (cond, forwarded) = r?;
            self.expect_ident("do")?;
            let go = match self.known_int(cond) {
                Some(c) => c != 0,
                None => {
                    return self.err_at(
                        loc,
                        "unsupported 'scf.while': its condition is not known at compile time (kiln unrolls while loops whose condition follows from constants and static sizes; this one depends on tensor data)",
                    )
                }
            };
            // The `do` region: into the program while the loop goes on,
            // else checked into a block the program does not hold.
            let target = if go { block } else { self.m.create_block(&[]) };
            self.expect_punct("{")?;
            self.push_scope(false);
            let r = self.parse_scf_after(target, &forwarded, &arg_types);
            self.pop_scope();
            let next = r?;
            if !go {
                return Ok(forwarded);
            }
            trips += 1;
            if trips > MAX_UNROLL {
                return self.err_at(
                    loc,
                    format!("unsupported 'scf.while': more than {MAX_UNROLL} iterations (kiln unrolls at most {MAX_UNROLL})"),
                );
            }
            // Known scalars are carried as constants (the next trip's
            // condition folds from them without a chain of ops).
            current = next
                .into_iter()
                .map(|v| match self.known_int(v) {
                    Some(c) if matches!(self.m.value_kind(v), TypeKind::Scalar(_)) => {
                        let ty = self.m.value_type(v);
                        self.emit_const_into(block, c, ty, loc)
                    }
                    _ => v,
                })
                .collect();
        }
    }

    /// The `before` region of an `scf.while` (after its `{`), its arguments
    /// bound to `values`: the condition and the values it forwards.
    fn parse_scf_before(
        &mut self,
        block: TBlock,
        names: &[(String, Location)],
        values: &[TValue],
        types: &[TType],
    ) -> PResult<(TValue, Vec<TValue>)> {
        if let TokKind::Block(_) = self.peek() {
            // An explicit `^bb0(%a: T, ...):` names the arguments instead.
            self.bump()?;
            let args = self.parse_block_args()?;
            self.expect_punct(":")?;
            if args.len() != values.len() {
                return self.expected("one block argument per loop operand");
            }
            for ((n, l, _), &v) in args.iter().zip(values) {
                self.define(n, vec![v], *l)?;
            }
        } else {
            for ((n, l), &v) in names.iter().zip(values) {
                self.define(n, vec![v], *l)?;
            }
        }
        loop {
            if self.is_ident("scf.condition") {
                let cloc = self.loc();
                self.bump()?;
                self.expect_punct("(")?;
                let cond = self.value_use()?;
                self.expect_punct(")")?;
                let forwarded = self.typed_value_list()?;
                let i1 = self.m.types.scalar(ElemType::I1);
                if self.m.value_type(cond) != i1 {
                    return self.err_at(cloc, "'scf.condition' op expects an i1 condition");
                }
                self.check_types(&forwarded, types, cloc)?;
                self.expect_punct("}")?;
                return Ok((cond, forwarded));
            }
            if self.is_punct("}") {
                return self.expected("'scf.condition'");
            }
            if matches!(self.peek(), TokKind::Eof) {
                return self.expected("'}'");
            }
            self.parse_op_into(block)?;
        }
    }

    /// The `do` region of an `scf.while` (after its `{`), its block
    /// arguments bound to `values`: the values it yields, of `types`.
    fn parse_scf_after(
        &mut self,
        block: TBlock,
        values: &[TValue],
        types: &[TType],
    ) -> PResult<Vec<TValue>> {
        if let TokKind::Block(_) = self.peek() {
            self.bump()?;
            let args = if self.is_punct("(") {
                self.parse_block_args()?
            } else {
                Vec::new()
            };
            self.expect_punct(":")?;
            if args.len() != values.len() {
                return self.expected("one block argument per value 'scf.condition' forwards");
            }
            for ((n, l, _), &v) in args.iter().zip(values) {
                self.define(n, vec![v], *l)?;
            }
        } else if !values.is_empty() {
            return self.expected("the 'do' region's block arguments '^bb0(...)'");
        }
        self.parse_scf_body(block, types)
    }

    /// Ops of a region (after its `{`) into `block` up to its
    /// `scf.yield` and `}`: the yielded values, of `types`.
    fn parse_scf_body(&mut self, block: TBlock, types: &[TType]) -> PResult<Vec<TValue>> {
        loop {
            if self.is_ident("scf.yield") {
                let loc = self.loc();
                self.bump()?;
                let values = self.typed_value_list()?;
                if values.len() != types.len() {
                    return self.err_at(
                        loc,
                        format!(
                            "'scf.yield' yields {} values where the op has {} results",
                            values.len(),
                            types.len()
                        ),
                    );
                }
                self.check_types(&values, types, loc)?;
                self.expect_punct("}")?;
                return Ok(values);
            }
            if self.is_punct("}") {
                if types.is_empty() {
                    self.bump()?;
                    return Ok(Vec::new());
                }
                return self.expected("'scf.yield'");
            }
            if matches!(self.peek(), TokKind::Eof) {
                return self.expected("'}'");
            }
            self.parse_op_into(block)?;
        }
    }

    /// `scf.if %c [-> (T, ...)] { ... } [else { ... }]`.
    fn parse_scf_if(&mut self, block: TBlock, loc: Location) -> PResult<Vec<TValue>> {
        let cond = self.value_use()?;
        let i1 = self.m.types.scalar(ElemType::I1);
        if self.m.value_type(cond) != i1 {
            return self.err_at(loc, "'scf.if' op expects an i1 condition");
        }
        let types = if self.eat_punct("->")? {
            self.parse_result_types()?
        } else {
            Vec::new()
        };
        let known = self.known_int(cond).map(|c| c != 0);
        // A known condition: the taken branch goes into the block, the other
        // into a block the program does not hold. Unknown: each into a
        // block of its own, then both into the program and a select.
        let then_block = match known {
            Some(true) => block,
            _ => self.m.create_block(&[]),
        };
        let else_block = match known {
            Some(false) => block,
            _ => self.m.create_block(&[]),
        };
        self.expect_punct("{")?;
        self.push_scope(false);
        let then_vals = self.parse_scf_body(then_block, &types);
        self.pop_scope();
        let then_vals = then_vals?;
        let else_vals = if self.eat_ident("else")? {
            self.expect_punct("{")?;
            self.push_scope(false);
            let v = self.parse_scf_body(else_block, &types);
            self.pop_scope();
            v?
        } else if !types.is_empty() {
            return self.err_at(
                loc,
                "'scf.if' op must have an else block if defining values",
            );
        } else {
            Vec::new()
        };
        match known {
            Some(true) => Ok(then_vals),
            Some(false) => Ok(else_vals),
            None => {
                for (b, when) in [(then_block, true), (else_block, false)] {
                    // What can fail gets safe operands on the run where its
                    // branch is not taken (scf_guard.rs).
                    self.guard_branch(b, cond, when, loc)?;
                    let ops = self.m.take_ops(b);
                    for o in ops {
                        self.m.append_op(block, o);
                    }
                }
                let mut out = Vec::new();
                for ((&t, &e), &ty) in then_vals.iter().zip(&else_vals).zip(&types) {
                    let kind = OpKind::Arith {
                        op: ArithOp::Select,
                        fastmath: Default::default(),
                        overflow: Default::default(),
                    };
                    let op = self.m.create_op(kind, vec![cond, t, e], &[ty], vec![], loc);
                    self.m.append_op(block, op);
                    out.push(self.m.op(op).results[0]);
                }
                Ok(out)
            }
        }
    }

    /// `arith.constant value : ty` appended to `block`.
    fn emit_const_into(&mut self, block: TBlock, value: i64, ty: TType, loc: Location) -> TValue {
        let op = self.m.create_op(
            OpKind::Constant(ConstAttr::Int { value, ty }),
            vec![],
            &[ty],
            vec![],
            loc,
        );
        self.m.append_op(block, op);
        self.m.op(op).results[0]
    }

    /// The value of an integer, index or i1 scalar known at compile time:
    /// a constant, a static size (`tensor.dim`), or integer arithmetic on
    /// those.
    pub(crate) fn known_int(&self, v: TValue) -> Option<i64> {
        self.known_int_depth(v, 0)
    }

    fn known_int_depth(&self, v: TValue, depth: u32) -> Option<i64> {
        if depth > 64 {
            return None;
        }
        let ValueDef::Result { op, .. } = self.m.value(v).def else {
            return None;
        };
        let d = self.m.op(op);
        let arg = |i: usize| {
            d.operands
                .get(i)
                .and_then(|&x| self.known_int_depth(x, depth + 1))
        };
        let bits = match self.m.ty(self.m.value_type(v)) {
            TypeKind::Scalar(ElemType::Index) => 64,
            TypeKind::Scalar(ElemType::I1) => 1,
            TypeKind::Scalar(ElemType::Int(b)) if *b <= 64 => *b,
            _ => return None,
        };
        let value = match &d.kind {
            OpKind::Constant(ConstAttr::Int { value, .. }) => *value,
            OpKind::Tensor(TensorOp::Dim) => {
                let i = usize::try_from(arg(1)?).ok()?;
                let src = *d.operands.first()?;
                let shape = self.m.value_kind(src).tensor_shape()?.to_vec();
                shape.get(i)?.fixed()? as i64
            }
            // A known condition picks its operand; the other may stay unknown.
            OpKind::Arith {
                op: ArithOp::Select,
                ..
            } => {
                if arg(0)? != 0 {
                    arg(1)?
                } else {
                    arg(2)?
                }
            }
            OpKind::Arith { op, .. } => {
                let arity = folded_arity(*op)?;
                if d.operands.len() != arity {
                    return None;
                }
                let args = (0..arity)
                    .map(|i| arg(i).map(Scalar::Int))
                    .collect::<Option<Vec<_>>>()?;
                let arg_elem = self.m.value_kind(d.operands[0]).elem();
                let res_elem = self.m.value_kind(v).elem();
                // What MLIR leaves undefined (division by zero, signed
                // overflow) is an error there: not known.
                scalar::arith(*op, &args, arg_elem, res_elem).ok()?.int()
            }
            _ => return None,
        };
        // Sign-extend from the value's width (MLIR's wrap-around).
        Some(if bits >= 64 {
            value
        } else {
            let s = 64 - bits;
            (value << s) >> s
        })
    }
}

/// How many operands an integer `arith` op that bounds fold through takes
/// (`None`: not folded; `select` is folded on its own).
fn folded_arity(op: ArithOp) -> Option<usize> {
    use ArithOp::*;
    match op {
        IndexCast | ExtSI | TruncI => Some(1),
        AddI | SubI | MulI | DivSI | RemSI | FloorDivSI | CeilDivSI | MaxSI | MinSI | AndI
        | OrI | XOrI | CmpI(_) => Some(2),
        _ => None,
    }
}

impl Parser<'_> {
    /// An op in `block` (at any depth) that can fail the call when it runs:
    /// a `cf.assert` or check op, or a `tensor.extract` / `insert` /
    /// `extract_slice` / `insert_slice` with an index, offset or size not
    /// known when the program is read. Computing both branches of a
    /// run-time `scf.if` would run it on the branch not taken.
    pub(super) fn may_fail(&self, block: TBlock) -> Option<crate::tensor::TOp> {
        let m = &self.m;
        let constant = |v: TValue| match m.value(v).def {
            ValueDef::Result { op, .. } => matches!(m.op(op).kind, OpKind::Constant(_)),
            _ => false,
        };
        let mut found = None;
        m.walk(block, &mut |o| {
            if found.is_some() {
                return;
            }
            let d = m.op(o);
            let fails = match &d.kind {
                OpKind::Assert { .. } | OpKind::Check(_) => true,
                OpKind::Tensor(TensorOp::Extract | TensorOp::ExtractSlice { .. }) => {
                    d.operands.iter().skip(1).any(|&v| !constant(v))
                }
                OpKind::Tensor(TensorOp::Insert | TensorOp::InsertSlice { .. }) => {
                    d.operands.iter().skip(2).any(|&v| !constant(v))
                }
                _ => false,
            };
            if fails {
                found = Some(o);
            }
        });
        found
    }
}
