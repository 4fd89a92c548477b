//! Types: builtin scalars, vectors and function types, and the dialect's
//! `!spirv.*` types (also spelled `!spv.*`), plus `!alias` references.

use super::{PResult, Parser};
use crate::grammar::{Decoration, Dim, ImageFormat, Scope, StorageClass};
use crate::ir::{
    CoopMatrixType, CoopMatrixUse, FloatKind, ImageArrayed, ImageDepth, ImageSamplerUse,
    ImageSampling, ImageType, MemberDecoration, Signedness, StructMember, StructType, Type,
    TypeKind,
};
use crate::text::lexer::TokKind;

/// The builtin type a bare identifier names, if any (`i32`, `f16`, `none`).
pub(crate) fn builtin_scalar(name: &str) -> Option<TypeKind> {
    Some(match name {
        "none" => TypeKind::None,
        "index" => TypeKind::Index,
        "f16" => TypeKind::Float(FloatKind::F16),
        "bf16" => TypeKind::Float(FloatKind::BF16),
        "f32" => TypeKind::Float(FloatKind::F32),
        "f64" => TypeKind::Float(FloatKind::F64),
        _ => {
            let (signedness, digits) = if let Some(d) = name.strip_prefix("si") {
                (Signedness::Signed, d)
            } else if let Some(d) = name.strip_prefix("ui") {
                (Signedness::Unsigned, d)
            } else {
                (Signedness::Signless, name.strip_prefix('i')?)
            };
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 5
            {
                return None;
            }
            let width: u32 = digits.parse().ok()?;
            if width == 0 || width > 16_777_215 {
                return None;
            }
            TypeKind::Int { width, signedness }
        }
    })
}

