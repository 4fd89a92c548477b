//! `vector` -> spv.

use crate::kernel::KOp;

use super::ctx::Lowerer;
use super::error::LowerError;

pub(crate) fn lower(l: &mut Lowerer, _kind: KOp) -> Result<(), LowerError> {
    Err(l.unsupported("no lowering for this op yet"))
}
