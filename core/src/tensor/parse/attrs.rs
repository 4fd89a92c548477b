//! Attributes: affine maps, dense elements, scalar constants, integer
//! lists, iterator types and float parameters.

use super::{AliasValue, PResult, Parser};
use crate::ir::Location;
use crate::tensor::affine::{AffineExpr, AffineMap};
use crate::tensor::attr::{ConstAttr, DenseElements, Elements, IteratorType, ScalarBits};
use crate::tensor::error::TensorParseError;
use crate::tensor::types::{ElemType, TypeKind};
use crate::text::cursor::{parse_uint, TokenParser};
use crate::text::float::{parse_decimal, to_f64_bits};
use crate::text::lexer::TokKind;

/// A literal of a dense attribute before its type is known.
#[derive(Clone, Debug)]
pub(crate) enum Lit {
    /// `[a, b, ...]`.
    List(Vec<Lit>, Location),
    /// An integer literal (`-` applied), or hexadecimal bits.
    Int {
        neg: bool,
        value: u128,
        hex: bool,
        loc: Location,
    },
    /// A decimal float literal.
    Float {
        neg: bool,
        text: String,
        loc: Location,
    },
    /// `true` / `false`.
    Bool(bool, Location),
    /// `"0x..."` raw little-endian bytes.
    Hex(Vec<u8>, Location),
}

impl Lit {
    fn loc(&self) -> Location {
        match self {
            Lit::List(_, l) | Lit::Bool(_, l) | Lit::Hex(_, l) => *l,
            Lit::Int { loc, .. } | Lit::Float { loc, .. } => *loc,
        }
    }
}

fn perr<T>(loc: Location, message: impl Into<String>) -> PResult<T> {
    Err(TensorParseError::new(loc, message))
}

/// The value of a scalar literal as an element of type `elem`.
pub(crate) fn lit_value(lit: &Lit, elem: ElemType) -> PResult<ScalarBits> {
    match (lit, elem.float_kind()) {
        (Lit::Float { neg, text, loc }, Some(kind)) => {
            let Some(bits) = parse_decimal(kind, text) else {
                return perr(*loc, format!("invalid float literal '{text}'"));
            };
            let v = f64::from_bits(bits);
            Ok(ScalarBits::Float(if *neg { -v } else { v }))
        }
        (
            Lit::Int {
                neg,
                value,
                hex: true,
                loc,
            },
            Some(kind),
        ) => {
            let width = elem.bits();
            if *neg || (width < 128 && *value >> width != 0) {
                return perr(
                    *loc,
                    format!("hexadecimal float literal does not fit {elem}"),
                );
            }
            Ok(ScalarBits::Float(f64::from_bits(to_f64_bits(
                kind,
                *value as u64,
            ))))
        }
        (
            Lit::Int {
                neg, value, loc, ..
            },
            Some(_),
        ) => {
            let v = *value as f64;
            if *value > 1u128 << 64 {
                return perr(*loc, "integer literal is out of range");
            }
            Ok(ScalarBits::Float(if *neg { -v } else { v }))
        }
        (
            Lit::Int {
                neg, value, loc, ..
            },
            None,
        ) => {
            let w = elem.bits();
            let fits = if *neg {
                *value <= 1u128 << (w - 1)
            } else {
                *value < (1u128 << w)
            };
            if !fits {
                return perr(
                    *loc,
                    format!("integer constant out of range for type {elem}"),
                );
            }
            let v = if *neg {
                (*value as i128).wrapping_neg()
            } else {
                *value as i128
            };
            // Sign-extend from the width.
            let shift = 128 - w;
            let v = ((v << shift) >> shift) as i64;
            Ok(ScalarBits::Int(if elem == ElemType::I1 {
                v & 1
            } else {
                v
            }))
        }
        (Lit::Bool(b, loc), None) => {
            if elem != ElemType::I1 {
                return perr(*loc, format!("boolean literal for a {elem} element"));
            }
            Ok(ScalarBits::Int(i64::from(*b)))
        }
        (Lit::Bool(_, loc), Some(_)) => perr(*loc, format!("boolean literal for a {elem} element")),
        (Lit::Float { loc, .. }, None) => perr(
            *loc,
            format!("expected integer elements, but parsed floating-point (element type {elem})"),
        ),
        (Lit::List(_, loc), _) | (Lit::Hex(_, loc), _) => perr(*loc, "expected a scalar element"),
    }
}

