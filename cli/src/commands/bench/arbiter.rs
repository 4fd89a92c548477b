//! A third opinion: where kiln's outputs of a user's program differ from
//! the implementation they are checked against (IREE's, for a file with
//! no host reference), kiln's reference evaluator runs the program on the
//! same inputs, so the report says which of the two is off instead of
//! failing kiln for the other's error (IREE's CPU softmax over a row of
//! 128,256 was 1.9e-4 off an f64 softmax where kiln was 2e-7 off).

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_runtime::half::{bf16, f16};
use kiln_runtime::DType;

use super::array::HostArray;
use super::reference;

/// `inputs` as the reference evaluator's values; `None` for element
/// types it is not given here (unsigned and bool arrays).
fn values(inputs: &[HostArray]) -> Option<Vec<Value>> {
    inputs
        .iter()
        .map(|a| {
            let size = a.dtype.size();
            let chunks = a.bytes.chunks_exact(size);
            let (elem, data) = match a.dtype {
                DType::F32 => (
                    ElemType::F32,
                    Elements::F32(
                        chunks
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect(),
                    ),
                ),
                DType::F16 => (
                    ElemType::F16,
                    Elements::F16(
                        chunks
                            .map(|c| f16::from_le_bytes([c[0], c[1]]).to_bits())
                            .collect(),
                    ),
                ),
                DType::BF16 => (
                    ElemType::BF16,
                    Elements::BF16(
                        chunks
                            .map(|c| bf16::from_le_bytes([c[0], c[1]]).to_bits())
                            .collect(),
                    ),
                ),
                DType::I32 => (
                    ElemType::Int(32),
                    Elements::I32(
                        chunks
                            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                            .collect(),
                    ),
                ),
                DType::I64 => (
                    ElemType::Int(64),
                    Elements::I64(
                        chunks
                            .map(|c| {
                                i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
                            })
                            .collect(),
                    ),
                ),
                _ => return None,
            };
            Some(Value::Tensor(std::rc::Rc::new(Tensor {
                elem,
                shape: a.shape.clone(),
                data,
            })))
        })
        .collect()
}

/// Checks kiln's outputs `got` against the reference evaluator's run of
/// `function` of `text` on `inputs`: `Ok(detail)` where every output
/// agrees within the bench's tolerance, `Err(why)` where one does not or
/// the evaluator cannot run the program.
pub fn check(
    text: &str,
    function: &str,
    inputs: &[HostArray],
    got: &[HostArray],
) -> Result<String, String> {
    let module = kiln_core::tensor::load(text).map_err(|e| e.to_string())?;
    let args = values(inputs).ok_or("an input type the evaluator is not given here")?;
    let want = eval::run(&module, function, &args).map_err(|e| e.to_string())?;
    if want.len() != got.len() {
        return Err(format!(
            "{} outputs, the evaluator {}",
            got.len(),
            want.len()
        ));
    }
    let mut detail = String::from("no outputs");
    for (k, (w, g)) in want.iter().zip(got).enumerate() {
        let Value::Tensor(t) = w else {
            return Err(format!("output {k} is not a tensor"));
        };
        let w: Vec<f64> = (0..t.len()).map(|i| t.get(i).float()).collect();
        detail = reference::compare(&g.to_f64(), &w, reference::tolerance(g.dtype))
            .map_err(|e| format!("output {k}: {e}"))?;
    }
    Ok(detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOFTMAX: &str = r#"func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}"#;

    /// The evaluator confirms a right output and rejects a wrong one.
    #[test]
    fn the_evaluator_settles_a_disagreement() {
        let x = HostArray::f32(&[2, 3], &[0.0, 1.0, 2.0, 0.0, 0.0, 0.0]);
        let row = |a: f64, b: f64, c: f64| {
            let s = a.exp() + b.exp() + c.exp();
            [a.exp() / s, b.exp() / s, c.exp() / s]
        };
        let right: Vec<f32> = row(0.0, 1.0, 2.0)
            .into_iter()
            .chain(row(0.0, 0.0, 0.0))
            .map(|v| v as f32)
            .collect();
        let good = HostArray::f32(&[2, 3], &right);
        assert!(check(SOFTMAX, "f", std::slice::from_ref(&x), &[good]).is_ok());
        let mut wrong = right.clone();
        wrong[4] += 1e-3;
        let bad = HostArray::f32(&[2, 3], &wrong);
        let e = check(SOFTMAX, "f", std::slice::from_ref(&x), &[bad]).unwrap_err();
        assert!(e.contains("element 4"), "{e}");
    }
}
