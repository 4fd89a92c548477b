//! The op dispatcher and the `func`, `arith`, `math`, `util`, `flow` and
//! `check` ops.

use super::{PResult, ParsedOp, Parser};
use crate::ir::Location;
use crate::tensor::attr::{CmpFPred, CmpIPred, ConstAttr, FastMath, Overflow};
use crate::tensor::entity::TType;
use crate::tensor::ops::{supported_ops, ArithOp, CheckOp, MathOp, OpKind, Signature};
use crate::tensor::types::{ElemType, TypeKind};
use crate::text::cursor::TokenParser;

/// The dialects of the tensor IR.
const DIALECTS: &str =
    "func, arith, math, linalg, tensor, util, flow, check, cf (assert), affine (apply, min, max), ml_program (global, global_load, global_load_const), scf (for, if, yield)";

impl Parser<'_> {
    /// The rest of an op after its name.
    pub(crate) fn parse_op_body(&mut self, name: &str, loc: Location) -> PResult<ParsedOp> {
        let (dialect, short) = name.split_once('.').unwrap_or(("", name));
        match (dialect, short) {
            ("", "return") | ("func", "return") => self.parse_return(),
            ("", "call") | ("func", "call") => self.parse_call(),
            ("arith", "constant") => {
                let attr = self.parse_const_attr()?;
                let ty = attr.ty();
                Ok(ParsedOp::new(OpKind::Constant(attr), vec![], vec![ty]))
            }
            ("arith", _) => match ArithOp::from_short_name(short) {
                Some(op) => self.parse_arith(op),
                None => self.unknown_op(name, "arith", loc),
            },
            ("math", _) => match MathOp::from_short_name(short) {
                Some(op) => self.parse_math(op),
                None => self.unknown_op(name, "math", loc),
            },
            ("linalg", _) => self.parse_linalg(name, short, loc),
            ("tensor", _) => self.parse_tensor_op(name, short, loc),
            ("util", "unfoldable_constant") => {
                let attr = self.parse_const_attr()?;
                let ty = attr.ty();
                Ok(ParsedOp::new(
                    OpKind::UnfoldableConstant(attr),
                    vec![],
                    vec![ty],
                ))
            }
            ("util", "optimization_barrier") => {
                let operands = self.value_list()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let types = self.parse_type_list()?;
                self.check_types(&operands, &types, tloc)?;
                Ok(ParsedOp::new(OpKind::OptimizationBarrier, operands, types))
            }
            ("flow", "tensor.dynamic_constant") => {
                let value = self.parse_dense()?;
                self.expect_punct("->")?;
                let ty = self.parse_type()?;
                Ok(ParsedOp::new(
                    OpKind::DynamicConstant(value),
                    vec![],
                    vec![ty],
                ))
            }
            ("check", _) => self.parse_check(name, short, loc),
            ("cf", "assert") => self.parse_assert(),
            ("affine", _) => self.parse_affine_op(name, short, loc),
            ("ml_program", "global_load" | "global_load_const") => self.parse_global_load(name),
            ("util" | "flow" | "func", _) => self.unknown_op(name, dialect, loc),
            _ => self.err_at(
                loc,
                format!("unsupported op '{name}': tensor programs use the dialects {DIALECTS}"),
            ),
        }
    }

    pub(crate) fn unknown_op<T>(&self, name: &str, dialect: &str, loc: Location) -> PResult<T> {
        self.err_at(
            loc,
            format!(
                "unsupported op '{name}'; supported {dialect} ops: {}",
                supported_ops(dialect).join(", ")
            ),
        )
    }

    /// Checks that `values` have `types` (as written after `:`).
    pub(crate) fn check_types(
        &self,
        values: &[crate::tensor::entity::TValue],
        types: &[TType],
        loc: Location,
    ) -> PResult<()> {
        if values.len() != types.len() {
            return self.err_at(
                loc,
                format!(
                    "{} operands present, but expected {}",
                    values.len(),
                    types.len()
                ),
            );
        }
        for (&v, &t) in values.iter().zip(types) {
            self.check_type(v, t, loc)?;
        }
        Ok(())
    }

    /// `cf.assert %cond, "message"`.
    fn parse_assert(&mut self) -> PResult<ParsedOp> {
        let cond = self.value_use()?;
        self.expect_punct(",")?;
        let message = match self.peek() {
            crate::text::lexer::TokKind::Str(s) => s.to_string(),
            _ => return self.expected("the assert's message (a string)"),
        };
        self.bump()?;
        Ok(ParsedOp::new(
            OpKind::Assert { message },
            vec![cond],
            vec![],
        ))
    }

    fn parse_return(&mut self) -> PResult<ParsedOp> {
        let operands = self.value_list()?;
        if !operands.is_empty() {
            self.expect_punct(":")?;
            let loc = self.loc();
            let types = self.parse_type_list()?;
            self.check_types(&operands, &types, loc)?;
        }
        Ok(ParsedOp::new(OpKind::Return, operands, vec![]))
    }

    fn parse_call(&mut self) -> PResult<ParsedOp> {
        let callee = self.symbol()?;
        self.expect_punct("(")?;
        let operands = self.value_list()?;
        self.expect_punct(")")?;
        self.expect_punct(":")?;
        let loc = self.loc();
        self.expect_punct("(")?;
        let mut inputs = Vec::new();
        self.comma_list(")", |p| {
            inputs.push(p.parse_type()?);
            Ok(())
        })?;
        self.check_types(&operands, &inputs, loc)?;
        self.expect_punct("->")?;
        let results = self.parse_result_types()?;
        Ok(ParsedOp::new(OpKind::Call { callee }, operands, results))
    }

    /// `fastmath<...>` if present.
    fn parse_fastmath(&mut self) -> PResult<FastMath> {
        if !self.eat_ident("fastmath")? {
            return Ok(FastMath::default());
        }
        self.expect_punct("<")?;
        let mut flags = FastMath::default();
        loop {
            let name = self.ident("a fast-math flag")?;
            match FastMath::flag(name) {
                Some(f) => flags.0 |= f.0,
                None => return self.err(format!("unknown fast-math flag '{name}'")),
            }
            if !self.eat_punct(",")? {
                break;
            }
        }
        self.expect_punct(">")?;
        Ok(flags)
    }

    /// `overflow<...>` if present.
    fn parse_overflow(&mut self) -> PResult<Overflow> {
        let mut o = Overflow::default();
        if !self.eat_ident("overflow")? {
            return Ok(o);
        }
        self.expect_punct("<")?;
        loop {
            match self.ident("an overflow flag")? {
                "nsw" => o.nsw = true,
                "nuw" => o.nuw = true,
                "none" => {}
                other => return self.err(format!("unknown overflow flag '{other}'")),
            }
            if !self.eat_punct(",")? {
                break;
            }
        }
        self.expect_punct(">")?;
        Ok(o)
    }

    fn parse_arith(&mut self, op: ArithOp) -> PResult<ParsedOp> {
        let op = match op {
            ArithOp::CmpI(_) => {
                let name = self.ident("a comparison predicate")?;
                match CmpIPred::from_name(name) {
                    Some(p) => ArithOp::CmpI(p),
                    None => return self.err(format!("unknown cmpi predicate '{name}'")),
                }
            }
            ArithOp::CmpF(_) => {
                let name = self.ident("a comparison predicate")?;
                match CmpFPred::from_name(name) {
                    Some(p) => ArithOp::CmpF(p),
                    None => return self.err(format!("unknown cmpf predicate '{name}'")),
                }
            }
            other => other,
        };
        if matches!(op, ArithOp::CmpI(_) | ArithOp::CmpF(_)) {
            self.expect_punct(",")?;
        }
        let operands = self.value_list()?;
        let overflow = self.parse_overflow()?;
        let fastmath = self.parse_fastmath()?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let kind = OpKind::Arith {
            op,
            fastmath,
            overflow,
        };
        let results = match op.signature() {
            Signature::Same(n) => {
                let ty = self.parse_type()?;
                self.expect_count(&operands, n, tloc)?;
                self.check_types(&operands, &vec![ty; n], tloc)?;
                vec![ty]
            }
            Signature::Compare => {
                let ty = self.parse_type()?;
                self.expect_count(&operands, 2, tloc)?;
                self.check_types(&operands, &[ty, ty], tloc)?;
                vec![self.with_elem(ty, ElemType::I1)]
            }
            Signature::Select => {
                let types = self.parse_type_list()?;
                self.expect_count(&operands, 3, tloc)?;
                let (cond, ty) = match types.as_slice() {
                    [t] => (self.m.types.scalar(ElemType::I1), *t),
                    [c, t] => (*c, *t),
                    _ => return self.err_at(tloc, "expected one or two types"),
                };
                self.check_types(&operands, &[cond, ty, ty], tloc)?;
                vec![ty]
            }
            Signature::Cast => {
                let from = self.parse_type()?;
                self.expect_ident("to")?;
                let to = self.parse_type()?;
                self.expect_count(&operands, 1, tloc)?;
                self.check_types(&operands, &[from], tloc)?;
                vec![to]
            }
            Signature::FloatInt => return self.err_at(tloc, "unexpected arith op signature"),
        };
        Ok(ParsedOp::new(kind, operands, results))
    }

    pub(crate) fn expect_count(
        &self,
        operands: &[crate::tensor::entity::TValue],
        n: usize,
        loc: Location,
    ) -> PResult<()> {
        if operands.len() != n {
            return self.err_at(
                loc,
                format!("expected {n} operands, found {}", operands.len()),
            );
        }
        Ok(())
    }

    /// `ty` with its element type replaced by `elem` (scalar or tensor).
    pub(crate) fn with_elem(&mut self, ty: TType, elem: ElemType) -> TType {
        let kind = match self.m.ty(ty).clone() {
            TypeKind::Tensor { shape, .. } => TypeKind::Tensor { shape, elem },
            TypeKind::Vector { shape, .. } => TypeKind::Vector { shape, elem },
            TypeKind::Scalar(_) => TypeKind::Scalar(elem),
        };
        self.m.types.intern(kind)
    }

    fn parse_math(&mut self, op: MathOp) -> PResult<ParsedOp> {
        let operands = self.value_list()?;
        let fastmath = self.parse_fastmath()?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        match op.signature() {
            Signature::Same(n) => {
                self.expect_count(&operands, n, tloc)?;
                self.check_types(&operands, &vec![ty; n], tloc)?;
            }
            Signature::FloatInt => {
                // `math.fpowi %x, %n : F, I`.
                self.expect_punct(",")?;
                let int_ty = self.parse_type()?;
                self.expect_count(&operands, 2, tloc)?;
                self.check_types(&operands, &[ty, int_ty], tloc)?;
            }
            _ => return self.err_at(tloc, "unexpected math op signature"),
        }
        Ok(ParsedOp::new(
            OpKind::Math { op, fastmath },
            operands,
            vec![ty],
        ))
    }

    fn parse_check(&mut self, name: &str, short: &str, loc: Location) -> PResult<ParsedOp> {
        if self.is_punct("<") {
            return self.err("check ops with a device operand are not supported");
        }
        self.expect_punct("(")?;
        let first = self.value_use()?;
        let mut operands = vec![first];
        let kind = match short {
            "expect_true" | "expect_false" => {
                self.expect_punct(")")?;
                if short == "expect_true" {
                    CheckOp::ExpectTrue
                } else {
                    CheckOp::ExpectFalse
                }
            }
            "expect_eq" | "expect_almost_eq" => {
                self.expect_punct(",")?;
                operands.push(self.value_use()?);
                let (atol, rtol) = self.parse_tolerances(short == "expect_almost_eq")?;
                if short == "expect_eq" {
                    CheckOp::ExpectEq
                } else {
                    CheckOp::ExpectAlmostEq { atol, rtol }
                }
            }
            "expect_eq_const" | "expect_almost_eq_const" => {
                self.expect_punct(",")?;
                let value = self.parse_dense()?;
                let (atol, rtol) = self.parse_tolerances(short == "expect_almost_eq_const")?;
                if short == "expect_eq_const" {
                    CheckOp::ExpectEqConst(value)
                } else {
                    CheckOp::ExpectAlmostEqConst { value, atol, rtol }
                }
            }
            _ => return self.unknown_op(name, "check", loc),
        };
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        let want = vec![ty; operands.len()];
        self.check_types(&operands, &want, tloc)?;
        if let CheckOp::ExpectEqConst(v) | CheckOp::ExpectAlmostEqConst { value: v, .. } = &kind {
            if !crate::tensor::verify::const_fits(&self.m, v.ty, ty) {
                return self.err_at(
                    tloc,
                    format!(
                        "expected value of type {}, the constant has type {}",
                        self.m.types.text(ty),
                        self.m.types.text(v.ty)
                    ),
                );
            }
        }
        Ok(ParsedOp::new(OpKind::Check(kind), operands, vec![]))
    }

    /// `[, atol A][, rtol R])`.
    fn parse_tolerances(&mut self, allowed: bool) -> PResult<(Option<f32>, Option<f32>)> {
        let (mut atol, mut rtol) = (None, None);
        while self.eat_punct(",")? {
            if !allowed {
                return self.expected("')'");
            }
            if self.eat_ident("atol")? && atol.is_none() && rtol.is_none() {
                atol = Some(self.parse_f32_param()?);
            } else if self.eat_ident("rtol")? && rtol.is_none() {
                rtol = Some(self.parse_f32_param()?);
            } else {
                return self.expected("'atol' or 'rtol'");
            }
        }
        self.expect_punct(")")?;
        Ok((atol, rtol))
    }
}

impl ConstAttr {
    /// Whether the constant is a scalar.
    pub fn is_scalar(&self) -> bool {
        !matches!(self, ConstAttr::Dense(_))
    }
}
