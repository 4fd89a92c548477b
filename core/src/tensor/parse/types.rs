//! Types: scalars, `tensor<4x?xf32>`, `vector<2xi64>`, `!alias`.

use super::{PResult, Parser};
use crate::tensor::entity::TType;
use crate::tensor::types::{Dim, ElemType, TypeKind};
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

impl Parser<'_> {
    /// A type.
    pub(crate) fn parse_type(&mut self) -> PResult<TType> {
        match *self.peek() {
            TokKind::Ident("tensor") => {
                self.bump()?;
                let (dims, elem) = self.parse_shaped_body(true)?;
                Ok(self.m.types.intern(TypeKind::Tensor { shape: dims, elem }))
            }
            TokKind::Ident("vector") => {
                self.bump()?;
                let (dims, elem) = self.parse_shaped_body(false)?;
                let shape = dims.iter().filter_map(|d| d.fixed()).collect();
                Ok(self.m.types.intern(TypeKind::Vector { shape, elem }))
            }
            TokKind::Ident(name) => {
                let e = self.elem_type_named(name)?;
                self.bump()?;
                Ok(self.m.types.scalar(e))
            }
            TokKind::Bang(name) => match self.type_aliases.get(name).copied() {
                Some(t) => {
                    self.bump()?;
                    Ok(t)
                }
                None => self.err(format!("undefined type alias '!{name}'")),
            },
            _ => self.expected("a type"),
        }
    }

    fn elem_type_named(&self, name: &str) -> PResult<ElemType> {
        match ElemType::from_name(name) {
            Some(e) => Ok(e),
            None if name.starts_with("si") || name.starts_with("ui") => self.err(format!(
                "type '{name}' is not supported: integers are signless (iN)"
            )),
            None if name == "memref" => {
                self.err("memref types are not supported in tensor programs")
            }
            None => self.err(format!("unknown or unsupported type '{name}'")),
        }
    }

    /// A scalar type.
    pub(crate) fn parse_elem_type(&mut self) -> PResult<ElemType> {
        match *self.peek() {
            TokKind::Ident(name) => {
                let e = self.elem_type_named(name)?;
                self.bump()?;
                Ok(e)
            }
            _ => self.expected("an element type"),
        }
    }

    /// `R` or `(R, ...)` after `->`.
    pub(crate) fn parse_result_types(&mut self) -> PResult<Vec<TType>> {
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
    pub(crate) fn parse_type_list(&mut self) -> PResult<Vec<TType>> {
        let mut out = vec![self.parse_type()?];
        while self.eat_punct(",")? {
            out.push(self.parse_type()?);
        }
        Ok(out)
    }

    /// `<4x?xf32>`: reads the `4x`/`?x` prefixes from the raw text (the
    /// lexer would read `4xf32` as `4`, `xf32`).
    fn parse_shaped_body(&mut self, allow_dynamic: bool) -> PResult<(Vec<Dim>, ElemType)> {
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
                if !allow_dynamic {
                    return self.err_at(self.loc_at(start), "vectors have static dimensions");
                }
                Dim::Dynamic
            } else {
                while p < src.len() && src[p].is_ascii_digit() {
                    p += 1;
                }
                if p == start {
                    break;
                }
                let text = &self.src()[start..p];
                match text.parse::<u64>() {
                    Ok(v) if v <= i64::MAX as u64 => Dim::Static(v),
                    _ => {
                        return self.err_at(
                            self.loc_at(start),
                            format!("dimension '{text}' is out of range"),
                        )
                    }
                }
            };
            if src.get(p) != Some(&b'x') {
                // `4>`: not a dimension (no element type follows).
                break;
            }
            dims.push(dim);
            pos = p + 1;
        }
        self.reset_to(pos)?;
        if self.is_punct("*") {
            return self.err("unranked tensors are not supported");
        }
        let elem = self.parse_elem_type()?;
        if self.is_punct(",") {
            return self.err("tensor encodings are not supported");
        }
        self.expect_punct(">")?;
        Ok((dims, elem))
    }
}
