//! `arith.mulsi_extended` / `arith.mului_extended`, rewritten at import.
//!
//! ```mlir
//! %low, %high = arith.mulsi_extended %a, %b : i32
//! ```
//!
//! The full product of two N-bit integers (signed or unsigned), as its low
//! and high N bits. MLIR's `tosa-to-arith` emits it for `tosa.apply_scale`
//! (TOSA's rescale: every quantized TOSA program; with `use-32-bit`, what
//! IREE's SPIR-V pipeline asks for, so that no i64 is needed), and
//! `tosa-to-linalg` for `tosa.mul` with a shift. kiln reads it as ops it
//! has, on scalars, all of at most 32 bits (so devices without `Int64`
//! run it too); the program prints back as those ops:
//!
//! * i1 to i16: both operands extended (`extsi` / `extui`) to i32, one
//!   `muli` (the product of two 16-bit integers fits in 32 bits, signed or
//!   unsigned), `trunci` for the low half, a right shift by N (`shrsi` /
//!   `shrui`) then `trunci` for the high half.
//! * i32: the low half is `muli`; the unsigned high half comes from the
//!   16-bit halves of each operand (`a = a1·2¹⁶ + a0`): the four partial
//!   products `a0·b0`, `a1·b0`, `a0·b1`, `a1·b1` each fit in 32 bits
//!   unsigned, and `high = a1·b1 + (a1·b0 >> 16) + (a0·b1 >> 16) + (t >> 16)`
//!   with the carry word `t = (a0·b0 >> 16) + (a1·b0 & 0xFFFF) + (a0·b1 &
//!   0xFFFF)` (below 3·2¹⁶). The signed high half is the unsigned one minus
//!   `b` where `a < 0` and minus `a` where `b < 0` (modulo 2³²).
//!
//! Refused on its line: 64-bit operands and tensor or vector operands
//! (MLIR's lowerings emit it on the scalars of a structured op's body).

use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::attr::{CmpIPred, ConstAttr};
use crate::tensor::entity::{TBlock, TType, TValue};
use crate::tensor::ops::{ArithOp, OpKind};
use crate::tensor::types::{ElemType, TypeKind};
use crate::text::cursor::TokenParser;

/// Appends ops to one block at one location.
struct Emit<'p, 'a> {
    p: &'p mut Parser<'a>,
    block: TBlock,
    loc: Location,
}

impl Emit<'_, '_> {
    fn op(&mut self, kind: OpKind, args: Vec<TValue>, ty: TType) -> TValue {
        let o = self.p.m.create_op(kind, args, &[ty], vec![], self.loc);
        self.p.m.append_op(self.block, o);
        self.p.m.op(o).results[0]
    }

    fn arith(&mut self, op: ArithOp, args: Vec<TValue>, ty: TType) -> TValue {
        let kind = OpKind::Arith {
            op,
            fastmath: Default::default(),
            overflow: Default::default(),
        };
        self.op(kind, args, ty)
    }

    fn int(&mut self, value: i64, ty: TType) -> TValue {
        self.op(OpKind::Constant(ConstAttr::Int { value, ty }), vec![], ty)
    }
}

impl Parser<'_> {
    /// The operands and type of `arith.mul{si,ui}_extended` after its name
    /// (`signed` for `mulsi`), rewritten into ops appended to `block`; its
    /// results, low then high.
    pub(crate) fn parse_mul_extended(
        &mut self,
        block: TBlock,
        signed: bool,
        loc: Location,
    ) -> PResult<Vec<TValue>> {
        let operands = self.value_list()?;
        self.expect_punct(":")?;
        let tloc = self.loc();
        let ty = self.parse_type()?;
        self.expect_count(&operands, 2, tloc)?;
        self.check_types(&operands, &[ty, ty], tloc)?;
        let bits = match self.m.types.get(ty) {
            TypeKind::Scalar(ElemType::Int(w)) if *w <= 32 => *w,
            TypeKind::Scalar(ElemType::Int(_)) => {
                return self.err_at(
                    loc,
                    "unsupported 64-bit 'arith.mul{si,ui}_extended' (its product needs 128 bits)",
                )
            }
            TypeKind::Scalar(_) => return self.err_at(tloc, "expected a signless integer type"),
            _ => {
                return self.err_at(
                    loc,
                    "unsupported 'arith.mul{si,ui}_extended' on a tensor or vector (kiln reads it on scalars)",
                )
            }
        };
        let i32t = self.m.types.scalar(ElemType::Int(32));
        let mut e = Emit {
            p: self,
            block,
            loc,
        };
        let (a, b) = (operands[0], operands[1]);
        if bits < 32 {
            let (ext, shr) = if signed {
                (ArithOp::ExtSI, ArithOp::ShRSI)
            } else {
                (ArithOp::ExtUI, ArithOp::ShRUI)
            };
            let wa = e.arith(ext, vec![a], i32t);
            let wb = e.arith(ext, vec![b], i32t);
            let product = e.arith(ArithOp::MulI, vec![wa, wb], i32t);
            let low = e.arith(ArithOp::TruncI, vec![product], ty);
            let n = e.int(i64::from(bits), i32t);
            let shifted = e.arith(shr, vec![product, n], i32t);
            let high = e.arith(ArithOp::TruncI, vec![shifted], ty);
            return Ok(vec![low, high]);
        }
        use ArithOp::{AddI, AndI, MulI, ShRUI, SubI};
        let c16 = e.int(16, ty);
        let mask = e.int(0xFFFF, ty);
        let a0 = e.arith(AndI, vec![a, mask], ty);
        let a1 = e.arith(ShRUI, vec![a, c16], ty);
        let b0 = e.arith(AndI, vec![b, mask], ty);
        let b1 = e.arith(ShRUI, vec![b, c16], ty);
        let p00 = e.arith(MulI, vec![a0, b0], ty);
        let p10 = e.arith(MulI, vec![a1, b0], ty);
        let p01 = e.arith(MulI, vec![a0, b1], ty);
        let p11 = e.arith(MulI, vec![a1, b1], ty);
        let p00_hi = e.arith(ShRUI, vec![p00, c16], ty);
        let p10_lo = e.arith(AndI, vec![p10, mask], ty);
        let p01_lo = e.arith(AndI, vec![p01, mask], ty);
        let t = e.arith(AddI, vec![p00_hi, p10_lo], ty);
        let t = e.arith(AddI, vec![t, p01_lo], ty);
        let p10_hi = e.arith(ShRUI, vec![p10, c16], ty);
        let p01_hi = e.arith(ShRUI, vec![p01, c16], ty);
        let t_hi = e.arith(ShRUI, vec![t, c16], ty);
        let high = e.arith(AddI, vec![p11, p10_hi], ty);
        let high = e.arith(AddI, vec![high, p01_hi], ty);
        let mut high = e.arith(AddI, vec![high, t_hi], ty);
        if signed {
            let i1 = e.p.m.types.scalar(ElemType::I1);
            let zero = e.int(0, ty);
            let slt = ArithOp::CmpI(CmpIPred::Slt);
            let a_neg = e.arith(slt, vec![a, zero], i1);
            let b_neg = e.arith(slt, vec![b, zero], i1);
            let fix_a = e.arith(ArithOp::Select, vec![a_neg, b, zero], ty);
            let fix_b = e.arith(ArithOp::Select, vec![b_neg, a, zero], ty);
            high = e.arith(SubI, vec![high, fix_a], ty);
            high = e.arith(SubI, vec![high, fix_b], ty);
        }
        let low = e.arith(MulI, vec![a, b], ty);
        Ok(vec![low, high])
    }
}
