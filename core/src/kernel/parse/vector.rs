//! The `vector` ops in MLIR 19's custom syntax (the parsers
//! `Parser::parse_special` dispatches to).

use super::{OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::kernel::entity::KValue;
use crate::kernel::forms::VECTOR_KINDS;
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// `%m[%i, ...] {attrs} : memref<...>, vector<...>` of `vector.load` and
    /// `vector.store`: the memref (type-checked), the indices and the
    /// vector type; the attributes go to `spec`.
    fn vector_access(
        &mut self,
        spec: &mut OpSpecK,
        loc: Location,
    ) -> PResult<(KValue, Vec<KValue>, KType)> {
        let m = self.value_use()?;
        let idx = self.index_list()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let mty = self.memref_type()?;
        self.expect_punct(",")?;
        let vty = self.vector_type()?;
        self.check_ty(m, &mty, loc)?;
        Ok((m, idx, vty))
    }

    /// `vector.load %m[%i, ...] : memref<...>, vector<...>`.
    pub(super) fn parse_vector_load(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let (m, idx, vty) = self.vector_access(spec, loc)?;
        spec.operands = std::iter::once(m).chain(idx).collect();
        spec.results = vec![vty];
        Ok(())
    }

    /// `vector.store %v, %m[%i, ...] : memref<...>, vector<...>`.
    pub(super) fn parse_vector_store(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let v = self.value_use()?;
        self.expect_punct(",")?;
        let (m, idx, vty) = self.vector_access(spec, loc)?;
        self.check_ty(v, &vty, loc)?;
        spec.operands = [v, m].into_iter().chain(idx).collect();
        Ok(())
    }

    /// `vector.extract %v[positions] : T from vector<...>`.
    pub(super) fn parse_vector_extract(
        &mut self,
        spec: &mut OpSpecK,
        loc: Location,
    ) -> PResult<()> {
        let v = self.value_use()?;
        let (pos, dynamic) = self.mixed_list()?;
        spec.attrs
            .push(("static_position".into(), KAttr::DenseI64(pos)));
        spec.attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let rty = self.parse_type()?;
        self.expect_ident("from")?;
        let vty = self.vector_type()?;
        self.check_ty(v, &vty, loc)?;
        spec.operands = std::iter::once(v).chain(dynamic).collect();
        spec.results = vec![rty];
        Ok(())
    }

    /// `vector.insert %s, %v[positions] : T into vector<...>`.
    pub(super) fn parse_vector_insert(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let s = self.value_use()?;
        self.expect_punct(",")?;
        let v = self.value_use()?;
        let (pos, dynamic) = self.mixed_list()?;
        spec.attrs
            .push(("static_position".into(), KAttr::DenseI64(pos)));
        spec.attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let sty = self.parse_type()?;
        self.expect_ident("into")?;
        let vty = self.vector_type()?;
        self.check_ty(s, &sty, loc)?;
        self.check_ty(v, &vty, loc)?;
        spec.operands = [s, v].into_iter().chain(dynamic).collect();
        spec.results = vec![vty];
        Ok(())
    }

    /// `vector.extractelement %v[%i : T]` / `vector.insertelement %s,
    /// %v[%i : T]`, then `: vector<...>`.
    pub(super) fn parse_vector_element(
        &mut self,
        spec: &mut OpSpecK,
        loc: Location,
    ) -> PResult<()> {
        let s = if spec.kind == KOpKind::VectorInsertElement {
            let s = self.value_use()?;
            self.expect_punct(",")?;
            Some(s)
        } else {
            None
        };
        let v = self.value_use()?;
        self.expect_punct("[")?;
        let mut pos = None;
        if !self.is_punct("]") {
            let p = self.value_use()?;
            self.expect_punct(":")?;
            let pty = self.parse_type()?;
            self.check_ty(p, &pty, loc)?;
            pos = Some(p);
        }
        self.expect_punct("]")?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let vty = self.vector_type()?;
        self.check_ty(v, &vty, loc)?;
        let elem = vty.scalar().clone();
        if let Some(s) = s {
            self.check_ty(s, &elem, loc)?;
            spec.operands = [s, v].into_iter().chain(pos).collect();
            spec.results = vec![vty];
        } else {
            spec.operands = std::iter::once(v).chain(pos).collect();
            spec.results = vec![elem];
        }
        Ok(())
    }

    /// `vector.splat %s : vector<...>`.
    pub(super) fn parse_splat(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let s = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let vty = self.vector_type()?;
        self.check_ty(s, vty.scalar(), loc)?;
        spec.operands = vec![s];
        spec.results = vec![vty];
        Ok(())
    }

    /// `vector.shuffle %a, %b [mask] : vector<...>, vector<...>`.
    pub(super) fn parse_vector_shuffle(
        &mut self,
        spec: &mut OpSpecK,
        loc: Location,
    ) -> PResult<()> {
        let a = self.value_use()?;
        self.expect_punct(",")?;
        let b = self.value_use()?;
        self.expect_punct("[")?;
        let mut mask = Vec::new();
        self.comma_list("]", |p| {
            mask.push(p.int("a mask index")?);
            Ok(())
        })?;
        spec.attrs
            .push(("mask".into(), KAttr::DenseI64(mask.clone())));
        spec.attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let t1 = self.vector_type()?;
        self.expect_punct(",")?;
        let t2 = self.vector_type()?;
        self.check_ty(a, &t1, loc)?;
        self.check_ty(b, &t2, loc)?;
        spec.operands = vec![a, b];
        spec.results = vec![KType::vector(mask.len() as u64, t1.scalar().clone())];
        Ok(())
    }

    /// `vector.interleave %a, %b : vector<...> -> vector<...>`.
    pub(super) fn parse_interleave(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let a = self.value_use()?;
        self.expect_punct(",")?;
        let b = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let t = self.vector_type()?;
        self.expect_punct("->")?;
        let r = self.vector_type()?;
        self.check_ty(a, &t, loc)?;
        self.check_ty(b, &t, loc)?;
        spec.operands = vec![a, b];
        spec.results = vec![r];
        Ok(())
    }

    /// `vector.deinterleave %a : vector<...> -> vector<...>`.
    pub(super) fn parse_deinterleave(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let a = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let t = self.vector_type()?;
        self.expect_punct("->")?;
        let r = self.vector_type()?;
        self.check_ty(a, &t, loc)?;
        spec.operands = vec![a];
        spec.results = vec![r.clone(), r];
        Ok(())
    }

    /// `vector.reduction <KIND>, %v [, %acc] [flags] : vector<...> into T`.
    pub(super) fn parse_reduction(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        self.expect_punct("<")?;
        let kind = self.enum_kw("combining kind", &VECTOR_KINDS)?;
        self.expect_punct(">")?;
        spec.attrs.push(("kind".into(), KAttr::Enum(kind)));
        self.expect_punct(",")?;
        let v = self.value_use()?;
        let acc = if self.eat_punct(",")? {
            Some(self.value_use()?)
        } else {
            None
        };
        self.parse_tail(spec)?;
        self.expect_punct(":")?;
        let vty = self.vector_type()?;
        self.expect_ident("into")?;
        let rty = self.parse_type()?;
        self.check_ty(v, &vty, loc)?;
        if let Some(acc) = acc {
            self.check_ty(acc, &rty, loc)?;
        }
        spec.operands = std::iter::once(v).chain(acc).collect();
        spec.results = vec![rty];
        Ok(())
    }
}
