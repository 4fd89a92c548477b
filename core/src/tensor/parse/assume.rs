//! IREE's `util.assume.int`, resolved at import.
//!
//! ```mlir
//! %n = util.assume.int %arg0<umin = 1, umax = 1024, udiv = 16> : index
//! %a:2 = util.assume.int %x[<umin = 0>, <umin = 8>], %y<udiv = 4> : index, i64
//! ```
//!
//! Each result is its operand; the op only tells the compiler facts about
//! the value (an unsigned range and a divisor, or a list of such facts, one
//! of which holds). IREE's importers emit it for the dynamic dimensions of
//! exported programs (`torch.export`'s `Dim` ranges). kiln checks how it is
//! written and then binds each result to its operand: the program prints
//! back without the op, and its values are the same. kiln does not use the
//! facts yet (a range could bound a run-time-sized buffer, see
//! `codegen/strategy/planner/chunks.rs`).

use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::entity::TValue;
use crate::tensor::types::TypeKind;
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// The operands of `util.assume.int` after its name, checked; they are
    /// its results.
    pub(crate) fn parse_assume_int(&mut self, loc: Location) -> PResult<Vec<TValue>> {
        let mut operands = Vec::new();
        loop {
            operands.push(self.value_use()?);
            if self.eat_punct("[")? {
                self.comma_list("]", |p| p.parse_int_assumption())?;
            } else {
                self.parse_int_assumption()?;
            }
            if !self.eat_punct(",")? {
                break;
            }
        }
        if self.is_punct("{") {
            // The op has no attributes of its own beyond its assumptions;
            // a discardable one (a location, a name) changes nothing.
            self.raw_attr_dict()?;
        }
        self.expect_punct(":")?;
        let tloc = self.loc();
        let types = self.parse_type_list()?;
        self.check_types(&operands, &types, tloc)?;
        for &t in &types {
            if !matches!(self.m.ty(t), TypeKind::Scalar(e) if e.is_int_or_index()) {
                return self.err_at(
                    loc,
                    format!(
                        "'util.assume.int' op operand must be an integer or index scalar, not {}",
                        crate::tensor::print::type_to_string(&self.m, t)
                    ),
                );
            }
        }
        Ok(operands)
    }

    /// `<umin = N, umax = N, udiv = N>`, each field optional, any order.
    fn parse_int_assumption(&mut self) -> PResult<()> {
        let loc = self.loc();
        self.expect_punct("<")?;
        let (mut umin, mut umax) = (None, None);
        self.comma_list(">", |p| {
            let floc = p.loc();
            let field = p.ident("'umin', 'umax' or 'udiv'")?;
            p.expect_punct("=")?;
            let value = p.uint("an unsigned integer")?;
            let slot = match field {
                "umin" => &mut umin,
                "umax" => &mut umax,
                "udiv" if value == 0 => {
                    return p.err_at(floc, "'util.assume.int' op udiv must be positive")
                }
                "udiv" => return Ok(()),
                other => {
                    return p.err_at(
                        floc,
                        format!("unknown int assumption '{other}': expected umin, umax or udiv"),
                    )
                }
            };
            if slot.replace(value).is_some() {
                return p.err_at(floc, format!("'{field}' given twice"));
            }
            Ok(())
        })?;
        if let (Some(lo), Some(hi)) = (umin, umax) {
            if lo > hi {
                return self.err_at(
                    loc,
                    format!("'util.assume.int' op umin {lo} is above umax {hi}"),
                );
            }
        }
        Ok(())
    }
}
