//! `HannWindow`, `HammingWindow`, `BlackmanWindow` (opset 17): a generic
//! over the window's `size` (known before running), `cos`/`sin` of the
//! index computed in f32.

use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::ElemType;

use super::gather::indexed_generic;
use super::scalar::{arith, convert, cst, math, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;

#[derive(Clone, Copy)]
enum Kind {
    Hann,
    Hamming,
    Blackman,
}

fn window(c: &mut Ctx<'_>, n: &Node<'_>, kind: Kind) -> OpResult {
    let size = n.known(0)?;
    if size.len() != 1 {
        return Err(n.err("size must be a scalar"));
    }
    let size = size.int(0);
    if size <= 0 {
        return Err(n.err(format!("size {size} must be positive")));
    }
    let to = DataType::from_code(
        n.int("output_datatype", 1) as i32,
        &format!("node {}", n.name()),
    )?;
    let periodic = n.int("periodic", 1) != 0;
    let n1 = if periodic { size } else { size - 1 };
    let f = DataType::Float;
    let y = indexed_generic(c, &[size as u64], to, &[], |bb, li, _| {
        let i = bb.arith(ArithOp::IndexCast, vec![li[0]], ElemType::I64);
        let x = bb.arith(ArithOp::SIToFP, vec![i], ElemType::F32);
        let step = std::f64::consts::PI / n1 as f64;
        let angle = |bb: &mut kiln_core::tensor::structured::BodyBuilder<'_>, k: f64| {
            let s = cst(bb, f, step * k);
            arith(bb, f, Bin::Mul, x, s)
        };
        let v = match kind {
            Kind::Hann => {
                let a = angle(bb, 1.0);
                let s = math(bb, MathOp::Sin, a);
                arith(bb, f, Bin::Mul, s, s)
            }
            Kind::Hamming => {
                let alpha = 25.0 / 46.0;
                let a = angle(bb, 2.0);
                let co = math(bb, MathOp::Cos, a);
                let b = cst(bb, f, 1.0 - alpha);
                let t = arith(bb, f, Bin::Mul, co, b);
                let al = cst(bb, f, alpha);
                arith(bb, f, Bin::Sub, al, t)
            }
            Kind::Blackman => {
                let a2 = angle(bb, 2.0);
                let a4 = angle(bb, 4.0);
                let c2 = math(bb, MathOp::Cos, a2);
                let c4 = math(bb, MathOp::Cos, a4);
                let h = cst(bb, f, -0.5);
                let e = cst(bb, f, 0.08);
                let t = arith(bb, f, Bin::Mul, c2, h);
                let u = arith(bb, f, Bin::Mul, c4, e);
                let t = arith(bb, f, Bin::Add, t, u);
                let al = cst(bb, f, 0.42);
                arith(bb, f, Bin::Add, t, al)
            }
        };
        convert(bb, f, to, v)
    });
    Ok(vec![y])
}

/// `HannWindow(size, periodic, output_datatype)`: `sin^2(pi n / N')`.
pub fn hann(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    window(c, n, Kind::Hann)
}

/// `HammingWindow`: `25/46 - 21/46 cos(2 pi n / N')`.
pub fn hamming(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    window(c, n, Kind::Hamming)
}

/// `BlackmanWindow`: `0.42 - 0.5 cos(2 pi n / N') + 0.08 cos(4 pi n / N')`.
pub fn blackman(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    window(c, n, Kind::Blackman)
}