/// Canonicalizes `data`: one element when all are equal (MLIR detects
/// splats when an attribute is built).
pub(crate) fn make_dense(ty: crate::tensor::entity::TType, data: Elements) -> DenseElements {
    let n = data.len();
    let splat = n > 0 && (1..n).all(|i| data.same_bits(0, i));
    let data = if splat && n > 1 {
        data.repeat(0, 1)
    } else {
        data
    };
    DenseElements { ty, data, splat }
}

impl Parser<'_> {
    // ---- affine maps -----------------------------------------------------

    /// `affine_map<...>` or `#alias`.
    pub(crate) fn parse_affine_map(&mut self) -> PResult<AffineMap> {
        if let TokKind::Hash(name) = *self.peek() {
            return match self.attr_aliases.get(name) {
                Some(AliasValue::Map(m)) => {
                    let m = m.clone();
                    self.bump()?;
                    Ok(m)
                }
                Some(AliasValue::Text(_)) => self.err(format!("'#{name}' is not an affine map")),
                None => self.err(format!("undefined attribute alias '#{name}'")),
            };
        }
        self.expect_ident("affine_map")?;
        self.expect_punct("<")?;
        let mut names: Vec<String> = Vec::new();
        self.expect_punct("(")?;
        self.comma_list(")", |p| {
            let n = p.ident("a dimension name")?;
            names.push(n.to_string());
            Ok(())
        })?;
        let num_dims = names.len() as u32;
        let mut syms: Vec<String> = Vec::new();
        if self.eat_punct("[")? {
            self.comma_list("]", |p| {
                let n = p.ident("a symbol name")?;
                syms.push(n.to_string());
                Ok(())
            })?;
        }
        self.expect_punct("->")?;
        self.expect_punct("(")?;
        let mut results = Vec::new();
        self.comma_list(")", |p| {
            results.push(p.affine_expr(&names, &syms)?);
            Ok(())
        })?;
        self.expect_punct(">")?;
        Ok(AffineMap::new(num_dims, syms.len() as u32, results))
    }

    fn affine_expr(&mut self, dims: &[String], syms: &[String]) -> PResult<AffineExpr> {
        self.enter()?;
        let mut lhs = self.affine_term(dims, syms)?;
        loop {
            if self.eat_punct("+")? {
                let rhs = self.affine_term(dims, syms)?;
                lhs = AffineExpr::add(lhs, rhs);
            } else if self.eat_punct("-")? {
                let rhs = self.affine_term(dims, syms)?;
                lhs = AffineExpr::sub(lhs, rhs);
            } else {
                break;
            }
        }
        self.leave();
        Ok(lhs)
    }

    fn affine_term(&mut self, dims: &[String], syms: &[String]) -> PResult<AffineExpr> {
        let mut lhs = self.affine_operand(dims, syms)?;
        loop {
            if self.eat_punct("*")? {
                let rhs = self.affine_operand(dims, syms)?;
                if !lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant() {
                    return self.err("non-affine expression: at least one of the multiply operands has to be either a constant or symbolic");
                }
                lhs = AffineExpr::mul(lhs, rhs);
            } else if self.is_ident("floordiv") || self.is_ident("ceildiv") || self.is_ident("mod")
            {
                let op = self.ident("an operator")?;
                let rhs = self.affine_operand(dims, syms)?;
                if !rhs.is_symbolic_or_constant() {
                    return self.err(format!(
                        "non-affine expression: right operand of {op} has to be either a constant or symbolic"
                    ));
                }
                lhs = match op {
                    "floordiv" => AffineExpr::floor_div(lhs, rhs),
                    "ceildiv" => AffineExpr::ceil_div(lhs, rhs),
                    _ => AffineExpr::modulo(lhs, rhs),
                };
            } else {
                return Ok(lhs);
            }
        }
    }

    fn affine_operand(&mut self, dims: &[String], syms: &[String]) -> PResult<AffineExpr> {
        self.enter()?;
        let r = match *self.peek() {
            TokKind::Punct("(") => {
                self.bump()?;
                let e = self.affine_expr(dims, syms)?;
                self.expect_punct(")")?;
                Ok(e)
            }
            TokKind::Punct("-") => {
                self.bump()?;
                let e = self.affine_operand(dims, syms)?;
                Ok(AffineExpr::neg(e))
            }
            TokKind::Int(_) => {
                let v = self.uint("an integer")?;
                i64::try_from(v)
                    .map(AffineExpr::Const)
                    .or_else(|_| self.err("constant is out of range"))
            }
            TokKind::Ident(name) => {
                if let Some(i) = dims.iter().position(|d| d == name) {
                    self.bump()?;
                    Ok(AffineExpr::Dim(i as u32))
                } else if let Some(i) = syms.iter().position(|s| s == name) {
                    self.bump()?;
                    Ok(AffineExpr::Symbol(i as u32))
                } else {
                    self.err(format!("use of undeclared identifier '{name}'"))
                }
            }
            _ => self.expected("an affine expression"),
        };
        self.leave();
        r
    }

    // ---- dense elements -------------------------------------------------

    fn parse_lit(&mut self) -> PResult<Lit> {
        self.enter()?;
        let loc = self.loc();
        let r = match self.peek().clone() {
            TokKind::Punct("[") => {
                self.bump()?;
                let mut items = Vec::new();
                self.comma_list("]", |p| {
                    items.push(p.parse_lit()?);
                    Ok(())
                })?;
                Ok(Lit::List(items, loc))
            }
            TokKind::Str(s) => {
                let Some(hex) = s.strip_prefix("0x") else {
                    return self.err("expected a hexadecimal string \"0x...\"");
                };
                if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return self.err("invalid hexadecimal string");
                }
                let bytes = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0))
                    .collect();
                self.bump()?;
                Ok(Lit::Hex(bytes, loc))
            }
            TokKind::Ident("true") => {
                self.bump()?;
                Ok(Lit::Bool(true, loc))
            }
            TokKind::Ident("false") => {
                self.bump()?;
                Ok(Lit::Bool(false, loc))
            }
            _ => self.parse_scalar_lit(),
        };
        self.leave();
        r
    }

    /// A number literal (optionally negative), `true` or `false`.
    pub(crate) fn parse_scalar_lit(&mut self) -> PResult<Lit> {
        let loc = self.loc();
        let neg = self.eat_punct("-")?;
        match *self.peek() {
            TokKind::Int(s) => {
                let Some(value) = parse_uint(s) else {
                    return self.err(format!("integer '{s}' is out of range"));
                };
                let hex = s.starts_with("0x");
                self.bump()?;
                Ok(Lit::Int {
                    neg,
                    value,
                    hex,
                    loc,
                })
            }
            TokKind::Float(s) => {
                let text = s.to_string();
                self.bump()?;
                Ok(Lit::Float { neg, text, loc })
            }
            TokKind::Ident("true") if !neg => {
                self.bump()?;
                Ok(Lit::Bool(true, loc))
            }
            TokKind::Ident("false") if !neg => {
                self.bump()?;
                Ok(Lit::Bool(false, loc))
            }
            _ => self.expected("a number"),
        }
    }

    /// `dense<...> : T` (the type included).
    pub(crate) fn parse_dense(&mut self) -> PResult<DenseElements> {
        let loc = self.loc();
        self.expect_ident("dense")?;
        self.expect_punct("<")?;
        // `dense<>`: how MLIR prints every tensor with no elements
        // (`tensor<2x4x0xf32>` too, whatever its rank).
        let empty_form = self.is_punct(">");
        let lit = if empty_form {
            Lit::List(Vec::new(), loc)
        } else {
            self.parse_lit()?
        };
        self.expect_punct(">")?;
        self.expect_punct(":")?;
        let ty_loc = self.loc();
        let ty = self.parse_type()?;
        let kind = self.m.ty(ty).clone();
        let (shape, elem): (Vec<u64>, ElemType) = match &kind {
            TypeKind::Tensor { shape, elem } => {
                let Some(s) = shape.iter().map(|d| d.fixed()).collect::<Option<Vec<_>>>() else {
                    return self.err_at(ty_loc, "dense elements attribute needs a static shape");
                };
                (s, *elem)
            }
            TypeKind::Vector { shape, elem } => (shape.clone(), *elem),
            TypeKind::Scalar(_) => {
                return self.err_at(
                    ty_loc,
                    "dense elements attribute needs a tensor or vector type",
                )
            }
        };
        if !elem.is_supported() {
            return self.err_at(ty_loc, format!("unsupported element type {elem}"));
        }
        let n = crate::host_memory::element_count(shape.iter().copied()).unwrap_or(u64::MAX);
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= 1 << 31)
            .ok_or_else(|| TensorParseError::new(ty_loc, "dense attribute is too large"))?;
        let data = match &lit {
            Lit::Hex(bytes, hloc) => hex_elements(bytes, elem, n, *hloc)?,
            Lit::List(..) if empty_form && n == 0 => Elements::zeros(elem, 0).ok_or_else(|| {
                TensorParseError::new(ty_loc, format!("unsupported element type {elem}"))
            })?,
            Lit::List(..) => {
                let mut flat = Vec::new();
                flatten(&lit, &shape, 0, &mut flat)?;
                let mut data = Elements::zeros(elem, n).ok_or_else(|| {
                    TensorParseError::new(ty_loc, format!("unsupported element type {elem}"))
                })?;
                for (i, l) in flat.iter().enumerate() {
                    data.set(i, lit_value(l, elem)?);
                }
                data
            }
            scalar => {
                let v = lit_value(scalar, elem)?;
                let mut data = Elements::zeros(elem, 1).ok_or_else(|| {
                    TensorParseError::new(ty_loc, format!("unsupported element type {elem}"))
                })?;
                data.set(0, v);
                if n == 0 {
                    Elements::zeros(elem, 0).unwrap_or(data)
                } else {
                    data
                }
            }
        };
        Ok(make_dense(ty, data))
    }

    /// A constant attribute: `dense<...> : T`, `1.5 : f32`, `42 : i32`,
    /// `true`, `false`.
    pub(crate) fn parse_const_attr(&mut self) -> PResult<ConstAttr> {
        if self.is_ident("dense") {
            return Ok(ConstAttr::Dense(self.parse_dense()?));
        }
        if self.is_ident("dense_resource") {
            return Ok(ConstAttr::Dense(self.parse_dense_resource()?));
        }
        if let TokKind::Hash(name) = *self.peek() {
            if let Some(AliasValue::Text(pos)) = self.attr_aliases.get(name) {
                let (pos, back) = (*pos, self.tok_end());
                self.reset_to(pos)?;
                let r = self.parse_const_attr();
                self.reset_to(back)?;
                return r;
            }
            return self.err(format!("undefined attribute alias '#{name}'"));
        }
        let lit = self.parse_scalar_lit()?;
        let ty = if let Lit::Bool(..) = lit {
            if self.eat_punct(":")? {
                self.parse_type()?
            } else {
                self.m.types.scalar(ElemType::I1)
            }
        } else {
            self.expect_punct(":")?;
            self.parse_type()?
        };
        let elem = match self.m.ty(ty) {
            TypeKind::Scalar(e) => *e,
            _ => return self.err_at(lit.loc(), "a scalar literal needs a scalar type"),
        };
        Ok(match lit_value(&lit, elem)? {
            ScalarBits::Int(value) => ConstAttr::Int { value, ty },
            ScalarBits::Float(value) => ConstAttr::Float { value, ty },
        })
    }

    // ---- lists and keywords ---------------------------------------------

    /// `[1, 2, ...]` or `array<i64: 1, 2>`.
    pub(crate) fn parse_int_array(&mut self) -> PResult<Vec<i64>> {
        let mut out = Vec::new();
        if self.eat_ident("array")? {
            self.expect_punct("<")?;
            self.expect_ident("i64")?;
            if self.eat_punct(":")? {
                loop {
                    out.push(self.int("an integer")?);
                    if !self.eat_punct(",")? {
                        break;
                    }
                }
            }
            self.expect_punct(">")?;
            return Ok(out);
        }
        self.expect_punct("[")?;
        self.comma_list("]", |p| {
            out.push(p.int("an integer")?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `[1, 2, ...]` of non-negative integers.
    pub(crate) fn parse_uint_array(&mut self) -> PResult<Vec<u64>> {
        let loc = self.loc();
        let v = self.parse_int_array()?;
        v.into_iter()
            .map(|x| {
                u64::try_from(x)
                    .map_err(|_| TensorParseError::new(loc, "expected non-negative integers"))
            })
            .collect()
    }

    /// `[[0, 1], [2]]`.
    pub(crate) fn parse_reassociation(&mut self) -> PResult<Vec<Vec<u64>>> {
        self.expect_punct("[")?;
        let mut out = Vec::new();
        self.comma_list("]", |p| {
            out.push(p.parse_uint_array()?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `["parallel", ...]` or `[#linalg.iterator_type<parallel>, ...]`.
    pub(crate) fn parse_iterator_types(&mut self) -> PResult<Vec<IteratorType>> {
        self.expect_punct("[")?;
        let mut out = Vec::new();
        self.comma_list("]", |p| {
            let name = match p.peek().clone() {
                TokKind::Str(s) => {
                    p.bump()?;
                    s.to_string()
                }
                TokKind::Hash("linalg.iterator_type") => {
                    p.bump()?;
                    p.expect_punct("<")?;
                    let n = p.ident("an iterator type")?.to_string();
                    p.expect_punct(">")?;
                    n
                }
                _ => return p.expected("an iterator type"),
            };
            out.push(match name.as_str() {
                "parallel" => IteratorType::Parallel,
                "reduction" => IteratorType::Reduction,
                _ => return p.err(format!("unknown iterator type '{name}'")),
            });
            Ok(())
        })?;
        Ok(out)
    }

    /// A float parameter (`1.0e-02`, `1`).
    pub(crate) fn parse_f32_param(&mut self) -> PResult<f32> {
        let lit = self.parse_scalar_lit()?;
        match lit_value(&lit, ElemType::F32)? {
            ScalarBits::Float(v) => Ok(v as f32),
            ScalarBits::Int(v) => Ok(v as f32),
        }
    }
}

/// The scalars of a nested list literal in row-major order, checking the
/// nesting against `shape`.
fn flatten(lit: &Lit, shape: &[u64], depth: usize, out: &mut Vec<Lit>) -> PResult<()> {
    match lit {
        Lit::List(items, loc) => {
            let Some(&want) = shape.get(depth) else {
                return perr(
                    *loc,
                    format!("expected a scalar at nesting depth {depth}, found a list"),
                );
            };
            if items.len() as u64 != want {
                return perr(
                    *loc,
                    format!(
                        "inferred shape of elements literal ([{}] at depth {depth}) does not match type ([{want}])",
                        items.len()
                    ),
                );
            }
            for item in items {
                flatten(item, shape, depth + 1, out)?;
            }
            Ok(())
        }
        scalar => {
            if depth != shape.len() {
                return perr(
                    scalar.loc(),
                    format!(
                        "expected a list of {} elements at nesting depth {depth}",
                        shape[depth]
                    ),
                );
            }
            out.push(scalar.clone());
            Ok(())
        }
    }
}

/// Elements from `"0x..."` bytes: little-endian values of the element
/// width (`i1`: bit-packed), or one value (a splat).
pub(crate) fn hex_elements(
    bytes: &[u8],
    elem: ElemType,
    n: usize,
    loc: Location,
) -> PResult<Elements> {
    let Some(mut data) = Elements::zeros(elem, n) else {
        return perr(loc, format!("unsupported element type {elem}"));
    };
    if elem == ElemType::I1 {
        if bytes.len() == 1 && (bytes[0] == 0 || bytes[0] == 0xff) && n != 1 {
            let mut d = Elements::zeros(elem, 1).unwrap_or(data);
            d.set(0, ScalarBits::Int(i64::from(bytes[0] != 0)));
            return Ok(d);
        }
        if bytes.len() != n.div_ceil(8) {
            return perr(
                loc,
                format!(
                    "hexadecimal data of {} bytes does not hold {n} i1 elements",
                    bytes.len()
                ),
            );
        }
        for i in 0..n {
            data.set(i, ScalarBits::Int(i64::from((bytes[i / 8] >> (i % 8)) & 1)));
        }
        return Ok(data);
    }
    let size = (elem.bits() / 8) as usize;
    let count = if bytes.len() == size {
        1
    } else if bytes.len() == size * n {
        n
    } else {
        return perr(
            loc,
            format!(
                "hexadecimal data of {} bytes does not hold {n} {elem} elements",
                bytes.len()
            ),
        );
    };
    let mut out = Elements::zeros(elem, count).unwrap_or(data);
    for i in 0..count {
        let mut raw = 0u64;
        for (k, b) in bytes[i * size..(i + 1) * size].iter().enumerate() {
            raw |= u64::from(*b) << (8 * k);
        }
        let v = match elem.float_kind() {
            Some(kind) => ScalarBits::Float(f64::from_bits(to_f64_bits(kind, raw))),
            None => {
                let shift = 64 - elem.bits();
                ScalarBits::Int(((raw << shift) as i64) >> shift)
            }
        };
        out.set(i, v);
    }
    Ok(out)
}
