//! `index` -> spv: each op but `index.cmp` lowers like its `arith` twin
//! (`index.add` as `arith.addi`, `index.casts` as `arith.index_cast`, ...),
//! on the converted index type; the dispatcher ([`super`]) sends those to
//! the `arith` patterns.

use crate::kernel::KOpKind;

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::ints::compare_int;

/// The `arith` op that `kind` lowers like, if any.
pub(crate) fn arith_twin(kind: KOpKind) -> Option<KOpKind> {
    use KOpKind::*;
    Some(match kind {
        IndexConstant => ArithConstant,
        IndexAdd => ArithAddI,
        IndexSub => ArithSubI,
        IndexMul => ArithMulI,
        IndexDivS => ArithDivSI,
        IndexDivU => ArithDivUI,
        IndexCeilDivS => ArithCeilDivSI,
        IndexCeilDivU => ArithCeilDivUI,
        IndexFloorDivS => ArithFloorDivSI,
        IndexRemS => ArithRemSI,
        IndexRemU => ArithRemUI,
        IndexMaxS => ArithMaxSI,
        IndexMaxU => ArithMaxUI,
        IndexMinS => ArithMinSI,
        IndexMinU => ArithMinUI,
        IndexShl => ArithShLI,
        IndexShrS => ArithShRSI,
        IndexShrU => ArithShRUI,
        IndexAnd => ArithAndI,
        IndexOr => ArithOrI,
        IndexXor => ArithXOrI,
        IndexCastS => ArithIndexCast,
        IndexCastU => ArithIndexCastUI,
        _ => return None,
    })
}

/// Lowers the current `index` op without an `arith` twin.
pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    match kind {
        KOpKind::IndexCmp => {
            let pred = l.kernel_enum("pred")?;
            let (a, b) = (l.operand(0)?, l.operand(1)?);
            let kty = l.kernel_type(l.kernel_operand(0)?);
            let bt = l.result_type(0)?;
            let v = compare_int(l, pred, a, b, kty, bt)?;
            l.set_result(0, v)
        }
        _ => Err(l.unsupported("no lowering for this index op")),
    }
}
