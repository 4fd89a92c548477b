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

/// How a candidate's results disagree with the heuristic strategy's.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Disagreement {
    /// Another number of results.
    #[error("{got} results, expected {want}")]
    Count {
        /// The candidate's.
        got: usize,
        /// The heuristic's.
        want: usize,
    },
    /// A float tensor result outside the bound.
    #[error("result {index}: {reason}")]
    Tensor {
        /// The result's index.
        index: usize,
        /// How it differs.
        reason: TensorDisagreement,
    },
    /// Another result (compared exactly).
    #[error("result {0} differs from the heuristic strategy's")]
    Differs(usize),
}

/// How a float tensor differs from the heuristic strategy's.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TensorDisagreement {
    /// Another element type or shape.
    #[error("another type or shape than the heuristic strategy's")]
    TypeOrShape,
    /// An element beyond the bound (or a misplaced NaN or infinity).
    #[error(
        "element {index} is {got}, the heuristic strategy's {want} (normalised error above {bound:.0e})"
    )]
    Element {
        /// The element's index.
        index: usize,
        /// The candidate's value.
        got: f64,
        /// The heuristic's value.
        want: f64,
        /// The bound on the normalised error.
        bound: f64,
    },
}

/// `Ok` where `got` agrees with `want`, else why not.
pub fn agree(got: &[Value], want: &[Value]) -> Result<(), Disagreement> {
    if got.len() != want.len() {
        return Err(Disagreement::Count {
            got: got.len(),
            want: want.len(),
        });
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        match (g, w) {
            (Value::Tensor(g), Value::Tensor(w)) if w.elem.is_float() => {
                tensors_agree(g, w).map_err(|reason| Disagreement::Tensor { index: i, reason })?
            }
            _ if g == w => {}
            _ => return Err(Disagreement::Differs(i)),
        }
    }
    Ok(())
}

fn tensors_agree(got: &Tensor, want: &Tensor) -> Result<(), TensorDisagreement> {
    if got.elem != want.elem || got.shape != want.shape {
        return Err(TensorDisagreement::TypeOrShape);
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
            return Err(TensorDisagreement::Element {
                index: k,
                got: *a,
                want: *b,
                bound,
            });
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
