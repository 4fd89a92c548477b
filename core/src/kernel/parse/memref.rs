//! The `memref` ops in MLIR 19's custom syntax (the parsers
//! `Parser::parse_special` dispatches to).

use super::{KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::kernel::module::KAttr;
use crate::kernel::types::KType;
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// `memref.load %m[%i, ...] : memref<...>`.
    pub(super) fn parse_memref_load(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let m = self.value_use()?;
        let idx = self.index_list()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let ty = self.memref_type()?;
        self.check_ty(m, &ty, loc)?;
        let elem = ty.memref_elem().cloned().unwrap_or(KType::f32());
        spec.operands = std::iter::once(m).chain(idx).collect();
        spec.results = vec![elem];
        Ok(())
    }

    /// `memref.store %v, %m[%i, ...] : memref<...>`.
    pub(super) fn parse_memref_store(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let v = self.value_use()?;
        self.expect_punct(",")?;
        let m = self.value_use()?;
        let idx = self.index_list()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let ty = self.memref_type()?;
        self.check_ty(m, &ty, loc)?;
        if let Some(elem) = ty.memref_elem() {
            self.check_ty(v, elem, loc)?;
        }
        spec.operands = [v, m].into_iter().chain(idx).collect();
        Ok(())
    }

    /// `memref.alloc` / `alloca`: `(%size, ...)[%sym, ...] : memref<...>`.
    pub(super) fn parse_alloc(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        self.expect_punct("(")?;
        let mut dyn_sizes = Vec::new();
        self.comma_list(")", |p| {
            dyn_sizes.push(p.typed_use(&KType::Index)?);
            Ok(())
        })?;
        let mut syms = Vec::new();
        if self.eat_punct("[")? {
            self.comma_list("]", |p| {
                syms.push(p.typed_use(&KType::Index)?);
                Ok(())
            })?;
        }
        spec.attrs.push((
            "operandSegmentSizes".into(),
            KAttr::DenseI64(vec![dyn_sizes.len() as i64, syms.len() as i64]),
        ));
        spec.attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.memref_type()?;
        let dynamic = match &ty {
            KType::MemRef { shape, .. } => shape.iter().filter(|d| d.is_none()).count(),
            _ => usize::MAX,
        };
        if dynamic != dyn_sizes.len() {
            return Err(KernelParseError::new(
                tloc,
                format!(
                    "the type has {dynamic} dynamic dimensions but {} sizes are given",
                    dyn_sizes.len()
                ),
            ));
        }
        spec.operands = dyn_sizes.into_iter().chain(syms).collect();
        spec.results = vec![ty];
        Ok(())
    }

    /// `memref.dealloc %m : memref<...>`.
    pub(super) fn parse_dealloc(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let m = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let ty = self.memref_type()?;
        self.check_ty(m, &ty, loc)?;
        spec.operands = vec![m];
        Ok(())
    }

    /// `memref.dim %m, %i : memref<...>`.
    pub(super) fn parse_memref_dim(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        spec.attrs = self.opt_attr_dict()?;
        let m = self.value_use()?;
        self.expect_punct(",")?;
        let i = self.typed_use(&KType::Index)?;
        self.expect_punct(":")?;
        let ty = self.memref_type()?;
        self.check_ty(m, &ty, loc)?;
        spec.operands = vec![m, i];
        spec.results = vec![KType::Index];
        Ok(())
    }

    /// `memref.subview %m[offsets] [sizes] [strides] : memref<...> to
    /// memref<...>`.
    pub(super) fn parse_subview(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let m = self.value_use()?;
        let (offs, doffs) = self.mixed_list()?;
        let (sizes, dsizes) = self.mixed_list()?;
        let (strides, dstrides) = self.mixed_list()?;
        spec.attrs.push((
            "operandSegmentSizes".into(),
            KAttr::DenseI64(vec![
                1,
                doffs.len() as i64,
                dsizes.len() as i64,
                dstrides.len() as i64,
            ]),
        ));
        spec.attrs
            .push(("static_offsets".into(), KAttr::DenseI64(offs)));
        spec.attrs
            .push(("static_sizes".into(), KAttr::DenseI64(sizes)));
        spec.attrs
            .push(("static_strides".into(), KAttr::DenseI64(strides)));
        spec.attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let from = self.memref_type()?;
        self.expect_ident("to")?;
        let to = self.memref_type()?;
        self.check_ty(m, &from, loc)?;
        spec.operands = std::iter::once(m)
            .chain(doffs)
            .chain(dsizes)
            .chain(dstrides)
            .collect();
        spec.results = vec![to];
        Ok(())
    }
}
