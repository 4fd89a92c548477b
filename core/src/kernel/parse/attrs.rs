//! Attributes in MLIR syntax: literals with types, `dense<...>`,
//! `array<i64: ...>`, arrays, dictionaries, symbol references, and the
//! dialect attributes kernels use (`#gpu.address_space`, `#gpu<dim x>`,
//! `#arith.fastmath`, `#spirv.entry_point_abi`, `#spirv.interface_var_abi`,
//! `#spirv.target_env`, in the `spirv.` and the seeds' `spv.` spelling).

use super::{PResult, Parser};
use crate::ir::FloatKind;
use crate::kernel::module::KAttr;
use crate::kernel::types::{FloatTy, KType};
use crate::target::TargetEnv;
use crate::text::cursor::{parse_uint, TokenParser};
use crate::text::float;
use crate::text::lexer::TokKind;
use kiln_abi::{EntryPointAbi, InterfaceVarAbi};

/// The `FloatKind` of a kernel float type.
pub(crate) fn float_kind(f: FloatTy) -> FloatKind {
    f.kind()
}

/// Sign-extends / truncates `v` to the width of integer type `ty`.
pub(crate) fn fit_int(v: i128, ty: &KType) -> i128 {
    let bits = match ty {
        KType::Int(w) => *w,
        KType::Index => 64,
        _ => return v,
    };
    if bits == 0 {
        return 0;
    }
    if bits >= 128 {
        return v;
    }
    if bits == 1 {
        return v & 1;
    }
    let shift = 128 - bits;
    (v << shift) >> shift
}

/// A literal scalar parsed before its type is known.
#[derive(Clone, Copy, Debug)]
enum Lit {
    Int { neg: bool, mag: u128, hex: bool },
    Float(f64),
    Bool(bool),
}

impl<'a> Parser<'a> {
    fn literal(&mut self) -> PResult<Option<Lit>> {
        let neg = self.is_punct("-");
        let save = self.pos();
        if neg {
            self.bump()?;
        }
        let lit = match *self.peek() {
            TokKind::Int(s) => {
                let Some(mag) = parse_uint(s) else {
                    return self.err(format!("integer '{s}' is out of range"));
                };
                Lit::Int {
                    neg,
                    mag,
                    hex: s.starts_with("0x"),
                }
            }
            TokKind::Float(s) => {
                let v: f64 = match s.parse() {
                    Ok(v) => v,
                    Err(_) => return self.err(format!("malformed float '{s}'")),
                };
                Lit::Float(if neg { -v } else { v })
            }
            TokKind::Ident("true") if !neg => Lit::Bool(true),
            TokKind::Ident("false") if !neg => Lit::Bool(false),
            _ => {
                if neg {
                    self.reset_to(save)?;
                }
                return Ok(None);
            }
        };
        self.bump()?;
        Ok(Some(lit))
    }

    /// Converts a literal to a scalar attribute of type `ty`.
    fn lit_to_attr(&self, lit: Lit, ty: &KType) -> PResult<KAttr> {
        match (lit, ty) {
            (Lit::Bool(b), KType::Int(1)) => Ok(KAttr::Int {
                value: b as i128,
                ty: ty.clone(),
            }),
            (Lit::Int { neg, mag, .. }, KType::Int(_) | KType::Index) => {
                let v = if neg {
                    (mag as i128).wrapping_neg()
                } else {
                    mag as i128
                };
                Ok(KAttr::Int {
                    value: fit_int(v, ty),
                    ty: ty.clone(),
                })
            }
            (Lit::Int { neg, mag, hex }, KType::Float(f)) => {
                let kind = float_kind(*f);
                let value = if hex && !neg {
                    f64::from_bits(float::to_f64_bits(kind, mag as u64))
                } else {
                    let v = mag as f64;
                    float::round_to(kind, if neg { -v } else { v })
                };
                Ok(KAttr::Float {
                    value,
                    ty: ty.clone(),
                })
            }
            (Lit::Float(v), KType::Float(f)) => Ok(KAttr::Float {
                value: float::round_to(float_kind(*f), v),
                ty: ty.clone(),
            }),
            _ => self.err(format!(
                "literal does not fit type {}",
                crate::kernel::print::type_to_string(ty)
            )),
        }
    }

    /// A scalar element of `dense<...>` of element type `ty`.
    fn dense_elem(&mut self, ty: &KType) -> PResult<KAttr> {
        match self.literal()? {
            Some(lit) => self.lit_to_attr(lit, ty),
            None => self.expected("a literal"),
        }
    }

    /// An attribute value.
    pub(crate) fn parse_attr(&mut self) -> PResult<KAttr> {
        self.enter()?;
        let r = self.parse_attr_inner();
        self.leave();
        r
    }