impl Parser<'_> {
    /// Whether the lookahead can start a type.
    pub(crate) fn at_type(&mut self) -> PResult<bool> {
        Ok(match self.peek()?.kind {
            TokKind::Ident(s) => {
                builtin_scalar(s).is_some() || matches!(s, "vector" | "tensor" | "memref")
            }
            TokKind::Bang(_) | TokKind::Punct("(") => true,
            _ => false,
        })
    }

    /// Parses a type.
    pub(crate) fn parse_type(&mut self) -> PResult<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        let t = self.peek()?.clone();
        match t.kind {
            TokKind::Ident("vector") => {
                self.bump()?;
                self.expect("<", "after 'vector'")?;
                let len = self.dimension("vector length")?;
                if matches!(self.peek()?.kind, TokKind::Int(_)) {
                    return Err(self.err_here("multi-dimensional vectors are not supported"));
                }
                let element = self.parse_type()?;
                self.expect(">", "to end vector type")?;
                Ok(self.m.types.vector(len, element))
            }
            TokKind::Ident(name @ ("tensor" | "memref")) => {
                Err(self.err_here(format!("type '{name}' is not supported in the spv IR")))
            }
            TokKind::Ident(name) => match builtin_scalar(name) {
                Some(kind) => {
                    self.bump()?;
                    Ok(self.m.types.intern(kind))
                }
                None => Err(self.expected("type")),
            },
            TokKind::Punct("(") => self.parse_function_type(),
            TokKind::Bang(name) => {
                self.bump()?;
                if let Some(mnemonic) = crate::text::strip_dialect(name) {
                    return self.parse_spirv_type(mnemonic, t.start);
                }
                if !name.contains('.') {
                    return self.type_aliases.get(name).copied().ok_or_else(|| {
                        self.err_at(
                            self.loc_of(t.start),
                            format!("undefined type alias '!{name}'"),
                        )
                    });
                }
                Err(self.err_at(
                    self.loc_of(t.start),
                    format!("type '!{name}' is not supported in the spv IR"),
                ))
            }
            _ => Err(self.expected("type")),
        }
    }

    /// `(T, ...) -> R` or `(T, ...) -> (R, ...)`.
    pub(crate) fn parse_function_type(&mut self) -> PResult<Type> {
        let inputs = self.parse_type_list_parens()?;
        self.expect("->", "in function type")?;
        let results = if self.at("(")? {
            self.parse_type_list_parens()?
        } else {
            vec![self.parse_type()?]
        };
        Ok(self.m.types.function(inputs, results))
    }

    /// `( T, ... )`, possibly empty.
    pub(crate) fn parse_type_list_parens(&mut self) -> PResult<Vec<Type>> {
        self.expect("(", "to begin type list")?;
        let mut out = Vec::new();
        if !self.eat(")")? {
            loop {
                out.push(self.parse_type()?);
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect(")", "to end type list")?;
        }
        Ok(out)
    }

    /// A comma-separated list of exactly `n` types.
    pub(crate) fn parse_type_list_n(&mut self, n: usize) -> PResult<Vec<Type>> {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            if i > 0 {
                self.expect(",", "between types")?;
            }
            out.push(self.parse_type()?);
        }
        Ok(out)
    }

    /// A dimension `N` followed by `x` (written `4xf32`, `4 x f32`).
    pub(crate) fn dimension(&mut self, what: &str) -> PResult<u32> {
        let n = self.u32_lit(what)?;
        let t = self.peek()?.clone();
        match t.kind {
            TokKind::Ident("x") => {
                self.bump()?;
            }
            TokKind::Ident(s) if s.starts_with('x') => {
                // `4xf32`: re-lex from just after the `x`.
                self.rewind(t.start + 1);
            }
            _ => return Err(self.expected("'x' in dimension list")),
        }
        Ok(n)
    }

    /// A word that may start with digits (`2D`, `Dim2D`, `Rgba32f`).
    pub(crate) fn enum_word(&mut self, what: &str) -> PResult<String> {
        let t = self.peek()?.clone();
        match t.kind {
            TokKind::Ident(s) => {
                self.bump()?;
                Ok(s.to_string())
            }
            TokKind::Int(digits) => {
                self.bump()?;
                let mut word = digits.to_string();
                if let TokKind::Ident(rest) = self.peek()?.kind {
                    if self.peek()?.start == t.end {
                        word.push_str(rest);
                        self.bump()?;
                    }
                }
                Ok(word)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// The body of `!spirv.<mnemonic>`.
    fn parse_spirv_type(&mut self, mnemonic: &str, start: usize) -> PResult<Type> {
        match mnemonic {
            "array" => {
                self.expect("<", "after '!spirv.array'")?;
                let len = self.dimension("array length")?;
                let element = self.parse_type()?;
                let stride = self.opt_stride()?;
                self.expect(">", "to end array type")?;
                Ok(self.m.types.array(len, element, stride))
            }
            "rtarray" => {
                self.expect("<", "after '!spirv.rtarray'")?;
                let element = self.parse_type()?;
                let stride = self.opt_stride()?;
                self.expect(">", "to end runtime array type")?;
                Ok(self.m.types.runtime_array(element, stride))
            }
            "ptr" => {
                self.expect("<", "after '!spirv.ptr'")?;
                let pointee = self.parse_type()?;
                self.expect(",", "after pointee type")?;
                let sc = self.storage_class()?;
                self.expect(">", "to end pointer type")?;
                Ok(self.m.types.pointer(pointee, sc))
            }
            "matrix" => {
                self.expect("<", "after '!spirv.matrix'")?;
                let cloc = self.loc()?;
                let columns = self.dimension("column count")?;
                if !(2..=4).contains(&columns) {
                    return Err(self.err_at(cloc, "matrix is expected to have 2, 3, or 4 columns"));
                }
                let tloc = self.loc()?;
                let column = self.parse_type()?;
                self.check_matrix_column(column, tloc)?;
                self.expect(">", "to end matrix type")?;
                Ok(self.m.types.intern(TypeKind::Matrix { columns, column }))
            }
            "coopmatrix" => self.parse_coop_matrix_type(),
            "sampler" => Ok(self.m.types.intern(TypeKind::Sampler)),
            "sampled_image" => {
                self.expect("<", "after '!spirv.sampled_image'")?;
                let image = self.parse_type()?;
                self.expect(">", "to end sampled image type")?;
                Ok(self.m.types.intern(TypeKind::SampledImage(image)))
            }
            "image" => self.parse_image_type(),
            "struct" => self.parse_struct_type(),
            _ => Err(self.err_at(
                self.loc_of(start),
                format!("unknown SPIR-V type '!spirv.{mnemonic}'"),
            )),
        }
    }

    /// The body of `!spirv.coopmatrix<RxCxT, Scope, Use>`.
    fn parse_coop_matrix_type(&mut self) -> PResult<Type> {
        self.expect("<", "after '!spirv.coopmatrix'")?;
        let rows = self.dimension("row count")?;
        let columns = self.dimension("column count")?;
        let loc = self.loc()?;
        let element = self.parse_type()?;
        if !self.m.types.is_scalar(element) || self.m.types.is_bool(element) {
            return Err(self.err_at(
                loc,
                "a cooperative matrix's elements must be integers or floats",
            ));
        }
        self.expect(",", "after cooperative matrix element type")?;
        let loc = self.loc()?;
        let name = self.ident("scope")?;
        let scope = Scope::from_name(name)
            .ok_or_else(|| self.err_at(loc, format!("unknown scope '{name}'")))?;
        self.expect(",", "after cooperative matrix scope")?;
        let loc = self.loc()?;
        let name = self.ident("cooperative matrix use")?;
        let usage = CoopMatrixUse::from_name(name).ok_or_else(|| {
            self.err_at(
                loc,
                format!("unknown cooperative matrix use '{name}' (MatrixA, MatrixB or MatrixAcc)"),
            )
        })?;
        self.expect(">", "to end cooperative matrix type")?;
        Ok(self.m.types.intern(TypeKind::CoopMatrix(CoopMatrixType {
            element,
            rows,
            columns,
            scope,
            usage,
        })))
    }

    /// `, stride=N` (N > 0, as MLIR 19 requires) or nothing.
    fn opt_stride(&mut self) -> PResult<Option<u32>> {
        if !self.eat(",")? {
            return Ok(None);
        }
        self.expect_kw("stride", "in array type")?;
        self.expect("=", "after 'stride'")?;
        let loc = self.loc()?;
        match self.u32_lit("stride")? {
            0 => Err(self.err_at(loc, "ArrayStride must be greater than zero")),
            stride => Ok(Some(stride)),
        }
    }

    /// A matrix column, as MLIR 19's `!spirv.matrix` takes it: a vector of
    /// 2 to 4 floats.
    fn check_matrix_column(&mut self, column: Type, loc: crate::ir::Location) -> PResult<()> {
        let shown =
            |p: &Self| crate::text::print_type(&p.m.types, column, crate::text::Prefix::Spirv);
        let TypeKind::Vector { len, element } = *self.m.types.kind(column) else {
            let msg = format!(
                "matrix must be composed using vector type, got '{}'",
                shown(self)
            );
            return Err(self.err_at(loc, msg));
        };
        if !self.m.types.is_float(element) {
            let element =
                crate::text::print_type(&self.m.types, element, crate::text::Prefix::Spirv);
            let msg = format!("matrix columns' elements must be of Float type, got '{element}'");
            return Err(self.err_at(loc, msg));
        }
        if !(2..=4).contains(&len) {
            let msg = format!(
                "matrix columns size has to be less than or equal to 4 and greater than or equal 2, but found {len}"
            );
            return Err(self.err_at(loc, msg));
        }
        Ok(())
    }

    /// A storage class name.
    pub(crate) fn storage_class(&mut self) -> PResult<StorageClass> {
        let loc = self.loc()?;
        let name = self.ident("storage class")?;
        StorageClass::from_name(name)
            .ok_or_else(|| self.err_at(loc, format!("unknown storage class '{name}'")))
    }

    fn parse_image_type(&mut self) -> PResult<Type> {
        self.expect("<", "after '!spirv.image'")?;
        let element = self.parse_type()?;
        self.expect(",", "after image element type")?;
        let loc = self.loc()?;
        let dim_word = self.enum_word("image dimension")?;
        let dim_name = match dim_word.strip_prefix("Dim") {
            Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => rest.to_string(),
            _ => dim_word.clone(),
        };
        let dim = Dim::from_name(&dim_name)
            .ok_or_else(|| self.err_at(loc, format!("unknown image dimension '{dim_word}'")))?;
        let depth = self.image_operand("depth", |s| match s {
            "NoDepth" => Some(ImageDepth::NoDepth),
            "IsDepth" => Some(ImageDepth::IsDepth),
            "DepthUnknown" => Some(ImageDepth::DepthUnknown),
            _ => None,
        })?;
        let arrayed = self.image_operand("arrayed", |s| match s {
            "NonArrayed" => Some(ImageArrayed::NonArrayed),
            "Arrayed" => Some(ImageArrayed::Arrayed),
            _ => None,
        })?;
        let sampling = self.image_operand("sampling", |s| match s {
            "SingleSampled" => Some(ImageSampling::SingleSampled),
            "MultiSampled" => Some(ImageSampling::MultiSampled),
            _ => None,
        })?;
        let sampler_use = self.image_operand("sampler use", |s| match s {
            "SamplerUnknown" => Some(ImageSamplerUse::SamplerUnknown),
            "NeedSampler" => Some(ImageSamplerUse::NeedSampler),
            "NoSampler" => Some(ImageSamplerUse::NoSampler),
            _ => None,
        })?;
        self.expect(",", "before image format")?;
        let loc = self.loc()?;
        let fmt = self.enum_word("image format")?;
        let format = ImageFormat::from_name(&fmt)
            .ok_or_else(|| self.err_at(loc, format!("unknown image format '{fmt}'")))?;
        self.expect(">", "to end image type")?;
        Ok(self.m.types.intern(TypeKind::Image(ImageType {
            element,
            dim,
            depth,
            arrayed,
            sampling,
            sampler_use,
            format,
        })))
    }

    fn image_operand<T>(&mut self, what: &str, f: impl Fn(&str) -> Option<T>) -> PResult<T> {
        self.expect(",", &format!("before image {what}"))?;
        let loc = self.loc()?;
        let word = self.ident(&format!("image {what}"))?;
        f(word).ok_or_else(|| self.err_at(loc, format!("unknown image {what} '{word}'")))
    }

    /// `!spirv.struct<(...)>`, `!spirv.struct<name, (...)>`, or the seeds'
    /// `!spirv.struct<f32 [0], i32 [4]>`.
    fn parse_struct_type(&mut self) -> PResult<Type> {
        self.expect("<", "after '!spirv.struct'")?;
        let mut identifier = None;
        let t = self.peek()?.clone();
        let names_identifier = match &t.kind {
            TokKind::Str(_) => true,
            TokKind::Ident(s) => builtin_scalar(s).is_none() && *s != "vector",
            _ => false,
        };
        if names_identifier {
            identifier = Some(match t.kind {
                TokKind::Str(s) => s.into_owned(),
                TokKind::Ident(s) => s.to_string(),
                _ => String::new(),
            });
            self.bump()?;
            if self.eat(">")? {
                // A reference to an identified struct by name only.
                return Ok(self.m.types.intern(TypeKind::Struct(StructType {
                    identifier,
                    members: Vec::new(),
                })));
            }
            self.expect(",", "after struct identifier")?;
        }
        let mut members = Vec::new();
        if self.eat("(")? {
            if !self.eat(")")? {
                loop {
                    members.push(self.struct_member()?);
                    if !self.eat(",")? {
                        break;
                    }
                }
                self.expect(")", "to end struct member list")?;
            }
        } else if identifier.is_none() && !self.at(">")? {
            loop {
                members.push(self.struct_member()?);
                if !self.eat(",")? {
                    break;
                }
            }
        } else if identifier.is_some() {
            return Err(self.expected("'(' to begin struct members"));
        }
        self.expect(">", "to end struct type")?;
        Ok(self.m.types.intern(TypeKind::Struct(StructType {
            identifier,
            members,
        })))
    }

    /// `T` or `T [offset, Decoration, Decoration=value]`.
    fn struct_member(&mut self) -> PResult<StructMember> {
        let ty = self.parse_type()?;
        let mut member = StructMember {
            ty,
            offset: None,
            decorations: Vec::new(),
        };
        if !self.eat("[")? {
            return Ok(member);
        }
        if matches!(self.peek()?.kind, TokKind::Int(_)) {
            member.offset = Some(self.u32_lit("member offset")?);
            if !self.eat(",")? {
                self.expect("]", "to end member decorations")?;
                return Ok(member);
            }
        }
        loop {
            let loc = self.loc()?;
            let name = self.ident("member decoration")?;
            let decoration = Decoration::from_name(name)
                .ok_or_else(|| self.err_at(loc, format!("unknown decoration '{name}'")))?;
            let value = if self.eat("=")? {
                Some(self.u32_lit("decoration value")?)
            } else {
                None
            };
            member
                .decorations
                .push(MemberDecoration { decoration, value });
            if !self.eat(",")? {
                break;
            }
        }
        self.expect("]", "to end member decorations")?;
        Ok(member)
    }
}
