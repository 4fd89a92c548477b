//! Element type conversion, as `arith` casts in a `linalg.generic`:
//! floats round to nearest even (`truncf`), floats to integers round
//! toward zero (`fptosi`; out of range is undefined), integers sign-extend
//! or keep their low bits, `bool` reads as 0 / 1 and anything non-zero
//! becomes `true`.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::elementwise::broadcast_generic;
use super::text::{class, Class, Func};

/// Bits of an integer type.
fn bits(d: DType) -> usize {
    d.size() * 8
}

/// Writes `v` (of `from`) converted to `to`.
fn convert(f: &mut Func, v: &str, from: DType, to: DType, fc: Class, tc: Class) -> String {
    let (fname, tname) = (from.name(), to.name());
    match (fc, tc) {
        _ if from == to => v.to_owned(),
        (Class::Float, Class::Float) => {
            let w = f.widen(v, from);
            f.narrow(&w, to)
        }
        (Class::Float, Class::Int) => {
            let w = f.widen(v, from);
            f.let_(&format!("arith.fptosi {w} : f32 to {tname}"))
        }
        (Class::Int, Class::Float) => {
            let w = f.let_(&format!("arith.sitofp {v} : {fname} to f32"));
            f.narrow(&w, to)
        }
        (Class::Int, Class::Int) if bits(from) < bits(to) => {
            f.let_(&format!("arith.extsi {v} : {fname} to {tname}"))
        }
        (Class::Int, Class::Int) => f.let_(&format!("arith.trunci {v} : {fname} to {tname}")),
        (Class::Bool, Class::Float) => {
            let one = f.f32(1.0);
            let zero = f.f32(0.0);
            let w = f.let_(&format!("arith.select {v}, {one}, {zero} : f32"));
            f.narrow(&w, to)
        }
        (Class::Bool, _) => f.let_(&format!("arith.extui {v} : i1 to {tname}")),
        (Class::Float, Class::Bool) => {
            let w = f.widen(v, from);
            let zero = f.f32(0.0);
            f.let_(&format!("arith.cmpf une, {w}, {zero} : f32"))
        }
        (_, Class::Bool) => {
            let zero = f.constant("0", fname);
            f.let_(&format!("arith.cmpi ne, {v}, {zero} : {fname}"))
        }
    }
}

/// `x` converted to element type `dtype` (a new tensor, also when the
/// type is the same).
pub fn cast(stream: &Stream, x: &Tensor, dtype: DType) -> Result<Tensor> {
    let what = "ops::cast";
    let from = x.dtype();
    let (fc, tc) = (class(what, from)?, class(what, dtype)?);
    broadcast_generic(stream, what, &[dtype as u64], &[x], dtype, |f, args| {
        convert(f, &args[0], from, dtype, fc, tc)
    })
}
