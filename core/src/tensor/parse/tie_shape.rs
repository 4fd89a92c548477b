//! IREE's `flow.tensor.tie_shape`, resolved at import.
//!
//! ```mlir
//! %1 = flow.tensor.tie_shape %0 : tensor<?x?xi32>{%h, %w}
//! ```
//!
//! The result is its operand; the op ties the tensor's dynamic dimensions
//! to index values (one per `?`, in order) for IREE's compiler. IREE's
//! tests use it on the results of functions that build inputs of run-time
//! size. kiln checks how it is written (the type is the operand's, one
//! `index` per dynamic dimension) and binds the result to the operand: the
//! program prints back without the op. Like IREE, kiln does not check the
//! sizes at run time.

use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::entity::TValue;
use crate::tensor::types::{Dim, ElemType, TypeKind};
use crate::text::cursor::TokenParser;

impl Parser<'_> {
    /// The operand of `flow.tensor.tie_shape` after its name, checked; it
    /// is the result.
    pub(crate) fn parse_tie_shape(&mut self, loc: Location) -> PResult<TValue> {
        let operand = self.value_use()?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        self.check_types(&[operand], &[ty], tloc)?;
        let dynamic = match self.m.ty(ty) {
            TypeKind::Tensor { shape, .. } => shape.iter().filter(|d| **d == Dim::Dynamic).count(),
            _ => return self.err_at(tloc, "'flow.tensor.tie_shape' op expected a tensor type"),
        };
        self.expect_punct("{")?;
        let mut dims = Vec::new();
        self.comma_list("}", |p| {
            dims.push(p.value_use()?);
            Ok(())
        })?;
        if dims.len() != dynamic {
            return self.err_at(
                loc,
                format!(
                    "'flow.tensor.tie_shape' op {} dynamic dimension value(s) for a type with {dynamic} dynamic dimension(s)",
                    dims.len()
                ),
            );
        }
        let index = self.m.types.scalar(ElemType::Index);
        self.check_types(&dims, &vec![index; dims.len()], tloc)?;
        Ok(operand)
    }
}
