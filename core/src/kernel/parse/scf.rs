//! `scf.for`, `scf.if` and `scf.while` in MLIR 19's custom syntax, with
//! the implicit `scf.yield` of bodies that yield nothing.

use super::structure::ArgDef;
use super::{KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp};
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// Appends an `scf.yield` without operands to the last block of
    /// `op`'s region `index` when it has no terminator (creating the block
    /// of an empty region).
    fn implicit_yield(&mut self, op: KOp, index: usize, loc: Location) {
        let region = self.m.op(op).regions[index];
        let block = match self.m.region(region).blocks.last() {
            Some(&b) => b,
            None => self.m.append_block(region, &[]),
        };
        let ends = self
            .m
            .block(block)
            .ops
            .last()
            .is_some_and(|&o| self.m.op(o).kind.is_terminator());
        if !ends {
            let y = self
                .m
                .create_op(KOpKind::ScfYield, &[], &[], Vec::new(), 0, loc);
            self.m.append_op(block, y);
        }
    }

    pub(crate) fn parse_scf_for(
        &mut self,
        mut spec: OpSpecK,
        block: KBlock,
        loc: Location,
    ) -> PResult<KOp> {
        let (iv_name, iv_loc) = self.def_name()?;
        self.expect_punct("=")?;
        let lb = self.value_use()?;
        self.expect_ident("to")?;
        let ub = self.value_use()?;
        self.expect_ident("step")?;
        let step = self.value_use()?;
        let mut iter: Vec<ArgDef> = Vec::new();
        let mut inits = Vec::new();
        if self.eat_ident("iter_args")? {
            self.expect_punct("(")?;
            self.comma_list(")", |p| {
                let (n, l) = p.def_name()?;
                p.expect_punct("=")?;
                inits.push(p.value_use()?);
                iter.push((n, l, KType::Index));
                Ok(())
            })?;
            self.expect_punct("->")?;
            let tloc = self.loc();
            let tys = self.parse_result_types()?;
            if tys.len() != inits.len() {
                return Err(KernelParseError::new(
                    tloc,
                    format!("{} iter_args but {} result types", inits.len(), tys.len()),
                ));
            }
            for ((a, init), t) in iter.iter_mut().zip(&inits).zip(&tys) {
                self.check_ty(*init, t, tloc)?;
                a.2 = t.clone();
            }
        }
        let iv_ty = if self.eat_punct(":")? {
            self.parse_type()?
        } else {
            KType::Index
        };
        for v in [lb, ub, step] {
            self.check_ty(v, &iv_ty, loc)?;
        }
        spec.operands = [lb, ub, step].into_iter().chain(inits).collect();
        spec.results = iter.iter().map(|a| a.2.clone()).collect();
        spec.regions = 1;
        let has_iter = !iter.is_empty();
        let op = self.build(block, spec, loc);
        let region = self.regions_of(op)[0];
        let mut entry = vec![(iv_name, iv_loc, iv_ty)];
        entry.extend(iter);
        self.parse_region(region, Some(entry), false)?;
        if !has_iter {
            self.implicit_yield(op, 0, loc);
        }
        let extra = self.opt_attr_dict()?;
        self.m.op_mut(op).attrs.extend(extra);
        Ok(op)
    }

    pub(crate) fn parse_scf_if(
        &mut self,
        mut spec: OpSpecK,
        block: KBlock,
        loc: Location,
    ) -> PResult<KOp> {
        let c = self.typed_use(&KType::bool())?;
        if self.eat_punct("->")? {
            spec.results = self.parse_result_types()?;
        }
        spec.operands = vec![c];
        spec.regions = 2;
        let no_results = spec.results.is_empty();
        let op = self.build(block, spec, loc);
        let regions = self.regions_of(op);
        self.parse_region(regions[0], None, false)?;
        if no_results {
            self.implicit_yield(op, 0, loc);
        }
        if self.eat_ident("else")? {
            self.parse_region(regions[1], None, false)?;
            if no_results {
                self.implicit_yield(op, 1, loc);
            }
        }
        let extra = self.opt_attr_dict()?;
        self.m.op_mut(op).attrs.extend(extra);
        Ok(op)
    }

    pub(crate) fn parse_scf_while(
        &mut self,
        mut spec: OpSpecK,
        block: KBlock,
        loc: Location,
    ) -> PResult<KOp> {
        self.expect_punct("(")?;
        let mut before: Vec<ArgDef> = Vec::new();
        let mut inits = Vec::new();
        self.comma_list(")", |p| {
            let (n, l) = p.def_name()?;
            p.expect_punct("=")?;
            inits.push(p.value_use()?);
            before.push((n, l, KType::Index));
            Ok(())
        })?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let KType::Function { inputs, results } = self.parse_type()? else {
            return Err(KernelParseError::new(tloc, "expected a function type"));
        };
        if inputs.len() != inits.len() {
            return Err(KernelParseError::new(
                tloc,
                format!(
                    "{} operands but {} operand types",
                    inits.len(),
                    inputs.len()
                ),
            ));
        }
        for ((a, init), t) in before.iter_mut().zip(&inits).zip(&inputs) {
            self.check_ty(*init, t, tloc)?;
            a.2 = t.clone();
        }
        spec.operands = inits;
        spec.results = results;
        spec.regions = 2;
        let op = self.build(block, spec, loc);
        let regions = self.regions_of(op);
        self.parse_region(regions[0], Some(before), false)?;
        self.expect_ident("do")?;
        self.parse_region(regions[1], None, false)?;
        let extra = self.opt_attr_dict()?;
        self.m.op_mut(op).attrs.extend(extra);
        Ok(op)
    }
}
