//! Kernel types in MLIR syntax: `i32`, `f16`, `index`, `vector<4xf32>`,
//! `memref<?x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>`,
//! `memref<*xf32>`, `(i32, f32) -> i1`.

use super::{PResult, Parser};
use crate::grammar::StorageClass;
use crate::kernel::types::{
    FloatTy, GpuAddressSpace, KType, MemRefLayout, MemorySpace, MmaOperand,
};
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

/// A scalar type keyword (`i32`, `f16`, `index`).
pub(crate) fn scalar_from_name(name: &str) -> Option<KType> {
    Some(match name {
        "f16" => KType::Float(FloatTy::F16),
        "bf16" => KType::Float(FloatTy::BF16),
        "f32" => KType::Float(FloatTy::F32),
        "f64" => KType::Float(FloatTy::F64),
        "index" => KType::Index,
        _ => {
            let w: u32 = name.strip_prefix('i')?.parse().ok()?;
            if w == 0 || w > 128 || name.starts_with("i0") {
                return None;
            }
            KType::Int(w)
        }
    })
}

impl Parser<'_> {
    /// Whether the current token can start a type.
    pub(crate) fn at_type(&self) -> bool {
        match self.peek() {
            TokKind::Ident(s) => scalar_from_name(s).is_some() || matches!(*s, "vector" | "memref"),
            TokKind::Punct("(") => true,
            _ => false,
        }
    }

    /// A type.
    pub(crate) fn parse_type(&mut self) -> PResult<KType> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<KType> {
        match *self.peek() {
            TokKind::Ident("vector") => {
                self.bump()?;
                self.parse_vector_body()
            }
            TokKind::Ident("memref") => {
                self.bump()?;
                self.parse_memref_body()
            }
            TokKind::Ident(name) => match scalar_from_name(name) {
                Some(t) => {
                    self.bump()?;
                    Ok(t)
                }
                None if name.starts_with("si") || name.starts_with("ui") => self.err(format!(
                    "type '{name}' is not supported in kernels: integers are signless (iN)"
                )),
                None => self.err(format!("unknown or unsupported type '{name}'")),
            },
            TokKind::Bang("gpu.mma_matrix") => {
                self.bump()?;
                self.parse_mma_matrix_body()
            }
            TokKind::Punct("(") => {
                self.bump()?;
                let mut inputs = Vec::new();
                self.comma_list(")", |p| {
                    inputs.push(p.parse_type()?);
                    Ok(())
                })?;
                self.expect_punct("->")?;
                let results = self.parse_result_types()?;
                Ok(KType::Function { inputs, results })
            }
            _ => self.expected("a type"),
        }
    }

    /// The results of a function type: `T` or `(T, ...)`.
    pub(crate) fn parse_result_types(&mut self) -> PResult<Vec<KType>> {
        let mut results = Vec::new();
        if self.eat_punct("(")? {
            self.comma_list(")", |p| {
                results.push(p.parse_type()?);
                Ok(())
            })?;
        } else {
            results.push(self.parse_type()?);
        }
        Ok(results)
    }

    /// `T, U, ...` (at least one).
    pub(crate) fn parse_type_list(&mut self) -> PResult<Vec<KType>> {
        let mut out = vec![self.parse_type()?];
        while self.eat_punct(",")? {
            out.push(self.parse_type()?);
        }
        Ok(out)
    }

    /// With the cursor on `<`, reads `4x8x` / `?x` dimension prefixes from
    /// the raw text (the lexer would read `4xf32` as `4`, `xf32`), leaving
    /// the cursor on the element type.
    fn parse_dims(&mut self, allow_dynamic: bool) -> PResult<Vec<Option<u64>>> {
        if !self.is_punct("<") {
            return self.expected("'<'");
        }
        let src = self.src().as_bytes();
        let mut pos = self.tok_end();
        let mut dims = Vec::new();
        loop {
            let mut p = pos;
            while p < src.len() && src[p].is_ascii_whitespace() {
                p += 1;
            }
            let start = p;
            let dim = if src.get(p) == Some(&b'?') {
                p += 1;
                None
            } else {
                while p < src.len() && src[p].is_ascii_digit() {
                    p += 1;
                }
                if p == start {
                    break;
                }
                let text = &self.src()[start..p];
                match text.parse::<u64>() {
                    Ok(v) => Some(v),
                    Err(_) => {
                        return Err(super::KernelParseError::new(
                            self.loc_at(start),
                            format!("dimension '{text}' is out of range"),
                        ))
                    }
                }
            };
            if src.get(p) != Some(&b'x') {
                // `vector<4>` or `memref<4, ...>`: not a dimension.
                if p > start {
                    return Err(super::KernelParseError::new(
                        self.loc_at(p),
                        "expected 'x' after a dimension",
                    ));
                }
                break;
            }
            if dim.is_none() && !allow_dynamic {
                return Err(super::KernelParseError::new(
                    self.loc_at(start),
                    "vectors cannot have dynamic dimensions",
                ));
            }
            dims.push(dim);
            pos = p + 1;
        }
        self.reset_to(pos)?;
        Ok(dims)
    }

    fn parse_vector_body(&mut self) -> PResult<KType> {
        let dims = self.parse_dims(false)?;
        let elem = self.parse_type()?;
        if !elem.is_scalar() {
            return self.err("vector element type must be an integer, float or index");
        }
        self.expect_punct(">")?;
        Ok(KType::Vector {
            shape: dims.into_iter().map(|d| d.unwrap_or(0)).collect(),
            elem: Box::new(elem),
        })
    }

    /// `<RxCxT, "AOp">` after `!gpu.mma_matrix`.
    fn parse_mma_matrix_body(&mut self) -> PResult<KType> {
        let dims = self.parse_dims(false)?;
        let [Some(rows), Some(cols)] = dims[..] else {
            return self.err("an MMA matrix has two static dimensions");
        };
        let (Ok(rows), Ok(cols)) = (u32::try_from(rows), u32::try_from(cols)) else {
            return self.err("MMA matrix dimensions must fit in 32 bits");
        };
        let elem = self.parse_type()?;
        if !matches!(elem, KType::Int(w) if w > 1) && !matches!(elem, KType::Float(_)) {
            return self.err("an MMA matrix's elements are integers or floats");
        }
        self.expect_punct(",")?;
        let operand = match self.peek().clone() {
            TokKind::Str(s) => MmaOperand::from_name(&s),
            _ => None,
        };
        let Some(operand) = operand else {
            return self.expected("\"AOp\", \"BOp\" or \"COp\"");
        };
        self.bump()?;
        self.expect_punct(">")?;
        Ok(KType::MmaMatrix {
            rows,
            cols,
            elem: Box::new(elem),
            operand,
        })
    }

    fn parse_memref_body(&mut self) -> PResult<KType> {
        if !self.is_punct("<") {
            return self.expected("'<'");
        }
        // `memref<*xf32>`.
        let after = self.tok_end();
        let rest = &self.src()[after..];
        let trimmed = rest.trim_start();
        if let Some(r) = trimmed.strip_prefix('*') {
            let star = after + (rest.len() - trimmed.len());
            if !r.starts_with('x') {
                return Err(super::KernelParseError::new(
                    self.loc_at(star),
                    "expected 'x' after '*'",
                ));
            }
            self.reset_to(star + 2)?;
            let elem = self.parse_type()?;
            let space = if self.eat_punct(",")? {
                self.parse_memory_space()?
            } else {
                MemorySpace::Default
            };
            self.expect_punct(">")?;
            return Ok(KType::UnrankedMemRef {
                elem: Box::new(elem),
                space,
            });
        }
        let shape = self.parse_dims(true)?;
        let elem = self.parse_type()?;
        if !(elem.is_scalar() || matches!(elem, KType::Vector { .. })) {
            return self.err("memref element type must be a scalar or a vector");
        }
        let mut layout = MemRefLayout::Identity;
        let mut space = MemorySpace::Default;
        if self.eat_punct(",")? {
            if self.is_ident("strided") {
                layout = self.parse_strided()?;
                if let MemRefLayout::Strided { strides, .. } = &layout {
                    if strides.len() != shape.len() {
                        return self.err(format!(
                            "expected {} strides in the layout, found {}",
                            shape.len(),
                            strides.len()
                        ));
                    }
                }
                if self.eat_punct(",")? {
                    space = self.parse_memory_space()?;
                }
            } else if self.is_ident("affine_map") {
                return self.err("affine_map memref layouts are not supported; use strided<...>");
            } else {
                space = self.parse_memory_space()?;
            }
        }
        self.expect_punct(">")?;
        Ok(KType::MemRef {
            shape,
            elem: Box::new(elem),
            layout,
            space,
        })
    }

    /// `strided<[8, 1], offset: 4>` (`?` for dynamic entries).
    fn parse_strided(&mut self) -> PResult<MemRefLayout> {
        self.expect_ident("strided")?;
        self.expect_punct("<")?;
        self.expect_punct("[")?;
        let mut strides = Vec::new();
        self.comma_list("]", |p| {
            strides.push(p.dyn_int()?);
            Ok(())
        })?;
        let mut offset = Some(0);
        if self.eat_punct(",")? {
            self.expect_ident("offset")?;
            self.expect_punct(":")?;
            offset = self.dyn_int()?;
        }
        self.expect_punct(">")?;
        Ok(MemRefLayout::Strided { offset, strides })
    }

    /// An integer or `?`.
    fn dyn_int(&mut self) -> PResult<Option<i64>> {
        if self.eat_punct("?")? {
            Ok(None)
        } else {
            Ok(Some(self.int("an integer or '?'")?))
        }
    }

    /// `3`, `#gpu.address_space<workgroup>`, `#spirv.storage_class<Workgroup>`.
    pub(crate) fn parse_memory_space(&mut self) -> PResult<MemorySpace> {
        match *self.peek() {
            TokKind::Int(_) => {
                let v = self.uint("a memory space")?;
                // An optional `: i64` type on the integer.
                if self.eat_punct(":")? {
                    self.parse_type()?;
                }
                // MLIR drops the default memory space 0.
                Ok(if v == 0 {
                    MemorySpace::Default
                } else {
                    MemorySpace::Int(v)
                })
            }
            TokKind::Hash("gpu.address_space") => {
                self.bump()?;
                self.expect_punct("<")?;
                let name = self.ident("an address space")?;
                let space = match name {
                    "global" => GpuAddressSpace::Global,
                    "workgroup" => GpuAddressSpace::Workgroup,
                    "private" => GpuAddressSpace::Private,
                    other => return self.err(format!("unknown gpu address space '{other}'")),
                };
                self.expect_punct(">")?;
                Ok(MemorySpace::Gpu(space))
            }
            TokKind::Hash("spirv.storage_class") | TokKind::Hash("spv.storage_class") => {
                self.bump()?;
                self.expect_punct("<")?;
                let name = self.ident("a storage class")?;
                let sc = StorageClass::from_name(name);
                let Some(sc) = sc else {
                    return self.err(format!("unknown storage class '{name}'"));
                };
                self.expect_punct(">")?;
                Ok(MemorySpace::StorageClass(sc))
            }
            _ => self.expected("a memory space"),
        }
    }
}
