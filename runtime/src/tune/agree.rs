//! Whether a candidate strategy's results agree with the heuristic's.
//!
//! Most candidates run the same operations in the same order per output
//! (register and workgroup-memory tiles of other sizes, other vector
//! widths) and must agree in every bit. Candidates that split a float
//! reduction differently (a softmax row over a workgroup instead of one
//! invocation, a reduction split over workgroups) add in another order,
//! so float tensors are compared by their largest error normalised by
//! the largest magnitude of the heuristic's result, within a bound per
//! element type a few hundred times its rounding unit; NaNs and
//! infinities must sit at the same places. Integers and booleans are
//! compared exactly.

use kiln_core::tensor::eval::{Tensor, Value};
use kiln_core::tensor::types::ElemType;

/// The largest normalised error accepted for float elements of `elem`.
pub fn tolerance(elem: ElemType) -> f64 {
    match elem {
        ElemType::F16 => 2e-2,
        ElemType::BF16 => 1e-1,
        ElemType::F64 => 1e-12,
        _ => 1e-4,
    }
}

/// `Ok` where `got` agrees with `want`, else why not.
pub fn agree(got: &[Value], want: &[Value]) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} results, expected {}", got.len(), want.len()));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        match (g, w) {
            (Value::Tensor(g), Value::Tensor(w)) if w.elem.is_float() => {
                tensors_agree(g, w).map_err(|e| format!("result {i}: {e}"))?
            }
            _ if g == w => {}
            _ => return Err(format!("result {i} differs from the heuristic strategy's")),
        }
    }
    Ok(())
}

fn tensors_agree(got: &Tensor, want: &Tensor) -> Result<(), String> {
    if got.elem != want.elem || got.shape != want.shape {
        return Err("another type or shape than the heuristic strategy's".to_string());
    }
    let values = |t: &Tensor| (0..t.len()).map(|i| t.get(i).float()).collect::<Vec<f64>>();
    let (g, w) = (values(got), values(want));
    let scale = w
        .iter()
        .filter(|x| x.is_finite())
        .fold(0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    let bound = tolerance(want.elem);
    for (k, (a, b)) in g.iter().zip(&w).enumerate() {
        let same_special = (a.is_nan() && b.is_nan()) || (a.is_infinite() && a == b);
        if same_special {
            continue;
        }
        if !a.is_finite() || !b.is_finite() || (a - b).abs() / scale > bound {
            return Err(format!(
                "element {k} is {a}, the heuristic strategy's {b} (normalised error above {bound:.0e})"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_core::tensor::attr::Elements;
    use std::rc::Rc;

    fn f32s(v: &[f32]) -> Value {
        Value::Tensor(Rc::new(Tensor {
            elem: ElemType::F32,
            shape: vec![v.len()],
            data: Elements::F32(v.to_vec()),
        }))
    }

    #[test]
    fn floats_agree_within_the_bound_of_their_type() {
        assert!(agree(&[f32s(&[1.0, 2.0])], &[f32s(&[1.0, 2.0 + 1e-6])]).is_ok());
        assert!(agree(&[f32s(&[1.0, 2.0])], &[f32s(&[1.0, 2.01])]).is_err());
        assert!(agree(
            &[f32s(&[f32::NAN, f32::INFINITY])],
            &[f32s(&[f32::NAN, f32::INFINITY])]
        )
        .is_ok());
        assert!(agree(&[f32s(&[f32::NAN])], &[f32s(&[0.0])]).is_err());
        assert!(agree(&[f32s(&[-f32::INFINITY])], &[f32s(&[f32::INFINITY])]).is_err());
    }

    #[test]
    fn integers_agree_only_exactly() {
        let ints = |v: &[i32]| {
            Value::Tensor(Rc::new(Tensor {
                elem: ElemType::I32,
                shape: vec![v.len()],
                data: Elements::I32(v.to_vec()),
            }))
        };
        assert!(agree(&[ints(&[1, 2])], &[ints(&[1, 2])]).is_ok());
        assert!(agree(&[ints(&[1, 2])], &[ints(&[1, 3])]).is_err());
        assert!(agree(&[ints(&[1])], &[ints(&[1]), ints(&[1])]).is_err());
    }
}
