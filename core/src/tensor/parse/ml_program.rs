//! `ml_program.global` with an initial value, and `ml_program.global_load`
//! / `global_load_const` of it, read as an `arith.constant` of that value
//! (a rewrite at import). A program that writes a global
//! (`ml_program.global_store`) is refused as an unsupported op, so every
//! load of a program kiln reads sees the initial value, `mutable` or not.

use super::{PResult, ParsedOp, Parser};
use crate::tensor::ops::OpKind;
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

impl Parser<'_> {
    /// `ml_program.global [vis] [mutable] @name(value) : T` at the top level.
    pub(crate) fn parse_global(&mut self) -> PResult<()> {
        let loc = self.loc();
        self.bump()?;
        if let TokKind::Ident("public" | "private" | "nested") = self.peek() {
            self.bump()?;
        }
        self.eat_ident("mutable")?;
        let name = self.symbol()?;
        if !self.eat_punct("(")? {
            return self.err_at(
                loc,
                format!("'ml_program.global' @{name} without an initial value is not supported"),
            );
        }
        let value = self.parse_const_attr()?;
        self.expect_punct(")")?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        if value.ty() != ty {
            return self.err_at(
                tloc,
                format!(
                    "'ml_program.global' op the initial value has type {}, the global {}",
                    self.m.types.text(value.ty()),
                    self.m.types.text(ty)
                ),
            );
        }
        if self.globals.insert(name.clone(), value).is_some() {
            return self.err_at(loc, format!("redefinition of symbol '@{name}'"));
        }
        Ok(())
    }

    /// The rest of `ml_program.global_load[_const] @name : T`.
    pub(crate) fn parse_global_load(&mut self, name: &str) -> PResult<ParsedOp> {
        let sym_loc = self.loc();
        let global = self.symbol()?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        let Some(value) = self.globals.get(&global).cloned() else {
            return self.err_at(
                sym_loc,
                format!("'{name}' op '@{global}' is not an ml_program.global defined before it"),
            );
        };
        if value.ty() != ty {
            return self.err_at(
                tloc,
                format!(
                    "'{name}' op result type {} does not match the global's type {}",
                    self.m.types.text(ty),
                    self.m.types.text(value.ty())
                ),
            );
        }
        Ok(ParsedOp::new(OpKind::Constant(value), vec![], vec![ty]))
    }
}