    fn parse_attr_inner(&mut self) -> PResult<KAttr> {
        if let Some(lit) = self.literal()? {
            let ty = if self.is_punct(":") {
                self.bump()?;
                Some(self.parse_type()?)
            } else {
                None
            };
            return match (lit, ty) {
                (Lit::Bool(b), None) => Ok(KAttr::Bool(b)),
                (Lit::Int { .. }, None) => self.lit_to_attr(lit, &KType::Int(64)),
                (Lit::Float(_), None) => self.lit_to_attr(lit, &KType::Float(FloatTy::F64)),
                (lit, Some(ty)) => self.lit_to_attr(lit, &ty),
            };
        }
        match self.peek().clone() {
            TokKind::Ident("unit") => {
                self.bump()?;
                Ok(KAttr::Unit)
            }
            TokKind::Ident("dense") => self.parse_dense(),
            TokKind::Ident("array") => {
                self.bump()?;
                self.expect_punct("<")?;
                let elem = self.parse_type()?;
                if !matches!(elem, KType::Int(_)) {
                    return self.err("only integer dense arrays are supported");
                }
                let mut vals = Vec::new();
                if self.eat_punct(":")? {
                    loop {
                        vals.push(self.int("an integer")?);
                        if !self.eat_punct(",")? {
                            break;
                        }
                    }
                }
                self.expect_punct(">")?;
                Ok(KAttr::DenseI64(vals))
            }
            TokKind::Str(s) => {
                let s = s.to_string();
                self.bump()?;
                Ok(KAttr::String(s))
            }
            TokKind::Symbol(_) => Ok(KAttr::SymbolRef(self.symbol_ref()?)),
            TokKind::Punct("[") => {
                self.bump()?;
                let mut items = Vec::new();
                self.comma_list("]", |p| {
                    items.push(p.parse_attr()?);
                    Ok(())
                })?;
                Ok(KAttr::Array(items))
            }
            TokKind::Punct("{") => Ok(KAttr::Dict(self.parse_attr_dict()?)),
            TokKind::Hash(name) => self.parse_dialect_attr(name),
            _ if self.at_type() => Ok(KAttr::Type(self.parse_type()?)),
            _ => self.expected("an attribute"),
        }
    }

    /// `@a::@b`.
    pub(crate) fn symbol_ref(&mut self) -> PResult<Vec<String>> {
        let mut path = vec![self.symbol()?];
        while self.eat_punct("::")? {
            path.push(self.symbol()?);
        }
        Ok(path)
    }

