//! `index` -> spv: each op lowers like its `arith` twin (`index.add` as
//! `arith.addi`, `index.casts` as `arith.index_cast`, ...), on the
//! converted index type.

use crate::kernel::KOpKind;

use super::arith::compare_int;
use super::ctx::Lowerer;
use super::error::LowerError;

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    use KOpKind::*;
    let twin = match kind {
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
        IndexCmp => {
            let pred = l.kenum("pred")?;
            let (a, b) = (l.opnd(0)?, l.opnd(1)?);
            let kty = l.ktype(l.kopnd(0)?);
            let bt = l.res_type(0)?;
            let v = compare_int(l, pred, a, b, kty, bt)?;
            return l.set_res(0, v);
        }
        _ => return Err(l.unsupported("no lowering for this index op")),
    };
    super::arith::lower(l, twin)
}
