//! Attributes: builtin literals, arrays, dictionaries, symbol references,
//! `dense<...>`, `array<...>`, type attributes, the dialect's
//! `#spirv.*` attributes (enums, `vce`, and others kept verbatim) and other
//! dialects' attributes (kept verbatim as [`AttrKind::Opaque`]).

use super::{parse_int_text, PResult, Parser};
use crate::grammar::{Capability, Extension, OperandKind, Version};
use crate::ir::{Attr, AttrKind, DenseValues, FloatKind, Signedness, Type, TypeKind, Vce};
use crate::text::enums::{enum_kind_by_mnemonic, parse_enum_text};
use crate::text::float;
use crate::text::lexer::TokKind;

/// Whether `ty` can hold integer attribute `value`; returns the value
/// normalized (sign-extended from the type's width).
pub(crate) fn fit_int(kind: &TypeKind, value: i128) -> Option<i128> {
    let (width, signedness) = match kind {
        TypeKind::Index => return i64::try_from(value).ok().map(i128::from),
        TypeKind::Int { width, signedness } => (*width, *signedness),
        _ => return None,
    };
    if width >= 128 {
        return Some(value);
    }
    let min_signed = -(1i128 << (width - 1));
    let max_unsigned = (1i128 << width) - 1;
    if value < min_signed || value > max_unsigned {
        return None;
    }
    if signedness == Signedness::Unsigned && value < 0 {
        return None;
    }
    // Keep the value sign-extended from `width` bits.
    let shift = 128 - width;
    Some((value << shift) >> shift)
}

impl<'a> Parser<'a> {
    /// Parses an attribute value.
    pub(crate) fn parse_attr(&mut self) -> PResult<Attr> {
        self.enter()?;
        let r = self.parse_attr_inner();
        self.leave();
        r
    }

    fn parse_attr_inner(&mut self) -> PResult<Attr> {
        let t = self.peek()?.clone();
        match t.kind {
            TokKind::Ident("true") | TokKind::Ident("false") => {
                self.bump()?;
                let v = t.kind == TokKind::Ident("true");
                if self.at(":")? {
                    // `true : i1`
                    self.bump()?;
                    self.parse_type()?;
                }
                Ok(self.m.attrs.intern(AttrKind::Bool(v)))
            }
            TokKind::Ident("unit") => {
                self.bump()?;
                Ok(self.m.attrs.unit())
            }
            TokKind::Ident("dense") => self.parse_dense(),
            TokKind::Ident("array") => self.parse_dense_array(),
            TokKind::Ident(name @ ("affine_map" | "affine_set" | "strided" | "distinct")) => {
                self.bump()?;
                self.raw_mode();
                if self.lex.src().as_bytes().get(self.lex.pos()) != Some(&b'<') {
                    return Err(self.expected("'<'"));
                }
                let open = self.lex.pos();
                self.lex.reset(open + 1);
                let body = self.lex.scan_angle_body(open)?;
                Ok(self
                    .m
                    .attrs
                    .intern(AttrKind::Opaque(format!("{name}<{body}>"))))
            }
            TokKind::Int(_) | TokKind::Float(_) | TokKind::Punct("-") => self.parse_number_attr(),
            TokKind::Str(s) => {
                self.bump()?;
                Ok(self.m.attrs.string(s.into_owned()))
            }
            TokKind::Punct("[") => {
                self.bump()?;
                let mut items = Vec::new();
                if !self.eat("]")? {
                    loop {
                        items.push(self.parse_attr()?);
                        if !self.eat(",")? {
                            break;
                        }
                    }
                    self.expect("]", "to end array attribute")?;
                }
                Ok(self.m.attrs.array(items))
            }
            TokKind::Punct("{") => {
                let entries = self.parse_attr_dict()?;
                Ok(self.m.attrs.intern(AttrKind::Dict(entries)))
            }
            TokKind::Symbol(first) => {
                self.bump()?;
                let mut path = vec![first.into_owned()];
                while self.eat("::")? {
                    path.push(self.symbol("nested symbol reference after '::'")?);
                }
                Ok(self.m.attrs.intern(AttrKind::SymbolRef(path)))
            }
            TokKind::Hash(name) => self.parse_hash_attr(name, t.start),
            _ if self.at_type()? => {
                let ty = self.parse_type()?;
                Ok(self.m.attrs.ty(ty))
            }
            _ => Err(self.expected("attribute value")),
        }
    }

