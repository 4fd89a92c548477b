//! The subgroup MMA ops (`gpu.subgroup_mma_*`) in MLIR 19's custom syntax
//! (the parsers `Parser::parse_special` dispatches to).

use super::{OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// `gpu.subgroup_mma_load_matrix %m[%i, ...] {attrs} : memref<...> ->
    /// !gpu.mma_matrix<...>`.
    pub(super) fn parse_mma_load(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let m = self.value_use()?;
        let idx = self.index_list()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let mt = self.memref_type()?;
        self.check_ty(m, &mt, loc)?;
        self.expect_punct("->")?;
        let rt = self.parse_type()?;
        spec.operands = std::iter::once(m).chain(idx).collect();
        spec.results = vec![rt];
        Ok(())
    }

    /// `gpu.subgroup_mma_store_matrix %v, %m[%i, ...] {attrs} :
    /// !gpu.mma_matrix<...>, memref<...>`.
    pub(super) fn parse_mma_store(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let v = self.value_use()?;
        self.expect_punct(",")?;
        let m = self.value_use()?;
        let idx = self.index_list()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let vt = self.parse_type()?;
        self.check_ty(v, &vt, loc)?;
        self.expect_punct(",")?;
        let mt = self.memref_type()?;
        self.check_ty(m, &mt, loc)?;
        spec.operands = [v, m].into_iter().chain(idx).collect();
        Ok(())
    }

    /// `gpu.subgroup_mma_compute %a, %b, %c {attrs} : A, B -> C`.
    pub(super) fn parse_mma_compute(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let a = self.value_use()?;
        self.expect_punct(",")?;
        let b = self.value_use()?;
        self.expect_punct(",")?;
        let c = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let at = self.parse_type()?;
        self.check_ty(a, &at, loc)?;
        self.expect_punct(",")?;
        let bt = self.parse_type()?;
        self.check_ty(b, &bt, loc)?;
        self.expect_punct("->")?;
        let ct = self.parse_type()?;
        self.check_ty(c, &ct, loc)?;
        spec.operands = vec![a, b, c];
        spec.results = vec![ct];
        Ok(())
    }

    /// `gpu.subgroup_mma_constant_matrix %v {attrs} : !gpu.mma_matrix<...>`.
    pub(super) fn parse_mma_constant(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        let v = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let rt = self.parse_type()?;
        spec.operands = vec![v];
        spec.results = vec![rt];
        Ok(())
    }
}
