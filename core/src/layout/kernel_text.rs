//! The MLIR text of kernel types ([`KType`]), for data layout queries.
//!
//! `kiln layout` and the layout tests name kernel types the way MLIR prints
//! them: `i32`, `f16`, `index`, `vector<4x3xf32>`, `memref<4x?xf32>`,
//! `memref<*xf16, 3>`, `memref<8xf32, strided<[2], offset: ?>,
//! #gpu.address_space<workgroup>>`, `memref<4xi32,
//! #spirv.storage_class<StorageBuffer>>`. This is the small type grammar
//! those need, not the kernel IR's full text form. Affine-map memref
//! layouts and scalable vectors are not kernel types and are rejected.

use crate::grammar::StorageClass;
use crate::kernel::{FloatTy, GpuAddressSpace, KType, MemRefLayout, MemorySpace};

/// Malformed kernel type text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {col}: {message}")]
pub struct KernelTypeError {
    /// 1-based column (character) of the problem.
    pub col: usize,
    /// What was expected or found.
    pub message: String,
}

/// Parses one kernel type; the whole text must be the type.
pub fn parse_kernel_type(text: &str) -> Result<KType, KernelTypeError> {
    let mut p = Cursor { src: text, pos: 0 };
    let ty = p.ty()?;
    p.ws();
    if p.pos != p.src.len() {
        return Err(p.err("unexpected text after the type"));
    }
    Ok(ty)
}

/// Prints a kernel type as MLIR does.
pub fn print_kernel_type(ty: &KType) -> String {
    match ty {
        KType::Int(w) => format!("i{w}"),
        KType::Float(f) => match f {
            FloatTy::F16 => "f16",
            FloatTy::BF16 => "bf16",
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        }
        .to_string(),
        KType::Index => "index".to_string(),
        KType::Vector { shape, elem } => {
            let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
            format!("vector<{dims}{}>", print_kernel_type(elem))
        }
        KType::MemRef {
            shape,
            elem,
            layout,
            space,
        } => {
            let dims: String = shape
                .iter()
                .map(|d| match d {
                    Some(d) => format!("{d}x"),
                    None => "?x".to_string(),
                })
                .collect();
            let mut out = format!("memref<{dims}{}", print_kernel_type(elem));
            if let MemRefLayout::Strided { offset, strides } = layout {
                let dyn_or = |v: &Option<i64>| v.map_or("?".to_string(), |v| v.to_string());
                let strides: Vec<String> = strides.iter().map(dyn_or).collect();
                out.push_str(&format!(", strided<[{}]", strides.join(", ")));
                if *offset != Some(0) {
                    out.push_str(&format!(", offset: {}", dyn_or(offset)));
                }
                out.push('>');
            }
            push_space(&mut out, *space);
            out.push('>');
            out
        }
        KType::UnrankedMemRef { elem, space } => {
            let mut out = format!("memref<*x{}", print_kernel_type(elem));
            push_space(&mut out, *space);
            out.push('>');
            out
        }
        KType::Function { inputs, results } => {
            let list = |ts: &[KType]| ts.iter().map(print_kernel_type).collect::<Vec<_>>();
            let results = list(results);
            let results = if results.len() == 1 && !results[0].starts_with('(') {
                results[0].clone()
            } else {
                format!("({})", results.join(", "))
            };
            format!("({}) -> {results}", list(inputs).join(", "))
        }
    }
}

fn push_space(out: &mut String, space: MemorySpace) {
    match space {
        MemorySpace::Default => {}
        MemorySpace::Int(n) => out.push_str(&format!(", {n}")),
        MemorySpace::Gpu(g) => out.push_str(&format!(
            ", #gpu.address_space<{}>",
            match g {
                GpuAddressSpace::Global => "global",
                GpuAddressSpace::Workgroup => "workgroup",
                GpuAddressSpace::Private => "private",
            }
        )),
        MemorySpace::StorageClass(sc) => {
            out.push_str(&format!(", #spirv.storage_class<{sc}>"));
        }
    }
}