    /// `{name = value, flag, ...}`, sorted by name.
    pub(crate) fn parse_attr_dict(&mut self) -> PResult<Vec<(String, Attr)>> {
        self.expect("{", "to begin attribute dictionary")?;
        let mut entries: Vec<(String, Attr)> = Vec::new();
        if !self.eat("}")? {
            loop {
                let loc = self.loc()?;
                let key = match self.peek_kind()? {
                    TokKind::Ident(s) => s.to_string(),
                    TokKind::Str(s) => s.into_owned(),
                    _ => return Err(self.expected("attribute name")),
                };
                self.bump()?;
                let key = crate::text::normalize_attr_name(&key);
                let value = if self.eat("=")? {
                    self.parse_attr()?
                } else {
                    self.m.attrs.unit()
                };
                if entries.iter().any(|(k, _)| *k == key) {
                    return Err(self.err_at(
                        loc,
                        format!("duplicate key '{key}' in dictionary attribute"),
                    ));
                }
                entries.push((key, value));
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect("}", "to end attribute dictionary")?;
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entries)
    }

    /// An integer or float literal with an optional `: type`.
    fn parse_number_attr(&mut self) -> PResult<Attr> {
        let loc = self.loc()?;
        let neg = self.eat("-")?;
        let t = self.bump()?;
        let ty = if self.eat(":")? {
            Some(self.parse_type()?)
        } else {
            None
        };
        match t.kind {
            TokKind::Int(text) => {
                let magnitude = parse_int_text(text).ok_or_else(|| {
                    self.err_at(loc, format!("integer literal '{text}' is too large"))
                })?;
                let ty = match ty {
                    Some(ty) => ty,
                    None => self.m.types.int(64),
                };
                match self.m.types.kind(ty).clone() {
                    TypeKind::Float(fk) => {
                        if !text.starts_with("0x") || neg {
                            return Err(self.err_at(
                                loc,
                                "unexpected decimal integer literal for a floating point value; add a trailing dot to make it a float",
                            ));
                        }
                        let bits = u64::try_from(magnitude)
                            .ok()
                            .filter(|b| fk == FloatKind::F64 || b >> fk_width(fk) == 0)
                            .ok_or_else(|| {
                                self.err_at(loc, "hexadecimal float literal does not fit its type")
                            })?;
                        let bits = float::to_f64_bits(fk, bits);
                        Ok(self.m.attrs.intern(AttrKind::Float { bits, ty }))
                    }
                    kind => {
                        let value = if neg { -magnitude } else { magnitude };
                        if matches!(kind, TypeKind::Int { width: 1, .. })
                            && (value == 0 || value == 1)
                        {
                            return Ok(self.m.attrs.intern(AttrKind::Bool(value == 1)));
                        }
                        let value = fit_int(&kind, value).ok_or_else(|| {
                            self.err_at(loc, "integer constant out of range for its type")
                        })?;
                        Ok(self.m.attrs.int(value, ty))
                    }
                }
            }
            TokKind::Float(text) => {
                let ty = match ty {
                    Some(ty) => ty,
                    None => self.m.types.float(FloatKind::F64),
                };
                let TypeKind::Float(fk) = *self.m.types.kind(ty) else {
                    return Err(
                        self.err_at(loc, "floating point value not valid for the specified type")
                    );
                };
                let text = if neg {
                    format!("-{text}")
                } else {
                    text.to_string()
                };
                let bits = float::parse_decimal(fk, &text)
                    .ok_or_else(|| self.err_at(loc, format!("invalid float literal '{text}'")))?;
                Ok(self.m.attrs.intern(AttrKind::Float { bits, ty }))
            }
            _ => Err(self.err_at(loc, "expected integer or float literal after '-'")),
        }
    }

    /// `dense<...> : type`.
    fn parse_dense(&mut self) -> PResult<Attr> {
        self.bump()?;
        self.expect("<", "after 'dense'")?;
        // Elements as (negative, token) pairs, flattened.
        let mut elems: Vec<(crate::ir::Location, bool, TokKind<'a>)> = Vec::new();
        let splat = !self.at("[")?;
        if splat {
            elems.push(self.dense_elem()?);
        } else {
            self.dense_list(&mut elems)?;
        }
        self.expect(">", "to end dense attribute")?;
        self.expect(":", "after dense attribute")?;
        // `dense<...> : tensor<2x3xi32> : !spirv.array<...>` (MLIR's form of
        // a nested array constant): the elements are of the tensor's
        // element type.
        let tensor = self.parse_tensor_shape()?;
        let ty = match &tensor {
            Some((_, element)) => *element,
            None => self.parse_type()?,
        };
        let elem_ty = match self.m.types.kind(ty) {
            TypeKind::Vector { element, .. } => *element,
            _ => ty,
        };
        let elem_kind = self.m.types.kind(elem_ty).clone();
        let values = match elem_kind {
            TypeKind::Float(fk) => {
                let mut out = Vec::with_capacity(elems.len());
                for (loc, neg, tok) in elems {
                    let bits = match tok {
                        TokKind::Float(text) => {
                            let text = if neg {
                                format!("-{text}")
                            } else {
                                text.to_string()
                            };
                            float::parse_decimal(fk, &text)
                        }
                        TokKind::Int(text) if text.starts_with("0x") && !neg => {
                            parse_int_text(text)
                                .and_then(|v| u64::try_from(v).ok())
                                .map(|b| float::to_f64_bits(fk, b))
                        }
                        TokKind::Int(text) => {
                            let text = if neg {
                                format!("-{text}")
                            } else {
                                text.to_string()
                            };
                            float::parse_decimal(fk, &text)
                        }
                        _ => None,
                    };
                    out.push(bits.ok_or_else(|| {
                        self.err_at(loc, "expected float element in dense attribute")
                    })?);
                }
                DenseValues::Floats(out)
            }
            TypeKind::Int { .. } | TypeKind::Index => {
                let mut out = Vec::with_capacity(elems.len());
                for (loc, neg, tok) in elems {
                    let v = match tok {
                        TokKind::Ident("true") => Some(1),
                        TokKind::Ident("false") => Some(0),
                        TokKind::Int(text) => {
                            parse_int_text(text).map(|v| if neg { -v } else { v })
                        }
                        _ => None,
                    };
                    let v = v
                        .and_then(|v| {
                            if matches!(elem_kind, TypeKind::Int { width: 1, .. }) {
                                (v == 0 || v == 1).then_some(v)
                            } else {
                                fit_int(&elem_kind, v)
                            }
                        })
                        .ok_or_else(|| {
                            self.err_at(
                                loc,
                                "expected integer element of the element type in dense attribute",
                            )
                        })?;
                    out.push(v);
                }
                DenseValues::Ints(out)
            }
            _ => {
                return Err(self.err_here("dense attribute needs an integer or float element type"))
            }
        };
        if let Some((dims, _)) = tensor {
            return self.dense_tensor_as_array(&dims, ty, values, splat);
        }
        Ok(self.m.attrs.intern(AttrKind::Dense { ty, values, splat }))
    }

    /// `tensor<AxBx...xT>` after a dense attribute, if there: its
    /// dimensions and element type.
    fn parse_tensor_shape(&mut self) -> PResult<Option<(Vec<u32>, Type)>> {
        if !matches!(self.peek()?.kind, TokKind::Ident("tensor")) {
            return Ok(None);
        }
        self.bump()?;
        self.expect("<", "after 'tensor'")?;
        let mut dims = Vec::new();
        while matches!(self.peek()?.kind, TokKind::Int(_)) {
            dims.push(self.dimension("tensor dimension")?);
        }
        let element = self.parse_type()?;
        self.expect(">", "to end tensor type")?;
        if !matches!(
            self.m.types.kind(element),
            TypeKind::Int { .. } | TypeKind::Float(_)
        ) {
            return Err(self.err_here("a dense tensor needs an integer or float element type"));
        }
        Ok(Some((dims, element)))
    }

    /// The elements of a `dense<...> : tensor<...>` as a nested array
    /// attribute, one level per dimension (the array type that follows, in
    /// `spirv.Constant`, is the constant's type; the verifier checks that
    /// the shapes agree).
    fn dense_tensor_as_array(
        &mut self,
        dims: &[u32],
        element: Type,
        values: DenseValues,
        splat: bool,
    ) -> PResult<Attr> {
        let loc = self.loc()?;
        let total = dims
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d as usize))
            .filter(|&n| n <= 1 << 22)
            .ok_or_else(|| self.err_at(loc, "the dense tensor is too large"))?;
        let count = match &values {
            DenseValues::Ints(v) => v.len(),
            DenseValues::Floats(v) => v.len(),
        };
        if !(count == total || splat && count == 1) {
            return Err(self.err_at(
                loc,
                format!("the dense tensor has {count} elements, its shape {total}"),
            ));
        }
        let is_bool = matches!(self.m.types.kind(element), TypeKind::Int { width: 1, .. });
        let mut items: Vec<Attr> = (0..total)
            .map(|i| {
                let i = if splat { 0 } else { i };
                let kind = match &values {
                    DenseValues::Ints(v) if is_bool => AttrKind::Bool(v[i] != 0),
                    DenseValues::Ints(v) => AttrKind::Int {
                        value: v[i],
                        ty: element,
                    },
                    DenseValues::Floats(v) => AttrKind::Float {
                        bits: v[i],
                        ty: element,
                    },
                };
                self.m.attrs.intern(kind)
            })
            .collect();
        for &d in dims.iter().rev() {
            let d = d.max(1) as usize;
            items = items
                .chunks(d)
                .map(|c| self.m.attrs.array(c.to_vec()))
                .collect();
        }
        Ok(items
            .into_iter()
            .next()
            .unwrap_or_else(|| self.m.attrs.array(Vec::new())))
    }

