//! A third opinion: where kiln's outputs of a user's program differ from
//! the implementation they are checked against (IREE's, for a file with
//! no host reference), kiln's reference evaluator runs the program on the
//! same inputs, so the report says which of the two is off instead of
//! failing kiln for the other's error. It runs the program widened to
//! f64 where the text allows (every `f32` made `f64`, f32 inputs
//! widened): a serial f32 fold is no arbiter of a long sum (IREE's CPU
//! softmax over a row of 128,256 and the f32 evaluator's were both
//! 1.9e-4 off an f64 softmax, where kiln was 2e-7 off). Programs the
//! widening breaks (bitcasts, hex-encoded dense f32 data) run as written.

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_runtime::half::{bf16, f16};
use kiln_runtime::DType;

use super::array::HostArray;
use super::reference;

/// `text` with every `f32` made `f64` (names too, consistently) and
/// every f32 hex literal (`0x7F800000 : f32`) rewritten as the same value
/// in f64 bits.
fn widened(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let digits = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        let after = tail[digits..].trim_start();
        let bits = (digits == 8)
            .then(|| u32::from_str_radix(&tail[..8], 16).ok())
            .flatten();
        match (bits, after.strip_prefix(':').map(str::trim_start)) {
            (Some(b), Some(ty)) if ty.starts_with("f32") => {
                let wide = f64::from(f32::from_bits(b)).to_bits();
                out.push_str(&format!("0x{wide:016X}"));
            }
            _ => out.push_str(&rest[at..at + 2 + digits]),
        }
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out.replace("f32", "f64")
}

/// `inputs` as the reference evaluator's values, f32 arrays widened to
/// f64 where `wide`; `None` for element types it is not given here
/// (unsigned and bool arrays). Elements come through
/// [`HostArray::to_f64`] (exact for every type here but i64, read from
/// its bytes).
fn values(inputs: &[HostArray], wide: bool) -> Option<Vec<Value>> {
    inputs
        .iter()
        .map(|a| {
            let v = a.to_f64();
            let (elem, data) = match a.dtype {
                DType::F32 if wide => (ElemType::F64, Elements::F64(v)),
                DType::F32 => (
                    ElemType::F32,
                    Elements::F32(v.iter().map(|&x| x as f32).collect()),
                ),
                DType::F16 => (
                    ElemType::F16,
                    Elements::F16(v.iter().map(|&x| f16::from_f64(x).to_bits()).collect()),
                ),
                DType::BF16 => (
                    ElemType::BF16,
                    Elements::BF16(v.iter().map(|&x| bf16::from_f64(x).to_bits()).collect()),
                ),
                DType::I32 => (
                    ElemType::Int(32),
                    Elements::I32(v.iter().map(|&x| x as i32).collect()),
                ),
                DType::I64 => (
                    ElemType::Int(64),
                    Elements::I64(
                        a.bytes
                            .chunks_exact(8)
                            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
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
    // In f64 where the widened program parses and runs, else as written.
    let wide = || -> Option<Vec<Value>> {
        let module = kiln_core::tensor::load(&widened(text)).ok()?;
        let args = values(inputs, true)?;
        eval::run(&module, &function.replace("f32", "f64"), &args).ok()
    };
    let (want, how) = match wide() {
        Some(w) => (w, "in f64"),
        None => {
            let module = kiln_core::tensor::load(text).map_err(|e| e.to_string())?;
            let args =
                values(inputs, false).ok_or("an input type the evaluator is not given here")?;
            let w = eval::run(&module, function, &args).map_err(|e| e.to_string())?;
            (w, "as written")
        }
    };
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
            .map_err(|e| format!("output {k} ({how}): {e}"))?;
    }
    Ok(format!("{how}: {detail}"))
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

    /// Widening keeps f32 hex literals' values and leaves other hex
    /// numbers alone; the widened softmax runs in f64.
    #[test]
    fn widening_rewrites_types_and_f32_hex_literals() {
        let text = "%a = arith.constant 0xFF800000 : f32\n%b = arith.constant 0x10 : i32\n%t = tensor.empty() : tensor<4xf32>";
        assert_eq!(
            widened(text),
            "%a = arith.constant 0xFFF0000000000000 : f64\n%b = arith.constant 0x10 : i32\n%t = tensor.empty() : tensor<4xf64>"
        );
        let m = kiln_core::tensor::load(&widened(SOFTMAX)).unwrap();
        let x = HostArray::f32(&[2, 3], &[0.0; 6]);
        let out = eval::run(&m, "f", &values(&[x], true).unwrap()).unwrap();
        let Value::Tensor(t) = &out[0] else {
            panic!("a tensor");
        };
        assert_eq!(t.elem, ElemType::F64);
    }
}