struct Cursor<'a> {
    src: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn err(&self, message: impl Into<String>) -> KernelTypeError {
        KernelTypeError {
            col: self.src[..self.pos].chars().count() + 1,
            message: message.into(),
        }
    }

    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, s: &str) -> bool {
        self.ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str, what: &str) -> Result<(), KernelTypeError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{s}' {what}")))
        }
    }

    /// A run of `[A-Za-z0-9_.]` characters.
    fn word(&mut self) -> &str {
        self.ws();
        let start = self.pos;
        let len = self
            .rest()
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(self.rest().len());
        self.pos += len;
        &self.src[start..self.pos]
    }

    /// A decimal number (no sign).
    fn number(&mut self) -> Option<u64> {
        self.ws();
        let len = self
            .rest()
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(self.rest().len());
        if len == 0 {
            return None;
        }
        let n = self.rest()[..len].parse().ok()?;
        self.pos += len;
        Some(n)
    }

    fn ty(&mut self) -> Result<KType, KernelTypeError> {
        self.ws();
        let start = self.pos;
        if self.rest().starts_with('(') {
            return self.function();
        }
        let word = self.word().to_string();
        let fail = |c: &mut Self, msg: String| {
            c.pos = start;
            Err(c.err(msg))
        };
        match word.as_str() {
            "" => fail(self, "expected a type".to_string()),
            "index" => Ok(KType::Index),
            "f16" => Ok(KType::Float(FloatTy::F16)),
            "bf16" => Ok(KType::Float(FloatTy::BF16)),
            "f32" => Ok(KType::Float(FloatTy::F32)),
            "f64" => Ok(KType::Float(FloatTy::F64)),
            "vector" => self.vector(),
            "memref" => self.memref(),
            w if w.starts_with('i')
                && w.len() > 1
                && w[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                match w[1..].parse::<u32>() {
                    Ok(n) if n > 0 && n <= (1 << 24) => Ok(KType::Int(n)),
                    _ => fail(self, format!("invalid integer width in '{w}'")),
                }
            }
            w if (w.starts_with("si") || w.starts_with("ui")) && w.len() > 2 => fail(
                self,
                format!("'{w}': kernel integers are signless (use i{})", &w[2..]),
            ),
            w => fail(self, format!("unknown kernel type '{w}'")),
        }
    }

    /// `(T, ...) -> T` or `-> (T, ...)`.
    fn function(&mut self) -> Result<KType, KernelTypeError> {
        let inputs = self.type_list()?;
        self.expect("->", "in a function type")?;
        self.ws();
        let results = if self.rest().starts_with('(') {
            self.type_list()?
        } else {
            vec![self.ty()?]
        };
        Ok(KType::Function { inputs, results })
    }

    fn type_list(&mut self) -> Result<Vec<KType>, KernelTypeError> {
        self.expect("(", "to begin a type list")?;
        let mut out = Vec::new();
        if self.eat(")") {
            return Ok(out);
        }
        loop {
            out.push(self.ty()?);
            if self.eat(")") {
                return Ok(out);
            }
            self.expect(",", "or ')' in a type list")?;
        }
    }

    /// `NxMx` prefixes: numbers (or `?` when `dynamic`) each followed by
    /// `x`, up to the element type.
    fn dims(&mut self, dynamic: bool) -> Result<Vec<Option<u64>>, KernelTypeError> {
        let mut dims = Vec::new();
        loop {
            self.ws();
            let save = self.pos;
            let dim = if dynamic && self.eat("?") {
                None
            } else if let Some(n) = self.number() {
                Some(n)
            } else {
                return Ok(dims);
            };
            if !self.rest().starts_with('x') {
                self.pos = save;
                return Err(self.err("expected 'x' after a dimension"));
            }
            self.pos += 1;
            dims.push(dim);
        }
    }

    fn vector(&mut self) -> Result<KType, KernelTypeError> {
        self.expect("<", "after 'vector'")?;
        self.ws();
        if self.rest().starts_with('[') {
            return Err(self.err("scalable vectors are not kernel types"));
        }
        let shape: Vec<u64> = self.dims(false)?.into_iter().flatten().collect();
        if shape.is_empty() {
            return Err(self.err("expected a vector dimension"));
        }
        if shape.contains(&0) {
            return Err(self.err("vector dimensions must be positive"));
        }
        let elem = self.ty()?;
        if !elem.is_scalar() {
            return Err(self.err("vector elements must be integers, floats or index"));
        }
        self.expect(">", "to end the vector type")?;
        Ok(KType::Vector {
            shape,
            elem: Box::new(elem),
        })
    }

    fn memref(&mut self) -> Result<KType, KernelTypeError> {
        self.expect("<", "after 'memref'")?;
        let unranked = self.eat("*");
        if unranked {
            if !self.rest().starts_with('x') {
                return Err(self.err("expected 'x' after '*'"));
            }
            self.pos += 1;
        }
        let shape = if unranked {
            Vec::new()
        } else {
            self.dims(true)?
        };
        let elem = self.ty()?;
        if !(elem.is_scalar() || matches!(elem, KType::Vector { .. })) {
            return Err(self.err("memref elements must be integers, floats, index or vectors"));
        }
        let mut layout = MemRefLayout::Identity;
        let mut space = MemorySpace::Default;
        while self.eat(",") {
            self.ws();
            if self.rest().starts_with("strided") {
                if unranked {
                    return Err(self.err("an unranked memref has no layout"));
                }
                layout = self.strided(shape.len())?;
            } else if self.rest().starts_with("affine_map")
                || (self.rest().starts_with('#')
                    && !self.rest().starts_with("#gpu")
                    && !self.rest().starts_with("#spirv"))
            {
                return Err(self.err("only identity and strided memref layouts are kernel types"));
            } else {
                space = self.space()?;
            }
        }
        self.expect(">", "to end the memref type")?;
        Ok(if unranked {
            KType::UnrankedMemRef {
                elem: Box::new(elem),
                space,
            }
        } else {
            KType::MemRef {
                shape,
                elem: Box::new(elem),
                layout,
                space,
            }
        })
    }

    /// An integer or `?`.
    fn int_or_dynamic(&mut self) -> Result<Option<i64>, KernelTypeError> {
        if self.eat("?") {
            return Ok(None);
        }
        let negative = self.eat("-");
        let n = self
            .number()
            .and_then(|n| i64::try_from(n).ok())
            .ok_or_else(|| self.err("expected an integer or '?'"))?;
        Ok(Some(if negative { -n } else { n }))
    }

    fn strided(&mut self, rank: usize) -> Result<MemRefLayout, KernelTypeError> {
        self.expect("strided", "")?;
        self.expect("<", "after 'strided'")?;
        self.expect("[", "to begin the strides")?;
        let mut strides = Vec::new();
        if !self.eat("]") {
            loop {
                strides.push(self.int_or_dynamic()?);
                if self.eat("]") {
                    break;
                }
                self.expect(",", "or ']' between strides")?;
            }
        }
        if strides.len() != rank {
            return Err(self.err(format!(
                "expected {rank} strides to match the rank, found {}",
                strides.len()
            )));
        }
        let offset = if self.eat(",") {
            self.expect("offset", "after ',' in a strided layout")?;
            self.expect(":", "after 'offset'")?;
            self.int_or_dynamic()?
        } else {
            Some(0)
        };
        self.expect(">", "to end the strided layout")?;
        Ok(MemRefLayout::Strided { offset, strides })
    }

    fn space(&mut self) -> Result<MemorySpace, KernelTypeError> {
        if self.eat("#gpu.address_space") {
            self.expect("<", "after '#gpu.address_space'")?;
            let word = self.word().to_string();
            let space = match word.as_str() {
                "global" => GpuAddressSpace::Global,
                "workgroup" => GpuAddressSpace::Workgroup,
                "private" => GpuAddressSpace::Private,
                _ => return Err(self.err(format!("unknown gpu address space '{word}'"))),
            };
            self.expect(">", "to end the address space")?;
            return Ok(MemorySpace::Gpu(space));
        }
        if self.eat("#spirv.storage_class") {
            self.expect("<", "after '#spirv.storage_class'")?;
            let word = self.word().to_string();
            let sc = StorageClass::from_name(&word)
                .ok_or_else(|| self.err(format!("unknown storage class '{word}'")))?;
            self.expect(">", "to end the storage class")?;
            return Ok(MemorySpace::StorageClass(sc));
        }
        let n = self
            .number()
            .ok_or_else(|| self.err("expected a memory space, a strided layout or '>'"))?;
        if self.eat(":") {
            // `3 : i64`: the integer type of the attribute.
            let w = self.word().to_string();
            if !(w.starts_with('i') && w[1..].bytes().all(|b| b.is_ascii_digit())) {
                return Err(self.err("expected an integer type after ':'"));
            }
        }
        Ok(MemorySpace::Int(n))
    }
}