    /// `dense<...> : type`.
    fn parse_dense(&mut self) -> PResult<KAttr> {
        let start = self.loc();
        self.expect_ident("dense")?;
        self.expect_punct("<")?;
        // The elements are parsed once the type is known: remember where.
        let body_start = self.pos();
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                TokKind::Punct("<") => depth += 1,
                TokKind::Punct(">") => depth -= 1,
                TokKind::Eof => return self.expected("'>' closing dense<"),
                _ => {}
            }
            if depth > 0 {
                self.bump()?;
            }
        }
        let close = self.pos();
        self.expect_punct(">")?;
        self.expect_punct(":")?;
        let ty = self.parse_type()?;
        let type_end = self.pos();
        let KType::Vector { shape, elem } = &ty else {
            return self.err("dense<...> needs a vector type");
        };
        let count: u64 = shape.iter().product();
        let elem = (**elem).clone();
        self.reset_to(body_start)?;
        let mut flat = Vec::new();
        self.dense_elems(&elem, &mut flat)?;
        if !self.is_punct(">") || self.pos() != close {
            return self.expected("'>'");
        }
        if flat.len() != 1 && flat.len() as u64 != count {
            return Err(super::KernelParseError::new(
                start,
                format!(
                    "dense<...> has {} elements, the type {} needs {count}",
                    flat.len(),
                    crate::kernel::print::type_to_string(&ty)
                ),
            ));
        }
        self.reset_to(type_end)?;
        let attr = if matches!(elem, KType::Float(_)) {
            KAttr::DenseFloats {
                values: flat
                    .iter()
                    .map(|a| match a {
                        KAttr::Float { value, .. } => *value,
                        _ => 0.0,
                    })
                    .collect(),
                ty,
            }
        } else {
            KAttr::DenseInts {
                values: flat
                    .iter()
                    .map(|a| match a {
                        KAttr::Int { value, .. } => *value,
                        _ => 0,
                    })
                    .collect(),
                ty,
            }
        };
        Ok(attr)
    }

    /// Nested `[...]` lists or one splat literal, flattened.
    fn dense_elems(&mut self, elem: &KType, out: &mut Vec<KAttr>) -> PResult<()> {
        if self.eat_punct("[")? {
            self.enter()?;
            self.comma_list("]", |p| p.dense_elems(elem, out))?;
            self.leave();
            Ok(())
        } else {
            out.push(self.dense_elem(elem)?);
            Ok(())
        }
    }

    /// `{name = value, unit_name, ...}`.
    pub(crate) fn parse_attr_dict(&mut self) -> PResult<Vec<(String, KAttr)>> {
        self.expect_punct("{")?;
        let mut out: Vec<(String, KAttr)> = Vec::new();
        self.comma_list("}", |p| {
            let name = match p.peek().clone() {
                TokKind::Ident(s) => s.to_owned(),
                TokKind::Str(s) => s.to_string(),
                _ => return p.expected("an attribute name"),
            };
            let loc = p.loc();
            p.bump()?;
            let value = if p.eat_punct("=")? {
                p.parse_attr()?
            } else {
                KAttr::Unit
            };
            if out.iter().any(|(n, _)| *n == name) {
                return Err(super::KernelParseError::new(
                    loc,
                    format!("duplicate attribute '{name}'"),
                ));
            }
            out.push((name, value));
            Ok(())
        })?;
        Ok(out)
    }

    /// An optional `{...}` attribute dictionary.
    pub(crate) fn opt_attr_dict(&mut self) -> PResult<Vec<(String, KAttr)>> {
        if self.is_punct("{") {
            self.parse_attr_dict()
        } else {
            Ok(Vec::new())
        }
    }

    /// With the cursor on `<` right after a dialect attribute name, the raw
    /// text up to the matching `>`.
    pub(crate) fn angle_body(&mut self) -> PResult<&'a str> {
        if !self.is_punct("<") {
            return self.expected("'<'");
        }
        let open = self.pos();
        let start = self.tok_end();
        let src = self.src();
        let mut lx = crate::text::lexer::Lexer::new(src);
        lx.reset(start);
        let body = lx.scan_angle_body(open)?;
        let end = lx.pos();
        self.reset_to(end)?;
        Ok(body)
    }

    fn parse_dialect_attr(&mut self, name: &str) -> PResult<KAttr> {
        let loc = self.loc();
        self.bump()?;
        let bad = |what: &str, e: String| {
            super::KernelParseError::new(loc, format!("invalid #{what}: {e}"))
        };
        let (dialect, mnemonic) = name.split_once('.').unwrap_or((name, ""));
        match (dialect, mnemonic) {
            ("spirv" | "spv", "entry_point_abi") => {
                let body = self.angle_body()?;
                EntryPointAbi::parse_body(body)
                    .map(KAttr::EntryPointAbi)
                    .map_err(|e| bad(name, e.to_string()))
            }
            ("spirv" | "spv", "interface_var_abi") => {
                let body = self.angle_body()?;
                InterfaceVarAbi::parse_body(body)
                    .map(KAttr::InterfaceVarAbi)
                    .map_err(|e| bad(name, e.to_string()))
            }
            ("spirv" | "spv", "target_env") => {
                // The body starts right after the `<`: an offset into it
                // is a place in the file.
                let body_start = self.tok_end();
                let body = self.angle_body()?;
                TargetEnv::parse_body(body)
                    .map(|t| KAttr::TargetEnv(Box::new(t)))
                    .map_err(|e| match e.offset() {
                        Some(off) => super::KernelParseError::new(
                            self.loc_at(body_start + off),
                            format!("invalid #{name}: {}", e.detail()),
                        ),
                        None => bad(name, e.to_string()),
                    })
            }
            ("gpu", "address_space") => {
                self.expect_punct("<")?;
                let v = self.ident("an address space")?;
                if !matches!(v, "global" | "workgroup" | "private") {
                    return Err(bad(name, format!("unknown address space '{v}'")));
                }
                self.expect_punct(">")?;
                Ok(KAttr::Enum(v.to_owned()))
            }
            // `#gpu<dim x>`, `#gpu<shuffle_mode xor>`, `#gpu<all_reduce_op add>`,
            // `#index<cmp_predicate slt>`.
            ("gpu" | "index", "") => {
                self.expect_punct("<")?;
                self.ident("an enum kind")?;
                let v = self.ident("an enum value")?;
                self.expect_punct(">")?;
                Ok(KAttr::Enum(v.to_owned()))
            }
            ("arith", "fastmath" | "overflow") | ("vector", "kind") => {
                let body = self.angle_body()?;
                Ok(KAttr::Enum(body.split_whitespace().collect::<String>()))
            }
            _ => Err(super::KernelParseError::new(
                loc,
                format!("unsupported attribute '#{name}'"),
            )),
        }
    }
}
