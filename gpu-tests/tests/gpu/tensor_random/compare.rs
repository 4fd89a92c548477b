//! Comparing two engines' results of a random program with the error
//! model of `num.rs`, and writing values back as MLIR dense attributes
//! (a failing program's reproduction file).

use kiln_core::tensor::eval::{Tensor, Value};

use super::num::{Num, Ty};

/// How many times the modelled error bound two engines may differ by: the
/// model is first-order and its transcendental precisions are estimates
/// (Vulkan's own bounds for exp: 3 + 2|x| ulp; tanh, log and sqrt from
/// exp's, a few ulp).
const SLACK: f64 = 4.0;

/// The first element where `x` and `y` (results of type `ty` known as
/// `num`) differ more than the model allows, described; `None` when they
/// agree. NaN equals NaN; -0 equals +0.
pub fn differ(x: &Value, y: &Value, ty: Ty, num: Num) -> Option<String> {
    let (x, y) = match (x, y) {
        (Value::Tensor(x), Value::Tensor(y)) => (x, y),
        _ => return Some("not both tensors".into()),
    };
    if x.shape != y.shape || x.elem != y.elem {
        return Some(format!(
            "shape {:?} {} vs {:?} {}",
            x.shape, x.elem, y.shape, y.elem
        ));
    }
    let tol = if num.exact {
        0.0
    } else {
        SLACK * 2.0 * num.err + 2.0 * Num::ulp(num.bound, ty)
    };
    for i in 0..x.len() {
        let (a, b) = (x.get(i), y.get(i));
        let same = if ty.is_float() {
            let (a, b) = (a.float(), b.float());
            a == b
                || (a.is_nan() && b.is_nan())
                || (a.is_finite() && b.is_finite() && (a - b).abs() <= tol)
        } else {
            a.int() == b.int()
        };
        if !same {
            return Some(format!(
                "element {i} (index {:?}): {:?} vs {:?} (tolerance {tol:e})",
                unravel(i, &x.shape),
                a,
                b
            ));
        }
    }
    None
}

fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = i % shape[d].max(1);
        i /= shape[d].max(1);
    }
    idx
}

/// One element as an MLIR literal.
fn literal(t: &Tensor, i: usize) -> String {
    let v = t.get(i);
    match t.elem {
        kiln_core::tensor::types::ElemType::I1 => {
            (if v.int() != 0 { "true" } else { "false" }).into()
        }
        e if e.is_float() => float_literal(e, v.float()),
        _ => v.int().to_string(),
    }
}

/// A float of element type `e` as an MLIR literal: NaN and the
/// infinities as the type's bit patterns (hex), others in decimal.
pub fn float_literal(e: kiln_core::tensor::types::ElemType, f: f64) -> String {
    use kiln_core::tensor::types::ElemType;
    let (nan, inf, ninf) = match e {
        ElemType::F16 => ("0x7E00", "0x7C00", "0xFC00"),
        ElemType::BF16 => ("0x7FC0", "0x7F80", "0xFF80"),
        ElemType::F64 => (
            "0x7FF8000000000000",
            "0x7FF0000000000000",
            "0xFFF0000000000000",
        ),
        _ => ("0x7FC00000", "0x7F800000", "0xFF800000"),
    };
    if f.is_nan() {
        nan.into()
    } else if f.is_infinite() {
        (if f > 0.0 { inf } else { ninf }).into()
    } else {
        format!("{f:?}")
    }
}

/// A tensor as a dense attribute's body (`[[1, 2], [3, 4]]`).
pub fn dense(t: &Tensor) -> String {
    fn rec(t: &Tensor, dim: usize, start: usize, out: &mut String) {
        if dim == t.shape.len() {
            out.push_str(&literal(t, start));
            return;
        }
        let inner: usize = t.shape[dim + 1..].iter().product();
        out.push('[');
        for k in 0..t.shape[dim] {
            if k > 0 {
                out.push_str(", ");
            }
            rec(t, dim + 1, start + k * inner, out);
        }
        out.push(']');
    }
    let mut s = String::new();
    rec(t, 0, 0, &mut s);
    s
}

/// A short summary of a value: shape, type and its first elements.
pub fn summary(v: &Value) -> String {
    match v {
        Value::Tensor(t) => {
            let n = t.len().min(24);
            let first: Vec<String> = (0..n).map(|i| literal(t, i)).collect();
            format!(
                "{:?}x{}: [{}{}]",
                t.shape,
                t.elem,
                first.join(", "),
                if t.len() > n { ", ..." } else { "" }
            )
        }
        Value::Scalar(s) => format!("{s:?}"),
    }
}