    fn dense_elem(&mut self) -> PResult<(crate::ir::Location, bool, TokKind<'a>)> {
        let loc = self.loc()?;
        let neg = self.eat("-")?;
        let t = self.bump()?;
        let kind = match t.kind {
            TokKind::Int(s) => TokKind::Int(s),
            TokKind::Float(s) => TokKind::Float(s),
            TokKind::Ident("true") => TokKind::Ident("true"),
            TokKind::Ident("false") => TokKind::Ident("false"),
            _ => return Err(self.err_at(loc, "expected element literal in dense attribute")),
        };
        Ok((loc, neg, kind))
    }

    fn dense_list(
        &mut self,
        out: &mut Vec<(crate::ir::Location, bool, TokKind<'a>)>,
    ) -> PResult<()> {
        self.enter()?;
        self.expect("[", "in dense attribute")?;
        if !self.eat("]")? {
            loop {
                if self.at("[")? {
                    self.dense_list(out)?;
                } else {
                    out.push(self.dense_elem()?);
                }
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect("]", "to end dense element list")?;
        }
        self.leave();
        Ok(())
    }

    /// `array<i32: 1, 2>`.
    fn parse_dense_array(&mut self) -> PResult<Attr> {
        self.bump()?;
        self.expect("<", "after 'array'")?;
        let element = self.parse_type()?;
        let kind = self.m.types.kind(element).clone();
        let mut values = Vec::new();
        if self.eat(":")? {
            loop {
                let loc = self.loc()?;
                let v = match self.peek()?.kind {
                    TokKind::Ident("true") => {
                        self.bump()?;
                        1
                    }
                    TokKind::Ident("false") => {
                        self.bump()?;
                        0
                    }
                    _ => self.integer("integer element")?,
                };
                let v = fit_int(&kind, v).ok_or_else(|| {
                    self.err_at(loc, "dense array element out of range for its type")
                })?;
                values.push(v);
                if !self.eat(",")? {
                    break;
                }
            }
        }
        self.expect(">", "to end dense array")?;
        Ok(self
            .m
            .attrs
            .intern(AttrKind::DenseArray { element, values }))
    }

    /// `#spirv.xyz<...>`, `#alias`, or another dialect's `#foo.bar<...>`.
    fn parse_hash_attr(&mut self, name: &str, start: usize) -> PResult<Attr> {
        self.bump()?;
        let loc = self.loc_of(start);
        if let Some(mnemonic) = crate::text::strip_dialect(name) {
            let mnemonic = mnemonic.to_string();
            if mnemonic == "vce" {
                return self.parse_vce_body();
            }
            if let Some(kind) = enum_kind_by_mnemonic(&mnemonic) {
                self.expect("<", &format!("after '#spirv.{mnemonic}'"))?;
                let bits = self.enum_bits(kind)?;
                self.expect(">", "to end enum attribute")?;
                return Ok(self.m.attrs.enumerant(kind, bits));
            }
            let body = self.raw_angle_body()?.unwrap_or_default();
            let body = crate::text::normalize_prefixes(&body);
            return Ok(self.m.attrs.intern(AttrKind::Dialect {
                name: mnemonic,
                body,
            }));
        }
        if !name.contains('.') {
            return self
                .attr_aliases
                .get(name)
                .copied()
                .ok_or_else(|| self.err_at(loc, format!("undefined attribute alias '#{name}'")));
        }
        let text = match self.raw_angle_body()? {
            Some(body) => format!("#{name}<{body}>"),
            None => format!("#{name}"),
        };
        Ok(self.m.attrs.intern(AttrKind::Opaque(text)))
    }

    /// The raw text of `<...>` right after the last token, if present.
    fn raw_angle_body(&mut self) -> PResult<Option<String>> {
        self.raw_mode();
        let pos = self.lex.pos();
        if self.lex.src().as_bytes().get(pos) != Some(&b'<') {
            return Ok(None);
        }
        self.lex.reset(pos + 1);
        Ok(Some(self.lex.scan_angle_body(pos)?.to_string()))
    }

    /// Enumerant names of `kind` separated by `|` (or a number), up to `>`.
    pub(crate) fn enum_bits(&mut self, kind: OperandKind) -> PResult<u32> {
        let loc = self.loc()?;
        if matches!(self.peek()?.kind, TokKind::Int(_)) && !self.int_word_ahead()? {
            return self.u32_lit("enumerant");
        }
        let mut words = vec![self.enum_word("enumerant name")?];
        while self.eat("|")? {
            words.push(self.enum_word("enumerant name")?);
        }
        let text = words.join("|");
        parse_enum_text(kind, &text)
            .ok_or_else(|| self.err_at(loc, format!("unknown {} '{text}'", kind.name())))
    }

    /// Whether the lookahead integer is glued to an identifier (`2D`).
    fn int_word_ahead(&mut self) -> PResult<bool> {
        let t = self.peek()?.clone();
        let save = self.lex.pos();
        let saved_tok = self.tok.take();
        self.lex.reset(t.end);
        let next = self.lex.next_token();
        self.lex.reset(save);
        self.tok = saved_tok;
        Ok(matches!(next, Ok(n) if n.start == t.end && matches!(n.kind, TokKind::Ident(_))))
    }

    /// `<v1.0, [Cap, ...], [Ext, ...]>` after `#spirv.vce`.
    fn parse_vce_body(&mut self) -> PResult<Attr> {
        self.expect("<", "after '#spirv.vce'")?;
        let loc = self.loc()?;
        let v = self.ident("version like 'v1.0'")?;
        let version = Version::parse(v)
            .ok_or_else(|| self.err_at(loc, format!("invalid SPIR-V version '{v}'")))?;
        self.expect(",", "after version")?;
        self.expect("[", "to begin capability list")?;
        let mut capabilities = Vec::new();
        if !self.eat("]")? {
            loop {
                let loc = self.loc()?;
                let name = self.enum_word("capability")?;
                let cap = Capability::from_name(&name)
                    .ok_or_else(|| self.err_at(loc, format!("unknown capability '{name}'")))?;
                capabilities.push(cap);
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect("]", "to end capability list")?;
        }
        self.expect(",", "after capability list")?;
        self.expect("[", "to begin extension list")?;
        let mut extensions = Vec::new();
        if !self.eat("]")? {
            loop {
                let loc = self.loc()?;
                let name = self.ident("extension")?;
                let ext = Extension::from_name(name)
                    .ok_or_else(|| self.err_at(loc, format!("unknown extension '{name}'")))?;
                extensions.push(ext);
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect("]", "to end extension list")?;
        }
        self.expect(">", "to end vce attribute")?;
        Ok(self.m.attrs.intern(AttrKind::Vce(Vce {
            version,
            capabilities,
            extensions,
        })))
    }

    /// The type of a typed attribute (`Int`, `Float`, `Dense`; `i1` for
    /// `Bool`), `None` for untyped ones.
    pub(crate) fn attr_type(&mut self, attr: Attr) -> Option<Type> {
        match self.m.attrs.kind(attr) {
            AttrKind::Int { ty, .. } | AttrKind::Float { ty, .. } | AttrKind::Dense { ty, .. } => {
                Some(*ty)
            }
            AttrKind::Bool(_) => Some(self.m.types.bool()),
            _ => None,
        }
    }
}

fn fk_width(fk: FloatKind) -> u32 {
    fk.width()
}
