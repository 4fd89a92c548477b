//! The element types a program is drawn with (issue 31 §3): mostly f32 or
//! f16 floats and i32 / i64 / i8 integers, sometimes bf16 or f64 floats
//! and i16 integers, which real importers emit too.

use kiln_gpu_tests::Rng;

use super::super::num::Ty;

/// The program's float and (non-i1) integer types.
pub(super) fn draw(rng: &mut Rng) -> (Ty, Ty) {
    let ft = match rng.below(16) {
        0 => Ty::BF16,
        1 => Ty::F64,
        2..=5 => Ty::F16,
        _ => Ty::F32,
    };
    let it = if rng.chance(1, 8) {
        Ty::I16
    } else {
        rng.pick(&[Ty::I32, Ty::I32, Ty::I64, Ty::I8])
    };
    (ft, it)
}

/// What a float of type `ty` converts to and from in a region
/// (`arith.truncf` / `arith.extf`): a narrower type for f32 and f64 (f32
/// to f16 or bf16, the program's half type when it has one), f32 for the
/// half types.
pub(super) fn float_partner(ty: Ty, ft: Ty) -> Ty {
    match ty {
        Ty::F32 if ft == Ty::BF16 => Ty::BF16,
        Ty::F32 => Ty::F16,
        _ => Ty::F32,
    }
}

/// Whether `a` converts to `b` by `arith.truncf` (narrower), else by
/// `arith.extf`.
pub(super) fn narrows(a: Ty, b: Ty) -> bool {
    a.width() > b.width()
}
